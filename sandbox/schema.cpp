#include "sandbox/schema.h"

#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>

#include <fmt/format.h>

namespace mkq::sandbox {
namespace {

constexpr int kMaxDepth = 100;

std::string type_name(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_array()) return "array";
  return "object";
}

bool is_integral(const nlohmann::json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return true;
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return std::isfinite(d) && std::floor(d) == d;
  }
  return false;
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

// Compiled patterns, shared by every cluster; nullopt for a pattern that
// std::regex cannot compile (it is then not checked).
const std::optional<std::regex>& compiled(const std::string& pattern) {
  static std::mutex mutex;
  static std::map<std::string, std::optional<std::regex>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(pattern);
  if (it != cache.end()) return it->second;
  std::optional<std::regex> re;
  try {
    std::string text = pattern;
    auto flags = std::regex::ECMAScript;
    if (text.rfind("(?i)", 0) == 0) {
      text = text.substr(4);
      flags |= std::regex::icase;
    }
    re.emplace(text, flags);
  } catch (const std::regex_error&) {
    re.reset();
  }
  return cache.emplace(pattern, std::move(re)).first->second;
}

std::string join_path(const std::string& base, const std::string& key) { return base.empty() ? key : base + "." + key; }

class Walker {
 public:
  explicit Walker(SchemaOutcome& out) : out_(out) {}

  void walk(const nlohmann::json& s, nlohmann::json& v, const std::string& path, int depth, bool root) {
    if (!s.is_object()) return;
    if (depth > kMaxDepth) {
      add("FieldValueInvalid", path, "Invalid value: \"object\": nesting too deep");
      return;
    }
    const std::string type = s.value("type", std::string());
    const bool int_or_string = s.value("x-kubernetes-int-or-string", false);
    if (v.is_null()) {
      return;  // reached only for nullable values or the root
    }
    if (int_or_string) {
      if (!v.is_string() && !is_integral(v)) {
        add("FieldValueTypeInvalid", path,
            "Invalid value: \"" + type_name(v) + "\": " + path + " in body must be of type integer-or-string: \"" +
                type_name(v) + "\"");
        return;
      }
    } else if (!type.empty() && !type_matches(type, v)) {
      add("FieldValueTypeInvalid", path,
          "Invalid value: \"" + type_name(v) + "\": " + path + " in body must be of type " + type + ": \"" +
              type_name(v) + "\"");
      return;
    }
    check_enum(s, v, path);
    if (v.is_string()) check_string(s, v.get_ref<const std::string&>(), path);
    if (v.is_number()) check_number(s, v, path);
    if (v.is_array()) walk_array(s, v, path, depth);
    if (v.is_object()) walk_object(s, v, path, depth, root);
  }

 private:
  static bool type_matches(const std::string& type, const nlohmann::json& v) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "integer") return is_integral(v);
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_boolean();
    return true;
  }

  void add(const char* reason, const std::string& field, std::string message) {
    out_.errors.push_back({reason, field, std::move(message)});
  }

  void check_enum(const nlohmann::json& s, const nlohmann::json& v, const std::string& path) {
    const auto it = s.find("enum");
    if (it == s.end() || !it->is_array() || it->empty()) return;
    for (const auto& allowed : *it) {
      if (allowed == v) return;
    }
    std::string supported;
    for (const auto& allowed : *it) {
      if (!supported.empty()) supported += ", ";
      supported += go_value(allowed);
    }
    add("FieldValueNotSupported", path, "Unsupported value: " + go_value(v) + ": supported values: " + supported);
  }

  void check_string(const nlohmann::json& s, const std::string& text, const std::string& path) {
    const std::size_t length = code_points(text);
    if (const auto it = s.find("maxLength"); it != s.end() && it->is_number() && length > it->get<double>()) {
      add("FieldValueTooLong", path, "Too long: may not be more than " + it->dump() + " bytes");
    }
    if (const auto it = s.find("minLength"); it != s.end() && it->is_number() && length < it->get<double>()) {
      add("FieldValueInvalid", path,
          "Invalid value: " + go_value(text) + ": " + path + " in body should be at least " + it->dump() +
              " chars long");
    }
    if (const auto it = s.find("pattern"); it != s.end() && it->is_string()) {
      const auto& re = compiled(it->get<std::string>());
      if (re && !std::regex_search(text, *re)) {
        add("FieldValueInvalid", path,
            "Invalid value: " + go_value(text) + ": " + path + " in body should match '" + it->get<std::string>() +
                "'");
      }
    }
  }

  void check_number(const nlohmann::json& s, const nlohmann::json& v, const std::string& path) {
    const double value = v.get<double>();
    if (const auto it = s.find("maximum"); it != s.end() && it->is_number()) {
      const bool exclusive = s.value("exclusiveMaximum", false);
      if (exclusive ? value >= it->get<double>() : value > it->get<double>()) {
        add("FieldValueInvalid", path,
            "Invalid value: " + v.dump() + ": " + path + " in body should be less than " +
                (exclusive ? "" : "or equal to ") + it->dump());
      }
    }
    if (const auto it = s.find("minimum"); it != s.end() && it->is_number()) {
      const bool exclusive = s.value("exclusiveMinimum", false);
      if (exclusive ? value <= it->get<double>() : value < it->get<double>()) {
        add("FieldValueInvalid", path,
            "Invalid value: " + v.dump() + ": " + path + " in body should be greater than " +
                (exclusive ? "" : "or equal to ") + it->dump());
      }
    }
  }

  void walk_array(const nlohmann::json& s, nlohmann::json& v, const std::string& path, int depth) {
    if (const auto it = s.find("maxItems"); it != s.end() && it->is_number() && v.size() > it->get<double>()) {
      add("FieldValueTooMany", path, fmt::format("Too many: {}: must have at most {} items", v.size(), it->dump()));
    }
    if (const auto it = s.find("minItems"); it != s.end() && it->is_number() && v.size() < it->get<double>()) {
      add("FieldValueInvalid", path,
          fmt::format("Invalid value: {}: {} in body should have at least {} items", v.size(), path, it->dump()));
    }
    const auto items = s.find("items");
    if (items != s.end()) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i].is_null() && !items->value("nullable", false)) continue;
        walk(*items, v[i], path + "[" + std::to_string(i) + "]", depth + 1, false);
      }
    }
    const std::string list_type = s.value("x-kubernetes-list-type", std::string());
    if (list_type == "set") {
      std::set<std::string> seen;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!seen.insert(v[i].dump()).second) {
          add("FieldValueDuplicate", path + "[" + std::to_string(i) + "]", "Duplicate value: " + go_value(v[i]));
        }
      }
    } else if (list_type == "map") {
      const auto keys = s.value("x-kubernetes-list-map-keys", nlohmann::json::array());
      std::set<std::string> seen;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_object()) continue;
        nlohmann::json key = nlohmann::json::object();
        for (const auto& k : keys) {
          if (k.is_string() && v[i].contains(k.get<std::string>())) key[k.get<std::string>()] = v[i][k.get<std::string>()];
        }
        if (!seen.insert(key.dump()).second) {
          std::string rendered;
          for (const auto& [name, value] : key.items()) {
            if (!rendered.empty()) rendered += ", ";
            rendered += "\"" + name + "\":" + go_value(value);
          }
          add("FieldValueDuplicate", path + "[" + std::to_string(i) + "]",
              "Duplicate value: map[string]interface {}{" + rendered + "}");
        }
      }
    }
  }

  void walk_object(const nlohmann::json& s, nlohmann::json& v, const std::string& path, int depth, bool root) {
    const auto props_it = s.find("properties");
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& props = props_it != s.end() && props_it->is_object() ? *props_it : empty;
    const auto additional = s.find("additionalProperties");
    const bool preserve = s.value("x-kubernetes-preserve-unknown-fields", false);
    const bool embedded = s.value("x-kubernetes-embedded-resource", false);
    const bool typed_map = additional != s.end() && additional->is_object();
    const bool open_map = additional != s.end() && additional->is_boolean() && additional->get<bool>();

    // Drop nulls of non-nullable fields and prune unknown fields.
    for (auto it = v.begin(); it != v.end();) {
      const std::string& key = it.key();
      const bool reserved = (root || embedded) && (key == "apiVersion" || key == "kind" || key == "metadata");
      const auto prop = props.find(key);
      if (reserved && prop == props.end()) {
        ++it;
        continue;
      }
      if (prop != props.end()) {
        if (it->is_null() && !prop->value("nullable", false)) {
          it = v.erase(it);
          continue;
        }
        ++it;
        continue;
      }
      if (typed_map) {
        if (it->is_null() && !additional->value("nullable", false)) {
          it = v.erase(it);
          continue;
        }
        ++it;
        continue;
      }
      if (preserve || open_map) {
        ++it;
        continue;
      }
      out_.unknown_fields.push_back(join_path(path, key));
      it = v.erase(it);
    }
    // Defaults of missing properties.
    for (const auto& [key, prop] : props.items()) {
      if (!v.contains(key) && prop.is_object() && prop.contains("default")) v[key] = prop["default"];
    }
    for (auto& [key, child] : v.items()) {
      const bool reserved = (root || embedded) && (key == "apiVersion" || key == "kind" || key == "metadata");
      if (reserved) continue;  // metadata is ObjectMeta, checked by the cluster
      const auto prop = props.find(key);
      if (prop != props.end()) {
        walk(*prop, child, join_path(path, key), depth + 1, false);
      } else if (typed_map) {
        walk(*additional, child, path + "[" + key + "]", depth + 1, false);
      }
    }
    if (const auto required = s.find("required"); required != s.end() && required->is_array()) {
      for (const auto& name : *required) {
        if (name.is_string() && !v.contains(name.get<std::string>())) {
          add("FieldValueRequired", join_path(path, name.get<std::string>()), "Required value");
        }
      }
    }
  }

  SchemaOutcome& out_;
};

}  // namespace

std::string go_value(const nlohmann::json& value) {
  if (value.is_string()) return nlohmann::json(value.get<std::string>()).dump();
  return value.dump();
}

SchemaOutcome apply_schema(const nlohmann::json& schema, nlohmann::json& object) {
  SchemaOutcome out;
  if (!schema.is_object()) return out;
  Walker(out).walk(schema, object, "", 0, true);
  return out;
}

}  // namespace mkq::sandbox
