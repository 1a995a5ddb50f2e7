// compiler/syntax entry points: text -> owned AST, and AST -> canonical text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

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

// Reports E1018 at `at`: `path` has `size` bytes, over diag::kMaxSourceBytes.
// For the readers of sources, which refuse such a file before reading it.
void report_file_too_large(diag::Diagnostics& diagnostics, const diag::SourceRange& at,
                           const std::string& path, std::uint64_t size);

}  // namespace mkq::syntax
