// `mkq eval`: compile a policy and print its typed model as JSON (stdout).
// Diagnostics go to stderr as for `mkq check`; nothing is printed on stdout
// when there is an error.
#include <chrono>
#include <cstdio>
#include <vector>
#include <string>

#include "cli/commands.h"
#include "compiler/kueue/validate.h"
#include "compiler/sema/analyze.h"
#include "compiler/sema/model_json.h"

namespace mkq::cli {

int run_eval(const EvalOptions& options, const GlobalOptions& global) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  sema::RealFileSystem fs;
  std::vector<sema::StageTiming> timings;
  const auto policy = sema::analyze(options.path, fs, sources, diagnostics, global.verbose ? &timings : nullptr);
  // Kueue's own rules, on a policy the language accepts.
  if (policy && !diagnostics.has_errors()) {
    const auto start = std::chrono::steady_clock::now();
    kueue::validate(*policy, diagnostics);
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (global.verbose) timings.push_back({"validate", took.count()});
  }
  for (const auto& t : timings) std::fprintf(stderr, "mkq: %-8s %8.1f ms\n", t.stage.c_str(), t.milliseconds);
  std::fputs(diag::render_text(diagnostics.sorted(sources), sources, {global.color}).c_str(), stderr);
  if (!policy || diagnostics.has_errors()) return 1;
  std::fputs(sema::model::model_to_json(*policy).c_str(), stdout);
  return 0;
}

}  // namespace mkq::cli
