// PRIVATE to compiler/syntax: the code between the generated ANTLR parser and
// the owned AST. This is the only header that includes ANTLR; it is included by
// the syntax stage's .cpp files only, never by another header and never by
// another stage (parse.h, ast.h and format.h are the stage's interface).
//
//   parse.cpp            lexing, token checks, nesting limit, the two-stage parse
//   syntax_errors.cpp    ANTLR errors -> short human messages (FriendlyErrorStrategy)
//   transform_stmt.cpp   parse-tree statements -> AST statements
//   transform_expr.cpp   parse-tree expressions -> AST expressions
//   fast_lexer.cpp       the fast path's lexer, and its tokens as ANTLR tokens
//   fast_parser.cpp      the fast path's parser (fast_path.h)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "MkqParser.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"
#include "compiler/syntax/fast_path.h"
#include "compiler/syntax/parse.h"

namespace mkq::syntax::detail {

using grammar::MkqParser;

// One stretch of a file that is lexed and parsed on its own: the whole file,
// or the inside of one `${...}`. Maps the lexer's positions (code point
// indices into the stretch) back to byte offsets and ranges of the file.
class TextPiece {
 public:
  // [begin, end) are byte offsets in the file. eof is the range reported for
  // "end of input": by default a point just after the last non-blank byte.
  TextPiece(const diag::SourceManager& sources, FileId file, std::uint32_t begin, std::uint32_t end,
            std::optional<SourceRange> eof = std::nullopt);

  // The piece's bytes: a view of the file's text in the SourceManager, never a copy.
  std::string_view text() const { return text_; }
  FileId file() const { return file_; }
  std::uint32_t begin() const { return begin_; }
  std::uint32_t end() const { return begin_ + static_cast<std::uint32_t>(text_.size()); }
  std::string_view file_text() const;

  // Absolute byte offsets of a lexer position (code point index into the piece).
  std::uint32_t byte_of(std::size_t code_point) const;
  // The code point index of an absolute byte offset (which must start a character).
  std::size_t code_point_of(std::uint32_t byte) const;

  // sources.range(file, begin_byte, max(begin_byte, end_byte)), computed here
  // with a cached line: the parser asks for many ranges, mostly in file order.
  SourceRange range(std::uint32_t begin_byte, std::uint32_t end_byte) const;
  SourceRange eof_range() const { return eof_; }
  // Conjured tokens (inserted by error recovery) have no text: nullopt.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> token_bytes(const antlr4::Token* token) const;
  // The token's range; EOF gives eof_range(), a conjured token `fallback`.
  SourceRange token_range(const antlr4::Token* token, const SourceRange& fallback) const;
  SourceRange token_range(const antlr4::Token* token) const { return token_range(token, eof_); }
  // From the first token's start to the last token's end; a context that
  // matched nothing gets an empty range at its start.
  SourceRange context_range(const antlr4::ParserRuleContext* context) const;
  // The token's text exactly as written in the file.
  std::string_view token_text(const antlr4::Token* token) const;

 private:
  // The piece-relative byte offset of each code point, and the piece's size
  // last. Built on first use, which only ANTLR's positions need: the fast
  // path works in bytes and never pays 4 bytes per byte for it.
  const std::vector<std::uint32_t>& code_point_bytes() const;

  const diag::SourceFile& source_;
  FileId file_;
  std::uint32_t begin_;
  std::string_view text_;  // into source_.text
  bool ascii_ = true;                                    // every byte < 0x80: code points are bytes
  mutable std::vector<std::uint32_t> code_point_bytes_;  // see code_point_bytes(); unused when ascii_
  SourceRange eof_;
};

// StringTable (fast_path.h): the decoded strings of a piece, by token index:
// built before the parse, so that escape and interpolation errors are
// reported whatever the parse does, and moved into the AST by the transformer
// (or FastParser::commit). On the fast path it holds only the strings that
// are not plain; the fast parser decodes a plain one (which cannot be in
// error) into its node, and if it gives up they are added for the transformer.

// Counts the errors of one file (all its pieces) against kMaxSyntaxErrors.
class ErrorBudget {
 public:
  explicit ErrorBudget(diag::Diagnostics& diagnostics)
      : diagnostics_(diagnostics), base_(diagnostics.error_count()) {}
  // True when the file has used up its errors (cheap; check before exhausted()).
  bool used_up() const {
    return diagnostics_.error_count() - base_ >= static_cast<std::size_t>(kMaxSyntaxErrors);
  }
  // True when the file has used up its errors; the first time, reports E1017
  // at `where`. Callers stop working on the file then (no AST).
  bool exhausted(const SourceRange& where);

 private:
  diag::Diagnostics& diagnostics_;
  std::size_t base_;
  bool reported_ = false;
};

// Collects the syntax errors of one piece. Installed as the only error
// listener of lexer and parser; FriendlyErrorStrategy reports through it too.
class ErrorReporter : public antlr4::BaseErrorListener {
 public:
  ErrorReporter(const TextPiece& piece, diag::Diagnostics& diagnostics, ErrorBudget& budget)
      : piece_(piece), diagnostics_(diagnostics), budget_(budget) {}

  // ANTLR's own reports (only reached for errors FriendlyErrorStrategy does not word).
  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, std::size_t line,
                   std::size_t column, const std::string& message, std::exception_ptr error) override;

  // Adds a parser error about `token`, unless it is most likely a consequence
  // of an error already reported: at the end of input after an unterminated
  // comment, or within a few tokens after a lexical error or the previous
  // parser error (ANTLR's recovery guesses wrong there). Throws
  // ParseCancellationException when the file's error budget is used up.
  void report(const antlr4::Token* token, diag::Diagnostic diagnostic);

  void suppress_errors_at_eof() { suppress_at_eof_ = true; }
  // A lexical error at this token: parser errors in the next few tokens are
  // most likely its consequence and are not reported.
  void lexical_error_at(std::size_t token_index) { lexical_errors_.insert(token_index); }
  std::size_t reported() const { return reported_; }
  const TextPiece& piece() const { return piece_; }

 private:
  const TextPiece& piece_;
  diag::Diagnostics& diagnostics_;
  ErrorBudget& budget_;
  std::set<std::size_t> lexical_errors_;
  std::optional<std::size_t> last_error_token_;
  bool suppress_at_eof_ = false;
  std::size_t reported_ = 0;
};

// ANTLR's recovery, with errors worded for people ("expected '}' to close the
// block started here", "missing '=' after field 'cpu'", "unexpected ')'")
// instead of "mismatched input ... expecting {...}".
class FriendlyErrorStrategy : public antlr4::DefaultErrorStrategy {
 public:
  explicit FriendlyErrorStrategy(ErrorReporter& reporter) : reporter_(reporter) {}

 protected:
  void reportNoViableAlternative(antlr4::Parser* parser, const antlr4::NoViableAltException& e) override;
  void reportInputMismatch(antlr4::Parser* parser, const antlr4::InputMismatchException& e) override;
  void reportFailedPredicate(antlr4::Parser* parser, const antlr4::FailedPredicateException& e) override;
  void reportUnwantedToken(antlr4::Parser* parser) override;
  void reportMissingToken(antlr4::Parser* parser) override;

 private:
  enum class Failure { Mismatch, NoViable, Unwanted, Missing };
  void explain(antlr4::Parser* parser, antlr4::Token* offending, const antlr4::misc::IntervalSet& expected,
               Failure failure, antlr4::Token* start);

  ErrorReporter& reporter_;
};

// Builds the owned AST from a parse tree that may contain error recovery
// (missing children become ErrorExpr or empty names). Recursion is bounded:
// past kMaxTreeDepth it reports E1010 and stops descending.
class Transformer {
 public:
  // Deep enough for every input the token scan lets through (brackets,
  // unary operators, `?:` and `else if` are limited to kMaxNestingDepth),
  // plus long operator chains such as a + b + c + ..., which ANTLR builds
  // left-deep without nesting tokens.
  static constexpr int kMaxTreeDepth = 800;

  Transformer(const TextPiece& piece, StringTable& strings, diag::Diagnostics& diagnostics, int base_depth)
      : piece_(piece), strings_(strings), diagnostics_(diagnostics), depth_(base_depth) {}

  std::vector<StmtPtr> file(MkqParser::FileContext* context);
  ExprPtr expression(MkqParser::ExprContext* context);
  bool too_deep() const { return too_deep_; }

 private:
  // Counts one level of recursion for as long as it lives.
  class Level {
   public:
    explicit Level(Transformer& t) : t_(t) { ++t_.depth_; }
    ~Level() { --t_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;
    // True (after reporting E1010 once) when this level is one too many.
    bool exceeded(const SourceRange& where);

   private:
    Transformer& t_;
  };

  // statements (transform_stmt.cpp)
  StmtPtr stmt(MkqParser::StmtContext* context);
  StmtPtr import_stmt(MkqParser::ImportStmtContext* context);
  StmtPtr let_stmt(MkqParser::LetStmtContext* context);
  StmtPtr template_stmt(MkqParser::TemplateStmtContext* context);
  StmtPtr for_stmt(MkqParser::ForStmtContext* context);
  std::unique_ptr<IfStmt> if_stmt(MkqParser::IfStmtContext* context);
  StmtPtr assert_stmt(MkqParser::AssertStmtContext* context);
  StmtPtr use_stmt(MkqParser::UseStmtContext* context);
  StmtPtr attribute(MkqParser::AttributeContext* context);
  StmtPtr block(MkqParser::BlockContext* context);
  Body body(MkqParser::BodyContext* context, const SourceRange& fallback);

  // expressions (transform_expr.cpp)
  ExprPtr expr(MkqParser::ExprContext* context, const SourceRange& fallback);
  ExprPtr primary(MkqParser::PrimaryContext* context, const SourceRange& fallback);
  ExprPtr list(MkqParser::ListLitContext* context);
  ExprPtr comprehension(MkqParser::ListLitContext* context);
  ExprPtr map(MkqParser::MapLitContext* context);
  std::vector<Argument> args(MkqParser::ArgsContext* context);
  std::unique_ptr<StringExpr> string_token(const antlr4::Token* token);
  std::unique_ptr<StringExpr> string_lit(MkqParser::StringLitContext* context, const SourceRange& fallback);
  // The text of a quoted name (attribute name, map key); reports E1015 for an interpolation.
  std::string quoted_name(const antlr4::Token* token, const char* what);
  Identifier ident(MkqParser::IdentContext* context, const SourceRange& fallback);
  ExprPtr error_expr(const SourceRange& range) const;

  const TextPiece& piece_;
  StringTable& strings_;
  diag::Diagnostics& diagnostics_;
  int depth_;
  bool too_deep_ = false;
};

// The ANTLR tokens of fast_lex()'s tokens, exactly as the generated lexer
// makes them (type, channel, code point start and stop, line and column), with
// `source` as their lexer and input (fast_lexer.cpp).
std::vector<std::unique_ptr<antlr4::Token>> antlr_tokens(const TextPiece& piece, const std::vector<LexToken>& tokens,
                                                         std::pair<antlr4::TokenSource*, antlr4::CharStream*> source);

// True for a token that was really read (not conjured by error recovery).
bool is_real(const antlr4::Token* token);
bool is_real(antlr4::tree::TerminalNode* node);

// IDENT or a declaration keyword (which may also name things).
bool is_ident_type(std::size_t type);

// A token's text cut to a length that fits in a message.
std::string shorten(std::string_view text);

}  // namespace mkq::syntax::detail
