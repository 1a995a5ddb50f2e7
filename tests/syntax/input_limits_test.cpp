// Input limits before memory (issue 12): a file over diag::kMaxSourceBytes is
// refused before it is lexed (E1018), and an identifier, string or number over
// kMaxTokenBytes before it is decoded or copied into the AST (E1019) — by the
// fast path and the ANTLR path alike. The readers' side (a file refused from
// its size before it is read) is tested in tests/sema/input_limits_test.cpp.
#include <catch2/catch.hpp>
#include <string>

#include "compiler/syntax/codes.h"
#include "compiler/syntax/parse_route.h"
#include "tests/syntax/syntax_test_util.h"

namespace {

using mkq::diag::kMaxSourceBytes;
using mkq::syntax::kMaxTokenBytes;
using mkq::syntax::detail::Engine;
using mkq::syntax::testing::parse;
using mkq::syntax::testing::Parsed;

const std::size_t kSource = static_cast<std::size_t>(kMaxSourceBytes);
const std::size_t kToken = static_cast<std::size_t>(kMaxTokenBytes);

// A parse along `engine`; *used_antlr (when given) tells whether ANTLR ran.
std::unique_ptr<Parsed> parse_with(const std::string& text, Engine engine, bool* used_antlr = nullptr) {
  auto p = std::make_unique<Parsed>();
  p->id = p->sources.add("test.mkq", text);
  mkq::syntax::detail::ParseRoute route{engine};
  p->file = mkq::syntax::detail::parse_file_via(p->sources, p->id, p->diagnostics, route);
  if (used_antlr != nullptr) *used_antlr = route.used_antlr;
  return p;
}

}  // namespace

TEST_CASE("parser refuses a file one byte over the size limit, at its start, with its size",
          "[syntax][limits]") {
  auto p = parse("// " + std::string(kSource - 2, 'a'));
  CHECK(p->file == nullptr);
  REQUIRE(p->messages() ==
          std::vector<std::string>{"E1018 1:1-1:1 test.mkq is 8388609 bytes; the limit is 8388608 bytes"});
  REQUIRE(p->error().notes.size() == 1);
  CHECK(p->error().notes[0].message == "split the policy into several files in one directory");
}

TEST_CASE("parser reads a file of exactly the size limit", "[syntax][limits]") {
  auto p = parse("// " + std::string(kSource - 3, 'a'));
  CHECK(p->ok());
}

TEST_CASE("parser refuses an identifier, a string or a number one byte over the token limit",
          "[syntax][limits]") {
  const std::string long_name(kToken + 1, 'a');
  const std::string long_number = "1" + std::string(kToken, '0');
  for (const Engine engine : {Engine::FastPathFirst, Engine::AntlrOnly}) {
    INFO((engine == Engine::FastPathFirst ? "fast path first" : "antlr only"));
    auto ident = parse_with("x = " + long_name + "\n", engine);
    CHECK(ident->file == nullptr);
    REQUIRE(ident->messages() ==
            std::vector<std::string>{"E1019 1:5-1:1048582 identifier is 1048577 bytes long; "
                                     "the limit is 1048576 bytes"});

    auto string = parse_with("x = \"" + long_name + "\"\n", engine);
    CHECK(string->file == nullptr);
    REQUIRE(string->messages() ==
            std::vector<std::string>{"E1019 1:5-1:1048584 string is 1048577 bytes long; "
                                     "the limit is 1048576 bytes"});

    auto unterminated = parse_with("x = \"" + long_name + "\n", engine);
    CHECK(unterminated->file == nullptr);
    REQUIRE(unterminated->errors() == 1);
    CHECK(unterminated->error().code == "E1019");

    auto number = parse_with("x = " + long_number + "\n", engine);
    CHECK(number->file == nullptr);
    REQUIRE(number->messages() ==
            std::vector<std::string>{"E1019 1:5-1:1048582 number is 1048577 bytes long; "
                                     "the limit is 1048576 bytes"});
  }
}

TEST_CASE("parser accepts an identifier and a string literal of exactly the token limit",
          "[syntax][limits]") {
  const std::string name(kToken, 'a');
  auto ident = parse("x = " + name + "\n");
  CHECK(ident->ok());
  auto string = parse("x = \"" + name + "\"\n");  // the quotes do not count
  CHECK(string->ok());
}

TEST_CASE("parser does not limit comments, only the file", "[syntax][limits]") {
  CHECK(parse("/* " + std::string(2 * kToken, 'a') + " */\nx = 1\n")->ok());
  CHECK(parse("// " + std::string(2 * kToken, 'a') + "\nx = 1\n")->ok());
  auto unterminated = parse("x = 1\n/* " + std::string(2 * kToken, 'a'));
  REQUIRE(unterminated->errors() == 1);
  CHECK(unterminated->error().code == "E1004");
}

TEST_CASE("the ANTLR path decodes 2-, 3- and 4-byte characters as the fast path reads them",
          "[syntax][limits]") {
  // The ANTLR path's input is decoded by parse.cpp, not by ANTLR (its decoder
  // costs 20 bytes per byte): the same AST, and errors at the same byte columns.
  const std::string valid =
      "\xEF\xBB\xBFx = \"\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 ${a}\" // \xF0\x9F\x98\x80\ny = 1\n";
  bool used_antlr = true;
  auto fast = parse_with(valid, Engine::FastPathFirst, &used_antlr);
  auto antlr = parse_with(valid, Engine::AntlrOnly);
  REQUIRE(fast->ok());
  REQUIRE_FALSE(used_antlr);
  REQUIRE(antlr->ok());
  CHECK(mkq::syntax::testing::dump(*antlr->file) == mkq::syntax::testing::dump(*fast->file));
  CHECK(mkq::syntax::testing::dump(*antlr->file).find("\xE2\x82\xAC \xF0\x9F\x98\x80 ") != std::string::npos);

  auto error = parse_with("y = \"\xF0\x9F\x98\x80\" @\n", Engine::AntlrOnly);
  CHECK(error->messages() == std::vector<std::string>{"E1002 1:12-1:13 unexpected character '@'"});
}

namespace {

// "CODE line:col-line:col message" and the notes of every diagnostic.
std::vector<std::string> reported(const Parsed& p) {
  std::vector<std::string> out = p.messages();
  for (const auto& d : p.diagnostics.items()) {
    for (const auto& note : d.notes) out.push_back("note: " + note.message);
  }
  return out;
}

std::string repeated(const std::string& piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

}  // namespace

TEST_CASE("the fast path refuses too many tokens and a token too long itself, as ANTLR would",
          "[syntax][limits]") {
  // Without the generated lexer's input (4 bytes per byte) and tokens (about
  // 100 bytes each): the memory bench's dense 8 MiB of tokens peaks at a
  // fifth of what it did. The diagnostics are the ANTLR path's, exactly.
  const std::string tokens = "x = [" + repeated("1,", 500000) + "]\n";  // 1,000,004 tokens
  const std::string long_name(kToken + 1, 'a');
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"too many tokens", tokens},
      {"too many tokens after an invalid duration", "d = 1s1h\n" + tokens},
      {"too many tokens after a non-ASCII comment", "// \xC3\xA9\xE2\x82\xAC\n" + tokens},
      {"an identifier too long", "x = " + long_name + "\n"},
      {"a string too long after a non-ASCII comment", "/* \xF0\x9F\x98\x80 */ x = \"" + long_name + "\"\n"},
  };
  for (const auto& [what, text] : inputs) {
    INFO(what);
    bool used_antlr = true;
    auto fast = parse_with(text, Engine::FastPathFirst, &used_antlr);
    auto antlr = parse_with(text, Engine::AntlrOnly);
    CHECK_FALSE(used_antlr);
    CHECK(fast->file == nullptr);
    REQUIRE(fast->errors() == 1);
    CHECK(reported(*fast) == reported(*antlr));
  }
}

TEST_CASE("a token too long after nesting too deep is left to the ANTLR path, which reports both",
          "[syntax][limits]") {
  const std::string text = "x = " + repeated("[", 201) + std::string(kToken + 1, 'a') + repeated("]", 201) + "\n";
  bool used_antlr = false;
  auto fast = parse_with(text, Engine::FastPathFirst, &used_antlr);
  auto antlr = parse_with(text, Engine::AntlrOnly);
  CHECK(used_antlr);
  REQUIRE(fast->errors() == 2);
  CHECK(fast->error(0).code == "E1010");
  CHECK(fast->error(1).code == "E1019");
  CHECK(reported(*fast) == reported(*antlr));
}
