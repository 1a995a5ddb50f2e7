// RBAC authorization as kube-apiserver's RBAC authorizer decides it, over the
// Roles, ClusterRoles and their bindings stored in the cluster. Members of
// system:masters pass everything (kube-apiserver's privileged-group
// authorizer); everything else comes from stored bindings, the bootstrap
// policy's included (rbac_defaults.h: discovery and /openapi for
// system:authenticated, health and /version for everyone). Aggregated
// ClusterRoles are read with the rules their aggregation stored.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
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
// The same decision with kube-apiserver's reason: "" for system:masters (the
// privileged-group authorizer gives none), `RBAC: allowed by ClusterRoleBinding
// "b" of ClusterRole "r" to Group "g"` otherwise; nullopt when denied.
std::optional<std::string> rbac_allowed_by(const Store& store, const RequestAttributes& request);
// Every rule bound to the caller, cluster-wide and in request.ns, as a
// SelfSubjectRulesReview's status: {resourceRules, nonResourceRules, incomplete}.
nlohmann::json rbac_rules_for(const Store& store, const RequestAttributes& request);

// The 403 body kube-apiserver answers, as a metav1.Status JSON:
// `clusterqueues.kueue.x-k8s.io "cq" is forbidden: User "u" cannot update
// resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope`.
nlohmann::json forbidden_status(const RequestAttributes& request);

// The verb kube-apiserver's RequestInfo gives an HTTP method on a resource path.
std::string verb_of(const std::string& method, bool has_name, bool watch);

}  // namespace mkq::sandbox
