// The parser builds the right AST, with the right source ranges, for every
// construct of docs/language.md.
#include <catch2/catch.hpp>
#include <cstdio>

#include "tests/syntax/syntax_test_util.h"

namespace {

using mkq::syntax::testing::dump;
using mkq::syntax::testing::parse;
using mkq::syntax::testing::Parsed;
using namespace mkq::syntax;  // NOLINT: test brevity

// Parses `text` and expects no diagnostics.
std::unique_ptr<Parsed> parse_ok(const std::string& text) {
  auto p = parse(text);
  INFO(text);
  for (const auto& m : p->messages()) UNSCOPED_INFO(m);
  REQUIRE(p->file != nullptr);
  REQUIRE(p->diagnostics.size() == 0);
  return p;
}

// The AST of `let x = <expr>` printed compactly.
std::string expr_of(const std::string& expr) {
  auto p = parse_ok("let x = " + expr);
  REQUIRE(p->file->stmts.size() == 1);
  return dump(static_cast<const LetStmt*>(p->file->stmts[0].get())->value.get());
}

template <typename T>
const T& as(const StmtPtr& s) {
  return *static_cast<const T*>(s.get());
}

template <typename T>
const T& as(const ExprPtr& e) {
  return *static_cast<const T*>(e.get());
}

}  // namespace

TEST_CASE("parser accepts an empty file as an empty AST", "[syntax]") {
  for (const std::string text : {"", "  \n\t\n", "// only a comment\n", "/* block */", ";;,"}) {
    auto p = parse_ok(text);
    CHECK(p->file->stmts.empty());
    CHECK(p->file->file == p->id);
  }
}

TEST_CASE("parser builds a block with kind, labels, 'in' and a body", "[syntax]") {
  auto p = parse_ok("localqueue \"user-queue\" in \"default\" {\n  default = true\n}\n");
  REQUIRE(p->file->stmts.size() == 1);
  const auto& block = as<BlockStmt>(p->file->stmts[0]);
  CHECK(block.kind.name == "localqueue");
  CHECK(p->where(block.kind.range) == "1:1-1:11");
  REQUIRE(block.labels.size() == 1);
  CHECK(block.labels[0]->literal_value() == "user-queue");
  CHECK(p->text(block.labels[0]->range) == "\"user-queue\"");
  REQUIRE(block.in_label);
  CHECK(block.in_label->literal_value() == "default");
  CHECK(p->text(block.in_label->range) == "\"default\"");
  CHECK(p->where(block.range) == "1:1-3:2");
  CHECK(p->where(block.body.range) == "1:38-3:2");
  REQUIRE(block.body.stmts.size() == 1);
  const auto& attr = as<AttributeStmt>(block.body.stmts[0]);
  CHECK(attr.name.name == "default");
  CHECK(p->text(attr.range) == "default = true");
  CHECK(attr.range.begin.offset == 41);
  CHECK(p->sources.begin_of(attr.range).line == 2);
  CHECK(p->sources.begin_of(attr.range).column == 3);
}

TEST_CASE("parser builds blocks with no label, several labels and nested blocks", "[syntax]") {
  auto p = parse_ok("kueue {}\nquota \"a\" \"b\" {}\nworker \"w\" { capacity \"f\" { cpu = 8 } credentials {} }");
  CHECK(dump(*p->file) ==
        "(kueue {})\n"
        "(quota \"a\" \"b\" {})\n"
        "(worker \"w\" {(capacity \"f\" {(= cpu 8)}) (credentials {})})");
  // Any identifier is a block kind; sema decides which exist.
  CHECK(dump(*parse_ok("override \"cq\" {}")->file) == "(override \"cq\" {})");
}

TEST_CASE("parser reads quoted attribute names as their value", "[syntax]") {
  auto p = parse_ok("capacity \"a100\" { \"nvidia.com/gpu\" = 64, cpu = 8 }");
  const auto& block = as<BlockStmt>(p->file->stmts[0]);
  REQUIRE(block.body.stmts.size() == 2);
  const auto& gpu = as<AttributeStmt>(block.body.stmts[0]);
  CHECK(gpu.name.name == "nvidia.com/gpu");
  CHECK(p->text(gpu.name.range) == "\"nvidia.com/gpu\"");
  CHECK(p->text(gpu.range) == "\"nvidia.com/gpu\" = 64");
  CHECK(dump(block.body.stmts[1].get()) == "(= cpu 8)");
}

TEST_CASE("parser accepts commas and semicolons between statements", "[syntax]") {
  auto p = parse_ok("quota \"f\" { cpu = 9, memory = 36Gi; pods = 10 }\nlet a = 1; let b = 2,");
  CHECK(dump(*p->file) == "(quota \"f\" {(= cpu 9) (= memory 36Gi) (= pods 10)})\n(let a 1)\n(let b 2)");
}

TEST_CASE("parser lets declaration keywords name fields and variables", "[syntax]") {
  auto p = parse_ok("let worker = 1\nflavor \"f\" { topology = topology.name, namespace = cohort }");
  CHECK(dump(*p->file) == "(let worker 1)\n(flavor \"f\" {(= topology (. topology name)) (= namespace cohort)})");
}

TEST_CASE("parser builds let, import with and without alias, and assert", "[syntax]") {
  auto p = parse_ok(
      "import \"std/gpu\" as g\n"
      "import \"./teams.mkq\"\n"
      "let total = 3\n"
      "assert total > 1, \"need ${total}\"\n"
      "assert true\n");
  CHECK(dump(*p->file) ==
        "(import \"std/gpu\" as g)\n"
        "(import \"./teams.mkq\")\n"
        "(let total 3)\n"
        "(assert (> total 1) (str \"need \" ${total}))\n"
        "(assert true)");
  const auto& import = as<ImportStmt>(p->file->stmts[0]);
  CHECK(p->text(import.range) == "import \"std/gpu\" as g");
  CHECK(p->text(import.path->range) == "\"std/gpu\"");
  REQUIRE(import.alias);
  CHECK(p->text(import.alias->range) == "g");
  CHECK_FALSE(as<ImportStmt>(p->file->stmts[1]).alias);
  const auto& let = as<LetStmt>(p->file->stmts[2]);
  CHECK(p->text(let.name.range) == "total");
  CHECK(p->text(let.value->range) == "3");
  const auto& assertion = as<AssertStmt>(p->file->stmts[3]);
  CHECK(p->text(assertion.condition->range) == "total > 1");
  CHECK(p->text(assertion.message->range) == "\"need ${total}\"");
  CHECK(as<AssertStmt>(p->file->stmts[4]).message == nullptr);
}

TEST_CASE("parser takes the ',' after an assert's condition as its message's, and later ones as separators",
          "[syntax]") {
  auto p = parse_ok("assert a, \"m\",, x = 1\nb { , assert c; y = 2, assert d, e, }");
  CHECK(dump(*p->file) ==
        "(assert a \"m\")\n"
        "(= x 1)\n"
        "(b {(assert c) (= y 2) (assert d e)})");
  // The assert ends with its message: the separators after it are not part of it.
  CHECK(p->text(as<AssertStmt>(p->file->stmts[0]).range) == "assert a, \"m\"");
  const auto& body = as<BlockStmt>(p->file->stmts[2]).body;
  CHECK(p->text(as<AssertStmt>(body.stmts[2]).range) == "assert d, e");
}

TEST_CASE("parser builds templates with parameters and defaults", "[syntax]") {
  auto p = parse_ok(
      "template team(name, cpu = 4, groups = [],) {\n  namespace \"${name}\" {}\n}\ntemplate empty() {}");
  CHECK(dump(*p->file) ==
        "(template team (name cpu=4 groups=[]) {(namespace (str ${name}) {})})\n"
        "(template empty () {})");
  const auto& t = as<TemplateStmt>(p->file->stmts[0]);
  CHECK(p->text(t.name.range) == "team");
  CHECK(p->text(t.params[1].name.range) == "cpu");
  CHECK(p->text(t.params[1].default_value->range) == "4");
  CHECK(t.params[0].default_value == nullptr);
  CHECK(p->where(t.body.range) == "1:44-3:2");
}

TEST_CASE("parser builds use with a qualified name and named arguments", "[syntax]") {
  auto p = parse_ok("use teams.team(\"research\", cpu = 10, groups = [\"a\"],)\nuse local()");
  CHECK(dump(*p->file) == "(use teams.team \"research\" cpu=10 groups=[\"a\"])\n(use local)");
  const auto& use = as<UseStmt>(p->file->stmts[0]);
  REQUIRE(use.name.size() == 2);
  CHECK(p->text(use.name_range) == "teams.team");
  CHECK(p->text(use.name[1].range) == "team");
  REQUIRE(use.args.size() == 3);
  CHECK_FALSE(use.args[0].name);
  REQUIRE(use.args[1].name);
  CHECK(p->text(use.args[1].name->range) == "cpu");
  CHECK(p->text(use.args[1].value->range) == "10");
}

TEST_CASE("parser builds for loops with one and two variables", "[syntax]") {
  auto p = parse_ok("for x in xs { a = x }\nfor k, v in {a: 1} {}\nfor i in range(1, 4) { worker \"w${i}\" {} }");
  CHECK(dump(*p->file) ==
        "(for x in xs {(= a x)})\n"
        "(for k,v in {a:1} {})\n"
        "(for i in (call range 1 4) {(worker (str \"w\" ${i}) {})})");
  const auto& loop = as<ForStmt>(p->file->stmts[1]);
  CHECK(p->text(loop.var.range) == "k");
  REQUIRE(loop.second_var);
  CHECK(p->text(loop.second_var->range) == "v");
  CHECK(p->text(loop.iterable->range) == "{a: 1}");
}

TEST_CASE("parser builds if, else if and else", "[syntax]") {
  auto p = parse_ok("if a { x = 1 } else if b { x = 2 } else if c {} else { x = 3 }\nif d {}");
  CHECK(dump(*p->file) ==
        "(if a {(= x 1)} else (if b {(= x 2)} else (if c {} else {(= x 3)})))\n"
        "(if d {})");
  const auto& first = as<IfStmt>(p->file->stmts[0]);
  REQUIRE(first.else_if);
  CHECK_FALSE(first.else_body);
  CHECK(p->text(first.else_if->range) == "if b { x = 2 } else if c {} else { x = 3 }");
  CHECK(p->text(first.then_body.range) == "{ x = 1 }");
  const auto& last = as<IfStmt>(p->file->stmts[1]);
  CHECK_FALSE(last.else_if);
  CHECK_FALSE(last.else_body);
}

TEST_CASE("parser gives every operator its precedence", "[syntax][expr]") {
  CHECK(expr_of("a || b && c") == "(|| a (&& b c))");
  CHECK(expr_of("a && b || c") == "(|| (&& a b) c)");
  CHECK(expr_of("a && b in c") == "(&& a (in b c))");
  CHECK(expr_of("a in b == c") == "(in a (== b c))");
  CHECK(expr_of("a == b < c") == "(== a (< b c))");
  CHECK(expr_of("a != b >= c") == "(!= a (>= b c))");
  CHECK(expr_of("a <= b + c") == "(<= a (+ b c))");
  CHECK(expr_of("a > b - c") == "(> a (- b c))");
  CHECK(expr_of("a + b * c") == "(+ a (* b c))");
  CHECK(expr_of("a - b / c") == "(- a (/ b c))");
  CHECK(expr_of("a % b + c") == "(+ (% a b) c)");
  CHECK(expr_of("-a * b") == "(* (- a) b)");
  CHECK(expr_of("!a && b") == "(&& (! a) b)");
  CHECK(expr_of("!a == b") == "(== (! a) b)");
  CHECK(expr_of("-a.b") == "(- (. a b))");
  CHECK(expr_of("-a[0]") == "(- (at a 0))");
  CHECK(expr_of("!f(x)") == "(! (call f x))");
  CHECK(expr_of("a || b ? c : d") == "(? (|| a b) c d)");
  CHECK(expr_of("(a + b) * c") == "(* (paren (+ a b)) c)");
}

TEST_CASE("parser makes binary operators left-associative and '?:' right-associative", "[syntax][expr]") {
  CHECK(expr_of("a - b - c") == "(- (- a b) c)");
  CHECK(expr_of("a / b / c") == "(/ (/ a b) c)");
  CHECK(expr_of("a < b < c") == "(< (< a b) c)");
  CHECK(expr_of("a == b == c") == "(== (== a b) c)");
  CHECK(expr_of("a in b in c") == "(in (in a b) c)");
  CHECK(expr_of("a || b || c") == "(|| (|| a b) c)");
  CHECK(expr_of("a ? b : c ? d : e") == "(? a b (? c d e))");
  CHECK(expr_of("a ? b ? c : d : e") == "(? a (? b c d) e)");
  CHECK(expr_of("- - a") == "(- (- a))");
  CHECK(expr_of("!!a") == "(! (! a))");
}

TEST_CASE("parser records operator and operand ranges", "[syntax][expr]") {
  auto p = parse_ok("let x = a + b * c");
  const auto& sum = as<BinaryExpr>(as<LetStmt>(p->file->stmts[0]).value);
  CHECK(p->text(sum.range) == "a + b * c");
  CHECK(p->text(sum.op_range) == "+");
  CHECK(p->where(sum.op_range) == "1:11-1:12");
  const auto& product = as<BinaryExpr>(sum.right);
  CHECK(p->text(product.range) == "b * c");
  CHECK(p->text(product.op_range) == "*");
  CHECK(p->text(product.left->range) == "b");
}

TEST_CASE("parser builds field access, indexing and calls", "[syntax][expr]") {
  CHECK(expr_of("a.b.c") == "(. (. a b) c)");
  CHECK(expr_of("xs[0][1]") == "(at (at xs 0) 1)");
  CHECK(expr_of("m[\"key\"]") == "(at m \"key\")");
  CHECK(expr_of("f(x)(y)") == "(call (call f x) y)");
  CHECK(expr_of("gpu.presets[\"t4\"].node_labels") == "(. (at (. gpu presets) \"t4\") node_labels)");
  CHECK(expr_of("f()") == "(call f)");
  CHECK(expr_of("max(1, 2, name = 3,)") == "(call max 1 2 name=3)");
  auto p = parse_ok("let x = m.key");
  const auto& field = as<FieldExpr>(as<LetStmt>(p->file->stmts[0]).value);
  CHECK(p->text(field.field.range) == "key");
  CHECK(p->text(field.object->range) == "m");
}

TEST_CASE("parser builds conditionals", "[syntax][expr]") {
  auto p = parse_ok("let x = ns == null ? name : ns");
  const auto& c = as<ConditionalExpr>(as<LetStmt>(p->file->stmts[0]).value);
  CHECK(p->text(c.range) == "ns == null ? name : ns");
  CHECK(p->text(c.condition->range) == "ns == null");
  CHECK(p->text(c.then_value->range) == "name");
  CHECK(p->text(c.else_value->range) == "ns");
}

TEST_CASE("parser builds lists, maps with string and identifier keys, and comprehensions", "[syntax][expr]") {
  CHECK(expr_of("[]") == "[]");
  CHECK(expr_of("[1, [2, 3], ]") == "[1 [2 3]]");
  CHECK(expr_of("{}") == "{}");
  CHECK(expr_of("{ \"gpu.type\": \"t4\", zone: \"a\", }") == "{\"gpu.type\":\"t4\" zone:\"a\"}");
  CHECK(expr_of("{ nested: { a: [1] } }") == "{nested:{a:[1]}}");
  CHECK(expr_of("[x * 2 for x in xs if x > 1]") == "(for (* x 2) x in xs if (> x 1))");
  CHECK(expr_of("[x for x in xs]") == "(for x x in xs)");
  CHECK(expr_of("[k for k, v in m if v]") == "(for k k,v in m if v)");
  CHECK(expr_of("[x for x in a in b]") == "(for x x in (in a b))");

  auto p = parse_ok("let m = { \"a.b\": 1, c: 2 }");
  const auto& map = as<MapExpr>(as<LetStmt>(p->file->stmts[0]).value);
  REQUIRE(map.entries.size() == 2);
  CHECK(map.entries[0].key == "a.b");
  CHECK(map.entries[0].key_is_string);
  CHECK(p->text(map.entries[0].key_range) == "\"a.b\"");
  CHECK(map.entries[1].key == "c");
  CHECK_FALSE(map.entries[1].key_is_string);
  CHECK(p->text(map.entries[1].key_range) == "c");
  CHECK(p->text(map.entries[1].value->range) == "2");

  auto q = parse_ok("let l = [v for i, v in xs if i > 0]");
  const auto& comp = as<ComprehensionExpr>(as<LetStmt>(q->file->stmts[0]).value);
  CHECK(q->text(comp.range) == "[v for i, v in xs if i > 0]");
  CHECK(q->text(comp.var.range) == "i");
  CHECK(q->text(comp.second_var->range) == "v");
  CHECK(q->text(comp.iterable->range) == "xs");
  CHECK(q->text(comp.condition->range) == "i > 0");
}

TEST_CASE("parser keeps the text of numbers with suffixes and of durations", "[syntax][expr]") {
  for (const std::string n : {"9", "0", "1.5", "500m", "36Gi", "2e3", "2E+3", "1e-3", "1.5Ki", "8k", "3M", "100n",
                              "2u", "1T", "4P", "1E", "7Ei", "007"}) {
    INFO(n);
    auto p = parse_ok("let x = " + n);
    const auto& value = as<LetStmt>(p->file->stmts[0]).value;
    REQUIRE(value->kind == ExprKind::Number);
    CHECK(static_cast<const NumberExpr*>(value.get())->text == n);
    CHECK(p->text(value->range) == n);
  }
  for (const std::string d : {"30d", "12h", "5min", "90s", "250ms", "1h30min", "1d2h3min4s5ms"}) {
    INFO(d);
    auto p = parse_ok("let x = " + d);
    const auto& value = as<LetStmt>(p->file->stmts[0]).value;
    REQUIRE(value->kind == ExprKind::Duration);
    CHECK(static_cast<const DurationExpr*>(value.get())->text == d);
  }
  CHECK(expr_of("2 * 16Gi") == "(* 2 16Gi)");
  CHECK(expr_of("-1") == "(- 1)");
}

TEST_CASE("parser builds literals: booleans, null, all, names", "[syntax][expr]") {
  CHECK(expr_of("true") == "true");
  CHECK(expr_of("false") == "false");
  CHECK(expr_of("null") == "null");
  CHECK(expr_of("all") == "all");
  CHECK(expr_of("name_1") == "name_1");
  CHECK(expr_of("_x") == "_x");
}

TEST_CASE("parser decodes string escapes", "[syntax][strings]") {
  auto p = parse_ok(R"(let x = "a\"b\\c\nd\te\${f} $ cost: $5")");
  const auto& s = as<StringExpr>(as<LetStmt>(p->file->stmts[0]).value);
  CHECK(s.is_literal());
  CHECK(s.literal_value() == "a\"b\\c\nd\te${f} $ cost: $5");
  CHECK(p->text(s.range) == R"("a\"b\\c\nd\te\${f} $ cost: $5")");
  CHECK(s.parts.empty());  // no interpolation: the text is in `literal`
  CHECK(s.literal == "a\"b\\c\nd\te${f} $ cost: $5");

  auto empty = parse_ok("let x = \"\"");
  const auto& e = as<StringExpr>(as<LetStmt>(empty->file->stmts[0]).value);
  CHECK(e.parts.empty());
  CHECK(e.literal.empty());
  CHECK(e.is_literal());
  CHECK(e.literal_value().empty());
}

TEST_CASE("parser parses interpolations as expressions with ranges in the file", "[syntax][strings]") {
  auto p = parse_ok("let x = \"team ${name}-${i + 1}!\"");
  const auto& s = as<StringExpr>(as<LetStmt>(p->file->stmts[0]).value);
  CHECK_FALSE(s.is_literal());
  CHECK(s.literal_value() == "team -!");
  REQUIRE(s.parts.size() == 5);
  CHECK(s.parts[0].literal == "team ");
  CHECK(p->text(s.parts[0].range) == "team ");
  REQUIRE(s.parts[1].expr);
  CHECK(dump(s.parts[1].expr.get()) == "name");
  CHECK(p->text(s.parts[1].range) == "${name}");
  CHECK(p->text(s.parts[1].expr->range) == "name");
  CHECK(p->where(s.parts[1].expr->range) == "1:17-1:21");
  CHECK(s.parts[2].literal == "-");
  REQUIRE(s.parts[3].expr);
  CHECK(dump(s.parts[3].expr.get()) == "(+ i 1)");
  CHECK(p->text(s.parts[3].expr->range) == "i + 1");
  const auto& sum = *static_cast<const BinaryExpr*>(s.parts[3].expr.get());
  CHECK(p->text(sum.op_range) == "+");
  CHECK(s.parts[4].literal == "!");

  CHECK(expr_of("\"${a}${b}\"") == "(str ${a} ${b})");
  CHECK(expr_of("\"${ f(x, y = 2)[0].z }\"") == "(str ${(. (at (call f x y=2) 0) z)})");
  CHECK(expr_of("\"${[1, 2]}\"") == "(str ${[1 2]})");
}

TEST_CASE("parser maps ranges correctly after multi-byte UTF-8 text", "[syntax][strings]") {
  auto p = parse_ok("// héllo wörld\nlet x = \"é ${na} ü\" + y\n");
  const auto& sum = as<BinaryExpr>(as<LetStmt>(p->file->stmts[0]).value);
  const auto& s = as<StringExpr>(sum.left);
  REQUIRE(s.parts.size() == 3);
  CHECK(s.parts[0].literal == "é ");
  CHECK(p->text(s.parts[1].expr->range) == "na");
  CHECK(p->where(s.parts[1].expr->range) == "2:15-2:17");  // columns count bytes
  CHECK(s.parts[2].literal == " ü");
  CHECK(p->text(sum.right->range) == "y");
  CHECK(p->where(sum.right->range) == "2:25-2:26");
  REQUIRE(p->file->comments.size() == 1);
  CHECK(p->file->comments[0].text == "// héllo wörld");
}

TEST_CASE("parser collects every comment in source order", "[syntax][comments]") {
  auto p = parse_ok(
      "// first\n"
      "worker \"w\" { /* inside */ context = \"c\" // trailing\n"
      "}\n"
      "let x = \"${ a /* in interpolation */ }\" /* last\n line */\n");
  REQUIRE(p->file->comments.size() == 5);
  CHECK(p->file->comments[0].text == "// first");
  CHECK_FALSE(p->file->comments[0].is_block);
  CHECK(p->where(p->file->comments[0].range) == "1:1-1:9");
  CHECK(p->file->comments[1].text == "/* inside */");
  CHECK(p->file->comments[1].is_block);
  CHECK(p->file->comments[2].text == "// trailing");
  CHECK(p->file->comments[3].text == "/* in interpolation */");
  CHECK(p->file->comments[4].text == "/* last\n line */");
  CHECK(p->where(p->file->comments[4].range) == "4:41-5:9");
}

TEST_CASE("parser accepts CRLF line endings and a byte-order mark", "[syntax]") {
  auto p = parse_ok("\xEF\xBB\xBFlet a = 1\r\nlet b = 2\r\n");
  CHECK(dump(*p->file) == "(let a 1)\n(let b 2)");
  CHECK(p->where(p->file->stmts[0]->range) == "1:4-1:13");
  CHECK(p->where(p->file->stmts[1]->range) == "2:1-2:10");
}

TEST_CASE("parser reads the project's examples and stdlib without errors", "[syntax]") {
  const std::string root = MKQ_SOURCE_DIR;
  for (const char* path : {"/examples/quickstart/policy.mkq", "/examples/teams/policy.mkq",
                           "/examples/gpu-fleet/policy.mkq", "/examples/tas/policy.mkq", "/stdlib/std/gpu.mkq",
                           "/stdlib/std/teams.mkq", "/stdlib/std/topology.mkq"}) {
    INFO(path);
    std::FILE* f = std::fopen((root + path).c_str(), "rb");
    if (f == nullptr) continue;  // an example may be renamed; the formatter corpus test covers the rest
    std::string text;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
    auto p = parse(text);
    for (const auto& m : p->messages()) UNSCOPED_INFO(m);
    CHECK(p->ok());
  }
}
