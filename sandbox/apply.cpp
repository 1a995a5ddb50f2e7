#include "sandbox/apply.h"

#include <set>
#include <vector>

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using Path = std::vector<std::string>;

constexpr int kMaxDepth = 100;

// The leaf fields of a configuration, metadata reduced to labels,
// annotations, finalizers and ownerReferences.
void leaves(const json& value, Path& path, std::set<Path>& out, int depth) {
  if (value.is_object() && depth < kMaxDepth) {  // an empty map owns nothing
    for (const auto& [key, child] : value.items()) {
      if (depth == 0 && (key == "apiVersion" || key == "kind")) continue;
      if (depth == 0 && key == "metadata") {
        for (const char* k : {"labels", "annotations", "finalizers", "ownerReferences"}) {
          if (!child.is_object() || !child.contains(k)) continue;
          path = {"metadata", k};
          leaves(child[k], path, out, 2);
        }
        path.clear();
        continue;
      }
      path.push_back(key);
      leaves(child, path, out, depth + 1);
      path.pop_back();
    }
    return;
  }
  out.insert(path);
}

std::set<Path> leaves_of(const json& config) {
  std::set<Path> out;
  Path path;
  if (config.is_object()) leaves(config, path, out, 0);
  return out;
}

json fields_v1(const std::set<Path>& paths) {
  json out = json::object();
  for (const auto& path : paths) {
    json* node = &out;
    for (const auto& key : path) node = &(*node)["f:" + key];
    if (node->is_null()) *node = json::object();
  }
  return out;
}

void read_fields(const json& node, Path& path, std::set<Path>& out, int depth) {
  if (!node.is_object() || depth > kMaxDepth) return;
  if (node.empty()) {
    if (!path.empty()) out.insert(path);
    return;
  }
  for (const auto& [key, child] : node.items()) {
    if (key.rfind("f:", 0) != 0) continue;
    path.push_back(key.substr(2));
    read_fields(child, path, out, depth + 1);
    path.pop_back();
  }
}

std::set<Path> paths_of(const json& entry) {
  std::set<Path> out;
  Path path;
  read_fields(entry.value("fieldsV1", json::object()), path, out, 0);
  return out;
}

const json* at(const json& value, const Path& path) {
  const json* node = &value;
  for (const auto& key : path) {
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
  }
  return node;
}

void set_at(json& value, const Path& path, const json& leaf) {
  json* node = &value;
  for (const auto& key : path) {
    if (!node->is_object()) *node = json::object();
    node = &(*node)[key];
  }
  *node = leaf;
}

void erase_at(json& value, const Path& path) {
  if (path.empty()) return;
  json* node = &value;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (!node->is_object() || !node->contains(path[i])) return;
    node = &(*node)[path[i]];
  }
  if (node->is_object()) node->erase(path.back());
}

std::string dotted(const Path& path) {
  std::string out;
  for (const auto& key : path) out += "." + key;
  return out;
}

void set_entry(json& object, const std::string& manager, const std::string& operation, const std::string& api_version,
               const std::string& time, const std::set<Path>& paths) {
  auto& meta = object["metadata"];
  json entries = meta.contains("managedFields") && meta["managedFields"].is_array() ? meta["managedFields"] : json::array();
  json kept = json::array();
  for (auto& e : entries) {
    if (e.value("manager", "") == manager && e.value("operation", "") == operation) continue;
    kept.push_back(e);
  }
  if (!paths.empty()) {
    kept.push_back({{"manager", manager},
                    {"operation", operation},
                    {"apiVersion", api_version},
                    {"time", time},
                    {"fieldsType", "FieldsV1"},
                    {"fieldsV1", fields_v1(paths)}});
  }
  meta["managedFields"] = kept;
}

}  // namespace

void note_manager(json& object, const json* before, const std::string& manager, const std::string& operation,
                  const std::string& api_version, const std::string& time) {
  json fields = object;
  fields.erase("status");
  std::set<Path> changed;
  for (const auto& p : leaves_of(fields)) {
    const json* old = before == nullptr ? nullptr : at(*before, p);
    if (old == nullptr || *old != *at(object, p)) changed.insert(p);
  }
  if (changed.empty()) return;
  // The changed fields move to this manager.
  auto& meta = object["metadata"];
  json entries = meta.contains("managedFields") && meta["managedFields"].is_array() ? meta["managedFields"] : json::array();
  json kept = json::array();
  std::set<Path> mine = changed;
  for (auto& e : entries) {
    auto paths = paths_of(e);
    if (e.value("manager", "") == manager && e.value("operation", "") == operation) {
      mine.insert(paths.begin(), paths.end());
      continue;
    }
    for (const auto& p : changed) paths.erase(p);
    if (paths.empty()) continue;
    e["fieldsV1"] = fields_v1(paths);
    kept.push_back(e);
  }
  meta["managedFields"] = kept;
  set_entry(object, manager, operation, api_version, time, mine);
}

void note_apply(json& object, const json& config, const std::string& manager, const std::string& api_version,
                const std::string& time) {
  set_entry(object, manager, "Apply", api_version, time, leaves_of(config));
}

std::optional<json> server_side_apply(const json& existing, const json& config, const std::string& manager,
                                      const std::string& api_version, const std::string& time, bool force,
                                      std::string* message, json* causes) {
  const auto applied = leaves_of(config);
  json result = existing;
  const json entries = existing["metadata"].value("managedFields", json::array());
  std::set<Path> previously;
  std::set<Path> others;
  std::vector<std::pair<std::string, Path>> conflicts;
  std::vector<std::pair<std::size_t, Path>> taken;  // (entry index, path) moved to us by force
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    const std::string who = e.value("manager", "");
    const auto paths = paths_of(e);
    if (who == manager && e.value("operation", "") == "Apply") {
      previously = paths;
      continue;
    }
    for (const auto& p : paths) {
      if (!applied.count(p)) {
        if (e.value("operation", "") == "Apply") others.insert(p);
        continue;
      }
      const json* now = at(existing, p);
      const json* wanted = at(config, p);
      if (now != nullptr && wanted != nullptr && *now == *wanted) continue;
      if (e.value("operation", "") != "Apply" && who == manager) continue;
      if (force) {
        taken.push_back({i, p});
      } else {
        conflicts.push_back({who, p});
      }
    }
  }
  if (!conflicts.empty()) {
    *causes = json::array();
    std::string text = "Apply failed with " + std::to_string(conflicts.size()) +
                       (conflicts.size() == 1 ? " conflict: " : " conflicts: ");
    for (std::size_t i = 0; i < conflicts.size(); ++i) {
      const auto& [who, path] = conflicts[i];
      const std::string cause = "conflict with \"" + who + "\" using " + api_version;
      causes->push_back({{"reason", "FieldManagerConflict"}, {"message", cause}, {"field", dotted(path)}});
      text += (conflicts.size() == 1 ? cause + ": " : std::string(i == 0 ? "" : "\n") + cause + ": ") + dotted(path);
    }
    *message = text;
    return std::nullopt;
  }
  for (const auto& p : applied) {
    if (const json* v = at(config, p)) set_at(result, p, *v);
  }
  for (const auto& p : previously) {
    if (applied.count(p) || others.count(p)) continue;
    erase_at(result, p);
    // Maps left empty by the removal go too, unless the configuration names them.
    for (std::size_t n = p.size() - 1; n > 0; --n) {
      const Path parent(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(n));
      const json* node = at(result, parent);
      if (node == nullptr || !node->is_object() || !node->empty() || at(config, parent) != nullptr) break;
      erase_at(result, parent);
    }
  }
  // Forced: the other managers lose the fields.
  if (!taken.empty()) {
    json kept = json::array();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      auto paths = paths_of(entries[i]);
      for (const auto& [index, p] : taken) {
        if (index == i) paths.erase(p);
      }
      json e = entries[i];
      e["fieldsV1"] = fields_v1(paths);
      if (!paths.empty()) kept.push_back(e);
    }
    result["metadata"]["managedFields"] = kept;
  }
  if (config.contains("metadata") && config["metadata"].is_object()) {
    for (const char* k : {"labels", "annotations"}) {
      if (result["metadata"].contains(k) && result["metadata"][k].is_object() && result["metadata"][k].empty()) {
        result["metadata"].erase(k);
      }
    }
  }
  set_entry(result, manager, "Apply", api_version, time, applied);
  result["metadata"]["resourceVersion"] = existing["metadata"].value("resourceVersion", "");
  return result;
}

}  // namespace mkq::sandbox
