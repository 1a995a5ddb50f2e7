// Evaluation: the owned ASTs of a policy's files -> the evaluated declaration
// tree (eval_tree.h).
//
// The evaluator runs every statement of docs/language.md: lets (order-free at
// a file's top level, sequential in bodies), templates and `use`, for, if,
// assert, imports of local files and std modules, and every expression. What
// it hands to the binder has nothing left to compute.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/eval_tree.h"
#include "compiler/sema/filesystem.h"
#include "compiler/syntax/ast.h"
#include "compiler/syntax/parse.h"
#include "stdlib/stdlib.h"

namespace mkq::sema {

// A parsed file of the policy: a root file (one of the files PATH stands
// for) or a module it imports. `key` identifies the module: the canonical
// path of a file (FileSystem::canonical), or "std/NAME" for a std module, so
// that a file imported twice (or imported and also a root) is one module.
struct ModuleSource {
  std::string key;
  std::string display;                // how messages name it: the path registered in the SourceManager
  const syntax::File* ast = nullptr;  // null when the module could not be loaded or parsed
  // The same tree, when the caller lets the evaluator drop each top-level
  // block of it once the block is evaluated and its names checked (analyze()
  // for the root files, which nothing reads after evaluation): the tree and
  // the evaluated declarations then never both hold the whole policy. Null:
  // the tree is left whole.
  syntax::File* releasable = nullptr;
  // The top-level blocks of `releasable` left unparsed
  // (syntax::parse_file_deferred()): each is parsed when evaluation reaches
  // it. Null, or empty: every block is parsed.
  const syntax::DeferredBlocks* deferred = nullptr;
};
using RootFile = ModuleSource;

// Finds, reads, registers and parses the module an `import` names. The
// loader reports every problem itself (not found, unreadable, syntax errors)
// and keeps the ASTs alive for as long as it lives.
class ModuleLoader {
 public:
  virtual ~ModuleLoader() = default;
  // Resolves `spec` (the import's path as written) against the importing
  // module (`importer` is its key, `importer_file` its FileId). `at` is the
  // range of the import's path string. Returns the module with a null `ast`
  // when it cannot be used (the reason is already reported). The same module
  // must come back with the same key and AST however often it is asked for.
  virtual ModuleSource load(const std::string& importer, diag::FileId importer_file,
                            const std::string& spec, diag::SourceRange at,
                            diag::Diagnostics& diagnostics) = 0;
};

// The loader of the real tool: `std/NAME` from the embedded standard library
// (registered as "std/NAME.mkq" with is_stdlib), everything else a file
// relative to the importing file's directory (or absolute), read through
// `fs`. A relative path without an extension also finds PATH.mkq. Inside a
// std module, relative imports stay inside std/.
//
// Files are confined to `import_roots` (directories; analyze() passes the
// policy's own directory and any --import-root): an import whose canonical
// path (FileSystem::canonical, so `..` and symlinks are followed) is in none
// of them is refused (E2085) before the file is opened, listed or parsed, so
// that no diagnostic can show a line of it.
class StandardModuleLoader final : public ModuleLoader {
 public:
  // `std_modules` is the standard library (tests may pass their own).
  StandardModuleLoader(const FileSystem& fs, diag::SourceManager& sources,
                       const std::vector<std::filesystem::path>& import_roots,
                       std::span<const stdlib::Module> std_modules = stdlib::modules());
  ModuleSource load(const std::string& importer, diag::FileId importer_file, const std::string& spec,
                    diag::SourceRange at, diag::Diagnostics& diagnostics) override;
  // Makes a module parsed elsewhere (a root file) known, so that importing
  // it finds the same AST instead of reading the file again.
  void preload(const ModuleSource& source) { loaded_[source.key] = source; }
  // Every module loaded or preloaded so far that parsed, by key.
  std::vector<ModuleSource> loaded_modules() const;

 private:
  ModuleSource load_std(const std::string& spec, diag::SourceRange at, diag::Diagnostics& diagnostics);
  ModuleSource load_file(const std::filesystem::path& path, const std::string& display,
                         const std::string& spec, diag::SourceRange at, diag::Diagnostics& diagnostics);
  ModuleSource remember(const std::string& key, std::unique_ptr<syntax::File> ast, bool usable);
  // True when `path` (canonical) lies in one of the import roots.
  bool allowed(const std::filesystem::path& path) const;

  const FileSystem& fs_;
  diag::SourceManager& sources_;
  std::span<const stdlib::Module> std_modules_;
  std::vector<std::filesystem::path> import_roots_;  // canonical
  std::map<std::string, ModuleSource> loaded_;   // by key; ast null for a failed module
  std::vector<std::unique_ptr<syntax::File>> asts_;
};

// The standard modules every policy loads without importing them; their
// declarations join the policy. std/integrations is the integration catalogue.
// analyze() loads them and passes them to evaluate() as its prelude.
inline constexpr std::array<std::string_view, 1> kPreludeModules = {"std/integrations"};

// Evaluates a policy. The `prelude` modules are evaluated first, in order,
// then `roots` in the order of their keys (each key once); each module's
// imports are loaded through `loader` and evaluated once, before the
// statements of the importer (importing a prelude module finds it done).
// Blocks declared by a std module get EvalBlock::from_stdlib. Every problem is
// added to `diagnostics`; the returned tree holds what could be evaluated
// (callers should not bind it when an error was reported).
//
// Values of kind Template, Module and Builtin never reach the returned tree
// (storing one in an attribute is an error), so nothing in it points into the
// evaluator or the ASTs.
// The name an import binds when it has no `as`: the last path segment without
// ".mkq" ("std/gpu" -> "gpu", "./lib/teams.mkq" -> "teams").
std::string default_import_alias(const std::string& spec);

// Receives top-level blocks while evaluation runs, so that the evaluated tree
// of a large policy is never whole (analyze(): the binder, BlockBinder).
// Evaluation produces every block of the standard modules, the imported
// modules and the earlier root files before the statements of the last root
// file run; those come first, in one piece, then each block of the last root
// file's top level as soon as it is evaluated. The stream ends at the first
// error reported (blocks are bound only when evaluation found none): what is
// evaluated after it is in the returned EvalPolicy, as is everything when the
// stream never began (an error before, or the last root file was imported by
// an earlier one).
class BlockStream {
 public:
  virtual ~BlockStream() = default;
  // The blocks so far, in order; `cluster_queues` and `local_queues`: how
  // many the last root file declares at its top level (a size hint).
  virtual void first(std::vector<EvalBlock>&& blocks, std::size_t cluster_queues,
                     std::size_t local_queues) = 0;
  virtual void next(EvalBlock&& block) = 0;
};

EvalPolicy evaluate(const std::vector<RootFile>& roots, ModuleLoader& loader, diag::Diagnostics& diagnostics,
                    const std::vector<ModuleSource>& prelude = {}, BlockStream* stream = nullptr);

// Evaluates the policy as evaluate() does, its diagnostics dropped, and
// returns the values `target` (an expression of one of the modules) took
// each time evaluation reached it, at most `limit` of them: none when it was
// never reached or always failed. For hover in mkq lsp.
std::vector<Value> values_of(const syntax::Expr& target, const std::vector<RootFile>& roots, ModuleLoader& loader,
                             const std::vector<ModuleSource>& prelude, std::size_t limit);

}  // namespace mkq::sema
