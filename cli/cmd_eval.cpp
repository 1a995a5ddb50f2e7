// `mkq eval`: compile a policy and print its typed model as JSON (stdout).
// Diagnostics go to stderr as for `mkq check`; nothing is printed on stdout
// when there is an error.
#include <cstdio>

#include "cli/commands.h"
#include "cli/compile.h"
#include "compiler/sema/model_json.h"

namespace mkq::cli {

int run_eval(const EvalOptions& options, const GlobalOptions& global) {
  const Compilation compiled = compile(options.path, CompileTo::Model, global);
  print_diagnostics(compiled, global);
  if (!compiled.ok()) return 1;
  std::fputs(sema::model::model_to_json(*compiled.policy).c_str(), stdout);
  return 0;
}

}  // namespace mkq::cli
