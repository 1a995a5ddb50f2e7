// `mkq controller manifests [--namespace NS] [--image IMG] POLICY`: what runs
// the controller on the manager, as YAML documents on stdout
// (runtime/install, docs/controller.md).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli/commands.h"

namespace mkq::cli {

// Registers `manifests` under the `controller` subcommand of `app`, creating
// that subcommand when no other part of the CLI has. The parsed values live
// here: not copied or moved once constructed.
class ControllerManifestsCommand {
 public:
  explicit ControllerManifestsCommand(CLI::App& app);
  ControllerManifestsCommand(const ControllerManifestsCommand&) = delete;
  ControllerManifestsCommand& operator=(const ControllerManifestsCommand&) = delete;

  // The subcommand, for --import-root.
  CLI::App* command() const { return manifests_cmd_; }
  // Its exit code when it was parsed; nullopt otherwise. Checked before
  // `controller` itself, which is parsed too when `manifests` is.
  std::optional<int> run(const GlobalOptions& global);

 private:
  std::string path_ = ".";
  std::string namespace_name_ = "mkq-system";
  std::string image_;
  CLI::App* manifests_cmd_ = nullptr;
};

}  // namespace mkq::cli
