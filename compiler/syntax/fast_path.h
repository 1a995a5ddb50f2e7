// PRIVATE to compiler/syntax: the fast path of parse_file() for the common
// case, a file without errors.
//
//   fast_lexer.cpp    a hand-written lexer that produces exactly the tokens of
//                     the generated MkqLexer, or gives up
//   fast_parser.cpp   a recursive-descent parser from those tokens straight to
//                     the AST, or gives up
//
// Both only ever answer when they are sure to give what the ANTLR path
// (parse.cpp, transform_*.cpp) would give for the same text; for anything
// unusual — a lexical error, a syntax error, a tree too deep — they give up
// without any side effect, and the ANTLR path runs instead. Diagnostics
// therefore come from the ANTLR path, and the AST is the same whichever path
// built it. Two limits excepted, whose diagnostic the ANTLR path would give
// alone and at once, which parse.cpp reports from the fast path's tokens with
// the same words at the same token: more than kMaxTokens tokens (E1016) and a
// token over kMaxTokenBytes (E1019), so that such a file never costs ANTLR's
// input and tokens.
//
// No ANTLR type here; token types are the generated MkqLexer's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/syntax/ast.h"
#include "compiler/syntax/parse.h"

namespace mkq::syntax::detail {

class TextPiece;

inline constexpr std::uint32_t kEof = 0xffffffffu;  // LexToken::type() of the end of input

// One token as the generated lexer would have made it (antlr_tokens() in
// parser_internal.h adds ANTLR's code point positions). Skipped whitespace
// makes no token; comments are on the hidden channel.
//
// Eight bytes, as a file may have up to kMaxTokens of them: the offset of its
// first byte, and its length (under 2^24: a file is at most
// diag::kMaxSourceBytes) packed with its type (the generated lexer's types
// are under 255; 255 stands for kEof).
class LexToken {
 public:
  LexToken(std::uint32_t begin, std::uint32_t end, std::uint32_t type)
      : begin_(begin), length_and_type_(((end - begin) << 8) | (type == kEof ? kEofByte : type)) {}

  std::uint32_t begin() const { return begin_; }  // byte offsets in the file, [begin, end)
  std::uint32_t end() const { return begin_ + (length_and_type_ >> 8); }
  // MkqLexer::IMPORT ...; kEof for the last one
  std::uint32_t type() const {
    const std::uint32_t type = length_and_type_ & 0xffu;
    return type == kEofByte ? kEof : type;
  }
  // On Token::HIDDEN_CHANNEL (comments), else on the default channel.
  bool hidden() const;

 private:
  static constexpr std::uint32_t kEofByte = 0xffu;
  std::uint32_t begin_;
  std::uint32_t length_and_type_;
};
static_assert(sizeof(LexToken) == 8);

// What fast_lex() found.
enum class FastLex {
  Lexed,          // `tokens` holds every token, EOF last
  GaveUp,         // `tokens` is unspecified; the generated lexer must run
  TooManyTokens,  // more than kMaxTokens tokens: `tokens` ends with the first token over the limit
};

// Lexes the whole piece into `tokens`. GaveUp when the text has anything the
// generated lexer's tokens would get reported for or repaired: a stray
// character (also '&', '|', non-ASCII outside strings and comments), an
// unterminated string or comment, an invalid number or duration; and when it
// is unsure: a backslash inside `${...}`. TooManyTokens when it reached the
// token limit before any of those: the generated lexer would then stop at the
// same token with E1016 and nothing else, so the caller reports it without
// building ANTLR's input and tokens (4 bytes per byte and about 100 per token).
FastLex fast_lex(const TextPiece& piece, std::vector<LexToken>& tokens);

// The strings of a piece decoded before its parse, by token index (see
// parser_internal.h): every string on the ANTLR path, only those that are
// not plain (literals.h) on the fast path, where FastParser decodes each
// plain string into its node. Sparse, so that a piece of many tokens and few
// such strings costs nothing per token.
class StringTable {
 public:
  // Adds the string of token `index`; finish() once every string is added.
  void add(std::size_t index, std::unique_ptr<StringExpr> string);
  void finish();
  // The string of token `index`, or null when there is none (or it was taken).
  const StringExpr* find(std::size_t index) const;
  std::unique_ptr<StringExpr> take(std::size_t index);

 private:
  std::vector<std::pair<std::uint32_t, std::unique_ptr<StringExpr>>>::const_iterator at(std::size_t index) const;
  std::vector<std::pair<std::uint32_t, std::unique_ptr<StringExpr>>> entries_;  // sorted by index after finish()
};

// Builds the AST of a piece from its tokens when the text is valid and every
// decision is one ANTLR makes on the next token or two. A plain string is
// decoded into its node; the others are taken from `strings` only by
// commit(), so a parser that gave up leaves them untouched.
class FastParser {
 public:
  FastParser(const TextPiece& piece, const std::vector<LexToken>& tokens, const StringTable& strings,
             int base_depth);

  // The statements of a file; nullopt when the fast path gives up.
  std::optional<std::vector<StmtPtr>> file();
  // As file(), but a top-level block is left for later when its body has no
  // `import` or `template` (which check_placement() would report): its
  // statement is the block with its kind, labels, `in` label and range and an
  // empty body, noted in `deferred`. Of its body only the braces are matched:
  // DeferredBlocks::parse() parses it when it is needed.
  std::optional<std::vector<StmtPtr>> file(DeferredBlocks& deferred);
  // The expression that is the whole piece (`${...}`); null when the fast path gives up.
  ExprPtr expression();
  // After a successful file() or expression(): moves the decoded strings into the AST.
  void commit(StringTable& strings);

 private:
  struct GiveUp {};  // thrown inside the parser only, caught by file() / expression()

  // statements; `height` receives the levels the Transformer would count
  // (expressions, bodies, ifs), which must stay within kMaxTreeDepth
  StmtPtr stmt(int& height);
  StmtPtr import_stmt();
  StmtPtr let_stmt(int& height);
  StmtPtr template_stmt(int& height);
  StmtPtr for_stmt(int& height);
  std::unique_ptr<IfStmt> if_stmt(int& height);
  StmtPtr assert_stmt(int& height);
  StmtPtr use_stmt(int& height);
  StmtPtr attribute(int& height);
  StmtPtr block(int& height);
  // The block at the next token with its body skipped (file(DeferredBlocks&)),
  // or parsed in full when the body cannot be deferred.
  StmtPtr deferred_block(DeferredBlocks& deferred, int& height, bool& skipped);
  Body body(int& height);

  // expressions
  ExprPtr expr(int precedence, int& height);
  ExprPtr primary(int& height);
  ExprPtr list(int& height);
  ExprPtr map(int& height);
  std::vector<Argument> args(int& height);
  // item (COMMA item)* COMMA? up to `close` (left for the caller): one call of
  // parse_item per item. Defined in fast_parser.cpp, its only user.
  template <typename ParseItem>
  void separated(std::size_t close, ParseItem parse_item);
  std::unique_ptr<StringExpr> string_lit();
  std::string quoted_name(const LexToken& token);
  std::string_view string_inner(const LexToken& token) const;  // a STRING token's text between its quotes
  Identifier ident();

  // tokens
  const LexToken& peek(std::size_t ahead = 0) const;
  std::size_t type(std::size_t ahead = 0) const { return peek(ahead).type(); }
  const LexToken& take();
  const LexToken& expect(std::size_t token_type);
  const LexToken& previous() const;
  SourceRange span(const LexToken& first, const LexToken& last) const;
  SourceRange token_range(const LexToken& token) const;
  std::string text(const LexToken& token) const;
  // One more level over `below`; gives up past the Transformer's limit.
  int level(int below) const;

  const TextPiece& piece_;
  const std::vector<LexToken>& tokens_;
  const StringTable& strings_;
  int limit_;                         // levels left before kMaxTreeDepth
  std::vector<std::uint32_t> visible_;  // indices of default-channel tokens, EOF last (fewer than kMaxTokens)
  std::size_t next_ = 0;              // into visible_
  std::vector<std::pair<StringExpr*, std::size_t>> pending_strings_;  // node, token index
};

}  // namespace mkq::syntax::detail
