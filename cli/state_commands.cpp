// `mkq state ...` and `mkq history`: their flags (state_commands.h).
#include "cli/state_commands.h"

#include <cstdlib>

#include "cli/option_checks.h"

#include "runtime/operation/session.h"

namespace mkq::cli {

void state_from_environment(std::string& state) {
  if (!state.empty()) return;
  if (const char* value = std::getenv("MKQ_STATE"); value != nullptr) state = value;
}

StateCommands::StateCommands(CLI::App& app) {
  state_cmd = app.add_subcommand(
      "state", "Read the state mkq keeps of what it applied; release a stale lock; forget objects");
  state_cmd->require_subcommand(1);
  state_cmd->fallthrough();
  state_cmd->add_option("--state", state_file,
                        "The state database (default: $MKQ_STATE, else .mkq/state.db beside --policy), or "
                        "kubernetes://CONTEXT/NAMESPACE/NAME");
  state_cmd->add_option("--kubeconfig", state.runtime.kubeconfig,
                        "The kubeconfig of a kubernetes:// state's context (default: $KUBECONFIG, then "
                        "~/.kube/config; none at all: the sandbox's)");
  state_cmd->add_option("--policy", state_policy, "The policy whose state to read (default: .)");
  state_cmd->add_option("--format", state_format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  state_cmd->add_flag("--json", state.json, "The same as --format json (kept for scripts written before --format)");
  state_cmd->add_subcommand("list", "List every object in the inventory")->callback([this] { state.action = "list"; });
  CLI::App* state_show = state_cmd->add_subcommand("show", "Show one object of the inventory");
  state_show->add_option("ADDRESS", state.address, "CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME")->required();
  state_show->callback([this] { state.action = "show"; });
  CLI::App* state_unlock = state_cmd->add_subcommand("unlock", "Release the apply lock (of a run that died)");
  state_unlock->add_flag("--force", state.force, "Release it even while its holder still runs on this host");
  state_unlock->callback([this] { state.action = "unlock"; });
  CLI::App* state_rm = state_cmd->add_subcommand(
      "rm", "Forget objects (ADDRESS..., or every object of --cluster NAME) without touching any cluster");
  state_rm->add_option("ADDRESS", state.addresses, "CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME");
  state_rm->add_option("--cluster", state.clusters, "Every object of this cluster, e.g. a dead worker (repeatable)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  state_rm->callback([this] { state.action = "rm"; });
  CLI::App* state_push = state_cmd->add_subcommand(
      "push", "Copy the local state file into the cluster named by --state kubernetes://CONTEXT/NAMESPACE/NAME");
  state_push->add_option("--file", state.file, "The local state (default: .mkq/state.db beside --policy)");
  state_push->add_flag("--force", state.force, "Replace a state of another lineage, a newer one, or a damaged one");
  state_push->callback([this] { state.action = "push"; });
  CLI::App* state_pull = state_cmd->add_subcommand(
      "pull", "Copy the state kept in the cluster named by --state kubernetes://... into a local file");
  state_pull->add_option("--file", state.file, "The local state (default: .mkq/state.db beside --policy)");
  state_pull->add_flag("--force", state.force, "Replace a local state of another lineage, a newer one, or a damaged one");
  state_pull->callback([this] { state.action = "pull"; });

  history_cmd = app.add_subcommand("history", "List past applies and destroys, or one run's objects");
  history_cmd->add_option("RUN", history.run, "A run's id: show each object's outcome");
  history_cmd->add_option("--state", history.state_path,
                          "The state database (default: $MKQ_STATE, else .mkq/state.db beside --policy), or "
                          "kubernetes://CONTEXT/NAMESPACE/NAME");
  history_cmd->add_option("--kubeconfig", history.runtime.kubeconfig,
                          "The kubeconfig of a kubernetes:// state's context (default: $KUBECONFIG, then "
                          "~/.kube/config; none at all: the sandbox's)");
  history_cmd->add_option("--policy", history_policy, "The policy whose history to read (default: .)");
  history_cmd->add_option("--limit", history.limit, "How many runs (default: 20)")->check(Within(1, 100000));
  history_cmd->add_option("--format", history_format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  history_cmd->add_flag("--json", history.json, "The same as --format json (kept for scripts written before --format)");
}

std::optional<int> StateCommands::run(const GlobalOptions& global) {
  state_from_environment(state_file);
  state_from_environment(history.state_path);
  if (*state_cmd) {
    RuntimeOptions runtime;
    runtime.state_path = state_file;
    state.state_path = operation::state_path_for(state_policy, runtime).string();
    state.policy_path = state_policy;
    state.state_option = state_file;
    if (state.file.empty()) state.file = operation::state_path_for(state_policy, RuntimeOptions{}).string();
    state.json = state.json || state_format == "json";
    return run_state(state, global);
  }
  if (*history_cmd) {
    RuntimeOptions runtime;
    runtime.state_path = history.state_path;
    history.state_path = operation::state_path_for(history_policy, runtime).string();
    history.policy_path = history_policy;
    history.json = history.json || history_format == "json";
    return run_history(history, global);
  }
  return std::nullopt;
}

}  // namespace mkq::cli
