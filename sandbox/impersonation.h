// Impersonation as kube-apiserver's WithImpersonation filter does it: the
// Impersonate-User, -Group, -Uid and -Extra-KEY headers, each checked with RBAC
// as the `impersonate` verb on users, groups, serviceaccounts, uids or
// userextras/KEY (authentication.k8s.io for the last two); the request then
// runs as the impersonated user, with system:authenticated added (or
// system:unauthenticated for system:anonymous) as upstream adds them.
//
// Called under the cluster's lock (cluster_state.h).
#pragma once

#include <variant>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

// True when the request carries any Impersonate-* header. No state, no lock.
bool wants_impersonation(const ApiRequest& r);

// The request as the impersonated user (the headers consumed), or the answer
// refusing it: 403 naming what the caller may not impersonate, 500 for groups,
// uid or extras without a user (upstream's internal error).
std::variant<ApiRequest, ApiResponse> impersonate(ClusterState& state, const ApiRequest& r);

}  // namespace mkq::sandbox
