#include "cli/run_options.h"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "base/clock.h"
#include "base/time.h"
#include "cli/compile.h"
#include "cli/terminal_ui.h"

namespace mkq::cli {

bool parse_duration(const std::string& text, std::chrono::milliseconds* out) {
  if (text.empty()) return false;
  long long total_ms = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    long long number = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      number = number * 10 + (text[i] - '0');
      if (number > 10'000'000) return false;
      ++i;
    }
    long long unit_ms = 1000;  // a bare number is seconds
    if (i < text.size()) {
      if (text.compare(i, 2, "ms") == 0) {
        unit_ms = 1;
        i += 2;
      } else if (text[i] == 's') {
        ++i;
      } else if (text[i] == 'm') {
        unit_ms = 60'000;
        ++i;
      } else if (text[i] == 'h') {
        unit_ms = 3'600'000;
        ++i;
      } else {
        return false;
      }
    } else if (any) {
      return false;  // "1m30" is ambiguous
    }
    total_ms += number * unit_ms;
    any = true;
  }
  *out = std::chrono::milliseconds(total_ms);
  return true;
}

bool wait_option(bool wait, const std::string& duration, std::optional<std::chrono::milliseconds>* out) {
  out->reset();
  if (!wait) return true;
  std::chrono::milliseconds parsed{};
  if (!parse_duration(duration, &parsed)) {
    error_line(fmt::format("--wait takes a duration such as 90s, 5m or 1h30m, not \"{}\"", duration));
    return false;
  }
  *out = parsed;
  return true;
}

bool run_options(const std::string& path, const RuntimeOptions& runtime, const GlobalOptions& global,
                 operation::RunOptions* out) {
  out->path = path;
  out->runtime = runtime;
  out->compile = compile_options(global);
  out->verbose = global.verbose;
  // The composition root's one choice of clock (base/clock.h) for the
  // credential provider: the system's, or a clock fixed at MKQ_NOW (RFC 3339
  // UTC, "2026-12-20T00:00:00Z") for end-to-end tests of expiry and rotation
  // (docs/apply.md). The only place the shipped binary reads MKQ_NOW. A
  // malformed MKQ_NOW is an error rather than silently the real time.
  const char* now = std::getenv("MKQ_NOW");
  if (now == nullptr || *now == '\0') return true;
  const std::optional<base::TimePoint> at = base::parse_rfc3339(now);
  if (!at || std::string_view(now).back() != 'Z') {
    error_line(fmt::format("MKQ_NOW must be a UTC time such as 2026-12-20T00:00:00Z, not \"{}\"", now));
    return false;
  }
  static std::optional<base::FixedClock> fixed;  // lives as long as the process: one MKQ_NOW per run
  fixed.emplace(*at);
  out->clock = &*fixed;
  return true;
}

}  // namespace mkq::cli
