// The evaluator's statements: lets and scopes, blocks and attributes, for,
// if, assert, where each statement may appear, and determinism.
#include "tests/sema/eval_fixture.h"

namespace {

using mkq::test::error_of;
using mkq::test::error_of_file;
using mkq::test::evaluate_text;
using mkq::test::show;

std::string attr(const mkq::sema::EvalBlock& block, std::size_t i) {
  return block.attributes.at(i).name + "=" + mkq::sema::to_display(block.attributes.at(i).value);
}

TEST_CASE("evaluator: blocks, labels, in-labels and attributes", "[sema][eval]") {
  auto run = evaluate_text(R"(
let ns = "team-a"
clusterqueue "cq-${ns}" {
  cpu = 9
  localqueue "lq" in "${ns}" { default = true }
  quota "default-flavor" { cpu = 9, memory = 36Gi }
}
)");
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  REQUIRE(run->policy.blocks.size() == 1);
  const auto& cq = run->policy.blocks[0];
  CHECK(cq.kind == "clusterqueue");
  CHECK(run->text(cq.kind_range) == "clusterqueue");
  REQUIRE(cq.labels.size() == 1);
  CHECK(cq.labels[0].text == "cq-team-a");
  CHECK(run->text(cq.labels[0].range) == "\"cq-${ns}\"");
  CHECK(!cq.in_label);
  REQUIRE(cq.attributes.size() == 1);
  CHECK(attr(cq, 0) == "cpu=9");
  CHECK(run->text(cq.attributes[0].name_range) == "cpu");
  CHECK(run->text(cq.attributes[0].range) == "cpu = 9");
  REQUIRE(cq.blocks.size() == 2);
  CHECK(cq.blocks[0].kind == "localqueue");
  REQUIRE(cq.blocks[0].in_label);
  CHECK(cq.blocks[0].in_label->text == "team-a");
  CHECK(attr(cq.blocks[0], 0) == "default=true");
  CHECK(cq.blocks[1].kind == "quota");
  CHECK(attr(cq.blocks[1], 0) == "cpu=9");
  CHECK(attr(cq.blocks[1], 1) == "memory=36Gi");
  CHECK(cq.instantiated_from.empty());
}

TEST_CASE("evaluator: duplicate attributes are kept for the binder", "[sema][eval]") {
  auto run = evaluate_text("t { a = 1\n a = 2 }");
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(run->policy.blocks[0].attributes.size() == 2);
}

TEST_CASE("evaluator: top-level lets are order-independent", "[sema][eval]") {
  CHECK(show("a", "let a = b + 1\nlet b = c * 2\nlet c = 5") == "11");
}

TEST_CASE("evaluator: a let that depends on itself", "[sema][eval][errors]") {
  auto run = evaluate_text("let a = b + 1\nlet b = [a]\n");
  const auto& d = run->only();
  CHECK(d.code == "E2003");
  CHECK(d.message == "let 'a' depends on itself");
  CHECK(run->where(d.range) == "main.mkq:1:5");
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[0].message == "'a' refers to 'b' here");
  CHECK(run->where(*d.notes[0].range) == "main.mkq:1:9");
  CHECK(d.notes[1].message == "'b' refers to 'a' here");
  CHECK(run->where(*d.notes[1].range) == "main.mkq:2:10");

  CHECK(error_of_file("let x = x") == "E2003 let 'x' depends on itself");
}

TEST_CASE("evaluator: every top-level let is evaluated, used or not", "[sema][eval][errors]") {
  CHECK(error_of_file("let unused = 1 / 0") == "E2013 division by zero");
}

TEST_CASE("evaluator: unknown names get a suggestion", "[sema][eval][errors]") {
  auto run = evaluate_text("let teams = 1\nt { v = tems }");
  const auto& d = run->only();
  CHECK(d.code == "E2001");
  CHECK(d.message == "unknown name 'tems'");
  CHECK(run->text(d.range) == "tems");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "did you mean 'teams'?");
  // Builtins are candidates too.
  auto builtin = evaluate_text("t { v = lenn([1]) }");
  REQUIRE(builtin->only().suggestions.size() == 1);
  CHECK(builtin->only().suggestions[0].message == "did you mean 'len'?");
}

TEST_CASE("evaluator: lets in a body are sequential", "[sema][eval]") {
  auto run = evaluate_text("t {\n let a = 1\n let b = a + 1\n v = b\n}");
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(attr(run->policy.blocks[0], 0) == "v=2");

  auto early = evaluate_text("t {\n v = b\n let b = 1\n}");
  const auto& d = early->only();
  CHECK(d.code == "E2004");
  CHECK(d.message == "'b' is used before its definition");
  REQUIRE(d.notes.size() == 1);
  CHECK(early->where(*d.notes[0].range) == "main.mkq:3:6");
}

TEST_CASE("evaluator: a body's let shadows an outer name until it runs", "[sema][eval]") {
  auto run = evaluate_text("let a = 1\nt {\n x = a\n let a = 2\n y = a\n}");
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(attr(run->policy.blocks[0], 0) == "x=1");
  CHECK(attr(run->policy.blocks[0], 1) == "y=2");
}

TEST_CASE("evaluator: duplicate lets in one scope", "[sema][eval][errors]") {
  auto run = evaluate_text("let a = 1\nlet a = 2\n");
  const auto& d = run->only();
  CHECK(d.code == "E2002");
  CHECK(d.message == "'a' is already defined in this file");
  CHECK(run->where(d.range) == "main.mkq:2:5");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "'a' is first defined here");
  CHECK(run->where(*d.notes[0].range) == "main.mkq:1:5");

  CHECK(error_of_file("t {\n let a = 1\n let a = 2\n}") == "E2002 'a' is already defined in this scope");
  CHECK(error_of_file("let t = 1\ntemplate t() {}") == "E2002 't' is already defined in this file");
  CHECK(error_of_file("for x in [1] { let x = 2 }") == "E2002 'x' is already defined in this scope");
}

TEST_CASE("evaluator: for over lists and maps", "[sema][eval]") {
  auto run = evaluate_text(R"(
for i, name in ["a", "b"] {
  q "${name}" { index = i }
}
for k, v in { z: 1, a: 2 } {
  m "${k}" { value = v }
}
for x in [7] { one "x" { x = x } }
)");
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  const auto& blocks = run->policy.blocks;
  REQUIRE(blocks.size() == 5);
  CHECK(blocks[0].labels[0].text == "a");
  CHECK(attr(blocks[0], 0) == "index=0");
  CHECK(blocks[1].labels[0].text == "b");
  CHECK(attr(blocks[1], 0) == "index=1");
  CHECK(blocks[2].labels[0].text == "a");  // map keys in sorted order
  CHECK(attr(blocks[2], 0) == "value=2");
  CHECK(blocks[3].labels[0].text == "z");
  CHECK(attr(blocks[4], 0) == "x=7");
}

TEST_CASE("evaluator: for inside a block adds attributes and blocks to it", "[sema][eval]") {
  auto run = evaluate_text("cq \"x\" {\n for f in [\"a\", \"b\"] { quota \"${f}\" { cpu = 1 } }\n n = 1\n}");
  REQUIRE(run->diagnostics.size() == 0);
  REQUIRE(run->policy.blocks.size() == 1);
  CHECK(run->policy.blocks[0].blocks.size() == 2);
  CHECK(run->policy.blocks[0].attributes.size() == 1);
}

TEST_CASE("evaluator: for over something that is not a list or a map", "[sema][eval][errors]") {
  auto run = evaluate_text("for x in 3 { }");
  const auto& d = run->only();
  CHECK(d.code == "E2022");
  CHECK(d.message == "cannot iterate over a number");
  CHECK(run->text(d.range) == "3");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "to count, iterate over range(n)");
  CHECK(error_of_file("for x in \"abc\" { }") == "E2022 cannot iterate over a string");
}

TEST_CASE("evaluator: if, else if, else", "[sema][eval]") {
  const std::string chain = R"(
if n > 10 { big "x" {} } else if n > 5 { medium "x" {} } else { small "x" {} }
)";
  for (const auto& [n, kind] : std::vector<std::pair<std::string, std::string>>{
           {"20", "big"}, {"7", "medium"}, {"1", "small"}}) {
    auto run = evaluate_text("let n = " + n + "\n" + chain);
    REQUIRE(run->diagnostics.size() == 0);
    REQUIRE(run->policy.blocks.size() == 1);
    CHECK(run->policy.blocks[0].kind == kind);
  }
  auto none = evaluate_text("if false { x \"a\" {} }");
  CHECK(none->policy.blocks.empty());
  auto bad = evaluate_text("if \"yes\" { }");
  CHECK(bad->only().code == "E2011");
  CHECK(bad->only().message == "the condition must be a bool, not a string");
  CHECK(bad->text(bad->only().range) == "\"yes\"");
}

TEST_CASE("evaluator: assert", "[sema][eval]") {
  CHECK(evaluate_text("assert 1 < 2, \"fine\"")->diagnostics.size() == 0);
  auto run = evaluate_text("let cpu = 4\nassert cpu > 8, \"cpu must exceed 8, got ${cpu}\"");
  const auto& d = run->only();
  CHECK(d.code == "E2060");
  CHECK(d.message == "assertion failed: cpu must exceed 8, got 4");
  CHECK(run->text(d.range) == "cpu > 8");
  CHECK(error_of_file("assert false") == "E2060 assertion failed");
  CHECK(error_of_file("assert 1") == "E2011 the condition must be a bool, not a number");
  CHECK(error_of_file("assert true, 5") == "E2010 the assert message must be a string, not a number");
  CHECK(error_of_file("assert false, secret(\"env:X\")") ==
        "E2070 a secret cannot be used here: its value would be printed");
  CHECK(error_of_file("t { assert false, \"in a block\" }") == "E2060 assertion failed: in a block");
}

TEST_CASE("evaluator: where statements may appear", "[sema][eval][errors]") {
  auto attribute = evaluate_text("cpu = 4");
  const auto& d = attribute->only();
  CHECK(d.code == "E2050");
  CHECK(d.message == "an attribute must be inside a block");
  CHECK(attribute->text(d.range) == "cpu");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "to define a variable, write 'let cpu = ...'");
  CHECK(d.suggestions[0].replacement == "let cpu");

  CHECK(error_of_file("for x in [] { cpu = 4 }") == "E2050 an attribute must be inside a block");
  CHECK(error_of_file("t { import \"std/units\" }") == "E2050 an import must be at the top level of a file");
  CHECK(error_of_file("if true { template x() {} }") == "E2050 a template must be defined at the top level of a file");
  CHECK(error_of_file("template x() { template y() {} }") ==
        "E2050 a template must be defined at the top level of a file");
  // Blocks may nest anywhere: the binder decides which kinds.
  CHECK(evaluate_text("a \"x\" { b \"y\" { c \"z\" {} } }")->diagnostics.size() == 0);
}

TEST_CASE("evaluator: the result is deterministic", "[sema][eval]") {
  const std::map<std::string, std::string> files = {
      {"/p/b.mkq", "import \"./lib.mkq\"\nb \"1\" { v = lib.x }\n"},
      {"/p/a.mkq", "a \"1\" {}\na \"2\" {}\n"},
      {"/p/lib.mkq", "let x = 1\nlib \"1\" {}\n"},
  };
  auto order = [](const mkq::test::EvalRun& run) {
    std::string out;
    for (const auto& block : run.policy.blocks) out += block.kind + block.labels[0].text + " ";
    return out;
  };
  // Roots in any order: sorted by path; lib.mkq is a root and imported by b.mkq, evaluated once.
  auto first = mkq::test::evaluate_files(files, {"/p/lib.mkq", "/p/b.mkq", "/p/a.mkq"});
  auto second = mkq::test::evaluate_files(files, {"/p/a.mkq", "/p/b.mkq", "/p/lib.mkq"});
  INFO(first->joined());
  REQUIRE(first->diagnostics.size() == 0);
  CHECK(order(*first) == "a1 a2 lib1 b1 ");
  CHECK(order(*first) == order(*second));
}

TEST_CASE("evaluator: one mistake gives one diagnostic", "[sema][eval][errors]") {
  // `a` fails; everything built from it stays silent.
  auto run = evaluate_text("let a = 1 / 0\nlet b = a + 1\nt \"${b}\" { v = [b, a] }\nfor x in a {}\nif a {}");
  CHECK(run->messages() == std::vector<std::string>{"E2013 division by zero"});
}

}  // namespace
