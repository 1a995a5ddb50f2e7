// base/time.h: RFC 3339 as mkq writes and reads it; base/clock.h's fixed clock.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <string>

#include "base/clock.h"
#include "base/time.h"
#include "tests/support/fake_clock.h"

using mkq::base::format_rfc3339;
using mkq::base::parse_rfc3339;
using std::chrono::system_clock;

namespace {
const system_clock::time_point kWhen = system_clock::from_time_t(1790000000);  // 2026-09-21T14:13:20Z
}

TEST_CASE("RFC 3339 formats UTC with whole seconds, and dates", "[base][time]") {
  CHECK(format_rfc3339(kWhen) == "2026-09-21T14:13:20Z");
  CHECK(format_rfc3339(kWhen + std::chrono::milliseconds(999)) == "2026-09-21T14:13:20Z");
  CHECK(mkq::base::format_date(kWhen) == "2026-09-21");
}

TEST_CASE("MicroTime formats UTC with six fraction digits", "[base][time]") {
  CHECK(mkq::base::format_micro_time(kWhen) == "2026-09-21T14:13:20.000000Z");
  CHECK(mkq::base::format_micro_time(kWhen + std::chrono::microseconds(1234)) == "2026-09-21T14:13:20.001234Z");
  CHECK(mkq::base::format_micro_time(kWhen - std::chrono::microseconds(1)) == "2026-09-21T14:13:19.999999Z");
  CHECK(parse_rfc3339(mkq::base::format_micro_time(kWhen)) == kWhen);
}

TEST_CASE("RFC 3339 parses Z, offsets and fractions and refuses the rest", "[base][time]") {
  CHECK(parse_rfc3339("2026-09-21T14:13:20Z") == kWhen);
  CHECK(parse_rfc3339("2026-09-21t14:13:20z") == kWhen);
  CHECK(parse_rfc3339("2026-09-21T16:43:20+02:30") == kWhen);
  CHECK(parse_rfc3339("2026-09-21T09:13:20-05:00") == kWhen);
  CHECK(parse_rfc3339("2026-09-21T14:13:20.123456789Z") == kWhen);
  CHECK(parse_rfc3339(format_rfc3339(kWhen)) == kWhen);
  for (const char* bad : {"", "2026-09-21", "2026-09-21 14:13:20Z", "2026-09-21T14:13:20", "2026-13-21T14:13:20Z",
                          "2026-09-21T24:13:20Z", "2026-09-21T14:13:20.Z", "2026-09-21T14:13:20+0200",
                          "2026-09-21T14:13:20Zjunk", "26-9-21T14:13:20Z"}) {
    INFO(bad);
    CHECK_FALSE(parse_rfc3339(bad));
  }
}

TEST_CASE("RFC 3339 times past 2191 are clamped, not overflowed", "[base][time]") {
  const auto far = parse_rfc3339("9999-12-31T23:59:59Z");
  REQUIRE(far);
  CHECK(*far == system_clock::from_time_t(7'000'000'000));
}

TEST_CASE("the local form is RFC 3339 with the zone's offset, as kubectl writes it", "[base][time]") {
  const char* saved = std::getenv("TZ");
  const std::string previous = saved == nullptr ? "" : saved;
  setenv("TZ", "UTC", 1);
  tzset();
  CHECK(mkq::base::format_rfc3339_local(kWhen) == "2026-09-21T14:13:20Z");
  setenv("TZ", "XYZ-02:30", 1);  // POSIX: 2h30 east of UTC
  tzset();
  CHECK(mkq::base::format_rfc3339_local(kWhen) == "2026-09-21T16:43:20+02:30");
  setenv("TZ", "XYZ+05", 1);
  tzset();
  CHECK(mkq::base::format_rfc3339_local(kWhen) == "2026-09-21T09:13:20-05:00");
  if (saved == nullptr)
    unsetenv("TZ");
  else
    setenv("TZ", previous.c_str(), 1);
  tzset();
}

TEST_CASE("a fixed clock stays put, the fake clock moves only when told", "[base][clock]") {
  const mkq::base::FixedClock fixed(kWhen);
  CHECK(fixed.now() == kWhen);
  mkq::testing::FakeClock fake(kWhen);
  CHECK(fake.now() == kWhen);
  fake.advance(std::chrono::hours(13));
  CHECK(format_rfc3339(fake.now()) == "2026-09-22T03:13:20Z");
  const auto before = system_clock::now();
  const auto now = mkq::base::system_clock().now();
  CHECK(now >= before);
}
