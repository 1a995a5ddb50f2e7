// The builtin functions and secrets.
#include "tests/sema/eval_fixture.h"

namespace {

using mkq::test::error_of;
using mkq::test::evaluate_expr;
using mkq::test::show;

TEST_CASE("builtins: len", "[sema][eval][builtins]") {
  CHECK(show("len([1, 2, 3])") == "3");
  CHECK(show("len({a: 1})") == "1");
  CHECK(show("len(\"héllo\")") == "5");  // characters, not bytes
  CHECK(error_of("len(1)") == "E2031 len() needs a list, a map or a string, not a number");
  CHECK(error_of("len()") == "E2031 len() takes 1 argument, but 0 were given");
  CHECK(error_of("len([1], [2])") == "E2031 len() takes 1 argument, but 2 were given");
  CHECK(error_of("len(x = [1])") == "E2031 len() takes no named arguments");
}

TEST_CASE("builtins: sum, min, max", "[sema][eval][builtins]") {
  CHECK(show("sum([1, 2, 500m])") == "3500m");
  CHECK(show("sum([1Gi, 1Gi])") == "2Gi");
  CHECK(show("sum([])") == "0");
  CHECK(show("sum([1h, 30min])") == "1h30min");
  CHECK(error_of("sum([1, \"a\"])") == "E2031 sum() cannot add a number and a string (element 1)");
  CHECK(error_of("sum([\"a\"])") == "E2031 sum() needs a list of numbers or of durations, not of strings");
  CHECK(error_of("sum(1)") == "E2031 sum() needs a list, not a number");

  CHECK(show("min(3, 1, 2)") == "1");
  CHECK(show("max([3, 1, 2])") == "3");
  CHECK(show("max(1Gi, 1G)") == "1Gi");
  CHECK(show("min([\"b\", \"a\"])") == "a");
  CHECK(show("max(1h, 2h)") == "2h");
  CHECK(error_of("min([])") == "E2032 min() of an empty list");
  CHECK(error_of("min()") == "E2031 min() needs at least one argument");
  CHECK(error_of("max(1, \"a\")") == "E2031 max() cannot compare a number and a string");
  CHECK(error_of("max(5)") == "E2031 max() needs a list or several arguments, not a number");
  CHECK(error_of("min([true])") == "E2031 min() compares numbers, durations or strings, not a bool");
}

TEST_CASE("builtins: range", "[sema][eval][builtins]") {
  CHECK(show("range(3)") == "[0, 1, 2]");
  CHECK(show("range(2, 5)") == "[2, 3, 4]");
  CHECK(show("range(5, 2)") == "[]");
  CHECK(show("range(0)") == "[]");
  CHECK(error_of("range(1.5)") == "E2031 range() needs whole numbers, not 1500m");
  CHECK(error_of("range(\"a\")") == "E2031 range() needs whole numbers, not a string");
  CHECK(error_of("range(1, 2, 3)") == "E2031 range() takes 1 or 2 arguments, but 3 were given");
  CHECK(error_of("range(1000000)") == "E2091 range() would make more than 100000 numbers");
}

TEST_CASE("builtins: keys, values, join, lower, upper, string", "[sema][eval][builtins]") {
  CHECK(show("keys({b: 1, a: 2})") == "[\"a\", \"b\"]");
  CHECK(show("values({b: 1, a: 2})") == "[2, 1]");
  CHECK(error_of("keys([1])") == "E2031 keys() needs a map, not a list");
  CHECK(show("join([\"a\", \"b\", 3], \", \")") == "a, b, 3");
  CHECK(show("join([], \"-\")") == "");
  CHECK(error_of("join([[1]], \",\")") ==
        "E2031 join() joins strings, numbers, durations and bools, not a list (element 0)");
  CHECK(error_of("join([\"a\"], 1)") == "E2031 join() needs a string as separator, not a number");
  CHECK(show("lower(\"AbC\")") == "abc");
  CHECK(show("upper(\"AbC\")") == "ABC");
  CHECK(error_of("upper(1)") == "E2031 upper() needs a string, not a number");
  CHECK(show("string(36Gi)") == "36Gi");
  CHECK(show("string(30d)") == "30d");
  CHECK(show("string([1, \"a\"]) + \"!\"") == "[1, \"a\"]!");
  CHECK(show("string(\"s\")") == "s");
}

TEST_CASE("builtins: a builtin is a value", "[sema][eval][builtins]") {
  CHECK(show("f([1, 2])", "let f = len") == "2");
  CHECK(show("len", "let len = 3") == "3");  // a let may shadow a builtin
}

TEST_CASE("secrets: the source is checked, the value never read", "[sema][eval][secrets]") {
  auto env = evaluate_expr("secret(\"env:WORKER1_TOKEN\")");
  REQUIRE(env.value);
  CHECK(env.value->is(mkq::sema::ValueKind::Secret));
  CHECK(env.value->as_secret().source == "env:WORKER1_TOKEN");
  CHECK(show("secret(\"file:/etc/mkq/w1.kubeconfig\")") == "<secret>");
  CHECK(error_of("secret(\"WORKER1\")") ==
        "E2032 a secret's source must be \"env:NAME\" or \"file:PATH\", not \"WORKER1\"");
  CHECK(error_of("secret(\"env:1X\")") ==
        "E2032 a secret's source must be \"env:NAME\" or \"file:PATH\", not \"env:1X\"");
  CHECK(error_of("secret(\"file:\")") ==
        "E2032 a secret's source must be \"env:NAME\" or \"file:PATH\", not \"file:\"");
  CHECK(error_of("secret(1)") == "E2031 secret() needs a string, not a number");
}

TEST_CASE("secrets: may flow through lets, lists, maps and templates", "[sema][eval][secrets]") {
  auto run = mkq::test::evaluate_text(R"(
let token = secret("env:T")
let all_tokens = [token]
let by_worker = { w1: token }
template creds(t) { credentials { token = t } }
worker "w1" {
  use creds(by_worker.w1)
  other = all_tokens[0]
}
)");
  INFO(run->joined());
  REQUIRE(run->diagnostics.size() == 0);
  const auto& w = run->policy.blocks.at(0);
  CHECK(w.blocks.at(0).attributes.at(0).value.is(mkq::sema::ValueKind::Secret));
  CHECK(w.attributes.at(0).value.is(mkq::sema::ValueKind::Secret));
}

TEST_CASE("secrets: printing or inspecting one is an error", "[sema][eval][secrets][errors]") {
  const std::string s = "let s = secret(\"env:T\")";
  const std::string printed = "E2070 a secret cannot be used here: its value would be printed";
  const std::string inspected = "E2070 a secret cannot be used here: its value would be inspected";
  auto r = evaluate_expr("\"token ${s}\"", s);
  CHECK(r.run->only().message == "a secret cannot be used here: its value would be printed");
  CHECK(r.run->text(r.run->only().range) == "s");
  CHECK(error_of("\"${[s]}\"", s) == printed);
  CHECK(error_of("s + \"x\"", s) == printed);
  CHECK(error_of("string(s)", s) == printed);
  CHECK(error_of("join([s], \",\")", s) == printed);
  CHECK(error_of("s == s", s) == inspected);
  CHECK(error_of("[s] == [s]", s) == inspected);
  CHECK(error_of("s < s", s) == inspected);
  CHECK(error_of("\"a\" in [s]", s) == inspected);
  CHECK(error_of("len(s)", s) == inspected);
  CHECK(error_of("s.x", s) == inspected);
  CHECK(error_of("s[0]", s) == inspected);
  CHECK(error_of("{a: 1}[s]", s) == inspected);
  CHECK(error_of("[x for x in s]", s) == inspected);
  CHECK(error_of("max([s])", s) == inspected);
  CHECK(mkq::test::error_of_file(s + "\nt \"${s}\" {}") == printed);
}

}  // namespace
