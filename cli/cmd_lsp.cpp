// `mkq lsp`: the language server on stdin and stdout (lsp/lsp.h). Flags and
// wiring only; stdout belongs to the protocol, so nothing else is printed there.
#include <csignal>
#include <unistd.h>

#include "base/clock.h"
#include "cli/commands.h"
#include "compiler/sema/filesystem.h"
#include "lsp/lsp.h"

namespace mkq::cli {

int run_lsp(const LspOptions& options, const GlobalOptions& global) {
  // A client that goes away must end the server through the end of its input, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  lsp::ServeOptions serve;
  serve.debounce = std::chrono::milliseconds(options.debounce_ms);
  serve.import_roots.assign(global.import_roots.begin(), global.import_roots.end());
  lsp::StdioTransport transport(STDIN_FILENO, STDOUT_FILENO);
  const sema::RealFileSystem disk;
  return lsp::serve(transport, base::system_clock(), disk, serve);
}

}  // namespace mkq::cli
