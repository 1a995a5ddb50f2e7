// Parse-tree statements -> AST statements.
//
// The tree may come from error recovery: any child can be missing. A missing
// name becomes an empty Identifier, a missing expression an ErrorExpr, a
// missing body an empty Body; the errors themselves were already reported.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/syntax/codes.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax::detail {

namespace {

using P = MkqParser;

template <typename T>
T* at(const std::vector<T*>& items, std::size_t i) {
  return i < items.size() ? items[i] : nullptr;
}

}  // namespace

bool Transformer::Level::exceeded(const SourceRange& where) {
  if (t_.depth_ <= kMaxTreeDepth) return false;
  if (!t_.too_deep_) {
    t_.too_deep_ = true;
    auto& d = t_.diagnostics_.error(codes::kNestingTooDeep, where,
                                    fmt::format("expression nests deeper than {} levels", kMaxTreeDepth));
    d.notes.push_back({"a chain like a + b + c + ... counts one level per operator; split it with 'let'", std::nullopt});
  }
  return true;
}

std::vector<StmtPtr> Transformer::file(P::FileContext* context) {
  std::vector<StmtPtr> stmts;
  if (context == nullptr) return stmts;
  for (auto* child : context->stmt()) {
    if (auto s = stmt(child)) stmts.push_back(std::move(s));
  }
  return stmts;
}

StmtPtr Transformer::stmt(P::StmtContext* context) {
  if (context == nullptr) return nullptr;
  if (auto* c = context->importStmt()) return import_stmt(c);
  if (auto* c = context->letStmt()) return let_stmt(c);
  if (auto* c = context->templateStmt()) return template_stmt(c);
  if (auto* c = context->forStmt()) return for_stmt(c);
  if (auto* c = context->ifStmt()) return if_stmt(c);
  if (auto* c = context->assertStmt()) return assert_stmt(c);
  if (auto* c = context->useStmt()) return use_stmt(c);
  if (auto* c = context->attribute()) return attribute(c);
  if (auto* c = context->block()) return block(c);
  return nullptr;  // a separator, or nothing the parser could recognise
}

StmtPtr Transformer::import_stmt(P::ImportStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<ImportStmt>(range);
  s->path = string_lit(context->stringLit(), range);
  if (context->AS() != nullptr && context->ident() != nullptr) s->alias = ident(context->ident(), range);
  return s;
}

StmtPtr Transformer::let_stmt(P::LetStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<LetStmt>(range);
  s->name = ident(context->ident(), range);
  s->value = expr(context->expr(), range);
  return s;
}

StmtPtr Transformer::template_stmt(P::TemplateStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<TemplateStmt>(range);
  s->name = ident(context->ident(), range);
  if (auto* params = context->params()) {
    for (auto* p : params->param()) {
      Param param;
      param.name = ident(p->ident(), range);
      if (p->expr() != nullptr) param.default_value = expr(p->expr(), range);
      s->params.push_back(std::move(param));
    }
  }
  s->body = body(context->body(), range);
  return s;
}

StmtPtr Transformer::for_stmt(P::ForStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<ForStmt>(range);
  const auto names = context->ident();
  s->var = ident(at(names, 0), range);
  if (names.size() > 1) s->second_var = ident(names[1], range);
  s->iterable = expr(context->expr(), range);
  s->body = body(context->body(), range);
  return s;
}

std::unique_ptr<IfStmt> Transformer::if_stmt(P::IfStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  Level level(*this);  // `else if` chains nest in the AST
  if (level.exceeded(piece_.token_range(context->start, range))) return nullptr;
  auto s = std::make_unique<IfStmt>(range);
  s->condition = expr(context->expr(), range);
  const auto bodies = context->body();
  s->then_body = body(at(bodies, 0), range);
  if (auto* next = context->ifStmt()) {
    s->else_if = if_stmt(next);
  } else if (bodies.size() > 1) {
    s->else_body = body(bodies[1], range);
  }
  return s;
}

StmtPtr Transformer::assert_stmt(P::AssertStmtContext* context) {
  SourceRange range = piece_.context_range(context);
  // The rule also holds the ','s after the message, which separate statements:
  // the assert ends with its message.
  if (context->COMMA().size() > 1 && context->expr().size() > 1) {
    const SourceRange message = piece_.context_range(context->expr(1));
    range = piece_.range(range.begin.offset, std::max(range.begin.offset, message.end.offset));
  }
  auto s = std::make_unique<AssertStmt>(range);
  const auto exprs = context->expr();
  s->condition = expr(at(exprs, 0), range);
  if (exprs.size() > 1) s->message = expr(exprs[1], range);
  return s;
}

StmtPtr Transformer::use_stmt(P::UseStmtContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<UseStmt>(range);
  s->name_range = range;
  if (auto* name = context->qualifiedName()) {
    s->name_range = piece_.context_range(name);
    for (auto* part : name->ident()) s->name.push_back(ident(part, s->name_range));
  }
  if (auto* list = context->args()) s->args = args(list);
  return s;
}

StmtPtr Transformer::attribute(P::AttributeContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<AttributeStmt>(range);
  if (context->ident() != nullptr) {
    s->name = ident(context->ident(), range);
  } else if (is_real(context->STRING())) {
    // "nvidia.com/gpu" = 8: the name is the string's value; its range includes the quotes.
    const antlr4::Token* token = context->STRING()->getSymbol();
    s->name = Identifier{quoted_name(token, "a quoted field name"), piece_.token_range(token, range)};
  } else {
    s->name = Identifier{"", range};
  }
  s->value = expr(context->expr(), range);
  return s;
}

StmtPtr Transformer::block(P::BlockContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto s = std::make_unique<BlockStmt>(range);
  if (auto* kind = context->blockKind(); kind != nullptr && is_real(kind->start)) {
    s->kind = Identifier{std::string(piece_.token_text(kind->start)), piece_.token_range(kind->start, range)};
  } else {
    s->kind = Identifier{"", range};
  }
  const std::size_t in_index = is_real(context->IN()) ? context->IN()->getSymbol()->getTokenIndex() : 0;
  for (auto* label : context->stringLit()) {
    if (in_index != 0 && label->start->getTokenIndex() > in_index) {
      s->in_label = string_lit(label, range);
    } else {
      s->labels.push_back(string_lit(label, range));
    }
  }
  s->body = body(context->body(), range);
  return s;
}

Body Transformer::body(P::BodyContext* context, const SourceRange& fallback) {
  Body b;
  if (context == nullptr) {
    b.range = piece_.range(fallback.end.offset, fallback.end.offset);
    return b;
  }
  b.range = piece_.context_range(context);
  Level level(*this);
  if (level.exceeded(piece_.token_range(context->start, b.range))) return b;
  for (auto* child : context->stmt()) {
    if (auto s = stmt(child)) b.stmts.push_back(std::move(s));
  }
  return b;
}

}  // namespace mkq::syntax::detail
