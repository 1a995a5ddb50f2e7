// CEL cost limits and the sandbox's estimate of a rule's cost (cost.h).
#include "sandbox/cel/cost.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

namespace mkq::sandbox::cel {

using nlohmann::json;

namespace {

constexpr std::uint64_t kUnknownSize = kMaxRequestSizeBytes;

// The smallest JSON text of a value at `schema`, as kube-apiserver estimates
// it: "" [] 0 true, and an object's {} with its required properties that
// have no default ("name": and their smallest value, and a comma).
std::uint64_t min_json_size(const json& schema) {
  if (!schema.is_object()) return 1;
  const std::string type = schema.value("type", std::string());
  if (type == "boolean") return 4;
  if (type == "number" || type == "integer") return 1;
  if (type == "string" || type == "array") return 2;
  if (type != "object") return 1;  // int-or-string (0), or untyped
  std::uint64_t size = 2;
  const auto required = schema.find("required");
  const auto properties = schema.find("properties");
  if (required == schema.end() || !required->is_array() || properties == schema.end() ||
      !properties->is_object()) {
    return size;
  }
  for (const json& name : *required) {
    if (!name.is_string()) continue;
    const auto property = properties->find(name.get<std::string>());
    if (property == properties->end() || !property->is_object() || property->contains("default")) continue;
    size = saturating_add(size, name.get<std::string>().size() + 4 + min_json_size(*property));
  }
  return size;
}

const json* child(const json* schema, const std::string& key) {
  if (schema == nullptr || !schema->is_object()) return nullptr;
  if (const auto p = schema->find("properties"); p != schema->end() && p->is_object()) {
    if (const auto it = p->find(key); it != p->end()) return &*it;
  }
  if (const auto a = schema->find("additionalProperties"); a != schema->end() && a->is_object()) return &*a;
  return nullptr;
}

const json* element(const json* schema) {
  if (schema == nullptr || !schema->is_object()) return nullptr;
  if (const auto it = schema->find("items"); it != schema->end() && it->is_object()) return &*it;
  if (const auto a = schema->find("additionalProperties"); a != schema->end() && a->is_object()) return &*a;
  return nullptr;
}

const json& string_schema() {
  static const json schema = {{"type", "string"}};
  return schema;
}

struct Estimate {
  std::uint64_t cost = 0;
  std::uint64_t size = kUnknownSize;  // characters, items or entries
  const json* schema = nullptr;       // the schema of the value, when known
};

class Estimator {
 public:
  explicit Estimator(const json& self) : self_(self) {}

  Estimate estimate(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Literal:
        return {0, literal_size(e.value), nullptr};
      case Expr::Kind::Ident:
        return ident(e.name);
      case Expr::Kind::Select:
      case Expr::Kind::Has: {
        const Estimate operand = estimate(*e.args[0]);
        const json* schema = child(operand.schema, e.name);
        // metadata.name and generateName of a resource: at most 253 characters.
        const std::uint64_t size = schema != nullptr
                                       ? max_size(*schema)
                                       : (e.name == "name" || e.name == "generateName" ? 253 : kUnknownSize);
        return {saturating_add(operand.cost, 1), size, schema};
      }
      case Expr::Kind::List: {
        Estimate out{kListLiteralCost, e.args.size(), nullptr};
        for (const auto& a : e.args) out.cost = saturating_add(out.cost, estimate(*a).cost);
        return out;
      }
      case Expr::Kind::Map: {
        Estimate out{kMapLiteralCost, e.args.size() / 2, nullptr};
        for (const auto& a : e.args) out.cost = saturating_add(out.cost, estimate(*a).cost);
        return out;
      }
      case Expr::Kind::Macro:
        return macro(e);
      case Expr::Kind::Call:
        return call(e);
    }
    return {};
  }

 private:
  static std::uint64_t literal_size(const Value& v) {
    if (v.kind() == Value::Kind::String) return v.text().size();
    if (v.kind() == Value::Kind::List || v.kind() == Value::Kind::Map) return v.size();
    return 1;
  }

  Estimate ident(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == name)
        return {1, it->second != nullptr ? max_size(*it->second) : kUnknownSize, it->second};
    }
    if (name == "self" || name == "oldSelf") return {1, max_size(self_), &self_};
    return {1, kUnknownSize, nullptr};
  }

  // A comprehension: its range, then per item (at most the range's size) its body and cel-go's loop step.
  Estimate macro(const Expr& e) {
    const Estimate range = estimate(*e.args[0]);
    const bool is_map = range.schema != nullptr && range.schema->value("type", std::string()) == "object";
    scopes_.emplace_back(e.var, is_map ? &string_schema() : element(range.schema));
    std::uint64_t body = 0;
    for (std::size_t i = 1; i < e.args.size(); ++i) body = saturating_add(body, estimate(*e.args[i]).cost);
    scopes_.pop_back();
    const std::uint64_t per_item = saturating_add(body, kComprehensionStepCost);
    const bool keeps_list = e.name == "filter" || e.name == "map";
    return {saturating_add(range.cost, saturating_multiply(range.size, per_item)),
            keeps_list ? range.size : 1, e.name == "filter" ? range.schema : nullptr};
  }

  Estimate call(const Expr& e) {
    const std::string& f = e.name;
    std::vector<Estimate> args;
    std::uint64_t cost = 1;
    for (const auto& a : e.args) {
      args.push_back(estimate(*a));
      cost = saturating_add(cost, args.back().cost);
    }
    if (f == "_?_:_" && args.size() == 3) {
      // The condition and the dearer branch.
      return {saturating_add(args[0].cost, std::max(args[1].cost, args[2].cost)),
              std::max(args[1].size, args[2].size),
              args[1].schema != nullptr ? args[1].schema : args[2].schema};
    }
    const auto is_string = [](const Estimate& a) {
      return a.schema != nullptr && (a.schema->value("type", std::string()) == "string" ||
                                     a.schema->value("x-kubernetes-int-or-string", false));
    };
    if ((f == "_==_" || f == "_!=_" || f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") &&
        args.size() == 2) {
      const std::uint64_t smaller = std::min(args[0].size, args[1].size);
      if (is_string(args[0]) || is_string(args[1]))
        cost = saturating_add(cost, string_traversal_cost(smaller));
      return {cost, 1, nullptr};
    }
    if ((f == "contains" || f == "startsWith" || f == "endsWith" || f == "matches") && !args.empty()) {
      return {saturating_add(cost, string_traversal_cost(args[0].size)), 1, nullptr};
    }
    if (f == "@in" && args.size() == 2) return {saturating_add(cost, args[1].size), 1, nullptr};
    if (f == "_+_" && args.size() == 2) {
      const std::uint64_t size = saturating_add(args[0].size, args[1].size);
      return {saturating_add(cost, string_traversal_cost(size)), size, nullptr};
    }
    if (f == "_[_]" && args.size() == 2) {
      const json* schema = element(args[0].schema);
      return {cost, schema != nullptr ? max_size(*schema) : kUnknownSize, schema};
    }
    if (f == "size") return {cost, 1, nullptr};
    return {cost, kUnknownSize, nullptr};
  }

  const json& self_;
  std::vector<std::pair<std::string, const json*>> scopes_;
};

}  // namespace

std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max()
                                                           : a + b;
}

std::uint64_t unbounded_cardinality(const json& schema, bool in_map) {
  // An array item and its comma; a map entry's "": , around its value.
  return (kMaxRequestSizeBytes - 2) / (min_json_size(schema) + (in_map ? 6 : 1));
}

std::uint64_t max_size(const json& schema) {
  if (!schema.is_object()) return kUnknownSize;
  const auto bound = [&](const char* key) -> std::optional<std::uint64_t> {
    const auto it = schema.find(key);
    if (it == schema.end() || !it->is_number_integer() || it->get<std::int64_t>() < 0) return std::nullopt;
    return it->get<std::uint64_t>();
  };
  const std::string type = schema.value("type", std::string());
  if (type == "string" || schema.value("x-kubernetes-int-or-string", false)) {
    if (const auto n = bound("maxLength")) return *n;
    if (const auto it = schema.find("enum"); it != schema.end() && it->is_array() && !it->empty()) {
      std::uint64_t longest = 0;
      for (const json& v : *it)
        longest = std::max<std::uint64_t>(longest, v.is_string() ? v.get<std::string>().size() : 0);
      return longest;
    }
    static const std::map<std::string, std::uint64_t> kFormats = {
        {"date", 10}, {"date-time", 32}, {"duration", 64}};
    if (const auto f = kFormats.find(schema.value("format", std::string())); f != kFormats.end())
      return f->second;
    return kMaxRequestSizeBytes - 2;  // its quotes
  }
  if (type == "array") {
    if (const auto n = bound("maxItems")) return *n;
    const auto items = schema.find("items");
    return unbounded_cardinality(items != schema.end() ? *items : json::object(), false);
  }
  if (type == "object") {
    if (const auto n = bound("maxProperties")) return *n;
    if (const auto a = schema.find("additionalProperties"); a != schema.end() && a->is_object()) {
      return unbounded_cardinality(*a, true);
    }
    if (const auto p = schema.find("properties"); p != schema.end() && p->is_object()) return p->size();
  }
  return kUnknownSize;
}

std::uint64_t estimate_cost(const Expr& expr, const json& schema) {
  return Estimator(schema).estimate(expr).cost;
}

std::string cost_error_message(const std::string& what, std::uint64_t cost, std::uint64_t limit) {
  const double factor = static_cast<double>(cost) / static_cast<double>(limit);
  std::string shown;
  if (factor > 100.0)
    shown = "more than 100x";
  else if (factor < 1.5)
    shown = fmt::format("{:f}x", factor);  // Go's %f: "1.200000x", never "1.0x"
  else
    shown = fmt::format("{:.1f}x", factor);
  return fmt::format(
      "{} exceeds budget by factor of {} (try simplifying the rule, or adding maxItems, maxProperties, and "
      "maxLength "
      "where arrays, maps, and strings are declared)",
      what, shown);
}

}  // namespace mkq::sandbox::cel
