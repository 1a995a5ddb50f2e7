// `mkq state push|pull`: a whole state copied between the local file and
// the cluster of --state kubernetes://... (runtime/state/cluster_state.h).
// Results go to stdout, errors to stderr as "mkq: error: ...".
#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/state_output.h"
#include "cli/terminal_ui.h"
#include "runtime/operation/hints.h"
#include "runtime/operation/state_edit.h"

namespace mkq::cli {

using operation::lock_held_message;
using Json = OrderedJson;

// `mkq state push` / `mkq state pull`: the local file to the cluster of
// --state kubernetes://..., or back; what would be lost is refused without --force.
int run_state_transfer(const StateCommandOptions& options) {
  const bool push = options.action == "push";
  const base::Result<state::Transfer> done = operation::transfer_state(
      {push, options.file, options.state_path, options.runtime, options.policy_path, options.force});
  if (!done) {
    error_line(done.error().message);
    return 1;
  }
  if (done.value().outcome == state::Transfer::Outcome::LockHeld) {
    error_line(lock_held_message(options.state_path, done.value().holder, options.policy_path, options.state_option) +
               "; nothing was pushed");
    return 1;
  }
  if (options.json) {
    print_document(Json{{push ? "pushed" : "pulled",
                     {{"from", push ? options.file : options.state_path},
                      {"to", push ? options.state_path : options.file},
                      {"lineage", done.value().lineage},
                      {"serial", done.value().serial},
                      {"replaced", done.value().replaced}}}});
  } else if (push) {
    base::print("pushed {} to {} (lineage {}, serial {})\n", options.file, options.state_path, done.value().lineage,
                done.value().serial);
  } else {
    base::print("pulled {} into {} (lineage {}, serial {})\n", options.state_path, options.file, done.value().lineage,
                done.value().serial);
  }
  return 0;
}

}  // namespace mkq::cli
