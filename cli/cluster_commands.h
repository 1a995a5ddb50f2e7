// The commands that reach a policy's clusters -- plan, apply, destroy, status
// and credentials rotate -- as CLI11 subcommands: their flags, and which one to
// run once parsed (state and history: state_commands.h).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace mkq::cli {

// Registers its subcommands on `app` (in the order `mkq --help` lists them).
// The parsed values live here: not copied or moved once constructed.
class ClusterCommands {
 public:
  explicit ClusterCommands(CLI::App& app);
  ClusterCommands(const ClusterCommands&) = delete;
  ClusterCommands& operator=(const ClusterCommands&) = delete;

  // Adds the options that say where the clusters and the state are
  // (--kubeconfig, --sandbox, --state, ...) to another command (controller).
  void add_runtime_options(CLI::App* cmd, RuntimeOptions& runtime) const;
  // The subcommands that compile a policy (they take --import-root).
  std::vector<CLI::App*> compiling() const;
  // The exit code of the subcommand that was parsed; nullopt when none of these was.
  std::optional<int> run(const GlobalOptions& global);

 private:
  std::function<void(CLI::App*, RuntimeOptions&)> runtime_options_;
  PlanCommandOptions plan;
  std::string plan_format = "text";
  CLI::App* plan_cmd = nullptr;
  ApplyCommandOptions apply;
  std::string apply_wait;
  CLI::App* apply_cmd = nullptr;
  ApplyCommandOptions destroy;
  CLI::App* destroy_cmd = nullptr;
  StatusOptions status;
  std::string status_format = "text";
  std::string status_wait;
  CLI::App* status_cmd = nullptr;
  RotateOptions rotate;
  CLI::App* rotate_cmd = nullptr;
};

}  // namespace mkq::cli
