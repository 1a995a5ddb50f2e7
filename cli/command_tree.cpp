#include "cli/command_tree.h"

#include <string_view>

namespace mkq::cli {
namespace {

// CLI11 spells a validated option's type as "TEXT:{text,json}" or "DIR:DIR":
// the base type, then each validator's description.
void read_type(const std::string& type_name, FlagInfo& flag) {
  std::string_view rest = type_name;
  const std::size_t colon = rest.find(':');
  flag.value_name = std::string(rest.substr(0, colon));
  flag.value = flag.value_name == "DIR" ? ValueKind::Directory : ValueKind::Text;
  while (colon != std::string_view::npos && !rest.empty()) {
    const std::size_t next = rest.find(':');
    if (next == std::string_view::npos) break;
    rest.remove_prefix(next + 1);
    const std::string_view part = rest.substr(0, rest.find(':'));
    if (part == "DIR") flag.value = ValueKind::Directory;
    if (part.size() >= 2 && part.front() == '{' && part.back() == '}') {
      flag.value = ValueKind::Choice;
      std::string_view items = part.substr(1, part.size() - 2);
      while (!items.empty()) {
        const std::size_t comma = items.find(',');
        flag.choices.emplace_back(items.substr(0, comma));
        if (comma == std::string_view::npos) break;
        items.remove_prefix(comma + 1);
      }
    }
  }
}

FlagInfo flag_info(const CLI::Option& option) {
  FlagInfo flag;
  for (const std::string& name : option.get_snames()) flag.names.push_back("-" + name);
  for (const std::string& name : option.get_lnames()) flag.names.push_back("--" + name);
  flag.description = option.get_description();
  if (option.get_type_size_max() > 0) {
    read_type(option.get_type_name(), flag);
    flag.repeatable = option.get_expected_max() > 1;
  }
  return flag;
}

void add_flags(const CLI::App& app, std::vector<FlagInfo>& flags, bool inherited) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_positional() || option->get_group().empty()) continue;
    // A parent's --help is not the subcommand's.
    if (inherited && option == app.get_help_ptr()) continue;
    flags.push_back(flag_info(*option));
  }
}

CommandInfo describe_command(const CLI::App& app, std::vector<std::string> path) {
  CommandInfo command;
  command.path = std::move(path);
  command.description = app.get_description();
  command.requires_subcommand = app.get_require_subcommand_min() > 0;
  add_flags(app, command.flags, false);
  // Options fall through from each parent that lets them (mkq's --no-color, -v;
  // sandbox's --dir after `up`).
  for (const CLI::App* child = &app; child->get_parent() != nullptr && child->get_fallthrough();
       child = child->get_parent()) {
    add_flags(*child->get_parent(), command.flags, true);
  }
  for (const CLI::Option* option : app.get_options()) {
    if (!option->get_positional()) continue;
    FlagInfo type;
    read_type(option->get_type_name(), type);
    command.arguments.push_back({option->get_name(), option->get_description(), option->get_required(),
                                 option->get_expected_max() > 1, type.choices});
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    std::vector<std::string> sub_path = command.path;
    sub_path.push_back(sub->get_name());
    command.subcommands.push_back(describe_command(*sub, std::move(sub_path)));
  }
  return command;
}

}  // namespace

std::vector<std::string> CommandInfo::words() const {
  std::vector<std::string> words;
  for (const CommandInfo& sub : subcommands) words.push_back(sub.path.back());
  for (const ArgumentInfo& argument : arguments) words.insert(words.end(), argument.choices.begin(), argument.choices.end());
  return words;
}

bool CommandInfo::takes_file() const {
  for (const ArgumentInfo& argument : arguments) {
    if (argument.choices.empty()) return true;
  }
  return false;
}

std::string CommandInfo::spelled() const {
  std::string text;
  for (const std::string& word : path) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::string CommandInfo::usage() const {
  std::string text = spelled() + " [OPTIONS]";
  if (!subcommands.empty()) text += requires_subcommand ? " COMMAND" : " [COMMAND]";
  for (const ArgumentInfo& argument : arguments) {
    const std::string name = argument.name + (argument.repeatable ? "..." : "");
    text += " " + (argument.required ? name : "[" + name + "]");
  }
  return text;
}

CommandInfo describe(const CLI::App& app) { return describe_command(app, {app.get_name()}); }

}  // namespace mkq::cli
