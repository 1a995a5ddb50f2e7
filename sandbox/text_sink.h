// Where the sandbox's commands (up, down, status, serve) write what they say:
// the terminal for `mkq sandbox ...`, a string for a run of mkq that starts
// the sandbox and shows its words through its own UI. The text is formatted
// by the caller with {fmt}; a sink only takes it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace mkq::sandbox {

class TextSink {
 public:
  explicit TextSink(std::function<void(std::string_view)> write, std::function<void()> flush = {})
      : write_(std::move(write)), flush_(std::move(flush)) {}
  TextSink& operator<<(std::string_view text) {
    write_(text);
    return *this;
  }
  // What was written reaches its destination now (serve's log lines, read while it runs).
  void flush() {
    if (flush_) flush_();
  }

  // A sink that appends to `text`, which must outlive it.
  static TextSink into(std::string& text) {
    return TextSink([&text](std::string_view more) { text.append(more); });
  }

 private:
  std::function<void(std::string_view)> write_;
  std::function<void()> flush_;
};

}  // namespace mkq::sandbox
