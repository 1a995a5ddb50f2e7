// Compiling (parse + check) and evaluating CEL expressions (program.h).
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <regex>

#include "sandbox/cel/checker.h"
#include "sandbox/cel/cost.h"
#include "sandbox/cel/formats.h"
#include "sandbox/cel/lru_cache.h"
#include "sandbox/cel/parser.h"
#include "sandbox/cel/program.h"

namespace mkq::sandbox::cel {
namespace {

using K = Value::Kind;

Value no_overload(const std::string& function) { return Value::error("no such overload: " + function); }

bool is_number(const Value& v) { return v.kind() == K::Int || v.kind() == K::Uint || v.kind() == K::Double; }

double to_double(const Value& v) {
  if (v.kind() == K::Int) return static_cast<double>(v.as_int());
  if (v.kind() == K::Uint) return static_cast<double>(v.as_uint());
  return v.as_double();
}

// -1, 0, 1; nullopt when the two cannot be ordered.
std::optional<int> compare(const Value& a, const Value& b) {
  if (a.kind() == K::String && b.kind() == K::String) {
    const int c = a.text().compare(b.text());
    return (c > 0) - (c < 0);
  }
  if (a.kind() == K::Bool && b.kind() == K::Bool) return static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool());
  if (!is_number(a) || !is_number(b)) return std::nullopt;
  if (a.kind() == K::Int && b.kind() == K::Int) return (a.as_int() > b.as_int()) - (a.as_int() < b.as_int());
  if (a.kind() == K::Uint && b.kind() == K::Uint) return (a.as_uint() > b.as_uint()) - (a.as_uint() < b.as_uint());
  if (a.kind() == K::Int && b.kind() == K::Uint) {
    if (a.as_int() < 0) return -1;
    const auto u = static_cast<std::uint64_t>(a.as_int());
    return (u > b.as_uint()) - (u < b.as_uint());
  }
  if (a.kind() == K::Uint && b.kind() == K::Int) {
    const auto r = compare(b, a);
    return r ? std::optional<int>(-*r) : std::nullopt;
  }
  const double x = to_double(a);
  const double y = to_double(b);
  if (std::isnan(x) || std::isnan(y)) return std::nullopt;
  return (x > y) - (x < y);
}

Value arithmetic(const std::string& op, const Value& a, const Value& b) {
  if (a.kind() == K::Int && b.kind() == K::Int) {
    const std::int64_t x = a.as_int();
    const std::int64_t y = b.as_int();
    std::int64_t r = 0;
    if (op == "_+_" && __builtin_add_overflow(x, y, &r)) return Value::error("integer overflow");
    if (op == "_-_" && __builtin_sub_overflow(x, y, &r)) return Value::error("integer overflow");
    if (op == "_*_" && __builtin_mul_overflow(x, y, &r)) return Value::error("integer overflow");
    if (op == "_/_" || op == "_%_") {
      if (y == 0) return Value::error(op == "_/_" ? "division by zero" : "modulus by zero");
      if (x == std::numeric_limits<std::int64_t>::min() && y == -1) return Value::error("integer overflow");
      r = op == "_/_" ? x / y : x % y;
    }
    return Value::integer(r);
  }
  if (a.kind() == K::Uint && b.kind() == K::Uint) {
    const std::uint64_t x = a.as_uint();
    const std::uint64_t y = b.as_uint();
    std::uint64_t r = 0;
    if (op == "_+_" && __builtin_add_overflow(x, y, &r)) return Value::error("unsigned integer overflow");
    if (op == "_-_" && __builtin_sub_overflow(x, y, &r)) return Value::error("unsigned integer overflow");
    if (op == "_*_" && __builtin_mul_overflow(x, y, &r)) return Value::error("unsigned integer overflow");
    if (op == "_/_" || op == "_%_") {
      if (y == 0) return Value::error(op == "_/_" ? "division by zero" : "modulus by zero");
      r = op == "_/_" ? x / y : x % y;
    }
    return Value::unsigned_integer(r);
  }
  if (a.kind() == K::Double && b.kind() == K::Double && op != "_%_") {
    const double x = a.as_double();
    const double y = b.as_double();
    if (op == "_+_") return Value::number(x + y);
    if (op == "_-_") return Value::number(x - y);
    if (op == "_*_") return Value::number(x * y);
    return Value::number(x / y);
  }
  if (op == "_+_" && a.kind() == K::String && b.kind() == K::String) return Value::string(a.text() + b.text());
  if (op == "_+_" && a.kind() == K::List && b.kind() == K::List) {
    std::vector<Value> items;
    for (std::size_t i = 0; i < a.size(); ++i) items.push_back(a.item(i));
    for (std::size_t i = 0; i < b.size(); ++i) items.push_back(b.item(i));
    return Value::list(std::move(items));
  }
  return no_overload(op);
}

// Compiled patterns, shared by every cluster and thread (the most recent
// kPatternsCached: a pattern may come from the data); nullopt when std::regex
// refuses one.
constexpr std::size_t kPatternsCached = 512;

std::shared_ptr<const std::optional<std::regex>> pattern(const std::string& re) {
  static LruCache<std::optional<std::regex>> cache(kPatternsCached);
  if (auto found = cache.find(re)) return found;
  std::optional<std::regex> compiled;
  try {
    compiled.emplace(re, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    compiled.reset();
  }
  return cache.insert(re, std::move(compiled));
}

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

// What one node costs to evaluate, as cel-go's runtime counts it (its
// traversals and a comprehension's steps are charged where they happen).
std::uint64_t node_cost(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::Literal:
    case Expr::Kind::Macro:
      return 0;
    case Expr::Kind::List:
      return kListLiteralCost;
    case Expr::Kind::Map:
      return kMapLiteralCost;
    default:
      return 1;
  }
}

class Evaluator {
 public:
  Evaluator(const Value& self, const Value* old_self, std::uint64_t limit)
      : self_(self), old_self_(old_self), limit_(limit) {}
  // Every member of `variables` is a variable; self and oldSelf are not.
  Evaluator(const nlohmann::json& variables, std::uint64_t limit)
      : no_self_(Value::error("no such attribute: self")),
        self_(no_self_),
        old_self_(nullptr),
        variables_(&variables),
        limit_(limit) {}

  std::uint64_t cost() const { return cost_; }
  // The cost went over the limit: whatever eval() returned, the answer is kCostLimitExceeded.
  bool cancelled() const { return cancelled_; }

  Value eval(const Expr& e) {
    if (!charge(node_cost(e))) return Value::error(kCostLimitExceeded);
    switch (e.kind) {
      case Expr::Kind::Literal:
        return e.value;
      case Expr::Kind::Ident:
        return ident(e.name);
      case Expr::Kind::Select:
      case Expr::Kind::Has:
        return select(e);
      case Expr::Kind::List: {
        std::vector<Value> items;
        for (const auto& a : e.args) {
          Value v = eval(*a);
          if (v.is_error()) return v;
          items.push_back(std::move(v));
        }
        return Value::list(std::move(items));
      }
      case Expr::Kind::Map: {
        std::vector<std::pair<Value, Value>> entries;
        for (std::size_t i = 0; i + 1 < e.args.size(); i += 2) {
          Value k = eval(*e.args[i]);
          if (k.is_error()) return k;
          Value v = eval(*e.args[i + 1]);
          if (v.is_error()) return v;
          entries.emplace_back(std::move(k), std::move(v));
        }
        return Value::map(std::move(entries));
      }
      case Expr::Kind::Macro:
        return macro(e);
      case Expr::Kind::Call:
        return call(e);
    }
    return Value::error("unknown expression");
  }

 private:
  bool charge(std::uint64_t amount) {
    cost_ = saturating_add(cost_, amount);
    if (cost_ > limit_) cancelled_ = true;
    return !cancelled_;
  }

  Value ident(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    if (variables_ != nullptr && variables_->contains(name)) return Value::of_json(variables_->at(name), nullptr);
    if (name == "self") return self_;
    if (name == "oldSelf" && old_self_ != nullptr) return *old_self_;
    return Value::error("no such attribute: " + name);
  }

  Value select(const Expr& e) {
    const Value operand = eval(*e.args[0]);
    if (operand.is_error()) return operand;
    if (operand.kind() != K::Map) return no_overload(e.kind == Expr::Kind::Has ? "has" : "select");
    bool found = false;
    Value v = operand.field(e.name, &found);
    if (e.kind == Expr::Kind::Has) return Value::boolean(found);
    if (!found) return Value::error("no such key: " + e.name);
    return v;
  }

  std::vector<Value> range_items(const Value& range) const {
    std::vector<Value> out;
    if (range.kind() == K::Map) return range.keys();
    for (std::size_t i = 0; i < range.size(); ++i) out.push_back(range.item(i));
    return out;
  }

  Value macro(const Expr& e) {
    const Value range = eval(*e.args[0]);
    if (range.is_error()) return range;
    if (range.kind() != K::List && range.kind() != K::Map) return no_overload(e.name);
    const std::vector<Value> items = range_items(range);
    scopes_.emplace_back(e.var, Value());
    Value result = run_macro(e, items);
    scopes_.pop_back();
    return result;
  }

  Value run_macro(const Expr& e, const std::vector<Value>& items) {
    const Expr& body = *e.args[1];
    std::optional<Value> first_error;
    if (e.name == "all" || e.name == "exists") {
      const bool want = e.name == "exists";  // the value that decides
      for (const Value& item : items) {
        if (!charge(kComprehensionStepCost)) return Value::error(kCostLimitExceeded);  // the loop's step
        scopes_.back().second = item;
        const Value r = eval(body);
        if (r.kind() == K::Bool) {
          if (r.as_bool() == want) return Value::boolean(want);
        } else if (!first_error) {
          first_error = r.is_error() ? r : no_overload(e.name);
        }
      }
      return first_error ? *first_error : Value::boolean(!want);
    }
    if (e.name == "exists_one") {
      int count = 0;
      for (const Value& item : items) {
        if (!charge(kComprehensionStepCost)) return Value::error(kCostLimitExceeded);
        scopes_.back().second = item;
        const Value r = eval(body);
        if (r.kind() != K::Bool) return r.is_error() ? r : no_overload(e.name);
        count += r.as_bool() ? 1 : 0;
      }
      return Value::boolean(count == 1);
    }
    std::vector<Value> out;
    for (const Value& item : items) {
      if (!charge(kComprehensionStepCost)) return Value::error(kCostLimitExceeded);
      scopes_.back().second = item;
      if (e.name == "filter" || e.args.size() == 3) {
        const Value keep = eval(body);
        if (keep.kind() != K::Bool) return keep.is_error() ? keep : no_overload(e.name);
        if (!keep.as_bool()) continue;
      }
      if (e.name == "filter") {
        out.push_back(item);
        continue;
      }
      Value mapped = eval(*e.args.back());
      if (mapped.is_error()) return mapped;
      out.push_back(std::move(mapped));
    }
    return Value::list(std::move(out));
  }

  // && and || are commutative over errors: false && error is false, true || error is true.
  Value logical(const Expr& e) {
    const bool is_and = e.name == "_&&_";
    const Value a = eval(*e.args[0]);
    if (a.kind() == K::Bool && a.as_bool() != is_and) return a;
    const Value b = eval(*e.args[1]);
    if (b.kind() == K::Bool && b.as_bool() != is_and) return b;
    if (a.kind() == K::Bool && b.kind() == K::Bool) return Value::boolean(is_and);
    if (a.is_error()) return a;
    if (b.is_error()) return b;
    return no_overload(e.name);
  }

  Value call(const Expr& e) {
    const std::string& f = e.name;
    if (f == "_&&_" || f == "_||_") return logical(e);
    if (f == "_?_:_") {
      const Value c = eval(*e.args[0]);
      if (c.is_error()) return c;
      if (c.kind() != K::Bool) return no_overload(f);
      return eval(*e.args[c.as_bool() ? 1 : 2]);
    }
    std::vector<Value> args;
    args.reserve(e.args.size());
    for (const auto& a : e.args) {
      Value v = eval(*a);
      if (v.is_error()) return v;
      args.push_back(std::move(v));
    }
    return apply(f, e.member, args);
  }

  Value apply(const std::string& f, bool member, const std::vector<Value>& args) {
    if (!charge(traversal_cost(f, args))) return Value::error(kCostLimitExceeded);
    if (f == "!_") return args[0].kind() == K::Bool ? Value::boolean(!args[0].as_bool()) : no_overload(f);
    if (f == "-_") {
      if (args[0].kind() == K::Int) {
        if (args[0].as_int() == std::numeric_limits<std::int64_t>::min()) return Value::error("integer overflow");
        return Value::integer(-args[0].as_int());
      }
      if (args[0].kind() == K::Double) return Value::number(-args[0].as_double());
      return no_overload(f);
    }
    if (f == "_==_") return Value::boolean(equal(args[0], args[1]));
    if (f == "_!=_") return Value::boolean(!equal(args[0], args[1]));
    if (f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") {
      const auto c = compare(args[0], args[1]);
      if (!c) return no_overload(f);
      if (f == "_<_") return Value::boolean(*c < 0);
      if (f == "_<=_") return Value::boolean(*c <= 0);
      if (f == "_>_") return Value::boolean(*c > 0);
      return Value::boolean(*c >= 0);
    }
    if (f == "_+_" || f == "_-_" || f == "_*_" || f == "_/_" || f == "_%_") return arithmetic(f, args[0], args[1]);
    if (f == "@in") return in(args[0], args[1]);
    if (f == "_[_]") return index(args[0], args[1]);
    if (f == "size") {
      const Value& v = args[0];
      if (v.kind() == K::String) return Value::integer(static_cast<std::int64_t>(code_points(v.text())));
      if (v.kind() == K::List || v.kind() == K::Map) return Value::integer(static_cast<std::int64_t>(v.size()));
      return no_overload(f);
    }
    return library(f, member, args);
  }

  // Strings compared or searched: a tenth of their length; a list searched: its size.
  static std::uint64_t traversal_cost(const std::string& f, const std::vector<Value>& args) {
    const auto length = [&](std::size_t i) -> std::uint64_t {
      return i < args.size() && args[i].kind() == K::String ? args[i].text().size() : 0;
    };
    if (f == "_==_" || f == "_!=_" || f == "_<_" || f == "_<=_" || f == "_>_" || f == "_>=_") {
      return string_traversal_cost(std::min(length(0), length(1)));
    }
    if (f == "contains" || f == "startsWith" || f == "endsWith" || f == "matches")
      return string_traversal_cost(length(0));
    if (f == "_+_") return string_traversal_cost(length(0) + length(1));
    if (f == "@in" && args.size() == 2 && args[1].kind() == K::List) return args[1].size();
    return 0;
  }

  static Value in(const Value& x, const Value& container) {
    if (container.kind() == K::List) {
      for (std::size_t i = 0; i < container.size(); ++i) {
        if (equal(x, container.item(i))) return Value::boolean(true);
      }
      return Value::boolean(false);
    }
    if (container.kind() == K::Map) {
      bool found = false;
      container.get(x, &found);
      return Value::boolean(found);
    }
    return no_overload("@in");
  }

  static Value index(const Value& target, const Value& key) {
    if (target.kind() == K::List) {
      std::int64_t i = 0;
      if (key.kind() == K::Int) i = key.as_int();
      else if (key.kind() == K::Uint && key.as_uint() < (1ULL << 62)) i = static_cast<std::int64_t>(key.as_uint());
      else if (key.kind() == K::Double && std::floor(key.as_double()) == key.as_double()) i = static_cast<std::int64_t>(key.as_double());
      else return no_overload("_[_]");
      if (i < 0 || static_cast<std::uint64_t>(i) >= target.size()) {
        return Value::error("index out of bounds: " + std::to_string(i));
      }
      return target.item(static_cast<std::size_t>(i));
    }
    if (target.kind() == K::Map) {
      bool found = false;
      Value v = target.get(key, &found);
      if (!found) return Value::error("no such key: " + (key.kind() == K::String ? key.text() : std::string("?")));
      return v;
    }
    return no_overload("_[_]");
  }

  static Value library(const std::string& f, bool member, const std::vector<Value>& args) {
    const auto all_strings = [&]() {
      for (const Value& a : args) {
        if (a.kind() != K::String) return false;
      }
      return true;
    };
    if (f == "contains" || f == "startsWith" || f == "endsWith" || f == "matches") {
      if (args.size() != 2 || !all_strings()) return no_overload(f);
      const std::string& s = args[0].text();
      const std::string& x = args[1].text();
      if (f == "contains") return Value::boolean(s.find(x) != std::string::npos);
      if (f == "startsWith") return Value::boolean(s.rfind(x, 0) == 0);
      if (f == "endsWith") return Value::boolean(s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0);
      const auto re = pattern(x);
      if (!*re) return Value::error("invalid regular expression: " + x);
      return Value::boolean(std::regex_search(s, **re));
    }
    if (member && (f == "lowerAscii" || f == "upperAscii" || f == "trim")) {
      if (args.size() != 1 || !all_strings()) return no_overload(f);
      std::string s = args[0].text();
      if (f == "trim") {
        const auto first = s.find_first_not_of(" \t\n\r\f\v");
        if (first == std::string::npos) return Value::string("");
        return Value::string(s.substr(first, s.find_last_not_of(" \t\n\r\f\v") - first + 1));
      }
      for (char& c : s) {
        if (f == "lowerAscii" && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (f == "upperAscii" && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      return Value::string(s);
    }
    if (member && (f == "indexOf" || f == "lastIndexOf")) {
      if (args.size() != 2 || !all_strings()) return no_overload(f);
      const std::size_t at = f == "indexOf" ? args[0].text().find(args[1].text()) : args[0].text().rfind(args[1].text());
      return Value::integer(at == std::string::npos ? -1 : static_cast<std::int64_t>(code_points(args[0].text().substr(0, at))));
    }
    if (member && f == "split") {
      if (args.size() != 2 || !all_strings()) return no_overload(f);
      std::vector<Value> parts;
      const std::string& s = args[0].text();
      const std::string& sep = args[1].text();
      if (sep.empty()) {
        for (const char c : s) parts.push_back(Value::string(std::string(1, c)));
        return Value::list(std::move(parts));
      }
      std::size_t start = 0;
      while (true) {
        const std::size_t at = s.find(sep, start);
        parts.push_back(Value::string(s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
        if (at == std::string::npos) break;
        start = at + sep.size();
      }
      return Value::list(std::move(parts));
    }
    if (member && f == "join") {
      if (args[0].kind() != K::List || (args.size() == 2 && args[1].kind() != K::String)) return no_overload(f);
      std::string out;
      for (std::size_t i = 0; i < args[0].size(); ++i) {
        const Value item = args[0].item(i);
        if (item.kind() != K::String) return no_overload(f);
        if (i > 0 && args.size() == 2) out += args[1].text();
        out += item.text();
      }
      return Value::string(out);
    }
    if (!member && (f == "int" || f == "uint" || f == "double" || f == "string" || f == "bool")) return convert(f, args[0]);
    if (f.rfind("format.", 0) == 0) return Value::format(f.substr(7));
    if (member && f == "validate") {
      const std::vector<std::string> errors = validate_format(args[0].text(), args[1].text());
      if (errors.empty()) return Value::optional_none();
      std::vector<Value> items;
      for (const std::string& e : errors) items.push_back(Value::string(e));
      return Value::optional_of(Value::list(std::move(items)));
    }
    if (f == "optional.none") return Value::optional_none();
    if (f == "optional.of") return Value::optional_of(args[0]);
    if (member && args[0].kind() == K::Optional) {
      if (f == "hasValue") return Value::boolean(args[0].has_value());
      if (f == "value") return args[0].has_value() ? args[0].inner() : Value::error("optional.none() dereference");
      if (f == "orValue") return args[0].has_value() ? args[0].inner() : args[1];
    }
    return no_overload(f);
  }

  static Value convert(const std::string& to, const Value& v) {
    if (to == "string") {
      switch (v.kind()) {
        case K::String: return v;
        case K::Int: return Value::string(std::to_string(v.as_int()));
        case K::Uint: return Value::string(std::to_string(v.as_uint()));
        case K::Bool: return Value::string(v.as_bool() ? "true" : "false");
        case K::Double: return Value::string(nlohmann::json(v.as_double()).dump());
        default: return no_overload("string");
      }
    }
    if (to == "bool") {
      if (v.kind() == K::Bool) return v;
      if (v.kind() == K::String && (v.text() == "true" || v.text() == "false")) return Value::boolean(v.text() == "true");
      return Value::error("type conversion error");
    }
    if (to == "double") {
      if (is_number(v)) return Value::number(to_double(v));
      if (v.kind() == K::String) {
        char* end = nullptr;
        const double d = std::strtod(v.text().c_str(), &end);
        if (end != v.text().c_str() + v.text().size() || v.text().empty()) return Value::error("type conversion error");
        return Value::number(d);
      }
      return no_overload("double");
    }
    // int, uint
    if (v.kind() == K::String) {
      errno = 0;
      char* end = nullptr;
      if (to == "int") {
        const long long i = std::strtoll(v.text().c_str(), &end, 10);
        if (errno == ERANGE || end != v.text().c_str() + v.text().size() || v.text().empty()) return Value::error("type conversion error");
        return Value::integer(i);
      }
      const unsigned long long u = std::strtoull(v.text().c_str(), &end, 10);
      if (errno == ERANGE || end != v.text().c_str() + v.text().size() || v.text().empty() || v.text()[0] == '-') {
        return Value::error("type conversion error");
      }
      return Value::unsigned_integer(u);
    }
    if (v.kind() == K::Double) {
      const double d = v.as_double();
      if (to == "int") {
        if (!(d > -9.223372036854775808e18 && d < 9.223372036854775807e18)) return Value::error("integer overflow");
        return Value::integer(static_cast<std::int64_t>(d));
      }
      if (!(d >= 0 && d < 1.8446744073709552e19)) return Value::error("unsigned integer overflow");
      return Value::unsigned_integer(static_cast<std::uint64_t>(d));
    }
    if (v.kind() == K::Int) {
      if (to == "int") return v;
      if (v.as_int() < 0) return Value::error("unsigned integer overflow");
      return Value::unsigned_integer(static_cast<std::uint64_t>(v.as_int()));
    }
    if (v.kind() == K::Uint) {
      if (to == "uint") return v;
      if (v.as_uint() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return Value::error("integer overflow");
      return Value::integer(static_cast<std::int64_t>(v.as_uint()));
    }
    return no_overload(to);
  }

  const Value no_self_;  // self outside x-kubernetes-validations: not a variable
  const Value& self_;
  const Value* old_self_;
  const nlohmann::json* variables_ = nullptr;
  std::vector<std::pair<std::string, Value>> scopes_;
  std::uint64_t limit_;
  std::uint64_t cost_ = 0;
  bool cancelled_ = false;
};

}  // namespace

base::Result<Program> Program::compile(const std::string& text, const nlohmann::json& schema, bool root,
                                       Produces produces) {
  auto parsed = parse(text);
  if (!parsed) return parsed.error();
  bool uses_old_self = false;
  const auto type = check(**parsed, text, type_of_schema(schema, root), &uses_old_self);
  if (!type) return type.error();
  const Type::Kind want = produces == Produces::Bool ? Type::Kind::Bool : Type::Kind::String;
  if (type->kind != want && type->kind != Type::Kind::Dyn) {
    return base::Error(0, "CheckError",
                       produces == Produces::Bool ? "cel expression must evaluate to a bool"
                                                  : "messageExpression must evaluate to a string");
  }
  Program program;
  program.expr_ = std::shared_ptr<const Expr>(std::move(parsed).value());
  program.uses_old_self_ = uses_old_self;
  program.estimated_cost_ = estimate_cost(*program.expr_, schema);
  return program;
}

Value Program::evaluate(const Value& self, const Value* old_self, std::uint64_t* cost) const {
  Evaluator evaluator(self, old_self, kPerCallLimit);
  Value result = evaluator.eval(*expr_);
  if (cost != nullptr) *cost = evaluator.cost();
  return evaluator.cancelled() ? Value::error(kCostLimitExceeded) : result;
}

base::Result<Program> Program::parse_unchecked(const std::string& text) {
  auto parsed = parse(text);
  if (!parsed) return parsed.error();
  Program program;
  program.expr_ = std::shared_ptr<const Expr>(std::move(parsed).value());
  return program;
}

Value Program::evaluate_with(const nlohmann::json& variables) const {
  Evaluator evaluator(variables, kPerCallLimit);
  Value result = evaluator.eval(*expr_);
  return evaluator.cancelled() ? Value::error(kCostLimitExceeded) : result;
}

}  // namespace mkq::sandbox::cel
