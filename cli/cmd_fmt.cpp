// `mkq fmt`: rewrite files in the canonical layout (or, with --check, list the
// ones that are not). A file with syntax errors is reported and left alone.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "base/files.h"
#include "base/print.h"
#include "cli/commands.h"
#include "runtime/operation/hints.h"
#include "compiler/sema/analyze.h"
#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"

namespace mkq::cli {
namespace {

// Rewrites a policy atomically (an interrupted run never leaves half of one),
// keeping its permissions.
bool write_policy(const std::filesystem::path& path, const std::string& text) {
  base::FileWrite options;
  options.mode = base::FileMode::KeepExisting;
  return base::write_file(path, text, options).ok();
}

// The files `mkq fmt` works on: a file as given; a directory's *.mkq files at
// any depth (hidden folders, build folders and node_modules skipped), sorted.
// A path that does not exist, or a directory without .mkq files, is reported
// the way `mkq check` reports it.
std::vector<std::filesystem::path> files_to_format(const std::string& arg, const sema::FileSystem& fs,
                                                   diag::Diagnostics& diagnostics) {
  namespace stdfs = std::filesystem;
  std::error_code ec;
  if (!stdfs::is_directory(arg, ec)) return sema::policy_files(arg, fs, diagnostics);
  std::vector<stdfs::path> files;
  stdfs::recursive_directory_iterator it(arg, stdfs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name.starts_with(".") || name == "node_modules" || name.starts_with("build")) it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".mkq" && it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return sema::policy_files(arg, fs, diagnostics);  // reports "contains no .mkq files"
  return files;
}

}  // namespace

int run_fmt(const FmtOptions& options, const GlobalOptions& global) {
  sema::RealFileSystem fs;
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  bool failed = false;
  int unformatted = 0;

  for (const std::string& arg : options.paths) {
    for (const auto& path : files_to_format(arg, fs, diagnostics)) {
      sema::FileText read = fs.read(path, diag::kMaxSourceBytes);
      if (read.status == sema::FileText::Status::TooLarge) {
        syntax::report_file_too_large(diagnostics, sources.range(sources.add_unread(path.string()), 0, 0),
                                      path.string(), read.size);
        continue;
      }
      if (read.status != sema::FileText::Status::Read) {
        base::print(stderr, "mkq: error: cannot read {}\n", path.string());
        failed = true;
        continue;
      }
      const auto id = sources.add(path.string(), std::move(read.text));
      const std::string* text = &sources.file(id).text;
      const std::size_t errors_before = diagnostics.error_count();
      const auto file = syntax::parse_file(sources, id, diagnostics);
      if (!file || diagnostics.error_count() != errors_before) continue;
      const std::string formatted = syntax::format_file(*file, sources.file(id));
      if (formatted == *text) continue;
      if (options.check) {
        base::print("{}\n", path.string());
        ++unformatted;
      } else if (!write_policy(path, formatted)) {
        base::print(stderr, "mkq: error: cannot write {}\n", path.string());
        failed = true;
      } else if (global.verbose) {
        base::print(stderr, "formatted {}\n", path.string());
      }
    }
  }
  std::fputs(diag::render_text(diagnostics.sorted(sources), sources, {global.color}).c_str(), stderr);
  if (options.check && unformatted > 0) {
    std::string command = "mkq fmt";
    for (const std::string& path : options.paths) {
      if (path != ".") fmt::format_to(std::back_inserter(command), " {}", operation::shell_word(path));
    }
    base::print(stderr, "mkq: {} file{} would be reformatted (run `{}`)\n", unformatted, unformatted == 1 ? "" : "s",
                command);
  }
  return failed || diagnostics.has_errors() || unformatted > 0 ? 1 : 0;
}

}  // namespace mkq::cli
