// CEL values (value.h).
#include "sandbox/cel/value.h"

#include <cmath>
#include <limits>

namespace mkq::sandbox::cel {
namespace {

using nlohmann::json;

const json* child_schema(const json* schema, const char* key) {
  if (schema == nullptr || !schema->is_object()) return nullptr;
  const auto it = schema->find(key);
  return it != schema->end() && it->is_object() ? &*it : nullptr;
}

// The schema of property `name` of an object typed by `schema`: a declared
// property, else additionalProperties, else none.
const json* property_schema(const json* schema, const std::string& name) {
  if (const json* props = child_schema(schema, "properties")) {
    const auto it = props->find(name);
    if (it != props->end()) return &*it;
  }
  return child_schema(schema, "additionalProperties");
}

std::string schema_type(const json* schema) {
  if (schema == nullptr || !schema->is_object()) return {};
  if (schema->value("x-kubernetes-int-or-string", false)) return {};
  return schema->value("type", std::string());
}

}  // namespace

Value Value::list(std::vector<Value> items) {
  Value v(Kind::List);
  v.items_ = std::make_shared<const std::vector<Value>>(std::move(items));
  return v;
}

Value Value::map(std::vector<std::pair<Value, Value>> entries) {
  Value v(Kind::Map);
  v.entries_ = std::make_shared<const std::vector<std::pair<Value, Value>>>(std::move(entries));
  return v;
}

Value Value::optional_of(Value inner) {
  Value v(Kind::Optional);
  v.inner_ = std::make_shared<const Value>(std::move(inner));
  return v;
}

Value Value::optional_none() { return Value(Kind::Optional); }

Value Value::of_json(const json& node, const json* schema) {
  const std::string type = schema_type(schema);
  switch (node.type()) {
    case json::value_t::null:
      return null();
    case json::value_t::boolean:
      return boolean(node.get<bool>());
    case json::value_t::string:
      return string(node.get<std::string>());
    case json::value_t::number_integer:
      if (type == "number") return number(static_cast<double>(node.get<std::int64_t>()));
      return integer(node.get<std::int64_t>());
    case json::value_t::number_unsigned: {
      const auto u = node.get<std::uint64_t>();
      if (type == "number") return number(static_cast<double>(u));
      if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return unsigned_integer(u);
      return integer(static_cast<std::int64_t>(u));
    }
    case json::value_t::number_float: {
      const double d = node.get<double>();
      // An integer field written as 2.0 is the integer 2, as the schema admits it.
      if (type == "integer" && std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18) {
        return integer(static_cast<std::int64_t>(d));
      }
      return number(d);
    }
    case json::value_t::array: {
      Value v(Kind::List);
      v.node_ = &node;
      v.schema_ = child_schema(schema, "items");
      return v;
    }
    case json::value_t::object: {
      Value v(Kind::Map);
      v.node_ = &node;
      v.schema_ = schema;
      return v;
    }
    default:
      return error("unsupported value in the document");
  }
}

std::size_t Value::size() const {
  if (node_ != nullptr) return node_->size();
  if (items_) return items_->size();
  if (entries_) return entries_->size();
  return 0;
}

Value Value::item(std::size_t index) const {
  if (node_ != nullptr) return of_json((*node_)[index], schema_);
  return (*items_)[index];
}

std::vector<Value> Value::keys() const {
  std::vector<Value> out;
  if (node_ != nullptr) {
    for (const auto& [key, child] : node_->items()) out.push_back(string(key));
  } else if (entries_) {
    for (const auto& [key, value] : *entries_) out.push_back(key);
  }
  return out;
}

Value Value::get(const Value& key, bool* found) const {
  *found = false;
  if (node_ != nullptr) {
    if (key.kind() != Kind::String) return {};
    const auto it = node_->find(key.text());
    if (it == node_->end()) return {};
    *found = true;
    return of_json(*it, property_schema(schema_, key.text()));
  }
  if (entries_) {
    for (const auto& [k, v] : *entries_) {
      if (equal(k, key)) {
        *found = true;
        return v;
      }
    }
  }
  return {};
}

std::string Value::type_name() const {
  switch (kind_) {
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::List: return "list";
    case Kind::Map: return "map";
    case Kind::Optional: return "optional_type";
    case Kind::Format: return "kubernetes.NamedFormat";
    case Kind::Error: return "error";
  }
  return "dyn";
}

namespace {

bool is_number(const Value& v) {
  return v.kind() == Value::Kind::Int || v.kind() == Value::Kind::Uint || v.kind() == Value::Kind::Double;
}

// Numbers of different types compare by value (CEL's heterogeneous equality).
bool numbers_equal(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.kind() == K::Int && b.kind() == K::Int) return a.as_int() == b.as_int();
  if (a.kind() == K::Uint && b.kind() == K::Uint) return a.as_uint() == b.as_uint();
  if (a.kind() == K::Int && b.kind() == K::Uint) return a.as_int() >= 0 && static_cast<std::uint64_t>(a.as_int()) == b.as_uint();
  if (a.kind() == K::Uint && b.kind() == K::Int) return numbers_equal(b, a);
  const auto as_double = [](const Value& v) {
    if (v.kind() == K::Int) return static_cast<double>(v.as_int());
    if (v.kind() == K::Uint) return static_cast<double>(v.as_uint());
    return v.as_double();
  };
  return as_double(a) == as_double(b);
}

}  // namespace

bool equal(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (is_number(a) && is_number(b)) return numbers_equal(a, b);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case K::Null: return true;
    case K::Bool: return a.as_bool() == b.as_bool();
    case K::String:
    case K::Format: return a.text() == b.text();
    case K::List: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!equal(a.item(i), b.item(i))) return false;
      }
      return true;
    }
    case K::Map: {
      if (a.size() != b.size()) return false;
      for (const Value& key : a.keys()) {
        bool found = false;
        const Value other = b.get(key, &found);
        if (!found) return false;
        bool here = false;
        if (!equal(a.get(key, &here), other)) return false;
      }
      return true;
    }
    case K::Optional:
      if (a.has_value() != b.has_value()) return false;
      return !a.has_value() || equal(a.inner(), b.inner());
    default:
      return false;
  }
}

}  // namespace mkq::sandbox::cel
