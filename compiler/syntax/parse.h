// compiler/syntax entry points: text -> owned AST, and AST -> canonical text.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax {

// Limits that keep hostile input from exhausting the stack, the memory or the
// patience of the user. An input over a limit gets one diagnostic and no AST.
inline constexpr int kMaxNestingDepth = 200;    // brackets, braces, parentheses, unary operators, `?:`, `else if` (E1010)
inline constexpr int kMaxTokens = 1'000'000;    // tokens in one file, about 5 MB of policy (E1016)
inline constexpr int kMaxSyntaxErrors = 100;    // syntax errors reported for one file before giving up (E1017)
// The longest identifier, string literal or number (comments are not
// limited): the evaluator's string limit (1 MiB), so that no longer literal is
// ever decoded or copied into the AST (E1019). A file is limited to
// diag::kMaxSourceBytes (E1018).
inline constexpr std::uint64_t kMaxTokenBytes = std::uint64_t{1} << 20;

// Parses one file already registered in `sources`. Every syntax error is added
// to `diagnostics` (lexer and parser errors, invalid literals, unterminated
// strings and comments, stray characters, invalid UTF-8). Returns the AST,
// which is complete only when no error was reported (missing pieces are
// ErrorExpr or empty names then), or null when the file could not be parsed at
// all: not UTF-8, a NUL byte, or over one of the limits above.
std::unique_ptr<File> parse_file(const diag::SourceManager& sources, FileId file,
                                 diag::Diagnostics& diagnostics);

namespace detail {
class FastParser;
}

// The top-level blocks that parse_file_deferred() left unparsed, so that a
// large file's syntax tree is never whole: each is parsed when the evaluator
// reaches it, evaluated, and let go (sema::analyze()).
class DeferredBlocks {
 public:
  // Whether statement `index` of the file is such a block: a BlockStmt with
  // its kind, labels, `in` label and range, and an empty body.
  bool deferred(std::size_t index) const;
  bool empty() const { return indices_.empty(); }
  // How many blocks of kind `kind` the deferred bodies hold at their first
  // level (a size hint: counted from the tokens, not parsed).
  std::size_t nested(std::string_view kind) const;
  // The block in full, as parse_file() would have built it; null when the
  // fast path cannot parse it (a syntax error): the caller then parses the
  // file with parse_file(), which reports why. Nothing is reported here.
  std::unique_ptr<BlockStmt> parse(const BlockStmt& shell) const;

 private:
  friend class detail::FastParser;
  friend std::unique_ptr<File> parse_file_deferred(const diag::SourceManager&, FileId, diag::Diagnostics&,
                                                   DeferredBlocks&);
  const diag::SourceManager* sources_ = nullptr;
  std::vector<std::uint32_t> indices_;  // ascending
  std::map<std::string, std::size_t, std::less<>> nested_;
};

// As parse_file(), but each top-level block the fast path can skip is left
// unparsed and noted in `deferred` (its braces matched, its text checked by
// the lexer): syntax errors inside it are found only by DeferredBlocks::parse().
// A file the fast path does not parse is parsed in full, `deferred` empty.
std::unique_ptr<File> parse_file_deferred(const diag::SourceManager& sources, FileId file,
                                          diag::Diagnostics& diagnostics, DeferredBlocks& deferred);

// Reports E1018 at `at`: `path` has `size` bytes, over diag::kMaxSourceBytes.
// For the readers of sources, which refuse such a file before reading it.
void report_file_too_large(diag::Diagnostics& diagnostics, const diag::SourceRange& at,
                           const std::string& path, std::uint64_t size);

}  // namespace mkq::syntax
