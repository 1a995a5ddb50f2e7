#include "cli/shell_completion.h"

#include <functional>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mkq::cli {
namespace {

void each_command(const CommandInfo& command, const std::function<void(const CommandInfo&)>& visit) {
  visit(command);
  for (const CommandInfo& sub : command.subcommands) each_command(sub, visit);
}

// Text inside single quotes: bash and zsh end the quote, add an escaped one and
// open it again; fish escapes it (and its backslashes).
std::string quoted(std::string_view text, Shell shell) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += shell == Shell::Fish ? "\\'" : "'\\''";
    } else if (c == '\\' && shell == Shell::Fish) {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  return fmt::format("{}", fmt::join(words, separator));
}

// Every command below the root, as `case` patterns ('mkq check'|'mkq state list').
std::string command_patterns(const CommandInfo& root, Shell shell) {
  std::vector<std::string> patterns;
  each_command(root, [&](const CommandInfo& c) {
    if (c.path.size() > 1) patterns.push_back(quoted(c.spelled(), shell));
  });
  return joined(patterns, shell == Shell::Fish ? " " : "|");
}

// `case "$cmd $prev"` patterns for the flags whose value is of `kind`.
std::string value_patterns(const CommandInfo& root, ValueKind kind, Shell shell) {
  std::vector<std::string> patterns;
  each_command(root, [&](const CommandInfo& c) {
    for (const FlagInfo& flag : c.flags) {
      if (flag.value != kind) continue;
      for (const std::string& name : flag.names) patterns.push_back(quoted(c.spelled() + " " + name, shell));
    }
  });
  return joined(patterns, "|");
}

std::vector<std::string> flag_names(const CommandInfo& command) {
  std::vector<std::string> names;
  for (const FlagInfo& flag : command.flags) names.insert(names.end(), flag.names.begin(), flag.names.end());
  return names;
}

// The arms of `case "$cmd $prev"` (bash and zsh): a flag's value set, a
// directory, any other value a file name. `open` starts an arm's patterns
// ("(" in zsh); each action completes the word and returns.
std::string value_arms(const CommandInfo& root, Shell shell, const std::string& open,
                       const std::function<std::string(const std::vector<std::string>&)>& choices,
                       const std::string& directory, const std::string& file) {
  std::string s;
  const auto arm = [&](const std::string& patterns, const std::string& action) {
    fmt::format_to(std::back_inserter(s), "    {}{}) {}; return ;;\n", open, patterns, action);
  };
  each_command(root, [&](const CommandInfo& c) {
    for (const FlagInfo& flag : c.flags) {
      if (flag.value != ValueKind::Choice) continue;
      std::vector<std::string> patterns;
      for (const std::string& name : flag.names) patterns.push_back(quoted(c.spelled() + " " + name, shell));
      arm(joined(patterns, "|"), choices(flag.choices));
    }
  });
  if (const std::string dirs = value_patterns(root, ValueKind::Directory, shell); !dirs.empty()) arm(dirs, directory);
  if (const std::string texts = value_patterns(root, ValueKind::Text, shell); !texts.empty()) arm(texts, file);
  return s;
}

std::string header(Shell shell, std::string_view version, std::string_view load) {
  const char* name = shell == Shell::Bash ? "bash" : shell == Shell::Zsh ? "zsh" : "fish";
  return fmt::format("# {0} completion for mkq, written by `mkq completion {0}` (mkq {1}); do not edit.\n# {2}\n", name,
                     version, load);
}

std::string bash(const CommandInfo& root, std::string_view version) {
  std::string s = header(Shell::Bash, version,
                         "Load it with `source <(mkq completion bash)` in ~/.bashrc, or save it as "
                         "~/.local/share/bash-completion/completions/mkq.");
  // The script's fixed text appended as it is (its braces are the shell's), the generated parts between.
  s += "_mkq() {\n"
       "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=mkq i\n"
       "  # --flag=value: bash splits at the '='\n"
       "  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
       "    case \"$cmd ${COMP_WORDS[i]}\" in\n"
       "      ";
  s += command_patterns(root, Shell::Bash);
  s += ") cmd=\"$cmd ${COMP_WORDS[i]}\" ;;\n"
       "    esac\n"
       "  done\n"
       "  case \"$cmd $prev\" in\n";
  s += value_arms(
      root, Shell::Bash, "",
      [](const std::vector<std::string>& choices) {
        return fmt::format("COMPREPLY=($(compgen -W {} -- \"$cur\"))", quoted(joined(choices, " "), Shell::Bash));
      },
      "COMPREPLY=($(compgen -d -- \"$cur\"))", "COMPREPLY=($(compgen -f -- \"$cur\"))");
  s += "  esac\n"
       "  local commands= flags= files=\n"
       "  case \"$cmd\" in\n";
  each_command(root, [&](const CommandInfo& c) {
    fmt::format_to(std::back_inserter(s), "    {}) commands={} flags={}{} ;;\n", quoted(c.spelled(), Shell::Bash),
                   quoted(joined(c.words(), " "), Shell::Bash), quoted(joined(flag_names(c), " "), Shell::Bash),
                   c.takes_file() ? " files=1" : "");
  });
  s += "  esac\n"
       "  if [[ $cur == -* ]]; then\n"
       "    COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
       "  else\n"
       "    COMPREPLY=($(compgen -W \"$commands\" -- \"$cur\"))\n"
       "    [[ -n $files ]] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
       "  fi\n"
       "}\n"
       "complete -o filenames -F _mkq mkq\n";
  return s;
}

// "name:description" items for zsh's _describe (a colon in the name escaped).
std::string described(const std::string& name, const std::string& description) {
  return quoted(fmt::format("{}:{}", name, description), Shell::Zsh);
}

std::string zsh(const CommandInfo& root, std::string_view version) {
  std::string s = "#compdef mkq\n";
  s += header(Shell::Zsh, version,
              "Load it with `source <(mkq completion zsh)` in ~/.zshrc after compinit, or save it as _mkq in a "
              "directory of $fpath.");
  s += "_mkq() {\n"
       "  local cmd=mkq i prev=${words[CURRENT-1]}\n"
       "  for ((i = 2; i < CURRENT; i++)); do\n"
       "    case \"$cmd ${words[i]}\" in\n"
       "      (";
  s += command_patterns(root, Shell::Zsh);
  s += ") cmd=\"$cmd ${words[i]}\" ;;\n"
       "    esac\n"
       "  done\n"
       "  case \"$cmd $prev\" in\n";
  s += value_arms(
      root, Shell::Zsh, "(",
      [](const std::vector<std::string>& choices) { return fmt::format("compadd -- {}", fmt::join(choices, " ")); },
      "_files -/", "_files");
  s += "  esac\n"
       "  local -a commands flags\n"
       "  local files=\n"
       "  case \"$cmd\" in\n";
  each_command(root, [&](const CommandInfo& c) {
    std::vector<std::string> commands;
    for (const CommandInfo& sub : c.subcommands) commands.push_back(described(sub.path.back(), sub.description));
    for (const ArgumentInfo& argument : c.arguments) {
      for (const std::string& choice : argument.choices) commands.push_back(described(choice, argument.description));
    }
    std::vector<std::string> flags;
    for (const FlagInfo& flag : c.flags) {
      for (const std::string& name : flag.names) flags.push_back(described(name, flag.description));
    }
    fmt::format_to(std::back_inserter(s), "    ({}) commands=({}) flags=({}){} ;;\n", quoted(c.spelled(), Shell::Zsh),
                   fmt::join(commands, " "), fmt::join(flags, " "), c.takes_file() ? " files=1" : "");
  });
  s += "  esac\n"
       "  if [[ $PREFIX == -* ]]; then\n"
       "    _describe -t options option flags\n"
       "  else\n"
       "    (( $#commands )) && _describe -t commands command commands\n"
       "    [[ -n $files ]] && _files\n"
       "  fi\n"
       "  return 0\n"
       "}\n"
       "if [[ $funcstack[1] == _mkq ]]; then _mkq \"$@\"; else compdef _mkq mkq; fi\n";
  return s;
}

std::string fish(const CommandInfo& root, std::string_view version) {
  std::string s = header(Shell::Fish, version,
                         "Load it with `mkq completion fish | source`, or save it as "
                         "~/.config/fish/completions/mkq.fish.");
  auto out = std::back_inserter(s);
  s += "function __mkq_command --description 'the mkq command being completed'\n"
       "    set -l cmd mkq\n"
       "    for word in (commandline -opc)[2..-1]\n"
       "        switch \"$cmd $word\"\n"
       "            case ";
  s += command_patterns(root, Shell::Fish);
  s += "\n                set cmd \"$cmd $word\"\n"
       "        end\n"
       "    end\n"
       "    echo $cmd\n"
       "end\n"
       "function __mkq_in --description 'whether the mkq command being completed is $argv[1]'\n"
       "    test (__mkq_command) = \"$argv[1]\"\n"
       "end\n"
       "complete -c mkq -f\n";
  each_command(root, [&](const CommandInfo& c) {
    const std::string when = quoted(fmt::format("__mkq_in {}", quoted(c.spelled(), Shell::Bash)), Shell::Fish);
    const auto offer = [&](const std::string& words, const std::string& description) {  // -a words -d description
      fmt::format_to(out, "complete -c mkq -n {} -a {} -d {}\n", when, quoted(words, Shell::Fish),
                     quoted(description, Shell::Fish));
    };
    for (const CommandInfo& sub : c.subcommands) offer(sub.path.back(), sub.description);
    for (const FlagInfo& flag : c.flags) {
      fmt::format_to(out, "complete -c mkq -n {}", when);
      for (const std::string& name : flag.names) {
        const bool long_name = name.rfind("--", 0) == 0;  // -l verbose, -s v
        fmt::format_to(out, " -{} {}", long_name ? 'l' : 's', std::string_view(name).substr(long_name ? 2 : 1));
      }
      switch (flag.value) {
        case ValueKind::None: break;
        case ValueKind::Text: s += " -r -F"; break;
        case ValueKind::Directory: s += " -x -a '(__fish_complete_directories)'"; break;
        case ValueKind::Choice: fmt::format_to(out, " -x -a {}", quoted(joined(flag.choices, " "), Shell::Fish)); break;
      }
      fmt::format_to(out, " -d {}\n", quoted(flag.description, Shell::Fish));
    }
    for (const ArgumentInfo& argument : c.arguments) {
      if (!argument.choices.empty()) offer(joined(argument.choices, " "), argument.description);
    }
    if (c.takes_file()) fmt::format_to(out, "complete -c mkq -n {} -F\n", when);
  });
  return s;
}

}  // namespace

std::string completion_script(const CommandInfo& root, Shell shell, std::string_view version) {
  switch (shell) {
    case Shell::Bash: return bash(root, version);
    case Shell::Zsh: return zsh(root, version);
    case Shell::Fish: return fish(root, version);
  }
  return {};
}

}  // namespace mkq::cli
