// Expressions: literals, strings with interpolation, lists, maps,
// comprehensions, field access, indexing, calls and every operator, with the
// type rules of docs/language.md. Numbers are exact (sema::Quantity).
#include <algorithm>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate_internal.h"
#include "compiler/syntax/parse.h"

namespace mkq::sema::detail {

// A string literal the lexer lets through (E1019) is never too long a string.
static_assert(syntax::kMaxTokenBytes <= kMaxTextBytes);

using diag::SourceRange;
using syntax::BinaryOp;

// ------------------------------------------------------------------ helpers


const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = {"join",   "keys",   "len",    "lower", "max",  "min",
                                                 "range",  "secret", "string", "sum",   "upper", "values"};
  return names;
}

bool is_builtin(const std::string& name) {
  const auto& names = builtin_names();
  return std::binary_search(names.begin(), names.end(), name);
}

Value template_value(const TemplateInfo& info, const std::string& name, SourceRange at) {
  Value v;
  v.kind = ValueKind::Template;
  v.data = TemplateRef{&info, name};
  v.origin = at;
  return v;
}

Value module_value(const Module& module, SourceRange at) {
  Value v;
  v.kind = ValueKind::Module;
  v.data = ModuleRef{&module, module.display};
  v.origin = at;
  return v;
}

Value builtin_value(const std::string& name, SourceRange at) {
  Value v;
  v.kind = ValueKind::Builtin;
  v.data = BuiltinRef{name};
  v.origin = at;
  return v;
}

const Value* find_nested(const Value& value, bool (*pred)(const Value&)) {
  // A scalar (most attribute values) needs no walk and no allocation.
  if (!value.is(ValueKind::List) && !value.is(ValueKind::Map)) return pred(value) ? &value : nullptr;
  // Iterative, and each shared list or map is visited once: values share
  // storage, so a naive walk could take exponential time.
  std::vector<const Value*> pending{&value};
  std::vector<const void*> visited;
  while (!pending.empty()) {
    const Value* v = pending.back();
    pending.pop_back();
    if (pred(*v)) return v;
    if (!v->is(ValueKind::List) && !v->is(ValueKind::Map)) continue;
    const void* storage = v->is(ValueKind::List) ? static_cast<const void*>(&v->as_list())
                                                 : static_cast<const void*>(&v->as_map());
    if (std::find(visited.begin(), visited.end(), storage) != visited.end()) continue;
    visited.push_back(storage);
    if (v->is(ValueKind::List)) {
      for (const auto& item : v->as_list()) pending.push_back(&item);
    } else {
      for (const auto& [key, item] : v->as_map()) pending.push_back(&item);
    }
  }
  return nullptr;
}

bool is_identifier(const std::string& text) {
  if (text.empty()) return false;
  const auto ident_start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!ident_start(text[0])) return false;
  return std::all_of(text.begin(), text.end(), [&](char c) { return ident_start(c) || (c >= '0' && c <= '9'); });
}

bool is_hard_keyword(const std::string& text) {
  static const std::vector<std::string> keywords = {"all", "as",  "assert", "else", "false", "for",   "if",
                                                    "import", "in", "let", "null", "template", "true", "use"};
  return std::find(keywords.begin(), keywords.end(), text) != keywords.end();
}

namespace {

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

const void* storage_of(const Value& v) {
  if (v.is(ValueKind::List)) return &v.as_list();
  if (v.is(ValueKind::Map)) return &v.as_map();
  return nullptr;
}

std::shared_ptr<const void> owner_of(const Value& v) {
  if (v.is(ValueKind::List)) return std::get<std::shared_ptr<const List>>(v.data);
  if (v.is(ValueKind::Map)) return std::get<std::shared_ptr<const Map>>(v.data);
  return nullptr;
}


}  // namespace

// ------------------------------------------------------------------ bounded values

Evaluator::Shape Evaluator::shape_of(const Value& value) const {
  if (const void* storage = storage_of(value)) {
    auto found = shapes_.find(storage);
    if (found != shapes_.end() && !found->second.owner.expired()) return found->second.shape;
    // Not built by this evaluator (cannot happen for policy values): count its top level only.
    Shape shape;
    shape.depth = 1;
    shape.elements = 1 + (value.is(ValueKind::List) ? value.as_list().size() : value.as_map().size());
    shape.bytes = 64 * shape.elements;
    return shape;
  }
  Shape shape;
  shape.bytes = value.is(ValueKind::String) ? value.as_string().size() + 2 : 48;
  return shape;
}

std::optional<Value> Evaluator::admit(Value value, Shape shape, SourceRange at) {
  if (shape.depth > kMaxValueDepth) {
    diags_.error(
        eval_codes::kTooLarge, at,
        fmt::format("value is nested too deeply (more than {} levels of lists and maps)", kMaxValueDepth));
    return std::nullopt;
  }
  if (shape.elements > kMaxValueElements) {
    diags_.error(eval_codes::kTooLarge, at,
                 fmt::format("value is too large (more than {} elements, counting every nested one)",
                             kMaxValueElements));
    return std::nullopt;
  }
  if (shapes_.size() > 2 * shapes_pruned_at_ + 1024) {
    std::erase_if(shapes_, [](const auto& entry) { return entry.second.owner.expired(); });
    shapes_pruned_at_ = shapes_.size();
  }
  shapes_.insert_or_assign(storage_of(value), ShapeEntry{owner_of(value), shape});
  return value;
}

std::optional<Value> Evaluator::make_list(List items, SourceRange at) {
  Shape shape;
  shape.depth = 1;
  shape.bytes = 2;
  for (const auto& item : items) {
    const Shape s = shape_of(item);
    shape.depth = std::max(shape.depth, s.depth + 1);
    shape.elements = saturating_add(shape.elements, s.elements);
    shape.bytes = saturating_add(shape.bytes, saturating_add(s.bytes, 2));
  }
  return admit(Value::list(std::move(items), at), shape, at);
}

std::optional<Value> Evaluator::make_map(Map entries, SourceRange at) {
  Shape shape;
  shape.depth = 1;
  shape.bytes = 2;
  for (const auto& [key, item] : entries) {
    const Shape s = shape_of(item);
    shape.depth = std::max(shape.depth, s.depth + 1);
    shape.elements = saturating_add(shape.elements, s.elements);
    shape.bytes = saturating_add(shape.bytes, saturating_add(s.bytes, key.size() + 6));
  }
  return admit(Value::map(std::move(entries), at), shape, at);
}

std::optional<Value> Evaluator::make_string(std::string text, SourceRange at) {
  if (text.size() > kMaxTextBytes) {
    diags_.error(eval_codes::kTooLarge, at,
                 fmt::format("string is too long (more than {} bytes)", kMaxTextBytes));
    return std::nullopt;
  }
  return Value::string(std::move(text), at);
}

std::optional<std::string> Evaluator::printable(const Value& value, SourceRange at) {
  if (reject_secret(value, at, true)) return std::nullopt;
  if (reject_non_value(value, at, "cannot print")) return std::nullopt;
  if (value.is(ValueKind::String)) return value.as_string();
  if (shape_of(value).bytes > kMaxTextBytes) {
    diags_.error(eval_codes::kTooLarge, at,
                 fmt::format("value is too large to print (more than {} bytes)", kMaxTextBytes));
    return std::nullopt;
  }
  return to_display(value);
}

// ------------------------------------------------------------------ dispatch

std::optional<Value> Evaluator::eval(const syntax::Expr& expr, const Env& env) {
  if (watch_ != nullptr && &expr == watch_->expr) [[unlikely]] return eval_watched(expr, env);
  Depth depth(*this, expr.range);
  if (!depth.ok()) return std::nullopt;
  switch (expr.kind) {
    case syntax::ExprKind::Number:
      return eval_number(static_cast<const syntax::NumberExpr&>(expr));
    case syntax::ExprKind::Duration:
      return eval_duration(static_cast<const syntax::DurationExpr&>(expr));
    case syntax::ExprKind::String:
      return eval_string(static_cast<const syntax::StringExpr&>(expr), env);
    case syntax::ExprKind::Bool:
      return Value::boolean(static_cast<const syntax::BoolExpr&>(expr).value, expr.range);
    case syntax::ExprKind::Null:
      return Value::null(expr.range);
    case syntax::ExprKind::All:
      return Value::all(expr.range);
    case syntax::ExprKind::Name:
      return lookup(static_cast<const syntax::NameExpr&>(expr).name, expr.range, env);
    case syntax::ExprKind::List:
      return eval_list(static_cast<const syntax::ListExpr&>(expr), env);
    case syntax::ExprKind::Map:
      return eval_map(static_cast<const syntax::MapExpr&>(expr), env);
    case syntax::ExprKind::Comprehension:
      return eval_comprehension(static_cast<const syntax::ComprehensionExpr&>(expr), env);
    case syntax::ExprKind::Field:
      return eval_field(static_cast<const syntax::FieldExpr&>(expr), env);
    case syntax::ExprKind::Index:
      return eval_index(static_cast<const syntax::IndexExpr&>(expr), env);
    case syntax::ExprKind::Call:
      return eval_call(static_cast<const syntax::CallExpr&>(expr), env);
    case syntax::ExprKind::Unary:
      return eval_unary(static_cast<const syntax::UnaryExpr&>(expr), env);
    case syntax::ExprKind::Binary:
      return eval_binary(static_cast<const syntax::BinaryExpr&>(expr), env);
    case syntax::ExprKind::Conditional:
      return eval_conditional(static_cast<const syntax::ConditionalExpr&>(expr), env);
    case syntax::ExprKind::Paren: {
      const auto& paren = static_cast<const syntax::ParenExpr&>(expr);
      if (!paren.inner) return std::nullopt;
      return eval(*paren.inner, env);
    }
    case syntax::ExprKind::Error:
      return std::nullopt;  // reported by the parser
  }
  return std::nullopt;
}

// Evaluates the watched expression (which cannot contain itself) and records its value.
std::optional<Value> Evaluator::eval_watched(const syntax::Expr& expr, const Env& env) {
  Watch* const watch = std::exchange(watch_, nullptr);
  std::optional<Value> value = eval(expr, env);
  watch_ = watch;
  if (value && watch->values.size() < watch->limit) watch->values.push_back(*value);
  return value;
}

// ------------------------------------------------------------------ literals

std::optional<Value> Evaluator::eval_number(const syntax::NumberExpr& expr) {
  QuantityError error = QuantityError::None;
  auto quantity = Quantity::parse(expr.text, &error);
  if (quantity) return Value::number(*quantity, expr.range);
  switch (error) {
    case QuantityError::Overflow:
      diags_.error(eval_codes::kBadNumber, expr.range, "number '" + expr.text + "' is too large");
      break;
    case QuantityError::TooPrecise:
      diags_.error(eval_codes::kBadNumber, expr.range,
                   "number '" + expr.text + "' is too precise: quantities are exact to 1n (10^-9)");
      break;
    default:
      diags_.error(eval_codes::kBadNumber, expr.range, "invalid number '" + expr.text + "'");
      break;
  }
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_duration(const syntax::DurationExpr& expr) {
  auto duration = Duration::parse(expr.text);
  if (duration) return Value::duration(*duration, expr.range);
  diags_.error(eval_codes::kBadNumber, expr.range, "duration '" + expr.text + "' is too large");
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_string(const syntax::StringExpr& expr, const Env& env) {
  std::string text = expr.literal;
  bool ok = true;
  for (const auto& part : expr.parts) {
    if (!part.expr) {
      text += part.literal;
      continue;
    }
    auto value = eval(*part.expr, env);
    if (!value) {
      ok = false;
      continue;
    }
    auto piece = printable(*value, part.expr->range);
    if (!piece) {
      ok = false;
      continue;
    }
    text += *piece;
    if (text.size() > kMaxTextBytes) break;
  }
  if (!ok) return std::nullopt;
  return make_string(std::move(text), expr.range);
}

std::optional<Value> Evaluator::eval_list(const syntax::ListExpr& expr, const Env& env) {
  List items;
  items.reserve(expr.items.size());  // one allocation: growing by doubling holds both arrays at once
  bool ok = true;
  for (const auto& item : expr.items) {
    auto value = eval(*item, env);
    if (value) {
      items.push_back(std::move(*value));
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return make_list(std::move(items), expr.range);
}

std::optional<Value> Evaluator::eval_map(const syntax::MapExpr& expr, const Env& env) {
  Map entries;
  std::map<std::string, SourceRange> first_key;
  bool ok = true;
  for (const auto& entry : expr.entries) {
    auto value = eval(*entry.value, env);
    auto [it, inserted] = first_key.emplace(entry.key, entry.key_range);
    if (!inserted) {
      auto& d = diags_.error(eval_codes::kDuplicateKey, entry.key_range, "duplicate key '" + entry.key + "' in map");
      d.notes.push_back({"'" + entry.key + "' is first given here", it->second});
      ok = false;
      continue;
    }
    if (value) {
      value->key_origin = entry.key_range;
      entries.emplace(entry.key, std::move(*value));
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return make_map(std::move(entries), expr.range);
}

std::optional<std::vector<std::pair<Value, Value>>> Evaluator::iteration(const Value& iterable, SourceRange at) {
  std::vector<std::pair<Value, Value>> items;
  if (iterable.is(ValueKind::List)) {
    const auto& list = iterable.as_list();
    for (std::size_t i = 0; i < list.size(); ++i) {
      items.emplace_back(Value::number(Quantity::from_int(static_cast<std::int64_t>(i)), at), list[i]);
    }
    return items;
  }
  if (iterable.is(ValueKind::Map)) {
    for (const auto& [key, value] : iterable.as_map()) items.emplace_back(Value::string(key, at), value);
    return items;
  }
  if (iterable.is(ValueKind::Secret)) {
    secret_error(at, false);
    return std::nullopt;
  }
  auto& d = diags_.error(eval_codes::kNotIterable, at, "cannot iterate over " + described(iterable.kind));
  if (iterable.is(ValueKind::Number)) {
    d.suggestions.push_back({"to count, iterate over range(n)", std::nullopt, ""});
  }
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_comprehension(const syntax::ComprehensionExpr& expr, const Env& env) {
  auto iterable = eval(*expr.iterable, env);
  if (!iterable) return std::nullopt;
  auto items = iteration(*iterable, expr.iterable->range);
  if (!items) return std::nullopt;
  if (expr.second_var && expr.second_var->name == expr.var.name) {
    auto& d = diags_.error(eval_codes::kDuplicateName, expr.second_var->range,
                           "'" + expr.var.name + "' is already defined in this scope");
    d.notes.push_back({"'" + expr.var.name + "' is first defined here", expr.var.range});
    return std::nullopt;
  }
  const bool over_list = iterable->is(ValueKind::List);
  List result;
  for (auto& [first, second] : *items) {
    if (!charge(1, expr.range)) return std::nullopt;
    Scope scope;
    scope.parent = env.scope;
    if (expr.second_var) {
      scope.names.emplace(expr.var.name, Scope::Binding{first, expr.var.range});
      scope.names.emplace(expr.second_var->name, Scope::Binding{second, expr.second_var->range});
    } else {
      scope.names.emplace(expr.var.name, Scope::Binding{over_list ? second : first, expr.var.range});
    }
    const Env inner{env.module, &scope};
    if (expr.condition) {
      const auto keep = eval_condition(*expr.condition, inner);
      if (!keep) return std::nullopt;  // the same mistake for every element: report it once
      if (!*keep) continue;
    }
    auto element = eval(*expr.element, inner);
    if (!element) return std::nullopt;
    result.push_back(std::move(*element));
  }
  return make_list(std::move(result), expr.range);
}

// ------------------------------------------------------------------ access

std::optional<Value> Evaluator::eval_field(const syntax::FieldExpr& expr, const Env& env) {
  auto object = eval(*expr.object, env);
  if (!object) return std::nullopt;
  return field_of(*object, expr.field, expr.field.range);
}

std::optional<Value> Evaluator::field_of(const Value& object, const syntax::Identifier& field, SourceRange at) {
  if (object.is(ValueKind::Module)) {
    const auto* module = static_cast<const Module*>(std::get<ModuleRef>(object.data).module);
    return module_export(*module, field.name, at);
  }
  if (object.is(ValueKind::Map)) {
    const auto& map = object.as_map();
    auto found = map.find(field.name);
    if (found != map.end()) return found->second;
    std::vector<std::string> keys;
    for (const auto& [key, value] : map) keys.push_back(key);
    auto& d = diags_.error(eval_codes::kNoSuchField, at, "the map has no key '" + field.name + "'");
    diag::suggest_closest(d, field.name, keys);
    return std::nullopt;
  }
  if (object.is(ValueKind::Secret)) {
    secret_error(at, false);
    return std::nullopt;
  }
  diags_.error(eval_codes::kNoSuchField, at, "cannot access field '" + field.name + "' of " + described(object.kind));
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_index(const syntax::IndexExpr& expr, const Env& env) {
  auto object = eval(*expr.object, env);
  auto index = eval(*expr.index, env);
  if (!object || !index) return std::nullopt;
  return index_into(expr, *object, *index);
}

std::optional<Value> Evaluator::index_into(const syntax::IndexExpr& expr, const Value& object_value,
                                           const Value& index_value) {
  const Value* object = &object_value;
  const Value* index = &index_value;
  const SourceRange at = expr.index->range;
  if (object->is(ValueKind::Secret) || index->is(ValueKind::Secret)) {
    secret_error(object->is(ValueKind::Secret) ? expr.object->range : at, false);
    return std::nullopt;
  }
  if (object->is(ValueKind::List)) {
    const auto& list = object->as_list();
    if (!index->is(ValueKind::Number) || !index->as_number().is_integer()) {
      diags_.error(eval_codes::kBadIndex, at,
                   "a list index must be a whole number, not " +
                       (index->is(ValueKind::Number) ? to_display(*index) : described(index->kind)));
      return std::nullopt;
    }
    const auto i = index->as_number().to_int64();
    if (!i || *i < 0 || static_cast<std::uint64_t>(*i) >= list.size()) {
      diags_.error(eval_codes::kBadIndex, at,
                   fmt::format("index {} is out of range for a list of {} element{}", to_display(*index),
                               list.size(), list.size() == 1 ? "" : "s"));
      return std::nullopt;
    }
    return list[static_cast<std::size_t>(*i)];
  }
  if (object->is(ValueKind::Map)) {
    if (!index->is(ValueKind::String)) {
      diags_.error(eval_codes::kBadIndex, at, "a map key must be a string, not " + described(index->kind));
      return std::nullopt;
    }
    const auto& map = object->as_map();
    auto found = map.find(index->as_string());
    if (found != map.end()) return found->second;
    std::vector<std::string> keys;
    for (const auto& [key, value] : map) keys.push_back(key);
    auto& d = diags_.error(eval_codes::kBadIndex, at, "the map has no key '" + index->as_string() + "'");
    diag::suggest_closest(d, index->as_string(), keys);
    return std::nullopt;
  }
  diags_.error(eval_codes::kBadIndex, expr.object->range, "cannot index " + described(object->kind));
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_call(const syntax::CallExpr& expr, const Env& env) {
  auto callee = eval(*expr.callee, env);
  if (!callee) return std::nullopt;
  if (callee->is(ValueKind::Builtin)) {
    const std::string& name = std::get<BuiltinRef>(callee->data).name;
    std::vector<Argument> args;
    bool ok = true;
    for (const auto& arg : expr.args) {
      auto value = eval(*arg.value, env);
      if (arg.name) {
        diags_.error(eval_codes::kBadArguments, arg.name->range, name + "() takes no named arguments");
        ok = false;
      }
      if (!value) {
        ok = false;
        continue;
      }
      args.push_back({std::move(*value), arg.value->range});
    }
    if (!ok) return std::nullopt;
    return call_builtin(name, expr, args);
  }
  if (callee->is(ValueKind::Template)) {
    const auto& name = std::get<TemplateRef>(callee->data).name;
    diags_.error(eval_codes::kNotCallable, expr.callee->range,
                 "'" + name + "' is a template: expand it with 'use " + name + "(...)'");
    return std::nullopt;
  }
  diags_.error(eval_codes::kNotCallable, expr.callee->range, "cannot call " + described(callee->kind));
  return std::nullopt;
}

// ------------------------------------------------------------------ operators

std::optional<bool> Evaluator::eval_condition(const syntax::Expr& expr, const Env& env) {
  auto value = eval(expr, env);
  if (!value) return std::nullopt;
  if (value->is(ValueKind::Bool)) return value->as_bool();
  diags_.error(eval_codes::kNotABool, expr.range, "the condition must be a bool, not " + described(value->kind));
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_unary(const syntax::UnaryExpr& expr, const Env& env) {
  auto operand = eval(*expr.operand, env);
  if (!operand) return std::nullopt;
  if (operand->is(ValueKind::Secret)) {
    secret_error(expr.operand->range, false);
    return std::nullopt;
  }
  if (expr.op == syntax::UnaryOp::Not) {
    if (operand->is(ValueKind::Bool)) return Value::boolean(!operand->as_bool(), expr.range);
    diags_.error(eval_codes::kNotABool, expr.operand->range, "operator '!' needs a bool, not " + described(operand->kind));
    return std::nullopt;
  }
  if (operand->is(ValueKind::Number)) return Value::number(operand->as_number().negated(), expr.range);
  diags_.error(eval_codes::kTypeMismatch, expr.range, "cannot negate " + described(operand->kind));
  return std::nullopt;
}

std::optional<Value> Evaluator::eval_conditional(const syntax::ConditionalExpr& expr, const Env& env) {
  const auto condition = eval_condition(*expr.condition, env);
  if (!condition) return std::nullopt;
  return eval(*condition ? *expr.then_value : *expr.else_value, env);
}

std::optional<Value> Evaluator::eval_logical(const syntax::BinaryExpr& expr, const Env& env) {
  const bool is_and = expr.op == BinaryOp::And;
  const std::string message = std::string("operator '") + syntax::spelling(expr.op) + "' needs a bool, not ";
  auto left = eval(*expr.left, env);
  if (!left) return std::nullopt;
  if (!left->is(ValueKind::Bool)) {
    diags_.error(eval_codes::kNotABool, expr.left->range, message + described(left->kind));
    return std::nullopt;
  }
  // Short-circuit: the right side is not evaluated when the left decides.
  if (left->as_bool() != is_and) return Value::boolean(!is_and, expr.range);
  auto right = eval(*expr.right, env);
  if (!right) return std::nullopt;
  if (!right->is(ValueKind::Bool)) {
    diags_.error(eval_codes::kNotABool, expr.right->range, message + described(right->kind));
    return std::nullopt;
  }
  return Value::boolean(right->as_bool(), expr.range);
}

std::optional<Value> Evaluator::eval_binary(const syntax::BinaryExpr& expr, const Env& env) {
  if (expr.op == BinaryOp::And || expr.op == BinaryOp::Or) return eval_logical(expr, env);
  auto left = eval(*expr.left, env);
  auto right = eval(*expr.right, env);
  if (!left || !right) return std::nullopt;
  switch (expr.op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod:
      return arithmetic(expr, *left, *right);
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      return compare(expr, *left, *right);
    case BinaryOp::Eq:
    case BinaryOp::Ne: {
      if (reject_secret(*left, expr.left->range, false) || reject_secret(*right, expr.right->range, false)) {
        return std::nullopt;
      }
      const bool same = equal(*left, *right);
      return Value::boolean(expr.op == BinaryOp::Eq ? same : !same, expr.range);
    }
    case BinaryOp::In:
      return membership(expr, *left, *right);
    case BinaryOp::And:
    case BinaryOp::Or:
      break;
  }
  return std::nullopt;
}

std::optional<Value> Evaluator::arithmetic(const syntax::BinaryExpr& expr, const Value& l, const Value& r) {
  const BinaryOp op = expr.op;
  const SourceRange at = expr.op_range;
  if (l.is(ValueKind::Secret) || r.is(ValueKind::Secret)) {
    secret_error(l.is(ValueKind::Secret) ? expr.left->range : expr.right->range, op == BinaryOp::Add);
    return std::nullopt;
  }
  const std::string written = [&] {
    auto show = [](const Value& v) {
      return v.is(ValueKind::Number) || v.is(ValueKind::Duration) ? to_display(v) : std::string("...");
    };
    return show(l) + " " + syntax::spelling(op) + " " + show(r);
  }();

  // Numbers.
  if (l.is(ValueKind::Number) && r.is(ValueKind::Number)) {
    QuantityError error = QuantityError::None;
    std::optional<Quantity> result;
    switch (op) {
      case BinaryOp::Add: result = Quantity::add(l.as_number(), r.as_number(), &error); break;
      case BinaryOp::Sub: result = Quantity::subtract(l.as_number(), r.as_number(), &error); break;
      case BinaryOp::Mul: result = Quantity::multiply(l.as_number(), r.as_number(), &error); break;
      case BinaryOp::Div: result = Quantity::divide(l.as_number(), r.as_number(), &error); break;
      case BinaryOp::Mod: result = Quantity::modulo(l.as_number(), r.as_number(), &error); break;
      default: break;
    }
    if (result) return Value::number(*result, expr.range);
    switch (error) {
      case QuantityError::DivisionByZero:
        diags_.error(eval_codes::kArithmetic, at, "division by zero");
        break;
      case QuantityError::Inexact:
        if (op == BinaryOp::Mod) {
          diags_.error(eval_codes::kArithmetic, at, "'%' needs whole numbers: " + written);
        } else {
          diags_.error(eval_codes::kArithmetic, at, written + " does not divide exactly (numbers are exact to 1n)");
        }
        break;
      case QuantityError::TooPrecise:
        diags_.error(eval_codes::kArithmetic, at, "the result of " + written + " is too precise (numbers are exact to 1n)");
        break;
      default:
        diags_.error(eval_codes::kArithmetic, at, "the result of " + written + " is too large");
        break;
    }
    return std::nullopt;
  }

  // Durations: the result must be a whole, non-negative number of milliseconds.
  const bool ld = l.is(ValueKind::Duration);
  const bool rd = r.is(ValueKind::Duration);
  const bool ln = l.is(ValueKind::Number);
  const bool rn = r.is(ValueKind::Number);
  auto duration_result = [&](std::optional<Quantity> millis, QuantityError error) -> std::optional<Value> {
    if (!millis) {
      if (error == QuantityError::DivisionByZero) {
        diags_.error(eval_codes::kArithmetic, at, "division by zero");
      } else if (error == QuantityError::Inexact || error == QuantityError::TooPrecise) {
        diags_.error(eval_codes::kDurationArithmetic, at, "the result of " + written + " is not a whole number of milliseconds");
      } else {
        diags_.error(eval_codes::kDurationArithmetic, at, "the result of " + written + " is too large for a duration");
      }
      return std::nullopt;
    }
    if (!millis->is_integer()) {
      diags_.error(eval_codes::kDurationArithmetic, at, "the result of " + written + " is not a whole number of milliseconds");
      return std::nullopt;
    }
    const auto ms = millis->to_int64();
    if (!ms || *ms > Duration::kMaxMillis) {
      diags_.error(eval_codes::kDurationArithmetic, at, "the result of " + written + " is too large for a duration");
      return std::nullopt;
    }
    if (*ms < 0) {
      diags_.error(eval_codes::kDurationArithmetic, at, "the result of " + written + " is a negative duration");
      return std::nullopt;
    }
    return Value::duration(Duration::from_millis(*ms), expr.range);
  };
  auto millis = [](const Value& v) { return Quantity::from_int(v.as_duration().millis()); };
  QuantityError error = QuantityError::None;
  if (ld && rd && (op == BinaryOp::Add || op == BinaryOp::Sub)) {
    auto result = op == BinaryOp::Add ? Quantity::add(millis(l), millis(r), &error)
                                      : Quantity::subtract(millis(l), millis(r), &error);
    return duration_result(result, error);
  }
  if (op == BinaryOp::Mul && ((ld && rn) || (ln && rd))) {
    const auto result = ld ? Quantity::multiply(millis(l), r.as_number(), &error)
                           : Quantity::multiply(l.as_number(), millis(r), &error);
    return duration_result(result, error);
  }
  if (op == BinaryOp::Div && ld && rn) {
    const auto result = Quantity::divide(millis(l), r.as_number(), &error);
    return duration_result(result, error);
  }
  if (op == BinaryOp::Div && ld && rd) {
    // The ratio of two durations is a number.
    auto result = Quantity::divide(millis(l), millis(r), &error);
    if (result) return Value::number(*result, expr.range);
    if (error == QuantityError::DivisionByZero) {
      diags_.error(eval_codes::kArithmetic, at, "division by zero");
    } else {
      diags_.error(eval_codes::kArithmetic, at, written + " does not divide exactly (numbers are exact to 1n)");
    }
    return std::nullopt;
  }

  // Strings, lists, maps.
  if (op == BinaryOp::Add) {
    if (l.is(ValueKind::String) && r.is(ValueKind::String)) return make_string(l.as_string() + r.as_string(), expr.range);
    if (l.is(ValueKind::List) && r.is(ValueKind::List)) {
      List items = l.as_list();
      items.insert(items.end(), r.as_list().begin(), r.as_list().end());
      return make_list(std::move(items), expr.range);
    }
    if (l.is(ValueKind::Map) && r.is(ValueKind::Map)) {
      Map entries = l.as_map();
      for (const auto& [key, value] : r.as_map()) entries.insert_or_assign(key, value);  // the right side wins
      return make_map(std::move(entries), expr.range);
    }
  }

  std::string message;
  switch (op) {
    case BinaryOp::Add: message = "cannot add " + described(l.kind) + " and " + described(r.kind); break;
    case BinaryOp::Sub: message = "cannot subtract " + described(r.kind) + " from " + described(l.kind); break;
    case BinaryOp::Mul: message = "cannot multiply " + described(l.kind) + " by " + described(r.kind); break;
    case BinaryOp::Div: message = "cannot divide " + described(l.kind) + " by " + described(r.kind); break;
    default: message = "cannot take the remainder of " + described(l.kind) + " divided by " + described(r.kind); break;
  }
  diags_.error(eval_codes::kTypeMismatch, at, message);
  return std::nullopt;
}

std::optional<Value> Evaluator::compare(const syntax::BinaryExpr& expr, const Value& l, const Value& r) {
  if (l.is(ValueKind::Secret) || r.is(ValueKind::Secret)) {
    secret_error(l.is(ValueKind::Secret) ? expr.left->range : expr.right->range, false);
    return std::nullopt;
  }
  int order = 0;
  if (l.is(ValueKind::Number) && r.is(ValueKind::Number)) {
    order = l.as_number().compare(r.as_number());
  } else if (l.is(ValueKind::Duration) && r.is(ValueKind::Duration)) {
    order = l.as_duration().compare(r.as_duration());
  } else if (l.is(ValueKind::String) && r.is(ValueKind::String)) {
    order = l.as_string().compare(r.as_string());
  } else {
    diags_.error(eval_codes::kTypeMismatch, expr.op_range, "cannot compare " + described(l.kind) + " and " + described(r.kind));
    return std::nullopt;
  }
  bool result = false;
  switch (expr.op) {
    case BinaryOp::Lt: result = order < 0; break;
    case BinaryOp::Le: result = order <= 0; break;
    case BinaryOp::Gt: result = order > 0; break;
    default: result = order >= 0; break;
  }
  return Value::boolean(result, expr.range);
}

std::optional<Value> Evaluator::membership(const syntax::BinaryExpr& expr, const Value& l, const Value& r) {
  if (reject_secret(l, expr.left->range, false) || reject_secret(r, expr.right->range, false)) return std::nullopt;
  if (r.is(ValueKind::List)) {
    const auto& list = r.as_list();
    const bool found = std::any_of(list.begin(), list.end(), [&](const Value& item) { return equal(l, item); });
    return Value::boolean(found, expr.range);
  }
  if (r.is(ValueKind::Map) || r.is(ValueKind::String)) {
    if (!l.is(ValueKind::String)) {
      diags_.error(eval_codes::kTypeMismatch, expr.left->range,
                   "cannot look for " + described(l.kind) + " in " + described(r.kind) +
                       (r.is(ValueKind::Map) ? ": its keys are strings" : ""));
      return std::nullopt;
    }
    const bool found = r.is(ValueKind::Map) ? r.as_map().count(l.as_string()) > 0
                                            : r.as_string().find(l.as_string()) != std::string::npos;
    return Value::boolean(found, expr.range);
  }
  diags_.error(eval_codes::kTypeMismatch, expr.right->range,
               "'in' needs a list, a map or a string on its right, not " + described(r.kind));
  return std::nullopt;
}

}  // namespace mkq::sema::detail
