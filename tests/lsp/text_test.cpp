// Positions in UTF-16 and UTF-8, incremental edits and file URIs (lsp/text.h).
#include <catch2/catch.hpp>

#include "lsp/text.h"

using mkq::lsp::Encoding;
using mkq::lsp::LineIndex;
using mkq::lsp::Position;

TEST_CASE("positions count UTF-16 code units by default and bytes with utf-8", "[lsp][positions]") {
  // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" (U+1D11E) is 4 bytes and a surrogate pair.
  const std::string text = "let a = 1\n// é𝄞x\nb";
  const LineIndex lines(text);
  const std::uint32_t x = static_cast<std::uint32_t>(text.find('x'));
  CHECK(lines.position(x, Encoding::Utf16) == Position{1, 6});  // "// " 3 + é 1 + 𝄞 2
  CHECK(lines.position(x, Encoding::Utf8) == Position{1, 9});   // "// " 3 + é 2 + 𝄞 4
  CHECK(lines.offset({1, 6}, Encoding::Utf16) == x);
  CHECK(lines.offset({1, 9}, Encoding::Utf8) == x);
  CHECK(lines.position(static_cast<std::uint32_t>(text.size()), Encoding::Utf16) == Position{2, 1});
}

TEST_CASE("a position inside a character or past a line's end is clamped", "[lsp][positions]") {
  const std::string text = "a𝄞b\nc";
  const LineIndex lines(text);
  // Column 2 is between the surrogates of 𝄞: it means the character's start.
  CHECK(lines.offset({0, 2}, Encoding::Utf16) == 1);
  CHECK(lines.offset({0, 3}, Encoding::Utf16) == 5);
  CHECK(lines.offset({0, 99}, Encoding::Utf16) == 6);  // the line's end, before '\n'
  CHECK(lines.offset({7, 0}, Encoding::Utf16) == text.size());
  // An offset inside a UTF-8 sequence counts as the sequence's start.
  CHECK(lines.position(2, Encoding::Utf16) == Position{0, 1});
}

TEST_CASE("incremental changes replace their range in order", "[lsp][edits]") {
  std::string text = "let gpus = 8\nlet mem = gpus * 64Gi\n";
  mkq::lsp::apply_change(text, {{0, 11}, {0, 12}}, "24", Encoding::Utf16);
  CHECK(text == "let gpus = 24\nlet mem = gpus * 64Gi\n");
  mkq::lsp::apply_change(text, {{1, 0}, {1, 0}}, "// é\n", Encoding::Utf16);
  CHECK(text == "let gpus = 24\n// é\nlet mem = gpus * 64Gi\n");
  // After non-ASCII text, columns are UTF-16 units: "é" is one.
  mkq::lsp::apply_change(text, {{1, 3}, {1, 4}}, "e", Encoding::Utf16);
  CHECK(text == "let gpus = 24\n// e\nlet mem = gpus * 64Gi\n");
  // A range across lines, and one given end first.
  mkq::lsp::apply_change(text, {{2, 0}, {0, 13}}, "", Encoding::Utf16);
  CHECK(text == "let gpus = 24let mem = gpus * 64Gi\n");
}

TEST_CASE("file URIs are percent-encoded and decoded", "[lsp][uri]") {
  CHECK(mkq::lsp::path_to_uri("/home/a b/é.mkq") == "file:///home/a%20b/%C3%A9.mkq");
  CHECK(mkq::lsp::uri_to_path("file:///home/a%20b/%C3%A9.mkq") == "/home/a b/é.mkq");
  CHECK(mkq::lsp::uri_to_path("file://localhost/x.mkq") == "/x.mkq");
  CHECK_FALSE(mkq::lsp::uri_to_path("untitled:Untitled-1"));
  CHECK_FALSE(mkq::lsp::uri_to_path("file://other-host/x.mkq"));
  CHECK_FALSE(mkq::lsp::uri_to_path("file:///x%2"));
  CHECK_FALSE(mkq::lsp::uri_to_path("file:///x%00y"));
}
