// FieldsV1 sets: the fields a manager sent, as Kubernetes records them in
// metadata.managedFields, and the dotted leaf paths read back from them.
#include "runtime/kube/fields_v1.h"

#include <algorithm>
#include <string_view>

namespace mkq::kube {
namespace {

// Metadata the server owns: never a field a manager sends.
bool is_server_metadata(std::string_view key) {
  return key == "uid" || key == "resourceVersion" || key == "generation" || key == "creationTimestamp" ||
         key == "managedFields" || key == "deletionTimestamp" || key == "deletionGracePeriodSeconds" ||
         key == "selfLink";
}

// Maps descend key by key; lists, scalars and empty maps are leaves ({}).
Json fields_of_value(const Json& value) {
  Json out = Json::object();
  if (!value.is_object()) return out;
  for (const auto& [key, child] : value.items()) out["f:" + key] = fields_of_value(child);
  return out;
}

bool is_list_set(const Json& node) {
  for (const auto& [key, child] : node.items()) {
    (void)child;
    if (key.rfind("k:", 0) == 0 || key.rfind("v:", 0) == 0 || key.rfind("i:", 0) == 0) return true;
  }
  return false;
}

void collect(const Json& node, const std::string& prefix, std::vector<std::string>& out) {
  if (!node.is_object()) return;
  for (const auto& [key, child] : node.items()) {
    if (key.rfind("f:", 0) != 0) continue;  // "." (the item itself) and list keys are handled by the parent
    const std::string path = prefix.empty() ? key.substr(2) : prefix + "." + key.substr(2);
    bool has_field_children = false;
    if (child.is_object()) {
      for (const auto& [k, v] : child.items()) {
        (void)v;
        if (k.rfind("f:", 0) == 0) has_field_children = true;
      }
    }
    if (!child.is_object() || child.empty() || is_list_set(child) || !has_field_children) {
      out.push_back(path);
      continue;
    }
    collect(child, path, out);
  }
}

}  // namespace

Json fields_v1_of(const Json& object) {
  Json out = Json::object();
  if (!object.is_object()) return out;
  for (const auto& [key, child] : object.items()) {
    if (key == "apiVersion" || key == "kind" || key == "status") continue;
    if (key == "metadata" && child.is_object()) {
      Json meta = Json::object();
      for (const auto& [mkey, mchild] : child.items()) {
        if (is_server_metadata(mkey)) continue;
        meta["f:" + mkey] = fields_of_value(mchild);
      }
      out["f:metadata"] = std::move(meta);
      continue;
    }
    out["f:" + key] = fields_of_value(child);
  }
  return out;
}

std::vector<std::string> owned_paths(const Json& fields_v1) {
  std::vector<std::string> out;
  collect(fields_v1, "", out);
  return out;
}

std::vector<std::string> paths_owned_by(const Json& object, const std::string& manager) {
  std::vector<std::string> out;
  if (!object.is_object()) return out;
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return out;
  const auto managed = meta->find("managedFields");
  if (managed == meta->end() || !managed->is_array()) return out;
  for (const Json& entry : *managed) {
    if (!entry.is_object() || entry.value("manager", std::string()) != manager) continue;
    const auto fields = entry.find("fieldsV1");
    if (fields == entry.end()) continue;
    std::vector<std::string> paths = owned_paths(*fields);
    out.insert(out.end(), paths.begin(), paths.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace mkq::kube
