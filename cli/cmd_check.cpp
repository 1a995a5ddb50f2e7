// `mkq check`: compile a policy and report every diagnostic.
#include <cstdio>

#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/summary.h"

namespace mkq::cli {

int run_check(const CheckOptions& options, const GlobalOptions& global) {
  const Compilation compiled = compile(options.path, CompileTo::Model, global);
  if (options.format == OutputFormat::Json) {
    std::fputs(diag::render_json(compiled.diagnostics.sorted(compiled.sources), compiled.sources).c_str(), stdout);
    return compiled.ok() ? 0 : 1;
  }
  print_diagnostics(compiled, global);
  if (!compiled.ok()) return 1;
  std::fputs(summarize(*compiled.policy, options.path).c_str(), stdout);
  return 0;
}

}  // namespace mkq::cli
