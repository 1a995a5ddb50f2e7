// What the parts read from a request: where a resource request points (its
// Target, as kube-apiserver's RequestInfo describes it) and the query and
// header values every verb looks at. Pure functions, no state.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/resources.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

// Where a resource request points.
struct Target {
  std::string group;
  std::string version;
  std::string ns;  // from /namespaces/NS/...
  std::string resource;
  std::string name;
  std::string sub;  // "status", ...
  bool watch = false;
};

// The non-empty segments of a path: "/api/v1/pods" -> api, v1, pods.
std::vector<std::string> split_path(const std::string& path);

std::string query_value(const ApiRequest& r, const std::string& key);
// Go's strconv.ParseBool, as kube-apiserver reads boolean parameters.
bool query_true(const ApiRequest& r, const std::string& key);
std::string header(const ApiRequest& r, const std::string& key);
// "application/json; charset=utf-8" -> "application/json".
std::string media_type(const std::string& content_type);
// ?dryRun=All, or (a DELETE) dryRun: ["All"] in its DeleteOptions body: the
// request changes nothing and runs no post-write hook.
bool is_dry_run(const ApiRequest& r);

// ?resourceVersion as kube-apiserver reads it (APIObjectVersioner.ParseResourceVersion):
// "" and "0" are 0, anything else a base-10 uint64 -- no sign, no spaces.
struct ResourceVersion {
  std::uint64_t value = 0;
  std::string error;  // why it is not one, in kube's words; "" when it is
};
ResourceVersion read_resource_version(const std::string& text);

// The store key of an object of `info` (the namespace dropped at the cluster scope).
ObjectKey key_of(const ResourceInfo& info, const std::string& ns, const std::string& name);
bool is_kind(const ResourceInfo& info, const char* group, const char* resource);

// The stored object as the client asked for it (its apiVersion).
nlohmann::json present(const ResourceInfo& info, nlohmann::json object);
// Whether object_response answers with the object's own compact JSON: no
// Table asked for, and its apiVersion and kind already its resource's (as
// every object the write verbs store).
bool answers_as_written(const ApiRequest& r, const ResourceInfo& info, const nlohmann::json& object);
// The object as JSON, or as a Table when the client asked for one (Accept).
ApiResponse object_response(const ApiRequest& r, const ResourceInfo& info, int status, const nlohmann::json& object);
// The Warning header kube-apiserver sends (299 - "text", ...).
ApiResponse with_warnings(ApiResponse response, const std::vector<std::string>& warnings);
// One warning before those the answer has: a deprecated version's, which
// kube-apiserver's handler adds before the verb runs.
void add_first_warning(ApiResponse& response, const std::string& warning);

}  // namespace mkq::sandbox
