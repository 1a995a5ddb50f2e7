// RBAC authorization as kube-apiserver's RBAC authorizer decides it, over the
// Roles, ClusterRoles and their bindings stored in the cluster. Members of
// system:masters pass everything; every authenticated user may read discovery,
// /version, health and /openapi (kube-apiserver's default system:discovery,
// system:basic-user and system:public-info-viewer bindings). Aggregated
// ClusterRoles (aggregationRule) are not expanded.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/store.h"

namespace mkq::sandbox {

// What a request asks to do, as kube-apiserver's RequestInfo describes it.
struct RequestAttributes {
  std::string user;
  std::vector<std::string> groups;
  std::string verb;              // get, list, watch, create, update, patch, delete, deletecollection
  bool resource_request = true;  // false: a non-resource URL (path)
  std::string api_group;         // "" for core
  std::string resource;          // plural
  std::string subresource;       // "status", "token", ...
  std::string ns;                // "" at the cluster scope
  std::string name;              // "" for list, create, deletecollection
  std::string path;              // non-resource requests
};

// True when the caller may do it. `store` is read under the cluster's lock.
bool rbac_allows(const Store& store, const RequestAttributes& request);

// The 403 body kube-apiserver answers, as a metav1.Status JSON:
// `clusterqueues.kueue.x-k8s.io "cq" is forbidden: User "u" cannot update
// resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope`.
nlohmann::json forbidden_status(const RequestAttributes& request);

// The verb kube-apiserver's RequestInfo gives an HTTP method on a resource path.
std::string verb_of(const std::string& method, bool has_name, bool watch);

}  // namespace mkq::sandbox
