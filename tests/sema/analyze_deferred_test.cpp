// analyze() parses the last policy file's top-level blocks only as evaluation
// reaches them (syntax::DeferredBlocks), so that a large file's syntax tree is
// never whole. That must change nothing: the same diagnostics, in the same
// order and at the same places, and the same model as when every file is
// parsed whole first (which analyze() does when the caller keeps the trees).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "compiler/sema/analyze.h"
#include "compiler/sema/model_json.h"
#include "tests/support/in_memory_file_system.h"

namespace {

namespace fs = std::filesystem;
using mkq::sema::FileSystem;
using mkq::sema::InMemoryFileSystem;

// Every diagnostic in the order reported, with its place, then the model.
std::string outcome(const fs::path& path, const FileSystem& files, bool whole) {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  mkq::sema::ParsedPolicy parsed;
  mkq::sema::AnalyzeOptions options;
  if (whole) options.parsed = &parsed;
  const auto policy = mkq::sema::analyze(path, files, sources, diagnostics, options);
  std::string out;
  const auto place = [&](const mkq::diag::SourceRange& r) {
    if (!r.valid()) return std::string("-");
    return sources.file(r.file).path + ":" + std::to_string(r.begin.offset) + "-" + std::to_string(r.end.offset);
  };
  for (const auto& d : diagnostics.items()) {
    out += d.code + " " + place(d.range) + " " + d.message + "\n";
    for (const auto& note : d.notes) out += "  note " + note.message + (note.range ? " " + place(*note.range) : "") + "\n";
  }
  out += policy ? mkq::sema::model::model_to_json(*policy) : "<no model>";
  return out;
}

const char* kPolicy = R"(
manager "m" { context = "m" }
let cpu = 9
worker "w1" { context = "w1", labels = { "gpu.type": "t4" } }
flavor "f" {}
clusterqueue "q" {
  namespaces = all
  quota "f" { cpu = cpu, memory = 36Gi }
  localqueue "lq" in "default" {}
}
for team in ["a", "b"] {
  clusterqueue "q-${team}" { quota "f" { cpu = 1, memory = 1Gi } }
}
dispatch "d" { queues = ["q"], workers = ["w1"] }
)";

}  // namespace

TEST_CASE("analyze: deferred blocks give what a whole parse gives", "[sema][analyze][deferred]") {
  const std::vector<std::vector<std::pair<std::string, std::string>>> policies = {
      {{"/p/main.mkq", kPolicy}},
      // evaluation's findings inside blocks: unknown names, a division by zero
      {{"/p/main.mkq", std::string(kPolicy) + "clusterqueue \"z\" { cohort = nme }\nflavor \"g\" { x = 1 / 0 }\n"}},
      // a syntax error in a block, after blocks with evaluation errors
      {{"/p/main.mkq", std::string(kPolicy) + "flavor \"g\" { x = 1 / 0 }\nclusterqueue \"z\" { cpu = }\n"}},
      // syntax errors in an earlier file and in a block of the last one
      {{"/p/a.mkq", "let = 1\n"}, {"/p/b.mkq", std::string(kPolicy) + "worker \"x\" { a = [ }\n"}},
      // only the earlier file has one
      {{"/p/a.mkq", "let = 1\n"}, {"/p/b.mkq", kPolicy}},
      // the last file imported by the first; a block holding an import
      {{"/p/a.mkq", "import \"./b.mkq\" as b\nlet c = b.cpu\n"}, {"/p/b.mkq", kPolicy}},
      {{"/p/main.mkq", std::string(kPolicy) + "flavor \"g\" { import \"std/gpu\" }\n"}},
      // what the fast path leaves to ANTLR: an interpolated quoted name, a tree too deep
      {{"/p/main.mkq", std::string(kPolicy) + "flavor \"g\" { \"${cpu}\" = 1 }\n"}},
      {{"/p/main.mkq", std::string(kPolicy) + "flavor \"g\" { x = 1" + [] {
         std::string s;
         for (int i = 0; i < 800; ++i) s += " + 1";
         return s;
       }() + " }\n"}},
      // an empty last file, a file of blocks only
      {{"/p/a.mkq", kPolicy}, {"/p/b.mkq", ""}},
      {{"/p/a.mkq", "manager \"m\" {}\n"}, {"/p/b.mkq", "flavor \"f\" {}\nflavor \"f\" {}\n"}},
  };
  for (const auto& files : policies) {
    InMemoryFileSystem fs;
    for (const auto& [path, text] : files) fs.add(path, text);
    INFO(files.back().second);
    const std::string deferred = outcome("/p", fs, false);
    CHECK(deferred == outcome("/p", fs, true));
    CHECK(deferred.find("internal error") == std::string::npos);
  }
}

TEST_CASE("analyze: deferred blocks give what a whole parse gives, for every example", "[sema][analyze][deferred]") {
  mkq::sema::RealFileSystem fs;
  std::size_t examples = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(MKQ_SOURCE_DIR) / "examples")) {
    if (!entry.is_directory()) continue;
    ++examples;
    INFO(entry.path());
    const std::string deferred = outcome(entry.path(), fs, false);
    CHECK(deferred.find("<no model>") == std::string::npos);
    CHECK(deferred == outcome(entry.path(), fs, true));
  }
  CHECK(examples >= 4);
}
