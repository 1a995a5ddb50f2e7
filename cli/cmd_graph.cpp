// `mkq graph`: compile a policy and print its desired objects and their
// dependencies as a Graphviz DOT graph (stdout). Diagnostics go to stderr; on
// an error nothing is printed and the exit code is 1.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "compiler/kueue/graph.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/policy_name.h"
#include "compiler/sema/analyze.h"

namespace mkq::cli {

int run_graph(const GraphOptions& options, const GlobalOptions& global) {
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  sema::RealFileSystem files;
  std::vector<sema::StageTiming> timings;
  const auto policy = sema::analyze(options.path, files, sources, diagnostics, global.verbose ? &timings : nullptr);
  for (const auto& t : timings) std::fprintf(stderr, "mkq: %-8s %8.1f ms\n", t.stage.c_str(), t.milliseconds);

  std::optional<kueue::DesiredState> state;
  if (policy && !diagnostics.has_errors()) {
    kueue::LowerOptions lower_options;
    lower_options.policy_name = kueue::policy_name_for(options.path);
    state = kueue::lower(*policy, lower_options, diagnostics);
  }
  std::fputs(diag::render_text(diagnostics.sorted(sources), sources, {global.color}).c_str(), stderr);
  if (!state || diagnostics.has_errors()) return 1;
  const std::string text = kueue::render_dot(*state);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace mkq::cli
