// mkq(1), written from the command tree: the same words as `--help`.
#include "cli/shell_completion.h"

#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mkq::cli {
namespace {

// Text for roff: a backslash is \e, and a line may not start with a control
// character ('.' or '\'').
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

// A flag or command name in bold, its hyphens as roff's minus sign (so that
// a reader can copy it).
std::string bold(std::string_view name) {
  std::string out = "\\fB";
  for (const char c : name) {
    if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  out += "\\fR";
  return out;
}

std::string flag_heading(const FlagInfo& flag) {
  std::string text;
  for (const std::string& name : flag.names) {
    if (!text.empty()) text += ", ";
    text += bold(name);
  }
  if (flag.value == ValueKind::Choice) {
    fmt::format_to(std::back_inserter(text), " \\fI{}\\fR", roff(fmt::format("{}", fmt::join(flag.choices, "|"))));
  } else if (flag.value != ValueKind::None) {
    fmt::format_to(std::back_inserter(text), " \\fI{}\\fR", roff(flag.value_name));
  }
  return text;
}

void describe_flags(const std::vector<FlagInfo>& flags, std::string& out) {
  for (const FlagInfo& flag : flags) {
    fmt::format_to(std::back_inserter(out), ".TP\n{}\n{}{}\n", flag_heading(flag), roff(flag.description),
                   flag.repeatable ? " (repeatable)" : "");
  }
}

void describe_command(const CommandInfo& command, std::string& out) {
  auto to = std::back_inserter(out);
  fmt::format_to(to, ".SS \"{}\"\n{}\n", roff(command.usage()), roff(command.description));
  for (const ArgumentInfo& argument : command.arguments) {
    fmt::format_to(to, ".TP\n\\fI{}\\fR\n{}\n", roff(argument.name), roff(argument.description));
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
  auto to = std::back_inserter(out);
  fmt::format_to(to, ".TH MKQ 1 \"\" \"mkq {}\" \"mkq manual\"\n", roff(version));
  // "mkq — MultiKueue as code: describe a fleet ..." → NAME "MultiKueue as code",
  // DESCRIPTION "Describe a fleet ...".
  const std::string_view about = root.description;
  const std::size_t dash = about.find("— ");
  const std::string_view summary = dash == std::string_view::npos ? about : about.substr(dash + 4);
  const std::size_t colon = summary.find(": ");
  std::string description(colon == std::string_view::npos ? summary : summary.substr(colon + 2));
  if (!description.empty() && description[0] >= 'a' && description[0] <= 'z') description[0] -= 'a' - 'A';
  fmt::format_to(to,
                 ".SH NAME\nmkq \\- {}\n"
                 ".SH SYNOPSIS\n{} [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGUMENTS\\fR]\n"
                 ".SH DESCRIPTION\n{}.\n"
                 ".PP\nEach command's options are listed below and by {}.\n"
                 ".SH OPTIONS\nThese are taken by every command.\n",
                 roff(summary.substr(0, colon)), bold("mkq"), roff(description), bold("mkq COMMAND --help"));
  describe_flags(root.flags, out);
  out += ".SH COMMANDS\n";
  for (const CommandInfo& sub : root.subcommands) describe_command(sub, out);
  fmt::format_to(to,
                 ".SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\nWhen set and not empty, no color (as {}).\n"
                 ".SH EXIT STATUS\n0 when the command did all it was asked; 1 on any error (a check that finds an "
                 "error, a change that failed); 2 when {} has changes to show; 3 when {} finds the sandbox not "
                 "running; 130 when an apply, destroy or rotate was stopped by a signal.\n"
                 ".SH SEE ALSO\n{}(1). The documentation in the docs/ folder of mkq's source: language.md, "
                 "apply.md, render.md, sandbox.md, json.md.\n",
                 bold("--no-color"), bold("plan --detailed-exitcode"), bold("sandbox status"), bold("kubectl"));
  return out;
}

}  // namespace mkq::cli
