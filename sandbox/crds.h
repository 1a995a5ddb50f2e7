// CustomResourceDefinitions as kube-apiserver's apiextensions server keeps
// them: a CRD's own rules on a write, the status it is given (names accepted,
// established at once), installing its resources in the Registry when it is
// written, and removing its custom resources when it is deleted. The schema
// a CRD carries is applied to its objects by prepare.h (schema.h).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "sandbox/cluster_state.h"
#include "sandbox/resources.h"
#include "sandbox/schema.h"

namespace mkq::sandbox {

inline constexpr const char* kApiExtensionsGroup = "apiextensions.k8s.io";

// True for apiextensions.k8s.io customresourcedefinitions.
bool is_crd(const ResourceInfo& info);

// A CRD's own rules: group, names, scope, a version, name = plural.group, and
// every x-kubernetes-validations rule compiles (crd_rules.h). No state.
void validate_crd(const nlohmann::json& crd, std::vector<FieldError>* errors);

// The status kube-apiserver gives a CRD it accepted: NamesAccepted and Established. No state.
void set_crd_status(nlohmann::json& crd);

// Re-derives the served custom resources from the CRDs in the store; called
// after every write of a CRD (and at start).
void refresh_registry(ClusterState& state);

// After a CRD was removed: removes its custom resources, and stops serving them.
void remove_custom_resources(ClusterState& state, const nlohmann::json& crd);

}  // namespace mkq::sandbox
