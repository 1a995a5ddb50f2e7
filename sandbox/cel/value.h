// CEL values as the evaluator sees them: the scalar types, lists and maps --
// either views into the JSON document being validated (with the schema node
// that types them) or built by the expression (literals, filter, map) --
// optionals, and an error (a runtime error is a value in CEL: `false && e` is
// false whatever e is).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mkq::sandbox::cel {

class Value {
 public:
  enum class Kind { Null, Bool, Int, Uint, Double, String, List, Map, Optional, Format, Error };

  Value() = default;
  static Value null() { return {}; }
  static Value boolean(bool b) { Value v(Kind::Bool); v.b_ = b; return v; }
  static Value integer(std::int64_t i) { Value v(Kind::Int); v.i_ = i; return v; }
  static Value unsigned_integer(std::uint64_t u) { Value v(Kind::Uint); v.u_ = u; return v; }
  static Value number(double d) { Value v(Kind::Double); v.d_ = d; return v; }
  static Value string(std::string s) { Value v(Kind::String); v.s_ = std::move(s); return v; }
  static Value error(std::string message) { Value v(Kind::Error); v.s_ = std::move(message); return v; }
  // A named format of Kubernetes' format library (format.dns1123Label()).
  static Value format(std::string name) { Value v(Kind::Format); v.s_ = std::move(name); return v; }
  static Value list(std::vector<Value> items);
  static Value map(std::vector<std::pair<Value, Value>> entries);
  static Value optional_of(Value inner);
  static Value optional_none();
  // A view of a document node, typed by its schema node (null: typed by the JSON value alone).
  static Value of_json(const nlohmann::json& node, const nlohmann::json* schema);

  Kind kind() const { return kind_; }
  bool is_error() const { return kind_ == Kind::Error; }
  bool as_bool() const { return b_; }
  std::int64_t as_int() const { return i_; }
  std::uint64_t as_uint() const { return u_; }
  double as_double() const { return d_; }
  // String text, error message, format name.
  const std::string& text() const { return s_; }

  // Lists and maps, whatever backs them.
  std::size_t size() const;
  Value item(std::size_t index) const;      // lists; index < size()
  std::vector<Value> keys() const;          // maps, in document order
  // Map lookup: found = false when the key is absent.
  Value get(const Value& key, bool* found) const;
  Value field(const std::string& name, bool* found) const { return get(Value::string(name), found); }

  // Optionals.
  bool has_value() const { return inner_ != nullptr; }
  const Value& inner() const { return *inner_; }

  // CEL's type name, for messages: "int", "list(string)" is rendered as "list".
  std::string type_name() const;

 private:
  explicit Value(Kind kind) : kind_(kind) {}

  Kind kind_ = Kind::Null;
  bool b_ = false;
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
  double d_ = 0;
  std::string s_;
  // A view into a document: the node and the schema node that types it.
  const nlohmann::json* node_ = nullptr;
  const nlohmann::json* schema_ = nullptr;
  // Built lists and maps.
  std::shared_ptr<const std::vector<Value>> items_;
  std::shared_ptr<const std::vector<std::pair<Value, Value>>> entries_;
  std::shared_ptr<const Value> inner_;
  bool optional_ = false;
};

// CEL equality (heterogeneous numbers compare by value; lists and maps deeply).
bool equal(const Value& a, const Value& b);

}  // namespace mkq::sandbox::cel
