// Kueue's configuration: merge, field-level diff and the restart that
// follows a change (kueue_config.h).
#include "runtime/reconcile/kueue_config.h"

#include <yaml-cpp/yaml.h>

#include <regex>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "compiler/kueue/schema.h"
#include "compiler/kueue/yaml_emit.h"

namespace mkq::reconcile {
namespace {

namespace schema = kueue::schema;

constexpr int kMaxDepth = 64;  // a configuration nests a few levels; deeper is not one

Json yaml_to_json(const YAML::Node& node, int depth) {
  if (depth > kMaxDepth)
    throw std::runtime_error(fmt::format("nested more than {} levels", kMaxDepth));
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      Json list = Json::array();
      for (const YAML::Node& item : node) list.push_back(yaml_to_json(item, depth + 1));
      return list;
    }
    case YAML::NodeType::Map: {
      Json map = Json::object();
      for (const auto& entry : node)
        map[entry.first.as<std::string>()] = yaml_to_json(entry.second, depth + 1);
      return map;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string& text = node.Scalar();
  if (node.Tag() != "?") return text;  // quoted, or explicitly tagged
  if (text == "null" || text == "Null" || text == "NULL" || text == "~" || text.empty()) return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  static const std::regex integer("[-+]?[0-9]+");
  static const std::regex decimal(
      "[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+");
  try {
    if (std::regex_match(text, integer)) return std::stoll(text);
    if (std::regex_match(text, decimal)) return std::stod(text);
  } catch (const std::exception&) {
    // out of range: kept as the text
  }
  return text;
}

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> keys;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    keys.emplace_back(path.substr(start, dot - start));
    start = dot + 1;
  }
  return keys;
}

const Json* find_path(const Json& document, const std::vector<std::string>& keys) {
  const Json* node = &document;
  for (const std::string& key : keys) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

// Sets the value at `keys`, making the maps on the way (a parent that is not
// a map is replaced by one). An existing key keeps its place.
void set_path(Json& document, const std::vector<std::string>& keys, const Json& value) {
  Json* node = &document;
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    Json& child = (*node)[keys[i]];
    if (!child.is_object()) child = Json::object();
    node = &child;
  }
  (*node)[keys.back()] = value;
}

// Removes the value at `keys`; a parent map left empty goes too unless
// `before` had it (it was there before mkq).
void erase_path(Json& document, const std::vector<std::string>& keys, const Json& before) {
  std::vector<Json*> parents{&document};
  for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
    Json& parent = *parents.back();
    if (!parent.is_object()) return;
    const auto it = parent.find(keys[i]);
    if (it == parent.end()) return;
    parents.push_back(&*it);
  }
  if (!parents.back()->is_object()) return;
  parents.back()->erase(keys.back());
  for (std::size_t depth = keys.size() - 1; depth > 0; --depth) {
    const std::vector<std::string> parent_keys(keys.begin(),
                                               keys.begin() + static_cast<std::ptrdiff_t>(depth));
    if (!parents[depth]->empty() || find_path(before, parent_keys) != nullptr) return;
    parents[depth - 1]->erase(keys[depth - 1]);
  }
}

// A key as a path segment: plain when it is a simple name, else ["key"].
std::string segment(const std::string& key) {
  static const std::regex simple("[A-Za-z_][A-Za-z0-9_-]*");
  return std::regex_match(key, simple) ? "." + key : "[" + Json(key).dump() + "]";
}

void diff_into(const Json* before, const Json* after, const std::string& path, std::vector<FieldDiff>& out) {
  if (before != nullptr && after != nullptr && before->is_object() && after->is_object()) {
    for (const auto& [key, value] : after->items()) {
      const auto old = before->find(key);
      diff_into(old == before->end() ? nullptr : &*old, &value, path + segment(key), out);
    }
    for (const auto& [key, value] : before->items()) {
      if (!after->contains(key)) out.push_back(FieldDiff{path + segment(key), value, std::nullopt, false});
    }
    return;
  }
  if (before != nullptr && after != nullptr && *before == *after) return;
  FieldDiff diff;
  diff.path = path;
  if (before != nullptr) diff.before = *before;
  if (after != nullptr) diff.after = *after;
  out.push_back(std::move(diff));
}

// The ConfigMap's configuration text, if it has one.
std::optional<std::string> configuration_text(const Json& config_map) {
  const auto data = config_map.find("data");
  if (data == config_map.end() || !data->is_object()) return std::nullopt;
  const auto text = data->find(std::string(schema::kKueueConfigMapKey));
  if (text == data->end() || !text->is_string()) return std::nullopt;
  return text->get<std::string>();
}

// What the configuration was before mkq first applied it. Before mkq applies
// it (no record) that is the cluster's. Afterwards the state says: an adopted
// ConfigMap's prior holds the text it had (Change::prior, plan.h); a ConfigMap
// mkq created, or one adopted without the key, had no settings. Unknown
// (nullopt) when the prior cannot be read.
std::optional<Json> configuration_before_mkq(const state::InventoryEntry* recorded,
                                             const std::optional<Json>& live) {
  if (recorded == nullptr) return live.value_or(Json::object());
  if (!recorded->adopted) return Json::object();
  const Json prior = Json::parse(recorded->prior, nullptr, false);
  if (!prior.is_array()) return std::nullopt;
  const Json wanted = Json::array({"data", std::string(schema::kKueueConfigMapKey)});
  for (const Json& item : prior) {
    if (!item.is_object() || item.value("path", Json()) != wanted) continue;
    const auto value = item.find("value");
    if (value == item.end()) return Json::object();  // the key was not there
    if (!value->is_string()) return std::nullopt;
    const kube::Result<Json> parsed = detail::parse_configuration(value->get<std::string>());
    if (!parsed) return std::nullopt;
    if (parsed.value().is_null()) return Json::object();
    return parsed.value();
  }
  return Json::object();
}

// Why `live` cannot take mkq's settings: it is another kind of document, or
// another version of Kueue's Configuration (whose settings are spelled differently).
std::string incompatibility(const Json& live, const Json& managed) {
  if (!live.is_object()) return "it is not a map of settings";
  for (const char* key : {"apiVersion", "kind"}) {
    const auto it = live.find(key);
    if (it != live.end() && *it != managed.value(key, Json())) {
      return std::string("its ") + key + " is " + it->dump() + ", mkq writes " +
             managed.value(key, Json()).dump();
    }
  }
  return "";
}

Change refused(const kueue::Object& object, const std::function<Change(const kueue::Object&)>& plan_document,
               const std::string& why) {
  Change c = plan_document(object);
  c.fields.clear();
  if (c.action == Action::NoOp) c.action = Action::Update;
  c.error =
      "Kueue's configuration on the cluster cannot be merged into (" + why + "); mkq does not overwrite it";
  return c;
}

}  // namespace

namespace detail {

kube::Result<Json> parse_configuration(const std::string& text) {
  try {
    return yaml_to_json(YAML::Load(text), 0);
  } catch (const std::exception& e) {
    return kube::Error{0, "ConfigError", e.what(), nullptr};
  }
}

Json merge_configuration(const Json& managed, const Json& live, const Json* before) {
  Json merged = Json::object();
  // apiVersion and kind first, as Kueue writes them, when the cluster's lacks them.
  for (const char* key : {"apiVersion", "kind"}) {
    if (!live.contains(key) && managed.contains(key)) merged[key] = managed[key];
  }
  for (const auto& [key, value] : live.items()) merged[key] = value;
  for (const std::string_view path : schema::kManagedConfigurationPaths) {
    const std::vector<std::string> keys = split_path(path);
    if (const Json* value = find_path(managed, keys)) {
      set_path(merged, keys, *value);
    } else if (before != nullptr) {
      if (const Json* old = find_path(*before, keys)) {
        set_path(merged, keys, *old);
      } else {
        erase_path(merged, keys, *before);
      }
    }
  }
  return merged;
}

std::vector<FieldDiff> configuration_diff(const Json& before, const Json& after, const std::string& prefix) {
  std::vector<FieldDiff> out;
  diff_into(&before, &after, prefix, out);
  return out;
}

}  // namespace detail

kube::Result<Json> configuration_of(const Json& config_map) {
  const std::optional<std::string> text = configuration_text(config_map);
  if (!text) return Json(Json::object());
  kube::Result<Json> parsed = detail::parse_configuration(*text);
  if (parsed && parsed.value().is_null()) return Json(Json::object());
  return parsed;
}

Change plan_kueue_configuration(const kueue::Object& object, const Json* live,
                                const state::InventoryEntry* recorded,
                                const std::function<Change(const kueue::Object&)>& plan_document) {
  const std::string key(schema::kKueueConfigMapKey);
  const std::optional<std::string> rendered = configuration_text(object.document);
  std::optional<Json> managed;
  if (rendered) {
    if (kube::Result<Json> parsed = detail::parse_configuration(*rendered)) managed = std::move(parsed).value();
  }
  if (!managed || !managed->is_object())
    return refused(object, plan_document, "mkq's own settings do not parse");

  const std::optional<std::string> live_text = live != nullptr ? configuration_text(*live) : std::nullopt;
  std::optional<Json> live_config;
  if (live_text) {
    kube::Result<Json> parsed = detail::parse_configuration(*live_text);
    if (!parsed) return refused(object, plan_document, "not YAML: " + parsed.error().message);
    live_config = std::move(parsed).value();
    if (live_config->is_null()) live_config = Json::object();  // an empty text
    const std::string why = incompatibility(*live_config, *managed);
    if (!why.empty()) return refused(object, plan_document, why);
  }
  const std::optional<Json> before = configuration_before_mkq(recorded, live_config);
  const Json current = live_config.value_or(Json::object());
  const Json merged = detail::merge_configuration(*managed, current, before ? &*before : nullptr);
  const bool unchanged = live_config && merged == *live_config;

  kueue::Object planned = object;
  // Unchanged: the cluster's text as it is, comments and all.
  planned.document["data"][key] = unchanged ? *live_text : kueue::to_yaml(merged);
  Change c = plan_document(planned);
  c.take_ownership = true;  // the whole text is written merged: no other manager's setting is lost
  if (!unchanged) {
    // The configuration's one string shown as the settings that change.
    const std::string string_path = "data." + key;
    std::vector<FieldDiff> fields;
    for (FieldDiff& field : c.fields) {
      if (field.path != string_path) {
        fields.push_back(std::move(field));
        continue;
      }
      for (FieldDiff& setting :
           detail::configuration_diff(current, merged, "data[" + Json(key).dump() + "]")) {
        fields.push_back(std::move(setting));
      }
    }
    c.fields = std::move(fields);
  }
  if (c.action != Action::NoOp && !unchanged) {
    c.restart =
        Restart{object.namespace_name, std::string(schema::kKueueDeploymentName), object.restart_kueue};
  }
  return c;
}

void note_restart_after_removal(Change& change, const kueue::DesiredState& desired) {
  if ((change.action != Action::Delete && change.action != Action::Release) || change.restart ||
      !schema::is_kueue_configuration(change.ref.kind, change.ref.name)) {
    return;
  }
  bool enabled = true;
  for (const kueue::ClusterObjects& cluster : desired.clusters) {
    if (cluster.cluster != change.ref.cluster) continue;
    for (const kueue::Object& object : cluster.objects) {
      if (object.kueue_configuration) enabled = object.restart_kueue;
    }
  }
  change.restart = Restart{change.ref.namespace_name, std::string(schema::kKueueDeploymentName), enabled};
}

}  // namespace mkq::reconcile
