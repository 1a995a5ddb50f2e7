// Issuing service-account tokens, as kube-apiserver and Kubernetes' token
// controller do: TokenRequest (POST .../serviceaccounts/NAME/token) and the
// non-expiring tokens of legacy kubernetes.io/service-account-token Secrets.
// Checking a token is auth.h's. Called under the cluster's lock (cluster_state.h).
#pragma once

#include <string>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"
#include "sandbox/resources.h"

namespace mkq::sandbox {

// POST /api/v1/namespaces/NS/serviceaccounts/NAME/token (authentication.k8s.io/v1
// TokenRequest): a signed token for the account, optionally bound to a Secret.
ApiResponse token_request(ClusterState& state, const ApiRequest& r, const ResourceInfo& sa_info, const Target& t);

// The token controller for legacy kubernetes.io/service-account-token
// Secrets in ns: fills data.token (a non-expiring JWT bound to the Secret),
// ca.crt and namespace, and the service-account.uid annotation, once the
// ServiceAccount exists; deletes such a Secret once the account it was
// filled for (its uid) is gone. True when it wrote anything.
bool reconcile_token_secrets(ClusterState& state, const std::string& ns);

// The post-write hook running reconcile_token_secrets after a write of a
// Secret or ServiceAccount, in the request's namespace.
bool token_secrets_hook(ClusterState& state, const WriteEvent& write);

}  // namespace mkq::sandbox
