// The static types of a CEL expression over a structural schema, as
// kube-apiserver's CEL environment declares them: objects with their
// properties, maps (additionalProperties), lists, the scalars; int-or-string
// and preserve-unknown-fields values are dyn. The checker refuses undeclared
// variables and functions, unknown fields of objects and calls that match no
// overload -- with cel-go's messages -- so that a rule the evaluator would not
// understand never reaches it.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "base/result.h"
#include "sandbox/cel/ast.h"

namespace mkq::sandbox::cel {

struct Type {
  enum class Kind { Dyn, Null, Bool, Int, Uint, Double, String, List, Map, Object, Optional, Format };
  Kind kind = Kind::Dyn;
  const nlohmann::json* schema = nullptr;  // Object: the schema whose properties it has
  bool root = false;                       // Object: a resource root (metadata is ObjectMeta's name/generateName)
  std::shared_ptr<const Type> elem;        // List item, Map value, Optional inner

  static Type of(Kind kind) { return Type{kind, nullptr, false, nullptr}; }
  static Type list_of(Type item);
  static Type map_of(Type value);
  static Type optional_of(Type inner);
  std::string name() const;  // "int", "list(string)", "map(string, int)", "object"
};

// The CEL type of values at `schema`.
Type type_of_schema(const nlohmann::json& schema, bool root);

// The type of `expr` with `self` (and oldSelf) of type `self_type`; sets
// *uses_old_self when oldSelf is read. Errors carry cel-go's located message.
base::Result<Type> check(const Expr& expr, const std::string& text, const Type& self_type, bool* uses_old_self);

}  // namespace mkq::sandbox::cel
