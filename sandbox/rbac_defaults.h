// kube-apiserver's bootstrap RBAC policy (plugin/pkg/auth/authorizer/rbac/
// bootstrappolicy), the part a client can tell: the user-facing ClusterRoles
// cluster-admin, admin, edit and view (the last three aggregated from the
// ClusterRoles labelled rbac.authorization.k8s.io/aggregate-to-*), the
// discovery, basic-user and public-info roles, and their bindings. They are
// stored objects like any other -- `kubectl get clusterrole view` shows them and
// RBAC (rbac.h) reads them from the store -- created when the cluster opens if
// missing (as the server's bootstrap does on start), never overwritten.
//
// Called under the cluster's lock (cluster_state.h).
#pragma once

#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

// Creates the default ClusterRoles and ClusterRoleBindings that do not exist
// yet, then aggregates.
void install_default_rbac(ClusterState& state);

// The clusterrole-aggregation controller, as a post-write hook: after a write
// to ClusterRoles, every ClusterRole with an aggregationRule gets the rules of
// the ClusterRoles its selectors (matchLabels) pick, in name order, each rule
// once. True when it wrote.
bool aggregate_cluster_roles_hook(ClusterState& state, const WriteEvent& write);

}  // namespace mkq::sandbox
