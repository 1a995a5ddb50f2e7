// The canonical layout of `mkq fmt` (compiler/syntax/format.cpp): exact output
// for every construct of docs/language.md, comment placement, blank lines, line
// breaking at 100 columns. Every case also checks the formatter's invariants:
// the output parses, formatting it again changes nothing, every comment is
// kept exactly once, no line ends in a space, the text ends in one newline.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/syntax/format.h"
#include "compiler/syntax/parse.h"

namespace {

using mkq::diag::Diagnostics;
using mkq::diag::SourceManager;

std::string describe(const Diagnostics& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics.items()) out += d.code + " " + d.message + "\n";
  return out;
}

// A comment's text as the formatter prints it: without whitespace at line ends.
std::string normalized(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') {
      while (!out.empty() && (out.back() == ' ' || out.back() == '\t' || out.back() == '\r')) out.pop_back();
    }
    out += c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t' || out.back() == '\r')) out.pop_back();
  return out;
}

std::vector<std::string> comment_texts(const mkq::syntax::File& file) {
  std::vector<std::string> texts;
  for (const auto& c : file.comments) texts.push_back(normalized(c.text));
  std::sort(texts.begin(), texts.end());
  return texts;
}

// Formats `input` and checks every invariant of the formatter on the way.
std::string fmt(const std::string& input) {
  SourceManager sources;
  Diagnostics diagnostics;
  const auto id = sources.add("input.mkq", input);
  const auto file = mkq::syntax::parse_file(sources, id, diagnostics);
  INFO("input:\n" << input);
  INFO(describe(diagnostics));
  REQUIRE(file);
  REQUIRE_FALSE(diagnostics.has_errors());
  const std::string once = mkq::syntax::format_file(*file, sources.file(id));

  INFO("formatted:\n" << once);
  const auto id2 = sources.add("formatted.mkq", once);
  const auto again = mkq::syntax::parse_file(sources, id2, diagnostics);
  INFO(describe(diagnostics));
  REQUIRE(again);
  REQUIRE_FALSE(diagnostics.has_errors());
  CHECK(comment_texts(*again) == comment_texts(*file));
  CHECK(mkq::syntax::format_file(*again, sources.file(id2)) == once);

  if (!once.empty()) {
    CHECK(once.back() == '\n');
    CHECK(once.find("\n\n\n") == std::string::npos);
    CHECK(once.substr(once.size() - std::min<std::size_t>(2, once.size())) != "\n\n");
    CHECK(once.front() != '\n');
  }
  CHECK(once.find(" \n") == std::string::npos);
  CHECK(once.find("\t\n") == std::string::npos);
  return once;
}

}  // namespace

// ------------------------------------------------------------------ statements

TEST_CASE("fmt prints every statement kind in the canonical layout", "[syntax][format]") {
  CHECK(fmt(R"(import   "std/gpu"   as   gpu
import "./teams.mkq"
let   x=1
assert x>0 , "x must be positive"
assert true
use gpu.presets( "t4" , count=2 )
use team()
)") == R"(import "std/gpu" as gpu
import "./teams.mkq"
let x = 1
assert x > 0, "x must be positive"
assert true
use gpu.presets("t4", count = 2)
use team()
)");
}

TEST_CASE("fmt ignores the input's layout and separators", "[syntax][format]") {
  CHECK(fmt("let a = 1; let b = 2, let c = 3\nquota \"f\" {cpu=9;memory=36Gi;}") ==
        "let a = 1\nlet b = 2\nlet c = 3\nquota \"f\" { cpu = 9, memory = 36Gi }\n");
  CHECK(fmt("worker\n\"w1\"\n{\ncontext\n=\n\"c\"\n}\n") == "worker \"w1\" { context = \"c\" }\n");
}

TEST_CASE("fmt prints blocks with labels and a namespace", "[syntax][format]") {
  CHECK(fmt(R"(localqueue "user-queue" in "default" {})") == "localqueue \"user-queue\" in \"default\" {}\n");
  CHECK(fmt(R"(access "admins" in "team-a" {role="batch-admin"})") ==
        "access \"admins\" in \"team-a\" { role = \"batch-admin\" }\n");
  CHECK(fmt(R"(credentials { mode = "kubeconfig" })") == "credentials { mode = \"kubeconfig\" }\n");
  CHECK(fmt("kueue {}") == "kueue {}\n");
  CHECK(fmt("flavor \"f\" {\n\n}") == "flavor \"f\" {}\n");
}

TEST_CASE("fmt puts an attribute-only block on one line when it fits", "[syntax][format]") {
  CHECK(fmt("capacity \"default-flavor\" {\n  cpu = 8\n  memory = 16Gi\n}\n") ==
        "capacity \"default-flavor\" { cpu = 8, memory = 16Gi }\n");
  // 100 columns exactly: still one line.
  const std::string fits = "quota \"f\" { a = \"" + std::string(80, 'x') + "\" }";
  REQUIRE(fits.size() == 100);
  CHECK(fmt(fits) == fits + "\n");
  // 101 columns: one attribute per line, no separators.
  const std::string too_long = "quota \"f\" { a = \"" + std::string(81, 'x') + "\" }";
  CHECK(fmt(too_long) == "quota \"f\" {\n  a = \"" + std::string(81, 'x') + "\"\n}\n");
}

TEST_CASE("fmt counts the indentation when it decides a block fits", "[syntax][format]") {
  // 99 columns at the top level; inside a block 2 columns wider, and too wide.
  const std::string value = "\"" + std::string(79, 'x') + "\"";
  CHECK(fmt("quota \"f\" { a = " + value + " }") == "quota \"f\" { a = " + value + " }\n");
  CHECK(fmt("clusterqueue \"cq\" { quota \"f\" { a = " + value + " } }") ==
        "clusterqueue \"cq\" {\n  quota \"f\" {\n    a = " + value + "\n  }\n}\n");
}

TEST_CASE("fmt always breaks a block that holds more than attributes", "[syntax][format]") {
  CHECK(fmt(R"(clusterqueue "cq" { namespaces = all, quota "f" { cpu = 9 } })") ==
        R"(clusterqueue "cq" {
  namespaces = all
  quota "f" { cpu = 9 }
}
)");
  CHECK(fmt(R"(worker "w" { let x = 1 })") == "worker \"w\" {\n  let x = 1\n}\n");
}

TEST_CASE("fmt prints templates, for and if with nested bodies", "[syntax][format]") {
  CHECK(fmt(R"(template team(name, cpu = 4, gpus = []) {
for i, f in flavors { if i == 0 { quota "${f}" { cpu = cpu } } else if gpus != [] {
quota "${f}" { cpu = cpu, gpu = len(gpus) } } else { assert false, "no" } }
for k, v in { a: 1 } {}
if x {} else {}
})") == R"(template team(name, cpu = 4, gpus = []) {
  for i, f in flavors {
    if i == 0 {
      quota "${f}" { cpu = cpu }
    } else if gpus != [] {
      quota "${f}" { cpu = cpu, gpu = len(gpus) }
    } else {
      assert false, "no"
    }
  }
  for k, v in { a: 1 } {}
  if x {} else {}
}
)");
}

TEST_CASE("fmt prints an empty template and a use without arguments", "[syntax][format]") {
  CHECK(fmt("template t(){}\nuse t()") == "template t() {}\nuse t()\n");
}

// ------------------------------------------------------------------ expressions

TEST_CASE("fmt prints literals as written", "[syntax][format]") {
  CHECK(fmt("a = [9, 1.5, 500m, 36Gi, 2e3, 30d, 1h30min, 250ms, true, false, null, all]") ==
        "a = [9, 1.5, 500m, 36Gi, 2e3, 30d, 1h30min, 250ms, true, false, null, all]\n");
}

TEST_CASE("fmt re-escapes strings minimally", "[syntax][format]") {
  CHECK(fmt(R"(a = "q\" b\\ n\n t\t d\${x} $5 $")") == "a = \"q\\\" b\\\\ n\\n t\\t d\\${x} $5 $\"\n");
  CHECK(fmt(R"(a = "\$5")") == "a = \"$5\"\n");
  CHECK(fmt(R"(a = "é ünïcode")") == "a = \"é ünïcode\"\n");
}

TEST_CASE("fmt formats the expressions of interpolations", "[syntax][format]") {
  CHECK(fmt(R"(a = "${ name }-${i+1}-${ f(x,y) }")") == "a = \"${name}-${i + 1}-${f(x, y)}\"\n");
  CHECK(fmt(R"(worker "w-${ i }" {})") == "worker \"w-${i}\" {}\n");
}

TEST_CASE("fmt prints operators with single spaces and keeps parentheses", "[syntax][format]") {
  CHECK(fmt("a = (b+c)*d-e/f%g") == "a = (b + c) * d - e / f % g\n");
  CHECK(fmt("a = x<1||y>=2&&!z") == "a = x < 1 || y >= 2 && !z\n");
  CHECK(fmt("a = -x+-(y)") == "a = -x + -(y)\n");
  CHECK(fmt("a = c?x:d?y:z") == "a = c ? x : d ? y : z\n");
  CHECK(fmt("a = \"k\" in m == (x!=y)") == "a = \"k\" in m == (x != y)\n");
  CHECK(fmt("a = ((x))") == "a = ((x))\n");
}

TEST_CASE("fmt prints field access, indexing, calls and comprehensions", "[syntax][format]") {
  CHECK(fmt("a = m . key[ 0 ] [\"k\"]( 1 , n = 2 , )") == "a = m.key[0][\"k\"](1, n = 2)\n");
  CHECK(fmt("a = [ x*2 for x in xs if x>1 ]") == "a = [x * 2 for x in xs if x > 1]\n");
  CHECK(fmt("a = [k for k, v in m]") == "a = [k for k, v in m]\n");
}

TEST_CASE("fmt prints lists and maps on one line when they fit", "[syntax][format]") {
  CHECK(fmt("a = [\n1,\n2,\n]") == "a = [1, 2]\n");
  CHECK(fmt("a = {\"gpu.type\" : \"t4\" , zone:\"a\",}") == "a = { \"gpu.type\": \"t4\", zone: \"a\" }\n");
  CHECK(fmt("a = [ ]\nb = { }\nc = f( )") == "a = []\nb = {}\nc = f()\n");
  CHECK(fmt("a = [[1, 2], { k: [3] }]") == "a = [[1, 2], { k: [3] }]\n");
}

TEST_CASE("fmt breaks long lists, maps and arguments one element per line", "[syntax][format]") {
  std::string names;
  std::string broken;
  for (int i = 0; i < 10; ++i) {
    const std::string n = "\"worker-number-" + std::to_string(i) + "\"";
    names += (i ? ", " : "") + n;
    broken += "    " + n + ",\n";
  }
  CHECK(fmt("dispatch \"d\" { workers = [" + names + "], mode = \"incremental\" }") ==
        "dispatch \"d\" {\n  workers = [\n" + broken + "  ]\n  mode = \"incremental\"\n}\n");

  // Only the group that does not fit breaks; inner groups that fit stay flat.
  CHECK(fmt("let presets = { t4: { \"gpu.type\": \"nvidia-tesla-t4\", count: 4 }, a100: { \"gpu.type\": "
            "\"nvidia-a100\", count: 8 } }") ==
        R"(let presets = {
  t4: { "gpu.type": "nvidia-tesla-t4", count: 4 },
  a100: { "gpu.type": "nvidia-a100", count: 8 },
}
)");

  CHECK(fmt("use team(\"research-team-with-a-long-name\", cpu = 100, memory = 400Gi, gpus = 8, "
            "flavor = \"default\", priority = 1)") ==
        R"(use team(
  "research-team-with-a-long-name",
  cpu = 100,
  memory = 400Gi,
  gpus = 8,
  flavor = "default",
  priority = 1,
)
)");

  CHECK(fmt("template a_template_with_many_parameters(first_parameter, second_parameter = 2, "
            "third_parameter = [1, 2]) {}") ==
        R"(template a_template_with_many_parameters(
  first_parameter,
  second_parameter = 2,
  third_parameter = [1, 2],
) {}
)");
}

TEST_CASE("fmt breaks a long comprehension before for and if", "[syntax][format]") {
  CHECK(fmt("let selected_workers = [worker_definition.name for worker_definition in all_worker_definitions "
            "if worker_definition.enabled]") ==
        R"(let selected_workers = [
  worker_definition.name
  for worker_definition in all_worker_definitions
  if worker_definition.enabled
]
)");
}

TEST_CASE("fmt does not break operators, strings or interpolations", "[syntax][format]") {
  const std::string long_sum =
      "let total = first_value + second_value + third_value + fourth_value + "
      "fifth_value + sixth_value + seventh_value";
  CHECK(fmt(long_sum) == long_sum + "\n");
  const std::string interpolated =
      "let s = \"${[aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbb, cccccccccccccccccccccc, "
      "dddddddddddddddddddddd, eeeeeeeeee]}\"";
  CHECK(fmt(interpolated) == interpolated + "\n");
}

// ------------------------------------------------------------------ blank lines

TEST_CASE("fmt keeps at most one blank line and none at the edges of a body", "[syntax][format]") {
  CHECK(fmt("\n\n\nlet a = 1\n\n\n\nlet b = 2\nlet c = 3\n\n\n") == "let a = 1\n\nlet b = 2\nlet c = 3\n");
  CHECK(fmt("worker \"w\" {\n\n  let x = 1\n\n\n  labels = {}\n\n  secret = \"s\"\n\n}\n") ==
        "worker \"w\" {\n  let x = 1\n\n  labels = {}\n\n  secret = \"s\"\n}\n");
  // A blank line between attributes is kept when the block cannot be one line.
  CHECK(fmt("quota \"f\" {\n  a = \"" + std::string(50, 'x') + "\"\n\n  b = \"" + std::string(50, 'y') +
            "\"\n}") == "quota \"f\" {\n  a = \"" + std::string(50, 'x') + "\"\n\n  b = \"" +
                            std::string(50, 'y') + "\"\n}\n");
}

TEST_CASE("fmt separates multi-line top-level statements by one blank line", "[syntax][format]") {
  CHECK(fmt("let a = 1\nworker \"w\" { let x = 1 }\nflavor \"a\" {}\nflavor \"b\" {}\ntemplate t() {\n"
            "  x = 1\n}\nuse t()\n") ==
        R"(let a = 1

worker "w" {
  let x = 1
}

flavor "a" {}
flavor "b" {}

template t() {
  x = 1
}

use t()
)");
}

TEST_CASE("fmt prints an empty file as nothing", "[syntax][format]") {
  CHECK(fmt("") == "");
  CHECK(fmt("\n\n  \n") == "");
  CHECK(fmt(";;,") == "");
}

// ------------------------------------------------------------------ comments

TEST_CASE("fmt keeps leading and trailing comments of statements", "[syntax][format]") {
  CHECK(fmt(R"(// header

// about a
let a = 1 // trailing a
/* block */ let b = 2 /* after b */ // and more
)") == R"(// header

// about a
let a = 1 // trailing a
/* block */
let b = 2 /* after b */ // and more
)");
}

TEST_CASE("fmt keeps comments inside bodies and before a closing brace", "[syntax][format]") {
  CHECK(fmt(R"(worker "w" { // the first worker
  // its context
  context = "c"   // trailing
  // before the end
}
flavor "f" {
  // only a comment
}
)") == R"(worker "w" { // the first worker
  // its context
  context = "c" // trailing
  // before the end
}

flavor "f" {
  // only a comment
}
)");
}

TEST_CASE("fmt breaks a one-line block that holds a comment", "[syntax][format]") {
  CHECK(fmt("quota \"f\" { cpu = 9 /* nine */, memory = 36Gi }") ==
        "quota \"f\" {\n  cpu = 9 /* nine */\n  memory = 36Gi\n}\n");
  CHECK(fmt("quota \"f\" { /* c */ cpu = 9 }") == "quota \"f\" { /* c */\n  cpu = 9\n}\n");
  CHECK(fmt("quota \"f\" { cpu = 9 } // trailing") == "quota \"f\" { cpu = 9 } // trailing\n");
}

TEST_CASE("fmt keeps comments at the end of the file at the end", "[syntax][format]") {
  CHECK(fmt("let a = 1\n\n// the end\n/* really */\n") == "let a = 1\n\n// the end\n/* really */\n");
  CHECK(fmt("// only\n\n\n// comments") == "// only\n\n// comments\n");
}

TEST_CASE("fmt keeps comments between list elements and breaks the list", "[syntax][format]") {
  CHECK(fmt(R"(workers = [ // in dispatch order
  "w1", // first
  // the second
  "w2" /* last */,
  // after the last
])") == R"(workers = [ // in dispatch order
  "w1", // first
  // the second
  "w2", /* last */
  // after the last
]
)");
  // A comment on the line of an element stays after it; one on its own line before the next.
  CHECK(fmt("m = { a: 1, /* a */ b: 2 }") == "m = {\n  a: 1, /* a */\n  b: 2,\n}\n");
  CHECK(fmt("m = { a: 1,\n /* b */ b: 2 }") == "m = {\n  a: 1,\n  /* b */\n  b: 2,\n}\n");
  CHECK(fmt("x = f(a, // why\n b)") == "x = f(\n  a, // why\n  b,\n)\n");
  CHECK(fmt("x = [\n  // nothing yet\n]") == "x = [\n  // nothing yet\n]\n");
  CHECK(fmt("template t(a, // the first\n b = 2) {}") == "template t(\n  a, // the first\n  b = 2,\n) {}\n");
}

TEST_CASE("fmt moves a comment inside an expression to the end of its line", "[syntax][format]") {
  CHECK(fmt("let x = a + /* why */ b") == "let x = a + b /* why */\n");
  CHECK(fmt("let x = a + // why\n  b\nlet y = 2") == "let x = a + b // why\nlet y = 2\n");
  CHECK(fmt("let s = [a /* x */ * 2 for a in b]") == "let s = [a * 2 for a in b] /* x */\n");
}

TEST_CASE("fmt keeps comments around else and in headers", "[syntax][format]") {
  CHECK(fmt(R"(if a {
  x = 1
} // not a
else {
  x = 2
})") == R"(if a {
  x = 1
} else {
  // not a
  x = 2
}
)");
  CHECK(fmt("worker /* w */ \"w\" { a = 1 }") == "worker \"w\" { /* w */\n  a = 1\n}\n");
  CHECK(fmt("worker \"w\" // about w\n{\n  a = 1\n}") == "worker \"w\" {\n  // about w\n  a = 1\n}\n");
  CHECK(fmt("worker \"w\" { /* a\n b */ // c\n  a = 1\n}") ==
        "worker \"w\" { /* a\n b */ // c\n  a = 1\n}\n");
  CHECK(fmt("let a = f( /* a\n b */ // c\n 1)") == "let a = f( /* a\n b */ // c\n  1,\n)\n");
  CHECK(fmt("let a = 1 /* a\n b */ // c\nlet b = 2") == "let a = 1 /* a\n b */ // c\nlet b = 2\n");
  CHECK(fmt("let a = 1 /* a\n b */\n// c\nlet b = 2") == "let a = 1 /* a\n b */\n// c\nlet b = 2\n");
}

TEST_CASE("fmt keeps block comments verbatim", "[syntax][format]") {
  CHECK(fmt(R"(/*
 * A policy.
 *   indented
 */
worker "w" {
  /* one
     two */
  a = 1
}
)") == R"(/*
 * A policy.
 *   indented
 */
worker "w" {
  /* one
     two */
  a = 1
}
)");
}

TEST_CASE("fmt drops whitespace at the end of comment lines", "[syntax][format]") {
  CHECK(fmt("let a = 1 // x   \n/* a  \n b */\n") == "let a = 1 // x\n/* a\n b */\n");
}

TEST_CASE("fmt accepts CRLF line ends", "[syntax][format]") {
  CHECK(fmt("worker \"w\" {\r\n  a = 1 // c\r\n\r\n  b = 2\r\n}\r\n") ==
        "worker \"w\" {\n  a = 1 // c\n\n  b = 2\n}\n");
}

// ------------------------------------------------------------------ nesting and robustness

TEST_CASE("fmt formats deeply nested lists", "[syntax][format][robustness]") {
  const auto nested = [](int depth) {
    return "a = " + std::string(static_cast<std::size_t>(depth), '[') + "1" +
           std::string(static_cast<std::size_t>(depth), ']');
  };
  CHECK(fmt(nested(40)) == nested(40) + "\n");
  // Too deep for one line: every level that does not fit gets its own lines.
  const std::string deep = fmt(nested(150));
  CHECK(deep.rfind("a = [\n  [\n    [\n", 0) == 0);
  CHECK(deep.find("1,\n") != std::string::npos);
  CHECK(deep.substr(deep.size() - 3) == "\n]\n");
}

TEST_CASE("fmt formats a long chain of operators", "[syntax][format][robustness]") {
  std::string input = "a = x";
  for (int i = 0; i < 500; ++i) input += " + x";
  CHECK(fmt(input) == input + "\n");
}

TEST_CASE("fmt keeps a realistic policy stable", "[syntax][format]") {
  const std::string policy = R"(// The tutorial as one policy.

import "std/gpu" as gpu

let zones = ["a", "b"]

manager "manager-cluster" { context = "manager-cluster" }

worker "worker1" {
  context = "worker1-cluster"
  secret = "worker1-secret" // the kubeconfig Secret on the manager
  labels = { "gpu.type": gpu.t4, zone: zones[0] }
  capacity "default-flavor" { cpu = 9, memory = 36Gi }
  credentials { mode = "serviceaccount", lifetime = 30d, rotate_before = 7d }
}

flavor "default-flavor" {}

clusterqueue "cluster-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 9, memory = { nominal: 36Gi, borrowing_limit: 4Gi } }
  quota "gpu-flavor" {
    cpu = 9
    memory = { nominal: 36Gi, borrowing_limit: 4Gi, lending_limit: 4Gi }
    "nvidia.com/gpu" = 8
  }

  localqueue "user-queue" in "default" {}
}

dispatch "sample" { queues = ["cluster-queue"], workers = ["worker1"] }

dispatch "incremental" {
  // one worker after the other
  queues = ["cluster-queue"]
  workers = ["worker1"]
  mode = "incremental"
}
)";
  CHECK(fmt(policy) == policy);
}

// ------------------------------------------------------------------ every position

namespace {

// A policy with every kind of statement and expression.
const char* const kSample = R"(import "std/gpu" as gpu
let zones = ["a", "b"]
let presets = { t4: { "gpu.type": "nvidia-tesla-t4", count: 4 }, big: gpu.presets["a100"] }
template team(name, cpu = 4, gpus = [1, 2]) {
  assert cpu > 0 && len(gpus) >= 0, "cpu for ${name} must be positive"
  for i, z in zones {
    if i == 0 {
      quota "f-${z}" { cpu = cpu * 2, memory = (cpu + 1) * 4Gi }
    } else if z in ["b"] {
      quota "g" { "nvidia.com/gpu" = -cpu, ok = !false }
    } else {
      let x = i > 1 ? null : all
    }
  }
}
clusterqueue "cq" {
  namespaces = [n for n, v in presets if v.count > 1]
  use team("research", cpu = 8)
  localqueue "lq" in "default" { default = true }
}
dispatch "d" { queues = ["cq"], workers = max(1, 2) }
)";

// The offsets of the blanks between tokens of `text` (outside strings and comments).
std::vector<std::size_t> blank_offsets(const std::string& text) {
  std::vector<std::size_t> offsets;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    const bool bracket = std::string_view("(){}[],:").find(c) != std::string_view::npos;
    const bool after_bracket =
        i > 0 && std::string_view("(){}[],:").find(text[i - 1]) != std::string_view::npos;
    if (c == ' ' || c == '\n' || bracket || after_bracket) offsets.push_back(i);
  }
  return offsets;
}

// `text` with `insert` put at `at`, replacing the blank there if there is one.
std::string insert_at(const std::string& text, std::size_t at, const std::string& insert) {
  const bool blank = text[at] == ' ' || text[at] == '\n';
  return text.substr(0, at) + insert + text.substr(blank ? at + 1 : at);
}

// `text` with every run of blanks outside strings replaced by `blank`.
std::string relayout(const std::string& text, const std::string& blank) {
  std::string out;
  bool in_string = false;
  bool pending = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string && (c == ' ' || c == '\n')) {
      pending = true;
      continue;
    }
    if (pending && !out.empty()) out += blank;
    pending = false;
    out += c;
    if (in_string && c == '\\') {
      out += text[++i];
    } else if (c == '"') {
      in_string = !in_string;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("fmt output does not depend on the input's layout", "[syntax][format]") {
  const std::string canonical = fmt(kSample);
  CHECK(fmt(relayout(kSample, " ")) == canonical);
  CHECK(fmt(relayout(kSample, "\n")) == canonical);
  CHECK(fmt(relayout(kSample, "\n  \t ")) == canonical);
  CHECK(fmt(canonical) == canonical);
}

TEST_CASE("fmt keeps a comment put between any two tokens", "[syntax][format][comments]") {
  const std::string sample = kSample;
  const auto offsets = blank_offsets(sample);
  REQUIRE(offsets.size() > 200);
  for (const std::size_t at : offsets) {
    // fmt() checks that the output parses, keeps the comment and is stable.
    CHECK(fmt(insert_at(sample, at, " // note\n")).find("// note") != std::string::npos);
    CHECK(fmt(insert_at(sample, at, " /* note */ ")).find("/* note */") != std::string::npos);
    CHECK(fmt(insert_at(sample, at, "\n/* a\n   b */ // c\n\n")).find("/* a\n   b */") != std::string::npos);
  }
}

TEST_CASE("fmt keeps comments put at random places in a random layout", "[syntax][format][comments]") {
  const std::string sample = kSample;
  const auto offsets = blank_offsets(sample);
  const std::string canonical = fmt(sample);
  std::uint32_t seed = 12345;
  const auto next = [&seed](std::size_t n) {
    seed = seed * 1103515245u + 12345u;
    return static_cast<std::size_t>((seed >> 8) % n);
  };
  const char* const blanks[] = {" ", "\n", "\n\n", "  \n    "};
  for (int round = 0; round < 300; ++round) {
    const std::string layout = relayout(sample, blanks[next(4)]);
    const bool blank_lines = layout.find("\n\n") != std::string::npos;  // kept by design
    if (round % 4 == 0 && !blank_lines) CHECK(fmt(layout) == fmt(relayout(sample, "\n")));
    const auto layout_offsets = blank_offsets(layout);
    std::string text = layout;
    // Insert from the end so that earlier offsets stay valid.
    std::vector<std::size_t> at;
    for (int k = 0; k < 4; ++k) at.push_back(layout_offsets[next(layout_offsets.size())]);
    std::sort(at.rbegin(), at.rend());
    const char* const comments[] = {" // one\n", " /* two */ ", "\n// three\n\n", " /* four\n  lines */ "};
    for (std::size_t k = 0; k < at.size(); ++k) text = insert_at(text, at[k], comments[next(4)]);
    fmt(text);
  }
  CHECK(!canonical.empty());
}
