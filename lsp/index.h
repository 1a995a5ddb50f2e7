// Every declared name of an analysed policy and every place it is used: what
// definition, references, rename and hover read.
//
// Names of the language (lets, templates, parameters, loop variables, import
// aliases) come from sema's own resolver (sema::file_names), so they resolve
// exactly as the evaluator resolves them; `alias.name` goes to the module the
// import loaded. Named blocks (flavor "a100", worker "gpu-east", ...) are
// declared by their label, and used wherever a plain string literal names one
// in a place that takes that kind: `cohort = "research"`, `workers = [...]`,
// `quota "a100"`, a template's `flavor = "a100"` argument. A string in any other
// place is never taken for a reference, so that a rename cannot touch an
// unrelated string that happens to be equal (a worker's `context`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/syntax/ast.h"
#include "lsp/workspace.h"

namespace mkq::lsp {

enum class SymbolKind { Let, Template, Parameter, LoopVariable, Import, Block };

struct Symbol {
  std::string name;
  SymbolKind kind = SymbolKind::Let;
  std::string block_kind;             // Block: its kind ("flavor")
  diag::SourceRange range;            // the name as written (a block's label without its quotes)
  const syntax::Stmt* stmt = nullptr; // the declaring statement (let, template, import, block), if any
  bool top_level = false;             // declared at its file's top level
};

class Index {
 public:
  static Index build(const Analysis& analysis);

  const Symbol& symbol(std::size_t id) const { return symbols_[id]; }
  std::size_t size() const { return symbols_.size(); }
  // The symbol declared or used at `offset` of `file` (a range's end counts, so
  // that a cursor just after a name finds it).
  std::optional<std::size_t> symbol_at(diag::FileId file, std::uint32_t offset) const;
  // Where `id` occurs: its declaration first, then every use in source order.
  std::vector<diag::SourceRange> occurrences(std::size_t id) const;
  // The named blocks of one kind, in declaration order.
  std::vector<std::size_t> blocks_of_kind(const std::string& kind) const;
  // The top-level lets and templates of the module whose tree is in `file`.
  std::vector<std::size_t> exports_of(diag::FileId file) const;
  // The module file an import symbol loaded (kNoFile when it did not load).
  diag::FileId module_of(std::size_t import_symbol) const;

 private:
  struct Occurrence {
    diag::SourceRange range;
    std::size_t symbol = 0;
  };
  std::vector<Symbol> symbols_;
  std::map<diag::FileId, std::vector<Occurrence>> occurrences_;  // declarations included, per file
  std::map<std::size_t, diag::FileId> modules_;                  // import symbol -> the module's file

  friend class IndexBuilder;
};

// The kind of named block a place that takes a name refers to: an attribute,
// a map key or a named argument (`cohort`, `workers`, ...), or a nested
// block's kind (`quota "a100"` names a flavor); "" when it takes none.
std::string referenced_kind(const std::string& place);

}  // namespace mkq::lsp
