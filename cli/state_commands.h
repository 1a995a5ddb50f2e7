// The commands that read or edit the state without reaching a policy's
// clusters -- state (list, show, unlock, rm, push, pull) and history -- as
// CLI11 subcommands: their flags, and which one to run once parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "cli/commands.h"

namespace mkq::cli {

// --state, else $MKQ_STATE (a team's kubernetes:// state, set once), else "".
void state_from_environment(std::string& state);

// Registers `state` and `history` on `app` (in the order `mkq --help` lists them).
// The parsed values live here: not copied or moved once constructed.
class StateCommands {
 public:
  explicit StateCommands(CLI::App& app);
  StateCommands(const StateCommands&) = delete;
  StateCommands& operator=(const StateCommands&) = delete;

  // The exit code of the subcommand that was parsed; nullopt when neither was.
  std::optional<int> run(const GlobalOptions& global);

 private:
  StateCommandOptions state;
  std::string state_format = "text";
  std::string state_policy = ".";
  std::string state_file;
  CLI::App* state_cmd = nullptr;
  HistoryOptions history;
  std::string history_format = "text";
  std::string history_policy = ".";
  CLI::App* history_cmd = nullptr;
};

}  // namespace mkq::cli
