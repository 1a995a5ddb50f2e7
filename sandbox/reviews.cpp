// SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectRulesReview and SelfSubjectReview (reviews.h).
#include "sandbox/reviews.h"

#include <algorithm>

#include "sandbox/auth.h"
#include "sandbox/identity.h"
#include "sandbox/protobuf.h"
#include "sandbox/rbac.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

std::vector<std::string> strings_of(const json& value) {
  std::vector<std::string> out;
  if (!value.is_array()) return out;
  for (const auto& item : value) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// The attributes a review's spec asks about, for `user` in `groups`.
std::optional<RequestAttributes> asked(const json& spec, const std::string& user, const std::vector<std::string>& groups) {
  RequestAttributes a;
  a.user = user;
  a.groups = groups;
  if (spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object()) {
    const json& ra = spec["resourceAttributes"];
    a.verb = ra.value("verb", "");
    a.api_group = ra.value("group", "");
    a.resource = ra.value("resource", "");
    a.subresource = ra.value("subresource", "");
    a.ns = ra.value("namespace", "");
    a.name = ra.value("name", "");
    return a;
  }
  if (spec.contains("nonResourceAttributes") && spec["nonResourceAttributes"].is_object()) {
    a.resource_request = false;
    a.verb = spec["nonResourceAttributes"].value("verb", "");
    a.path = spec["nonResourceAttributes"].value("path", "");
    return a;
  }
  return std::nullopt;
}

// The review as kube-apiserver answers it: apiVersion and kind, metadata
// with a null creationTimestamp, the spec sent, the status computed.
ApiResponse answer(const ResourceInfo& info, json body, json status) {
  body["apiVersion"] = info.api_version();
  body["kind"] = info.kind;
  if (!body.contains("metadata") || !body["metadata"].is_object()) body["metadata"] = json::object();
  body["metadata"]["creationTimestamp"] = nullptr;
  body["status"] = std::move(status);
  return json_response(201, body);
}

// `spec.resourceAttributes` or `spec.nonResourceAttributes` is required, as upstream validates it.
ApiResponse missing_attributes(const ResourceInfo& info) {
  return invalid(info, "", {{"FieldValueRequired", "spec.resourceAttributes",
                             "Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified"}});
}

json access_status(ClusterState& state, const RequestAttributes& a) {
  const auto reason = state.rbac.allowed_by(*state.store, a);
  json status = {{"allowed", reason.has_value()}};
  if (reason && !reason->empty()) status["reason"] = *reason;
  return status;
}

// A TokenReview: the sandbox's service-account tokens, for kube-apiserver's
// API audience or the audiences asked (one of them must be the token's).
// Unknown or invalid tokens are unauthenticated without an error text.
ApiResponse token_review(ClusterState& state, const ResourceInfo& info, const json& body, const json& spec) {
  const std::string token = spec.value("token", "");
  if (token.empty()) return bad_request("token is required for TokenReview in authentication");
  json status = {{"user", json::object()}};
  const auto identity = verify_token(state, token);
  if (!identity) return answer(info, body, status);
  const std::vector<std::string> asked_for = strings_of(spec.value("audiences", json::array()));
  if (!asked_for.empty() && std::find(asked_for.begin(), asked_for.end(), kTokenIssuer) == asked_for.end()) {
    std::string wanted;
    for (const auto& a : asked_for) wanted += (wanted.empty() ? "" : " ") + json(a).dump();
    status["error"] = "[invalid bearer token, token audiences [\"" + std::string(kTokenIssuer) +
                      "\"] is invalid for the target audiences [" + wanted + "]]";
    return answer(info, body, status);
  }
  status["authenticated"] = true;
  status["user"] = {{"username", identity->user}, {"uid", identity->uid}, {"groups", identity->groups}};
  status["audiences"] = json::array({kTokenIssuer});
  return answer(info, body, status);
}

}  // namespace

bool is_review(const ResourceInfo& info) { return info.create_only; }

ApiResponse review(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  if (r.method != "POST" || !t.name.empty() || !t.sub.empty()) return method_not_allowed();
  json body = json::object();
  if (media_type(header(r, "content-type")) == "application/vnd.kubernetes.protobuf") {
    std::string error;
    auto decoded = decode_protobuf_object(r.body, &error);
    if (!decoded) return bad_request("couldn't get version/kind; " + error);
    body = std::move(*decoded);
  } else if (!r.body.empty()) {
    body = json::parse(r.body, nullptr, false);
  }
  if (!body.is_object()) return bad_request("couldn't get version/kind; json parse error: invalid JSON in the request body");
  const json spec = body.value("spec", json::object());
  if (!spec.is_object()) return bad_request("spec: expected an object");
  const std::string& kind = info.kind;
  if (kind == "TokenReview") return token_review(state, info, body, spec);
  if (kind == "SelfSubjectReview") {
    json user = {{"username", r.user}, {"groups", r.groups}};
    if (!r.uid.empty()) user["uid"] = r.uid;
    if (!r.extra.empty()) user["extra"] = r.extra;
    return answer(info, body, {{"userInfo", user}});
  }
  if (kind == "SelfSubjectRulesReview") {
    RequestAttributes a;
    a.user = r.user;
    a.groups = r.groups;
    a.ns = spec.value("namespace", "");
    return answer(info, body, state.rbac.rules_for(*state.store, a));
  }
  if (kind == "SelfSubjectAccessReview") {
    const auto a = asked(spec, r.user, r.groups);
    if (!a) return missing_attributes(info);
    return answer(info, body, access_status(state, *a));
  }
  // SubjectAccessReview and LocalSubjectAccessReview: about the user in the spec.
  auto a = asked(spec, spec.value("user", ""), strings_of(spec.value("groups", json::array())));
  if (!a) return missing_attributes(info);
  if (kind == "LocalSubjectAccessReview") {
    if (a->resource_request && a->ns != t.ns) {
      return invalid(info, "", {{"FieldValueInvalid", "spec.resourceAttributes.namespace",
                                 "Invalid value: \"" + a->ns + "\": must match metadata.namespace"}});
    }
    body["metadata"]["namespace"] = t.ns;
  }
  return answer(info, body, access_status(state, *a));
}

}  // namespace mkq::sandbox
