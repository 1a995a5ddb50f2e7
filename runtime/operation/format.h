// `mkq fmt` as a library call: which files a path names (a file as given; a
// directory's *.mkq files at any depth, hidden folders, build folders and
// node_modules skipped, sorted), each one formatted (compiler/syntax), and --
// unless only checked -- rewritten whole (base/files.h, its permissions kept).
// A file with syntax errors is reported and left alone. Nothing is printed:
// the result lists, in order, every file that changed, would change or could
// not be read or written, and the diagnostics, for the caller to render once.
#pragma once

#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/analyze.h"

namespace mkq::operation {

struct FormatRequest {
  std::vector<std::string> paths;  // files or directories, as given
  bool check = false;              // only say which files would change; write nothing
};

struct FormattedFile {
  enum class Outcome {
    Reformatted,    // rewritten in the canonical layout
    WouldReformat,  // FormatRequest::check: not in the canonical layout
    NotRead,        // could not be read
    NotWritten,     // could not be rewritten (left as it was)
  };
  std::string path;
  Outcome outcome = Outcome::Reformatted;
};

struct FormatResult {
  std::vector<FormattedFile> files;  // in the order the files were met; files already formatted left out
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;  // syntax errors, paths that name no policy file, files too large

  // Whether `mkq fmt` fails: a file not read or written, an error, or -- when checking -- a file that would
  // change.
  bool failed() const;
  int count(FormattedFile::Outcome outcome) const;
};

FormatResult format_policies(const FormatRequest& request, const sema::FileSystem& fs);

}  // namespace mkq::operation
