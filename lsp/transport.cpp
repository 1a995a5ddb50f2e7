#include "lsp/transport.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <iterator>

#include <fmt/format.h>

namespace mkq::lsp {

namespace {

constexpr std::string_view kHeaderEnd = "\r\n\r\n";

Incoming malformed(std::string error) { return {Incoming::Kind::Malformed, "", std::move(error)}; }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The Content-Length of a header block (without its final blank line), or
// the reason there is none usable. SIZE_MAX-sized numbers never overflow: a
// value over kMaxBodyBytes is reported by the caller from `too_large`.
struct Length {
  std::optional<std::size_t> value;
  bool too_large = false;
  std::string error;
};

Length content_length(std::string_view headers) {
  Length result;
  while (!headers.empty()) {
    const auto end = headers.find("\r\n");
    const std::string_view line = headers.substr(0, end);
    headers = end == std::string_view::npos ? std::string_view{} : headers.substr(end + 2);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      result.error = "a header line without ':'";
      return result;
    }
    if (!equals_ignoring_case(trimmed(line.substr(0, colon)), "content-length")) continue;
    const std::string_view digits = trimmed(line.substr(colon + 1));
    if (digits.empty() || digits.size() > 12 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      result.error = "Content-Length is not a number";
      return result;
    }
    std::size_t value = 0;
    for (const char c : digits) value = value * 10 + static_cast<std::size_t>(c - '0');
    result.value = value;
    result.too_large = value > kMaxBodyBytes;
  }
  if (!result.value) result.error = "no Content-Length header";
  return result;
}

}  // namespace

std::string frame(std::string_view body) {
  std::string framed;
  framed.reserve(body.size() + 32);
  fmt::format_to(std::back_inserter(framed), "Content-Length: {}\r\n\r\n{}", body.size(), body);
  return framed;
}

void FrameReader::feed(std::string_view bytes) {
  if (skipping_ > 0) {
    const std::size_t dropped = std::min(skipping_, bytes.size());
    skipping_ -= dropped;
    bytes.remove_prefix(dropped);
  }
  buffer_.append(bytes);
}

std::optional<Incoming> FrameReader::next() {
  if (skipping_ > 0) {
    if (!finished_) return std::nullopt;
    skipping_ = 0;
    return Incoming{};  // the input ended inside a skipped body
  }
  // Blank lines between frames are tolerated.
  const auto first = buffer_.find_first_not_of("\r\n");
  buffer_.erase(0, first == std::string::npos ? buffer_.size() : first);
  if (buffer_.empty()) return finished_ ? std::optional<Incoming>(Incoming{}) : std::nullopt;
  const auto header_end = buffer_.find(kHeaderEnd);
  if (header_end == std::string::npos) {
    if (buffer_.size() > kMaxHeaderBytes) {
      buffer_.clear();
      return malformed(fmt::format("a header block over {} bytes", kMaxHeaderBytes));
    }
    if (!finished_) return std::nullopt;
    buffer_.clear();
    return malformed("the input ended inside a header block");
  }
  if (header_end > kMaxHeaderBytes) {
    buffer_.erase(0, header_end + kHeaderEnd.size());
    return malformed(fmt::format("a header block over {} bytes", kMaxHeaderBytes));
  }
  const Length length = content_length(std::string_view(buffer_).substr(0, header_end));
  if (!length.value) {
    buffer_.erase(0, header_end + kHeaderEnd.size());
    return malformed(length.error);
  }
  const std::size_t body_start = header_end + kHeaderEnd.size();
  if (length.too_large) {
    const std::size_t present = std::min(buffer_.size() - body_start, *length.value);
    skipping_ = *length.value - present;
    buffer_.erase(0, body_start + present);
    return malformed(
        fmt::format("a message of {} bytes, over the limit of {}", *length.value, kMaxBodyBytes));
  }
  if (buffer_.size() - body_start < *length.value) {
    if (!finished_) return std::nullopt;
    buffer_.clear();
    return malformed("the input ended inside a message body");
  }
  Incoming message{Incoming::Kind::Message, buffer_.substr(body_start, *length.value), ""};
  buffer_.erase(0, body_start + *length.value);
  return message;
}

void StdioTransport::fill(int timeout_ms) {
  pollfd descriptor{in_, POLLIN, 0};
  const int polled = ::poll(&descriptor, 1, timeout_ms);
  if (polled < 0 && errno == EINTR) return;
  if (polled <= 0) {
    if (polled < 0) reader_.finish();
    return;
  }
  char chunk[65536];
  const ssize_t got = ::read(in_, chunk, sizeof chunk);
  if (got < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (got <= 0) {
    reader_.finish();
    return;
  }
  reader_.feed(std::string_view(chunk, static_cast<std::size_t>(got)));
}

bool StdioTransport::wait(std::optional<std::chrono::milliseconds> timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout.value_or(std::chrono::milliseconds(0));
  bool polled = false;  // the input is looked at at least once, even with a timeout of 0
  while (true) {
    if (!ready_.empty()) return true;
    if (auto frame = reader_.next()) {
      ready_.push_back(std::move(*frame));
      return true;
    }
    int wait_ms = -1;
    if (timeout) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 && polled) return false;
      wait_ms = static_cast<int>(std::clamp<long long>(left.count(), 0, 60'000));
    }
    fill(wait_ms);
    polled = true;
  }
}

Incoming StdioTransport::read() {
  wait(std::nullopt);
  Incoming frame = std::move(ready_.front());
  ready_.pop_front();
  return frame;
}

void StdioTransport::write(const std::string& body) {
  const std::string framed = frame(body);
  std::size_t sent = 0;
  while (sent < framed.size()) {
    const ssize_t wrote = ::write(out_, framed.data() + sent, framed.size() - sent);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return;  // the client is gone: the next read sees the end
    sent += static_cast<std::size_t>(wrote);
  }
}

}  // namespace mkq::lsp
