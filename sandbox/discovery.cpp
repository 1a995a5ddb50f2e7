// Discovery documents (discovery.h).
#include "sandbox/discovery.h"

#include "sandbox/openapi.h"
#include "sandbox/request.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kVerbs[] = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};

json server_address() { return json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", ""}}}); }

json group_json(const std::string& group, const std::vector<std::string>& versions) {
  json list = json::array();
  for (const auto& v : versions) list.push_back({{"groupVersion", group + "/" + v}, {"version", v}});
  return {{"name", group},
          {"versions", list},
          {"preferredVersion", {{"groupVersion", group + "/" + versions.front()}, {"version", versions.front()}}}};
}

// A resource's entries in its APIResourceList: itself, then its subresources.
void add_resource_entries(const ResourceInfo& info, json& resources) {
  json entry = {{"name", info.resource},
                {"singularName", info.singular},
                {"namespaced", info.namespaced},
                {"kind", info.kind},
                {"verbs", info.create_only ? json::array({"create"}) : json(kVerbs)}};
  if (!info.short_names.empty()) entry["shortNames"] = info.short_names;
  if (!info.categories.empty()) entry["categories"] = info.categories;
  resources.push_back(entry);
  if (info.group.empty() && info.resource == "serviceaccounts") {
    resources.push_back({{"name", "serviceaccounts/token"},
                         {"singularName", ""},
                         {"namespaced", true},
                         {"group", "authentication.k8s.io"},
                         {"version", "v1"},
                         {"kind", "TokenRequest"},
                         {"verbs", {"create"}}});
  }
  if (info.has_scale) {  // scale.h
    resources.push_back({{"name", info.resource + "/scale"},
                         {"singularName", ""},
                         {"namespaced", info.namespaced},
                         {"group", "autoscaling"},
                         {"version", "v1"},
                         {"kind", "Scale"},
                         {"verbs", {"get", "patch", "update"}}});
  }
  if (info.has_status) {
    resources.push_back({{"name", info.resource + "/status"},
                         {"singularName", ""},
                         {"namespaced", info.namespaced},
                         {"kind", info.kind},
                         {"verbs", {"get", "patch", "update"}}});
  }
}

}  // namespace

ApiResponse version_answer() {
  return json_response(200, {{"major", "1"},
                             {"minor", "33"},
                             {"gitVersion", "v1.33.0"},
                             {"gitCommit", "mkq-sandbox"},
                             {"gitTreeState", "clean"},
                             {"buildDate", "2025-04-23T00:00:00Z"},
                             {"goVersion", "go1.24.2"},
                             {"compiler", "gc"},
                             {"platform", "linux/amd64"},
                             {"emulationMajor", "1"},
                             {"emulationMinor", "33"},
                             {"minCompatibilityMajor", "1"},
                             {"minCompatibilityMinor", "32"}});
}

ApiResponse api_versions() {
  return json_response(200, {{"kind", "APIVersions"}, {"versions", {"v1"}}, {"serverAddressByClientCIDRs", server_address()}});
}

ApiResponse group_list(const ClusterState& state) {
  json groups = json::array();
  for (const auto& [group, versions] : state.registry.groups()) {
    if (group.empty() || versions.empty()) continue;
    groups.push_back(group_json(group, versions));
  }
  return json_response(200, {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}});
}

ApiResponse group_info(const ClusterState& state, const std::string& name) {
  for (const auto& [group, versions] : state.registry.groups()) {
    if (group == name && !group.empty() && !versions.empty()) {
      json body = group_json(group, versions);
      body["kind"] = "APIGroup";
      body["apiVersion"] = "v1";
      return json_response(200, body);
    }
  }
  return path_not_found();
}

ApiResponse resource_list(const ClusterState& state, const std::string& group, const std::string& version) {
  const auto infos = state.registry.in_group_version(group, version);
  if (infos.empty()) return path_not_found();
  json resources = json::array();
  for (const auto* info : infos) add_resource_entries(*info, resources);
  return json_response(200, {{"kind", "APIResourceList"},
                             {"apiVersion", "v1"},
                             {"groupVersion", group.empty() ? version : group + "/" + version},
                             {"resources", resources}});
}

// No /openapi/v2 document is needed beside these: kubectl asks for it only as
// protobuf, and only when /openapi/v3 is missing.
ApiResponse openapi_v3(const ClusterState& state, const std::vector<std::string>& parts) {
  if (parts.size() == 2) return json_response(200, openapi_v3_index(state.registry));
  std::optional<json> document;
  if (parts.size() == 4 && parts[2] == "api") document = openapi_v3_document(state.registry, "", parts[3]);
  if (parts.size() == 5 && parts[2] == "apis") document = openapi_v3_document(state.registry, parts[3], parts[4]);
  if (!document) return path_not_found();
  return json_response(200, *document);
}

// kubectl before 1.30 reads /openapi/v2 (as protobuf only) for its client-side
// validation and apply: an empty gnostic Document (a zero-length protobuf
// message) -- no definitions, so clients skip schema validation and leave it
// to the server. JSON on request.
ApiResponse openapi_v2(const ApiRequest& r) {
  ApiResponse response;
  if (header(r, "accept").find("application/com.github.proto-openapi.spec.v2") != std::string::npos) {
    response.content_type = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
    return response;
  }
  return json_response(200, {{"swagger", "2.0"}, {"info", {{"title", "Kubernetes"}, {"version", "v1.33.0"}}},
                             {"paths", json::object()}, {"definitions", json::object()}});
}

}  // namespace mkq::sandbox
