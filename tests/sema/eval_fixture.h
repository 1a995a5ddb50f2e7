// Test helpers for the evaluator: policies held in an InMemoryFileSystem,
// parsed with syntax::parse_file and evaluated with the standard loader.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/evaluate.h"
#include "tests/support/in_memory_file_system.h"
#include "compiler/sema/value.h"
#include "compiler/syntax/parse.h"
#include "stdlib/stdlib.h"

namespace mkq::test {

// One evaluation and everything it refers to (sources, ASTs, diagnostics).
struct EvalRun {
  sema::InMemoryFileSystem fs;
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  std::vector<std::unique_ptr<syntax::File>> asts;
  std::unique_ptr<sema::StandardModuleLoader> loader;
  sema::EvalPolicy policy;
  bool syntax_ok = true;

  // The source text a range covers.
  std::string text(const diag::SourceRange& range) const {
    if (!range.valid()) return "<no range>";
    const auto& file = sources.file(range.file).text;
    return file.substr(range.begin.offset, range.end.offset - range.begin.offset);
  }
  // "file:line:col" of a range's start.
  std::string where(const diag::SourceRange& range) const {
    if (!range.valid()) return "<no range>";
    const diag::SourcePosition begin = sources.begin_of(range);
    return sources.file(range.file).path + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column);
  }
  // Every diagnostic as "CODE message", sorted by location.
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : diagnostics.sorted(sources)) out.push_back(d.code + " " + d.message);
    return out;
  }
  // The only diagnostic (the test fails when there is not exactly one).
  const diag::Diagnostic& only() const {
    INFO(joined());
    REQUIRE(diagnostics.size() == 1);
    return diagnostics.items().front();
  }
  std::string joined() const {
    std::string all;
    for (const auto& m : messages()) all += m + "\n";
    return all;
  }
};

// The standard library the tests see (the real one changes as it grows).
inline std::span<const stdlib::Module> test_std() {
  static const char units[] = "// std/units\nlet gib = 1Gi\nlet gpu = \"nvidia.com/gpu\"\n";
  static const char shapes[] = "import \"./units.mkq\"\nlet big = units.gib * 8\n";
  static const stdlib::Module modules[] = {
      {"std/shapes", shapes, sizeof shapes - 1},
      {"std/units", units, sizeof units - 1},
  };
  return modules;
}

// Evaluates `files` (path -> text); `roots` defaults to every file under /p/
// directly (like a policy directory), sorted.
inline std::unique_ptr<EvalRun> evaluate_files(const std::map<std::string, std::string>& files,
                                               std::vector<std::string> roots = {},
                                               std::span<const stdlib::Module> std_modules = test_std()) {
  auto run = std::make_unique<EvalRun>();
  for (const auto& [path, text] : files) run->fs.add(path, text);
  if (roots.empty()) {
    for (const auto& [path, text] : files) {
      if (path.rfind("/p/", 0) == 0 && path.find('/', 3) == std::string::npos) roots.push_back(path);
    }
  }
  std::vector<sema::RootFile> root_files;
  for (const auto& path : roots) {
    const auto id = run->sources.add(path.substr(3),
                                     run->fs.read(path, diag::kMaxSourceBytes).text);  // shown as "main.mkq"
    auto ast = syntax::parse_file(run->sources, id, run->diagnostics);
    if (!ast || run->diagnostics.has_errors()) run->syntax_ok = false;
    // Releasable, as analyze() passes root files: each top-level block is let
    // go once evaluated, so every evaluator test runs the path mkq runs.
    if (ast) root_files.push_back({run->fs.canonical(path).generic_string(), path.substr(3), ast.get(), ast.get()});
    run->asts.push_back(std::move(ast));
  }
  if (!run->syntax_ok) {
    FAIL("syntax errors:\n" + run->joined());
  }
  // Every file may be imported: confinement is tested through analyze().
  const std::vector<std::filesystem::path> everywhere = {"/"};
  run->loader = std::make_unique<sema::StandardModuleLoader>(run->fs, run->sources, everywhere, std_modules);
  for (const auto& root : root_files) run->loader->preload(root);
  run->policy = sema::evaluate(root_files, *run->loader, run->diagnostics);
  return run;
}

inline std::unique_ptr<EvalRun> evaluate_text(const std::string& text) {
  return evaluate_files({{"/p/main.mkq", text}});
}

// The value of EXPR, evaluated as the attribute `v` of a block after PRELUDE
// (top-level statements); nullopt when any diagnostic was reported.
struct ExprResult {
  std::unique_ptr<EvalRun> run;
  std::optional<sema::Value> value;
  std::string display() const { return value ? sema::to_display(*value) : "<error>\n" + run->joined(); }
};

inline ExprResult evaluate_expr(const std::string& expr, const std::string& prelude = "") {
  ExprResult result;
  result.run = evaluate_text(prelude + "\nt {\n  v = " + expr + "\n}\n");
  const auto& blocks = result.run->policy.blocks;
  if (result.run->diagnostics.size() == 0 && blocks.size() == 1 && blocks[0].attributes.size() == 1) {
    result.value = blocks[0].attributes[0].value;
  }
  return result;
}

// The display of EXPR's value, or "<error>" and the diagnostics.
inline std::string show(const std::string& expr, const std::string& prelude = "") {
  return evaluate_expr(expr, prelude).display();
}

// The single diagnostic EXPR gives, as "CODE message" (or every diagnostic, one a line).
inline std::string error_of(const std::string& expr, const std::string& prelude = "") {
  auto result = evaluate_expr(expr, prelude);
  auto messages = result.run->messages();
  if (messages.size() == 1) return messages.front();
  return "<" + std::to_string(messages.size()) + " diagnostics>\n" + result.run->joined();
}

// Same for a whole file.
inline std::string error_of_file(const std::string& text) {
  auto run = evaluate_text(text);
  auto messages = run->messages();
  if (messages.size() == 1) return messages.front();
  return "<" + std::to_string(messages.size()) + " diagnostics>\n" + run->joined();
}

}  // namespace mkq::test
