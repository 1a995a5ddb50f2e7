// Nodes and Pods: stored and served as written, with kube-apiserver's table
// columns and field selectors, so that tests can give a worker capacity (a
// Node's status.allocatable) and load (Pods with spec.nodeName, requests and
// status.phase). The sandbox runs no kubelet and no scheduler: nothing sets a
// Pod's node or phase, nor a Node's conditions, but the client that writes them.
#pragma once

#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sandbox/resources.h"

namespace mkq::sandbox {

// Nodes and Pods have a printer of their own in kube-apiserver: columns after
// AGE (a Node's VERSION) and cells computed from several fields.
bool has_workload_printer(const ResourceInfo& info);
// The column definitions, NAME and AGE included (only for has_workload_printer).
nlohmann::json workload_columns(const ResourceInfo& info);
// One object's cells, in the order of workload_columns.
nlohmann::json workload_cells(const ResourceInfo& info, const nlohmann::json& object, std::time_t now);

// Whether `key` is a field label of `info`'s kind beyond metadata.name and
// metadata.namespace (pods: spec.nodeName, status.phase, ...; nodes:
// spec.unschedulable; secrets: type; namespaces: status.phase; events:
// involvedObject.*, reason, reportingComponent, source, type; jobs:
// status.successful).
bool is_field_label(const ResourceInfo& info, const std::string& key);
// The value of such a field label as kube-apiserver's field set holds it: an
// absent string is "", an absent boolean "false", an absent count "0". nullopt for other keys.
std::optional<std::string> field_label_value(const std::string& key, const nlohmann::json& object);

}  // namespace mkq::sandbox
