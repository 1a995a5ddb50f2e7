#include "cli/run_options.h"

#include <cctype>
#include <cstdlib>
#include <ctime>

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
    error_line("--wait takes a duration such as 90s, 5m or 1h30m, not \"" + duration + "\"");
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
  const char* now = std::getenv("MKQ_NOW");
  if (now == nullptr || *now == '\0') return true;
  std::tm utc{};
  const char* end = strptime(now, "%Y-%m-%dT%H:%M:%SZ", &utc);
  if (end == nullptr || *end != '\0') {
    error_line(std::string("MKQ_NOW must be a UTC time such as 2026-12-20T00:00:00Z, not \"") + now + "\"");
    return false;
  }
  const auto fixed = std::chrono::system_clock::from_time_t(timegm(&utc));
  out->now = [fixed] { return fixed; };
  return true;
}

}  // namespace mkq::cli
