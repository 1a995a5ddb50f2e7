#include "lsp/walk.h"

namespace mkq::lsp {

std::vector<const syntax::Expr*> children(const syntax::Expr& expr) {
  std::vector<const syntax::Expr*> found;
  const auto add = [&found](const syntax::ExprPtr& child) {
    if (child) found.push_back(child.get());
  };
  switch (expr.kind) {
    case syntax::ExprKind::String:
      for (const auto& part : static_cast<const syntax::StringExpr&>(expr).parts) add(part.expr);
      break;
    case syntax::ExprKind::List:
      for (const auto& item : static_cast<const syntax::ListExpr&>(expr).items) add(item);
      break;
    case syntax::ExprKind::Map:
      for (const auto& entry : static_cast<const syntax::MapExpr&>(expr).entries) add(entry.value);
      break;
    case syntax::ExprKind::Comprehension: {
      const auto& comp = static_cast<const syntax::ComprehensionExpr&>(expr);
      add(comp.element);
      add(comp.iterable);
      add(comp.condition);
      break;
    }
    case syntax::ExprKind::Field:
      add(static_cast<const syntax::FieldExpr&>(expr).object);
      break;
    case syntax::ExprKind::Index: {
      const auto& index = static_cast<const syntax::IndexExpr&>(expr);
      add(index.object);
      add(index.index);
      break;
    }
    case syntax::ExprKind::Call: {
      const auto& call = static_cast<const syntax::CallExpr&>(expr);
      add(call.callee);
      for (const auto& arg : call.args) add(arg.value);
      break;
    }
    case syntax::ExprKind::Unary:
      add(static_cast<const syntax::UnaryExpr&>(expr).operand);
      break;
    case syntax::ExprKind::Binary: {
      const auto& binary = static_cast<const syntax::BinaryExpr&>(expr);
      add(binary.left);
      add(binary.right);
      break;
    }
    case syntax::ExprKind::Conditional: {
      const auto& conditional = static_cast<const syntax::ConditionalExpr&>(expr);
      add(conditional.condition);
      add(conditional.then_value);
      add(conditional.else_value);
      break;
    }
    case syntax::ExprKind::Paren:
      add(static_cast<const syntax::ParenExpr&>(expr).inner);
      break;
    default:
      break;
  }
  return found;
}

std::vector<const std::vector<syntax::StmtPtr>*> bodies(const syntax::Stmt& stmt) {
  std::vector<const std::vector<syntax::StmtPtr>*> found;
  switch (stmt.kind) {
    case syntax::StmtKind::Block:
      found.push_back(&static_cast<const syntax::BlockStmt&>(stmt).body.stmts);
      break;
    case syntax::StmtKind::Template:
      found.push_back(&static_cast<const syntax::TemplateStmt&>(stmt).body.stmts);
      break;
    case syntax::StmtKind::For:
      found.push_back(&static_cast<const syntax::ForStmt&>(stmt).body.stmts);
      break;
    case syntax::StmtKind::If:
      for (const auto* branch = &static_cast<const syntax::IfStmt&>(stmt); branch != nullptr;
           branch = branch->else_if.get()) {
        found.push_back(&branch->then_body.stmts);
        if (branch->else_body) found.push_back(&branch->else_body->stmts);
      }
      break;
    default:
      break;
  }
  return found;
}

}  // namespace mkq::lsp
