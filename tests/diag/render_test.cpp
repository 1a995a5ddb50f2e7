#include <catch2/catch.hpp>

#include "compiler/diag/diagnostic.h"

using mkq::diag::Diagnostics;
using mkq::diag::SourceManager;

TEST_CASE("source positions are 1-based lines and byte columns", "[diag]") {
  SourceManager sources;
  const auto id = sources.add("a.mkq", "ab\ncd\n\nx");
  const auto& f = sources.file(id);
  CHECK(f.position(0).line == 1);
  CHECK(f.position(0).column == 1);
  CHECK(f.position(4).line == 2);
  CHECK(f.position(4).column == 2);
  CHECK(f.position(7).line == 4);
  CHECK(f.position(100).offset == 8);
  CHECK(f.line_text(2) == "cd");
  CHECK(f.line_text(3).empty());
}

TEST_CASE("text rendering shows location, code, source line and carets under the whole span", "[diag]") {
  SourceManager sources;
  const auto id = sources.add("p.mkq", "flavor \"f\" {\n  cpu = 36GB\n}\n");
  Diagnostics diags;
  auto& d = diags.error("E1005", sources.range(id, 21, 25), "invalid number '36GB'");
  d.suggestions.push_back({"did you mean '36G'?", {}, "36G"});
  const std::string text = mkq::diag::render_text(diags.sorted(sources), sources);
  CHECK(text ==
        "p.mkq:2:9: error[E1005]: invalid number '36GB'\n"
        " 2 |   cpu = 36GB\n"
        "   |         ^~~~\n"
        "  = help: did you mean '36G'?\n"
        "error: 1 error\n");
}

TEST_CASE("diagnostics are sorted by file path then offset, duplicates dropped", "[diag]") {
  SourceManager sources;
  const auto b = sources.add("b.mkq", "xxxxxxxx");
  const auto a = sources.add("a.mkq", "yyyyyyyy");
  Diagnostics diags;
  diags.error("E1", sources.range(b, 1, 2), "second file");
  diags.error("E1", sources.range(a, 5, 6), "late in a");
  diags.error("E1", sources.range(a, 0, 1), "early in a");
  diags.error("E1", sources.range(a, 0, 1), "early in a");
  const auto sorted = diags.sorted(sources);
  REQUIRE(sorted.size() == 3);
  CHECK(sorted[0].message == "early in a");
  CHECK(sorted[1].message == "late in a");
  CHECK(sorted[2].message == "second file");
}

TEST_CASE("closest_match suggests plausible typos only", "[diag]") {
  const std::vector<std::string> kinds = {"clusterqueue", "localqueue", "cohort", "flavor"};
  CHECK(mkq::diag::closest_match("clusterqeue", kinds) == "clusterqueue");
  CHECK(mkq::diag::closest_match("Cohort", kinds) == "cohort");
  CHECK_FALSE(mkq::diag::closest_match("banana", kinds).has_value());
}

TEST_CASE("json rendering carries file, range, severity, code and message", "[diag]") {
  SourceManager sources;
  const auto id = sources.add("p.mkq", "abc");
  Diagnostics diags;
  diags.warning("W3001", sources.range(id, 1, 2), "something odd");
  const std::string json = mkq::diag::render_json(diags.sorted(sources), sources);
  CHECK(json.find("\"severity\": \"warning\"") != std::string::npos);
  CHECK(json.find("\"code\": \"W3001\"") != std::string::npos);
  CHECK(json.find("\"column\": 2") != std::string::npos);
  CHECK(json.find("\"warnings\": 1") != std::string::npos);
  CHECK(json.rfind("{\n  \"format_version\": 1,\n", 0) == 0);  // the document's first field
}

// Colored text rendering, byte for byte: the severity and code in the
// severity's bold color, the message bold, the carets bold green; notes with a
// location colored as a note, with their own snippet. Written against the
// renderer before it moved to base::styled, so that it proves the bytes kept.
TEST_CASE("colored text rendering writes the same escapes around severity, message and carets", "[diag]") {
  SourceManager sources;
  const auto id = sources.add("p.mkq", "flavor \"f\" {\n\tcpu = 36GB\n}\nflavor \"f\" {}\n");
  Diagnostics diags;
  auto& e = diags.error("E1005", sources.range(id, 20, 24), "invalid number '36GB'");
  e.suggestions.push_back({"did you mean '36G'?", {}, "36G"});
  e.notes.push_back({"a note without a place", {}});
  auto& w = diags.warning("W3001", sources.range(id, 27, 37), "flavor 'f' declared twice");
  w.notes.push_back({"first declared here", sources.range(id, 0, 10)});
  mkq::diag::Diagnostic outside;
  outside.severity = mkq::diag::Severity::Note;
  outside.code = "N1";
  outside.message = "no place at all";
  diags.add(outside);
  const std::string text = mkq::diag::render_text(diags.sorted(sources), sources, {.color = true});
  CHECK(text ==
        "mkq: \x1b[1;36mnote[N1]\x1b[0m\x1b[1m: no place at all\x1b[0m\n"
        "p.mkq:2:8: \x1b[1;31merror[E1005]\x1b[0m\x1b[1m: invalid number '36GB'\x1b[0m\n"
        " 2 |  cpu = 36GB\n"
        "   |        \x1b[1;32m^~~~\x1b[0m\n"
        "  = note: a note without a place\n"
        "  = help: did you mean '36G'?\n"
        "p.mkq:4:1: \x1b[1;33mwarning[W3001]\x1b[0m\x1b[1m: flavor 'f' declared twice\x1b[0m\n"
        " 4 | flavor \"f\" {}\n"
        "   | \x1b[1;32m^~~~~~~~~~\x1b[0m\n"
        "p.mkq:1:1: note: first declared here\n"
        " 1 | flavor \"f\" {\n"
        "   | \x1b[1;32m^~~~~~~~~~\x1b[0m\n"
        "error: 1 error, 1 warning\n");
}

TEST_CASE("a long line is cut around the caret and the summary counts plurals", "[diag]") {
  SourceManager sources;
  const std::string line = std::string(200, 'a') + "BAD" + std::string(200, 'b');
  const auto id = sources.add("long.mkq", line + "\n");
  Diagnostics diags;
  diags.error("E1", sources.range(id, 200, 203), "bad");
  diags.error("E2", sources.range(id, 0, 1), "first");
  diags.warning("W1", sources.range(id, 399, 403), "past the end");
  diags.warning("W2", sources.range(id, 402, 403), "last");
  const std::string text = mkq::diag::render_text(diags.sorted(sources), sources);
  const std::string cut = std::string(80, 'a') + "BAD" + std::string(77, 'b');
  CHECK(text.find(" 1 | " + cut + "\n   | " + std::string(80, ' ') + "^~~\n") != std::string::npos);
  CHECK(text.find("long.mkq:1:201: error[E1]: bad\n") != std::string::npos);
  const std::string summary = "\nerror: 2 errors, 2 warnings\n";
  CHECK(text.substr(text.size() - summary.size()) == summary);
}
