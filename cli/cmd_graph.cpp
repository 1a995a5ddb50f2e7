// `mkq graph`: compile a policy and print its desired objects and their
// dependencies as a Graphviz DOT graph (stdout). Diagnostics go to stderr; on
// an error nothing is printed and the exit code is 1.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "cli/compile.h"
#include "compiler/kueue/graph.h"

namespace mkq::cli {

int run_graph(const GraphOptions& options, const GlobalOptions& global) {
  const Compilation compiled = compile(options.path, CompileTo::Objects, global);
  print_diagnostics(compiled, global);
  if (!compiled.state) return 1;
  const std::string text = kueue::render_dot(*compiled.state);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace mkq::cli
