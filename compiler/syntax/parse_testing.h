// For the syntax tests only: parse_file() with a chosen engine, so that tests
// can check that the fast path (fast_path.h) gives exactly what the ANTLR path
// gives — the same AST, ranges, comments and diagnostics.
#pragma once

#include <memory>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax::testing {

enum class Engine {
  Auto,       // what parse_file() does: the fast path first, ANTLR when it gives up
  AntlrOnly,  // the generated lexer and parser only
  FastOnly,   // the fast path only: null (diagnostics incomplete) wherever it gives up
};

std::unique_ptr<File> parse_file_with(const diag::SourceManager& sources, FileId file,
                                      diag::Diagnostics& diagnostics, Engine engine);

}  // namespace mkq::syntax::testing
