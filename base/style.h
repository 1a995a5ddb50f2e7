// Terminal styles on top of {fmt}: the one place mkq writes ANSI escape
// sequences, and the one rule for whether it may.
//
//   fmt::format("{}: {}", where, base::styled("error[E1001]", base::kBoldRed, color))
//
// writes "\x1b[1;31merror[E1001]\x1b[0m" when `color` is on and the bare text
// when it is off. Whether color is on is decided once, by color_wanted(), from
// --no-color, NO_COLOR (https://no-color.org: set and not empty) and whether the
// output is a terminal; the composition root (cli/main.cpp) asks the process
// and passes the answer down as a bool.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <fmt/format.h>

namespace mkq::base {

// The SGR foreground colors mkq uses (ECMA-48 codes 31-36).
enum class Color : std::uint8_t { none = 0, red = 31, green = 32, yellow = 33, blue = 34, magenta = 35, cyan = 36 };

struct TextStyle {
  bool bold = false;
  Color color = Color::none;
};

inline constexpr TextStyle kBold{true, Color::none};
inline constexpr TextStyle kRed{false, Color::red};
inline constexpr TextStyle kGreen{false, Color::green};
inline constexpr TextStyle kYellow{false, Color::yellow};
inline constexpr TextStyle kCyan{false, Color::cyan};
inline constexpr TextStyle kBoldRed{true, Color::red};
inline constexpr TextStyle kBoldGreen{true, Color::green};
inline constexpr TextStyle kBoldYellow{true, Color::yellow};
inline constexpr TextStyle kBoldCyan{true, Color::cyan};

// A text to be written in a style, or plainly when `on` is false. Formats with
// {fmt} ("{}"); it refers to `text`, so use it within the expression.
struct Styled {
  std::string_view text;
  TextStyle style;
  bool on = false;
};

constexpr Styled styled(std::string_view text, TextStyle style, bool on) { return Styled{text, style, on}; }

// The escape that starts `style` ("\x1b[1;31m"), and the one that resets every style.
void append_style_start(fmt::memory_buffer& out, TextStyle style);
inline constexpr std::string_view kStyleReset = "\x1b[0m";

// Cursor control for redrawn progress lines: move up `lines` lines; erase the whole line.
struct CursorUp {
  std::size_t lines = 0;
};
inline constexpr std::string_view kEraseLine = "\x1b[2K";

// The one rule: color only when no --no-color, no non-empty NO_COLOR, and the
// stream written is a terminal. `no_color_env` is getenv("NO_COLOR"), may be null.
bool color_wanted(bool no_color_flag, const char* no_color_env, bool is_terminal);

}  // namespace mkq::base

template <>
struct fmt::formatter<mkq::base::Styled> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const mkq::base::Styled& s, FormatContext& ctx) const -> decltype(ctx.out()) {
    if (!s.on || (!s.style.bold && s.style.color == mkq::base::Color::none)) {
      return fmt::formatter<std::string_view>::format(s.text, ctx);
    }
    // The escapes around the text, and any width or alignment applied to the text inside them.
    fmt::memory_buffer start;
    mkq::base::append_style_start(start, s.style);
    ctx.advance_to(std::copy(start.begin(), start.end(), ctx.out()));
    auto out = fmt::formatter<std::string_view>::format(s.text, ctx);
    return std::copy(mkq::base::kStyleReset.begin(), mkq::base::kStyleReset.end(), out);
  }
};

template <>
struct fmt::formatter<mkq::base::CursorUp> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const mkq::base::CursorUp& c, FormatContext& ctx) const -> decltype(ctx.out()) {
    return fmt::format_to(ctx.out(), "\x1b[{}A", c.lines);
  }
};
