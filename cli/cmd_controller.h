// `mkq controller`: the reconcile loop (runtime/controller) as a CLI11
// subcommand -- its flags, and the run. Subcommands of its own (`mkq
// controller manifests`) are added to command() and run by their owners.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli/cluster_commands.h"
#include "cli/commands.h"
#include "runtime/controller/controller.h"

namespace mkq::cli {

class ControllerCommand {
 public:
  // Registers `controller` on `app`, with the runtime options of `clusters`.
  // The parsed values live here: not copied or moved once constructed.
  ControllerCommand(CLI::App& app, const ClusterCommands& clusters);
  ControllerCommand(const ControllerCommand&) = delete;
  ControllerCommand& operator=(const ControllerCommand&) = delete;

  CLI::App* command() const { return cmd_; }
  // The exit code when `mkq controller` itself was parsed (not one of its
  // subcommands); nullopt otherwise.
  std::optional<int> run(const GlobalOptions& global);

 private:
  CLI::App* cmd_ = nullptr;
  controller::Options options_;
  std::string policy_ = ".";
  // Unset ("" or 0): the policy's `sync {}` decides, else the default.
  std::string sync_;
  int self_heal_ = 0;  // +1 per --self-heal, -1 per --no-self-heal
  int prune_ = 0;
  std::string interval_;
};

}  // namespace mkq::cli
