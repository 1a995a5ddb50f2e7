// CEL's grammar (cel-spec's langdef.md): literals, identifiers, field
// selection, indexing, calls and member calls, list and map literals, the
// unary, arithmetic, relational, logical and conditional operators, and the
// macros has, all, exists, exists_one, filter and map. Message construction
// (`T{f: v}`) and the `.?`/`[?` optional syntax are not part of the subset:
// they are syntax errors.
#pragma once

#include <string>

#include "base/result.h"
#include "sandbox/cel/ast.h"

namespace mkq::sandbox::cel {

// Parses `text`; a syntax error is an Error whose message is cel-go's form:
// `ERROR: <input>:1:7: Syntax error: ...` followed by the line and a caret.
base::Result<ExprPtr> parse(const std::string& text);

// cel-go's rendering of an error at `offset` of `text`:
// "ERROR: <input>:LINE:COL: MESSAGE\n | LINE-TEXT\n | ....^".
std::string located_error(const std::string& text, int offset, const std::string& message);

}  // namespace mkq::sandbox::cel
