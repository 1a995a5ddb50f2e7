// PRIVATE to lsp/: the walks over the syntax tree that several requests share.
#pragma once

#include <vector>

#include "compiler/syntax/ast.h"

namespace mkq::lsp {

// The direct sub-expressions of `expr` in source order (absent ones left out):
// a string's interpolations, a list's items, a map's values, a call's callee
// and arguments, and so on.
std::vector<const syntax::Expr*> children(const syntax::Expr& expr);

}  // namespace mkq::lsp
