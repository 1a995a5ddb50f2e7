// Token authentication and RBAC authorization (auth.h).
#include "sandbox/auth.h"

#include <algorithm>
#include <ctime>

#include "sandbox/identity.h"
#include "sandbox/pki.h"
#include "sandbox/rbac.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// What a token's claims name: the account, and the Secret it is bound to.
struct TokenClaims {
  std::string ns;
  std::string name;
  std::string uid;
  std::string secret_name;
  std::string secret_uid;
  bool legacy = false;  // a kubernetes.io/service-account-token Secret's
};

// A TokenRequest token's claims (kube-apiserver's issuer, in its audience).
std::optional<TokenClaims> bound_claims(const json& c) {
  const json aud = c.value("aud", json::array());
  if (!aud.is_array() || std::find(aud.begin(), aud.end(), json(kTokenIssuer)) == aud.end()) return std::nullopt;
  const json k = c.value("kubernetes.io", json::object());
  if (!k.is_object()) return std::nullopt;
  TokenClaims out;
  out.ns = k.value("namespace", "");
  const json sa = k.value("serviceaccount", json::object());
  if (sa.is_object()) {
    out.name = sa.value("name", "");
    out.uid = sa.value("uid", "");
  }
  const json secret = k.value("secret", json::object());
  if (secret.is_object()) {
    out.secret_name = secret.value("name", "");
    out.secret_uid = secret.value("uid", "");
  }
  return out;
}

// A legacy Secret token's claims.
std::optional<TokenClaims> legacy_claims(const json& c) {
  TokenClaims out;
  out.legacy = true;
  out.ns = c.value("kubernetes.io/serviceaccount/namespace", "");
  out.name = c.value("kubernetes.io/serviceaccount/service-account.name", "");
  out.uid = c.value("kubernetes.io/serviceaccount/service-account.uid", "");
  out.secret_name = c.value("kubernetes.io/serviceaccount/secret.name", "");
  if (out.secret_name.empty()) return std::nullopt;
  return out;
}

std::optional<TokenClaims> read_claims(const json& c) {
  std::optional<TokenClaims> claims;
  if (c.value("iss", "") == kTokenIssuer) claims = bound_claims(c);
  else if (c.value("iss", "") == kLegacyTokenIssuer) claims = legacy_claims(c);
  if (!claims || claims->ns.empty() || claims->name.empty() || claims->uid.empty()) return std::nullopt;
  if (c.value("sub", "") != "system:serviceaccount:" + claims->ns + ":" + claims->name) return std::nullopt;
  return claims;
}

// The account (same uid) and the bound Secret (same uid; for a legacy
// token, still holding it) exist and are not being deleted.
bool claims_still_hold(const Store& store, const TokenClaims& c, const std::string& token) {
  const auto account = store.find_and_keep({"", "serviceaccounts", c.ns, c.name});
  if (!account || (*account)["metadata"].value("uid", "") != c.uid ||
      (*account)["metadata"].contains("deletionTimestamp")) {
    return false;
  }
  if (c.secret_name.empty()) return true;
  const auto secret = store.find_and_keep({"", "secrets", c.ns, c.secret_name});
  if (!secret || (*secret)["metadata"].contains("deletionTimestamp")) return false;
  if (!c.secret_uid.empty() && (*secret)["metadata"].value("uid", "") != c.secret_uid) return false;
  if (!c.legacy) return true;
  const json data = secret->value("data", json::object());
  return data.is_object() && data.value("token", "") == base64(token);
}

RequestAttributes attributes_of(const ApiRequest& r) {
  RequestAttributes a;
  a.user = r.user;
  a.groups = r.groups;
  return a;
}

// Tokens whose verified signature is remembered at most; past it all are
// forgotten and verified again (a bound, not a tuning).
constexpr std::size_t kVerifiedTokens = 1024;

// The claims of a token this cluster signed (verify_jwt), the signature
// checked once per token (ClusterState::verified_tokens); nullptr when it does
// not verify.
std::shared_ptr<const json> verified_claims(ClusterState& state, const std::string& token) {
  if (const auto hit = state.verified_tokens.find(token); hit != state.verified_tokens.end())
    return hit->second;
  auto verified = verify_jwt(token, signing_key(state));
  if (!verified) return nullptr;
  if (state.verified_tokens.size() >= kVerifiedTokens) state.verified_tokens.clear();
  auto claims = std::make_shared<const json>(std::move(*verified));
  state.verified_tokens.emplace(token, claims);
  return claims;
}

}  // namespace

bool is_master(const ApiRequest& r) {
  return std::find(r.groups.begin(), r.groups.end(), "system:masters") != r.groups.end();
}

const std::string& signing_key(ClusterState& state) {
  if (state.options.service_account_key.empty()) state.options.service_account_key = generate_signing_key();
  return state.options.service_account_key;
}

std::optional<TokenIdentity> verify_token(ClusterState& state, const std::string& token) {
  const std::shared_ptr<const json> verified = verified_claims(state, token);
  if (!verified || !token_time_valid(*verified, static_cast<long long>(std::time(nullptr)))) return std::nullopt;
  const auto claims = read_claims(*verified);
  if (!claims || !claims_still_hold(*state.store, *claims, token)) return std::nullopt;
  return TokenIdentity{"system:serviceaccount:" + claims->ns + ":" + claims->name,
                       {"system:serviceaccounts", "system:serviceaccounts:" + claims->ns, "system:authenticated"},
                       claims->uid};
}

std::optional<ApiResponse> authorize_path(ClusterState& state, const ApiRequest& r) {
  if (is_master(r)) return std::nullopt;
  RequestAttributes a = attributes_of(r);
  a.resource_request = false;
  a.path = r.path.empty() ? "/" : r.path;
  a.verb = r.method == "GET" || r.method == "HEAD" ? "get" : verb_of(r.method, true, false);
  if (state.rbac.allows(*state.store, a)) return std::nullopt;
  return json_response(403, forbidden_status(a));
}

std::optional<ApiResponse> authorize_resource(ClusterState& state, const ApiRequest& r, const Target& t) {
  if (is_master(r)) return std::nullopt;
  RequestAttributes a = attributes_of(r);
  a.api_group = t.group;
  a.resource = t.resource;
  a.subresource = t.sub;
  a.ns = t.ns;
  a.name = t.name;
  // kube-apiserver's RequestInfo: a namespace's own requests are in that namespace.
  if (t.group.empty() && t.resource == "namespaces" && !t.name.empty()) a.ns = t.name;
  a.verb = verb_of(r.method, !t.name.empty(), t.watch);
  if (state.rbac.allows(*state.store, a)) return std::nullopt;
  return json_response(403, forbidden_status(a));
}

}  // namespace mkq::sandbox
