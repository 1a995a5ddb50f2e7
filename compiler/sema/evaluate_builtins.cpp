// The builtin functions: len, sum, min, max, range, keys, values, join,
// lower, upper, string, secret.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "compiler/sema/codes_eval.h"
#include "compiler/sema/evaluate_internal.h"

namespace mkq::sema::detail {

using diag::SourceRange;

namespace {

// The range to blame for a list element: where it was written, if known.
SourceRange element_range(const Value& element, SourceRange fallback) {
  return element.origin.valid() ? element.origin : fallback;
}

std::size_t utf8_length(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
  }));
}

bool valid_secret_source(const std::string& source) {
  constexpr std::string_view env = "env:";
  constexpr std::string_view file = "file:";
  if (source.rfind(env, 0) == 0) return is_identifier(source.substr(env.size()));
  if (source.rfind(file, 0) == 0) return source.size() > file.size();
  return false;
}

}  // namespace

std::optional<Value> Evaluator::call_builtin(const std::string& name, const syntax::CallExpr& call,
                                             const std::vector<Argument>& args) {
  const std::string fn = name + "()";

  auto count_error = [&](const std::string& expected) {
    diags_.error(eval_codes::kBadArguments, call.range,
                 fmt::format("{} takes {}, but {} {} given", fn, expected, args.size(),
                             args.size() == 1 ? "was" : "were"));
    return std::nullopt;
  };
  auto type_error = [&](const Argument& arg, const std::string& expected) {
    diags_.error(eval_codes::kBadArguments, arg.range, fn + " needs " + expected + ", not " + described(arg.value.kind));
    return std::nullopt;
  };
  // Every builtin but secret() would inspect a secret argument.
  if (name != "secret") {
    for (const auto& arg : args) {
      if (!arg.value.is(ValueKind::Secret)) continue;
      secret_error(arg.range, name == "string" || name == "join" || name == "lower" || name == "upper");
      return std::nullopt;
    }
  }

  if (name == "len") {
    if (args.size() != 1) return count_error("1 argument");
    const Value& v = args[0].value;
    std::size_t n = 0;
    if (v.is(ValueKind::List)) {
      n = v.as_list().size();
    } else if (v.is(ValueKind::Map)) {
      n = v.as_map().size();
    } else if (v.is(ValueKind::String)) {
      n = utf8_length(v.as_string());
    } else {
      return type_error(args[0], "a list, a map or a string");
    }
    return Value::number(Quantity::from_int(static_cast<std::int64_t>(n)), call.range);
  }

  if (name == "sum") {
    if (args.size() != 1) return count_error("1 argument");
    if (!args[0].value.is(ValueKind::List)) return type_error(args[0], "a list");
    const auto& list = args[0].value.as_list();
    if (list.empty()) return Value::number(Quantity::from_int(0), call.range);
    const ValueKind kind = list.front().kind;
    if (kind != ValueKind::Number && kind != ValueKind::Duration) {
      diags_.error(eval_codes::kBadArguments, element_range(list.front(), args[0].range),
                   fn + " needs a list of numbers or of durations, not of " + described(kind).substr(2) + "s");
      return std::nullopt;
    }
    Quantity total;
    QuantityError error = QuantityError::None;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Value& item = list[i];
      if (item.kind != kind) {
        const auto& first = described(kind);
        diags_.error(eval_codes::kBadArguments, element_range(item, args[0].range),
                     fmt::format("{} cannot add {} and {} (element {})", fn, first, described(item.kind), i));
        return std::nullopt;
      }
      const Quantity q = kind == ValueKind::Number ? item.as_number() : Quantity::from_int(item.as_duration().millis());
      auto next = i == 0 ? std::optional<Quantity>(q) : Quantity::add(total, q, &error);
      if (!next) {
        diags_.error(eval_codes::kArithmetic, call.range, "the result of " + fn + " is too large");
        return std::nullopt;
      }
      total = *next;
    }
    if (kind == ValueKind::Number) return Value::number(total, call.range);
    const auto ms = total.to_int64();
    if (!ms || *ms > Duration::kMaxMillis) {
      diags_.error(eval_codes::kDurationArithmetic, call.range, "the result of " + fn + " is too large for a duration");
      return std::nullopt;
    }
    return Value::duration(Duration::from_millis(*ms), call.range);
  }

  if (name == "min" || name == "max") {
    if (args.empty()) {
      diags_.error(eval_codes::kBadArguments, call.range, fn + " needs at least one argument");
      return std::nullopt;
    }
    std::vector<std::pair<const Value*, SourceRange>> items;
    if (args.size() == 1) {
      if (!args[0].value.is(ValueKind::List)) return type_error(args[0], "a list or several arguments");
      for (const auto& item : args[0].value.as_list()) {
        items.emplace_back(&item, element_range(item, args[0].range));
      }
      if (items.empty()) {
        diags_.error(eval_codes::kBadArgumentValue, args[0].range, fn + " of an empty list");
        return std::nullopt;
      }
    } else {
      for (const auto& arg : args) items.emplace_back(&arg.value, arg.range);
    }
    const ValueKind kind = items.front().first->kind;
    if (kind != ValueKind::Number && kind != ValueKind::Duration && kind != ValueKind::String) {
      if (kind == ValueKind::Secret) {
        secret_error(items.front().second, false);
        return std::nullopt;
      }
      diags_.error(eval_codes::kBadArguments, items.front().second,
                   fn + " compares numbers, durations or strings, not " + described(kind));
      return std::nullopt;
    }
    const Value* best = items.front().first;
    for (const auto& [item, range] : items) {
      if (item->is(ValueKind::Secret)) {
        secret_error(range, false);
        return std::nullopt;
      }
      if (item->kind != kind) {
        diags_.error(eval_codes::kBadArguments, range, fn + " cannot compare " + described(kind) + " and " + described(item->kind));
        return std::nullopt;
      }
      int order = 0;
      if (kind == ValueKind::Number) {
        order = item->as_number().compare(best->as_number());
      } else if (kind == ValueKind::Duration) {
        order = item->as_duration().compare(best->as_duration());
      } else {
        order = item->as_string().compare(best->as_string());
      }
      if (name == "min" ? order < 0 : order > 0) best = item;
    }
    return *best;
  }

  if (name == "range") {
    if (args.empty() || args.size() > 2) return count_error("1 or 2 arguments");
    std::int64_t bounds[2] = {0, 0};
    for (std::size_t i = 0; i < args.size(); ++i) {
      const Value& v = args[i].value;
      if (!v.is(ValueKind::Number)) return type_error(args[i], "whole numbers");
      const auto n = v.as_number().to_int64();
      if (!v.as_number().is_integer() || !n) {
        diags_.error(eval_codes::kBadArguments, args[i].range,
                     fmt::format("{} needs whole numbers, not {}", fn, to_display(v)));
        return std::nullopt;
      }
      bounds[i] = *n;
    }
    const std::int64_t from = args.size() == 2 ? bounds[0] : 0;
    const std::int64_t to = args.size() == 2 ? bounds[1] : bounds[0];
    // Compared without overflow: both are within ±10^29 units as int64 already.
    if (to > from && (to - from > kMaxRangeLength || to - from < 0)) {
      diags_.error(eval_codes::kTooLarge, call.range,
                   fmt::format("{} would make more than {} numbers", fn, kMaxRangeLength));
      return std::nullopt;
    }
    if (to > from && !charge(static_cast<long>(to - from), call.range)) return std::nullopt;
    List items;
    for (std::int64_t i = from; i < to; ++i) items.push_back(Value::number(Quantity::from_int(i), call.range));
    return make_list(std::move(items), call.range);
  }

  if (name == "keys" || name == "values") {
    if (args.size() != 1) return count_error("1 argument");
    if (!args[0].value.is(ValueKind::Map)) return type_error(args[0], "a map");
    List items;
    for (const auto& [key, value] : args[0].value.as_map()) {
      items.push_back(name == "keys" ? Value::string(key, call.range) : value);
    }
    return make_list(std::move(items), call.range);
  }

  if (name == "join") {
    if (args.size() != 2) return count_error("2 arguments");
    if (!args[0].value.is(ValueKind::List)) return type_error(args[0], "a list");
    if (!args[1].value.is(ValueKind::String)) return type_error(args[1], "a string as separator");
    std::string text;
    const auto& list = args[0].value.as_list();
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Value& item = list[i];
      const SourceRange at = element_range(item, args[0].range);
      if (item.is(ValueKind::Secret)) {
        secret_error(at, true);
        return std::nullopt;
      }
      if (!item.is(ValueKind::String) && !item.is(ValueKind::Number) && !item.is(ValueKind::Duration) &&
          !item.is(ValueKind::Bool)) {
        diags_.error(eval_codes::kBadArguments, at,
                     fmt::format("{} joins strings, numbers, durations and bools, not {} (element {})", fn,
                                 described(item.kind), i));
        return std::nullopt;
      }
      if (i > 0) text += args[1].value.as_string();
      text += item.is(ValueKind::String) ? item.as_string() : to_display(item);
      if (text.size() > kMaxTextBytes) break;
    }
    return make_string(std::move(text), call.range);
  }

  if (name == "lower" || name == "upper") {
    if (args.size() != 1) return count_error("1 argument");
    if (!args[0].value.is(ValueKind::String)) return type_error(args[0], "a string");
    std::string text = args[0].value.as_string();
    for (char& c : text) {
      const auto u = static_cast<unsigned char>(c);
      c = static_cast<char>(name == "lower" ? std::tolower(u) : std::toupper(u));
    }
    return Value::string(std::move(text), call.range);
  }

  if (name == "string") {
    if (args.size() != 1) return count_error("1 argument");
    auto text = printable(args[0].value, args[0].range);
    if (!text) return std::nullopt;
    return Value::string(std::move(*text), call.range);
  }

  if (name == "secret") {
    if (args.size() != 1) return count_error("1 argument");
    if (!args[0].value.is(ValueKind::String)) return type_error(args[0], "a string");
    const std::string& source = args[0].value.as_string();
    if (!valid_secret_source(source)) {
      diags_.error(eval_codes::kBadArgumentValue, args[0].range,
                   "a secret's source must be \"env:NAME\" or \"file:PATH\", not \"" + source + "\"");
      return std::nullopt;
    }
    return Value::secret(SecretRef{source}, call.range);
  }

  diags_.error(eval_codes::kNotCallable, call.callee->range, "unknown builtin '" + name + "'");
  return std::nullopt;
}

}  // namespace mkq::sema::detail
