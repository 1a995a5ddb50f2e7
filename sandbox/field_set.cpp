// Field sets, comparison and merge by structured-merge-diff's rules (field_set.h).
#include "sandbox/field_set.h"

#include <algorithm>
#include <optional>

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// Deeper values are one leaf: the limits (limits.h) allow 10,000 levels of
// JSON, far past what a recursion here should descend.
constexpr int kMaxDepth = 100;

enum class Kind { Leaf, Struct, Map, SetList, MapList };
enum class Source { Schema, Deduced, Builtin };

// The shape of one value: how its children are told apart.
struct Shape {
  Kind kind = Kind::Leaf;
  Source source = Source::Builtin;
  const json* schema = nullptr;   // Source::Schema: this value's OpenAPI node
  std::vector<std::string> keys;  // Kind::MapList: the key fields
};

// Server-owned fields no manager owns (apiserver's stripped metadata).
bool stripped_meta(const std::string& key) {
  static const std::set<std::string> names{"name",       "namespace", "creationTimestamp", "selfLink", "uid",
                                           "generation", "managedFields", "resourceVersion", "deletionTimestamp",
                                           "deletionGracePeriodSeconds"};
  return names.count(key) > 0;
}

Shape builtin_shape(const std::string& field, const json& value) {
  static const std::set<std::string> string_maps{"labels",   "annotations",  "data",     "binaryData", "stringData",
                                                 "matchLabels", "nodeSelector", "capacity", "allocatable", "requests",
                                                 "limits",   "overhead"};
  static const std::set<std::string> by_name{"containers", "initContainers", "ephemeralContainers", "env", "volumes",
                                             "secrets"};
  if (value.is_object()) return {string_maps.count(field) ? Kind::Map : Kind::Struct, Source::Builtin, nullptr, {}};
  if (!value.is_array()) return {};
  if (field == "finalizers") return {Kind::SetList, Source::Builtin, nullptr, {}};
  if (field == "ownerReferences") return {Kind::MapList, Source::Builtin, nullptr, {"uid"}};
  if (field == "volumeMounts") return {Kind::MapList, Source::Builtin, nullptr, {"mountPath"}};
  if (by_name.count(field)) return {Kind::MapList, Source::Builtin, nullptr, {"name"}};
  return {};
}

Shape deduced_shape(const json& value) {
  if (value.is_object()) return {Kind::Map, Source::Deduced, nullptr, {}};
  return {};
}

Shape schema_shape(const json& s, const json& value) {
  if (!s.is_object()) return deduced_shape(value);
  if (s.value("x-kubernetes-int-or-string", false)) return {};
  const std::string type = s.value("type", std::string());
  if (type == "array" || (type.empty() && s.contains("items"))) {
    if (!value.is_array()) return {};
    const std::string list_type = s.value("x-kubernetes-list-type", std::string("atomic"));
    if (list_type == "set") return {Kind::SetList, Source::Schema, &s, {}};
    if (list_type != "map") return {};
    Shape shape{Kind::MapList, Source::Schema, &s, {}};
    for (const auto& key : s.value("x-kubernetes-list-map-keys", json::array())) {
      if (key.is_string()) shape.keys.push_back(key.get<std::string>());
    }
    return shape;
  }
  if (type == "object" || s.contains("properties") || s.contains("additionalProperties")) {
    if (!value.is_object() || s.value("x-kubernetes-map-type", std::string()) == "atomic") return {};
    if (s.contains("properties")) return {Kind::Struct, Source::Schema, &s, {}};
    const auto additional = s.find("additionalProperties");
    if (additional != s.end() && additional->is_object()) return {Kind::Map, Source::Schema, &s, {}};
    return deduced_shape(value);
  }
  return type.empty() ? deduced_shape(value) : Shape{};
}

// The shape of `parent`'s entry `key`, and whether the key is a declared struct field.
Shape entry_shape(const Shape& parent, const std::string& key, const json& value, bool* declared) {
  *declared = false;
  if (parent.source == Source::Builtin) {
    *declared = parent.kind == Kind::Struct;
    return builtin_shape(key, value);
  }
  if (parent.source == Source::Deduced) return deduced_shape(value);
  const json& s = *parent.schema;
  if (parent.kind == Kind::Struct) {
    // find, never a const operator[]: that is undefined for a missing key (a
    // root schema without "properties" crashed the fuzz test now and then).
    const auto properties = s.find("properties");
    if (properties != s.end() && properties->is_object()) {
      const auto field = properties->find(key);
      if (field != properties->end()) {
        *declared = true;
        return schema_shape(*field, value);
      }
    }
  }
  const auto additional = s.find("additionalProperties");
  if (additional != s.end() && additional->is_object()) return schema_shape(*additional, value);
  return deduced_shape(value);
}

Shape item_shape(const Shape& list, const json& item) {
  if (list.source == Source::Schema) {
    const auto items = list.schema->find("items");
    return items == list.schema->end() ? deduced_shape(item) : schema_shape(*items, item);
  }
  return item.is_object() ? Shape{Kind::Struct, Source::Builtin, nullptr, {}} : Shape{};
}

Shape root_shape(const FieldTypes& types, const json& object) {
  if (types.schema != nullptr && types.schema->is_object() && object.is_object()) {
    return {Kind::Struct, Source::Schema, types.schema, {}};
  }
  return {Kind::Struct, Source::Builtin, nullptr, {}};
}

Shape root_entry_shape(const Shape& root, const std::string& key, const json& value, bool* declared) {
  if (key == "metadata") {  // ObjectMeta's shapes, whatever a CRD's schema says of it
    *declared = true;
    return builtin_shape(key, value);
  }
  return entry_shape(root, key, value, declared);
}

// The list item's path element; nullopt (with *error) when a keyed item lacks a key.
std::optional<std::string> item_element(const Shape& list, const json& item, std::string* error) {
  if (list.kind == Kind::SetList) return "v:" + item.dump();
  if (item.is_null()) {
    *error = "associative list with keys may not have a null element";
    return std::nullopt;
  }
  if (!item.is_object()) {
    *error = "associative list with keys may not have non-map elements";
    return std::nullopt;
  }
  json key = json::object();
  for (const auto& name : list.keys) {
    if (item.contains(name)) {
      key[name] = item[name];
      continue;
    }
    std::optional<json> defaulted;
    if (list.schema != nullptr) {
      const json props = list.schema->value("items", json::object()).value("properties", json::object());
      if (props.contains(name) && props[name].contains("default")) defaulted = props[name]["default"];
    }
    if (!defaulted) {
      *error = "associative list with keys has an element that omits key field \"" + name +
               "\" (and doesn't have default value)";
      return std::nullopt;
    }
    key[name] = *defaulted;
  }
  return "k:" + key.dump();  // nlohmann's objects keep their keys sorted
}

// One node of an object's field tree.
struct Node {
  const json* value = nullptr;
  bool leaf = false;    // a scalar, null or atomic value: compared whole
  bool member = false;  // owned as such (field_set.h)
};
using NodeIndex = std::map<FieldPath, Node>;

struct Indexer {
  NodeIndex* out;
  std::string error;  // the first error, with its path
  bool strict;        // duplicates and missing keys are errors (an applied configuration)

  void fail(const FieldPath& path, const std::string& message) {
    if (error.empty()) error = (path.empty() ? "" : field_path_string(path) + ": ") + message;
  }

  void visit(const json& value, const Shape& shape, FieldPath& path, int depth) {
    const bool leaf = shape.kind == Kind::Leaf || depth > kMaxDepth;
    if (!path.empty()) {
      auto& node = (*out)[path];
      node.value = &value;
      node.leaf = leaf;
      node.member = node.member || leaf;
    }
    if (leaf) return;
    if (shape.kind == Kind::Struct || shape.kind == Kind::Map) {
      for (const auto& [key, child] : value.items()) {
        if (path.empty() && (key == "apiVersion" || key == "kind")) continue;
        if (path.size() == 1 && path[0] == "f:metadata" && stripped_meta(key)) continue;
        bool declared = false;
        const Shape child_shape =
            path.empty() ? root_entry_shape(shape, key, child, &declared) : entry_shape(shape, key, child, &declared);
        path.push_back("f:" + key);
        visit(child, child_shape, path, depth + 1);
        if (!declared || child.is_null() || (child.is_object() && child.empty())) (*out)[path].member = true;
        path.pop_back();
      }
      if (path.empty()) out->erase(FieldPath{"f:metadata"});
      return;
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const json& item = value[i];
      std::string message;
      auto element = item_element(shape, item, &message);
      if (!element) {
        if (strict) fail(path, "element " + std::to_string(i) + ": " + message);
        element = "i:" + std::to_string(i);  // a live item without its key: its own node
      }
      if (!seen.insert(*element).second) {
        if (strict) fail(path, "duplicate entries for key " + field_path_string({*element}));
        continue;
      }
      path.push_back(*element);
      visit(item, item_shape(shape, item), path, depth + 1);
      (*out)[path].member = true;
      path.pop_back();
    }
  }
};

NodeIndex index_nodes(const json& object, const FieldTypes& types, bool strict, std::string* error) {
  NodeIndex nodes;
  Indexer indexer{&nodes, {}, strict};
  FieldPath path;
  if (object.is_object()) indexer.visit(object, root_shape(types, object), path, 0);
  if (error != nullptr) *error = indexer.error;
  return nodes;
}

// Merges `config` into `live` where both have the shape `shape`.
json merge_value(const json& live, const json& config, const Shape& shape, bool root, int depth);

json merge_lists(const json& live, const json& config, const Shape& shape, int depth) {
  std::string ignored;
  // An item without its key is its own element, never matched across the sides.
  const auto elements = [&](const json& list, const char* side) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      out.push_back(item_element(shape, list[i], &ignored).value_or(side + std::to_string(i)));
    }
    return out;
  };
  const auto left = elements(live, "i:live:");
  const auto right = elements(config, "i:config:");
  std::map<std::string, std::size_t> in_left;
  std::map<std::string, std::size_t> in_right;
  for (std::size_t i = 0; i < left.size(); ++i) in_left.emplace(left[i], i);
  for (std::size_t i = 0; i < right.size(); ++i) in_right.emplace(right[i], i);
  // The items both hold, in the configuration's order: the next one due.
  std::vector<std::string> shared;
  for (const auto& e : right) {
    if (in_left.count(e)) shared.push_back(e);
  }
  std::size_t next_shared = 0;
  std::set<std::string> merged;
  json out = json::array();
  const auto take_right = [&](std::size_t r) {
    const json& item = config[r];
    const auto found = in_left.find(right[r]);
    out.push_back(found == in_left.end() ? item : merge_value(live[found->second], item, item_shape(shape, item), false, depth + 1));
    merged.insert(right[r]);
    if (next_shared < shared.size() && shared[next_shared] == right[r]) ++next_shared;
  };
  std::size_t l = 0;
  std::size_t r = 0;
  while (l < left.size() || r < right.size()) {
    if (l < left.size() && r < right.size()) {
      if (left[l] == right[r]) {
        take_right(r++);
        ++l;
        continue;
      }
      if (in_right.count(left[l]) && next_shared < shared.size() && shared[next_shared] != left[l]) {
        ++l;  // shared, but due later: it comes with the configuration's order
        continue;
      }
    }
    if (l < left.size()) {
      if (!in_right.count(left[l])) {
        out.push_back(live[l++]);
        continue;
      }
      if (merged.count(left[l]) || r >= right.size()) {
        ++l;
        continue;
      }
    }
    if (r < right.size()) take_right(r++);
  }
  return out;
}

json merge_value(const json& live, const json& config, const Shape& shape, bool root, int depth) {
  if (depth > kMaxDepth) return config;
  if ((shape.kind == Kind::Struct || shape.kind == Kind::Map) && live.is_object() && config.is_object()) {
    json out = live;
    for (const auto& [key, child] : config.items()) {
      bool declared = false;
      const Shape child_shape =
          root ? root_entry_shape(shape, key, child, &declared) : entry_shape(shape, key, child, &declared);
      const auto found = live.find(key);
      out[key] = found == live.end() ? child : merge_value(*found, child, child_shape, false, depth + 1);
    }
    return out;
  }
  if ((shape.kind == Kind::SetList || shape.kind == Kind::MapList) && live.is_array() && config.is_array()) {
    return merge_lists(live, config, shape, depth);
  }
  return config;
}

void remove_in(json& value, const Shape& shape, const FieldSet& remove, FieldPath& path, int depth) {
  if (depth > kMaxDepth) return;
  if ((shape.kind == Kind::Struct || shape.kind == Kind::Map) && value.is_object()) {
    std::vector<std::string> gone;
    for (auto& [key, child] : value.items()) {
      path.push_back("f:" + key);
      if (remove.count(path)) {
        gone.push_back(key);
      } else if (covers(remove, path)) {
        bool declared = false;
        const Shape child_shape = depth == 0 ? root_entry_shape(shape, key, child, &declared)
                                             : entry_shape(shape, key, child, &declared);
        remove_in(child, child_shape, remove, path, depth + 1);
      }
      path.pop_back();
    }
    for (const auto& key : gone) value.erase(key);
    return;
  }
  if ((shape.kind == Kind::SetList || shape.kind == Kind::MapList) && value.is_array()) {
    json kept = json::array();
    std::string ignored;
    for (std::size_t i = 0; i < value.size(); ++i) {
      json& item = value[i];
      path.push_back(item_element(shape, item, &ignored).value_or("i:" + std::to_string(i)));
      if (!remove.count(path)) {
        if (covers(remove, path)) remove_in(item, item_shape(shape, item), remove, path, depth + 1);
        kept.push_back(std::move(item));
      }
      path.pop_back();
    }
    value = std::move(kept);
  }
}

void decode_into(const json& node, FieldPath& path, FieldSet& out, int depth) {
  if (!node.is_object() || depth > kMaxDepth) return;
  if (node.empty() && !path.empty()) out.insert(path);
  for (const auto& [key, child] : node.items()) {
    if (key == ".") {
      if (!path.empty()) out.insert(path);
      continue;
    }
    path.push_back(key);
    decode_into(child, path, out, depth + 1);
    path.pop_back();
  }
}

}  // namespace

bool collect_members(const json& object, const FieldTypes& types, FieldSet* out, std::string* error) {
  const NodeIndex nodes = index_nodes(object, types, true, error);
  if (!error->empty()) return false;
  for (const auto& [path, node] : nodes) {
    if (node.member) out->insert(path);
  }
  return true;
}

FieldSet members_of(const json& object, const FieldTypes& types) {
  FieldSet out;
  for (const auto& [path, node] : index_nodes(object, types, false, nullptr)) {
    if (node.member) out.insert(path);
  }
  return out;
}

FieldComparison compare_fields(const json& before, const json& after, const FieldTypes& types) {
  const NodeIndex old_nodes = index_nodes(before, types, false, nullptr);
  const NodeIndex new_nodes = index_nodes(after, types, false, nullptr);
  FieldComparison out;
  for (const auto& [path, node] : new_nodes) {
    const auto found = old_nodes.find(path);
    if (found == old_nodes.end()) {
      out.added.insert(path);
    } else if ((node.leaf || found->second.leaf) && *node.value != *found->second.value) {
      out.modified.insert(path);
    }
  }
  for (const auto& [path, node] : old_nodes) {
    if (!new_nodes.count(path)) out.removed.insert(path);
  }
  return out;
}

json merge_fields(const json& live, const json& config, const FieldTypes& types) {
  return merge_value(live, config, root_shape(types, config), true, 0);
}

void remove_fields(json& value, const FieldSet& remove, const FieldTypes& types) {
  if (remove.empty()) return;
  FieldPath path;
  remove_in(value, root_shape(types, value), remove, path, 0);
}

FieldSet with_named_parents(const FieldSet& set) {
  FieldSet out = set;
  for (const auto& path : set) {
    for (std::size_t n = 1; n < path.size(); ++n) {
      if (path[n - 1].rfind("f:", 0) == 0) out.insert(FieldPath(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(n)));
    }
  }
  return out;
}

bool covers(const FieldSet& set, const FieldPath& path) {
  const auto it = set.lower_bound(path);
  return it != set.end() && it->size() >= path.size() && std::equal(path.begin(), path.end(), it->begin());
}

json encode_fields(const FieldSet& set) {
  json root = json::object();
  for (const auto& path : set) {
    json* node = &root;
    for (const auto& key : path) node = &(*node)[key];
    if (node->is_null()) *node = json::object();
  }
  for (const auto& path : set) {
    json* node = &root;
    for (const auto& key : path) node = &(*node)[key];
    if (!node->empty()) (*node)["."] = json::object();
  }
  return root;
}

FieldSet decode_fields_v1(const json& fields_v1) {
  FieldSet out;
  FieldPath path;
  decode_into(fields_v1, path, out, 0);
  return out;
}

std::string field_path_string(const FieldPath& path) {
  std::string out;
  for (const auto& element : path) {
    const std::string body = element.size() > 2 ? element.substr(2) : std::string();
    if (element.rfind("f:", 0) == 0) {
      out += "." + body;
    } else if (element.rfind("v:", 0) == 0) {
      out += "[=" + body + "]";
    } else if (element.rfind("k:", 0) == 0) {
      const json key = json::parse(body, nullptr, false);
      std::string fields;
      if (key.is_object()) {
        for (const auto& [name, value] : key.items()) fields += (fields.empty() ? "" : ",") + name + "=" + value.dump();
      }
      out += "[" + fields + "]";
    } else {
      out += "[" + body + "]";
    }
  }
  return out;
}

}  // namespace mkq::sandbox
