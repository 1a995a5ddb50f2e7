// "Did you mean": when the command line does not parse, the one line that
// names the unknown command or flag and the closest one mkq knows.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mkq::cli {

// The first unknown subcommand or flag in `args` (in command-line order), as
// "unknown command \"pln\" for \"mkq\"; did you mean \"plan\"?" or
// "unknown flag --auto-aprove for \"mkq apply\"; did you mean --auto-approve?";
// nullopt when every word is known (the parse failed for another reason, such
// as a missing value, and CLI11's own message says it best). Reads only the
// definitions of `app`, never what a failed parse left in it.
std::optional<std::string> usage_hint(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace mkq::cli
