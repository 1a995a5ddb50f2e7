// scheduling.k8s.io/v1 PriorityClasses, as kube-apiserver v1.33 serves
// them: preemptionPolicy defaulted, the value range of user classes, the
// reserved `system-` prefix, value and preemptionPolicy immutable, one
// globalDefault (the Priority admission plugin's 403), the two system classes
// (system-cluster-critical 2000000000, system-node-critical 2000001000)
// created on start and refused a delete, and the table printer.
#pragma once

#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/schema.h"

namespace mkq::sandbox {

// SetDefaults_PriorityClass: preemptionPolicy PreemptLowerPriority. No state.
void default_priority_class(nlohmann::json& priority_class);

// ValidatePriorityClass, and ValidatePriorityClassUpdate with `existing`.
std::vector<FieldError> validate_priority_class(const nlohmann::json& priority_class, const nlohmann::json* existing);

// The Priority admission plugin: a second globalDefault class is a 403
// naming the one there is. nullopt when admitted. Reads the store.
std::optional<ApiResponse> admit_priority_class(const ClusterState& state, const nlohmann::json& priority_class,
                                                bool create);

// A delete of a system class: 403 `this is a system priority class and cannot be deleted`.
std::optional<ApiResponse> refuse_priority_class_delete(const std::string& name);

// Creates the system classes that are missing. Under the cluster's lock.
void install_system_priority_classes(ClusterState& state);

// The printer: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY.
nlohmann::json priority_class_columns();
nlohmann::json priority_class_cells(const nlohmann::json& priority_class, std::time_t now);

}  // namespace mkq::sandbox
