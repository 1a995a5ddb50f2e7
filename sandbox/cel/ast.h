// The syntax tree of one CEL expression. Operators are calls with cel-go's
// names ("_&&_", "_==_", "!_", "_[_]", "@in", "_?_:_"), so the checker and the
// evaluator treat every function the same way; has() and the comprehension
// macros (all, exists, exists_one, filter, map) keep their own node kinds
// because they bind a variable or do not evaluate their argument.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sandbox/cel/value.h"

namespace mkq::sandbox::cel {

struct Expr {
  enum class Kind {
    Literal,  // value
    Ident,    // name
    Select,   // args[0].name
    Call,     // name(args...), or args[0].name(args[1...]) when member
    List,     // [args...]
    Map,      // {args[0]: args[1], ...}
    Has,      // has(args[0].name)
    Macro,    // args[0].name(var, args[1] [, args[2]]): all, exists, exists_one, filter, map
  };

  Kind kind = Kind::Literal;
  int offset = 0;  // byte offset of the node's token in the expression text
  Value value;
  std::string name;
  std::string var;  // Macro: the iteration variable
  bool member = false;
  std::vector<std::unique_ptr<Expr>> args;
};

using ExprPtr = std::unique_ptr<Expr>;

}  // namespace mkq::sandbox::cel
