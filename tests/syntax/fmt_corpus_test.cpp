// `mkq fmt` on every example, stdlib module and golden input of the project:
// formatting is idempotent and keeps every comment, and the formatted text
// parses again without error.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  const fs::path root = MKQ_SOURCE_DIR;
  for (const char* dir : {"examples", "stdlib/std", "tests/lang/ok", "tests/lang/error", "editors/vscode/test"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / dir)) {
      if (entry.path().extension() == ".mkq") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> comment_texts(const mkq::syntax::File& file) {
  std::vector<std::string> texts;
  for (const auto& c : file.comments) texts.push_back(c.text);
  std::sort(texts.begin(), texts.end());
  return texts;
}

}  // namespace

TEST_CASE("fmt is idempotent and keeps every comment on the project's own policies", "[syntax][format]") {
  const auto files = corpus_files();
  REQUIRE(files.size() >= 4);
  int formatted_files = 0;
  for (const auto& path : files) {
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    const auto id = sources.add(path.string(), read(path));
    const auto first = mkq::syntax::parse_file(sources, id, diagnostics);
    if (!first || diagnostics.has_errors()) continue;  // error goldens with syntax errors are not formatted
    ++formatted_files;
    INFO(path.string());
    const std::string once = mkq::syntax::format_file(*first, sources.file(id));
    const auto id2 = sources.add(path.string() + " (formatted)", once);
    const auto second = mkq::syntax::parse_file(sources, id2, diagnostics);
    REQUIRE(second);
    REQUIRE_FALSE(diagnostics.has_errors());
    CHECK(comment_texts(*second) == comment_texts(*first));
    const std::string twice = mkq::syntax::format_file(*second, sources.file(id2));
    CHECK(twice == once);
  }
  CHECK(formatted_files >= 4);
}
