// Static name resolution (compiler/sema/resolve_names.h): names in code that
// evaluation never reaches are checked too, with the evaluator's messages, and
// a name both report comes out once.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/sema/resolve_names.h"
#include "eval_fixture.h"
#include "stdlib/stdlib.h"

namespace {

using mkq::test::error_of_file;
using mkq::test::evaluate_files;
using mkq::test::evaluate_text;

// Runs resolve_names alone on TEXT (no evaluation).
std::vector<std::string> resolve_only(const std::string& text) {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto id = sources.add("main.mkq", text);
  auto ast = mkq::syntax::parse_file(sources, id, diagnostics);
  REQUIRE(ast);
  REQUIRE(diagnostics.size() == 0);
  mkq::sema::resolve_names(*ast, diagnostics);
  std::vector<std::string> out;
  for (const auto& d : diagnostics.sorted(sources)) {
    const auto& file = sources.file(d.range.file).text;
    out.push_back(d.code + " " + d.message + " @" +
                  file.substr(d.range.begin.offset, d.range.end.offset - d.range.begin.offset));
  }
  return out;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("resolve_names: an unused template with an unknown name", "[sema][resolve]") {
  auto run = evaluate_text("let teams = 1\ntemplate t(n) { x \"${n}\" { v = tems } }");
  const auto& d = run->only();
  CHECK(d.code == "E2001");
  CHECK(d.message == "unknown name 'tems'");
  CHECK(run->text(d.range) == "tems");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "did you mean 'teams'?");
}

TEST_CASE("resolve_names: a used template with an unknown name is reported once", "[sema][resolve]") {
  auto run = evaluate_text("template t(n) { x \"${n}\" { v = tems } }\nuse t(\"a\")");
  // One diagnostic in the collection itself, not only after sorted() removes duplicates.
  const auto& d = run->only();
  CHECK(d.code == "E2001");
  CHECK(d.message == "unknown name 'tems'");
  CHECK(run->text(d.range) == "tems");
  // Used twice, evaluation reports it at each use; it is shown once.
  auto twice = evaluate_text("template t(n) { x \"${n}\" { v = tems } }\nuse t(\"a\")\nuse t(\"b\")");
  CHECK(twice->messages() == Lines{"E2001 unknown name 'tems'"});

  // Same for a top-level block, which evaluation always reaches.
  CHECK(error_of_file("t { v = nope }") == "E2001 unknown name 'nope'");
  CHECK(evaluate_text("t { v = nope }")->diagnostics.size() == 1);
}

TEST_CASE("resolve_names: branches, loops and operators evaluation skips", "[sema][resolve]") {
  CHECK(error_of_file("if 1 > 2 { t { v = a1 } }") == "E2001 unknown name 'a1'");
  CHECK(error_of_file("if true { } else { t { v = a2 } }") == "E2001 unknown name 'a2'");
  CHECK(error_of_file("if true { } else if a3 { }") == "E2001 unknown name 'a3'");
  CHECK(error_of_file("if false { } else if false { } else { t { v = a4 } }") == "E2001 unknown name 'a4'");
  CHECK(error_of_file("for x in [] { t { v = x + a5 } }") == "E2001 unknown name 'a5'");
  CHECK(error_of_file("let l = [x + a6 for x in []]") == "E2001 unknown name 'a6'");
  CHECK(error_of_file("let l = [x for x in [] if a7]") == "E2001 unknown name 'a7'");
  CHECK(error_of_file("let c = true ? 1 : a8") == "E2001 unknown name 'a8'");
  CHECK(error_of_file("let c = false && a9") == "E2001 unknown name 'a9'");
  CHECK(error_of_file("let c = true || [a10][0]") == "E2001 unknown name 'a10'");
  CHECK(error_of_file("template t() { assert true, \"${a11}\" }") == "E2001 unknown name 'a11'");
  CHECK(error_of_file("template t() { x \"${a12}\" in \"ns\" { } }") == "E2001 unknown name 'a12'");
  CHECK(error_of_file("template t() { x \"n\" in \"${a13}\" { } }") == "E2001 unknown name 'a13'");
  CHECK(error_of_file("template t() { x \"n\" { v = {k: len(a14)}.k } }") == "E2001 unknown name 'a14'");
}

TEST_CASE("resolve_names: what is in scope", "[sema][resolve]") {
  // Top-level names in any order, builtins, parameters, loop variables (both),
  // comprehension variables (both), lets after their definition, outer lets in nested bodies.
  const std::string ok =
      "import \"std/units\"\n"
      "import \"std/shapes\" as s\n"
      "template t(a, b = a + later) {\n"
      "  let c = [i + x for i, x in [a]] + [k + v for k, v in {}]\n"
      "  for k, v in {} { x \"${k}${v}${c}\" { w = len(c) + b + units.gib + s.big\n let d = 1\n y { z = d } } }\n"
      "  if c == [] { let e = 1\n q { r = e } }\n"
      "  use t(1)\n"
      "  use s2.alias(1)\n"
      "}\n"
      "let later = 1\n"
      "let s2 = s\n"
      "let len = 3\n"  // a let may shadow a builtin
      "template u() { let t2 = t\n use t2(1) }\n";
  CHECK(resolve_only(ok) == Lines{});
  auto run = evaluate_text(ok);
  CHECK(run->joined() == "");

  // A template body does not see the place it is written in or used from.
  CHECK(resolve_only("b {\n let local = 1\n}\ntemplate t() { v = local }") ==
        Lines{"E2001 unknown name 'local' @local"});
  // A parameter's default sees the parameters before it, not after it nor the body's lets.
  CHECK(resolve_only("template t(a = b, b = 1) { let c = 1 }") == Lines{"E2001 unknown name 'b' @b"});
  CHECK(resolve_only("template t(a = c) { let c = 1 }") == Lines{"E2001 unknown name 'c' @c"});
  // Loop and comprehension variables end with their body.
  CHECK(resolve_only("for x in [] { }\nlet y = x") == Lines{"E2001 unknown name 'x' @x"});
  CHECK(resolve_only("let l = [x for x in []]\nlet y = x") == Lines{"E2001 unknown name 'x' @x"});
  // A body's lets end with the body.
  CHECK(resolve_only("b { c { let z = 1 } \n v = z }") == Lines{"E2001 unknown name 'z' @z"});
  CHECK(resolve_only("template t() { if true { let z = 1 } else { v = z } }") ==
        Lines{"E2001 unknown name 'z' @z"});
}

TEST_CASE("resolve_names: a let used before its definition", "[sema][resolve]") {
  auto run = evaluate_text("template t() {\n x { v = a }\n let a = 1\n}");
  const auto& d = run->only();
  CHECK(d.code == "E2004");
  CHECK(d.message == "'a' is used before its definition");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "'a' is defined here");
  // In a nested body, and its own value.
  CHECK(resolve_only("template t() {\n if true { x { v = a } }\n let a = 1\n}") ==
        Lines{"E2004 'a' is used before its definition @a"});
  CHECK(resolve_only("template t() { let a = a }") == Lines{"E2004 'a' is used before its definition @a"});
  // A top-level name of the same name is found first, as by evaluation.
  CHECK(resolve_only("let a = 1\ntemplate t() { let b = a\n let a = 2 }") == Lines{});
  // Used, it gives the evaluator's diagnostic once.
  auto used = evaluate_text("template t() {\n x { v = a }\n let a = 1\n}\nuse t()");
  CHECK(used->only().code == "E2004");
}

TEST_CASE("resolve_names: use", "[sema][resolve]") {
  auto run = evaluate_text("template team() {}\ntemplate t() { use teem() }");
  CHECK(run->only().code == "E2001");
  CHECK(run->only().message == "unknown template 'teem'");
  REQUIRE(run->only().suggestions.size() == 1);
  CHECK(run->only().suggestions[0].message == "did you mean 'team'?");
  // Used: once.
  CHECK(evaluate_text("template t() { use teem() }\nuse t()")->diagnostics.size() == 1);
  CHECK(resolve_only("template t() { use x() \n let x = t }") == Lines{"E2004 'x' is used before its definition @x"});
  // The arguments are checked too.
  CHECK(resolve_only("template t(a) { }\ntemplate u() { use t(a = nope) }") ==
        Lines{"E2001 unknown name 'nope' @nope"});
}

TEST_CASE("resolve_names: a module without the name", "[sema][resolve]") {
  const std::map<std::string, std::string> files = {
      {"/p/main.mkq",
       "import \"../lib/teams.mkq\"\n"
       "template t() { use teams.tem(1)\n x { v = teams.sise } }\n"
       "template u() { use teams.team(1)\n x { v = teams.size } }\n"},
      {"/lib/teams.mkq", "let size = 1\ntemplate team(n) { }\n"},
  };
  auto run = evaluate_files(files);
  CHECK(run->messages() == Lines{"E2020 module '../lib/teams.mkq' has no let or template 'tem'",
                                 "E2020 module '../lib/teams.mkq' has no let or template 'sise'"});
  for (const auto& d : run->diagnostics.items()) {
    REQUIRE(d.suggestions.size() == 1);
    CHECK((d.suggestions[0].message == "did you mean 'team'?" || d.suggestions[0].message == "did you mean 'size'?"));
  }
  // A local name that shadows the alias is not the module.
  CHECK(evaluate_files({{"/p/main.mkq", "import \"../lib/teams.mkq\"\ntemplate t(teams) { x { v = teams.sise } }\n"},
                        {"/lib/teams.mkq", "let size = 1\n"}})
            ->joined() == "");
  // Used: once.
  auto used = evaluate_files({{"/p/main.mkq", "import \"../lib/teams.mkq\"\nx { v = teams.sise }\n"},
                              {"/lib/teams.mkq", "let size = 1\n"}});
  CHECK(used->only().code == "E2020");
}

TEST_CASE("resolve_names: imported modules are checked", "[sema][resolve]") {
  auto run = evaluate_files({{"/p/main.mkq", "import \"../lib/teams.mkq\"\n"},
                             {"/lib/teams.mkq", "template team(n) { x \"${nn}\" { } }\n"}});
  CHECK(run->only().message == "unknown name 'nn'");
  CHECK(run->where(run->only().range) == "../lib/teams.mkq:1:25");
}

TEST_CASE("resolve_names: the standard library is clean", "[sema][resolve]") {
  std::string importer;
  for (const auto& module : mkq::stdlib::modules()) {
    INFO(module.path);
    CHECK(resolve_only(std::string(module.text, module.size)) == Lines{});
    importer += "import \"" + std::string(module.path) + "\" as m" + std::to_string(importer.size()) + "\n";
  }
  auto run = evaluate_files({{"/p/main.mkq", importer}}, {}, mkq::stdlib::modules());
  CHECK(run->joined() == "");
}

TEST_CASE("resolve_names: deep input does not exhaust the stack", "[sema][resolve]") {
  // Nesting as deep as the parser allows, and a long operator chain.
  std::string deep = "template t() { x { v = ";
  for (int i = 0; i < 190; ++i) deep += "(";
  deep += "deep";
  for (int i = 0; i < 190; ++i) deep += ")";
  deep += " } }\n";
  CHECK(resolve_only(deep) == Lines{"E2001 unknown name 'deep' @deep"});
  std::string chain = "template t() { x { v = 1";
  for (int i = 0; i < 700; ++i) chain += " + 1";
  chain += " + far } }\n";
  CHECK(resolve_only(chain) == Lines{"E2001 unknown name 'far' @far"});
  std::string branches = "template t() { if true { }";
  for (int i = 0; i < 150; ++i) branches += " else if false { }";
  branches += " else { x { v = last } } }\n";
  CHECK(resolve_only(branches) == Lines{"E2001 unknown name 'last' @last"});
}

TEST_CASE("resolve_names: a top-level block's names are checked before the block is let go", "[sema][resolve]") {
  // The branch not taken is never evaluated; the block's syntax is dropped
  // right after it runs, so its names are checked then.
  auto run = evaluate_text("let teams = 1\nx \"a\" { if false { v = tems } }\nlet later = 2\n");
  const auto& d = run->only();
  CHECK(d.code == "E2001");
  CHECK(d.message == "unknown name 'tems'");
  CHECK(run->text(d.range) == "tems");
  // The root file was releasable: its block is gone, its lets are kept.
  const auto& stmts = run->asts.front()->stmts;
  REQUIRE(stmts.size() == 3);
  CHECK(stmts[0] != nullptr);
  CHECK(stmts[1] == nullptr);
  CHECK(stmts[2] != nullptr);
  REQUIRE(run->policy.blocks.size() == 1);
  CHECK(run->policy.blocks[0].kind == "x");
}

TEST_CASE("resolve_names: a name evaluation reports in a top-level block is reported once", "[sema][resolve]") {
  auto run = evaluate_text("x \"a\" { v = tems }\n");
  const auto& d = run->only();  // one in the collection, not only after sorted()
  CHECK(d.code == "E2001");
  CHECK(run->text(d.range) == "tems");
}
