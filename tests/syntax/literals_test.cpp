// The parser-free checks of compiler/syntax/literals.h: encoding, advice for
// bad numbers, duration order.
#include <catch2/catch.hpp>

#include "compiler/syntax/literals.h"
#include "tests/syntax/syntax_test_util.h"

using namespace mkq::syntax::detail;  // NOLINT: test brevity

TEST_CASE("encoding check finds the first NUL or invalid UTF-8 byte", "[syntax][encoding]") {
  CHECK_FALSE(find_bad_byte(""));
  CHECK_FALSE(find_bad_byte("plain ascii\n"));
  CHECK_FALSE(find_bad_byte("\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));  // é € 😀 U+10FFFF
  const auto nul = find_bad_byte(std::string("ab\0c", 4));
  REQUIRE(nul);
  CHECK(nul->offset == 2);
  CHECK(nul->is_nul);
  const auto truncated = find_bad_byte("ok \xE2\x82");
  REQUIRE(truncated);
  CHECK(truncated->offset == 3);
  CHECK_FALSE(truncated->is_nul);
  CHECK(find_bad_byte("\x80")->offset == 0);              // a lone continuation byte
  CHECK(find_bad_byte("a\xC1\xBF")->offset == 1);         // overlong 2-byte form
  CHECK(find_bad_byte("ab\xED\xBF\xBF")->offset == 2);    // a UTF-16 surrogate
  CHECK(find_bad_byte("\xF5\x80\x80\x80")->offset == 0);  // beyond U+10FFFF
}

TEST_CASE("utf8_length measures one character and never runs past the text", "[syntax][encoding]") {
  CHECK(utf8_length("a", 0) == 1);
  CHECK(utf8_length("\xC3\xA9", 0) == 2);
  CHECK(utf8_length("\xE2\x80\x9C", 0) == 3);
  CHECK(utf8_length("\xF0\x9F\x98\x80", 0) == 4);
  CHECK(utf8_length("\xE2\x80", 0) == 1);
  CHECK(utf8_length("a", 1) == 0);
}

TEST_CASE("bad number advice names the fix", "[syntax][literals]") {
  CHECK(explain_bad_number("1m30s").replacement == "1min30s");
  CHECK(explain_bad_number("5m30s").message == "invalid duration '5m30s'");
  CHECK(explain_bad_number("2h5m").replacement == "2h5min");
  CHECK(explain_bad_number("1.5h").replacement == "1h30min");
  CHECK(explain_bad_number("0.5s").replacement == "500ms");
  CHECK(explain_bad_number("2.5d").replacement == "2d12h");
  CHECK(explain_bad_number("1.0001ms").replacement.empty());  // not whole milliseconds
  CHECK(explain_bad_number("512MiB").replacement == "512Mi");
  CHECK(explain_bad_number("1kib").replacement == "1Ki");
  CHECK(explain_bad_number("4K").replacement == "4k");
  CHECK(explain_bad_number("10TB").help == "write '10T' for a power of 10 or '10Ti' for a power of 2");
  CHECK(explain_bad_number("9_000_000").replacement == "9000000");
  CHECK(explain_bad_number("1.").note == "a decimal point needs digits after it");
  CHECK(explain_bad_number("1.2.3").message == "invalid number '1.2.3'");
}

TEST_CASE("durations must list units once, largest first", "[syntax][literals]") {
  for (const char* ok : {"30d", "1h30min", "1d2h3min4s5ms", "250ms", "0s"}) {
    INFO(ok);
    CHECK_FALSE(check_duration(ok));
  }
  const auto order = check_duration("30min2h");
  REQUIRE(order);
  CHECK(order->message == "invalid duration '30min2h': units must go from largest to smallest");
  CHECK(order->replacement == "2h30min");
  const auto twice = check_duration("30s30s");
  REQUIRE(twice);
  CHECK(twice->message == "invalid duration '30s30s': 's' appears twice");
  CHECK(twice->replacement == "1min");
  const auto huge = check_duration("1h99999999999999999999d");
  REQUIRE(huge);
  CHECK(huge->message == "invalid duration '1h99999999999999999999d': units must go from largest to smallest");
  CHECK(huge->replacement.empty());  // too large to rewrite
}

TEST_CASE("durations print largest unit first", "[syntax][literals]") {
  CHECK(format_duration(0) == "0s");
  CHECK(format_duration(5'400'000) == "1h30min");
  CHECK(format_duration(86'400'000 + 1) == "1d1ms");
  CHECK(format_duration(61'000) == "1min1s");
}

TEST_CASE("parser reports an unknown file id as an internal error instead of throwing", "[syntax][errors]") {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  CHECK(mkq::syntax::parse_file(sources, 7, diagnostics) == nullptr);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics.items()[0].code == "E1099");
}
