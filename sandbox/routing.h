// Routing: a request's path to what answers it, as kube-apiserver's handler
// chain does it -- health and /version, discovery (discovery.h), and resource
// requests: the path parsed into a Target, authorized (auth.h), resolved in
// the Registry, then handed to TokenRequest (tokens.h), watch (watch.h) or
// the verb (verbs.h); after a successful write that is not a dry run, the
// post-write hooks run (cluster_state.h).
//
// route() is an entry point: called WITHOUT the cluster's lock, it takes it
// for as long as each answer needs it.
#pragma once

#include <memory>
#include <optional>
#include <variant>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

ApiResponse route(const std::shared_ptr<ClusterState>& state, const ApiRequest& r);

// Impersonation alone (impersonation.h): the request as the impersonated
// user, or the refusal; `r` itself when it impersonates no one.
std::variant<ApiRequest, ApiResponse> resolve_impersonation(const std::shared_ptr<ClusterState>& state, const ApiRequest& r);

// Authorization alone, as kube-apiserver decides it before any handler reads
// the body: a refusal (403), or nullopt. Impersonation resolved first.
std::optional<ApiResponse> authorize_request(const std::shared_ptr<ClusterState>& state, const ApiRequest& r);

}  // namespace mkq::sandbox
