#include "runtime/credentials/encoding.h"

#include "runtime/kube/base64.h"

#include <openssl/sha.h>

#include <array>
#include <cstdint>
#include <ctime>

namespace mkq::credentials {

namespace {

std::tm utc_of(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
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

}  // namespace

std::string base64_encode(std::string_view bytes) { return kube::base64_encode(std::string(bytes)); }

std::optional<std::string> base64_decode(std::string_view text) { return kube::base64_decode(std::string(text)); }

std::string sha256_digest(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> hash{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), hash.data());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (const unsigned char b : hash) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::string format_rfc3339(std::chrono::system_clock::time_point time) {
  const std::tm tm = utc_of(time);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string format_date(std::chrono::system_clock::time_point time) {
  const std::tm tm = utc_of(time);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d", &tm);
  return buffer;
}

std::optional<std::chrono::system_clock::time_point> parse_rfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, &year) || text.size() < 20 || text[4] != '-' || !digits(text, 5, 2, &month) ||
      text[7] != '-' || !digits(text, 8, 2, &day) || (text[10] != 'T' && text[10] != 't') ||
      !digits(text, 11, 2, &hour) || text[13] != ':' || !digits(text, 14, 2, &minute) || text[16] != ':' ||
      !digits(text, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {  // fractional seconds: ignored
    ++at;
    const std::size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == start) return std::nullopt;
  }
  if (at >= text.size()) return std::nullopt;
  std::int64_t offset_seconds = 0;
  if (text[at] == 'Z' || text[at] == 'z') {
    ++at;
  } else if (text[at] == '+' || text[at] == '-') {
    int oh = 0, om = 0;
    if (!digits(text, at + 1, 2, &oh) || at + 3 >= text.size() || text[at + 3] != ':' ||
        !digits(text, at + 4, 2, &om)) {
      return std::nullopt;
    }
    offset_seconds = (std::int64_t{oh} * 3600 + std::int64_t{om} * 60) * (text[at] == '+' ? 1 : -1);
    at += 6;
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  std::tm utc{};
  utc.tm_year = year - 1900;
  utc.tm_mon = month - 1;
  utc.tm_mday = day;
  utc.tm_hour = hour;
  utc.tm_min = minute;
  utc.tm_sec = second;
  const std::int64_t seconds = static_cast<std::int64_t>(timegm(&utc)) - offset_seconds;
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
}

}  // namespace mkq::credentials
