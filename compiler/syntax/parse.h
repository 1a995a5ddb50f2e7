// compiler/syntax entry points: text -> owned AST, and AST -> canonical text.
#pragma once

#include <memory>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax {

// Limits that keep hostile input from exhausting the stack. An input over a
// limit gets a diagnostic (E1010) and no AST.
inline constexpr int kMaxNestingDepth = 200;  // brackets, braces, parentheses, unary operators

// Parses one file already registered in `sources`. Every syntax error is added
// to `diagnostics` (lexer and parser errors, invalid literals, unterminated
// strings and comments, stray characters, invalid UTF-8). Returns the AST,
// which is complete only when no error was reported.
std::unique_ptr<File> parse_file(const diag::SourceManager& sources, FileId file,
                                 diag::Diagnostics& diagnostics);

}  // namespace mkq::syntax
