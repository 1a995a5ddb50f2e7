// Templates and `use`: argument binding, defaults, scoping, instantiation
// chains and the depth limit.
#include "tests/sema/eval_fixture.h"

namespace {

using mkq::test::error_of_file;
using mkq::test::evaluate_text;

std::string attr(const mkq::sema::EvalBlock& block, std::size_t i) {
  return block.attributes.at(i).name + "=" + mkq::sema::to_display(block.attributes.at(i).value);
}

TEST_CASE("templates: use binds positional, named and default arguments", "[sema][eval][templates]") {
  auto run = evaluate_text(R"(
template team(name, cpu = 4, memory = cpu * 4Gi) {
  clusterqueue "${name}" { quota "f" { cpu = cpu, memory = memory } }
  localqueue "${name}" in "${name}" {}
}
use team("research", cpu = 10)
use team(name = "ops")
)");
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  const auto& blocks = run->policy.blocks;
  REQUIRE(blocks.size() == 4);
  CHECK(blocks[0].labels[0].text == "research");
  CHECK(attr(blocks[0].blocks[0], 0) == "cpu=10");
  CHECK(attr(blocks[0].blocks[0], 1) == "memory=40Gi");
  CHECK(blocks[2].labels[0].text == "ops");
  CHECK(attr(blocks[2].blocks[0], 0) == "cpu=4");
  CHECK(attr(blocks[2].blocks[0], 1) == "memory=16Gi");
  // Blocks made by a template remember the use site.
  REQUIRE(blocks[0].instantiated_from.size() == 1);
  CHECK(run->text(blocks[0].instantiated_from[0]) == "use team(\"research\", cpu = 10)");
  CHECK(blocks[0].blocks[0].instantiated_from.size() == 1);
}

TEST_CASE("templates: use inside a block contributes attributes and blocks", "[sema][eval][templates]") {
  auto run = evaluate_text(R"(
template std_quota(cpu) {
  quota "default" { cpu = cpu }
  queueing_strategy = "StrictFIFO"
}
clusterqueue "cq" {
  use std_quota(9)
  stop_policy = "None"
}
)");
  REQUIRE(run->diagnostics.size() == 0);
  REQUIRE(run->policy.blocks.size() == 1);
  const auto& cq = run->policy.blocks[0];
  REQUIRE(cq.blocks.size() == 1);
  CHECK(attr(cq.blocks[0], 0) == "cpu=9");
  REQUIRE(cq.attributes.size() == 2);
  CHECK(attr(cq, 0) == "queueing_strategy=StrictFIFO");
  CHECK(attr(cq, 1) == "stop_policy=None");
}

TEST_CASE("templates: a template sees its parameters and its module, not the caller", "[sema][eval][templates]") {
  auto ok = evaluate_text("let zone = \"a\"\ntemplate t(n) { x \"${n}-${zone}\" {} }\nuse t(\"q\")");
  REQUIRE(ok->diagnostics.size() == 0);
  CHECK(ok->policy.blocks[0].labels[0].text == "q-a");

  auto run = evaluate_text("template t() { x \"${local}\" {} }\nb {\n let local = 1\n use t()\n}");
  const auto& d = run->only();
  CHECK(d.code == "E2001");
  CHECK(d.message == "unknown name 'local'");
}

TEST_CASE("templates: nested use records the chain, innermost first", "[sema][eval][templates]") {
  auto run = evaluate_text("template inner() { x \"a\" {} }\ntemplate outer() { use inner() }\nuse outer()");
  REQUIRE(run->diagnostics.size() == 0);
  const auto& from = run->policy.blocks.at(0).instantiated_from;
  REQUIRE(from.size() == 2);
  CHECK(run->text(from[0]) == "use inner()");
  CHECK(run->text(from[1]) == "use outer()");
}

TEST_CASE("templates: argument errors", "[sema][eval][templates][errors]") {
  const std::string t = "template team(name, cpu = 4) {}\n";
  auto missing = evaluate_text(t + "use team(cpu = 1)");
  const auto& d = missing->only();
  CHECK(d.code == "E2041");
  CHECK(d.message == "missing argument 'name' for template 'team'");
  CHECK(missing->text(d.range) == "team");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "parameter 'name' is declared here");

  auto unknown = evaluate_text(t + "use team(\"a\", cpus = 1)");
  CHECK(unknown->only().message == "template 'team' has no parameter 'cpus'");
  REQUIRE(unknown->only().suggestions.size() == 1);
  CHECK(unknown->only().suggestions[0].message == "did you mean 'cpu'?");

  CHECK(error_of_file(t + "use team(\"a\", 1, 2)") == "E2041 too many arguments: template 'team' takes 2 arguments");
  CHECK(error_of_file(t + "use team(\"a\", name = \"b\")") == "E2041 argument 'name' is given twice");
  CHECK(error_of_file(t + "use team(cpu = 1, \"a\")") ==
        "E2041 a positional argument cannot follow a named argument");
  CHECK(error_of_file("template t(a, a) {}") == "E2002 parameter 'a' is already defined");
  CHECK(error_of_file("template t(a) { let a = 1 }\nuse t(1)") == "E2002 'a' is already defined in this scope");
}

TEST_CASE("templates: unknown templates and non-templates", "[sema][eval][templates][errors]") {
  auto run = evaluate_text("template team() {}\nuse teem()");
  CHECK(run->only().code == "E2001");
  CHECK(run->only().message == "unknown template 'teem'");
  REQUIRE(run->only().suggestions.size() == 1);
  CHECK(run->only().suggestions[0].message == "did you mean 'team'?");
  CHECK(error_of_file("let x = 1\nuse x()") == "E2040 'x' is not a template: it is a number");
  CHECK(error_of_file("use len()") == "E2040 'len' is not a template: it is a function");
}

TEST_CASE("templates: an attribute reaching the top level through use", "[sema][eval][templates][errors]") {
  auto run = evaluate_text("template t() { cpu = 1 }\nuse t()");
  const auto& d = run->only();
  CHECK(d.code == "E2050");
  CHECK(d.message == "an attribute must be inside a block");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "instantiated from here");
  CHECK(run->text(*d.notes[0].range) == "use t()");
}

TEST_CASE("templates: recursion stops at 64 levels", "[sema][eval][templates][errors]") {
  auto run = evaluate_text("template r(n) { x \"${n}\" {}\n use r(n + 1) }\nuse r(0)");
  const auto& d = run->only();
  CHECK(d.code == "E2042");
  CHECK(d.message == "templates are instantiated more than 64 deep");
  CHECK(run->policy.blocks.size() == 64);

  // Bounded recursion is fine.
  auto bounded = evaluate_text("template r(n) {\n if n > 0 { use r(n - 1) }\n x \"${n}\" {}\n}\nuse r(10)");
  REQUIRE(bounded->diagnostics.size() == 0);
  CHECK(bounded->policy.blocks.size() == 11);
}

TEST_CASE("templates: a template value can be passed through a let", "[sema][eval][templates]") {
  auto run = evaluate_text("template t(n) { x \"${n}\" {} }\nlet alias = t\nuse alias(1)");
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(run->policy.blocks.size() == 1);
  CHECK(error_of_file("template t() {}\nb { v = t }") == "E2033 an attribute cannot be a template");
}

}  // namespace
