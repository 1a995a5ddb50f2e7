// The evaluator's expressions: literals, operators and their type rules,
// strings, lists, maps, comprehensions, field access and indexing.
#include "tests/sema/eval_fixture.h"

namespace {

using mkq::test::error_of;
using mkq::test::evaluate_expr;
using mkq::test::show;

TEST_CASE("evaluator: literals keep their notation", "[sema][eval]") {
  CHECK(show("9") == "9");
  CHECK(show("36Gi") == "36Gi");
  CHECK(show("500m") == "500m");
  CHECK(show("1.5") == "1500m");
  CHECK(show("90s") == "1min30s");  // canonical: largest units first
  CHECK(show("1h30min") == "1h30min");
  CHECK(show("\"text\"") == "text");
  CHECK(show("true") == "true");
  CHECK(show("null") == "null");
  CHECK(show("all") == "all");
  CHECK(show("[1, \"a\"]") == "[1, \"a\"]");
}

TEST_CASE("evaluator: exact arithmetic on quantities", "[sema][eval]") {
  CHECK(show("2 * 16Gi") == "32Gi");
  CHECK(show("8 + 500m") == "8500m");
  CHECK(show("10 - 12") == "-2");
  CHECK(show("-(3)") == "-3");
  CHECK(show("9 / 3") == "3");
  CHECK(show("1 / 4") == "250m");
  CHECK(show("10 % 3") == "1");
  CHECK(show("1 + 2 * 3") == "7");
  CHECK(show("(1 + 2) * 3") == "9");
}

TEST_CASE("evaluator: arithmetic errors point at the operator", "[sema][eval][errors]") {
  auto r = evaluate_expr("10 / 0");
  const auto& d = r.run->only();
  CHECK(d.code == "E2013");
  CHECK(d.message == "division by zero");
  CHECK(r.run->text(d.range) == "/");

  CHECK(error_of("1 / 3") == "E2013 1 / 3 does not divide exactly (numbers are exact to 1n)");
  CHECK(error_of("1.5 % 1") == "E2013 '%' needs whole numbers: 1500m % 1");
  CHECK(error_of("100E * 100E * 100E") == "E2013 the result of 100E * 100E is too large");
}

TEST_CASE("evaluator: number literals too large or too precise", "[sema][eval][errors]") {
  auto r = evaluate_expr("1e40");
  CHECK(r.run->only().message == "number '1e40' is too large");
  CHECK(r.run->only().code == "E2012");
  CHECK(r.run->text(r.run->only().range) == "1e40");
  CHECK(error_of("1e-10") == "E2012 number '1e-10' is too precise: quantities are exact to 1n (10^-9)");
}

TEST_CASE("evaluator: durations", "[sema][eval]") {
  CHECK(show("1h + 30min") == "1h30min");
  CHECK(show("2h - 30min") == "1h30min");
  CHECK(show("2 * 1h") == "2h");
  CHECK(show("1h * 1.5") == "1h30min");
  CHECK(show("1d / 2") == "12h");
  CHECK(show("1d / 1h") == "24");
  CHECK(show("30d > 7d") == "true");
  CHECK(error_of("1h - 2h") == "E2014 the result of 1h - 2h is a negative duration");
  CHECK(error_of("1ms / 3") == "E2014 the result of 1ms / 3 is not a whole number of milliseconds");
  CHECK(error_of("1h / 0") == "E2013 division by zero");
  CHECK(error_of("1h + 1") == "E2010 cannot add a duration and a number");
  CHECK(error_of("1h * 1h") == "E2010 cannot multiply a duration by a duration");
}

TEST_CASE("evaluator: type errors name both operands", "[sema][eval][errors]") {
  auto r = evaluate_expr("\"a\" + 1");
  CHECK(r.run->only().message == "cannot add a string and a number");
  CHECK(r.run->only().code == "E2010");
  CHECK(r.run->text(r.run->only().range) == "+");
  CHECK(error_of("1 - \"a\"") == "E2010 cannot subtract a string from a number");
  CHECK(error_of("[1] * 2") == "E2010 cannot multiply a list by a number");
  CHECK(error_of("{} / 2") == "E2010 cannot divide a map by a number");
  CHECK(error_of("true % 2") == "E2010 cannot take the remainder of a bool divided by a number");
  CHECK(error_of("null + 1") == "E2010 cannot add null and a number");
  CHECK(error_of("1 < \"a\"") == "E2010 cannot compare a number and a string");
  CHECK(error_of("-\"a\"") == "E2010 cannot negate a string");
  CHECK(error_of("!1") == "E2011 operator '!' needs a bool, not a number");
}

TEST_CASE("evaluator: strings, lists and maps join with +", "[sema][eval]") {
  CHECK(show("\"ab\" + \"cd\"") == "abcd");
  CHECK(show("[1] + [2, 3]") == "[1, 2, 3]");
  CHECK(show("{a: 1, b: 2} + {b: 3}") == "{ \"a\": 1, \"b\": 3 }");
}

TEST_CASE("evaluator: comparisons and equality", "[sema][eval]") {
  CHECK(show("1Gi > 1G") == "true");
  CHECK(show("1 == 1000m") == "true");
  CHECK(show("\"a\" < \"b\"") == "true");
  CHECK(show("2 <= 2") == "true");
  CHECK(show("[1, 2] == [1, 2]") == "true");
  CHECK(show("1 == \"1\"") == "false");
  CHECK(show("{a: 1} != {a: 1}") == "false");
}

TEST_CASE("evaluator: in looks into lists, maps and strings", "[sema][eval]") {
  CHECK(show("2 in [1, 2]") == "true");
  CHECK(show("\"a\" in {a: 1}") == "true");
  CHECK(show("\"b\" in {a: 1}") == "false");
  CHECK(show("\"ell\" in \"hello\"") == "true");
  CHECK(error_of("1 in {a: 1}") == "E2010 cannot look for a number in a map: its keys are strings");
  CHECK(error_of("1 in 2") == "E2010 'in' needs a list, a map or a string on its right, not a number");
}

TEST_CASE("evaluator: && and || short-circuit and need bools", "[sema][eval]") {
  CHECK(show("true && false") == "false");
  CHECK(show("false || true") == "true");
  // The right side is not evaluated when the left decides.
  // (An unknown name there is still an error: resolve_names checks every name.)
  CHECK(show("false && [1][5] == 1") == "false");
  CHECK(show("true || 1 / 0 == 1") == "true");
  CHECK(error_of("1 && true") == "E2011 operator '&&' needs a bool, not a number");
  CHECK(error_of("false || \"x\"") == "E2011 operator '||' needs a bool, not a string");
}

TEST_CASE("evaluator: the conditional evaluates one branch", "[sema][eval]") {
  CHECK(show("true ? 1 : 1 / 0") == "1");
  CHECK(show("1 > 2 ? \"a\" : \"b\"") == "b");
  auto r = evaluate_expr("1 ? 2 : 3");
  CHECK(r.run->only().message == "the condition must be a bool, not a number");
  CHECK(r.run->only().code == "E2011");
  CHECK(r.run->text(r.run->only().range) == "1");
}

TEST_CASE("evaluator: string interpolation", "[sema][eval]") {
  CHECK(show("\"cpu ${2 * 4} mem ${36Gi}\"") == "cpu 8 mem 36Gi");
  CHECK(show("\"${xs}\"", "let xs = [1, \"a\"]") == "[1, \"a\"]");
  CHECK(show("\"${x}-queue\"", "let x = \"team\"") == "team-queue");
  CHECK(show("\"${m}\"", "let m = {a: 1}") == "{ \"a\": 1 }");
  CHECK(error_of("\"${len}\"") == "E2033 cannot print a function");
}

TEST_CASE("evaluator: maps and field access", "[sema][eval]") {
  CHECK(show("{ \"gpu.type\": \"t4\", zone: \"a\" }") == "{ \"gpu.type\": \"t4\", \"zone\": \"a\" }");
  CHECK(show("m.zone", "let m = { zone: \"a\" }") == "a");
  CHECK(show("m[\"gpu.type\"]", "let m = { \"gpu.type\": \"t4\" }") == "t4");
  auto r = evaluate_expr("m.zome", "let m = { zone: \"a\" }");
  const auto& d = r.run->only();
  CHECK(d.code == "E2020");
  CHECK(d.message == "the map has no key 'zome'");
  CHECK(r.run->text(d.range) == "zome");
  REQUIRE(d.suggestions.size() == 1);
  CHECK(d.suggestions[0].message == "did you mean 'zone'?");
  CHECK(error_of("m[\"zome\"]", "let m = { zone: \"a\" }") == "E2021 the map has no key 'zome'");
  CHECK(error_of("m[1]", "let m = { zone: \"a\" }") == "E2021 a map key must be a string, not a number");
  CHECK(error_of("(1).x") == "E2020 cannot access field 'x' of a number");
}

TEST_CASE("evaluator: duplicate map keys", "[sema][eval][errors]") {
  auto r = evaluate_expr("{ a: 1, \"a\": 2 }");
  const auto& d = r.run->only();
  CHECK(d.code == "E2023");
  CHECK(d.message == "duplicate key 'a' in map");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "'a' is first given here");
}

TEST_CASE("evaluator: list indexing", "[sema][eval]") {
  CHECK(show("[10, 20, 30][1]") == "20");
  auto r = evaluate_expr("[10, 20, 30][3]");
  CHECK(r.run->only().message == "index 3 is out of range for a list of 3 elements");
  CHECK(r.run->only().code == "E2021");
  CHECK(r.run->text(r.run->only().range) == "3");
  CHECK(error_of("[1][-1]") == "E2021 index -1 is out of range for a list of 1 element");
  CHECK(error_of("[1][500m]") == "E2021 a list index must be a whole number, not 500m");
  CHECK(error_of("[1][\"a\"]") == "E2021 a list index must be a whole number, not a string");
  CHECK(error_of("\"abc\"[0]") == "E2021 cannot index a string");
}

TEST_CASE("evaluator: comprehensions", "[sema][eval]") {
  CHECK(show("[x * 2 for x in [1, 2, 3] if x > 1]") == "[4, 6]");
  CHECK(show("[\"${i}:${x}\" for i, x in [\"a\", \"b\"]]") == "[\"0:a\", \"1:b\"]");
  CHECK(show("[k for k, v in {b: 1, a: 2}]") == "[\"a\", \"b\"]");
  CHECK(show("[v for k, v in {b: 1, a: 2}]") == "[2, 1]");
  CHECK(show("[k for k in {b: 1, a: 2}]") == "[\"a\", \"b\"]");
  CHECK(error_of("[x for x in 3]") == "E2022 cannot iterate over a number");
  CHECK(error_of("[x for x in [1] if x]") == "E2011 the condition must be a bool, not a number");
  CHECK(error_of("[x for x, x in [1]]") == "E2002 'x' is already defined in this scope");
}

TEST_CASE("evaluator: calling a non-function", "[sema][eval][errors]") {
  CHECK(error_of("m(1)", "let m = 1") == "E2030 cannot call a number");
  CHECK(error_of("t(1)", "template t() {}") == "E2030 't' is a template: expand it with 'use t(...)'");
}

TEST_CASE("evaluator: values carry the range of the expression that made them", "[sema][eval]") {
  auto r = evaluate_expr("[1, x]", "let x = 2 + 3");
  REQUIRE(r.value);
  CHECK(r.run->text(r.value->origin) == "[1, x]");
  const auto& items = r.value->as_list();
  CHECK(r.run->text(items[0].origin) == "1");
  CHECK(r.run->text(items[1].origin) == "2 + 3");
}

}  // namespace
