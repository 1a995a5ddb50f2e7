// compiler/sema entry point: a policy path -> the checked, evaluated policy model.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/evaluate.h"
#include "compiler/sema/filesystem.h"
#include "compiler/sema/model.h"
#include "compiler/syntax/ast.h"

namespace mkq::sema {

// Loads PATH (a .mkq file, or a directory whose *.mkq files form one policy),
// parses every file, resolves imports (local files and the embedded std/...
// modules), evaluates, binds the result to the policy model and checks it.
// Every problem found is added to `diagnostics`; the policy is returned only
// when there is no error. Syntax errors stop before evaluation.
// How long one step of analyze() took, for `mkq -v`.
struct StageTiming {
  std::string stage;  // "parse", "evaluate", "bind"
  double milliseconds = 0;
};

// The syntax trees of one analyze() run, kept for tools that read the source
// after checking it (mkq lsp); analyze() itself drops them after evaluation.
struct ParsedPolicy {
  // The policy's own files that parsed (their AST may be partial after a
  // syntax error), in policy_files() order.
  std::vector<std::unique_ptr<syntax::File>> roots;
  // Owns every imported module's tree (loaded_modules()); null when syntax
  // errors stopped the analysis before imports were loaded. It refers to the
  // FileSystem and SourceManager analyze() was given: they must outlive it.
  std::unique_ptr<StandardModuleLoader> imports;
};

struct AnalyzeOptions {
  // Directories whose files the policy may import besides its own directory
  // tree (PATH itself when it is a directory, else the directory of the file
  // PATH names, symlinks resolved) and std/ (mkq --import-root).
  std::vector<std::filesystem::path> import_roots;
  std::vector<StageTiming>* timings = nullptr;  // each step's time, when set
  ParsedPolicy* parsed = nullptr;                // when set, the syntax trees are moved here instead of dropped
};

std::optional<model::Policy> analyze(const std::filesystem::path& path, const FileSystem& fs,
                                     diag::SourceManager& sources, diag::Diagnostics& diagnostics,
                                     const AnalyzeOptions& options = {});

// The root files PATH stands for (one file, or the sorted *.mkq of a
// directory). A missing path, an unreadable file or a directory without .mkq
// files is reported (E9001..E9003) and gives an empty list.
std::vector<std::filesystem::path> policy_files(const std::filesystem::path& path, const FileSystem& fs,
                                                diag::Diagnostics& diagnostics);

}  // namespace mkq::sema
