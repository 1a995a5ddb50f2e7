// `mkq completion bash|zsh|fish` and `mkq man`: scripts and a man page written
// from the command tree (cli/command_tree.h), so that they name exactly the
// commands and flags the parser accepts.
#pragma once

#include <string>
#include <string_view>

#include "cli/command_tree.h"

namespace mkq::cli {

enum class Shell { Bash, Zsh, Fish };

// The completion script for `shell`: commands and subcommands, flags (with
// their descriptions where the shell shows them), the values of a flag that
// takes one of a set, directories for a DIR, file names for a policy's PATH
// and any other value.
std::string completion_script(const CommandInfo& root, Shell shell, std::string_view version);

// mkq(1) in roff (man's -man macros): every command's usage, description,
// arguments and flags, from the same text as `--help`.
std::string man_page(const CommandInfo& root, std::string_view version);

}  // namespace mkq::cli
