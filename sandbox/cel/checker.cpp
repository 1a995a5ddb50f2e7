// Type-checking CEL expressions over a structural schema (checker.h).
#include "sandbox/cel/checker.h"

#include <algorithm>
#include <set>
#include <vector>

#include "sandbox/cel/formats.h"
#include "sandbox/cel/parser.h"

namespace mkq::sandbox::cel {
namespace {

using nlohmann::json;
using K = Type::Kind;

// ObjectMeta as CEL sees it at a resource's root: name and generateName only.
const json& root_metadata_schema() {
  static const json schema = {{"type", "object"},
                              {"properties", {{"name", {{"type", "string"}}}, {"generateName", {{"type", "string"}}}}}};
  return schema;
}

struct CheckError {
  int offset;
  std::string message;
};

bool is_dyn(const Type& t) { return t.kind == K::Dyn; }
bool is_numeric(const Type& t) { return t.kind == K::Int || t.kind == K::Uint || t.kind == K::Double; }
bool is(const Type& t, K kind) { return t.kind == kind || is_dyn(t); }

// Same type for an operator's overload; dyn matches anything, containers by kind.
bool same(const Type& a, const Type& b) {
  if (is_dyn(a) || is_dyn(b)) return true;
  if (a.kind == K::Null || b.kind == K::Null) {
    const K other = a.kind == K::Null ? b.kind : a.kind;
    return other == K::Null || other == K::Object || other == K::Map || other == K::List || other == K::Optional;
  }
  if ((a.kind == K::Object && b.kind == K::Map) || (a.kind == K::Map && b.kind == K::Object)) return true;
  return a.kind == b.kind;
}

class Checker {
 public:
  Checker(const std::string& text, const Type& self_type) : text_(text), self_(self_type) {}

  bool uses_old_self = false;

  Type check(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::Literal:
        return literal(e.value);
      case Expr::Kind::Ident:
        return ident(e);
      case Expr::Kind::Select:
        return select(e, check(*e.args[0]), false);
      case Expr::Kind::Has:
        select(e, check(*e.args[0]), true);
        return Type::of(K::Bool);
      case Expr::Kind::List: {
        std::vector<Type> items;
        for (const auto& a : e.args) items.push_back(check(*a));
        return Type::list_of(join(items));
      }
      case Expr::Kind::Map: {
        std::vector<Type> values;
        for (std::size_t i = 0; i + 1 < e.args.size(); i += 2) {
          const Type key = check(*e.args[i]);
          if (!is(key, K::String) && !is(key, K::Int) && !is(key, K::Uint) && !is(key, K::Bool)) {
            fail(e.args[i]->offset, "unsupported map key type: " + key.name());
          }
          values.push_back(check(*e.args[i + 1]));
        }
        return Type::map_of(join(values));
      }
      case Expr::Kind::Macro:
        return macro(e);
      case Expr::Kind::Call:
        return call(e);
    }
    return Type::of(K::Dyn);
  }

  [[noreturn]] void fail(int offset, const std::string& message) const { throw CheckError{offset, message}; }

 private:
  static Type literal(const Value& v) {
    switch (v.kind()) {
      case Value::Kind::Null: return Type::of(K::Null);
      case Value::Kind::Bool: return Type::of(K::Bool);
      case Value::Kind::Int: return Type::of(K::Int);
      case Value::Kind::Uint: return Type::of(K::Uint);
      case Value::Kind::Double: return Type::of(K::Double);
      case Value::Kind::String: return Type::of(K::String);
      default: return Type::of(K::Dyn);
    }
  }

  // The common type of list items (or map values): dyn when they differ.
  static Type join(const std::vector<Type>& types) {
    if (types.empty()) return Type::of(K::Dyn);
    for (const Type& t : types) {
      if (t.kind != types[0].kind) return Type::of(K::Dyn);
    }
    return types[0];
  }

  Type ident(const Expr& e) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == e.name) return it->second;
    }
    if (e.name == "self") return self_;
    if (e.name == "oldSelf") {
      uses_old_self = true;
      return self_;
    }
    fail(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
  }

  Type select(const Expr& e, const Type& operand, bool test_only) {
    switch (operand.kind) {
      case K::Dyn:
        return Type::of(K::Dyn);
      case K::Map:
        return *operand.elem;
      case K::Object: {
        if (operand.root && e.name == "metadata") return type_of_schema(root_metadata_schema(), false);
        const json* props = operand.schema != nullptr && operand.schema->contains("properties")
                                ? &(*operand.schema)["properties"]
                                : nullptr;
        if (props != nullptr && props->is_object() && props->contains(e.name)) {
          const bool embedded = (*props)[e.name].value("x-kubernetes-embedded-resource", false);
          return type_of_schema((*props)[e.name], embedded);
        }
        if (operand.root && (e.name == "apiVersion" || e.name == "kind")) return Type::of(K::String);
        fail(e.offset, "undefined field '" + e.name + "'");
      }
      default:
        break;
    }
    (void)test_only;
    fail(e.offset, "type '" + operand.name() + "' does not support field selection");
  }

  Type macro(const Expr& e) {
    const Type range = check(*e.args[0]);
    Type var = Type::of(K::Dyn);
    if (range.kind == K::List) var = *range.elem;
    else if (range.kind == K::Map || range.kind == K::Object) var = Type::of(K::String);
    else if (!is_dyn(range)) {
      fail(e.offset, "expression of type '" + range.name() + "' cannot be range of a comprehension (must be list, map, or dynamic)");
    }
    scopes_.emplace_back(e.var, var);
    Type result = Type::of(K::Bool);
    if (e.name == "map") {
      if (e.args.size() == 3) expect_bool(*e.args[1], check(*e.args[1]));
      result = Type::list_of(check(*e.args.back()));
    } else {
      expect_bool(*e.args[1], check(*e.args[1]));
      if (e.name == "filter") result = Type::list_of(var);
    }
    scopes_.pop_back();
    return result;
  }

  void expect_bool(const Expr& e, const Type& t) const {
    if (!is(t, K::Bool)) fail(e.offset, "expected type 'bool' but found '" + t.name() + "'");
  }

  [[noreturn]] void no_overload(const Expr& e, const std::vector<Type>& args) const {
    std::string rendered;
    std::size_t first = 0;
    if (e.member && !args.empty()) {
      rendered = args[0].name() + ".";
      first = 1;
    }
    rendered += "(";
    for (std::size_t i = first; i < args.size(); ++i) {
      if (i > first) rendered += ", ";
      rendered += args[i].name();
    }
    rendered += ")";
    fail(e.offset, "found no matching overload for '" + e.name + "' applied to '" + rendered + "'");
  }

  Type call(const Expr& e) {
    std::vector<Type> args;
    for (const auto& a : e.args) args.push_back(check(*a));
    const std::string& f = e.name;
    const auto arity = [&](std::size_t n) { return args.size() == n; };
    const auto bad = [&]() { no_overload(e, args); };

    if (f == "_&&_" || f == "_||_") {
      if (!is(args[0], K::Bool) || !is(args[1], K::Bool)) bad();
      return Type::of(K::Bool);
    }
    if (f == "!_") {
      if (!is(args[0], K::Bool)) bad();
      return Type::of(K::Bool);
    }
    if (f == "-_") {
      if (!is_dyn(args[0]) && args[0].kind != K::Int && args[0].kind != K::Double) bad();
      return args[0];
    }
    if (f == "_?_:_") {
      if (!is(args[0], K::Bool)) bad();
      return args[1].kind == args[2].kind ? args[1] : Type::of(K::Dyn);
    }
    if (f == "_==_" || f == "_!=_") {
      if (!same(args[0], args[1])) bad();
      return Type::of(K::Bool);
    }
    if (f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") {
      const bool ok = is_dyn(args[0]) || is_dyn(args[1]) || (is_numeric(args[0]) && is_numeric(args[1])) ||
                      (args[0].kind == args[1].kind && (args[0].kind == K::String || args[0].kind == K::Bool));
      if (!ok) bad();
      return Type::of(K::Bool);
    }
    if (f == "_+_") {
      if (is_dyn(args[0]) || is_dyn(args[1])) return is_dyn(args[0]) ? args[1] : args[0];
      if (args[0].kind != args[1].kind) bad();
      if (!is_numeric(args[0]) && args[0].kind != K::String && args[0].kind != K::List) bad();
      return args[0];
    }
    if (f == "_-_" || f == "_*_" || f == "_/_" || f == "_%_") {
      if (is_dyn(args[0]) || is_dyn(args[1])) return is_dyn(args[0]) ? args[1] : args[0];
      if (args[0].kind != args[1].kind || !is_numeric(args[0])) bad();
      if (f == "_%_" && args[0].kind == K::Double) bad();
      return args[0];
    }
    if (f == "@in") {
      if (args[1].kind == K::List) {
        if (!same(args[0], *args[1].elem)) bad();
      } else if (args[1].kind == K::Map || args[1].kind == K::Object) {
        if (!is(args[0], K::String) && args[1].kind == K::Object) bad();
      } else if (!is_dyn(args[1])) {
        bad();
      }
      return Type::of(K::Bool);
    }
    if (f == "_[_]") {
      if (args[0].kind == K::List) {
        if (!is(args[1], K::Int) && args[1].kind != K::Uint) bad();
        return *args[0].elem;
      }
      if (args[0].kind == K::Map) return *args[0].elem;
      if (is_dyn(args[0])) return Type::of(K::Dyn);
      bad();
    }
    if (f == "size") {
      const Type& target = args.empty() ? Type::of(K::Null) : args[0];
      if (!arity(1)) bad();
      if (!is_dyn(target) && target.kind != K::String && target.kind != K::List && target.kind != K::Map &&
          target.kind != K::Object) {
        bad();
      }
      return Type::of(K::Int);
    }
    return library(e, args);
  }

  // Functions beyond the operators: strings, conversions, optionals, formats.
  Type library(const Expr& e, const std::vector<Type>& args) {
    const std::string& f = e.name;
    const auto bad = [&]() { no_overload(e, args); };
    const auto strings = [&](std::size_t n) {
      if (args.size() != n) bad();
      for (const Type& t : args) {
        if (!is(t, K::String)) bad();
      }
    };
    if (f == "contains" || f == "startsWith" || f == "endsWith" || f == "matches") {
      strings(2);
      return Type::of(K::Bool);
    }
    if (e.member && (f == "lowerAscii" || f == "upperAscii" || f == "trim")) {
      strings(1);
      return Type::of(K::String);
    }
    if (e.member && (f == "indexOf" || f == "lastIndexOf")) {
      strings(2);
      return Type::of(K::Int);
    }
    if (e.member && f == "split") {
      strings(2);
      return Type::list_of(Type::of(K::String));
    }
    if (e.member && f == "join") {
      if (args.empty() || args.size() > 2) bad();
      if (args[0].kind != K::List && !is_dyn(args[0])) bad();
      if (args.size() == 2 && !is(args[1], K::String)) bad();
      return Type::of(K::String);
    }
    if (!e.member && (f == "int" || f == "uint" || f == "double" || f == "string" || f == "bool")) {
      if (args.size() != 1) bad();
      const K to = f == "int" ? K::Int : f == "uint" ? K::Uint : f == "double" ? K::Double : f == "bool" ? K::Bool : K::String;
      return Type::of(to);
    }
    if (!e.member && f.rfind("format.", 0) == 0) {
      if (!args.empty() || !is_named_format(f.substr(7))) {
        fail(e.offset, "undeclared reference to '" + f + "' (in container '')");
      }
      return Type::of(K::Format);
    }
    if (e.member && f == "validate") {
      if (args.size() != 2 || args[0].kind != K::Format || !is(args[1], K::String)) bad();
      return Type::optional_of(Type::list_of(Type::of(K::String)));
    }
    if (!e.member && f == "optional.none" && args.empty()) return Type::optional_of(Type::of(K::Dyn));
    if (!e.member && f == "optional.of" && args.size() == 1) return Type::optional_of(args[0]);
    if (e.member && (f == "hasValue" || f == "value" || f == "orValue")) {
      if (args.empty() || (args[0].kind != K::Optional && !is_dyn(args[0]))) bad();
      const Type inner = args[0].kind == K::Optional ? *args[0].elem : Type::of(K::Dyn);
      if (f == "hasValue" && args.size() == 1) return Type::of(K::Bool);
      if (f == "value" && args.size() == 1) return inner;
      if (f == "orValue" && args.size() == 2) return inner;
      bad();
    }
    static const std::set<std::string> kKnown = {"contains", "startsWith", "endsWith", "matches", "lowerAscii",
                                                 "upperAscii", "trim", "indexOf", "lastIndexOf", "split", "join",
                                                 "validate", "hasValue", "value", "orValue"};
    if (kKnown.count(f) != 0) bad();
    fail(e.offset, "undeclared reference to '" + f + "' (in container '')");
  }

  const std::string& text_;
  Type self_;
  std::vector<std::pair<std::string, Type>> scopes_;
};

}  // namespace

Type Type::list_of(Type item) { return Type{K::List, nullptr, false, std::make_shared<const Type>(std::move(item))}; }
Type Type::map_of(Type value) { return Type{K::Map, nullptr, false, std::make_shared<const Type>(std::move(value))}; }
Type Type::optional_of(Type inner) {
  return Type{K::Optional, nullptr, false, std::make_shared<const Type>(std::move(inner))};
}

std::string Type::name() const {
  switch (kind) {
    case K::Dyn: return "dyn";
    case K::Null: return "null_type";
    case K::Bool: return "bool";
    case K::Int: return "int";
    case K::Uint: return "uint";
    case K::Double: return "double";
    case K::String: return "string";
    case K::List: return "list(" + elem->name() + ")";
    case K::Map: return "map(string, " + elem->name() + ")";
    case K::Object: return "object";
    case K::Optional: return "optional_type(" + elem->name() + ")";
    case K::Format: return "kubernetes.NamedFormat";
  }
  return "dyn";
}

Type type_of_schema(const json& schema, bool root) {
  if (!schema.is_object() || schema.value("x-kubernetes-int-or-string", false)) return Type::of(K::Dyn);
  const std::string type = schema.value("type", std::string());
  if (type == "boolean") return Type::of(K::Bool);
  if (type == "integer") return Type::of(K::Int);
  if (type == "number") return Type::of(K::Double);
  if (type == "string") return Type::of(K::String);
  if (type == "array") {
    return Type::list_of(schema.contains("items") ? type_of_schema(schema["items"], false) : Type::of(K::Dyn));
  }
  const bool embedded = root || schema.value("x-kubernetes-embedded-resource", false);
  if (type == "object" || embedded) {
    if (schema.contains("properties") || embedded) return Type{K::Object, &schema, embedded, nullptr};
    if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
      return Type::map_of(type_of_schema(schema["additionalProperties"], false));
    }
    if (schema.value("x-kubernetes-preserve-unknown-fields", false)) return Type::of(K::Dyn);
    return Type{K::Object, &schema, false, nullptr};
  }
  return Type::of(K::Dyn);
}

base::Result<Type> check(const Expr& expr, const std::string& text, const Type& self_type, bool* uses_old_self) {
  Checker checker(text, self_type);
  try {
    Type t = checker.check(expr);
    *uses_old_self = checker.uses_old_self;
    return t;
  } catch (const CheckError& e) {
    return base::Error(0, "CheckError", located_error(text, e.offset, e.message));
  }
}

}  // namespace mkq::sandbox::cel
