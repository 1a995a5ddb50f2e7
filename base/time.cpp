// RFC 3339 formatting and parsing (see time.h).
#include "base/time.h"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <iterator>

#include <fmt/format.h>

namespace mkq::base {

namespace {

std::tm utc_of(TimePoint time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}

std::string formatted(const std::tm& tm, const char* format) {
  char buffer[40];
  const std::size_t n = std::strftime(buffer, sizeof buffer, format, &tm);
  return std::string(buffer, n);
}

bool digits(std::string_view text, std::size_t at, std::size_t count, int* out) {
  if (at + count > text.size()) return false;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

// The offset after the seconds: "Z", "+hh:mm" or "-hh:mm" ending the text.
std::optional<std::int64_t> offset_seconds(std::string_view text, std::size_t at) {
  if (at >= text.size()) return std::nullopt;
  if (text[at] == 'Z' || text[at] == 'z') return at + 1 == text.size() ? std::optional<std::int64_t>(0) : std::nullopt;
  if (text[at] != '+' && text[at] != '-') return std::nullopt;
  int hours = 0, minutes = 0;
  if (!digits(text, at + 1, 2, &hours) || at + 3 >= text.size() || text[at + 3] != ':' ||
      !digits(text, at + 4, 2, &minutes) || at + 6 != text.size()) {
    return std::nullopt;
  }
  return (std::int64_t{hours} * 3600 + std::int64_t{minutes} * 60) * (text[at] == '+' ? 1 : -1);
}

}  // namespace

std::string format_rfc3339(TimePoint time) { return formatted(utc_of(time), "%Y-%m-%dT%H:%M:%SZ"); }

std::string format_micro_time(TimePoint time) {
  const auto since_epoch = std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
  long long micros = since_epoch % 1000000;
  if (micros < 0) micros += 1000000;
  const TimePoint whole = time - std::chrono::microseconds(micros);
  std::string out = formatted(utc_of(whole), "%Y-%m-%dT%H:%M:%S");
  fmt::format_to(std::back_inserter(out), ".{:06}Z", micros);
  return out;
}

std::string format_rfc3339_local(TimePoint time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm local{};
  localtime_r(&seconds, &local);
  std::string out = formatted(local, "%Y-%m-%dT%H:%M:%S");
  const long offset = local.tm_gmtoff;
  if (offset == 0) return out + "Z";
  const long minutes = (offset < 0 ? -offset : offset) / 60;
  fmt::format_to(std::back_inserter(out), "{}{:02}:{:02}", offset < 0 ? '-' : '+', minutes / 60, minutes % 60);
  return out;
}

std::string format_date(TimePoint time) { return formatted(utc_of(time), "%Y-%m-%d"); }

std::optional<TimePoint> parse_rfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, &year) || text.size() < 20 || text[4] != '-' || !digits(text, 5, 2, &month) ||
      text[7] != '-' || !digits(text, 8, 2, &day) || (text[10] != 'T' && text[10] != 't') ||
      !digits(text, 11, 2, &hour) || text[13] != ':' || !digits(text, 14, 2, &minute) || text[16] != ':' ||
      !digits(text, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {  // fractional seconds: ignored
    ++at;
    const std::size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == start) return std::nullopt;
  }
  const std::optional<std::int64_t> offset = offset_seconds(text, at);
  if (!offset) return std::nullopt;
  std::tm utc{};
  utc.tm_year = year - 1900;
  utc.tm_mon = month - 1;
  utc.tm_mday = day;
  utc.tm_hour = hour;
  utc.tm_min = minute;
  utc.tm_sec = second;
  constexpr std::int64_t kLatest = 7'000'000'000;  // the year 2191
  const std::int64_t seconds = std::min<std::int64_t>(static_cast<std::int64_t>(timegm(&utc)) - *offset, kLatest);
  return std::chrono::system_clock::from_time_t(static_cast<std::time_t>(seconds));
}

}  // namespace mkq::base
