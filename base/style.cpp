#include "base/style.h"

#include <iterator>

namespace mkq::base {

void append_style_start(fmt::memory_buffer& out, TextStyle style) {
  const auto it = std::back_inserter(out);
  if (style.bold && style.color != Color::none) {
    fmt::format_to(it, "\x1b[1;{}m", static_cast<int>(style.color));
  } else if (style.bold) {
    fmt::format_to(it, "\x1b[1m");
  } else if (style.color != Color::none) {
    fmt::format_to(it, "\x1b[{}m", static_cast<int>(style.color));
  }
}

bool color_wanted(bool no_color_flag, const char* no_color_env, bool is_terminal) {
  if (no_color_flag) return false;
  if (no_color_env != nullptr && *no_color_env != '\0') return false;
  return is_terminal;
}

}  // namespace mkq::base
