// Input limits before memory (issue 12): a policy file or an imported file
// over diag::kMaxSourceBytes is refused from its size, before it is read
// (E1018, located at the file or at the import), and the real file system
// never holds more than the bound of a file.
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/analyze.h"
#include "compiler/sema/filesystem.h"
#include "tests/support/in_memory_file_system.h"

namespace {

namespace fs = std::filesystem;
using mkq::diag::kMaxSourceBytes;
using mkq::sema::FileText;
using mkq::sema::InMemoryFileSystem;

const char* kPolicy = "manager \"m\" {}\n";

std::string over_the_limit() {
  return "// " + std::string(static_cast<std::size_t>(kMaxSourceBytes) - 2, 'a');
}

struct Analyzed {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  bool ok = false;
  std::string rendered() const { return mkq::diag::render_text(diagnostics.sorted(sources), sources, {}); }
};

std::unique_ptr<Analyzed> analyze(const InMemoryFileSystem& files, const fs::path& path) {
  auto result = std::make_unique<Analyzed>();
  result->ok = mkq::sema::analyze(path, files, result->sources, result->diagnostics).has_value();
  return result;
}

// A scratch directory on the real file system, removed afterwards.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    path = fs::temp_directory_path() / ("mkq-input-limits-test-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The process's peak resident set so far, in bytes.
std::uint64_t peak_rss() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace

TEST_CASE("analyze refuses a policy file over the size limit, located at the file, with no source line",
          "[sema][limits]") {
  InMemoryFileSystem files;
  files.add("/p/big.mkq", over_the_limit());
  files.add("/p/main.mkq", std::string(kPolicy) + "x = \n");  // still parsed: its error is reported too
  const auto run = analyze(files, "/p");
  CHECK_FALSE(run->ok);
  CHECK(run->rendered() ==
        "/p/big.mkq:1:1: error[E1018]: /p/big.mkq is 8388609 bytes; the limit is 8388608 bytes\n"
        "  = note: split the policy into several files in one directory\n"
        "/p/main.mkq:2:4: error[E1012]: expected an expression\n"
        " 2 | x = \n"
        "   |    ^\n"
        "error: 2 errors\n");
}

TEST_CASE("analyze refuses an imported file over the size limit at the import", "[sema][limits]") {
  InMemoryFileSystem files;
  files.add("/p/lib/big.mkq", over_the_limit());
  files.add("/p/main.mkq", std::string("import \"lib/big.mkq\" as big\n") + kPolicy);
  const auto run = analyze(files, "/p/main.mkq");
  CHECK_FALSE(run->ok);
  REQUIRE(run->diagnostics.size() == 1);
  const auto& d = run->diagnostics.items().front();
  CHECK(d.code == "E1018");
  CHECK(d.message == "/p/lib/big.mkq is 8388609 bytes; the limit is 8388608 bytes");
  REQUIRE(d.range.valid());
  CHECK(run->sources.file(d.range.file).path == "/p/main.mkq");
  CHECK(run->sources.begin_of(d.range).line == 1);
}

TEST_CASE("analyze reads a policy file of exactly the size limit", "[sema][limits]") {
  InMemoryFileSystem files;
  std::string text = std::string(kPolicy) + "// ";
  text += std::string(static_cast<std::size_t>(kMaxSourceBytes) - text.size(), 'a');
  files.add("/p/main.mkq", text);
  const auto run = analyze(files, "/p/main.mkq");
  CHECK(run->rendered() == "");
  CHECK(run->ok);
}

TEST_CASE("RealFileSystem::read holds at most the bound of a file", "[sema][limits][filesystem]") {
  ScratchDir dir;
  const fs::path small = dir.path / "small.mkq";
  std::ofstream(small, std::ios::binary) << std::string(100, 'a');
  mkq::sema::RealFileSystem files;

  const FileText exact = files.read(small, 100);
  CHECK(exact.status == FileText::Status::Read);
  CHECK(exact.text == std::string(100, 'a'));

  const FileText over = files.read(small, 99);
  CHECK(over.status == FileText::Status::TooLarge);
  CHECK(over.size == 100);
  CHECK(over.text.empty());

  CHECK(files.read(dir.path / "missing.mkq", 100).status == FileText::Status::Unreadable);
  CHECK(files.read(dir.path, 100).status == FileText::Status::Unreadable);

  // A 4 GiB file (sparse: it costs no disk) is refused from its size: reading
  // it would raise the peak resident set by gigabytes.
  const fs::path huge = dir.path / "huge.mkq";
  std::ofstream(huge, std::ios::binary).put('a');
  fs::resize_file(huge, std::uint64_t{4} << 30);
  const std::uint64_t before = peak_rss();
  const FileText refused = files.read(huge, kMaxSourceBytes);
  CHECK(refused.status == FileText::Status::TooLarge);
  CHECK(refused.size == std::uint64_t{4} << 30);
  CHECK(peak_rss() - before < (std::uint64_t{16} << 20));
}
