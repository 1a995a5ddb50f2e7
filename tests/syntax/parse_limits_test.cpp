// Hostile and huge inputs: nesting limits (checked before ANTLR runs, so that
// no recursion can overflow the stack), operator chains, the token and error
// limits, large files, and random mutations that must never crash the parser.
#include <catch2/catch.hpp>
#include <chrono>
#include <random>
#include <string>

#include "compiler/syntax/codes.h"
#include "tests/syntax/syntax_test_util.h"

namespace {

using mkq::syntax::kMaxNestingDepth;
using mkq::syntax::testing::parse;
using mkq::syntax::testing::Parsed;

std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("parser accepts nesting up to the limit", "[syntax][limits]") {
  const int n = kMaxNestingDepth;
  for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{{"(", ")"}, {"[", "]"}}) {
    auto p = parse("x = " + repeat(open, n) + "1" + repeat(close, n));
    INFO(open);
    CHECK(p->ok());
  }
  CHECK(parse("x = " + repeat("-", n) + "1")->ok());
  CHECK(parse(repeat("a {", n) + repeat("}", n))->ok());
  CHECK(parse("x = " + repeat("a ? b : ", n) + "c")->ok());
  CHECK(parse("if a {}" + repeat(" else if a {}", n - 1))->ok());
}

TEST_CASE("parser rejects nesting one level past the limit, at the token that exceeds it", "[syntax][limits]") {
  const int n = kMaxNestingDepth + 1;
  auto parens = parse("x = " + repeat("(", n) + "1" + repeat(")", n));
  CHECK(parens->file == nullptr);
  REQUIRE(parens->messages() == std::vector<std::string>{"E1010 1:205-1:206 nesting is deeper than 200 levels"});
  CHECK(parens->error().notes.size() == 1);

  auto unary = parse("x = " + repeat("!", n) + "a");
  CHECK(unary->file == nullptr);
  REQUIRE(unary->messages() == std::vector<std::string>{"E1010 1:205-1:206 nesting is deeper than 200 levels"});

  // A mix counts every kind of level.
  auto mixed = parse("a {" + repeat("x = -(", 100) + "1" + repeat(")", 100) + "}");
  CHECK(mixed->file == nullptr);
  REQUIRE(mixed->errors() == 1);
  CHECK(mixed->error().code == "E1010");
}

TEST_CASE("parser survives 100000 levels of every kind of nesting", "[syntax][limits]") {
  const int n = 100000;
  const std::vector<std::string> inputs = {
      "x = " + repeat("(", n) + "1" + repeat(")", n),
      "x = " + repeat("[", n) + repeat("]", n),
      "x = " + repeat("{a: ", n) + "1" + repeat("}", n),
      "x = " + repeat("-", n) + "1",
      "x = " + repeat("a ? b : ", n) + "c",
      "x = " + repeat("a ? ", n) + "b" + repeat(" : c", n),
      "if a {}" + repeat(" else if a {}", n),
      repeat("a {", n) + repeat("}", n),
      "x = f" + repeat("(", n) + repeat(")", n),
      "x = \"${" + repeat("(", 1000) + "1" + repeat(")", 1000) + "}\"",
      "x = " + repeat("(", n),  // never closed
  };
  for (const auto& text : inputs) {
    INFO(text.substr(0, 40));
    const auto start = std::chrono::steady_clock::now();
    auto p = parse(text);
    CHECK(seconds_since(start) < 10.0);
    CHECK(p->file == nullptr);
    REQUIRE(p->errors() == 1);
    CHECK(p->error().code == "E1010");
  }
}

TEST_CASE("parser bounds the depth of long operator chains", "[syntax][limits]") {
  // 500 terms are fine: ANTLR builds the chain in a loop and the tree is 500 deep.
  CHECK(parse("x = " + repeat("1 + ", 500) + "1")->ok());
  CHECK(parse("x = " + repeat("a.", 500) + "b")->ok());
  // 100000 terms would make every recursive pass over the AST overflow.
  for (const std::string& text : {"x = " + repeat("1 + ", 100000) + "1", "x = " + repeat("a.", 100000) + "b",
                                  "x = f" + repeat("()", 100000), "x = a" + repeat("[0]", 100000)}) {
    auto p = parse(text);
    CHECK(p->file == nullptr);
    REQUIRE(p->errors() == 1);
    CHECK(p->messages()[0] == "E1010 1:5-1:6 expression nests deeper than 800 levels");
  }
}

TEST_CASE("parser stops after too many errors", "[syntax][limits]") {
  auto p = parse("x = [" + repeat("@", 1000) + "]");
  CHECK(p->file == nullptr);
  REQUIRE(p->errors() == static_cast<std::size_t>(mkq::syntax::kMaxSyntaxErrors) + 1);
  CHECK(p->messages().back() == "E1017 1:106-1:107 too many errors in this file; stopped after 100");

  std::string bad_lines;
  for (int i = 0; i < 300; ++i) bad_lines += "a = [1 2]\n";  // one parser error per line
  auto q = parse(bad_lines);
  CHECK(q->file == nullptr);
  REQUIRE(q->errors() == 101);
  CHECK(q->diagnostics.items().back().code == "E1017");
}

TEST_CASE("parser rejects a file of more than a million tokens quickly", "[syntax][limits][slow]") {
  const auto start = std::chrono::steady_clock::now();
  auto p = parse("x = [" + repeat("1,", 600000) + "]");
  CHECK(seconds_since(start) < 30.0);
  CHECK(p->file == nullptr);
  REQUIRE(p->errors() == 1);
  CHECK(p->error().code == "E1016");
  CHECK(p->error().message == "file is too large: more than 1000000 tokens");
}

TEST_CASE("parser handles a 7 MB single line without hanging", "[syntax][limits][slow]") {
  const std::string seven_mb(7 * 1024 * 1024, 'a');
  for (const std::string& text : {"// " + seven_mb, "/* " + seven_mb + " */"}) {
    const auto start = std::chrono::steady_clock::now();
    auto p = parse(text);
    CHECK(seconds_since(start) < 30.0);
    CHECK(p->ok());
  }
  // A string or a name that long is refused before it is decoded (E1019).
  for (const std::string& text : {"x = \"" + seven_mb + "\"", "x = " + seven_mb}) {
    const auto start = std::chrono::steady_clock::now();
    auto p = parse(text);
    CHECK(seconds_since(start) < 30.0);
    CHECK(p->file == nullptr);
    CHECK(p->error().code == "E1019");
  }
  auto list = parse("x = [" + repeat("1,", 4 * 1024 * 1024 - 8) + "]");  // just under 8 MiB, 8 million tokens
  CHECK(list->file == nullptr);
  CHECK(list->error().code == "E1016");
}

TEST_CASE("parser reads a 2 MB policy of 10000 blocks", "[syntax][limits][slow]") {
  std::string text = "// generated\nmanager \"m\" { context = \"m\" }\n";
  for (int i = 0; i < 10000; ++i) {
    const std::string n = std::to_string(i);
    text += "clusterqueue \"queue-" + n + "\" {\n  namespaces = [\"team-" + n + "\", \"shared\"]\n  cohort = \"org-" +
            std::to_string(i / 100) + "\"\n  quota \"cpu\" { cpu = " + std::to_string(i % 64 + 1) +
            ", memory = 64Gi, \"nvidia.com/gpu\" = 2 }\n  preemption { within_cluster_queue = \"LowerPriority\" }\n"
            "  localqueue \"default\" in \"team-" + n + "\" { default = true }  // the team's queue\n}\n";
  }
  REQUIRE(text.size() > 2'000'000);
  const auto start = std::chrono::steady_clock::now();
  auto p = parse(text);
  const double elapsed = seconds_since(start);
  WARN("parsed " << text.size() << " bytes (10000 blocks) in " << elapsed << " s");
  CHECK(p->ok());
  REQUIRE(p->file != nullptr);
  CHECK(p->file->stmts.size() == 10001);
  CHECK(p->file->comments.size() == 10001);
  CHECK(elapsed < 30.0);  // a debug build on a busy machine; about 0.6 s in a release build
}

TEST_CASE("parser never crashes on mutated policies", "[syntax][limits]") {
  const std::string seed_text =
      "import \"std/gpu\" as gpu\n"
      "let teams = { vision: 24, nlp: 16 }\n"
      "template team(name, gpus = 8) {\n"
      "  clusterqueue \"${name}\" {\n"
      "    quota \"a100\" { cpu = gpus * 8, \"nvidia.com/gpu\" = gpus, memory = 64Gi }\n"
      "    localqueue \"default\" in \"${name}\" { default = true }\n"
      "  }\n"
      "}\n"
      "for name, gpus in teams { use team(name = name, gpus = gpus) }\n"
      "if len(teams) > 1 { assert true, \"ok\" } else if false {} else { x = [t for t in keys(teams) if t != \"a\"] }\n"
      "worker \"w\" { labels = { \"gpu.type\": \"t4\" }, lifetime = 1h30min } /* done */\n";
  const std::vector<std::string> fragments = {"{", "}", "[", "]", "(", ")", "\"", "${", "/*", "//", "=", ",", ":",
                                              "?", "-", "!", "else", "if", "for", "in", "36GB", "1m30s", "\\",
                                              "@", "#", "\xC3\xA9", "'", "&", "\n"};
  std::mt19937 rng(20240611);
  for (int round = 0; round < 1500; ++round) {
    std::string text = seed_text;
    const int steps = 1 + static_cast<int>(rng() % 4);
    for (int s = 0; s < steps; ++s) {
      const std::size_t pos = rng() % (text.size() + 1);
      switch (rng() % 4) {
        case 0:
          if (!text.empty()) text.erase(std::min(pos, text.size() - 1), 1 + rng() % 8);
          break;
        case 1:
          text.insert(pos, fragments[rng() % fragments.size()]);
          break;
        case 2:
          text.resize(pos);
          break;
        default:
          text.insert(pos, 1, static_cast<char>(32 + rng() % 95));
          break;
      }
    }
    INFO(text);
    auto p = parse(text);
    // Every error lies inside the text, and an AST comes back unless a limit was hit.
    for (const auto& d : p->diagnostics.items()) {
      CHECK(d.range.end.offset <= text.size());
      CHECK(d.range.begin.offset <= d.range.end.offset);
      CHECK_FALSE(d.message.empty());
    }
    if (p->diagnostics.size() == 0) CHECK(p->file != nullptr);
  }
}
