// Run-time values of the policy language (see value.h).
//
// equal() and to_display() walk nested lists and maps with an explicit work
// stack rather than recursion: values built by templates and comprehensions
// can nest deeper than the source text does, and no input may exhaust the
// native stack.
#include "compiler/sema/value.h"

#include "compiler/syntax/format.h"

#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

namespace mkq::sema {
namespace {

// The payload is moved into the variant once (no intermediate Storage to move
// from and destroy: every evaluated literal passes here).
template <typename T>
Value make(ValueKind kind, T&& data, diag::SourceRange at) {
  Value v;
  v.kind = kind;
  v.data.emplace<std::decay_t<T>>(std::forward<T>(data));
  v.origin = at;
  return v;
}

// A string in the language's literal syntax, for strings nested in lists and maps.
std::string quoted(const std::string& s) { return syntax::quote_literal(s); }

// Appends a scalar or reference; lists and maps are expanded by to_display's loop.
// `nested` quotes strings, as they are written inside a list or map.
void append_leaf(std::string& out, const Value& v, bool nested) {
  const auto it = std::back_inserter(out);
  switch (v.kind) {
    case ValueKind::Null:
      out += "null";
      return;
    case ValueKind::Bool:
      out += v.as_bool() ? "true" : "false";
      return;
    case ValueKind::Number: {
      // A whole number without a binary suffix reads as its digits ("w-${1000}"
      // is "w-1000", not Kubernetes' "w-1k"); anything else in canonical form.
      const Quantity& q = v.as_number();
      if (q.format() == QuantityFormat::DecimalSI && q.is_integer()) {
        if (const auto whole = q.to_int64()) {
          fmt::format_to(it, "{}", *whole);
          return;
        }
      }
      out += q.to_string();
      return;
    }
    case ValueKind::Duration:
      out += v.as_duration().to_string();
      return;
    case ValueKind::String:
      out += nested ? quoted(v.as_string()) : v.as_string();
      return;
    case ValueKind::All:
      out += "all";
      return;
    case ValueKind::Secret:
      out += "<secret>";
      return;
    case ValueKind::Template:
      fmt::format_to(it, "<template {}>", std::get<TemplateRef>(v.data).name);
      return;
    case ValueKind::Module:
      fmt::format_to(it, "<module \"{}\">", std::get<ModuleRef>(v.data).path);
      return;
    case ValueKind::Builtin:
      fmt::format_to(it, "<builtin {}>", std::get<BuiltinRef>(v.data).name);
      return;
    case ValueKind::List:
      out += "[...]";
      return;
    case ValueKind::Map:
      out += "{...}";
      return;
  }
}

bool equal_leaf(const Value& a, const Value& b) {
  switch (a.kind) {
    case ValueKind::Null:
    case ValueKind::All:
      return true;
    case ValueKind::Bool:
      return a.as_bool() == b.as_bool();
    case ValueKind::Number:
      return a.as_number() == b.as_number();
    case ValueKind::Duration:
      return a.as_duration() == b.as_duration();
    case ValueKind::String:
      return a.as_string() == b.as_string();
    case ValueKind::Secret:
      return a.as_secret().source == b.as_secret().source;
    case ValueKind::Template: {
      const auto& x = std::get<TemplateRef>(a.data);
      const auto& y = std::get<TemplateRef>(b.data);
      return x.decl == y.decl && x.name == y.name;
    }
    case ValueKind::Module: {
      const auto& x = std::get<ModuleRef>(a.data);
      const auto& y = std::get<ModuleRef>(b.data);
      return x.module == y.module && x.path == y.path;
    }
    case ValueKind::Builtin:
      return std::get<BuiltinRef>(a.data).name == std::get<BuiltinRef>(b.data).name;
    case ValueKind::List:
    case ValueKind::Map:
      return false;  // handled by equal()
  }
  return false;
}

}  // namespace

Value Value::null(diag::SourceRange at) { return make(ValueKind::Null, std::monostate{}, at); }
Value Value::boolean(bool b, diag::SourceRange at) { return make(ValueKind::Bool, b, at); }
Value Value::number(Quantity q, diag::SourceRange at) { return make(ValueKind::Number, q, at); }
Value Value::duration(Duration d, diag::SourceRange at) { return make(ValueKind::Duration, d, at); }
Value Value::string(std::string s, diag::SourceRange at) { return make(ValueKind::String, std::move(s), at); }
Value Value::all(diag::SourceRange at) { return make(ValueKind::All, std::monostate{}, at); }
Value Value::list(List items, diag::SourceRange at) {
  return make(ValueKind::List, std::make_shared<const List>(std::move(items)), at);
}
Value Value::map(Map entries, diag::SourceRange at) {
  return make(ValueKind::Map, std::make_shared<const Map>(std::move(entries)), at);
}
Value Value::secret(SecretRef ref, diag::SourceRange at) {
  return make(ValueKind::Secret, std::move(ref), at);
}

std::string described(ValueKind kind) {
  switch (kind) {
    case ValueKind::Null: return "null";
    case ValueKind::Bool: return "a bool";
    case ValueKind::Number: return "a number";
    case ValueKind::Duration: return "a duration";
    case ValueKind::String: return "a string";
    case ValueKind::All: return "'all'";
    case ValueKind::List: return "a list";
    case ValueKind::Map: return "a map";
    case ValueKind::Secret: return "a secret";
    case ValueKind::Template: return "a template";
    case ValueKind::Module: return "a module";
    case ValueKind::Builtin: return "a function";
  }
  return "a value";
}

const char* type_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::Null:
      return "null";
    case ValueKind::Bool:
      return "bool";
    case ValueKind::Number:
      return "number";
    case ValueKind::Duration:
      return "duration";
    case ValueKind::String:
      return "string";
    case ValueKind::All:
      return "all";
    case ValueKind::List:
      return "list";
    case ValueKind::Map:
      return "map";
    case ValueKind::Secret:
      return "secret";
    case ValueKind::Template:
      return "template";
    case ValueKind::Module:
      return "module";
    case ValueKind::Builtin:
      return "function";
  }
  return "value";
}

bool equal(const Value& a, const Value& b) {
  std::vector<std::pair<const Value*, const Value*>> pending{{&a, &b}};
  while (!pending.empty()) {
    const auto [x, y] = pending.back();
    pending.pop_back();
    if (x->kind != y->kind) {
      return false;
    }
    if (x->kind == ValueKind::List) {
      const List& xs = x->as_list();
      const List& ys = y->as_list();
      if (xs.size() != ys.size()) {
        return false;
      }
      for (std::size_t i = 0; i < xs.size(); ++i) {
        pending.emplace_back(&xs[i], &ys[i]);
      }
    } else if (x->kind == ValueKind::Map) {
      const Map& xs = x->as_map();
      const Map& ys = y->as_map();
      if (xs.size() != ys.size()) {
        return false;
      }
      for (auto xi = xs.begin(), yi = ys.begin(); xi != xs.end(); ++xi, ++yi) {
        if (xi->first != yi->first) {
          return false;
        }
        pending.emplace_back(&xi->second, &yi->second);
      }
    } else if (!equal_leaf(*x, *y)) {
      return false;
    }
  }
  return true;
}

std::string to_display(const Value& v) {
  // Each task either prints a value (nested: quote strings) or appends fixed text.
  struct Task {
    const Value* value = nullptr;
    std::string text;
  };
  std::string out;
  std::vector<Task> pending;
  pending.push_back({&v, {}});
  bool top = true;
  while (!pending.empty()) {
    Task task = std::move(pending.back());
    pending.pop_back();
    if (task.value == nullptr) {
      out += task.text;
      continue;
    }
    const Value& current = *task.value;
    const bool nested = !top;
    top = false;
    if (current.kind == ValueKind::List) {
      const List& items = current.as_list();
      out += '[';
      pending.push_back({nullptr, "]"});
      for (std::size_t i = items.size(); i-- > 0;) {
        pending.push_back({&items[i], {}});
        if (i != 0) {
          pending.push_back({nullptr, ", "});
        }
      }
    } else if (current.kind == ValueKind::Map) {
      const Map& entries = current.as_map();
      if (entries.empty()) {
        out += "{}";
        continue;
      }
      out += "{ ";
      pending.push_back({nullptr, " }"});
      std::size_t index = entries.size();
      // Reversed, so that the stack pops the entries in key order.
      for (auto it = entries.rbegin(); it != entries.rend(); ++it) {  // NOLINT(modernize-loop-convert)
        --index;
        pending.push_back({&it->second, {}});
        pending.push_back({nullptr, fmt::format("{}{}: ", index != 0 ? ", " : "", quoted(it->first))});
      }
    } else {
      append_leaf(out, current, nested);
    }
  }
  return out;
}

}  // namespace mkq::sema
