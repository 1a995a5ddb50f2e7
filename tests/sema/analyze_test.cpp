// The sema driver: which files form a policy, and parse -> evaluate -> bind
// with each step only after a clean previous one.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>

#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"

namespace {

using mkq::sema::InMemoryFileSystem;

std::vector<std::string> messages(const mkq::diag::Diagnostics& diagnostics, const mkq::diag::SourceManager& sources) {
  std::vector<std::string> out;
  for (const auto& d : diagnostics.sorted(sources)) out.push_back(d.code + " " + d.message);
  return out;
}

const char* kTutorial = R"(
manager "manager-cluster" { context = "manager-cluster" }
worker "multikueue-test-worker1" {
  context = "worker1-cluster"
  labels  = { "gpu.type": "nvidia-tesla-t4" }
}
flavor "default-flavor" {}
clusterqueue "cluster-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 9, memory = 36Gi }
  localqueue "user-queue" in "default" {}
}
dispatch "sample-multikueue" {
  config  = "multikueue-test"
  queues  = ["cluster-queue"]
  workers = ["multikueue-test-worker1"]
}
)";

TEST_CASE("policy_files: a file, a directory, and the errors", "[sema][analyze]") {
  InMemoryFileSystem fs;
  fs.add("/p/b.mkq", "");
  fs.add("/p/a.mkq", "");
  fs.add("/p/notes.txt", "");
  fs.add("/p/sub/c.mkq", "");
  fs.add("/p/dir.mkq/d.mkq", "");  // a directory named like a policy file
  fs.add("/empty/readme.md", "");
  mkq::diag::Diagnostics diagnostics;

  const auto files = mkq::sema::policy_files("/p", fs, diagnostics);
  REQUIRE(files.size() == 2);
  CHECK(files[0].generic_string() == "/p/a.mkq");  // sorted, not recursive
  CHECK(files[1].generic_string() == "/p/b.mkq");
  CHECK(mkq::sema::policy_files("/p/b.mkq", fs, diagnostics).size() == 1);
  CHECK(diagnostics.size() == 0);

  CHECK(mkq::sema::policy_files("/nowhere", fs, diagnostics).empty());
  CHECK(mkq::sema::policy_files("/empty", fs, diagnostics).empty());
  REQUIRE(diagnostics.size() == 2);
  CHECK(diagnostics.items()[0].code == "E9001");
  CHECK(diagnostics.items()[0].message == "path '/nowhere' does not exist");
  CHECK(diagnostics.items()[1].code == "E9003");
  CHECK(diagnostics.items()[1].message == "directory '/empty' contains no .mkq files");
}

TEST_CASE("analyze: a valid policy binds", "[sema][analyze]") {
  InMemoryFileSystem fs;
  fs.add("/p/main.mkq", kTutorial);
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto policy = mkq::sema::analyze("/p", fs, sources, diagnostics);
  INFO(messages(diagnostics, sources).size());
  for (const auto& m : messages(diagnostics, sources)) UNSCOPED_INFO(m);
  REQUIRE(policy);
  CHECK(policy->manager.name == "manager-cluster");
  CHECK(policy->cluster_queues.size() == 1);
  CHECK(sources.file(0).path == "/p/main.mkq");
}

TEST_CASE("analyze: every file is parsed, then it stops", "[sema][analyze][errors]") {
  InMemoryFileSystem fs;
  fs.add("/p/a.mkq", "let = 1\n");
  fs.add("/p/b.mkq", "let x = \n");
  fs.add("/p/c.mkq", "let y = 1 / 0\n");  // not evaluated: syntax errors come first
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  CHECK(!mkq::sema::analyze("/p", fs, sources, diagnostics));
  bool in_a = false;
  bool in_b = false;
  for (const auto& d : diagnostics.items()) {
    CHECK(d.code.rfind("E1", 0) == 0);
    in_a = in_a || sources.file(d.range.file).path == "/p/a.mkq";
    in_b = in_b || sources.file(d.range.file).path == "/p/b.mkq";
  }
  CHECK(in_a);
  CHECK(in_b);
}

TEST_CASE("analyze: evaluation errors stop before binding", "[sema][analyze][errors]") {
  InMemoryFileSystem fs;
  fs.add("/p/main.mkq", "let x = 1 / 0\n");  // no manager either: not reported
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  CHECK(!mkq::sema::analyze("/p/main.mkq", fs, sources, diagnostics));
  CHECK(messages(diagnostics, sources) == std::vector<std::string>{"E2013 division by zero"});
}

TEST_CASE("analyze: an empty policy is reported by the binder", "[sema][analyze][errors]") {
  InMemoryFileSystem fs;
  fs.add("/p/main.mkq", "// nothing\n");
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  CHECK(!mkq::sema::analyze("/p", fs, sources, diagnostics));
  REQUIRE(diagnostics.size() >= 1);
  CHECK(diagnostics.items()[0].code == "E3060");
}

TEST_CASE("analyze: files of one directory and their imports", "[sema][analyze]") {
  InMemoryFileSystem fs;
  fs.add("/p/main.mkq", "import \"./lib/common.mkq\" as common\n" + std::string(kTutorial));
  fs.add("/p/queues.mkq",
         "import \"./lib/common.mkq\" as common\n"
         "clusterqueue \"second\" { quota \"default-flavor\" { cpu = common.cpu, memory = 1Gi } }\n");
  fs.add("/p/lib/common.mkq", "let cpu = 4\n");
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto policy = mkq::sema::analyze("/p", fs, sources, diagnostics);
  for (const auto& m : messages(diagnostics, sources)) UNSCOPED_INFO(m);
  REQUIRE(policy);
  CHECK(policy->cluster_queues.size() == 2);
  // lib/common.mkq is read once.
  std::size_t common = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    common += sources.file(static_cast<mkq::diag::FileId>(i)).path == "/p/lib/common.mkq" ? 1 : 0;
  }
  CHECK(common == 1);
}

}  // namespace

namespace {

TEST_CASE("InMemoryFileSystem: files, directories, normal paths", "[sema][filesystem]") {
  InMemoryFileSystem fs;
  fs.add("p/a.mkq", "A");
  fs.add("/p/sub/b.mkq", "B");
  using Kind = mkq::sema::FileSystem::Kind;
  CHECK(fs.kind("/p/a.mkq") == Kind::File);
  CHECK(fs.kind("p/./sub/../a.mkq") == Kind::File);
  CHECK(fs.kind("/p") == Kind::Directory);
  CHECK(fs.kind("/p/") == Kind::Directory);
  CHECK(fs.kind("/") == Kind::Directory);
  CHECK(fs.kind("/p/sub/b") == Kind::Missing);
  CHECK(fs.kind("/pp") == Kind::Missing);
  CHECK(fs.read("/p/a.mkq", 1).text == "A");
  CHECK(fs.read("/p/a.mkq", 1).status == mkq::sema::FileText::Status::Read);
  CHECK(fs.read("/p/sub", 1).status == mkq::sema::FileText::Status::Unreadable);
  CHECK(fs.list("/p") == std::vector<std::string>{"a.mkq", "sub"});
  CHECK(fs.list("/") == std::vector<std::string>{"p"});
  CHECK(fs.list("/nothing").empty());
  CHECK(fs.canonical("p/sub/../a.mkq").generic_string() == "/p/a.mkq");
}

// A scratch directory on the real file system, removed afterwards.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("mkq-analyze-test-" + std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path / "lib");
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

TEST_CASE("RealFileSystem: analyze a directory with imports", "[sema][filesystem][analyze]") {
  TempDir dir;
  dir.write("main.mkq", std::string("import \"./lib/common.mkq\" as common\n") + kTutorial);
  dir.write("lib/common.mkq", "let cpu = 4\n");
  dir.write("readme.txt", "not a policy");
  mkq::sema::RealFileSystem fs;
  using Kind = mkq::sema::FileSystem::Kind;
  CHECK(fs.kind(dir.path) == Kind::Directory);
  CHECK(fs.kind(dir.path / "main.mkq") == Kind::File);
  CHECK(fs.kind(dir.path / "none") == Kind::Missing);
  CHECK(fs.list(dir.path) == std::vector<std::string>{"lib", "main.mkq", "readme.txt"});
  CHECK(fs.read(dir.path / "lib/common.mkq", 100).text == "let cpu = 4\n");
  CHECK(fs.read(dir.path / "lib", 100).status == mkq::sema::FileText::Status::Unreadable);
  CHECK(fs.canonical(dir.path / "lib/../main.mkq") == fs.canonical(dir.path / "main.mkq"));

  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto policy = mkq::sema::analyze(dir.path, fs, sources, diagnostics);
  for (const auto& m : messages(diagnostics, sources)) UNSCOPED_INFO(m);
  CHECK(policy);
}

TEST_CASE("policy_files: something that is neither a file nor a directory", "[sema][filesystem][errors]") {
  mkq::sema::RealFileSystem fs;
  mkq::diag::Diagnostics diagnostics;
  CHECK(mkq::sema::policy_files("/dev/null", fs, diagnostics).empty());
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics.items()[0].code == "E9002");
  CHECK(diagnostics.items()[0].message == "cannot read '/dev/null': it is neither a file nor a directory");
}

}  // namespace
