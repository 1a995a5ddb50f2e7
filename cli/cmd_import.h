// `mkq import`: its flags, and the run (runtime/importer decides; this reads
// the flags, writes the policy where asked and draws the findings).
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/cluster_commands.h"
#include "cli/commands.h"
#include "runtime/importer/importer.h"

namespace mkq::cli {

class ImportCommand {
 public:
  // Registers `import` on `app`, with the runtime options of `clusters`.
  // The parsed values live here: not copied or moved once constructed.
  ImportCommand(CLI::App& app, const ClusterCommands& clusters);
  ImportCommand(const ImportCommand&) = delete;
  ImportCommand& operator=(const ImportCommand&) = delete;

  // The exit code when `mkq import` was parsed; nullopt otherwise.
  std::optional<int> run(const GlobalOptions& global);

 private:
  bool consistent(bool live) const;
  std::optional<importer::Snapshot> read(const std::map<std::string, std::string>& workers,
                                         std::vector<std::string>& notes) const;
  int adopt(const std::filesystem::path& file, std::size_t represented, const GlobalOptions& global) const;

  CLI::App* cmd_ = nullptr;
  std::vector<std::string> files_;
  std::vector<std::string> workers_;  // NAME=FILE or NAME=CONTEXT
  std::string context_;
  std::string manager_;
  std::string output_;
  std::string credentials_;
  bool adopt_ = false;
  RuntimeOptions runtime_;
};

}  // namespace mkq::cli
