#include "cli/cmd_controller.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/interrupt.h"
#include "cli/run_options.h"
#include "cli/terminal_ui.h"
#include "runtime/controller/watch.h"

namespace mkq::cli {

namespace {

// The controller's log on stderr: "mkq: controller: ..." and "mkq: error: ...".
class StderrLog final : public controller::Log {
 public:
  void line(const std::string& text) override { base::print(stderr, "mkq: controller: {}\n", text); }
  void error(const std::string& text) override { error_line(text); }
};

}  // namespace

ControllerCommand::ControllerCommand(CLI::App& app, const ClusterCommands& clusters) {
  cmd_ = app.add_subcommand(
      "controller",
      "Keep the fleet true: plan on start, on every change of the policy and every interval; apply what "
      "--sync allows; rotate worker credentials before they expire (docs/controller.md)");
  cmd_->add_option("--policy", policy_,
                   "The policy's directory, e.g. a mounted ConfigMap or a git-sync checkout "
                   "(default: .)");
  clusters.add_runtime_options(cmd_, options_.run.runtime);
  // Each of these overrides the policy's `sync {}` block (docs/controller.md, "Settings").
  cmd_->add_option("--sync", sync_,
                   "auto: apply what the policy asks; manual (default): report it, apply only "
                   "credential rotations (and drift repairs with --self-heal)")
      ->check(CLI::IsMember({"auto", "manual"}));
  cmd_->add_flag("--self-heal,!--no-self-heal", self_heal_,
                 "Repair drift (objects changed outside mkq); else report it (default: off)");
  cmd_->add_flag("--prune,!--no-prune", prune_,
                 "Delete objects mkq applied that the policy no longer declares (default: off)");
  cmd_->add_option("--interval", interval_, "Plan at least this often (default: 5m)")->type_name("DURATION");
  cmd_->add_flag("--leader-elect,!--no-leader-elect", options_.leader.enabled,
                 "Reconcile only while holding the Lease on the manager (default: on)");
  cmd_->add_option("--lease-namespace", options_.leader.namespace_name,
                   "The Lease's namespace on the manager; its Events go there too (default: mkq-system)");
  cmd_->add_option("--lease-name", options_.leader.name, "The Lease's name (default: mkq-controller)");
  cmd_->add_option("--listen", options_.listen,
                   "ADDR:PORT of /healthz, /readyz and /metrics (default: :8080; port 0 picks a free one)");
}

std::optional<int> ControllerCommand::run(const GlobalOptions& global) {
  if (!*cmd_ || !cmd_->get_subcommands().empty()) return std::nullopt;
  if (!interval_.empty()) {
    std::chrono::milliseconds interval{0};
    if (!parse_duration(interval_, &interval) || interval.count() <= 0) {
      error_line(fmt::format("--interval takes a duration above zero such as 30s, 5m or 1h, not \"{}\"", interval_));
      return 1;
    }
    options_.interval = interval;
  }
  // A policy that is not there at all is a mistake of the install (a ConfigMap not mounted, a
  // wrong path), not a policy to report on every interval: refuse before serving anything.
  std::error_code exists_error;
  if (!std::filesystem::exists(policy_, exists_error)) {
    error_line(fmt::format("--policy {}: no such file or directory", policy_));
    return 1;
  }
  if (!run_options(policy_, options_.run.runtime, global, &options_.run)) return 1;
  if (!sync_.empty()) options_.sync = sync_ == "auto" ? controller::Sync::Auto : controller::Sync::Manual;
  // --x counts +1, --no-x -1: above zero on, below off; zero (neither): the policy decides.
  if (self_heal_ != 0) options_.self_heal = self_heal_ > 0;
  if (prune_ != 0) options_.prune = prune_ > 0;
  std::vector<std::string> watched{policy_};
  for (const std::string& root : global.import_roots) watched.push_back(root);
  controller::DirectoryWatch watch(watched);
  StderrLog log;
  operation::KubeconfigResolver resolver;
  // SIGTERM and Ctrl-C: an apply in flight starts no new change, the loop ends after it (exit 130
  // when changes were left, else 0); a second signal ends mkq at once.
  const InterruptScope interrupts;
  switch (controller::run(options_, resolver, watch, base::system_clock(), log, *interrupts.token())) {
    case controller::Ending::Stopped: return 0;
    case controller::Ending::Interrupted: return kInterruptedExit;
    case controller::Ending::CannotServe: return 1;
  }
  return 1;
}

}  // namespace mkq::cli
