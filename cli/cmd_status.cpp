// `mkq status [PATH]`: runtime/operation's status (every managed Kueue
// object's Active condition, runtime/reconcile/status.h, and the live
// credentials per worker), printed with a warning for a worker with more than
// one; exit 0 only when every object is Active. Reads no state file and takes no lock: it
// changes nothing.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/run_options.h"
#include "cli/terminal_ui.h"
#include "runtime/operation/operation.h"

namespace mkq::cli {

int run_status(const StatusOptions& options, const GlobalOptions& global) {
  operation::StatusRequest request;
  if (!wait_option(options.wait, options.wait_duration, &request.wait)) return 1;
  request.path = options.path;
  request.runtime = options.runtime;
  request.compile = compile_options(global);
  request.verbose = global.verbose;
  TerminalUi ui(global);
  operation::KubeconfigResolver resolver;
  const operation::StatusResult result = operation::status(request, resolver, ui);
  if (result.stop != operation::Stop::None) return 1;
  const reconcile::StatusReport& report = *result.report;
  const std::string text =
      options.json ? reconcile::render_status_json(report).dump(2) + "\n"
                   : reconcile::render_status_text(report, global.color && isatty(STDOUT_FILENO) == 1);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  for (const std::string& warning : reconcile::credential_warnings(report)) {
    base::print(stderr, "mkq: warning: {}\n", warning);
  }
  return report.all_active() && report.all_reachable() ? 0 : 1;
}

}  // namespace mkq::cli
