// RBAC authorization as kube-apiserver's RBAC authorizer decides it, over the
// Roles, ClusterRoles and their bindings stored in the cluster. Members of
// system:masters pass everything (kube-apiserver's privileged-group
// authorizer); everything else comes from stored bindings, the bootstrap
// policy's included (rbac_defaults.h: discovery and /openapi for
// system:authenticated, health and /version for everyone).
#pragma once

#include <cstdint>
#include <memory>
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

// kube-apiserver's RBAC authorizer over one cluster's store. The stored Roles,
// ClusterRoles and bindings are compiled once (their string lists read out of
// the JSON, each binding's roleRef resolved), and the rules granted to each
// caller (user, groups, namespace) are gathered once, in the order the
// decision walks them. Exact, never stale: everything is compiled afresh when
// the store's epoch of the RBAC API group (Store::group_epoch) is no longer
// the one it was compiled at, and any put or remove of a Role, ClusterRole,
// RoleBinding or ClusterRoleBinding moves it -- whoever makes it (a request,
// the aggregation hook, a namespace's deletion). A dry run writes nothing and
// so keeps it. Aggregated ClusterRoles are read with the rules their
// aggregation stored, like any other.
//
// One per cluster (ClusterState::rbac); not thread-safe: used under the
// cluster's lock like the store it reads.
class RbacAuthorizer {
 public:
  RbacAuthorizer();
  ~RbacAuthorizer();
  RbacAuthorizer(const RbacAuthorizer&) = delete;
  RbacAuthorizer& operator=(const RbacAuthorizer&) = delete;

  // True when the caller may do it.
  bool allows(const Store& store, const RequestAttributes& request);
  // The same decision with kube-apiserver's reason: "" for system:masters (the
  // privileged-group authorizer gives none), `RBAC: allowed by ClusterRoleBinding
  // "b" of ClusterRole "r" to Group "g"` otherwise; nullopt when denied.
  std::optional<std::string> allowed_by(const Store& store, const RequestAttributes& request);
  // Every rule bound to the caller, cluster-wide and in request.ns, as a
  // SelfSubjectRulesReview's status: {resourceRules, nonResourceRules, incomplete}.
  nlohmann::json rules_for(const Store& store, const RequestAttributes& request);

  // How many times the stored RBAC objects were compiled (tests: a write of
  // another group's object does not recompile).
  std::size_t compilations() const { return compilations_; }

 private:
  struct Compiled;
  struct Grant;
  // The rules granted to the caller, in decision order, from a compilation
  // current for `store`.
  const std::vector<Grant>& grants(const Store& store, const RequestAttributes& request);

  std::unique_ptr<Compiled> compiled_;
  std::uint64_t epoch_ = 0;  // the RBAC group's epoch compiled_ was built at; 0: none yet
  std::size_t compilations_ = 0;
};

// The 403 body kube-apiserver answers, as a metav1.Status JSON:
// `clusterqueues.kueue.x-k8s.io "cq" is forbidden: User "u" cannot update
// resource "clusterqueues" in API group "kueue.x-k8s.io" at the cluster scope`.
nlohmann::json forbidden_status(const RequestAttributes& request);

// The verb kube-apiserver's RequestInfo gives an HTTP method on a resource path.
std::string verb_of(const std::string& method, bool has_name, bool watch);

}  // namespace mkq::sandbox
