#include "cli/compile.h"

#include <cstdio>

#include "base/print.h"

namespace mkq::cli {

operation::CompileOptions compile_options(const GlobalOptions& global) {
  operation::CompileOptions options;
  options.import_roots = global.import_roots;
  options.timed = global.verbose;
  return options;
}

Compilation compile(const std::string& path, CompileTo target, const GlobalOptions& global) {
  Compilation compiled = operation::compile(path, target, compile_options(global));
  print_timings(compiled, global);
  return compiled;
}

void print_diagnostics(const Compilation& compiled, const GlobalOptions& global) {
  const diag::SourceManager& sources = compiled.sources;
  std::fputs(diag::render_text(compiled.diagnostics.sorted(sources), sources, {global.color}).c_str(), stderr);
}

void print_timings(const Compilation& compiled, const GlobalOptions& global) {
  for (const auto& t : compiled.timings) print_timing(t, global);
}

void print_timing(const sema::StageTiming& timing, const GlobalOptions& global) {
  if (!global.verbose) return;
  // What went to stdout before the step ended comes first: with both streams
  // on one terminal or file, the line never lands inside a document.
  std::fflush(stdout);
  base::print(stderr, "mkq: {:<8} {:8.1f} ms\n", timing.stage, timing.milliseconds);
}

}  // namespace mkq::cli
