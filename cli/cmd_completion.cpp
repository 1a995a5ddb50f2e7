// `mkq completion SHELL` and `mkq man`: print what is written from the command
// line's own definitions.
#include <cstdio>

#include "cli/commands.h"
#include "cli/shell_completion.h"

namespace mkq::cli {

int run_completion(const CLI::App& app, const std::string& shell) {
  const Shell which = shell == "zsh" ? Shell::Zsh : shell == "fish" ? Shell::Fish : Shell::Bash;
  std::fputs(completion_script(describe(app), which, MKQ_VERSION).c_str(), stdout);
  return 0;
}

int run_man(const CLI::App& app) {
  std::fputs(man_page(describe(app), MKQ_VERSION).c_str(), stdout);
  return 0;
}

}  // namespace mkq::cli
