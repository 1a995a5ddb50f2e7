#include "base/style.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using mkq::base::styled;

TEST_CASE("styled text carries the SGR escapes only when color is on", "[base][style]") {
  CHECK(fmt::format("{}", styled("error[E1001]", mkq::base::kBoldRed, true)) == "\x1b[1;31merror[E1001]\x1b[0m");
  CHECK(fmt::format("{}", styled("error[E1001]", mkq::base::kBoldRed, false)) == "error[E1001]");
  CHECK(fmt::format("{}", styled("+", mkq::base::kGreen, true)) == "\x1b[32m+\x1b[0m");
  CHECK(fmt::format("{}", styled(": msg", mkq::base::kBold, true)) == "\x1b[1m: msg\x1b[0m");
  CHECK(fmt::format("{}", styled("plain", mkq::base::TextStyle{}, true)) == "plain");
}

TEST_CASE("styled text keeps width and alignment like a string", "[base][style]") {
  CHECK(fmt::format("[{:<6}]", styled("ab", mkq::base::kRed, false)) == "[ab    ]");
  CHECK(fmt::format("[{:<6}]", styled("ab", mkq::base::kRed, true)) == "[\x1b[31mab    \x1b[0m]");
}

TEST_CASE("cursor control sequences", "[base][style]") {
  CHECK(fmt::format("{}", mkq::base::CursorUp{3}) == "\x1b[3A");
  CHECK(mkq::base::kEraseLine == "\x1b[2K");
}

TEST_CASE("color_wanted: --no-color, NO_COLOR and a terminal", "[base][style]") {
  CHECK(mkq::base::color_wanted(false, nullptr, true));
  CHECK_FALSE(mkq::base::color_wanted(false, nullptr, false));
  CHECK_FALSE(mkq::base::color_wanted(true, nullptr, true));
  CHECK_FALSE(mkq::base::color_wanted(false, "1", true));
  CHECK(mkq::base::color_wanted(false, "", true));  // set but empty: no-color.org says it does not count
}
