// The create-only review APIs kubectl's `auth` commands use, answered from
// the request and RBAC (rbac.h) without storing anything, as kube-apiserver:
// authorization.k8s.io/v1 SelfSubjectAccessReview (`kubectl auth can-i`),
// SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview
// (`kubectl auth can-i --list`), and authentication.k8s.io/v1
// SelfSubjectReview (`kubectl auth whoami`) and TokenReview (the sandbox's
// service-account tokens, as a webhook token authenticator asks).
//
// Called under the cluster's lock (cluster_state.h).
#pragma once

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"

namespace mkq::sandbox {

// True for the resources this file answers (ResourceInfo::create_only).
bool is_review(const ResourceInfo& info);

// POST of a review: 201 with the review and its status; 400 for a body
// that is not one.
ApiResponse review(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);

}  // namespace mkq::sandbox
