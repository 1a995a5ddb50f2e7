// mkq(1), written from the command tree: the same words as `--help`.
#include "cli/shell_completion.h"

namespace mkq::cli {
namespace {

// Text for roff: a backslash is \e, and a line may not start with a control
// character ('.' or '\'').
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    out += c == '\\' ? std::string("\\e") : std::string(1, c);
    line_start = c == '\n';
  }
  return out;
}

// A flag or command name in bold, its hyphens as roff's minus sign (so that
// a reader can copy it).
std::string bold(std::string_view name) {
  std::string out = "\\fB";
  for (const char c : name) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out + "\\fR";
}

std::string flag_heading(const FlagInfo& flag) {
  std::string text;
  for (const std::string& name : flag.names) text += (text.empty() ? "" : ", ") + bold(name);
  if (flag.value == ValueKind::Choice) {
    std::string choices;
    for (const std::string& choice : flag.choices) choices += (choices.empty() ? "" : "|") + choice;
    text += " \\fI" + roff(choices) + "\\fR";
  } else if (flag.value != ValueKind::None) {
    text += " \\fI" + roff(flag.value_name) + "\\fR";
  }
  return text;
}

void describe_flags(const std::vector<FlagInfo>& flags, std::string& out) {
  for (const FlagInfo& flag : flags) {
    out += ".TP\n" + flag_heading(flag) + "\n" + roff(flag.description) + (flag.repeatable ? " (repeatable)" : "") +
           "\n";
  }
}

void describe_command(const CommandInfo& command, std::string& out) {
  out += ".SS \"" + roff(command.usage()) + "\"\n" + roff(command.description) + "\n";
  for (const ArgumentInfo& argument : command.arguments) {
    out += ".TP\n\\fI" + roff(argument.name) + "\\fR\n" + roff(argument.description) + "\n";
  }
  // The flags every command has (--help, and the root's) are listed once, under OPTIONS.
  std::vector<FlagInfo> own;
  for (const FlagInfo& flag : command.flags) {
    if (flag.names.back() != "--help" && flag.names.back() != "--no-color" && flag.names.back() != "--verbose") {
      own.push_back(flag);
    }
  }
  describe_flags(own, out);
  for (const CommandInfo& sub : command.subcommands) describe_command(sub, out);
}

}  // namespace

std::string man_page(const CommandInfo& root, std::string_view version) {
  std::string out = ".\\\" mkq(1), written by `mkq man` from mkq's --help text; do not edit.\n";
  out += ".TH MKQ 1 \"\" \"mkq " + roff(version) + "\" \"mkq manual\"\n";
  // "mkq — MultiKueue as code: describe a fleet ..." → NAME "MultiKueue as code",
  // DESCRIPTION "Describe a fleet ...".
  const std::string_view about = root.description;
  const std::size_t dash = about.find("— ");
  const std::string_view summary = dash == std::string_view::npos ? about : about.substr(dash + 4);
  const std::size_t colon = summary.find(": ");
  std::string description(colon == std::string_view::npos ? summary : summary.substr(colon + 2));
  if (!description.empty() && description[0] >= 'a' && description[0] <= 'z') description[0] -= 'a' - 'A';
  out += ".SH NAME\nmkq \\- " + roff(summary.substr(0, colon)) + "\n";
  out += ".SH SYNOPSIS\n" + bold("mkq") + " [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGUMENTS\\fR]\n";
  out += ".SH DESCRIPTION\n" + roff(description) + ".\n";
  out += ".PP\nEach command's options are listed below and by " + bold("mkq COMMAND --help") + ".\n";
  out += ".SH OPTIONS\nThese are taken by every command.\n";
  describe_flags(root.flags, out);
  out += ".SH COMMANDS\n";
  for (const CommandInfo& sub : root.subcommands) describe_command(sub, out);
  out += ".SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, no color (as " + bold("--no-color") +
         ").\n";
  out += ".SH EXIT STATUS\n0 when the command did all it was asked; 1 on any error (a check that finds an "
         "error, a change that failed); 2 when " + bold("plan --detailed-exitcode") + " has changes to show; 130 "
         "when an apply, destroy or rotate was stopped by a signal.\n";
  out += ".SH SEE ALSO\n" + bold("kubectl") + "(1). The documentation in the docs/ folder of mkq's source: "
         "language.md, apply.md, render.md, sandbox.md, json.md.\n";
  return out;
}

}  // namespace mkq::cli
