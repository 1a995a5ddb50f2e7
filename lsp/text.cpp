#include "lsp/text.h"

#include <algorithm>

namespace mkq::lsp {

namespace {

// The length of the UTF-8 sequence that starts with `lead` (1 for a stray
// continuation byte, so that a walk always advances).
std::uint32_t sequence_length(unsigned char lead) {
  if (lead < 0xc0) return 1;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return 4;
}

// The units a character of `bytes` UTF-8 bytes takes in `encoding`.
std::uint32_t units(std::uint32_t bytes, Encoding encoding) {
  if (encoding == Encoding::Utf8) return bytes;
  return bytes == 4 ? 2 : 1;  // outside the basic plane: a surrogate pair
}

}  // namespace

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (std::uint32_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

Position LineIndex::position(std::uint32_t offset, Encoding encoding) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
  const auto line = static_cast<std::uint32_t>(after - starts_.begin() - 1);
  std::uint32_t character = 0;
  for (std::uint32_t at = starts_[line]; at < offset;) {
    const std::uint32_t bytes = sequence_length(static_cast<unsigned char>(text_[at]));
    if (at + bytes > offset) break;  // `offset` is inside this character
    character += units(bytes, encoding);
    at += bytes;
  }
  return {line, character};
}

std::uint32_t LineIndex::offset(Position position, Encoding encoding) const {
  const auto size = static_cast<std::uint32_t>(text_.size());
  if (position.line >= starts_.size()) return size;
  std::uint32_t at = starts_[position.line];
  const std::uint32_t line_end = position.line + 1 < starts_.size() ? starts_[position.line + 1] - 1 : size;
  std::uint32_t character = 0;
  while (at < line_end && character < position.character) {
    const std::uint32_t bytes = std::min(sequence_length(static_cast<unsigned char>(text_[at])), line_end - at);
    const std::uint32_t width = units(bytes, encoding);
    if (character + width > position.character) break;  // inside this character
    character += width;
    at += bytes;
  }
  return at;
}

void apply_change(std::string& text, const Range& range, std::string_view replacement, Encoding encoding) {
  const LineIndex index(text);
  std::uint32_t begin = index.offset(range.start, encoding);
  std::uint32_t end = index.offset(range.end, encoding);
  if (end < begin) std::swap(begin, end);
  text.replace(begin, end - begin, replacement);
}

std::string path_to_uri(const std::string& absolute_path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (const char c : absolute_path) {
    const auto byte = static_cast<unsigned char>(c);
    const bool plain = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                       byte == '-' || byte == '.' || byte == '_' || byte == '~' || byte == '/';
    if (plain) {
      uri += c;
    } else {
      uri += '%';
      uri += kHex[byte >> 4];
      uri += kHex[byte & 0xf];
    }
  }
  return uri;
}

std::optional<std::string> uri_to_path(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.substr(0, scheme.size()) != scheme) return std::nullopt;
  uri.remove_prefix(scheme.size());
  // file://host/path: only the local host (empty or "localhost") is ours.
  const auto slash = uri.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view host = uri.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  uri.remove_prefix(slash);
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string path;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      path += uri[i];
      continue;
    }
    if (i + 2 >= uri.size()) return std::nullopt;  // a '%' without two digits
    const int high = hex(uri[i + 1]);
    const int low = hex(uri[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    path += static_cast<char>(high * 16 + low);
    i += 2;
  }
  if (path.find('\0') != std::string::npos) return std::nullopt;
  return path;
}

}  // namespace mkq::lsp
