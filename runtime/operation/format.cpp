// `mkq fmt` (format.h).
#include "runtime/operation/format.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "base/files.h"
#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"

namespace mkq::operation {

namespace {

namespace stdfs = std::filesystem;

// The files a path names: a file as given; a directory's *.mkq files at any
// depth (hidden folders, build folders and node_modules skipped), sorted. A
// path that does not exist, or a directory without .mkq files, is reported
// the way `mkq check` reports it.
std::vector<stdfs::path> files_to_format(const std::string& arg, const sema::FileSystem& fs,
                                         diag::Diagnostics& diagnostics) {
  std::error_code ec;
  if (!stdfs::is_directory(arg, ec)) return sema::policy_files(arg, fs, diagnostics);
  std::vector<stdfs::path> files;
  stdfs::recursive_directory_iterator it(arg, stdfs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (name.starts_with(".") || name == "node_modules" || name.starts_with("build")) {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (it->path().extension() == ".mkq" && it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return sema::policy_files(arg, fs, diagnostics);  // reports "contains no .mkq files"
  return files;
}

// Rewrites a policy whole (an interrupted run never leaves half of one), keeping its permissions.
bool write_policy(const stdfs::path& path, const std::string& text) {
  base::FileWrite options;
  options.mode = base::FileMode::KeepExisting;
  return base::write_file(path, text, options).ok();
}

}  // namespace

bool FormatResult::failed() const {
  return count(FormattedFile::Outcome::NotRead) > 0 || count(FormattedFile::Outcome::NotWritten) > 0 ||
         count(FormattedFile::Outcome::WouldReformat) > 0 || diagnostics.has_errors();
}

int FormatResult::count(FormattedFile::Outcome outcome) const {
  return static_cast<int>(std::count_if(files.begin(), files.end(),
                                        [outcome](const FormattedFile& f) { return f.outcome == outcome; }));
}

FormatResult format_policies(const FormatRequest& request, const sema::FileSystem& fs) {
  using Outcome = FormattedFile::Outcome;
  FormatResult result;
  for (const std::string& arg : request.paths) {
    for (const stdfs::path& path : files_to_format(arg, fs, result.diagnostics)) {
      sema::FileText read = fs.read(path, diag::kMaxSourceBytes);
      if (read.status == sema::FileText::Status::TooLarge) {
        syntax::report_file_too_large(result.diagnostics,
                                      result.sources.range(result.sources.add_unread(path.string()), 0, 0),
                                      path.string(), read.size);
        continue;
      }
      if (read.status != sema::FileText::Status::Read) {
        result.files.push_back({path.string(), Outcome::NotRead});
        continue;
      }
      const auto id = result.sources.add(path.string(), std::move(read.text));
      const std::size_t errors_before = result.diagnostics.error_count();
      const auto file = syntax::parse_file(result.sources, id, result.diagnostics);
      if (!file || result.diagnostics.error_count() != errors_before) continue;  // reported, left alone
      const std::string formatted = syntax::format_file(*file, result.sources.file(id));
      if (formatted == result.sources.file(id).text) continue;
      if (request.check) {
        result.files.push_back({path.string(), Outcome::WouldReformat});
      } else {
        result.files.push_back(
            {path.string(), write_policy(path, formatted) ? Outcome::Reformatted : Outcome::NotWritten});
      }
    }
  }
  return result;
}

}  // namespace mkq::operation
