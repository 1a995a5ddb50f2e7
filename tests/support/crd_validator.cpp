// The structural validator of crd_validator.h: YAML reading (as kubectl does),
// CRD schema compilation, and the checks themselves.
#include "tests/support/crd_validator.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#ifndef MKQ_SHARED_DIR
#error "MKQ_SHARED_DIR must name the shared facts directory (../shared)"
#endif

namespace mkq::test_support {
namespace {

using Json = nlohmann::json;

// Deeper nesting than any Kubernetes object has; a guard against hostile input.
constexpr int kMaxDepth = 200;
// libstdc++'s std::regex matcher recurses per character: longer strings are
// not matched against a pattern (every CRD string with a pattern has a far
// smaller maxLength, which is still checked).
constexpr std::size_t kMaxPatternSubject = 4096;

// ---------------------------------------------------------------------------
// Field paths, written as Kubernetes writes them.

std::string child_path(const std::string& parent, const std::string& name) {
  return parent.empty() ? name : parent + "." + name;
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string key_path(const std::string& parent, const std::string& key) { return parent + "[" + key + "]"; }

// ---------------------------------------------------------------------------
// YAML -> JSON, resolving plain scalars as go-yaml v2 does (what kubectl uses).

bool one_of(const std::string& text, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* word) { return text == word; });
}

std::optional<bool> yaml11_bool(const std::string& text) {
  if (one_of(text, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) return true;
  if (one_of(text, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) return false;
  return std::nullopt;
}

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Go's strconv.ParseInt/ParseUint with base 0: optional sign, then 0x, 0o,
// 0b or a leading 0 (octal) prefix, or decimal. A magnitude beyond uint64 or,
// negative, beyond int64 is no integer.
std::optional<Json> go_integer(const std::string& text) {
  std::size_t at = 0;
  bool negative = false;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    negative = text[at] == '-';
    ++at;
  }
  int base = 10;
  if (text.size() - at >= 2 && text[at] == '0') {
    const char p = text[at + 1];
    if (p == 'x' || p == 'X') {
      base = 16;
      at += 2;
    } else if (p == 'o' || p == 'O') {
      base = 8;
      at += 2;
    } else if (p == 'b' || p == 'B') {
      base = 2;
      at += 2;
    } else {
      base = 8;
      at += 1;
    }
  }
  if (at >= text.size()) return std::nullopt;
  std::uint64_t magnitude = 0;
  for (; at < text.size(); ++at) {
    const int d = digit_value(text[at]);
    if (d >= base) return std::nullopt;
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(d)) /
                        static_cast<std::uint64_t>(base)) {
      return std::nullopt;
    }
    magnitude = magnitude * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  constexpr auto kMaxSigned = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (!negative) {
    if (magnitude <= kMaxSigned) return Json(static_cast<std::int64_t>(magnitude));
    return Json(magnitude);
  }
  if (magnitude <= kMaxSigned) return Json(-static_cast<std::int64_t>(magnitude));
  if (magnitude == kMaxSigned + 1) return Json(std::numeric_limits<std::int64_t>::min());
  return std::nullopt;
}

const std::regex& yaml_float_syntax() {
  static const std::regex re(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  return re;
}

std::optional<Json> yaml_float(const std::string& text) {
  if (!std::regex_match(text, yaml_float_syntax())) return std::nullopt;
  double value = 0;
  // istream does not take a leading '+' for doubles: drop it.
  std::istringstream in(text[0] == '+' ? text.substr(1) : text);
  in.imbue(std::locale::classic());
  if (!(in >> value)) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return Json(value);
}

class YamlConverter {
 public:
  explicit YamlConverter(std::vector<std::string>& errors) : errors_(errors) {}

  Json convert(const YAML::Node& node, const std::string& path, int depth) {
    if (depth > kMaxDepth) {
      error(path, "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      return Json();
    }
    switch (node.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return Json();
      case YAML::NodeType::Scalar:
        return scalar(node, path);
      case YAML::NodeType::Sequence: {
        Json array = Json::array();
        std::size_t index = 0;
        for (const auto& item : node) {
          array.push_back(convert(item, index_path(path, index), depth + 1));
          ++index;
        }
        return array;
      }
      case YAML::NodeType::Map: {
        Json object = Json::object();
        for (const auto& entry : node) {
          if (!entry.first.IsScalar()) {
            error(path, "a mapping key that is not a scalar");
            continue;
          }
          const std::string key = key_text(entry.first);
          if (object.contains(key)) {
            error(child_path(path, key), "mapping key \"" + key + "\" already defined");
            continue;
          }
          object[key] = convert(entry.second, child_path(path, key), depth + 1);
        }
        return object;
      }
    }
    return Json();
  }

 private:
  Json scalar(const YAML::Node& node, const std::string& path) {
    const std::string& text = node.Scalar();
    const std::string& tag = node.Tag();
    constexpr const char* kCore = "tag:yaml.org,2002:";
    if (tag == "!" || tag == std::string(kCore) + "str" || tag == std::string(kCore) + "binary" ||
        tag == std::string(kCore) + "timestamp") {
      return Json(text);
    }
    if (tag == "?") return plain(text, path);
    if (tag == std::string(kCore) + "null") return Json();
    if (tag == std::string(kCore) + "bool") {
      if (const auto b = yaml11_bool(text)) return Json(*b);
    } else if (tag == std::string(kCore) + "int") {
      if (auto i = go_integer(without_underscores(text))) return *i;
    } else if (tag == std::string(kCore) + "float") {
      if (auto f = yaml_float(without_underscores(text))) return *f;
    }
    error(path, "cannot read \"" + text + "\" as " + tag);
    return Json(text);
  }

  // sigs.k8s.io/yaml turns a plain key that YAML reads as a boolean or an
  // integer into its JSON text ("on:" -> "true", "010:" -> "8"); any other key
  // is its text.
  static std::string key_text(const YAML::Node& key) {
    const std::string& text = key.Scalar();
    if (key.Tag() != "?") return text;
    if (const auto b = yaml11_bool(text)) return *b ? "true" : "false";
    if (text.find_first_of("+-_0123456789") == 0) {
      if (const auto i = go_integer(without_underscores(text))) return i->dump();
    }
    return text;
  }

  static std::string without_underscores(const std::string& text) {
    std::string out;
    for (const char c : text) {
      if (c != '_') out += c;
    }
    return out;
  }

  Json plain(const std::string& text, const std::string& path) {
    if (const auto b = yaml11_bool(text)) return Json(*b);
    if (one_of(text, {"", "~", "null", "Null", "NULL"})) return Json();
    if (one_of(text, {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf",
                      "-.INF"})) {
      error(path, "\"" + text + "\" is not a JSON number");
      return Json();
    }
    if (text.find_first_of("+-._0123456789") != 0) return Json(text);
    const std::string compact = without_underscores(text);
    if (auto i = go_integer(compact)) return *i;
    if (auto f = yaml_float(compact)) return *f;
    return Json(text);
  }

  void error(const std::string& path, const std::string& message) {
    errors_.push_back((path.empty() ? std::string("<document>") : path) + ": " + message);
  }

  std::vector<std::string>& errors_;
};

// ---------------------------------------------------------------------------
// Compiled schemas.

enum class Additional { Unset, Allowed, Forbidden, Schema };

struct Schema {
  std::string type;  // empty: any
  std::string format;
  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown = false;
  bool embedded_resource = false;
  bool has_default = false;
  Json default_value;

  bool has_properties = false;
  std::map<std::string, std::unique_ptr<Schema>> properties;
  std::unique_ptr<Schema> items;
  Additional additional = Additional::Unset;
  std::unique_ptr<Schema> additional_schema;
  std::vector<std::string> required;

  bool has_enum = false;
  std::vector<Json> enum_values;
  std::optional<double> minimum;
  std::optional<double> maximum;
  bool exclusive_minimum = false;
  bool exclusive_maximum = false;
  std::optional<double> multiple_of;
  std::optional<std::size_t> min_length;
  std::optional<std::size_t> max_length;
  std::optional<std::size_t> min_items;
  std::optional<std::size_t> max_items;
  std::optional<std::size_t> min_properties;
  std::optional<std::size_t> max_properties;
  bool unique_items = false;
  std::string pattern;
  const std::regex* regex = nullptr;  // null when there is no pattern or it is unsupported

  std::string list_type;  // "", atomic, set, map
  std::vector<std::string> list_map_keys;

  std::vector<Schema> any_of;
  std::vector<Schema> all_of;
  std::vector<Schema> one_of;
  std::unique_ptr<Schema> not_schema;
};

struct KindVersion {
  bool served = false;
  std::unique_ptr<Schema> schema;  // null when not served
};

struct KindEntry {
  std::string group;
  std::string kind;
  bool namespaced = false;
  std::map<std::string, KindVersion> versions;
};

}  // namespace

struct CrdCatalog::Impl {
  std::map<std::string, KindEntry> kinds;  // "group/Kind"
  std::set<std::string> groups;
  // Compiled patterns, shared by every schema node that uses them (node
  // addresses of a std::map are stable); nullopt when std::regex refused one.
  std::map<std::string, std::optional<std::regex>> regexes;
  std::vector<std::string> load_errors;
  std::vector<std::string> unsupported_patterns;
  std::size_t cel_rules = 0;

  void load_documents(const std::vector<Json>& documents, const std::string& source);
  void load_crd(const Json& crd, const std::string& source);
};

namespace {

class SchemaLoader {
 public:
  SchemaLoader(CrdCatalog::Impl& catalog, std::string where) : catalog_(catalog), where_(std::move(where)) {}

  Schema parse(const Json& node, const std::string& path, int depth) {
    Schema schema;
    if (depth > kMaxDepth) {
      problem(path, "schema nested deeper than " + std::to_string(kMaxDepth));
      return schema;
    }
    if (!node.is_object()) {
      problem(path, "a schema must be an object");
      return schema;
    }
    for (const auto& [keyword, value] : node.items()) {
      keyword_into(schema, keyword, value, path, depth);
    }
    return schema;
  }

 private:
  void keyword_into(Schema& schema, const std::string& keyword, const Json& value, const std::string& path,
                    int depth) {
    static const std::set<std::string> kTypes = {"object", "array", "string", "integer", "number", "boolean"};
    static const std::set<std::string> kIgnored = {"description", "title", "example", "externalDocs",
                                                   "x-kubernetes-map-type"};
    if (kIgnored.count(keyword) != 0) return;
    if (keyword == "default") {
      schema.has_default = true;
      schema.default_value = value;
    } else if (keyword == "type") {
      if (!value.is_string() || kTypes.count(value.get<std::string>()) == 0) {
        problem(path, "unknown type " + value.dump());
        return;
      }
      schema.type = value.get<std::string>();
    } else if (keyword == "format") {
      schema.format = string_of(value, path, keyword);
    } else if (keyword == "nullable") {
      schema.nullable = bool_of(value, path, keyword);
    } else if (keyword == "x-kubernetes-int-or-string") {
      schema.int_or_string = bool_of(value, path, keyword);
    } else if (keyword == "x-kubernetes-preserve-unknown-fields") {
      schema.preserve_unknown = bool_of(value, path, keyword);
    } else if (keyword == "x-kubernetes-embedded-resource") {
      schema.embedded_resource = bool_of(value, path, keyword);
    } else if (keyword == "x-kubernetes-validations") {
      // CEL rules are not evaluated by this validator: counted, then skipped.
      catalog_.cel_rules += value.is_array() ? value.size() : 1;
    } else if (keyword == "x-kubernetes-list-type") {
      schema.list_type = string_of(value, path, keyword);
      if (schema.list_type != "atomic" && schema.list_type != "set" && schema.list_type != "map") {
        problem(path, "unknown x-kubernetes-list-type " + value.dump());
      }
    } else if (keyword == "x-kubernetes-list-map-keys") {
      schema.list_map_keys = strings_of(value, path, keyword);
    } else if (keyword == "properties") {
      schema.has_properties = true;
      if (!value.is_object()) {
        problem(path, "properties must be an object");
        return;
      }
      for (const auto& [name, property] : value.items()) {
        schema.properties[name] = std::make_unique<Schema>(parse(property, child_path(path, name), depth + 1));
      }
    } else if (keyword == "items") {
      schema.items = std::make_unique<Schema>(parse(value, path + "[*]", depth + 1));
    } else if (keyword == "additionalProperties") {
      if (value.is_boolean()) {
        schema.additional = value.get<bool>() ? Additional::Allowed : Additional::Forbidden;
      } else {
        schema.additional = Additional::Schema;
        schema.additional_schema = std::make_unique<Schema>(parse(value, path + "[*]", depth + 1));
      }
    } else if (keyword == "required") {
      schema.required = strings_of(value, path, keyword);
    } else if (keyword == "enum") {
      schema.has_enum = true;
      if (!value.is_array()) {
        problem(path, "enum must be a list");
        return;
      }
      schema.enum_values.assign(value.begin(), value.end());
    } else if (keyword == "pattern") {
      pattern_into(schema, string_of(value, path, keyword));
    } else if (keyword == "minLength") {
      schema.min_length = count_of(value, path, keyword);
    } else if (keyword == "maxLength") {
      schema.max_length = count_of(value, path, keyword);
    } else if (keyword == "minItems") {
      schema.min_items = count_of(value, path, keyword);
    } else if (keyword == "maxItems") {
      schema.max_items = count_of(value, path, keyword);
    } else if (keyword == "minProperties") {
      schema.min_properties = count_of(value, path, keyword);
    } else if (keyword == "maxProperties") {
      schema.max_properties = count_of(value, path, keyword);
    } else if (keyword == "minimum") {
      schema.minimum = number_of(value, path, keyword);
    } else if (keyword == "maximum") {
      schema.maximum = number_of(value, path, keyword);
    } else if (keyword == "exclusiveMinimum") {
      schema.exclusive_minimum = bool_of(value, path, keyword);
    } else if (keyword == "exclusiveMaximum") {
      schema.exclusive_maximum = bool_of(value, path, keyword);
    } else if (keyword == "multipleOf") {
      schema.multiple_of = number_of(value, path, keyword);
      if (schema.multiple_of && *schema.multiple_of <= 0) {
        problem(path, "multipleOf must be positive");
        schema.multiple_of.reset();
      }
    } else if (keyword == "uniqueItems") {
      schema.unique_items = bool_of(value, path, keyword);
    } else if (keyword == "anyOf" || keyword == "allOf" || keyword == "oneOf") {
      auto& branches = keyword == "anyOf" ? schema.any_of : keyword == "allOf" ? schema.all_of : schema.one_of;
      if (!value.is_array()) {
        problem(path, keyword + " must be a list");
        return;
      }
      for (const auto& branch : value) branches.push_back(parse(branch, path, depth + 1));
    } else if (keyword == "not") {
      schema.not_schema = std::make_unique<Schema>(parse(value, path, depth + 1));
    } else {
      problem(path, "schema keyword " + keyword + " is not supported by this validator");
    }
  }

  void pattern_into(Schema& schema, const std::string& pattern) {
    schema.pattern = pattern;
    auto found = catalog_.regexes.find(pattern);
    if (found == catalog_.regexes.end()) {
      std::optional<std::regex> compiled;
      // Go's RE2 syntax has inline flag groups; ECMAScript has flags instead.
      // A case-insensitive flag at the start ("(?i)..." or "^(?i)...") becomes
      // std::regex::icase; any other flag group is left to fail compiling.
      std::string body = pattern;
      auto flags = std::regex::ECMAScript;
      for (const std::string lead : {"", "^"}) {
        if (body.rfind(lead + "(?i)", 0) == 0) {
          body = lead + body.substr(lead.size() + 4);
          flags |= std::regex::icase;
          break;
        }
      }
      try {
        compiled.emplace(body, flags);
      } catch (const std::regex_error& e) {
        catalog_.unsupported_patterns.push_back(where_ + ": " + pattern + " (" + e.what() + ")");
      }
      found = catalog_.regexes.emplace(pattern, std::move(compiled)).first;
    }
    schema.regex = found->second ? &*found->second : nullptr;
  }

  std::string string_of(const Json& value, const std::string& path, const std::string& keyword) {
    if (value.is_string()) return value.get<std::string>();
    problem(path, keyword + " must be a string");
    return {};
  }

  bool bool_of(const Json& value, const std::string& path, const std::string& keyword) {
    if (value.is_boolean()) return value.get<bool>();
    problem(path, keyword + " must be a boolean");
    return false;
  }

  std::optional<std::size_t> count_of(const Json& value, const std::string& path, const std::string& keyword) {
    if (value.is_number_unsigned()) return value.get<std::size_t>();
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
      return static_cast<std::size_t>(value.get<std::int64_t>());
    }
    problem(path, keyword + " must be a non-negative integer");
    return std::nullopt;
  }

  std::optional<double> number_of(const Json& value, const std::string& path, const std::string& keyword) {
    if (value.is_number()) return value.get<double>();
    problem(path, keyword + " must be a number");
    return std::nullopt;
  }

  std::vector<std::string> strings_of(const Json& value, const std::string& path, const std::string& keyword) {
    std::vector<std::string> out;
    if (!value.is_array()) {
      problem(path, keyword + " must be a list of strings");
      return out;
    }
    for (const auto& item : value) {
      if (item.is_string()) {
        out.push_back(item.get<std::string>());
      } else {
        problem(path, keyword + " must be a list of strings");
      }
    }
    return out;
  }

  void problem(const std::string& path, const std::string& message) {
    catalog_.load_errors.push_back(where_ + " " + (path.empty() ? "<root>" : path) + ": " + message);
  }

  CrdCatalog::Impl& catalog_;
  std::string where_;
};

}  // namespace

void CrdCatalog::Impl::load_documents(const std::vector<Json>& documents, const std::string& source) {
  for (const auto& document : documents) {
    try {
      load_crd(document, source);
    } catch (const nlohmann::json::exception& e) {
      load_errors.push_back(source + ": a CustomResourceDefinition of an unexpected shape (" + e.what() + ")");
    }
  }
}

void CrdCatalog::Impl::load_crd(const Json& crd, const std::string& source) {
  const auto text = [](const Json& object, const char* key) -> std::string {
    if (!object.is_object()) return {};
    const auto found = object.find(key);
    return found != object.end() && found->is_string() ? found->get<std::string>() : std::string();
  };
  if (text(crd, "apiVersion") != "apiextensions.k8s.io/v1" || text(crd, "kind") != "CustomResourceDefinition") {
    load_errors.push_back(source + ": a document that is not an apiextensions.k8s.io/v1 CustomResourceDefinition");
    return;
  }
  const Json spec = crd.value("spec", Json::object());
  KindEntry entry;
  entry.group = text(spec, "group");
  entry.kind = text(spec.value("names", Json::object()), "kind");
  entry.namespaced = text(spec, "scope") == "Namespaced";
  if (entry.group.empty() || entry.kind.empty() || !spec.contains("versions") || !spec["versions"].is_array()) {
    load_errors.push_back(source + ": a CustomResourceDefinition without group, names.kind or versions");
    return;
  }
  for (const auto& version : spec["versions"]) {
    const std::string name = text(version, "name");
    if (name.empty()) {
      load_errors.push_back(source + ": a version without a name");
      continue;
    }
    KindVersion loaded;
    loaded.served = version.value("served", false);
    if (loaded.served) {
      const std::string where = entry.group + "/" + name + " " + entry.kind;
      const Json* schema = nullptr;
      if (version.contains("schema") && version["schema"].is_object() &&
          version["schema"].contains("openAPIV3Schema")) {
        schema = &version["schema"]["openAPIV3Schema"];
      }
      if (schema == nullptr) {
        load_errors.push_back(where + ": a served version without schema.openAPIV3Schema");
        continue;
      }
      SchemaLoader loader(*this, where);
      loaded.schema = std::make_unique<Schema>(loader.parse(*schema, "", 0));
    }
    entry.versions[name] = std::move(loaded);
  }
  groups.insert(entry.group);
  const std::string key = entry.group + "/" + entry.kind;
  if (kinds.count(key) != 0) {
    load_errors.push_back(source + ": " + key + " is defined twice");
    return;
  }
  kinds[key] = std::move(entry);
}

namespace {

// ---------------------------------------------------------------------------
// Validation.

std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool is_integer(const Json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double d = value.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

std::string type_name(const Json& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return "boolean";
  if (is_integer(value)) return "integer";
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_array()) return "array";
  return "object";
}

bool has_type(const Json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return is_integer(value);
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  return true;
}

// A short rendering of a value for a message.
std::string shown(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

std::string format_number(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<std::int64_t>(value));
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << value;
  return out.str();
}

const std::regex& dns1123_label() {
  static const std::regex re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
  return re;
}

const std::regex& dns1123_subdomain() {
  static const std::regex re(R"(^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)");
  return re;
}

const std::regex& qualified_name_part() {
  static const std::regex re("^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$");
  return re;
}

std::optional<std::string> subdomain_problem(const std::string& name) {
  if (name.size() > 253) return "must be no more than 253 characters";
  if (!std::regex_match(name, dns1123_subdomain())) {
    return "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
           "start and end with an alphanumeric character";
  }
  return std::nullopt;
}

std::optional<std::string> label_problem(const std::string& name) {
  if (name.size() > 63) return "must be no more than 63 characters";
  if (!std::regex_match(name, dns1123_label())) {
    return "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
           "end with an alphanumeric character";
  }
  return std::nullopt;
}

// A label, annotation or finalizer key: [DNS-subdomain "/"] name.
std::optional<std::string> qualified_name_problem(const std::string& key) {
  std::string name = key;
  const auto slash = key.find('/');
  if (slash != std::string::npos) {
    const std::string prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) return "prefix part must be non-empty";
    if (const auto problem = subdomain_problem(prefix)) return "prefix part " + *problem;
  }
  if (name.empty()) return "name part must be non-empty";
  if (name.size() > 63) return "name part must be no more than 63 characters";
  if (!std::regex_match(name, qualified_name_part())) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
           "alphanumeric character";
  }
  return std::nullopt;
}

std::optional<std::string> label_value_problem(const std::string& value) {
  if (value.empty()) return std::nullopt;
  if (value.size() > 63) return "must be no more than 63 characters";
  if (!std::regex_match(value, qualified_name_part())) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
           "start and end with an alphanumeric character";
  }
  return std::nullopt;
}

bool format_holds(const std::string& format, const Json& value) {
  if (format == "int32" || format == "int64") {
    if (!is_integer(value)) return true;  // the type check speaks for non-integers
    if (value.is_number_unsigned()) {
      const auto u = value.get<std::uint64_t>();
      return format == "int64" ? u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                               : u <= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());
    }
    if (value.is_number_integer()) {
      const auto i = value.get<std::int64_t>();
      return format == "int64" ||
             (i >= std::numeric_limits<std::int32_t>::min() && i <= std::numeric_limits<std::int32_t>::max());
    }
    const double d = value.get<double>();
    return format == "int64" ? d >= -9.2233720368547758e18 && d < 9.2233720368547758e18
                             : d >= -2147483648.0 && d <= 2147483647.0;
  }
  if (!value.is_string()) return true;
  const auto& text = value.get_ref<const std::string&>();
  if (format == "date-time") {
    static const std::regex re(R"(^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$)");
    return std::regex_match(text, re);
  }
  if (format == "date") {
    static const std::regex re(R"(^\d{4}-\d{2}-\d{2}$)");
    return std::regex_match(text, re);
  }
  if (format == "byte") {
    static const std::regex re("^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");
    return text.size() > 65536 || std::regex_match(text, re);
  }
  if (format == "uuid") {
    static const std::regex re("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
    return std::regex_match(text, re);
  }
  return true;  // other formats are not checked (the server ignores unknown ones)
}

class Validator {
 public:
  Validator(std::vector<SchemaError>& errors, const ValidateOptions& options) : errors_(errors), options_(options) {}

  // Checks `value` against `schema`. `structural` is false inside anyOf/allOf/
  // oneOf/not branches, which constrain values but never declare fields (as
  // in Kubernetes' structural schemas): no unknown-field or list-type checks
  // there.
  void check(const Json& value, const Schema& schema, const std::string& path, bool structural, int depth) {
    if (depth > kMaxDepth) {
      add(path, "nested deeper than " + std::to_string(kMaxDepth) + " levels");
      return;
    }
    if (value.is_null()) {
      if (!schema.nullable && (structural || !schema.type.empty())) add(path, "must not be null (not nullable)");
      return;
    }
    if (schema.int_or_string) {
      if (!is_integer(value) && !value.is_string()) {
        add(path, "must be an integer or a string, not " + type_name(value));
        return;
      }
    } else if (!schema.type.empty() && !has_type(value, schema.type)) {
      add(path, "must be of type " + schema.type + ", not " + type_name(value));
      return;
    }
    if (schema.has_enum) enum_check(value, schema, path);
    if (value.is_string()) string_checks(value.get_ref<const std::string&>(), schema, path);
    if (value.is_number()) number_checks(value, schema, path);
    if (!schema.format.empty() && !format_holds(schema.format, value)) {
      add(path, "Invalid value: " + shown(value) + ": must be of format " + schema.format);
    }
    if (value.is_array()) array_checks(value, schema, path, structural, depth);
    if (value.is_object()) object_checks(value, schema, path, structural, depth, false);
    combinator_checks(value, schema, path, depth);
  }

  // The object itself: its metadata as ObjectMeta, everything else by schema.
  void check_root(const Json& object, const Schema& schema, bool namespaced) {
    if (!object.is_object()) {
      add("", "must be of type object, not " + type_name(object));
      return;
    }
    object_checks(object, schema, "", true, 0, true);
    combinator_checks(object, schema, "", 0);
    if (!object.contains("metadata")) {
      add("metadata", "Required value");
      return;
    }
    const Json& meta = object["metadata"];
    object_meta(meta, namespaced);
    // A CRD may constrain metadata.name and metadata.generateName further.
    const auto declared = schema.properties.find("metadata");
    if (declared == schema.properties.end() || !meta.is_object()) return;
    for (const char* field : {"name", "generateName"}) {
      const auto constraint = declared->second->properties.find(field);
      if (constraint != declared->second->properties.end() && meta.contains(field)) {
        check(meta[field], *constraint->second, child_path("metadata", field), true, 1);
      }
    }
  }

  bool failed() const { return !errors_.empty(); }

 private:
  void add(const std::string& path, const std::string& message) { errors_.push_back({path, message}); }

  void enum_check(const Json& value, const Schema& schema, const std::string& path) {
    if (std::find(schema.enum_values.begin(), schema.enum_values.end(), value) != schema.enum_values.end()) return;
    std::string supported;
    for (const auto& option : schema.enum_values) {
      supported += (supported.empty() ? "" : ", ") + option.dump();
    }
    add(path, "Unsupported value: " + shown(value) + ": supported values: " + supported);
  }

  void string_checks(const std::string& text, const Schema& schema, const std::string& path) {
    const std::size_t length = code_points(text);
    if (schema.min_length && length < *schema.min_length) {
      add(path, "Invalid value: " + shown(Json(text)) + ": must be at least " + std::to_string(*schema.min_length) +
                    " characters long");
    }
    if (schema.max_length && length > *schema.max_length) {
      add(path, "Too long: may not be more than " + std::to_string(*schema.max_length) + " characters");
    }
    if (schema.regex != nullptr) {
      if (text.size() > kMaxPatternSubject) {
        add(path, "Invalid value: too long (" + std::to_string(text.size()) + " bytes) to match '" + schema.pattern +
                      "'");
      } else if (!std::regex_search(text, *schema.regex)) {
        add(path, "Invalid value: " + shown(Json(text)) + ": should match '" + schema.pattern + "'");
      }
    }
  }

  void number_checks(const Json& value, const Schema& schema, const std::string& path) {
    const double number = value.get<double>();
    if (schema.minimum) {
      const bool below = schema.exclusive_minimum ? number <= *schema.minimum : number < *schema.minimum;
      if (below) {
        add(path, "Invalid value: " + shown(value) + ": must be greater than " +
                      (schema.exclusive_minimum ? "" : "or equal to ") + format_number(*schema.minimum));
      }
    }
    if (schema.maximum) {
      const bool above = schema.exclusive_maximum ? number >= *schema.maximum : number > *schema.maximum;
      if (above) {
        add(path, "Invalid value: " + shown(value) + ": must be less than " +
                      (schema.exclusive_maximum ? "" : "or equal to ") + format_number(*schema.maximum));
      }
    }
    if (schema.multiple_of) {
      const double ratio = number / *schema.multiple_of;
      if (std::fabs(ratio - std::round(ratio)) > 1e-9) {
        add(path, "Invalid value: " + shown(value) + ": must be a multiple of " + format_number(*schema.multiple_of));
      }
    }
  }

  void array_checks(const Json& array, const Schema& schema, const std::string& path, bool structural, int depth) {
    if (schema.min_items && array.size() < *schema.min_items) {
      add(path, "Invalid value: " + std::to_string(array.size()) + ": must have at least " +
                    std::to_string(*schema.min_items) + " items");
    }
    if (schema.max_items && array.size() > *schema.max_items) {
      add(path, "Too many: " + std::to_string(array.size()) + ": must have at most " +
                    std::to_string(*schema.max_items) + " items");
    }
    if (schema.unique_items || (structural && schema.list_type == "set")) {
      for (std::size_t i = 1; i < array.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (array[i] == array[j]) {
            add(index_path(path, i), "Duplicate value: " + shown(array[i]));
            break;
          }
        }
      }
    }
    if (structural && schema.list_type == "map") list_map_checks(array, schema, path);
    if (schema.items) {
      for (std::size_t i = 0; i < array.size(); ++i) {
        check(array[i], *schema.items, index_path(path, i), structural, depth + 1);
      }
    }
  }

  // x-kubernetes-list-type: map — every item carries its keys (or they
  // default) and no two items share the same keys.
  void list_map_checks(const Json& array, const Schema& schema, const std::string& path) {
    std::map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < array.size(); ++i) {
      const Json& item = array[i];
      if (!item.is_object()) continue;  // the items' type check reports it
      Json identity = Json::object();
      for (const auto& key : schema.list_map_keys) {
        if (item.contains(key)) {
          identity[key] = item[key];
          continue;
        }
        // A missing key takes its default, as the server would fill it in.
        const bool defaulted = schema.items && schema.items->properties.count(key) != 0 &&
                               schema.items->properties.at(key)->has_default;
        identity[key] = defaulted ? schema.items->properties.at(key)->default_value : Json();
      }
      const std::string text = identity.dump();
      const auto [where, inserted] = seen.emplace(text, i);
      if (!inserted) {
        add(index_path(path, i), "Duplicate value: " + text + " (the same keys as item " +
                                     std::to_string(where->second) + ")");
      }
    }
  }

  void object_checks(const Json& object, const Schema& schema, const std::string& path, bool structural, int depth,
                     bool root) {
    if (schema.min_properties && object.size() < *schema.min_properties) {
      add(path, "Invalid value: " + std::to_string(object.size()) + ": must have at least " +
                    std::to_string(*schema.min_properties) + " properties");
    }
    if (schema.max_properties && object.size() > *schema.max_properties) {
      add(path, "Too many: " + std::to_string(object.size()) + ": must have at most " +
                    std::to_string(*schema.max_properties) + " properties");
    }
    for (const auto& name : schema.required) {
      if (object.contains(name)) continue;
      const auto property = schema.properties.find(name);
      if (property != schema.properties.end() && property->second->has_default) continue;
      add(child_path(path, name), "Required value");
    }
    const bool declares_fields = schema.type == "object" || schema.has_properties;
    for (const auto& [key, value] : object.items()) {
      if (root && key == "metadata") continue;  // checked as ObjectMeta
      const auto property = schema.properties.find(key);
      if (property != schema.properties.end()) {
        check(value, *property->second, child_path(path, key), structural, depth + 1);
        continue;
      }
      if (schema.embedded_resource && (key == "apiVersion" || key == "kind" || key == "metadata")) continue;
      switch (schema.additional) {
        case Additional::Schema:
          check(value, *schema.additional_schema, key_path(path, key), structural, depth + 1);
          continue;
        case Additional::Forbidden:
          add(child_path(path, key), "unknown field (additionalProperties is false)");
          continue;
        case Additional::Allowed:
          continue;
        case Additional::Unset:
          break;
      }
      if (schema.preserve_unknown || !structural || !declares_fields) continue;
      add(child_path(path, key), "unknown field");
    }
  }

  void combinator_checks(const Json& value, const Schema& schema, const std::string& path, int depth) {
    for (const auto& branch : schema.all_of) check(value, branch, path, false, depth + 1);
    if (!schema.any_of.empty()) {
      const std::size_t passing = count_passing(value, schema.any_of, path, depth);
      if (passing == 0) add(path, "Invalid value: " + shown(value) + ": must validate against a schema of anyOf");
    }
    if (!schema.one_of.empty()) {
      const std::size_t passing = count_passing(value, schema.one_of, path, depth);
      if (passing != 1) {
        add(path, "Invalid value: " + shown(value) + ": must validate against exactly one schema of oneOf, not " +
                      std::to_string(passing));
      }
    }
    if (schema.not_schema) {
      std::vector<SchemaError> scratch;
      Validator branch(scratch, options_);
      branch.check(value, *schema.not_schema, path, false, depth + 1);
      if (scratch.empty()) add(path, "Invalid value: " + shown(value) + ": must not validate against the schema of not");
    }
  }

  std::size_t count_passing(const Json& value, const std::vector<Schema>& branches, const std::string& path,
                            int depth) {
    std::size_t passing = 0;
    for (const auto& branch : branches) {
      std::vector<SchemaError> scratch;
      Validator branch_validator(scratch, options_);
      branch_validator.check(value, branch, path, false, depth + 1);
      if (scratch.empty()) ++passing;
    }
    return passing;
  }

  // ObjectMeta, as the API server checks it for a custom resource.
  void object_meta(const Json& meta, bool namespaced) {
    const std::string path = "metadata";
    if (!meta.is_object()) {
      add(path, "must be of type object, not " + type_name(meta));
      return;
    }
    static const std::set<std::string> kStrings = {"name", "generateName", "namespace", "uid", "resourceVersion",
                                                   "selfLink"};
    static const std::set<std::string> kTimes = {"creationTimestamp", "deletionTimestamp"};
    static const std::set<std::string> kIntegers = {"generation", "deletionGracePeriodSeconds"};
    static const std::set<std::string> kLists = {"finalizers", "ownerReferences", "managedFields"};
    static const std::set<std::string> kMaps = {"labels", "annotations"};
    for (const auto& [key, value] : meta.items()) {
      const std::string field = child_path(path, key);
      if (kStrings.count(key) != 0) {
        if (!value.is_string()) add(field, "must be of type string, not " + type_name(value));
      } else if (kTimes.count(key) != 0) {
        if (!value.is_null() && !format_holds("date-time", value)) {
          add(field, "Invalid value: " + shown(value) + ": must be an RFC 3339 time or null");
        }
      } else if (kIntegers.count(key) != 0) {
        if (!is_integer(value)) add(field, "must be of type integer, not " + type_name(value));
      } else if (kLists.count(key) != 0) {
        if (!value.is_array()) add(field, "must be of type array, not " + type_name(value));
      } else if (kMaps.count(key) != 0) {
        string_map(value, field, key == "labels");
      } else {
        add(field, "unknown field");
      }
    }
    const auto text = [&](const char* key) -> std::optional<std::string> {
      const auto found = meta.find(key);
      if (found == meta.end() || !found->is_string()) return std::nullopt;
      return found->get<std::string>();
    };
    const auto name = text("name");
    const auto generate_name = text("generateName");
    if (name) {
      if (const auto problem = subdomain_problem(*name)) {
        add(child_path(path, "name"), "Invalid value: " + shown(Json(*name)) + ": " + *problem);
      }
    } else if (!meta.contains("name") && !generate_name) {
      add(child_path(path, "name"), "Required value: name or generateName is required");
    }
    if (generate_name) {
      // A prefix: a trailing '-' is allowed (the server appends a suffix).
      std::string masked = *generate_name;
      if (masked.size() > 1 && masked.back() == '-') masked.back() = 'a';
      if (const auto problem = subdomain_problem(masked)) {
        add(child_path(path, "generateName"), "Invalid value: " + shown(Json(*generate_name)) + ": " + *problem);
      }
    }
    const auto ns = text("namespace");
    if (!namespaced && meta.contains("namespace")) {
      add(child_path(path, "namespace"), "Forbidden: a cluster-scoped kind has no namespace");
    } else if (ns) {
      if (const auto problem = label_problem(*ns)) {
        add(child_path(path, "namespace"), "Invalid value: " + shown(Json(*ns)) + ": " + *problem);
      }
    } else if (namespaced && options_.require_namespace && !meta.contains("namespace")) {
      add(child_path(path, "namespace"), "Required value");
    }
    if (meta.contains("finalizers") && meta["finalizers"].is_array()) {
      const Json& finalizers = meta["finalizers"];
      for (std::size_t i = 0; i < finalizers.size(); ++i) {
        if (!finalizers[i].is_string()) {
          add(index_path(child_path(path, "finalizers"), i), "must be of type string, not " + type_name(finalizers[i]));
        } else if (const auto problem = qualified_name_problem(finalizers[i].get<std::string>())) {
          add(index_path(child_path(path, "finalizers"), i), "Invalid value: " + shown(finalizers[i]) + ": " + *problem);
        }
      }
    }
  }

  void string_map(const Json& map, const std::string& path, bool labels) {
    if (!map.is_object()) {
      add(path, "must be of type object, not " + type_name(map));
      return;
    }
    std::size_t total = 0;
    for (const auto& [key, value] : map.items()) {
      const std::string field = key_path(path, key);
      std::string checked_key = key;
      if (!labels) std::transform(checked_key.begin(), checked_key.end(), checked_key.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (const auto problem = qualified_name_problem(checked_key)) {
        add(field, "Invalid value: " + shown(Json(key)) + ": " + *problem);
      }
      if (!value.is_string()) {
        add(field, "must be of type string, not " + type_name(value));
        continue;
      }
      total += key.size() + value.get_ref<const std::string&>().size();
      if (labels) {
        if (const auto problem = label_value_problem(value.get<std::string>())) {
          add(field, "Invalid value: " + shown(value) + ": " + *problem);
        }
      }
    }
    if (!labels && total > 256 * 1024) add(path, "Too long: must have at most 262144 bytes");
  }

  std::vector<SchemaError>& errors_;
  const ValidateOptions& options_;
};

}  // namespace

// ---------------------------------------------------------------------------
// Public functions.

std::string to_string(const SchemaError& error) {
  return (error.path.empty() ? std::string("<object>") : error.path) + ": " + error.message;
}

std::string ValidationResult::summary() const {
  if (outcome == Outcome::NoSchema) return note;
  std::string out;
  for (const auto& error : errors) out += to_string(error) + "\n";
  return out;
}

bool ValidationResult::has_error_at(const std::string& path) const {
  return std::any_of(errors.begin(), errors.end(), [&](const SchemaError& e) { return e.path == path; });
}

YamlDocuments yaml_to_json(const std::string& text) {
  YamlDocuments out;
  std::vector<YAML::Node> nodes;
  try {
    nodes = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    out.errors.push_back(std::string("YAML: ") + e.what());
    return out;
  }
  YamlConverter converter(out.errors);
  for (const auto& node : nodes) {
    if (node.IsNull() || !node.IsDefined()) continue;
    try {
      out.documents.push_back(converter.convert(node, "", 0));
    } catch (const YAML::Exception& e) {
      out.errors.push_back(std::string("YAML: ") + e.what());
    }
  }
  return out;
}

YamlDocuments read_yaml_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    YamlDocuments out;
    out.errors.push_back(file.string() + ": cannot be read");
    return out;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto out = yaml_to_json(text.str());
  for (auto& error : out.errors) error = file.string() + ": " + error;
  return out;
}

CrdCatalog::CrdCatalog() : impl_(std::make_unique<Impl>()) {}
CrdCatalog::~CrdCatalog() = default;
CrdCatalog::CrdCatalog(CrdCatalog&&) noexcept = default;
CrdCatalog& CrdCatalog::operator=(CrdCatalog&&) noexcept = default;

CrdCatalog CrdCatalog::load_directory(const std::filesystem::path& dir) {
  CrdCatalog catalog;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".yaml" || entry.path().extension() == ".yml") files.push_back(entry.path());
  }
  if (ec) {
    catalog.impl_->load_errors.push_back(dir.string() + ": " + ec.message());
    return catalog;
  }
  if (files.empty()) catalog.impl_->load_errors.push_back(dir.string() + ": no .yaml file");
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    auto documents = read_yaml_file(file);
    for (auto& error : documents.errors) catalog.impl_->load_errors.push_back(std::move(error));
    catalog.impl_->load_documents(documents.documents, file.filename().string());
  }
  return catalog;
}

CrdCatalog CrdCatalog::load_text(const std::string& yaml) {
  CrdCatalog catalog;
  auto documents = yaml_to_json(yaml);
  for (auto& error : documents.errors) catalog.impl_->load_errors.push_back(std::move(error));
  catalog.impl_->load_documents(documents.documents, "<text>");
  return catalog;
}

ValidationResult CrdCatalog::validate(const nlohmann::ordered_json& object, const ValidateOptions& options) const {
  return validate(nlohmann::json(object), options);
}

ValidationResult CrdCatalog::validate(const nlohmann::json& object, const ValidateOptions& options) const {
  ValidationResult result;
  const auto fail = [&](const std::string& path, const std::string& message) {
    result.outcome = Outcome::Invalid;
    result.errors.push_back({path, message});
    return result;
  };
  if (!object.is_object()) return fail("", "must be of type object, not " + type_name(object));
  const auto text = [&](const char* key) -> std::optional<std::string> {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_string() || found->get_ref<const std::string&>().empty()) {
      return std::nullopt;
    }
    return found->get<std::string>();
  };
  const auto api_version = text("apiVersion");
  const auto kind = text("kind");
  if (!api_version) return fail("apiVersion", "Required value: a non-empty string");
  if (!kind) return fail("kind", "Required value: a non-empty string");
  const auto slash = api_version->find('/');
  const std::string group = slash == std::string::npos ? std::string() : api_version->substr(0, slash);
  const std::string version = slash == std::string::npos ? *api_version : api_version->substr(slash + 1);

  const auto entry = impl_->kinds.find(group + "/" + *kind);
  if (entry == impl_->kinds.end()) {
    if (impl_->groups.count(group) != 0) return fail("kind", "no kind " + *kind + " in group " + group);
    result.outcome = Outcome::NoSchema;
    result.note = "no schema for " + *api_version + " " + *kind;
    return result;
  }
  const auto served = entry->second.versions.find(version);
  if (served == entry->second.versions.end() || !served->second.served) {
    std::string versions;
    for (const auto& [name, loaded] : entry->second.versions) {
      if (loaded.served) versions += (versions.empty() ? "" : ", ") + name;
    }
    return fail("apiVersion",
                "Unsupported value: version " + version + " of " + *kind + " is not served (served: " + versions + ")");
  }
  Validator validator(result.errors, options);
  try {
    validator.check_root(object, *served->second.schema, entry->second.namespaced);
  } catch (const std::exception& e) {  // never expected: a bug of this validator, reported as a refusal
    result.errors.push_back({"", std::string("the validator failed: ") + e.what()});
  }
  if (!result.errors.empty()) result.outcome = Outcome::Invalid;
  return result;
}

const std::vector<std::string>& CrdCatalog::load_errors() const { return impl_->load_errors; }

const std::vector<std::string>& CrdCatalog::unsupported_patterns() const { return impl_->unsupported_patterns; }

std::vector<std::string> CrdCatalog::served_kinds() const {
  std::vector<std::string> out;
  for (const auto& [key, entry] : impl_->kinds) {
    for (const auto& [version, loaded] : entry.versions) {
      if (loaded.served) out.push_back(entry.group + "/" + version + " " + entry.kind);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t CrdCatalog::skipped_cel_rules() const { return impl_->cel_rules; }

std::filesystem::path kueue_crds_dir() {
  return (std::filesystem::path(MKQ_SHARED_DIR) / "kueue" / "crds").lexically_normal();
}

std::filesystem::path kueue_examples_dir() {
  return (std::filesystem::path(MKQ_SHARED_DIR) / "kueue" / "examples").lexically_normal();
}

}  // namespace mkq::test_support
