// No input can crash or hang the evaluator: long let chains, values that
// share storage (exponential size), huge strings, huge loops, deep nesting.
#include "tests/sema/eval_fixture.h"

namespace {

using mkq::test::evaluate_text;

std::size_t count_code(const mkq::test::EvalRun& run, const std::string& code) {
  std::size_t n = 0;
  for (const auto& d : run.diagnostics.items()) n += d.code == code ? 1 : 0;
  return n;
}

TEST_CASE("limits: a very long chain of forward references", "[sema][eval][limits]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "let a" + std::to_string(i) + " = a" + std::to_string(i + 1) + "\n";
  text += "let a5000 = 1\n";
  auto run = evaluate_text(text);
  CHECK(count_code(*run, "E2090") >= 1);
  CHECK(run->diagnostics.size() == count_code(*run, "E2090"));
}

TEST_CASE("limits: a long chain of backward references is fine", "[sema][eval][limits]") {
  std::string text = "let a0 = 1\n";
  for (int i = 1; i < 5000; ++i) text += "let a" + std::to_string(i) + " = a" + std::to_string(i - 1) + " + 1\n";
  text += "b { v = a4999 }\n";
  auto run = evaluate_text(text);
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  CHECK(mkq::sema::to_display(run->policy.blocks.at(0).attributes.at(0).value) == "5000");
}

TEST_CASE("limits: values that double at every let", "[sema][eval][limits]") {
  std::string text = "let v0 = [1, 1]\n";
  for (int i = 1; i <= 40; ++i) {
    text += "let v" + std::to_string(i) + " = [v" + std::to_string(i - 1) + ", v" + std::to_string(i - 1) + "]\n";
  }
  text += "b { v = v40, s = \"${v40}\" }\n";
  auto run = evaluate_text(text);
  CHECK(run->messages() ==
        std::vector<std::string>{"E2091 value is too large (more than 1000000 elements, counting every nested one)"});
}

TEST_CASE("limits: strings that double at every let", "[sema][eval][limits]") {
  std::string text = "let s0 = \"0123456789\"\n";
  for (int i = 1; i <= 40; ++i) {
    text += "let s" + std::to_string(i) + " = s" + std::to_string(i - 1) + " + s" + std::to_string(i - 1) + "\n";
  }
  auto run = evaluate_text(text);
  CHECK(run->messages() == std::vector<std::string>{"E2091 string is too long (more than 1048576 bytes)"});
}

TEST_CASE("limits: printing a large shared value", "[sema][eval][limits]") {
  std::string text = "let v0 = [\"" + std::string(1000, 'x') + "\"]\n";
  for (int i = 1; i <= 12; ++i) {
    text += "let v" + std::to_string(i) + " = [v" + std::to_string(i - 1) + ", v" + std::to_string(i - 1) + "]\n";
  }
  text += "let s = string(v12)\n";
  auto run = evaluate_text(text);
  CHECK(run->messages() == std::vector<std::string>{"E2091 value is too large to print (more than 1048576 bytes)"});
}

TEST_CASE("limits: lists nested too deeply through lets", "[sema][eval][limits]") {
  std::string text = "let l0 = []\n";
  for (int i = 1; i <= 300; ++i) text += "let l" + std::to_string(i) + " = [l" + std::to_string(i - 1) + "]\n";
  auto run = evaluate_text(text);
  CHECK(run->messages() ==
        std::vector<std::string>{"E2091 value is nested too deeply (more than 256 levels of lists and maps)"});
}

TEST_CASE("limits: a loop that would run too long", "[sema][eval][limits][slow]") {
  auto run = evaluate_text("for i in range(100000) { for j in range(100000) { let k = i } }");
  CHECK(run->messages() == std::vector<std::string>{
                               "E2092 evaluation takes too many steps: loops or templates repeat too much work"});
}

}  // namespace

namespace {

TEST_CASE("limits: long operator chains through forward references", "[sema][eval][limits]") {
  // The parser allows 800 levels in one expression; lets chain them further.
  std::string ones;
  for (int i = 0; i < 700; ++i) ones += " + 1";
  auto run = mkq::test::evaluate_text("let a = b" + ones + "\nlet b = c" + ones + "\nlet c = d" + ones + "\nlet d = 1\n");
  CHECK(run->messages() == std::vector<std::string>{
                               "E2090 evaluation is nested too deeply (more than 1500 levels of expressions, lets and imports)"});
  CHECK(mkq::test::show("1" + ones) == "701");
  CHECK(mkq::test::show("a", "let a = b" + ones + "\nlet b = 1") == "701");
}

}  // namespace
