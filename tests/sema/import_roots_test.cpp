// Imports are confined to the policy's directory tree, std/ and the import
// roots analyze() is given: a file outside them is refused (E2085) without
// being read, whatever way the path leaves the tree (absolute, `..`, a
// symlink).
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"

namespace {

namespace fs = std::filesystem;
using mkq::sema::InMemoryFileSystem;

const char* kPolicy = "manager \"m\" {}\n";

// An in-memory file system that remembers every path it was asked to read or
// list, to prove a refused file is never opened.
class RecordingFileSystem final : public mkq::sema::FileSystem {
 public:
  explicit RecordingFileSystem(const InMemoryFileSystem& files) : files_(files) {}
  Kind kind(const fs::path& path) const override { return files_.kind(path); }
  mkq::sema::FileText read(const fs::path& path, std::uint64_t max_bytes) const override {
    touched.insert(files_.canonical(path).generic_string());
    return files_.read(path, max_bytes);
  }
  std::vector<std::string> list(const fs::path& dir) const override {
    touched.insert(files_.canonical(dir).generic_string());
    return files_.list(dir);
  }
  fs::path canonical(const fs::path& path) const override { return files_.canonical(path); }

  mutable std::set<std::string> touched;

 private:
  const InMemoryFileSystem& files_;
};

struct Checked {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  std::set<std::string> touched;
  bool ok = false;
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : diagnostics.sorted(sources)) out.push_back(d.code + " " + d.message);
    return out;
  }
};

Checked check(const InMemoryFileSystem& files, const fs::path& path, std::vector<fs::path> roots = {}) {
  Checked result;
  RecordingFileSystem recording(files);
  mkq::sema::AnalyzeOptions options;
  options.import_roots = std::move(roots);
  result.ok = mkq::sema::analyze(path, recording, result.sources, result.diagnostics, options).has_value();
  result.touched = recording.touched;
  return result;
}

TEST_CASE("imports: files under the policy's directory and std/ are allowed", "[sema][imports][roots]") {
  InMemoryFileSystem files;
  files.add("/p/main.mkq", std::string("import \"lib/a.mkq\"\nimport \"std/integrations\" as i\n") + kPolicy);
  files.add("/p/lib/a.mkq", "import \"../b.mkq\"\nlet x = b.y\n");  // `..` that stays inside
  files.add("/p/b.mkq", "let y = 1\n");
  SECTION("PATH a directory") {
    const auto run = check(files, "/p");
    for (const auto& m : run.messages()) UNSCOPED_INFO(m);
    CHECK(run.ok);
  }
  SECTION("PATH a file: its directory") {
    const auto run = check(files, "/p/main.mkq");
    CHECK(run.ok);
  }
}

TEST_CASE("imports: a file outside the policy's directory is refused unread", "[sema][imports][roots]") {
  InMemoryFileSystem files;
  files.add("/secret/passwd", "root:x:0:0:root:/root:/bin/bash\n");
  files.add("/secret/lib.mkq", "let y = 1\n");
  files.add("/policy-other/lib.mkq", "let y = 1\n");  // shares the prefix "/p" as text, not as a directory
  const std::string spec = GENERATE(as<std::string>{}, "/secret/passwd", "../secret/passwd", "../secret/lib",
                                    "../policy-other/lib.mkq", "/secret/nothing-here.mkq");
  files.add("/p/main.mkq", "import \"" + spec + "\" as z\n" + kPolicy);
  INFO(spec);

  const auto run = check(files, "/p/main.mkq");
  CHECK_FALSE(run.ok);
  CHECK(run.messages() ==
        std::vector<std::string>{"E2085 cannot import '" + spec + "': it is outside the policy's directory"});
  const auto& refused = run.diagnostics.items().front();
  REQUIRE(refused.range.valid());
  CHECK(run.sources.file(refused.range.file).path == "/p/main.mkq");
  CHECK(run.sources.begin_of(refused.range).line == 1);
  CHECK(run.sources.begin_of(refused.range).column == 8);  // the path string
  // Only the policy's own file was read; nothing outside was read or listed.
  CHECK(run.touched == std::set<std::string>{"/p/main.mkq"});
}

TEST_CASE("imports: an import root allows the files under it, and only those", "[sema][imports][roots]") {
  InMemoryFileSystem files;
  files.add("/shared/teams.mkq", "let y = 1\n");
  files.add("/shared-not/teams.mkq", "let y = 1\n");
  files.add("/p/main.mkq", std::string("import \"../shared/teams.mkq\"\nlet v = teams.y\n") + kPolicy);
  CHECK(check(files, "/p", {"/shared"}).ok);
  CHECK(check(files, "/p", {"/shared/"}).ok);
  CHECK(check(files, "/p", {"/"}).ok);
  CHECK_FALSE(check(files, "/p", {"/shared-not"}).ok);
  CHECK_FALSE(check(files, "/p", {"/shared/sub"}).ok);
  CHECK_FALSE(check(files, "/p").ok);
}

TEST_CASE("imports: a std module cannot reach the file system through relative paths",
          "[sema][imports][roots]") {
  InMemoryFileSystem files;
  files.add("/p/main.mkq", std::string("import \"std/../../etc/passwd\" as z\n") + kPolicy);
  files.add("/etc/passwd", "root:x:0:0\n");
  const auto run = check(files, "/p");
  CHECK_FALSE(run.ok);
  CHECK(run.touched == std::set<std::string>{"/p", "/p/main.mkq"});  // the policy directory's listing, its file
}

// A scratch directory on the real file system, removed afterwards.
struct TempTree {
  fs::path path;
  TempTree() {
    path = fs::temp_directory_path() / ("mkq-import-roots-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    fs::remove_all(path);
    fs::create_directories(path / "policy/lib");
    fs::create_directories(path / "outside");
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

TEST_CASE("imports: a symlink that leaves the policy's directory is refused", "[sema][imports][roots][filesystem]") {
  TempTree tree;
  tree.write("outside/lib.mkq", "let y = 1\n");
  tree.write("policy/lib/inside.mkq", "let y = 2\n");
  fs::create_symlink(tree.path / "outside/lib.mkq", tree.path / "policy/link.mkq");       // a file link out
  fs::create_directory_symlink(tree.path / "outside", tree.path / "policy/linked-dir");    // a directory link out
  fs::create_directory_symlink(tree.path / "policy/lib", tree.path / "policy/inner-link");  // a link that stays in
  mkq::sema::RealFileSystem real;

  const auto analyze = [&](const std::string& import, std::vector<fs::path> roots = {}) {
    tree.write("policy/main.mkq", "import \"" + import + "\" as z\nlet v = z.y\n" + kPolicy);
    Checked run;
    mkq::sema::AnalyzeOptions options;
    options.import_roots = std::move(roots);
    run.ok = mkq::sema::analyze(tree.path / "policy", real, run.sources, run.diagnostics, options).has_value();
    return run;
  };
  const auto refused = [](const Checked& run) {
    return !run.ok && run.diagnostics.size() == 1 && run.diagnostics.items().front().code == "E2085";
  };
  CHECK(refused(analyze("link.mkq")));
  CHECK(refused(analyze("link")));  // found as link.mkq
  CHECK(refused(analyze("linked-dir/lib.mkq")));
  CHECK(refused(analyze("../outside/lib.mkq")));
  CHECK(analyze("inner-link/inside.mkq").ok);
  CHECK(analyze("link.mkq", {tree.path / "outside"}).ok);
  CHECK(analyze("linked-dir/lib.mkq", {tree.path / "outside"}).ok);
}

TEST_CASE("E3060 points at the start of an empty policy file", "[sema][analyze]") {
  InMemoryFileSystem files;
  files.add("/p/empty.mkq", "");
  const auto run = check(files, "/p/empty.mkq");
  REQUIRE(run.diagnostics.size() == 1);
  const auto& d = run.diagnostics.items().front();
  CHECK(d.code == "E3060");
  REQUIRE(d.range.valid());
  CHECK(run.sources.file(d.range.file).path == "/p/empty.mkq");
  CHECK(run.sources.begin_of(d.range).line == 1);
  CHECK(run.sources.begin_of(d.range).column == 1);
}

}  // namespace
