// The command line as data: every command, its flags and arguments, read from
// the CLI11 definitions in main.cpp (their one home), for what is generated
// from them: shell completion and the man page.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace mkq::cli {

// What a flag's value is, for completion.
enum class ValueKind {
  None,       // a switch: no value
  Text,       // any text (completed as a file name: most values are paths)
  Directory,  // an existing directory (CLI::ExistingDirectory)
  Choice,     // one of `choices` (CLI::IsMember)
};

struct FlagInfo {
  std::vector<std::string> names;  // "-v", "--verbose": short names first, as written
  std::string description;
  ValueKind value = ValueKind::None;
  std::string value_name;            // "DIR", "TEXT", ... (empty for a switch)
  std::vector<std::string> choices;  // ValueKind::Choice only
  bool repeatable = false;
};

struct ArgumentInfo {
  std::string name;  // "PATH"
  std::string description;
  bool required = false;
  bool repeatable = false;
  std::vector<std::string> choices;  // one of these (CLI::IsMember); empty: a file name
};

struct CommandInfo {
  std::vector<std::string> path;  // {"mkq", "state", "list"}
  std::string description;
  std::vector<FlagInfo> flags;      // its own, then those of the parents it falls through to
  std::vector<ArgumentInfo> arguments;
  std::vector<CommandInfo> subcommands;
  bool requires_subcommand = false;

  // The words completed where an argument goes: the subcommands' names and
  // the arguments' choices; takes_file: an argument is a file name.
  std::vector<std::string> words() const;
  bool takes_file() const;
  std::string spelled() const;  // "mkq state list"
  std::string usage() const;    // "mkq check [OPTIONS] [PATH]"
};

// The tree under `app` (the root: `mkq`). Hidden flags (no group) are left out;
// --help and --version are included.
CommandInfo describe(const CLI::App& app);

}  // namespace mkq::cli
