// A CRD's x-kubernetes-validations: compiled once, run on every write (crd_rules.h).
#include "sandbox/crd_rules.h"

#include <map>
#include <mutex>
#include <optional>

#include "sandbox/cel/program.h"

namespace mkq::sandbox {

using nlohmann::json;

namespace {

struct Rule {
  cel::Program program;
  std::string text;     // the rule, trimmed
  std::string message;  // trimmed; empty: "failed rule: <rule>"
  std::optional<cel::Program> message_expression;
  std::string reason;              // FieldValueInvalid (default), Forbidden, Required, Duplicate
  std::vector<std::string> field;  // fieldPath's segments, appended to the node's path
};

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\n\r");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\n\r") - first + 1);
}

// Go's %q of a string, close enough for messages: JSON quoting.
std::string go_quoted(const std::string& s) { return json(s).dump(); }

// The rule as kube-apiserver prints it in a CRD's compile error (Go's %#v).
std::string go_rule(const json& rule) {
  const auto text = [&](const char* key) { return rule.contains(key) && rule[key].is_string() ? rule[key].get<std::string>() : std::string(); };
  const std::string reason = text("reason");
  return "apiextensions.ValidationRule{Rule:" + go_quoted(text("rule")) + ", Message:" + go_quoted(text("message")) +
         ", MessageExpression:" + go_quoted(text("messageExpression")) + ", Reason:" +
         (reason.empty() ? std::string("(*apiextensions.FieldValueErrorReason)(nil)")
                         : "(*apiextensions.FieldValueErrorReason)(" + go_quoted(reason) + ")") +
         ", FieldPath:" + go_quoted(text("fieldPath")) + ", OptionalOldSelf:(*bool)(nil)}";
}

// ".spec.foo" -> {"spec", "foo"}; nullopt for anything but a dotted path.
std::optional<std::vector<std::string>> field_path(const std::string& path) {
  std::vector<std::string> out;
  if (path.empty()) return out;
  if (path[0] != '.') return std::nullopt;
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty() || part.find_first_of("[]'\" ") != std::string::npos) return std::nullopt;
    out.push_back(part);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

std::string child_path(const std::string& base, const std::string& key) { return base.empty() ? key : base + "." + key; }

}  // namespace

struct CrdRules::Node {
  const json* schema = nullptr;
  std::string type;  // the schema's type: the "Invalid value" of a failed rule
  std::vector<Rule> rules;
  std::map<std::string, std::unique_ptr<Node>> properties;
  std::unique_ptr<Node> items;
  std::unique_ptr<Node> additional;
  std::string list_type;              // "map", "set" or "" (atomic)
  std::vector<std::string> map_keys;  // list-type map

  // Old value of item `value` of this list (the node of the list), or null when it does not correlate.
  const json* correlated_item(const json& value, const json* old_list) const {
    if (old_list == nullptr || !old_list->is_array()) return nullptr;
    for (const json& candidate : *old_list) {
      if (list_type == "set" && candidate == value) return &candidate;
      if (list_type == "map" && candidate.is_object() && value.is_object()) {
        bool same = true;
        for (const std::string& key : map_keys) {
          const auto a = candidate.find(key);
          const auto b = value.find(key);
          if ((a == candidate.end()) != (b == value.end()) || (a != candidate.end() && *a != *b)) {
            same = false;
            break;
          }
        }
        if (same) return &candidate;
      }
    }
    return nullptr;
  }
};

namespace {

using Node = CrdRules::Node;

class Compiler {
 public:
  explicit Compiler(std::vector<FieldError>* errors) : errors_(errors) {}

  // The node of `schema`, or null when nothing under it has a rule.
  std::unique_ptr<Node> compile(const json& schema, const std::string& path, bool root) {
    if (!schema.is_object()) return nullptr;
    auto node = std::make_unique<Node>();
    node->schema = &schema;
    node->type = schema.value("type", std::string());
    node->list_type = schema.value("x-kubernetes-list-type", std::string());
    for (const auto& key : schema.value("x-kubernetes-list-map-keys", json::array())) {
      if (key.is_string()) node->map_keys.push_back(key.get<std::string>());
    }
    bool any = false;
    if (const auto rules = schema.find("x-kubernetes-validations"); rules != schema.end() && rules->is_array()) {
      const bool embedded = root || schema.value("x-kubernetes-embedded-resource", false);
      for (std::size_t i = 0; i < rules->size(); ++i) {
        const std::string at = path + ".x-kubernetes-validations[" + std::to_string(i) + "]";
        if (auto rule = compile_rule((*rules)[i], schema, embedded, at)) node->rules.push_back(std::move(*rule));
        any = true;
      }
    }
    if (const auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
      for (const auto& [key, child] : props->items()) {
        if (auto n = compile(child, path + ".properties[" + key + "]", false)) {
          node->properties.emplace(key, std::move(n));
          any = true;
        }
      }
    }
    if (const auto items = schema.find("items"); items != schema.end()) {
      node->items = compile(*items, path + ".items", false);
      any = any || node->items != nullptr;
    }
    if (const auto additional = schema.find("additionalProperties"); additional != schema.end()) {
      node->additional = compile(*additional, path + ".additionalProperties", false);
      any = any || node->additional != nullptr;
    }
    return any ? std::move(node) : nullptr;
  }

 private:
  std::optional<Rule> compile_rule(const json& spec, const json& schema, bool root, const std::string& at) {
    if (!spec.is_object() || !spec.contains("rule") || !spec["rule"].is_string()) {
      errors_->push_back({"FieldValueRequired", at + ".rule", "Required value"});
      return std::nullopt;
    }
    const std::string text = spec["rule"].get<std::string>();
    const auto refuse = [&](const std::string& field, const std::string& why) {
      errors_->push_back({"FieldValueInvalid", at + "." + field, "Invalid value: " + go_rule(spec) + ": " + why});
      return std::nullopt;
    };
    if (spec.value("optionalOldSelf", false)) {
      return refuse("optionalOldSelf", "optionalOldSelf is not supported by the sandbox's CEL evaluator");
    }
    auto program = cel::Program::compile(text, schema, root);
    if (!program) return refuse("rule", "compilation failed: " + program.error().message);
    Rule rule{std::move(program).value(), trim(text), trim(spec.value("message", std::string())), std::nullopt,
              spec.value("reason", std::string()), {}};
    if (const std::string expression = spec.value("messageExpression", std::string()); !expression.empty()) {
      auto message = cel::Program::compile(expression, schema, root, cel::Produces::String);
      if (!message) return refuse("messageExpression", "messageExpression compilation failed: " + message.error().message);
      rule.message_expression = std::move(message).value();
    }
    static const char* const kReasons[] = {"", "FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired",
                                           "FieldValueDuplicate"};
    if (std::find(std::begin(kReasons), std::end(kReasons), rule.reason) == std::end(kReasons)) {
      errors_->push_back({"FieldValueNotSupported", at + ".reason",
                          "Unsupported value: " + go_quoted(rule.reason) +
                              ": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", "
                              "\"FieldValueInvalid\", \"FieldValueRequired\""});
      return std::nullopt;
    }
    const auto path = field_path(spec.value("fieldPath", std::string()));
    if (!path) return refuse("fieldPath", "fieldPath must be a dotted path of field names in the sandbox");
    rule.field = *path;
    return rule;
  }

  std::vector<FieldError>* errors_;
};

class Runner {
 public:
  explicit Runner(std::vector<FieldError>& out) : out_(out) {}

  void walk(const Node& node, const json& value, const json* old, const std::string& path) {
    if (value.is_null()) return;
    const bool unchanged = old != nullptr && *old == value;
    for (const Rule& rule : node.rules) {
      if (rule.program.uses_old_self() ? old == nullptr : unchanged) continue;
      run(node, rule, value, old, path);
    }
    if (value.is_object()) {
      for (const auto& [key, child] : node.properties) {
        const auto it = value.find(key);
        if (it == value.end()) continue;
        walk(*child, *it, old_child(old, key), child_path(path, key));
      }
      if (node.additional) {
        for (const auto& [key, child] : value.items()) {
          if (node.schema->contains("properties") && (*node.schema)["properties"].contains(key)) continue;
          walk(*node.additional, child, old_child(old, key), path + "[" + key + "]");
        }
      }
    } else if (value.is_array() && node.items) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        walk(*node.items, value[i], node.correlated_item(value[i], old), path + "[" + std::to_string(i) + "]");
      }
    }
  }

 private:
  static const json* old_child(const json* old, const std::string& key) {
    if (old == nullptr || !old->is_object()) return nullptr;
    const auto it = old->find(key);
    return it == old->end() ? nullptr : &*it;
  }

  void run(const Node& node, const Rule& rule, const json& value, const json* old, const std::string& path) {
    const cel::Value self = cel::Value::of_json(value, node.schema);
    std::optional<cel::Value> old_self;
    if (old != nullptr) old_self = cel::Value::of_json(*old, node.schema);
    const cel::Value result = rule.program.evaluate(self, old_self ? &*old_self : nullptr);
    const std::string shown = path.empty() ? "<nil>" : path;
    const std::string described = rule.message.empty() ? rule.text : rule.message;
    if (result.is_error()) {
      const bool overload = result.text().rfind("no such overload", 0) == 0;
      out_.push_back({"FieldValueInvalid", shown,
                      "Invalid value: " + go_quoted(node.type) + ": " +
                          (overload ? "'" + result.text() + "': call arguments did not match a supported operator, "
                                      "function or macro signature for rule: " + described
                                    : result.text() + " evaluating rule: " + described)});
      return;
    }
    if (result.kind() == cel::Value::Kind::Bool && result.as_bool()) return;
    std::string message = rule.message.empty() ? "failed rule: " + rule.text : rule.message;
    if (rule.message_expression) {
      const cel::Value m = rule.message_expression->evaluate(self, old_self ? &*old_self : nullptr);
      if (m.kind() == cel::Value::Kind::String && !trim(m.text()).empty() && m.text().find('\n') == std::string::npos) {
        message = trim(m.text());
      }
    }
    std::string field = path;
    for (const std::string& part : rule.field) field = child_path(field, part);
    if (field.empty()) field = "<nil>";
    if (rule.reason == "FieldValueForbidden") {
      out_.push_back({rule.reason, field, "Forbidden: " + message});
    } else if (rule.reason == "FieldValueRequired") {
      out_.push_back({rule.reason, field, "Required value: " + message});
    } else if (rule.reason == "FieldValueDuplicate") {
      out_.push_back({rule.reason, field, "Duplicate value: " + go_quoted(node.type)});
    } else {
      out_.push_back({"FieldValueInvalid", field, "Invalid value: " + go_quoted(node.type) + ": " + message});
    }
  }

  std::vector<FieldError>& out_;
};

}  // namespace

CrdRules::~CrdRules() = default;

std::shared_ptr<const CrdRules> CrdRules::compile(const json& schema, const std::string& path,
                                                  std::vector<FieldError>* errors) {
  std::shared_ptr<CrdRules> rules(new CrdRules());
  rules->schema_ = schema;
  rules->root_ = Compiler(errors).compile(rules->schema_, path, true);
  return rules;
}

bool CrdRules::empty() const { return root_ == nullptr; }

std::vector<FieldError> CrdRules::validate(const json& object, const json* old) const {
  std::vector<FieldError> errors;
  if (root_) Runner(errors).walk(*root_, object, old, "");
  return errors;
}

void validate_crd_rules(const json& crd, std::vector<FieldError>* errors) {
  const auto spec = crd.find("spec");
  if (spec == crd.end() || !spec->is_object()) return;
  const auto versions = spec->find("versions");
  if (versions == spec->end() || !versions->is_array()) return;
  for (std::size_t i = 0; i < versions->size(); ++i) {
    const json& version = (*versions)[i];
    if (!version.is_object() || !version.contains("schema") || !version["schema"].is_object()) continue;
    const auto schema = version["schema"].find("openAPIV3Schema");
    if (schema == version["schema"].end()) continue;
    CrdRules::compile(*schema, "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema", errors);
  }
}

std::shared_ptr<const CrdRules> stored_crd_rules(const json& crd, std::size_t index, std::string* error) {
  const json& version = crd["spec"]["versions"][index];
  if (!version.contains("schema") || !version["schema"].is_object() || !version["schema"].contains("openAPIV3Schema")) {
    return nullptr;
  }
  const json& meta = crd.contains("metadata") && crd["metadata"].is_object() ? crd["metadata"] : json::object();
  const std::string key = meta.value("uid", std::string()) + "/" + meta.value("resourceVersion", std::string()) + "/" +
                          std::to_string(index);
  struct Entry {
    std::shared_ptr<const CrdRules> rules;
    std::string error;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) {
      *error = it->second.error;
      return it->second.rules;
    }
  }
  std::vector<FieldError> errors;
  auto rules = CrdRules::compile(version["schema"]["openAPIV3Schema"],
                                 "spec.versions[" + std::to_string(index) + "].schema.openAPIV3Schema", &errors);
  Entry entry{rules->empty() ? nullptr : rules, {}};
  for (const FieldError& e : errors) entry.error += (entry.error.empty() ? "" : "; ") + e.field + ": " + e.message;
  *error = entry.error;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!meta.value("uid", std::string()).empty()) cache.emplace(key, entry);
  return entry.rules;
}

}  // namespace mkq::sandbox
