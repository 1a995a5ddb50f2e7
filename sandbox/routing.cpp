// Paths to answers (routing.h).
#include "sandbox/routing.h"

#include "sandbox/auth.h"
#include "sandbox/discovery.h"
#include "sandbox/impersonation.h"
#include "sandbox/limits.h"
#include "sandbox/request.h"
#include "sandbox/responses.h"
#include "sandbox/reviews.h"
#include "sandbox/scale.h"
#include "sandbox/tokens.h"
#include "sandbox/verbs.h"
#include "sandbox/watch.h"

namespace mkq::sandbox {
namespace {

using Parts = std::vector<std::string>;

// /api/v1/... and /apis/G/V/... are resource requests; the rest non-resource paths.
bool is_resource_path(const Parts& parts) {
  return (parts.size() >= 3 && parts[0] == "api") || (parts.size() >= 4 && parts[0] == "apis");
}

template <typename F>
ApiResponse only_get(ClusterState& state, const ApiRequest& r, F answer) {
  if (r.method != "GET") return method_not_allowed();
  const std::lock_guard<std::mutex> lock(state.mutex);
  return answer();
}

// Where the rest of a resource path (after /api/v1 or /apis/G/V) points:
// [watch/][namespaces/NS/]RESOURCE[/NAME[/SUB]], or a namespace's own
// subresource. nullopt: no resource path.
std::optional<Target> parse_target(const ApiRequest& r, const std::string& group, const std::string& version, Parts rest) {
  Target t;
  t.group = group;
  t.version = version;
  if (!rest.empty() && rest[0] == "watch") {
    t.watch = true;
    rest.erase(rest.begin());
  }
  if (rest.empty()) return std::nullopt;
  if (rest[0] == "namespaces" && rest.size() >= 3) {
    const bool ns_sub = (rest[2] == "status" || rest[2] == "finalize") && group.empty() && rest.size() == 3;
    if (ns_sub) {
      t.resource = "namespaces";
      t.name = rest[1];
      t.sub = rest[2];
    } else {
      t.ns = rest[1];
      t.resource = rest[2];
      if (rest.size() >= 4) t.name = rest[3];
      if (rest.size() >= 5) t.sub = rest[4];
      if (rest.size() > 5) return std::nullopt;
    }
  } else {
    t.resource = rest[0];
    if (rest.size() >= 2) t.name = rest[1];
    if (rest.size() >= 3) t.sub = rest[2];
    if (rest.size() > 3) return std::nullopt;
  }
  if (query_true(r, "watch")) t.watch = true;
  return t;
}

// A subresource the resource serves: status (when it has one), a namespace's finalize, scale (scale.h).
bool serves_subresource(const ResourceInfo& info, const Target& t) {
  return t.sub.empty() || (t.sub == "status" && info.has_status) || (t.resource == "namespaces" && t.sub == "finalize") ||
         (t.sub == "scale" && info.has_scale && !t.name.empty());
}

ApiResponse write_verb(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t) {
  if (t.sub == "scale") return scale_verb(state, r, info, t);
  if (r.method == "POST") return t.name.empty() ? create_object(state, r, info, t) : method_not_allowed();
  if (r.method == "PUT") return t.name.empty() ? method_not_allowed() : update_object(state, r, info, t);
  if (r.method == "PATCH") return t.name.empty() ? method_not_allowed() : patch_object(state, r, info, t);
  if (r.method == "DELETE") {
    if (!t.sub.empty()) return method_not_allowed();
    return t.name.empty() ? delete_collection(state, r, info, t) : delete_one(state, r, info, t);
  }
  return method_not_allowed();
}

// A request to a served resource, authorized, by verb.
ApiResponse resource_verb(const std::shared_ptr<ClusterState>& shared, const ApiRequest& r,
                          const ResourceInfo& info, const Target& t, std::unique_lock<std::mutex>& lock) {
  ClusterState& state = *shared;
  if (!t.ns.empty() && !info.namespaced) return path_not_found();
  if (r.method != "GET") {
    if (auto deep = refuse_deep_body(r, r.method == "DELETE" ? "DeleteOptions" : info.kind)) return *deep;
  }
  if (is_review(info)) return t.watch ? method_not_allowed() : review(state, r, info, t);
  if (is_kind(info, "", "serviceaccounts") && t.sub == "token" && !t.name.empty() && !t.watch) {
    return token_request(state, r, info, t);
  }
  if (!serves_subresource(info, t)) return path_not_found();
  if (t.watch) return r.method == "GET" ? watch(shared, r, info, t, lock) : method_not_allowed();
  if (r.method == "GET" && t.sub == "scale") return scale_verb(state, r, info, t);
  if (r.method == "GET") return t.name.empty() ? list_objects(state, r, info, t) : get_object(state, r, info, t);
  ApiResponse response = write_verb(state, r, info, t);
  if (response.status < 300 && !is_dry_run(r) && run_post_write_hooks(state, WriteEvent{info, t.ns})) {
    state.changed.notify_all();
  }
  return response;
}

ApiResponse resource_request(const std::shared_ptr<ClusterState>& shared, const ApiRequest& r,
                             const std::string& group, const std::string& version, Parts rest) {
  const auto target = parse_target(r, group, version, std::move(rest));
  if (!target) return path_not_found();
  const Target& t = *target;
  ClusterState& state = *shared;
  std::unique_lock<std::mutex> lock(state.mutex);
  if (auto denied = authorize_resource(state, r, t)) return *denied;
  // Held, not copied (a CRD's schema is large): the registry may change during this request.
  const std::shared_ptr<const ResourceInfo> held = state.registry.hold(t.group, t.version, t.resource);
  if (held == nullptr) return path_not_found();
  const ResourceInfo& info = *held;
  ApiResponse response = resource_verb(shared, r, info, t, lock);
  if (info.deprecation_warning) add_first_warning(response, *info.deprecation_warning);
  return response;
}

ApiResponse health() {
  ApiResponse ok;
  ok.content_type = "text/plain; charset=utf-8";
  ok.body = "ok";
  return ok;
}

ApiResponse route_path(const std::shared_ptr<ClusterState>& shared, const ApiRequest& r, const Parts& parts) {
  if (parts.empty()) return path_not_found();
  ClusterState& state = *shared;
  const std::string& head = parts[0];
  if (head == "healthz" || head == "readyz" || head == "livez") return health();
  if (head == "version" && parts.size() == 1) return version_answer();
  if (head == "openapi" && parts.size() >= 2 && parts[1] == "v3") {
    return only_get(state, r, [&] { return openapi_v3(state, parts); });
  }
  if (head == "openapi" && parts.size() == 2 && parts[1] == "v2") return only_get(state, r, [&] { return openapi_v2(r); });
  if (head == "api") {
    if (parts.size() == 1) return only_get(state, r, [&] { return api_versions(); });
    if (parts[1] != "v1") return path_not_found();
    if (parts.size() == 2) return only_get(state, r, [&] { return resource_list(state, "", "v1"); });
    return resource_request(shared, r, "", "v1", Parts(parts.begin() + 2, parts.end()));
  }
  if (head == "apis") {
    if (parts.size() == 1) return only_get(state, r, [&] { return group_list(state); });
    if (parts.size() == 2) return only_get(state, r, [&] { return group_info(state, parts[1]); });
    if (parts.size() == 3) return only_get(state, r, [&] { return resource_list(state, parts[1], parts[2]); });
    return resource_request(shared, r, parts[1], parts[2], Parts(parts.begin() + 3, parts.end()));
  }
  return path_not_found();
}

}  // namespace

std::variant<ApiRequest, ApiResponse> resolve_impersonation(const std::shared_ptr<ClusterState>& state, const ApiRequest& r) {
  if (!wants_impersonation(r)) return r;
  const std::lock_guard<std::mutex> lock(state->mutex);
  return impersonate(*state, r);
}

std::optional<ApiResponse> authorize_request(const std::shared_ptr<ClusterState>& state, const ApiRequest& r) {
  if (wants_impersonation(r)) {
    auto as = resolve_impersonation(state, r);
    if (auto* refused = std::get_if<ApiResponse>(&as)) return *refused;
    return authorize_request(state, std::get<ApiRequest>(as));
  }
  if (is_master(r)) return std::nullopt;
  const Parts parts = split_path(r.path);
  const std::lock_guard<std::mutex> lock(state->mutex);
  if (!is_resource_path(parts)) return authorize_path(*state, r);
  const std::size_t skip = parts[0] == "api" ? 2 : 3;
  const auto t = parse_target(r, parts[0] == "api" ? "" : parts[1], parts[skip - 1], Parts(parts.begin() + skip, parts.end()));
  if (!t) return std::nullopt;  // answered 404 by route()
  return authorize_resource(*state, r, *t);
}

ApiResponse route(const std::shared_ptr<ClusterState>& state, const ApiRequest& r) {
  // The transport never reads more (server.cpp); a caller of handle() is held to it too.
  if (r.body.size() > kMaxRequestBodyBytes) return request_entity_too_large();
  if (wants_impersonation(r)) {
    auto as = resolve_impersonation(state, r);
    if (auto* refused = std::get_if<ApiResponse>(&as)) return *refused;
    return route(state, std::get<ApiRequest>(as));
  }
  const Parts parts = split_path(r.path);
  if (!is_master(r) && !is_resource_path(parts)) {
    // Resource requests are authorized once their Target is known.
    const std::lock_guard<std::mutex> lock(state->mutex);
    if (auto denied = authorize_path(*state, r)) return *denied;
  }
  return route_path(state, r, parts);
}

}  // namespace mkq::sandbox
