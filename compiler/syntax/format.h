// The canonical formatter behind `mkq fmt`.
#pragma once

#include <string>

#include "compiler/diag/source.h"
#include "compiler/syntax/ast.h"

namespace mkq::syntax {

// Prints `file` in the one canonical layout, keeping every comment. Only called
// on a file that parsed without errors. Idempotent: format(parse(format(x))) ==
// format(x).
std::string format_file(const File& file, const diag::SourceFile& source);

}  // namespace mkq::syntax
