// PRIVATE to lsp/: the walks over the syntax tree that several requests share.
#pragma once

#include <vector>

#include "compiler/syntax/ast.h"

namespace mkq::lsp {

// The direct sub-expressions of `expr` in source order (absent ones left out):
// a string's interpolations, a list's items, a map's values, a call's callee
// and arguments, and so on.
std::vector<const syntax::Expr*> children(const syntax::Expr& expr);

// The statement lists directly inside `stmt`: a block's, template's or
// loop's body, every branch of an `if` (with its `else if`s).
std::vector<const std::vector<syntax::StmtPtr>*> bodies(const syntax::Stmt& stmt);

}  // namespace mkq::lsp
