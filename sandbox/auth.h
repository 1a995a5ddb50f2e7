// Authentication of service-account tokens and authorization of requests,
// the cluster's side of "Identity and RBAC" (docs/sandbox.md). The transport
// (server.h) authenticates client certificates itself and asks the Cluster
// about bearer tokens; every request it passes on is authorized here with RBAC
// (rbac.h) unless its caller is in system:masters. Signing and verifying the
// tokens themselves is identity.h's; issuing them is tokens.h's.
//
// Called under the cluster's lock (cluster_state.h), except is_master.
#pragma once

#include <optional>
#include <string>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"

namespace mkq::sandbox {

// The caller is in system:masters: RBAC is not consulted. No state, no lock.
bool is_master(const ApiRequest& r);

// The key signing the cluster's service-account tokens (ClusterOptions::service_account_key),
// made on first use when none was given.
const std::string& signing_key(ClusterState& state);

// The identity a service-account token stands for: its signature, expiry,
// issuer and audience check, its account (same uid) and any bound Secret
// (same uid) still exist, a legacy token is still its Secret's. nullopt: 401.
std::optional<TokenIdentity> verify_token(ClusterState& state, const std::string& token);

// RBAC for a non-resource path (/version, /healthz, /api, /openapi/...); a 403 when denied.
std::optional<ApiResponse> authorize_path(ClusterState& state, const ApiRequest& r);
// RBAC for a resource request; a 403 when denied.
std::optional<ApiResponse> authorize_resource(ClusterState& state, const ApiRequest& r, const Target& t);

}  // namespace mkq::sandbox
