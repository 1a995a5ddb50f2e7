// A CRD's x-kubernetes-validations: compiled once, run on every write (crd_rules.h).
#include "sandbox/crd_rules.h"

#include <algorithm>
#include <map>
#include <optional>

#include "sandbox/cel/cost.h"
#include "sandbox/cel/lru_cache.h"
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
  // Rules over their estimated cost go to *cost_errors (null: not checked).
  Compiler(std::vector<FieldError>* errors, std::vector<FieldError>* cost_errors)
      : errors_(errors), cost_errors_(cost_errors) {}

  // The node of `schema`, or null when nothing under it has a rule.
  // `cardinality`: how many values at `schema` one object can hold.
  std::unique_ptr<Node> compile(const json& schema, const std::string& path, bool root,
                                std::uint64_t cardinality) {
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
        if (auto rule = compile_rule((*rules)[i], schema, embedded, at)) {
          check_cost(*rule, at, cardinality);
          node->rules.push_back(std::move(*rule));
        }
        any = true;
      }
    }
    if (const auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
      for (const auto& [key, child] : props->items()) {
        if (auto n = compile(child, path + ".properties[" + key + "]", false, cardinality)) {
          node->properties.emplace(key, std::move(n));
          any = true;
        }
      }
    }
    if (const auto items = schema.find("items"); items != schema.end()) {
      const std::uint64_t each =
          schema.contains("maxItems") ? cel::max_size(schema) : cel::unbounded_cardinality(*items, false);
      node->items = compile(*items, path + ".items", false, cel::saturating_multiply(cardinality, each));
      any = any || node->items != nullptr;
    }
    if (const auto additional = schema.find("additionalProperties"); additional != schema.end()) {
      const std::uint64_t each = schema.contains("maxProperties")
                                     ? cel::max_size(schema)
                                     : cel::unbounded_cardinality(*additional, true);
      node->additional = compile(*additional, path + ".additionalProperties", false,
                                 cel::saturating_multiply(cardinality, each));
      any = any || node->additional != nullptr;
    }
    return any ? std::move(node) : nullptr;
  }

  // After the whole schema: its rules' estimates together over the CRD's
  // limit refuse it, naming the dearest rules first, as kube-apiserver does.
  void check_total(const std::string& path) {
    if (cost_errors_ == nullptr || total_ <= cel::kStaticEstimatedCrdCostLimit) return;
    std::stable_sort(costs_.begin(), costs_.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (std::size_t i = 0; i < costs_.size() && i < 4; ++i) {
      cost_errors_->push_back(
          {"FieldValueForbidden", costs_[i].first,
           "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire "
           "OpenAPIv3 schema"});
    }
    cost_errors_->push_back(
        {"FieldValueForbidden", path,
         "Forbidden: " +
             cel::cost_error_message("x-kubernetes-validations estimated rule cost total for entire "
                                     "OpenAPIv3 schema",
                                     total_, cel::kStaticEstimatedCrdCostLimit)});
  }

 private:
  // One rule (and its messageExpression): its estimate times its cardinality within the per-rule limit.
  void check_cost(const Rule& rule, const std::string& at, std::uint64_t cardinality) {
    if (cost_errors_ == nullptr) return;
    const auto observe = [&](const cel::Program& program, const std::string& field, const char* what) {
      const std::uint64_t cost = cel::saturating_multiply(program.estimated_cost(), cardinality);
      if (cost > cel::kStaticEstimatedCostLimit) {
        cost_errors_->push_back(
            {"FieldValueForbidden", at + "." + field,
             "Forbidden: " + cel::cost_error_message(what, cost, cel::kStaticEstimatedCostLimit)});
      }
      total_ = cel::saturating_add(total_, cost);
      costs_.emplace_back(at + "." + field, cost);
    };
    observe(rule.program, "rule", "estimated rule cost");
    if (rule.message_expression)
      observe(*rule.message_expression, "messageExpression", "estimated messageExpression cost");
  }

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
  std::vector<FieldError>* cost_errors_;
  std::uint64_t total_ = 0;
  std::vector<std::pair<std::string, std::uint64_t>> costs_;  // each rule's path and estimate
};

// Runs the rules over one object within kube-apiserver's runtime budget: a
// rule over its per-call limit, or one the remaining budget cannot pay for,
// is an error and no further rule runs.
class Runner {
 public:
  explicit Runner(std::vector<FieldError>& out) : out_(out) {}

  void walk(const Node& node, const json& value, const json* old, const std::string& path) {
    if (value.is_null() || stopped_) return;
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
    std::uint64_t cost = 0;
    const cel::Value result = rule.program.evaluate(self, old_self ? &*old_self : nullptr, &cost);
    const std::string shown = path.empty() ? "<nil>" : path;
    const std::string described = rule.message.empty() ? rule.text : rule.message;
    if (cost > budget_) {
      stopped_ = true;
      out_.push_back(
          {"FieldValueInvalid", shown,
           "Invalid value: " + go_quoted(node.type) +
               ": validation failed due to running out of cost budget, no further validation rules will "
               "be run"});
      return;
    }
    budget_ -= cost;
    if (result.is_error() && result.text() == cel::kCostLimitExceeded) {
      stopped_ = true;
      out_.push_back(
          {"FieldValueInvalid", shown,
           "Invalid value: " + go_quoted(node.type) + ": '" + result.text() +
               "': no further validation rules will be run due to call cost exceeds limit for rule: " +
               described});
      return;
    }
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
  std::uint64_t budget_ = cel::kRuntimeCostBudget;
  bool stopped_ = false;
};

// The compiled rules of a stored CRD's version, at one resourceVersion.
struct CompiledVersion {
  std::string resource_version;
  std::shared_ptr<const CrdRules> rules;
  std::string error;
};

cel::LruCache<CompiledVersion>& crd_rules_cache() {
  static cel::LruCache<CompiledVersion> cache(kCrdRulesCached);
  return cache;
}

}  // namespace

CrdRules::~CrdRules() = default;

std::shared_ptr<const CrdRules> CrdRules::compile(const json& schema, const std::string& path,
                                                  std::vector<FieldError>* errors,
                                                  std::vector<FieldError>* cost_errors) {
  std::shared_ptr<CrdRules> rules(new CrdRules());
  rules->schema_ = schema;
  Compiler compiler(errors, cost_errors);
  rules->root_ = compiler.compile(rules->schema_, path, true, 1);
  compiler.check_total(path);
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
    CrdRules::compile(*schema, "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema", errors,
                      errors);
  }
}

std::shared_ptr<const CrdRules> stored_crd_rules(const json& crd, std::size_t index, std::string* error) {
  const json& version = crd["spec"]["versions"][index];
  if (!version.contains("schema") || !version["schema"].is_object() || !version["schema"].contains("openAPIV3Schema")) {
    return nullptr;
  }
  const json& meta = crd.contains("metadata") && crd["metadata"].is_object() ? crd["metadata"] : json::object();
  // One entry per CRD version (uid and index), for the CRD's current
  // resourceVersion: an update replaces it, and the least recently used go
  // first beyond kCrdRulesCached (CRDs deleted long ago).
  const std::string uid = meta.value("uid", std::string());
  const std::string key = uid + "/" + std::to_string(index);
  const std::string resource_version = meta.value("resourceVersion", std::string());
  if (const auto found = crd_rules_cache().find(key); found && found->resource_version == resource_version) {
    *error = found->error;
    return found->rules;
  }
  std::vector<FieldError> errors;
  auto rules = CrdRules::compile(version["schema"]["openAPIV3Schema"],
                                 "spec.versions[" + std::to_string(index) + "].schema.openAPIV3Schema", &errors);
  CompiledVersion entry{resource_version, rules->empty() ? nullptr : rules, {}};
  for (const FieldError& e : errors) entry.error += (entry.error.empty() ? "" : "; ") + e.field + ": " + e.message;
  *error = entry.error;
  if (uid.empty()) return entry.rules;
  return crd_rules_cache().insert(key, std::move(entry))->rules;
}

std::size_t crd_rules_cached() { return crd_rules_cache().size(); }

}  // namespace mkq::sandbox
