// `mkq fmt`: runtime/operation's format (format.h) drawn -- each file that
// changed, would change or failed, the diagnostics, and with --check the
// command that reformats them. A file with syntax errors is reported and left
// alone; exit 1 when anything failed or, with --check, would change.
#include <cstdio>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "runtime/operation/format.h"
#include "runtime/operation/hints.h"

namespace mkq::cli {

int run_fmt(const FmtOptions& options, const GlobalOptions& global) {
  using Outcome = operation::FormattedFile::Outcome;
  sema::RealFileSystem fs;
  const operation::FormatResult result = operation::format_policies({options.paths, options.check}, fs);
  for (const operation::FormattedFile& file : result.files) {
    switch (file.outcome) {
      case Outcome::WouldReformat: base::print("{}\n", file.path); break;
      case Outcome::NotRead: base::print(stderr, "mkq: error: cannot read {}\n", file.path); break;
      case Outcome::NotWritten: base::print(stderr, "mkq: error: cannot write {}\n", file.path); break;
      case Outcome::Reformatted:
        if (global.verbose) base::print(stderr, "formatted {}\n", file.path);
        break;
    }
  }
  std::fputs(diag::render_text(result.diagnostics.sorted(result.sources), result.sources, {global.color}).c_str(),
             stderr);
  const int unformatted = result.count(Outcome::WouldReformat);
  if (unformatted > 0) {
    std::string command = "mkq fmt";
    for (const std::string& path : options.paths) {
      if (path != ".") fmt::format_to(std::back_inserter(command), " {}", operation::shell_word(path));
    }
    base::print(stderr, "mkq: {} file{} would be reformatted (run `{}`)\n", unformatted, unformatted == 1 ? "" : "s",
                command);
  }
  return result.failed() ? 1 : 0;
}

}  // namespace mkq::cli
