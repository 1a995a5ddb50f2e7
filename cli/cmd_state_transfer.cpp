// `mkq state push|pull`: a whole state copied between the local file and
// the cluster of --state kubernetes://... (runtime/state/cluster_state.h).
// Results go to stdout, errors to stderr as "mkq: error: ...".
#include <memory>
#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/state_output.h"
#include "cli/terminal_ui.h"
#include "runtime/operation/hints.h"
#include "runtime/operation/state_open.h"
#include "runtime/state/cluster_state.h"

namespace mkq::cli {

using operation::lock_held_message;
using Json = OrderedJson;

// `mkq state push` / `mkq state pull`: the local file to the cluster of
// --state kubernetes://..., or back; what would be lost is refused without --force.
int run_state_transfer(const StateCommandOptions& options) {
  const bool push = options.action == "push";
  if (!state::is_cluster_address(options.state_path)) {
    error_line(fmt::format("state {} copies a state {} a cluster: name it with --state "
                           "kubernetes://CONTEXT/NAMESPACE/NAME (or MKQ_STATE)",
                           options.action, push ? "into" : "out of"));
    return 1;
  }
  base::Result<std::unique_ptr<state::ClusterState>> cluster =
      operation::connect_cluster_state(options.state_path, options.runtime, options.policy_path);
  if (!cluster) {
    error_line(base::render(cluster.error()));
    return 1;
  }
  const kube::Result<state::Transfer> done =
      push ? state::push_state(options.file, **cluster, state::LockHolder{"state push", "", "", 0, ""}, options.force)
           : state::pull_state(**cluster, options.file, options.force);
  if (!done.ok()) {
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
