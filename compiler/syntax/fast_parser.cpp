// The parser of the fast path: tokens of a valid file straight to the AST the
// Transformer would build from ANTLR's tree — same nodes, same ranges.
//
// It follows Mkq.g4 rule by rule. Every decision is made on the next token or
// two, where the grammar leaves exactly one viable alternative; `expr` is the
// precedence climbing ANTLR generates for its left-recursive rule (the
// precedence levels and operand levels below are those of the generated
// MkqParser::expr). The grammar needs no longer look-ahead anywhere (a ','
// after an assert's condition always starts the message), so the parser never
// imitates a decision of ANTLR's prediction.
//
// On anything else (a syntax error, an interpolated quoted name (E1015), a
// tree the Transformer finds too deep (E1010)) the parser gives up: it reports
// nothing and has taken nothing, and the ANTLR path runs.
#include <algorithm>

#include "MkqLexer.h"
#include "compiler/syntax/fast_path.h"
#include "compiler/syntax/literals.h"
#include "compiler/syntax/parser_internal.h"

namespace mkq::syntax::detail {

namespace {

using grammar::MkqLexer;
using L = MkqLexer;

// Precedence of a binary operator in MkqParser::expr (its precpred level);
// 0 for any other token. The right operand is parsed at one level higher.
int binary_precedence(std::size_t t) {
  switch (t) {
    case L::STAR:
    case L::SLASH:
    case L::PERCENT:
      return 8;
    case L::PLUS:
    case L::MINUS:
      return 7;
    case L::LT:
    case L::LE:
    case L::GT:
    case L::GE:
      return 6;
    case L::EQ:
    case L::NE:
      return 5;
    case L::IN:
      return 4;
    case L::AND:
      return 3;
    case L::OR:
      return 2;
    default:
      return 0;
  }
}

BinaryOp binary_op(std::size_t t) {
  switch (t) {
    case L::STAR:
      return BinaryOp::Mul;
    case L::SLASH:
      return BinaryOp::Div;
    case L::PERCENT:
      return BinaryOp::Mod;
    case L::PLUS:
      return BinaryOp::Add;
    case L::MINUS:
      return BinaryOp::Sub;
    case L::LT:
      return BinaryOp::Lt;
    case L::LE:
      return BinaryOp::Le;
    case L::GT:
      return BinaryOp::Gt;
    case L::GE:
      return BinaryOp::Ge;
    case L::EQ:
      return BinaryOp::Eq;
    case L::NE:
      return BinaryOp::Ne;
    case L::IN:
      return BinaryOp::In;
    case L::AND:
      return BinaryOp::And;
    default:
      return BinaryOp::Or;
  }
}

// The levels of the postfix alternatives and of the operand of a unary operator.
constexpr int kFieldLevel = 12;
constexpr int kIndexLevel = 11;
constexpr int kCallLevel = 10;
constexpr int kUnaryOperandLevel = 9;
constexpr int kConditionalLevel = 1;

}  // namespace

template <typename ParseItem>
void FastParser::separated(std::size_t close, ParseItem parse_item) {
  while (true) {
    parse_item();
    if (type() != L::COMMA) return;
    take();
    if (type() == close) return;
  }
}

// ------------------------------------------------------------------ StringTable

void StringTable::add(std::size_t index, std::unique_ptr<StringExpr> string) {
  entries_.emplace_back(static_cast<std::uint32_t>(index), std::move(string));
}

void StringTable::finish() {
  std::sort(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::vector<std::pair<std::uint32_t, std::unique_ptr<StringExpr>>>::const_iterator StringTable::at(
    std::size_t index) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), index,
                                   [](const auto& entry, std::size_t i) { return entry.first < i; });
  return it != entries_.end() && it->first == index ? it : entries_.end();
}

const StringExpr* StringTable::find(std::size_t index) const {
  const auto it = at(index);
  return it == entries_.end() ? nullptr : it->second.get();
}

std::unique_ptr<StringExpr> StringTable::take(std::size_t index) {
  const auto it = at(index);
  if (it == entries_.end()) return nullptr;
  return std::move(entries_[static_cast<std::size_t>(it - entries_.cbegin())].second);
}

// ------------------------------------------------------------------ FastParser

FastParser::FastParser(const TextPiece& piece, const std::vector<LexToken>& tokens,
                       const StringTable& strings, int base_depth)
    : piece_(piece), tokens_(tokens), strings_(strings), limit_(Transformer::kMaxTreeDepth - base_depth) {
  visible_.reserve(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].hidden()) visible_.push_back(static_cast<std::uint32_t>(i));
  }
}

std::optional<std::vector<StmtPtr>> FastParser::file() {
  try {
    std::vector<StmtPtr> stmts;
    while (type() != kEof) {
      int height = 0;
      if (auto s = stmt(height)) stmts.push_back(std::move(s));
    }
    return stmts;
  } catch (const GiveUp&) {
    pending_strings_.clear();
    return std::nullopt;
  }
}

std::optional<std::vector<StmtPtr>> FastParser::file(DeferredBlocks& deferred) {
  try {
    std::vector<StmtPtr> stmts;
    while (type() != kEof) {
      int height = 0;
      const bool block_next = is_ident_type(type()) && (type(1) == L::STRING || type(1) == L::IN || type(1) == L::LBRACE);
      bool skipped = false;
      StmtPtr s = block_next ? deferred_block(deferred, height, skipped) : stmt(height);
      if (!s) continue;
      if (skipped) deferred.indices_.push_back(static_cast<std::uint32_t>(stmts.size()));
      stmts.push_back(std::move(s));
    }
    return stmts;
  } catch (const GiveUp&) {
    pending_strings_.clear();
    deferred.indices_.clear();
    deferred.nested_.clear();
    return std::nullopt;
  }
}

ExprPtr FastParser::expression() {
  try {
    int height = 0;
    ExprPtr e = expr(0, height);
    if (type() != kEof) throw GiveUp{};
    return e;
  } catch (const GiveUp&) {
    pending_strings_.clear();
    return nullptr;
  }
}

void FastParser::commit(StringTable& strings) {
  for (auto& [node, index] : pending_strings_) {
    std::unique_ptr<StringExpr> decoded = strings.take(index);
    node->range = decoded->range;
    node->literal = std::move(decoded->literal);
    node->parts = std::move(decoded->parts);
  }
  pending_strings_.clear();
}

// ------------------------------------------------------------------ tokens

const LexToken& FastParser::peek(std::size_t ahead) const {
  return tokens_[visible_[std::min(next_ + ahead, visible_.size() - 1)]];
}

const LexToken& FastParser::take() {
  const LexToken& token = peek();
  if (next_ + 1 < visible_.size()) ++next_;  // never past EOF
  return token;
}

const LexToken& FastParser::expect(std::size_t token_type) {
  if (type() != token_type) throw GiveUp{};
  return take();
}

const LexToken& FastParser::previous() const { return tokens_[visible_[next_ - 1]]; }

SourceRange FastParser::span(const LexToken& first, const LexToken& last) const {
  return piece_.range(first.begin(), last.end());
}

SourceRange FastParser::token_range(const LexToken& token) const {
  return piece_.range(token.begin(), token.end());
}

std::string FastParser::text(const LexToken& token) const {
  return std::string(piece_.file_text().substr(token.begin(), token.end() - token.begin()));
}

int FastParser::level(int below) const {
  const int height = below + 1;
  if (height > limit_) throw GiveUp{};  // the Transformer reports E1010
  return height;
}

Identifier FastParser::ident() {
  if (!is_ident_type(type())) throw GiveUp{};
  const LexToken& token = take();
  return Identifier{text(token), token_range(token)};
}

std::string_view FastParser::string_inner(const LexToken& token) const {
  return piece_.file_text().substr(token.begin() + 1, token.end() - token.begin() - 2);
}

std::unique_ptr<StringExpr> FastParser::string_lit() {
  const LexToken& token = expect(L::STRING);
  auto node = std::make_unique<StringExpr>(token_range(token));
  const std::string_view inner = string_inner(token);
  if (is_plain_string(inner)) {
    node->literal = decode_plain_string(inner);
    return node;
  }
  const std::size_t index = static_cast<std::size_t>(&token - tokens_.data());
  if (strings_.find(index) == nullptr) throw GiveUp{};
  pending_strings_.emplace_back(node.get(), index);
  return node;
}

std::string FastParser::quoted_name(const LexToken& token) {
  const std::string_view inner = string_inner(token);
  if (is_plain_string(inner)) return decode_plain_string(inner);
  const StringExpr* s = strings_.find(static_cast<std::size_t>(&token - tokens_.data()));
  if (s == nullptr || !s->is_literal()) throw GiveUp{};  // E1015
  return s->literal_value();
}

// ------------------------------------------------------------------ statements

StmtPtr FastParser::stmt(int& height) {
  height = 0;
  switch (type()) {
    case L::SEP:
    case L::COMMA:
      take();
      return nullptr;
    case L::IMPORT:
      return import_stmt();
    case L::LET:
      return let_stmt(height);
    case L::TEMPLATE:
      return template_stmt(height);
    case L::FOR:
      return for_stmt(height);
    case L::IF:
      return if_stmt(height);
    case L::ASSERT:
      return assert_stmt(height);
    case L::USE:
      return use_stmt(height);
    case L::STRING:
      return attribute(height);
    default:
      break;
  }
  if (!is_ident_type(type())) throw GiveUp{};
  switch (type(1)) {
    case L::ASSIGN:
      return attribute(height);
    case L::STRING:
    case L::IN:
    case L::LBRACE:
      return block(height);
    default:
      throw GiveUp{};
  }
}

StmtPtr FastParser::import_stmt() {
  const LexToken& first = take();
  auto path = string_lit();
  std::optional<Identifier> alias;
  if (type() == L::AS) {
    take();
    alias = ident();
  }
  auto s = std::make_unique<ImportStmt>(span(first, previous()));
  s->path = std::move(path);
  s->alias = std::move(alias);
  return s;
}

StmtPtr FastParser::let_stmt(int& height) {
  const LexToken& first = take();
  Identifier name = ident();
  expect(L::ASSIGN);
  ExprPtr value = expr(0, height);
  auto s = std::make_unique<LetStmt>(span(first, previous()));
  s->name = std::move(name);
  s->value = std::move(value);
  return s;
}

StmtPtr FastParser::template_stmt(int& height) {
  const LexToken& first = take();
  Identifier name = ident();
  expect(L::LPAREN);
  std::vector<Param> params;
  if (type() != L::RPAREN) {
    separated(L::RPAREN, [&] {
      Param param;
      param.name = ident();
      if (type() == L::ASSIGN) {
        take();
        int h = 0;
        param.default_value = expr(0, h);
        height = std::max(height, h);
      }
      params.push_back(std::move(param));
    });
  }
  expect(L::RPAREN);
  int body_height = 0;
  Body b = body(body_height);
  height = std::max(height, body_height);
  auto s = std::make_unique<TemplateStmt>(span(first, previous()));
  s->name = std::move(name);
  s->params = std::move(params);
  s->body = std::move(b);
  return s;
}

StmtPtr FastParser::for_stmt(int& height) {
  const LexToken& first = take();
  Identifier var = ident();
  std::optional<Identifier> second;
  if (type() == L::COMMA) {
    take();
    second = ident();
  }
  expect(L::IN);
  int iterable_height = 0;
  ExprPtr iterable = expr(0, iterable_height);
  int body_height = 0;
  Body b = body(body_height);
  height = std::max(iterable_height, body_height);
  auto s = std::make_unique<ForStmt>(span(first, previous()));
  s->var = std::move(var);
  s->second_var = std::move(second);
  s->iterable = std::move(iterable);
  s->body = std::move(b);
  return s;
}

std::unique_ptr<IfStmt> FastParser::if_stmt(int& height) {
  const LexToken& first = take();
  int below = 0;
  ExprPtr condition = expr(0, below);
  int h = 0;
  Body then_body = body(h);
  below = std::max(below, h);
  std::unique_ptr<IfStmt> else_if;
  std::optional<Body> else_body;
  if (type() == L::ELSE) {
    take();
    if (type() == L::IF) {
      else_if = if_stmt(h);
    } else {
      else_body = body(h);
    }
    below = std::max(below, h);
  }
  height = level(below);  // `else if` chains nest in the AST
  auto s = std::make_unique<IfStmt>(span(first, previous()));
  s->condition = std::move(condition);
  s->then_body = std::move(then_body);
  s->else_if = std::move(else_if);
  s->else_body = std::move(else_body);
  return s;
}

// ASSERT expr (COMMA expr COMMA*)? : a ',' after the condition always starts
// the message; the ','s after the message are left to file() and body() as
// separators.
StmtPtr FastParser::assert_stmt(int& height) {
  const LexToken& first = take();
  ExprPtr condition = expr(0, height);
  ExprPtr message;
  if (type() == L::COMMA) {
    take();
    int h = 0;
    message = expr(0, h);
    height = std::max(height, h);
  }
  auto s = std::make_unique<AssertStmt>(span(first, previous()));
  s->condition = std::move(condition);
  s->message = std::move(message);
  return s;
}

StmtPtr FastParser::use_stmt(int& height) {
  const LexToken& first = take();
  std::vector<Identifier> name;
  const LexToken& name_first = peek();
  name.push_back(ident());
  while (type() == L::DOT) {
    take();
    name.push_back(ident());
  }
  const SourceRange name_range = span(name_first, previous());
  expect(L::LPAREN);
  std::vector<Argument> arguments;
  if (type() != L::RPAREN) arguments = args(height);
  expect(L::RPAREN);
  auto s = std::make_unique<UseStmt>(span(first, previous()));
  s->name = std::move(name);
  s->name_range = name_range;
  s->args = std::move(arguments);
  return s;
}

StmtPtr FastParser::attribute(int& height) {
  const LexToken& first = peek();
  Identifier name;
  if (type() == L::STRING) {
    // "nvidia.com/gpu" = 8: the name is the string's value; its range includes the quotes.
    const LexToken& token = take();
    name = Identifier{quoted_name(token), token_range(token)};
  } else {
    name = ident();
  }
  expect(L::ASSIGN);
  ExprPtr value = expr(0, height);
  auto s = std::make_unique<AttributeStmt>(span(first, previous()));
  s->name = std::move(name);
  s->value = std::move(value);
  return s;
}

StmtPtr FastParser::block(int& height) {
  const LexToken& first = take();
  Identifier kind{text(first), token_range(first)};
  std::vector<std::unique_ptr<StringExpr>> labels;
  while (type() == L::STRING) labels.push_back(string_lit());
  std::unique_ptr<StringExpr> in_label;
  if (type() == L::IN) {
    take();
    in_label = string_lit();
  }
  Body b = body(height);
  auto s = std::make_unique<BlockStmt>(span(first, previous()));
  s->kind = std::move(kind);
  s->labels = std::move(labels);
  s->in_label = std::move(in_label);
  s->body = std::move(b);
  return s;
}

StmtPtr FastParser::deferred_block(DeferredBlocks& deferred, int& height, bool& skipped) {
  const std::size_t start = next_;
  const std::size_t strings = pending_strings_.size();
  const LexToken& first = take();
  std::vector<std::unique_ptr<StringExpr>> labels;
  while (type() == L::STRING) labels.push_back(string_lit());
  std::unique_ptr<StringExpr> in_label;
  if (type() == L::IN) {
    take();
    in_label = string_lit();
  }
  // The body's braces; nested blocks (`kind "label"` at its first level) are
  // counted by kind for DeferredBlocks::nested().
  std::vector<std::pair<std::string_view, std::size_t>> nested;
  expect(L::LBRACE);
  int depth = 1;
  while (depth > 0) {
    const std::size_t t = type();
    if (t == kEof) throw GiveUp{};
    if (t == L::IMPORT || t == L::TEMPLATE) {
      // Parsed now, whole: check_placement() reports such a statement when
      // evaluation starts, before any block runs.
      pending_strings_.resize(strings);
      next_ = start;
      return block(height);
    }
    if (t == L::LBRACE) ++depth;
    if (t == L::RBRACE) --depth;
    if (depth == 1 && is_ident_type(t) && type(1) == L::STRING) {
      const LexToken& kind = peek();
      const std::string_view name = piece_.file_text().substr(kind.begin(), kind.end() - kind.begin());
      auto found = std::find_if(nested.begin(), nested.end(), [&](const auto& entry) { return entry.first == name; });
      if (found == nested.end()) nested.emplace_back(name, 1);
      else ++found->second;
    }
    take();
  }
  for (const auto& [name, count] : nested) deferred.nested_[std::string(name)] += count;
  auto s = std::make_unique<BlockStmt>(span(first, previous()));
  s->kind = Identifier{text(first), token_range(first)};
  s->labels = std::move(labels);
  s->in_label = std::move(in_label);
  skipped = true;
  return s;
}

Body FastParser::body(int& height) {
  const LexToken& first = expect(L::LBRACE);
  Body b;
  int below = 0;
  while (type() != L::RBRACE) {
    if (type() == kEof) throw GiveUp{};
    int h = 0;
    if (auto s = stmt(h)) b.stmts.push_back(std::move(s));
    below = std::max(below, h);
  }
  const LexToken& last = take();
  b.range = span(first, last);
  height = level(below);
  return b;
}

// ------------------------------------------------------------------ expressions

ExprPtr FastParser::expr(int precedence, int& height) {
  const LexToken& first = peek();
  ExprPtr e;
  int h = 0;
  if (type() == L::MINUS || type() == L::NOT) {
    const LexToken& op = take();
    int below = 0;
    ExprPtr operand = expr(kUnaryOperandLevel, below);
    auto u = std::make_unique<UnaryExpr>(span(op, previous()));
    u->op = op.type() == L::NOT ? UnaryOp::Not : UnaryOp::Negate;
    u->operand = std::move(operand);
    e = std::move(u);
    h = level(below);
  } else {
    int below = 0;
    e = primary(below);
    h = level(below);
  }

  while (true) {
    const std::size_t t = type();
    if (t == L::DOT && kFieldLevel >= precedence) {
      take();
      Identifier field = ident();
      auto f = std::make_unique<FieldExpr>(span(first, previous()));
      f->object = std::move(e);
      f->field = std::move(field);
      e = std::move(f);
      h = level(h);
    } else if (t == L::LBRACK && kIndexLevel >= precedence) {
      take();
      int below = 0;
      ExprPtr index = expr(0, below);
      expect(L::RBRACK);
      auto x = std::make_unique<IndexExpr>(span(first, previous()));
      x->object = std::move(e);
      x->index = std::move(index);
      e = std::move(x);
      h = level(std::max(h, below));
    } else if (t == L::LPAREN && kCallLevel >= precedence) {
      take();
      int below = 0;
      std::vector<Argument> arguments;
      if (type() != L::RPAREN) arguments = args(below);
      expect(L::RPAREN);
      auto c = std::make_unique<CallExpr>(span(first, previous()));
      c->callee = std::move(e);
      c->args = std::move(arguments);
      e = std::move(c);
      h = level(std::max(h, below));
    } else if (const int p = binary_precedence(t); p != 0 && p >= precedence) {
      const LexToken& op = take();
      int below = 0;
      ExprPtr right = expr(p + 1, below);
      auto b = std::make_unique<BinaryExpr>(span(first, previous()));
      b->op = binary_op(t);
      b->op_range = token_range(op);
      b->left = std::move(e);
      b->right = std::move(right);
      e = std::move(b);
      h = level(std::max(h, below));
    } else if (t == L::QUESTION && kConditionalLevel >= precedence) {
      take();
      int then_height = 0;
      ExprPtr then_value = expr(0, then_height);
      expect(L::COLON);
      int else_height = 0;
      ExprPtr else_value = expr(kConditionalLevel, else_height);  // right-associative
      auto c = std::make_unique<ConditionalExpr>(span(first, previous()));
      c->condition = std::move(e);
      c->then_value = std::move(then_value);
      c->else_value = std::move(else_value);
      e = std::move(c);
      h = level(std::max({h, then_height, else_height}));
    } else {
      break;
    }
  }
  height = h;
  return e;
}

// `height` receives the levels of the expressions inside (0 for a literal);
// the caller adds the level of the primary expression itself.
ExprPtr FastParser::primary(int& height) {
  height = 0;
  const std::size_t t = type();
  if (is_ident_type(t)) {
    const LexToken& token = take();
    return std::make_unique<NameExpr>(token_range(token), text(token));
  }
  switch (t) {
    case L::NUMBER: {
      const LexToken& token = take();
      return std::make_unique<NumberExpr>(token_range(token), text(token));
    }
    case L::DURATION: {
      const LexToken& token = take();  // fast_lex gave up on invalid durations
      return std::make_unique<DurationExpr>(token_range(token), text(token));
    }
    case L::STRING:
      return string_lit();
    case L::TRUE:
      return std::make_unique<BoolExpr>(token_range(take()), true);
    case L::FALSE:
      return std::make_unique<BoolExpr>(token_range(take()), false);
    case L::NULL_LIT:
      return std::make_unique<NullExpr>(token_range(take()));
    case L::ALL:
      return std::make_unique<AllExpr>(token_range(take()));
    case L::LPAREN: {
      const LexToken& first = take();
      ExprPtr inner = expr(0, height);
      expect(L::RPAREN);
      auto e = std::make_unique<ParenExpr>(span(first, previous()));
      e->inner = std::move(inner);
      return e;
    }
    case L::LBRACK:
      return list(height);
    case L::LBRACE:
      return map(height);
    default:
      throw GiveUp{};
  }
}

// LBRACK (expr (comprehensionTail | (COMMA expr)* COMMA?))? RBRACK
ExprPtr FastParser::list(int& height) {
  const LexToken& first = take();
  std::vector<ExprPtr> items;
  if (type() != L::RBRACK) {
    int h = 0;
    ExprPtr element = expr(0, h);
    height = h;
    if (type() == L::FOR) {
      take();
      Identifier var = ident();
      std::optional<Identifier> second;
      if (type() == L::COMMA) {
        take();
        second = ident();
      }
      expect(L::IN);
      ExprPtr iterable = expr(0, h);
      height = std::max(height, h);
      ExprPtr condition;
      if (type() == L::IF) {
        take();
        condition = expr(0, h);
        height = std::max(height, h);
      }
      expect(L::RBRACK);
      auto c = std::make_unique<ComprehensionExpr>(span(first, previous()));
      c->element = std::move(element);
      c->var = std::move(var);
      c->second_var = std::move(second);
      c->iterable = std::move(iterable);
      c->condition = std::move(condition);
      return c;
    }
    items.push_back(std::move(element));
    while (type() == L::COMMA) {
      take();
      if (type() == L::RBRACK) break;
      items.push_back(expr(0, h));
      height = std::max(height, h);
    }
  }
  expect(L::RBRACK);
  auto e = std::make_unique<ListExpr>(span(first, previous()));
  e->items = std::move(items);
  return e;
}

// LBRACE (mapEntry (COMMA mapEntry)* COMMA?)? RBRACE
ExprPtr FastParser::map(int& height) {
  const LexToken& first = take();
  std::vector<MapEntry> entries;
  if (type() != L::RBRACE) {
    separated(L::RBRACE, [&] {
      MapEntry entry;
      if (type() == L::STRING) {
        const LexToken& key = take();
        entry.key_is_string = true;
        entry.key_range = token_range(key);
        entry.key = quoted_name(key);
      } else {
        Identifier key = ident();
        entry.key = std::move(key.name);
        entry.key_range = key.range;
      }
      expect(L::COLON);
      int h = 0;
      entry.value = expr(0, h);
      height = std::max(height, h);
      entries.push_back(std::move(entry));
    });
  }
  expect(L::RBRACE);
  auto e = std::make_unique<MapExpr>(span(first, previous()));
  e->entries = std::move(entries);
  return e;
}

// arg (COMMA arg)* COMMA?   with   arg : (ident ASSIGN)? expr
std::vector<Argument> FastParser::args(int& height) {
  std::vector<Argument> result;
  separated(L::RPAREN, [&] {
    Argument argument;
    if (is_ident_type(type()) && type(1) == L::ASSIGN) {
      argument.name = ident();
      take();
    }
    int h = 0;
    argument.value = expr(0, h);
    height = std::max(height, h);
    result.push_back(std::move(argument));
  });
  return result;
}

}  // namespace mkq::syntax::detail
