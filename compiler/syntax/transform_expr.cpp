// Parse-tree expressions -> AST expressions.
//
// Precedence and associativity come from the grammar (ANTLR's left-recursive
// `expr` rule, loosest alternative last); this file only copies the shape.
// Strings were decoded before the parse (parse.cpp) and are moved in here.
#include "compiler/syntax/codes.h"
#include "compiler/syntax/literals.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax::detail {

namespace {

using P = MkqParser;

template <typename T>
T* at(const std::vector<T*>& items, std::size_t i) {
  return i < items.size() ? items[i] : nullptr;
}

std::optional<BinaryOp> binary_op(const antlr4::Token* token) {
  if (token == nullptr) return std::nullopt;
  switch (token->getType()) {
    case P::STAR: return BinaryOp::Mul;
    case P::SLASH: return BinaryOp::Div;
    case P::PERCENT: return BinaryOp::Mod;
    case P::PLUS: return BinaryOp::Add;
    case P::MINUS: return BinaryOp::Sub;
    case P::LT: return BinaryOp::Lt;
    case P::LE: return BinaryOp::Le;
    case P::GT: return BinaryOp::Gt;
    case P::GE: return BinaryOp::Ge;
    case P::EQ: return BinaryOp::Eq;
    case P::NE: return BinaryOp::Ne;
    case P::IN: return BinaryOp::In;
    case P::AND: return BinaryOp::And;
    case P::OR: return BinaryOp::Or;
    default: return std::nullopt;
  }
}

}  // namespace

ExprPtr Transformer::error_expr(const SourceRange& range) const { return std::make_unique<ErrorExpr>(range); }

ExprPtr Transformer::expression(P::ExprContext* context) { return expr(context, piece_.eof_range()); }

ExprPtr Transformer::expr(P::ExprContext* context, const SourceRange& fallback) {
  if (context == nullptr) return error_expr(fallback);
  const SourceRange range = piece_.context_range(context);
  Level level(*this);
  if (level.exceeded(piece_.token_range(context->start, range))) return error_expr(range);

  if (auto* c = dynamic_cast<P::PrimaryExprContext*>(context)) return primary(c->primary(), range);
  if (auto* c = dynamic_cast<P::FieldExprContext*>(context)) {
    auto e = std::make_unique<FieldExpr>(range);
    e->object = expr(c->expr(), range);
    e->field = ident(c->ident(), range);
    return e;
  }
  if (auto* c = dynamic_cast<P::IndexExprContext*>(context)) {
    const auto operands = c->expr();
    auto e = std::make_unique<IndexExpr>(range);
    e->object = expr(at(operands, 0), range);
    e->index = expr(at(operands, 1), range);
    return e;
  }
  if (auto* c = dynamic_cast<P::CallExprContext*>(context)) {
    auto e = std::make_unique<CallExpr>(range);
    e->callee = expr(c->expr(), range);
    if (auto* list = c->args()) e->args = args(list);
    return e;
  }
  if (auto* c = dynamic_cast<P::UnaryExprContext*>(context)) {
    auto e = std::make_unique<UnaryExpr>(range);
    e->op = c->op != nullptr && c->op->getType() == P::NOT ? UnaryOp::Not : UnaryOp::Negate;
    e->operand = expr(c->expr(), range);
    return e;
  }
  if (auto* c = dynamic_cast<P::BinaryExprContext*>(context)) {
    const auto op = binary_op(c->op);
    if (!op) return error_expr(range);
    const auto operands = c->expr();
    auto e = std::make_unique<BinaryExpr>(range);
    e->op = *op;
    e->op_range = piece_.token_range(c->op, range);
    e->left = expr(at(operands, 0), range);
    e->right = expr(at(operands, 1), range);
    return e;
  }
  if (auto* c = dynamic_cast<P::ConditionalExprContext*>(context)) {
    const auto operands = c->expr();
    auto e = std::make_unique<ConditionalExpr>(range);
    e->condition = expr(at(operands, 0), range);
    e->then_value = expr(at(operands, 1), range);
    e->else_value = expr(at(operands, 2), range);
    return e;
  }
  return error_expr(range);  // an alternative error recovery could not start
}

ExprPtr Transformer::primary(P::PrimaryContext* context, const SourceRange& fallback) {
  if (context == nullptr) return error_expr(fallback);
  const SourceRange range = piece_.context_range(context);
  const auto text = [&]() { return std::string(piece_.token_text(context->start)); };

  if (dynamic_cast<P::NumberLitContext*>(context) != nullptr) return std::make_unique<NumberExpr>(range, text());
  if (dynamic_cast<P::DurationLitContext*>(context) != nullptr) {
    // A duration with repeated or misordered units was reported by the token scan.
    if (check_duration(text())) return error_expr(range);
    return std::make_unique<DurationExpr>(range, text());
  }
  if (auto* c = dynamic_cast<P::StringExprContext*>(context)) return string_lit(c->stringLit(), range);
  if (dynamic_cast<P::TrueLitContext*>(context) != nullptr) return std::make_unique<BoolExpr>(range, true);
  if (dynamic_cast<P::FalseLitContext*>(context) != nullptr) return std::make_unique<BoolExpr>(range, false);
  if (dynamic_cast<P::NullLitContext*>(context) != nullptr) return std::make_unique<NullExpr>(range);
  if (dynamic_cast<P::AllLitContext*>(context) != nullptr) return std::make_unique<AllExpr>(range);
  if (auto* c = dynamic_cast<P::NameRefContext*>(context)) {
    return std::make_unique<NameExpr>(range, ident(c->ident(), range).name);
  }
  if (auto* c = dynamic_cast<P::ParenExprContext*>(context)) {
    auto e = std::make_unique<ParenExpr>(range);
    e->inner = expr(c->expr(), range);
    return e;
  }
  if (auto* c = dynamic_cast<P::ListLitContext*>(context)) {
    return c->comprehensionTail() != nullptr ? comprehension(c) : list(c);
  }
  if (auto* c = dynamic_cast<P::MapLitContext*>(context)) return map(c);
  return error_expr(range);  // BAD_NUMBER (reported by the token scan) or nothing recognisable
}

ExprPtr Transformer::list(P::ListLitContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto e = std::make_unique<ListExpr>(range);
  for (auto* item : context->expr()) e->items.push_back(expr(item, range));
  return e;
}

ExprPtr Transformer::comprehension(P::ListLitContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto e = std::make_unique<ComprehensionExpr>(range);
  e->element = expr(at(context->expr(), 0), range);
  P::ComprehensionTailContext* tail = context->comprehensionTail();
  const auto names = tail->ident();
  e->var = ident(at(names, 0), range);
  if (names.size() > 1) e->second_var = ident(names[1], range);
  const auto operands = tail->expr();
  e->iterable = expr(at(operands, 0), range);
  if (tail->IF() != nullptr) e->condition = expr(at(operands, 1), range);
  return e;
}

ExprPtr Transformer::map(P::MapLitContext* context) {
  const SourceRange range = piece_.context_range(context);
  auto e = std::make_unique<MapExpr>(range);
  for (auto* entry : context->mapEntry()) {
    MapEntry item;
    item.key_range = piece_.context_range(entry);
    if (auto* key = entry->stringLit(); key != nullptr && is_real(key->start)) {
      item.key_is_string = true;
      item.key_range = piece_.token_range(key->start, item.key_range);
      item.key = quoted_name(key->start, "a map key");
    } else if (auto* name = entry->ident()) {
      const Identifier id = ident(name, item.key_range);
      item.key = id.name;
      item.key_range = id.range;
    }
    item.value = expr(entry->expr(), range);
    e->entries.push_back(std::move(item));
  }
  return e;
}

std::vector<Argument> Transformer::args(P::ArgsContext* context) {
  std::vector<Argument> result;
  const SourceRange range = piece_.context_range(context);
  for (auto* a : context->arg()) {
    Argument argument;
    if (a->ident() != nullptr && a->ASSIGN() != nullptr) argument.name = ident(a->ident(), range);
    argument.value = expr(a->expr(), range);
    result.push_back(std::move(argument));
  }
  return result;
}

std::unique_ptr<StringExpr> Transformer::string_token(const antlr4::Token* token) {
  const std::size_t index = token->getTokenIndex();
  if (auto decoded = strings_.take(index)) return decoded;
  // An unterminated (or repaired) string, already reported: its raw text.
  const SourceRange range = piece_.token_range(token);
  auto s = std::make_unique<StringExpr>(range);
  std::string_view raw = piece_.token_text(token);
  if (!raw.empty() && raw.front() == '"') raw.remove_prefix(1);
  if (token->getType() == P::STRING && !raw.empty() && raw.back() == '"') raw.remove_suffix(1);
  s->literal = std::string(raw);
  return s;
}

std::unique_ptr<StringExpr> Transformer::string_lit(P::StringLitContext* context, const SourceRange& fallback) {
  if (context == nullptr || !is_real(context->start) ||
      (context->start->getType() != P::STRING && context->start->getType() != P::UNTERMINATED_STRING)) {
    return std::make_unique<StringExpr>(fallback);
  }
  return string_token(context->start);
}

std::string Transformer::quoted_name(const antlr4::Token* token, const char* what) {
  const std::size_t index = token->getTokenIndex();
  const StringExpr* decoded = strings_.find(index);
  if (decoded == nullptr) {
    std::string_view raw = piece_.token_text(token);
    if (!raw.empty() && raw.front() == '"') raw.remove_prefix(1);
    if (!raw.empty() && raw.back() == '"') raw.remove_suffix(1);
    return std::string(raw);
  }
  const StringExpr& s = *decoded;
  if (!s.is_literal()) {
    auto& d = diagnostics_.error(codes::kInterpolatedKey, piece_.token_range(token),
                                 std::string(what) + " cannot contain '${...}'");
    d.notes.push_back({"a quoted name is written literally", std::nullopt});
  }
  return s.literal_value();
}

Identifier Transformer::ident(P::IdentContext* context, const SourceRange& fallback) {
  if (context == nullptr || context->exception != nullptr || !is_real(context->start) ||
      !is_ident_type(context->start->getType())) {
    return Identifier{"", fallback};
  }
  return Identifier{std::string(piece_.token_text(context->start)), piece_.token_range(context->start, fallback)};
}

}  // namespace mkq::syntax::detail
