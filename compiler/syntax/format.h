// The canonical formatter behind `mkq fmt`.
#pragma once

#include <string>
#include <string_view>

#include "compiler/diag/source.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax {

// Prints `file` in the one canonical layout, keeping every comment. Only called
// on a file that parsed without errors. Idempotent: format(parse(format(x))) ==
// format(x).
std::string format_file(const File& file, const diag::SourceFile& source);

// `text` as a string literal of the language: in double quotes, with the
// minimal escapes (\" \\ \n \t, and \$ only before '{').
std::string quote_literal(std::string_view text);

}  // namespace mkq::syntax
