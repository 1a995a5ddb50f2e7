// `mkq fmt` as a library call (format.h) over a temporary directory: which
// files a directory names, what --check leaves alone, what is rewritten (its
// permissions kept), and a file with syntax errors reported, never touched.
#include "runtime/operation/format.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace mkq::operation {
namespace {

namespace fs = std::filesystem;
using Outcome = FormattedFile::Outcome;

constexpr const char* kUnformatted = "manager   \"m\"   {}\n";
constexpr const char* kFormatted = "manager \"m\" {}\n";
constexpr const char* kBroken = "manager   \"m\" {\n";

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// "OUTCOME path-relative-to-dir" per file of the result.
std::vector<std::string> outcomes(const FormatResult& result, const fs::path& dir) {
  std::vector<std::string> out;
  for (const FormattedFile& file : result.files) {
    const char* name = file.outcome == Outcome::Reformatted     ? "reformatted"
                       : file.outcome == Outcome::WouldReformat ? "would-reformat"
                       : file.outcome == Outcome::NotRead       ? "not-read"
                                                                : "not-written";
    out.push_back(std::string(name) + " " + fs::relative(file.path, dir).string());
  }
  return out;
}

// A policy tree: two files not in the canonical layout, one that is, one with
// a syntax error, and files in folders fmt skips.
struct Tree {
  mkq::testing::TempDir tmp;
  Tree() {
    write(tmp / "b.mkq", kUnformatted);
    write(tmp / "a.mkq", kFormatted);
    write(tmp / "sub/c.mkq", kUnformatted);
    write(tmp / "sub/broken.mkq", kBroken);
    write(tmp / ".hidden/h.mkq", kUnformatted);
    write(tmp / "build-x/h.mkq", kUnformatted);
    write(tmp / "node_modules/h.mkq", kUnformatted);
    write(tmp / "notes.txt", kUnformatted);
  }
};

TEST_CASE("fmt --check names the files that would change and writes nothing", "[operation][format]") {
  Tree tree;
  sema::RealFileSystem fs;
  const FormatResult result = format_policies({{tree.tmp.path().string()}, true}, fs);
  CHECK(outcomes(result, tree.tmp.path()) ==
        std::vector<std::string>{"would-reformat b.mkq", "would-reformat sub/c.mkq"});
  CHECK(result.diagnostics.has_errors());  // sub/broken.mkq
  CHECK(result.failed());
  CHECK(read(tree.tmp / "b.mkq") == kUnformatted);
  CHECK(read(tree.tmp / "sub/c.mkq") == kUnformatted);
}

TEST_CASE("fmt rewrites the files that change, keeps their mode, leaves a broken file alone",
          "[operation][format]") {
  Tree tree;
  fs::permissions(tree.tmp / "b.mkq", static_cast<fs::perms>(0640));
  sema::RealFileSystem fs;
  const FormatResult result = format_policies({{tree.tmp.path().string()}, false}, fs);
  CHECK(outcomes(result, tree.tmp.path()) ==
        std::vector<std::string>{"reformatted b.mkq", "reformatted sub/c.mkq"});
  CHECK(read(tree.tmp / "b.mkq") == kFormatted);
  CHECK(read(tree.tmp / "sub/c.mkq") == kFormatted);
  CHECK(read(tree.tmp / "sub/broken.mkq") == kBroken);
  CHECK(read(tree.tmp / ".hidden/h.mkq") == kUnformatted);
  CHECK(read(tree.tmp / "build-x/h.mkq") == kUnformatted);
  CHECK(read(tree.tmp / "node_modules/h.mkq") == kUnformatted);
  CHECK((fs::status(tree.tmp / "b.mkq").permissions() & fs::perms::all) == static_cast<fs::perms>(0640));
  CHECK(result.failed());  // the syntax error
}

TEST_CASE("fmt of formatted files changes nothing and succeeds, and a missing path is an error",
          "[operation][format]") {
  mkq::testing::TempDir tmp;
  write(tmp / "a.mkq", kFormatted);
  sema::RealFileSystem fs;
  const FormatResult clean = format_policies({{(tmp / "a.mkq").string()}, false}, fs);
  CHECK(clean.files.empty());
  CHECK_FALSE(clean.failed());

  const FormatResult missing = format_policies({{(tmp / "nope.mkq").string()}, false}, fs);
  CHECK(missing.diagnostics.has_errors());
  CHECK(missing.failed());
}

}  // namespace
}  // namespace mkq::operation
