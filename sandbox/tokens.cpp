// TokenRequest and the legacy token Secret controller (tokens.h).
#include "sandbox/tokens.h"

#include <ctime>

#include <fmt/format.h>

#include "sandbox/auth.h"
#include "sandbox/identity.h"
#include "sandbox/pki.h"
#include "sandbox/protobuf.h"
#include "sandbox/responses.h"
#include "sandbox/table.h"
#include "sandbox/verbs.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

ResourceInfo token_request_info() {
  ResourceInfo info;
  info.group = "authentication.k8s.io";
  info.version = "v1";
  info.resource = "tokenrequests";
  info.kind = "TokenRequest";
  return info;
}

// The TokenRequest in the body (JSON, or protobuf from `kubectl create token`).
std::optional<ApiResponse> parse_token_request(const ApiRequest& r, json* body) {
  *body = r.body.empty() ? json::object() : json::parse(r.body, nullptr, false);
  if (media_type(header(r, "content-type")) == "application/vnd.kubernetes.protobuf") {
    std::string error;
    auto decoded = decode_protobuf_object(r.body, &error);
    if (!decoded) return bad_request(error);
    *body = std::move(*decoded);
  }
  if (!body->is_object()) return bad_request("the body of the request is not a TokenRequest");
  if (body->contains("kind") && (*body)["kind"] != "TokenRequest") {
    return bad_request("the body of the request is not a TokenRequest but a " + (*body)["kind"].dump());
  }
  return std::nullopt;
}

// spec.expirationSeconds within Kubernetes' bounds (down to 1 with ClusterOptions::allow_short_tokens).
std::optional<ApiResponse> read_expiration(const ClusterState& state, const json& spec, const std::string& name,
                                           long long* seconds) {
  const ResourceInfo info = token_request_info();
  if (spec.is_object() && spec.contains("expirationSeconds") && !spec["expirationSeconds"].is_null()) {
    if (!spec["expirationSeconds"].is_number_integer()) {
      return bad_request("TokenRequest in version \"v1\" cannot be handled as a TokenRequest: spec.expirationSeconds must be an integer");
    }
    *seconds = spec["expirationSeconds"].get<long long>();
  }
  const bool short_tokens = state.options.allow_short_tokens;
  if (*seconds < (short_tokens ? 1 : kMinTokenSeconds)) {
    return invalid(info, name,
                   {{"FieldValueInvalid", "spec.expirationSeconds",
                     fmt::format("Invalid value: {}: may not specify a duration less than {}", *seconds,
                                 short_tokens ? "1 second" : "10 minutes")}});
  }
  if (*seconds > (1LL << 32)) {
    return invalid(info, name, {{"FieldValueTooLong", "spec.expirationSeconds",
                                 fmt::format("Invalid value: {}: may not specify a duration larger than 2^32 seconds",
                                             *seconds)}});
  }
  return std::nullopt;
}

// spec.boundObjectRef: a Secret in the account's namespace (same uid when
// given); *bound gets its uid and claims its name and uid. Null when unbound.
std::optional<ApiResponse> bind_secret(const ClusterState& state, const json& spec, const Target& t, json* bound,
                                       json* claims) {
  if (!spec.is_object() || !spec.contains("boundObjectRef") || !spec["boundObjectRef"].is_object()) return std::nullopt;
  *bound = spec["boundObjectRef"];
  const std::string kind = bound->value("kind", "");
  const std::string bound_name = bound->value("name", "");
  if (kind != "Secret") {
    return invalid(token_request_info(), t.name, {{"FieldValueNotSupported", "spec.boundObjectRef.kind",
                                                   "Unsupported value: \"" + kind + "\": supported values: \"Secret\""}});
  }
  const ResourceInfo* secrets = state.registry.find("", "v1", "secrets");
  const auto secret = state.store->get({"", "secrets", t.ns, bound_name});
  if (!secret) return not_found(*secrets, bound_name);
  const std::string secret_uid = (*secret)["metadata"].value("uid", "");
  if (!bound->value("uid", "").empty() && bound->value("uid", "") != secret_uid) return conflict(*secrets, bound_name);
  (*bound)["uid"] = secret_uid;
  (*claims)["secret"] = {{"name", bound_name}, {"uid", secret_uid}};
  return std::nullopt;
}

// A legacy token Secret's token, once its account exists; true when it wrote.
bool fill_token_secret(ClusterState& state, const std::string& ns, json secret, const std::string& account_name,
                       const std::string& account_uid) {
  const std::string secret_name = secret["metadata"].value("name", "");
  const json claims = {{"iss", kLegacyTokenIssuer},
                       {"kubernetes.io/serviceaccount/namespace", ns},
                       {"kubernetes.io/serviceaccount/secret.name", secret_name},
                       {"kubernetes.io/serviceaccount/service-account.name", account_name},
                       {"kubernetes.io/serviceaccount/service-account.uid", account_uid},
                       {"sub", "system:serviceaccount:" + ns + ":" + account_name}};
  const std::string token = sign_jwt(claims, signing_key(state));
  if (token.empty()) return false;
  secret["metadata"]["annotations"]["kubernetes.io/service-account.uid"] = account_uid;
  if (!secret.contains("data") || !secret["data"].is_object()) secret["data"] = json::object();
  secret["data"]["token"] = base64(token);
  secret["data"]["ca.crt"] = base64(state.options.ca_cert);
  secret["data"]["namespace"] = base64(ns);
  state.store->put({"", "secrets", ns, secret_name}, secret, "MODIFIED");
  return true;
}

// One Secret of the token controller's; true when it wrote.
bool reconcile_token_secret(ClusterState& state, const ResourceInfo& secrets, const std::string& ns, json secret) {
  if (secret.value("type", "") != "kubernetes.io/service-account-token") return false;
  const json& meta = secret["metadata"];
  if (meta.contains("deletionTimestamp")) return false;
  const json annotations = meta.value("annotations", json::object());
  if (!annotations.is_object()) return false;
  const std::string account_name = annotations.value("kubernetes.io/service-account.name", "");
  const std::string bound_uid = annotations.value("kubernetes.io/service-account.uid", "");
  if (account_name.empty()) return false;
  const auto account = state.store->get({"", "serviceaccounts", ns, account_name});
  const std::string account_uid = account ? (*account)["metadata"].value("uid", "") : "";
  if (!bound_uid.empty() && bound_uid != account_uid) {
    const ObjectKey key{"", "secrets", ns, meta.value("name", "")};
    delete_object(state, secrets, key, std::move(secret));
    return true;
  }
  if (!account) return false;
  const json data = secret.value("data", json::object());
  if (!bound_uid.empty() && data.is_object() && data.contains("token")) return false;
  return fill_token_secret(state, ns, std::move(secret), account_name, account_uid);
}

}  // namespace

ApiResponse token_request(ClusterState& state, const ApiRequest& r, const ResourceInfo& sa_info, const Target& t) {
  if (r.method != "POST") return method_not_allowed();
  json body;
  if (auto error = parse_token_request(r, &body)) return *error;
  const auto account = state.store->get(key_of(sa_info, t.ns, t.name));
  if (!account) return not_found(sa_info, t.name);
  const json spec = body.value("spec", json::object());
  long long seconds = kDefaultTokenSeconds;
  if (auto error = read_expiration(state, spec, t.name, &seconds)) return *error;
  json audiences = spec.is_object() ? spec.value("audiences", json::array()) : json::array();
  if (!audiences.is_array()) audiences = json::array();
  if (audiences.empty()) audiences = json::array({kTokenIssuer});
  json k8s = {{"namespace", t.ns}, {"serviceaccount", {{"name", t.name}, {"uid", (*account)["metadata"].value("uid", "")}}}};
  json bound = nullptr;
  if (auto error = bind_secret(state, spec, t, &bound, &k8s)) return *error;
  const long long now = static_cast<long long>(std::time(nullptr));
  const json claims = {{"aud", audiences},
                       {"exp", now + seconds},
                       {"iat", now},
                       {"iss", kTokenIssuer},
                       {"jti", new_uid(state)},
                       {"kubernetes.io", k8s},
                       {"nbf", now},
                       {"sub", "system:serviceaccount:" + t.ns + ":" + t.name}};
  const std::string token = sign_jwt(claims, signing_key(state));
  if (token.empty()) return status_error(500, "InternalError", "Internal error occurred: failed to sign the token");
  json out_spec = {{"audiences", audiences}, {"expirationSeconds", seconds}, {"boundObjectRef", bound}};
  return json_response(201, {{"kind", "TokenRequest"},
                             {"apiVersion", "authentication.k8s.io/v1"},
                             {"metadata", {{"name", t.name}, {"namespace", t.ns}, {"creationTimestamp", nullptr}}},
                             {"spec", out_spec},
                             {"status", {{"token", token}, {"expirationTimestamp", format_timestamp(now + seconds)}}}});
}

bool reconcile_token_secrets(ClusterState& state, const std::string& ns) {
  const ResourceInfo* secrets = state.registry.find("", "v1", "secrets");
  bool wrote = false;
  for (json secret : state.store->list("", "secrets", ns, "", 0)) {
    wrote = reconcile_token_secret(state, *secrets, ns, std::move(secret)) || wrote;
  }
  return wrote;
}

bool token_secrets_hook(ClusterState& state, const WriteEvent& write) {
  if (!write.info.group.empty() || (write.info.resource != "secrets" && write.info.resource != "serviceaccounts")) {
    return false;
  }
  return reconcile_token_secrets(state, write.ns);
}

}  // namespace mkq::sandbox
