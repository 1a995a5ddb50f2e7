// Formatted output to a stdio stream as mkq's commands write it: {fmt}'s
// format strings (checked at compile time), and a failed write ignored as
// fprintf ignored it. fmt::print throws std::system_error when the stream
// cannot take the text (a closed or full stderr); a command that did its work
// must not end in "internal error" because a notice could not be written, nor
// an apply stop halfway for it.
//
//   base::print(stderr, "mkq: warning: {}\n", text);
//   base::print("forgot {} objects\n", n);  // stdout
#pragma once

#include <cstdio>
#include <iterator>
#include <utility>

#include <fmt/format.h>

namespace mkq::base {

template <typename... Args>
void print(std::FILE* stream, fmt::format_string<Args...> format, Args&&... args) {
  fmt::memory_buffer text;
  fmt::format_to(std::back_inserter(text), format, std::forward<Args>(args)...);
  std::fwrite(text.data(), 1, text.size(), stream);  // a short write is not an error here (see above)
}

template <typename... Args>
void print(fmt::format_string<Args...> format, Args&&... args) {
  mkq::base::print(stdout, format, std::forward<Args>(args)...);  // qualified: ADL would find fmt::print
}

}  // namespace mkq::base
