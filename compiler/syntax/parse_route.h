// PRIVATE to compiler/syntax (and read by its tests): the route a parse takes
// through the two parsers.
//
// parse_file() (parse.h) gives every piece of a file (the file, each `${...}`)
// to the fast path first (fast_path.h) and to ANTLR only where the fast path
// gives up. ANTLR alone is the reference: the grammar in lang/grammar, every
// diagnostic worded by syntax_errors.cpp. parse_file_via() lets a caller choose
// the reference, and tells whether the fast path gave up anywhere — which
// fast_path_test.cpp checks and nothing else decides on. No ANTLR type here.
#pragma once

#include <memory>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax::detail {

enum class Engine {
  FastPathFirst,  // what parse_file() does: the fast path, ANTLR where it gives up
  AntlrOnly,      // the generated lexer and parser for every piece
  FastPathOnly,   // the fast path alone: no AST where it gives up (DeferredBlocks::parse())
};

struct ParseRoute {
  Engine engine = Engine::FastPathFirst;
  bool used_antlr = false;  // set when ANTLR lexed or parsed some piece of the file
};

// parse_file() along `route.engine`; records in `route` what ran.
std::unique_ptr<File> parse_file_via(const diag::SourceManager& sources, FileId file,
                                     diag::Diagnostics& diagnostics, ParseRoute& route);

}  // namespace mkq::syntax::detail
