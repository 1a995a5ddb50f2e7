// Strategic merge patch for built-in kinds (see strategic.h).
#include "sandbox/strategic.h"

#include <algorithm>
#include <map>

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;  // objects deeper than this are replaced, not merged

// Where a kind's pod spec is ("" when it has none).
std::string pod_spec_path(const std::string& kind) {
  if (kind == "Pod") return "spec";
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "Job") {
    return "spec.template.spec";
  }
  if (kind == "CronJob") return "spec.jobTemplate.spec.template.spec";
  return "";
}

// The patchMergeKey of a PodSpec list at `path` (relative to the pod spec):
// its own lists and its containers'; nullopt: replaced.
std::optional<std::string> pod_list_strategy(const std::string& path) {
  static const std::map<std::string, std::string> pod{
      {"containers", "name"},   {"initContainers", "name"}, {"ephemeralContainers", "name"},
      {"volumes", "name"},      {"imagePullSecrets", "name"}, {"resourceClaims", "name"},
      {"schedulingGates", "name"}, {"hostAliases", "ip"},   {"topologySpreadConstraints", "topologyKey"}};
  static const std::map<std::string, std::string> container{
      {"ports", "containerPort"}, {"env", "name"}, {"volumeMounts", "mountPath"}, {"volumeDevices", "devicePath"}};
  if (const auto it = pod.find(path); it != pod.end()) return it->second;
  const auto dot = path.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string list = path.substr(0, dot);
  if (list != "containers" && list != "initContainers" && list != "ephemeralContainers") return std::nullopt;
  if (const auto it = container.find(path.substr(dot + 1)); it != container.end()) return it->second;
  return std::nullopt;
}

// The merge strategy of the list at `path` ("metadata.finalizers") of `kind`,
// as the Go types' `patchStrategy:"merge"` and `patchMergeKey` tags say:
// nullopt: replace; "": a union of primitives; else the merge key.
std::optional<std::string> list_strategy(const std::string& kind, const std::string& path) {
  if (path == "metadata.finalizers") return std::string();
  if (path == "metadata.ownerReferences") return std::string("uid");
  if (kind == "ServiceAccount" && path == "secrets") return std::string("name");
  if (kind == "Service" && path == "spec.ports") return std::string("port");  // ServiceSpec.Ports' patchMergeKey
  const std::string pod_spec = pod_spec_path(kind);
  if (!pod_spec.empty() && path.rfind(pod_spec + ".", 0) == 0) return pod_list_strategy(path.substr(pod_spec.size() + 1));
  return std::nullopt;
}

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

std::optional<json> merge_value(const json& original, const json& patch, const std::string& kind, const std::string& path,
                                int depth, std::string* error);

std::optional<json> merge_list(const json& original, const json& patch, const std::string& key, std::string* error,
                               const std::string& kind, const std::string& path, int depth) {
  json result = original.is_array() ? original : json::array();
  if (key.empty()) {  // a set of primitives
    for (const json& item : patch) {
      if (std::find(result.begin(), result.end(), item) == result.end()) result.push_back(item);
    }
    return result;
  }
  for (const json& item : patch) {
    if (item.is_object() && item.value("$patch", "") == "replace") return json::array();  // rare: replace the whole list
    if (!item.is_object() || !item.contains(key)) {
      *error = "map: " + item.dump() + " does not contain declared merge key: " + key;
      return std::nullopt;
    }
    const auto found = std::find_if(result.begin(), result.end(),
                                    [&](const json& e) { return e.is_object() && e.contains(key) && e[key] == item[key]; });
    if (item.value("$patch", "") == "delete") {
      if (found != result.end()) result.erase(found);
      continue;
    }
    if (found == result.end()) {
      json added = item;
      added.erase("$patch");
      result.push_back(added);
      continue;
    }
    auto merged = merge_value(*found, item, kind, path, depth + 1, error);
    if (!merged) return std::nullopt;
    *found = std::move(*merged);
  }
  return result;
}

std::optional<json> merge_object(const json& original, const json& patch, const std::string& kind, const std::string& path,
                                 int depth, std::string* error) {
  if (patch.contains("$patch")) {
    const std::string directive = patch["$patch"].is_string() ? patch["$patch"].get<std::string>() : "";
    if (directive == "replace") {
      json replaced = patch;
      replaced.erase("$patch");
      return replaced;
    }
    if (directive == "delete") return json(nullptr);
    if (directive != "merge") {
      *error = "Unknown patch type: " + directive + " in map: " + patch.dump();
      return std::nullopt;
    }
  }
  json result = original.is_object() ? original : json::object();
  if (patch.contains("$retainKeys") && patch["$retainKeys"].is_array()) {
    const json& keep = patch["$retainKeys"];
    for (auto it = result.begin(); it != result.end();) {
      it = std::find(keep.begin(), keep.end(), json(it.key())) == keep.end() ? result.erase(it) : std::next(it);
    }
  }
  for (const auto& [key, value] : patch.items()) {
    if (key == "$patch" || key == "$retainKeys" || key.rfind("$setElementOrder/", 0) == 0) continue;
    if (key.rfind("$deleteFromPrimitiveList/", 0) == 0) {
      const std::string field = key.substr(std::string("$deleteFromPrimitiveList/").size());
      if (result.contains(field) && result[field].is_array() && value.is_array()) {
        json& list = result[field];
        for (const json& gone : value) list.erase(std::remove(list.begin(), list.end(), gone), list.end());
      }
      continue;
    }
    if (value.is_null()) {
      result.erase(key);
      continue;
    }
    const json existing = result.contains(key) ? result[key] : json(nullptr);
    auto merged = merge_value(existing, value, kind, join(path, key), depth + 1, error);
    if (!merged) return std::nullopt;
    if (merged->is_null()) result.erase(key);
    else result[key] = std::move(*merged);
  }
  return result;
}

std::optional<json> merge_value(const json& original, const json& patch, const std::string& kind, const std::string& path,
                                int depth, std::string* error) {
  if (depth > kMaxDepth) return patch;
  if (patch.is_object()) return merge_object(original.is_object() ? original : json::object(), patch, kind, path, depth, error);
  if (patch.is_array()) {
    const auto strategy = list_strategy(kind, path);
    if (strategy) return merge_list(original, patch, *strategy, error, kind, path, depth);
  }
  return patch;
}

}  // namespace

std::optional<json> strategic_merge(const json& original, const json& patch, const std::string& kind, std::string* error) {
  if (!patch.is_object()) {
    *error = "a strategic merge patch must be a JSON object";
    return std::nullopt;
  }
  return merge_value(original, patch, kind, "", 0, error);
}

}  // namespace mkq::sandbox
