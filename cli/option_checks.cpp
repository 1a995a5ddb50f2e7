#include "cli/option_checks.h"

#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace mkq::cli {

namespace {

// The whole of `text` as a T; false when it is not one (or holds more).
template <typename T>
bool parse_all(const std::string& text, T* out) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, *out);
  return error == std::errc() && stop == end && !text.empty();
}

// "" when `text` is a T in [min, max], else why not ("must be at least 0.1").
template <typename T>
std::string refusal(const std::string& text, T min, T max, const char* kind) {
  T value{};
  if (!parse_all(text, &value)) return fmt::format("must be {}, not \"{}\"", kind, text);
  if (value < min) return fmt::format("must be at least {}", min);
  if (value > max) return fmt::format("must be at most {}", max);
  return "";
}

}  // namespace

Within::Within(double min, double max) : CLI::Range(min, max) {
  func_ = [min, max](std::string& text) { return refusal(text, min, max, "a number"); };
}

Within::Within(int min, int max) : CLI::Range(min, max) {
  func_ = [min, max](std::string& text) { return refusal(text, min, max, "a whole number"); };
}

std::string without_colon(const std::string& what) {
  const std::size_t at = what.find(": must be ");
  if (at == std::string::npos || what.rfind("--", 0) != 0 || what.find(' ') < at) return what;
  return what.substr(0, at) + what.substr(at + 1);
}

}  // namespace mkq::cli
