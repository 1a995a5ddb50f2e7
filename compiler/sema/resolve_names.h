// Static name resolution: every name of a file checked without evaluating it.
//
// Evaluation only looks up the names it reaches: the body of a template that
// is never used, the branch of an `if` not taken, the body of a `for` over an
// empty list, the unchosen side of `?:` or the right side of a short-circuit
// `&&`/`||` are never evaluated. This pass walks the whole AST of a file with
// the evaluator's scope rules (evaluate_internal.h) and reports the names that
// can never resolve, so that such a mistake is found whether or not the code
// runs.
//
// The findings are those the evaluator gives when it reaches the same name,
// with the same code, range and message (E2001 unknown name or template, E2004
// used before its definition, E2020 a module without that let or template),
// so a mistake that evaluation reports too is reported once.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/ast.h"

namespace mkq::sema {

// What the pass knows about a loaded module an import alias stands for.
struct ModuleExports {
  std::string display;             // how messages name the module (ModuleSource::display)
  std::vector<std::string> names;  // its top-level lets and templates, sorted
};

// Checks every name of `file`: name expressions (against the builtins, the
// file's top-level lets, templates and import aliases, template parameters,
// loop and comprehension variables, and the lets of the enclosing bodies
// defined before the name), the first segment of every `use`, and, for the
// aliases found in `imports` (alias -> the module it loads), `alias.name` in a
// `use` or a field access. A finding identical to a diagnostic already in
// `diagnostics` (same range, code and message) is not added again.
// Recursion is bounded: the parser limits the AST's depth.
void resolve_names(const syntax::File& file, diag::Diagnostics& diagnostics,
                   const std::map<std::string, ModuleExports>& imports = {});

// The names of a file as the same walk sees them, for tools that navigate the
// source (mkq lsp): every declaration, and every use that resolves to one.
enum class NameKind { Let, Template, Parameter, LoopVariable, Import };

struct NameDeclaration {
  std::string name;
  NameKind kind = NameKind::Let;
  // The declaring identifier; for an import without `as`, its path string.
  diag::SourceRange range;
};

// A name expression or a `use`'s first segment, and the declaration it finds
// (builtins and names that do not resolve are left out).
struct NameUse {
  diag::SourceRange range;
  diag::SourceRange declared_at;
};

// `alias.member`, where alias is an import of the file: the member as written.
struct MemberUse {
  diag::SourceRange alias_declared_at;
  std::string member;
  diag::SourceRange range;
};

struct FileNames {
  std::vector<NameDeclaration> declarations;  // in the order the walk meets them
  std::vector<NameUse> uses;
  std::vector<MemberUse> members;
};

// Walks `file` with resolve_names' scope rules, reporting nothing.
FileNames file_names(const syntax::File& file);

// A name a `let`, template, parameter or loop variable may take: an
// identifier, not a keyword and not a builtin.
bool is_declarable_name(const std::string& text);

namespace resolve_detail {
class NameChecker;
}

// The same pass one top-level statement at a time, for a file whose
// statements may be let go once checked (the evaluator drops each top-level
// block of a root file as soon as it is evaluated). The top-level names are
// collected from the whole file when the resolver is made; check() then takes
// statements of that file, each once, in any order. A finding identical to a
// diagnostic in `diagnostics` when check() is called is not added again.
class NameResolver {
 public:
  NameResolver(const syntax::File& file, diag::Diagnostics& diagnostics, std::map<std::string, ModuleExports> imports);
  ~NameResolver();
  NameResolver(const NameResolver&) = delete;
  NameResolver& operator=(const NameResolver&) = delete;
  void check(const syntax::Stmt& stmt);

 private:
  std::unique_ptr<resolve_detail::NameChecker> checker_;
};

}  // namespace mkq::sema
