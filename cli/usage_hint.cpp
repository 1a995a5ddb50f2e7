#include "cli/usage_hint.h"

#include <iterator>

#include <fmt/format.h>

#include "compiler/diag/diagnostic.h"

namespace mkq::cli {
namespace {

std::string command_path(const CLI::App* app) {
  std::string path;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) path = a->get_name() + (path.empty() ? "" : " ") + path;
  return path;
}

// The option named `flag` on `app` or, where options fall through, on one of
// its parents (CLI11 lets a parent's flag follow the subcommand).
const CLI::Option* find_option(const CLI::App* app, const std::string& flag) {
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    if (const CLI::Option* option = a->get_option_no_throw(flag)) return option;
    if (!a->get_fallthrough()) break;
  }
  return nullptr;
}

std::vector<std::string> flag_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* option : a->get_options()) {
      for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    }
    if (!a->get_fallthrough()) break;
  }
  return names;
}

const CLI::App* find_subcommand(const CLI::App* app, const std::string& word) {
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(word)) return sub;
  }
  return nullptr;
}

std::vector<std::string> subcommand_names(const CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

bool takes_arguments(const CLI::App* app) {
  for (const CLI::Option* option : app->get_options()) {
    if (option->get_positional()) return true;
  }
  return false;
}

// The message, the suggestion if there is one, and where to look.
std::string hint(std::string message, const std::optional<std::string>& match, bool quote, const CLI::App* app,
                 const char* what) {
  auto out = std::back_inserter(message);
  if (match && quote) fmt::format_to(out, "; did you mean \"{}\"?", *match);
  if (match && !quote) fmt::format_to(out, "; did you mean {}?", *match);
  fmt::format_to(out, "\nRun `{} --help` for its {}.", command_path(app), what);
  return message;
}

}  // namespace

std::optional<std::string> usage_hint(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* current = &app;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") return std::nullopt;  // the rest are positionals
    if (word.size() > 1 && word[0] == '-') {
      const std::string flag = word.substr(0, word.find('='));
      const CLI::Option* option = find_option(current, flag);
      if (option == nullptr) {
        if (flag.rfind("--", 0) != 0) return std::nullopt;  // short flag clusters: CLI11's message
        return hint(fmt::format("unknown flag {} for \"{}\"", flag, command_path(current)),
                    diag::closest_match(flag, flag_names(current)), false, current, "flags");
      }
      // An option that takes a value written as a separate word: skip the value.
      if (flag.size() == word.size() && option->get_type_size_max() > 0 && option->get_expected_max() > 0) ++i;
      continue;
    }
    if (const CLI::App* sub = find_subcommand(current, word)) {
      current = sub;
      continue;
    }
    // A word that is neither a flag nor a subcommand: an argument, unless this
    // command takes no argument but has subcommands.
    const std::vector<std::string> commands = subcommand_names(current);
    if (current->get_require_subcommand_min() > 0 || (!commands.empty() && !takes_arguments(current))) {
      return hint(fmt::format("unknown command \"{}\" for \"{}\"", word, command_path(current)),
                  diag::closest_match(word, commands), true, current, "commands");
    }
  }
  return std::nullopt;
}

}  // namespace mkq::cli
