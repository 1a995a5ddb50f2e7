// The few functions of the AST: string literal values and operator facts.
#include "compiler/syntax/ast.h"

namespace mkq::syntax {

bool StringExpr::is_literal() const {
  for (const auto& part : parts) {
    if (part.expr) return false;
  }
  return true;
}

std::string StringExpr::literal_value() const {
  std::string value = literal;
  for (const auto& part : parts) {
    if (!part.expr) value += part.literal;
  }
  return value;
}

const char* spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Lt: return "<";
    case BinaryOp::Le: return "<=";
    case BinaryOp::Gt: return ">";
    case BinaryOp::Ge: return ">=";
    case BinaryOp::Eq: return "==";
    case BinaryOp::Ne: return "!=";
    case BinaryOp::In: return "in";
    case BinaryOp::And: return "&&";
    case BinaryOp::Or: return "||";
  }
  return "?";
}

int precedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Mod: return 7;
    case BinaryOp::Add:
    case BinaryOp::Sub: return 6;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge: return 5;
    case BinaryOp::Eq:
    case BinaryOp::Ne: return 4;
    case BinaryOp::In: return 3;
    case BinaryOp::And: return 2;
    case BinaryOp::Or: return 1;
  }
  return 0;
}

}  // namespace mkq::syntax
