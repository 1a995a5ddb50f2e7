// Syntax errors: exact codes, messages, notes and ranges. Every error is a
// diagnostic (nothing throws), and one run reports every independent error.
#include <catch2/catch.hpp>

#include "compiler/syntax/codes.h"
#include "tests/syntax/syntax_test_util.h"

namespace {

using mkq::syntax::testing::parse;
using mkq::syntax::testing::Parsed;

// The only diagnostic of parsing `text`, as "CODE line:col-line:col message".
std::string only_error(const std::string& text) {
  auto p = parse(text);
  INFO(text);
  for (const auto& m : p->messages()) UNSCOPED_INFO(m);
  REQUIRE(p->diagnostics.size() == 1);
  return p->messages()[0];
}

std::vector<std::string> notes(const Parsed& parsed, const mkq::diag::Diagnostic& d) {
  std::vector<std::string> out;
  for (const auto& n : d.notes) {
    out.push_back(n.range ? parsed.where(*n.range) + " " + n.message : n.message);
  }
  return out;
}

// The notes of a parse's first error.
std::vector<std::string> notes(const std::unique_ptr<Parsed>& parsed) { return notes(*parsed, parsed->error()); }

std::vector<std::string> suggestions(const mkq::diag::Diagnostic& d) {
  std::vector<std::string> out;
  for (const auto& s : d.suggestions) {
    out.push_back(s.message + (s.replacement.empty() ? "" : " -> " + s.replacement));
  }
  return out;
}

}  // namespace

// ------------------------------------------------------------------ lexical errors

TEST_CASE("parser rejects a stray '@'", "[syntax][errors]") {
  auto p = parse("x = 1 @ 2\nworker \"w\" {}");
  REQUIRE(p->messages() == std::vector<std::string>{"E1002 1:7-1:8 unexpected character '@'"});
  CHECK(p->file != nullptr);  // the rest of the file is still parsed
}

TEST_CASE("parser explains stray characters people type by habit", "[syntax][errors]") {
  auto curly = parse("x = \xE2\x80\x9C" "abc\xE2\x80\x9D");
  REQUIRE(curly->errors() == 2);
  CHECK(curly->messages()[0] == "E1002 1:5-1:8 unexpected character '\xE2\x80\x9C'");  // the whole 3-byte character
  CHECK(notes(*curly, curly->error(0)) == std::vector<std::string>{"strings are written with straight double quotes: \"...\""});

  auto hash = parse("# a shell-style comment with 36GB and \"quotes\nx = 1");
  REQUIRE(hash->messages() == std::vector<std::string>{"E1002 1:1-1:2 unexpected character '#'"});
  CHECK(notes(*hash, hash->error()) == std::vector<std::string>{"comments start with '//' or are written /* ... */"});
  CHECK(hash->file->stmts.size() == 1);  // the rest of the '#' line is skipped

  // '&' and '|' are reported once and read as '&&' and '||'.
  auto logic = parse("x = a & b | c");
  CHECK(logic->messages() == std::vector<std::string>{"E1002 1:7-1:8 unexpected character '&'",
                                                      "E1002 1:11-1:12 unexpected character '|'"});
  CHECK(notes(*logic, logic->error()) == std::vector<std::string>{"the logical operators are '&&' and '||'"});

  auto single = parse("x = 'abc'");
  REQUIRE(single->errors() == 2);
  CHECK(notes(*single, single->error()) == std::vector<std::string>{"strings are written with double quotes: \"...\""});
}

TEST_CASE("parser rejects an unterminated string", "[syntax][errors]") {
  auto p = parse("x = \"abc\ny = 2\n");
  REQUIRE(p->messages() == std::vector<std::string>{"E1003 1:5-1:9 unterminated string"});
  CHECK(notes(*p, p->error()) == std::vector<std::string>{"a string ends with '\"' on the same line"});
  REQUIRE(p->file != nullptr);
  CHECK(p->file->stmts.size() == 2);  // the next line is read normally
}

TEST_CASE("parser rejects an unterminated block comment", "[syntax][errors]") {
  auto p = parse("worker \"w\" {\n  /* never closed\n}\n");
  // The comment swallows the '}', but only the comment is reported.
  REQUIRE(p->messages() == std::vector<std::string>{"E1004 2:3-2:5 unterminated block comment"});
  CHECK(notes(*p, p->error()) == std::vector<std::string>{"a block comment ends with '*/'; block comments do not nest"});
}

TEST_CASE("parser rejects invalid numbers with advice", "[syntax][errors]") {
  auto gb = parse("x = 36GB");
  REQUIRE(gb->messages() == std::vector<std::string>{"E1005 1:5-1:9 invalid number '36GB'"});
  CHECK(notes(*gb, gb->error()) == std::vector<std::string>{
                                  "quantity suffixes are n u m k M G T P E (powers of 10) and Ki Mi Gi Ti Pi Ei (powers "
                                  "of 2)"});
  CHECK(suggestions(gb->error()) ==
        std::vector<std::string>{"write '36G' for a power of 10 or '36Gi' for a power of 2"});

  auto minutes = parse("x = 1m30s");
  REQUIRE(minutes->messages() == std::vector<std::string>{"E1005 1:5-1:10 invalid duration '1m30s'"});
  CHECK(notes(*minutes, minutes->error()) ==
        std::vector<std::string>{"minutes are written 'min': a bare 'm' is the quantity suffix milli"});
  CHECK(suggestions(minutes->error()) == std::vector<std::string>{"did you mean '1min30s'? -> 1min30s"});
  REQUIRE(minutes->error().suggestions[0].range);
  CHECK(minutes->where(*minutes->error().suggestions[0].range) == "1:5-1:10");

  auto fraction = parse("x = 1.5h");
  REQUIRE(fraction->messages() == std::vector<std::string>{"E1005 1:5-1:9 invalid duration '1.5h'"});
  CHECK(suggestions(fraction->error()) == std::vector<std::string>{"did you mean '1h30min'? -> 1h30min"});

  CHECK(suggestions(parse("x = 2KiB")->error()) == std::vector<std::string>{"did you mean '2Ki'? -> 2Ki"});
  CHECK(suggestions(parse("x = 8gi")->error()) == std::vector<std::string>{"did you mean '8Gi'? -> 8Gi"});
  CHECK(suggestions(parse("x = 8g")->error()) == std::vector<std::string>{"did you mean '8G'? -> 8G"});
  CHECK(suggestions(parse("x = 1_000")->error()) == std::vector<std::string>{"did you mean '1000'? -> 1000"});
  CHECK(notes(parse("x = 1.2.3")) ==
        std::vector<std::string>{"a number has at most one '.'; a version or an address is a string: \"1.2.3\""});
  CHECK(notes(parse("x = 2e")) == std::vector<std::string>{"an exponent needs digits: 2e3"});
  CHECK(notes(parse("x = 0x1F")) == std::vector<std::string>{"numbers are decimal"});
  CHECK(notes(parse("x = 3rd")) ==
        std::vector<std::string>{"numbers are written like 9, 1.5, 500m, 36Gi or 2e3; durations like 30s, 5min or "
                                 "1h30min; names cannot start with a digit"});
}

TEST_CASE("parser rejects durations whose units repeat or are out of order", "[syntax][errors]") {
  auto order = parse("x = 30s1h");
  REQUIRE(order->messages() ==
          std::vector<std::string>{"E1007 1:5-1:10 invalid duration '30s1h': units must go from largest to smallest"});
  CHECK(suggestions(order->error()) == std::vector<std::string>{"write '1h30s' -> 1h30s"});
  auto twice = parse("x = 1h1h");
  REQUIRE(twice->messages() == std::vector<std::string>{"E1007 1:5-1:9 invalid duration '1h1h': 'h' appears twice"});
  CHECK(suggestions(twice->error()) == std::vector<std::string>{"write '2h' -> 2h"});
}

TEST_CASE("parser rejects unknown escapes in strings", "[syntax][errors]") {
  auto p = parse("x = \"C:\\dir \\q\"");
  REQUIRE(p->messages() == std::vector<std::string>{"E1006 1:8-1:10 unknown escape '\\d' in string",
                                                    "E1006 1:13-1:15 unknown escape '\\q' in string"});
  CHECK(notes(*p, p->error()) ==
        std::vector<std::string>{"the escapes are \\\" \\\\ \\n \\t and \\$; write a backslash as \\\\"});
}

TEST_CASE("parser rejects a file that is not UTF-8", "[syntax][errors][encoding]") {
  auto p = parse("let x = \"ok\"\nlet y = \"\xC3\x28\"\n");
  CHECK(p->file == nullptr);
  REQUIRE(p->messages() == std::vector<std::string>{"E1008 2:10-2:11 file is not valid UTF-8"});
  // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
  for (const std::string bad : {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF", "\xE2\x82"}) {
    auto q = parse("x = \"" + bad + "\"");
    CHECK(q->file == nullptr);
    REQUIRE(q->errors() == 1);
    CHECK(q->error().code == "E1008");
    CHECK(q->where(q->error().range) == "1:6-1:7");
  }
}

TEST_CASE("parser rejects a binary file at its first NUL byte", "[syntax][errors][encoding]") {
  auto p = parse(std::string("let x = 1\n\x01\x02\0\0\x89PNG", 16));
  CHECK(p->file == nullptr);
  REQUIRE(p->messages() ==
          std::vector<std::string>{"E1009 2:3-2:4 file contains a NUL byte; it looks like a binary file"});
}

// ------------------------------------------------------------------ parser errors

TEST_CASE("parser asks for the '}' of an unclosed block and points at its '{'", "[syntax][errors]") {
  auto p = parse("worker \"w\" {\n  context = \"a\"\n");
  REQUIRE(p->messages() ==
          std::vector<std::string>{"E1011 2:16-2:16 expected '}' to close the block started here"});
  CHECK(notes(*p, p->error()) == std::vector<std::string>{"1:12-1:13 the block starts here"});
  REQUIRE(p->file != nullptr);
  CHECK(p->file->stmts.size() == 1);
}

TEST_CASE("parser asks for the closing bracket of lists, maps, calls and parentheses", "[syntax][errors]") {
  auto list = parse("x = [1, 2");
  REQUIRE(list->messages() == std::vector<std::string>{"E1011 1:10-1:10 expected ']' to close the list started here"});
  CHECK(notes(*list, list->error()) == std::vector<std::string>{"1:5-1:6 the list starts here"});
  CHECK(only_error("x = [1, 2)") == "E1011 1:10-1:11 expected ']' to close the list started here");
  CHECK(only_error("x = {a: 1") == "E1011 1:10-1:10 expected '}' to close the map started here");
  CHECK(only_error("x = f(1,") == "E1011 1:9-1:9 expected ')' to close the argument list started here");
  CHECK(only_error("x = (1 + 2]") == "E1011 1:11-1:12 expected ')' to close the parenthesis started here");
  CHECK(only_error("worker \"w\" { x = 1 ] }") == "E1011 1:20-1:21 expected '}' to close the block started here");
}

TEST_CASE("parser asks for the closing bracket when a statement starts inside a list", "[syntax][errors]") {
  auto p = parse("let xs = [1, 2, 3\nlet y = 4\n");
  REQUIRE(p->messages() == std::vector<std::string>{"E1011 2:1-2:4 expected ']' to close the list started here"});
  CHECK(notes(*p, p->error()) == std::vector<std::string>{"1:10-1:11 the list starts here"});
  CHECK(only_error("x = f(a,\nuse t()") == "E1011 2:1-2:4 expected ')' to close the argument list started here");
  CHECK(only_error("x = (1\nassert true") == "E1011 2:1-2:7 expected ')' to close the parenthesis started here");
}

TEST_CASE("parser asks for a ',' between items", "[syntax][errors]") {
  auto list = parse("x = [1 2]");
  REQUIRE(list->messages() == std::vector<std::string>{"E1001 1:8-1:9 expected ',' or ']'"});
  CHECK(notes(*list, list->error()) == std::vector<std::string>{"1:5-1:6 the list starts here"});
  CHECK(only_error("x = {a: 1 b: 2}") == "E1001 1:11-1:12 expected ',' or '}'");
  CHECK(only_error("x = f(a b)") == "E1001 1:9-1:10 expected ',' or ')'");
  CHECK(only_error("template t(a b) {}") == "E1001 1:14-1:15 expected ',' or ')'");
  CHECK(only_error("x = {a 1}") == "E1013 1:8-1:9 expected ':' after 'a'");
}

TEST_CASE("parser asks for an expression", "[syntax][errors]") {
  CHECK(only_error("x = }") == "E1012 1:5-1:6 expected an expression");
  CHECK(only_error("x = ") == "E1012 1:4-1:4 expected an expression");
  CHECK(only_error("x = 1 +") == "E1012 1:8-1:8 expected an expression");
  CHECK(only_error("x = -") == "E1012 1:6-1:6 expected an expression");
  CHECK(only_error("x = a[]") == "E1012 1:7-1:8 expected an expression");
  CHECK(only_error("use t(a = )") == "E1012 1:11-1:12 expected an expression");
  CHECK(only_error("assert") == "E1012 1:7-1:7 expected an expression");
  auto eq = parse("x = = 1");
  REQUIRE(eq->messages() == std::vector<std::string>{"E1012 1:5-1:6 expected an expression"});
}

TEST_CASE("parser explains that the ',' after an assert's condition starts its message", "[syntax][errors]") {
  const std::string note =
      "a ',' after the condition of 'assert' starts its message; end an assert without one with ';' or a new line";
  // Separating an assert from the next statement with ',' makes that statement the message.
  auto stray = parse("assert ok, x = 1");
  REQUIRE(stray->messages() == std::vector<std::string>{"E1001 1:14-1:15 unexpected '='"});
  CHECK(notes(*stray, stray->error()) == std::vector<std::string>{note});
  auto missing = parse("a { assert ok, }");
  REQUIRE(missing->messages() == std::vector<std::string>{"E1012 1:16-1:17 expected an expression"});
  CHECK(notes(*missing, missing->error()) == std::vector<std::string>{note});
  auto keyword = parse("assert ok, let x = 1");
  REQUIRE(keyword->messages() == std::vector<std::string>{"E1012 1:12-1:15 expected an expression"});
  CHECK(notes(*keyword, keyword->error()) == std::vector<std::string>{note});
  // Other missing expressions and stray '=' get no such note.
  auto other = parse("x = [1 +]");
  REQUIRE(other->messages() == std::vector<std::string>{"E1012 1:9-1:10 expected an expression"});
  CHECK(notes(*other, other->error()).empty());
  CHECK(notes(parse("x = 1 = 2")).empty());
}

TEST_CASE("parser reports a field without '='", "[syntax][errors]") {
  auto p = parse("quota \"f\" { cpu 9 }");
  REQUIRE(p->messages() == std::vector<std::string>{"E1013 1:17-1:18 missing '=' after field 'cpu'"});
  REQUIRE(p->error().suggestions.size() == 1);
  CHECK(p->error().suggestions[0].replacement == " =");
  CHECK(p->where(*p->error().suggestions[0].range) == "1:16-1:16");

  auto colon = parse("quota \"f\" { cpu: 9 }");
  REQUIRE(colon->messages() == std::vector<std::string>{"E1013 1:16-1:17 missing '=' after field 'cpu'"});
  CHECK(notes(*colon, colon->error()) == std::vector<std::string>{"fields are set with '=': cpu = ..."});

  CHECK(only_error("capacity \"f\" { \"nvidia.com/gpu\" 8 }") ==
        "E1013 1:33-1:34 missing '=' after field \"nvidia.com/gpu\"");
}

TEST_CASE("parser suggests a keyword for a misspelled one", "[syntax][errors]") {
  auto p = parse("lett x = 3");
  REQUIRE(p->errors() == 1);
  CHECK(p->messages()[0] == "E1013 1:6-1:7 missing '=' after field 'lett'");
  CHECK(suggestions(p->error()) == std::vector<std::string>{"insert '=' ->  =", "did you mean 'let'? -> let"});
  CHECK(p->where(*p->error().suggestions[1].range) == "1:1-1:5");
}

TEST_CASE("parser reports a block label without quotes", "[syntax][errors]") {
  auto p = parse("worker w {}");
  REQUIRE(p->messages() == std::vector<std::string>{"E1013 1:8-1:9 expected a quoted label after 'worker'"});
  CHECK(notes(*p, p->error()) == std::vector<std::string>{"block labels are strings: worker \"w\""});
  CHECK(suggestions(p->error()) == std::vector<std::string>{"quote the label -> \"w\""});
}

TEST_CASE("parser asks for the '{' of a body", "[syntax][errors]") {
  auto field = parse("worker \"w\" {\n  context \"foo\"\n  secret = \"x\"\n}");
  REQUIRE(field->messages() == std::vector<std::string>{"E1013 3:3-3:9 expected '{' after 'context \"foo\"'"});
  CHECK(notes(*field, field->error()) == std::vector<std::string>{"to set a field, write 'context = \"foo\"'"});

  auto condition = parse("if x = 1 { }");
  REQUIRE(condition->messages() ==
          std::vector<std::string>{"E1013 1:6-1:7 expected '{' after the condition of 'if'"});
  CHECK(notes(*condition, condition->error()) == std::vector<std::string>{"to compare two values, write '=='"});
  CHECK(only_error("if x > 1 then { }") == "E1013 1:10-1:14 expected '{' after the condition of 'if'");
  CHECK(only_error("for x in xs do {}") == "E1013 1:13-1:15 expected '{' to start the body of 'for'");
  CHECK(only_error("template t() x {}") == "E1013 1:14-1:15 expected '{' to start the body of template 't'");
}

TEST_CASE("parser asks for names, strings and required tokens", "[syntax][errors]") {
  CHECK(only_error("let 3 = 4") == "E1013 1:5-1:6 expected a name after 'let'");
  CHECK(only_error("let = 4") == "E1013 1:5-1:6 expected a name after 'let'");
  CHECK(only_error("import foo") == "E1013 1:8-1:11 expected a string after 'import'");
  CHECK(only_error("import \"a\" as") == "E1013 1:14-1:14 expected a name after 'as'");
  CHECK(only_error("let x") == "E1013 1:6-1:6 expected '=' after 'x'");
  CHECK(only_error("template t { }") == "E1013 1:12-1:13 expected '(' after 't'");
  CHECK(only_error("use t") == "E1013 1:6-1:6 expected '(' after 't'");
  CHECK(only_error("for in xs {}") == "E1013 1:5-1:7 expected a name after 'for'");
  CHECK(only_error("for x xs {}") == "E1013 1:7-1:9 expected 'in' or ',' after 'x'");
  CHECK(only_error("x = a.") == "E1013 1:7-1:7 expected a name after '.'");
  CHECK(only_error("x = a ? b") == "E1013 1:10-1:10 expected ':' after 'b'");
  CHECK(only_error("if a {} else x") == "E1013 1:14-1:15 expected 'if' or '{' after 'else'");
  CHECK(only_error("worker \"w\" in {}") == "E1013 1:15-1:16 expected a string after 'in'");
  CHECK(only_error("x = [x for x xs]") == "E1013 1:14-1:16 expected 'in' or ',' after 'x'");
}

TEST_CASE("parser reports a token that cannot start a statement", "[syntax][errors]") {
  CHECK(only_error(")") == "E1001 1:1-1:2 unexpected ')'");
  CHECK(only_error("1 + 2") == "E1001 1:1-1:2 unexpected '1'");
  CHECK(only_error("else {}") == "E1001 1:1-1:5 unexpected 'else'");
  CHECK(only_error("worker \"w\" { \"a\" \"b\" }") == "E1013 1:18-1:21 missing '=' after field \"a\"");
}

TEST_CASE("parser reports every independent error of a file in one run", "[syntax][errors]") {
  auto p = parse(
      "worker \"a\" { context = \"x\" @ }\n"  // stray character
      "flavor \"f\" { memory = 36GB }\n"     // bad number
      "quota \"q\" { cpu 9 }\n"              // missing '='
      "let s = \"unterminated\n"             // unterminated string
      "let t = \"\\q\"\n"                    // bad escape
      "let u = [1, 2\n");                    // unclosed list
  CHECK(p->messages() == std::vector<std::string>{
                             "E1002 1:28-1:29 unexpected character '@'",
                             "E1005 2:23-2:27 invalid number '36GB'",
                             "E1003 4:9-4:22 unterminated string",
                             "E1006 5:10-5:12 unknown escape '\\q' in string",
                             "E1013 3:17-3:18 missing '=' after field 'cpu'",
                         });
  // The unclosed list at the end follows earlier errors and is not reported.
  REQUIRE(p->file != nullptr);  // the AST is still returned, incomplete
  CHECK(p->file->stmts.size() == 6);
}

// ------------------------------------------------------------------ interpolation errors

TEST_CASE("parser reports errors inside an interpolation at their column", "[syntax][errors][strings]") {
  CHECK(only_error("x = \"a ${} c\"") == "E1012 1:10-1:11 expected an expression");
  CHECK(only_error("x = \"a ${b +} c\"") == "E1012 1:13-1:14 expected an expression");
  CHECK(only_error("x = \"a ${@} c\"") == "E1002 1:10-1:11 unexpected character '@'");
  CHECK(only_error("x = \"a ${b c} c\"") == "E1001 1:12-1:13 unexpected 'c' in an interpolation");
  CHECK(only_error("x = \"a ${36GB}\"") == "E1005 1:10-1:14 invalid number '36GB'");
  CHECK(only_error("x = \"é ${1 +} c\"") == "E1012 1:14-1:15 expected an expression");
}

TEST_CASE("parser reports an interpolation that contains '\"' once", "[syntax][errors][strings]") {
  auto p = parse("x = \"${m[\"k\"]}\" + y\nz = 1");
  REQUIRE(p->messages() == std::vector<std::string>{"E1014 1:10-1:11 a string interpolation cannot contain '\"'"});
  CHECK(notes(*p, p->error()) ==
        std::vector<std::string>{"compute the value with 'let' and interpolate its name, e.g. ${name}"});
  REQUIRE(p->file != nullptr);
  CHECK(p->file->stmts.size() == 2);  // the rest of the line and the next line parse normally
}

TEST_CASE("parser reports a '${' without '}'", "[syntax][errors][strings]") {
  auto p = parse("x = \"abc ${x\"\ny = 1");
  REQUIRE(p->messages() == std::vector<std::string>{"E1014 1:10-1:12 '${' has no closing '}'"});
  CHECK(p->file->stmts.size() == 2);
}

TEST_CASE("parser rejects interpolation in quoted names and map keys", "[syntax][errors][strings]") {
  CHECK(only_error("\"${a}\" = 8") == "E1015 1:1-1:7 a quoted field name cannot contain '${...}'");
  CHECK(only_error("x = {\"${a}\": 1}") == "E1015 1:6-1:12 a map key cannot contain '${...}'");
}
