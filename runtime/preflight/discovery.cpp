#include "runtime/preflight/discovery.h"

namespace mkq::preflight {

using kube::Json;

std::optional<std::vector<std::string>> Discovery::versions(const std::string& group) {
  if (!groups_) {
    const kube::Result<Json> list = client_.request("GET", "/apis", nullptr, "application/json");
    groups_ = list && list.value().contains("groups") && list.value()["groups"].is_array() ? list.value()["groups"]
                                                                                          : Json();
  }
  if (!groups_->is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const Json& entry : *groups_) {
    if (!entry.is_object() || entry.value("name", std::string()) != group) continue;
    for (const Json& version : entry.value("versions", Json::array())) {
      if (version.is_object() && version.contains("version")) out.push_back(version.value("version", std::string()));
    }
  }
  return out;
}

const Json& Discovery::resources(const std::string& group, const std::string& version) {
  const std::string key = group + "/" + version;
  const auto known = resources_.find(key);
  if (known != resources_.end()) return known->second;
  const kube::Result<Json> list = client_.request("GET", "/apis/" + key, nullptr, "application/json");
  Json found = Json::array();
  if (list && list.value().contains("resources") && list.value()["resources"].is_array()) {
    found = list.value()["resources"];
  }
  return resources_.emplace(key, std::move(found)).first->second;
}

bool Discovery::serves_kind(const std::string& group, const std::string& version, std::string_view kind) {
  for (const Json& resource : resources(group, version)) {
    const std::string name = resource.value("name", std::string());
    if (resource.value("kind", std::string()) == kind && name.find('/') == std::string::npos) return true;
  }
  return false;
}

std::optional<bool> Discovery::serves_resource(const std::string& group, std::string_view plural) {
  const std::optional<std::vector<std::string>> served = versions(group);
  if (!served) return std::nullopt;
  for (const std::string& version : *served) {
    for (const Json& resource : resources(group, version)) {
      if (resource.value("name", std::string()) == plural) return true;
    }
  }
  return false;
}

}  // namespace mkq::preflight
