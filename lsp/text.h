// Text positions as the Language Server Protocol counts them, and the edits
// a client sends.
//
// The compiler counts byte offsets; LSP counts a line and a column in units of
// the negotiated encoding: UTF-16 code units by default, bytes when the client
// offers "utf-8". Lines end at '\n' (as the compiler's line starts do).
// Everything here is computed from the text itself, never from a range's
// line/column fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mkq::lsp {

enum class Encoding { Utf16, Utf8 };

// A zero-based line and a column in the encoding's units.
struct Position {
  std::uint32_t line = 0;
  std::uint32_t character = 0;
  friend bool operator==(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

// The line starts of one text, for converting between byte offsets and
// positions. Keeps a view of the text: the text must outlive it and not change.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  // The position of byte `offset` (clamped to the text's end; an offset
  // inside a UTF-8 sequence counts as its start).
  Position position(std::uint32_t offset, Encoding encoding) const;
  // The byte offset of `position`: a line past the end gives the text's end,
  // a column past the line's end gives the line's end, and a column inside a
  // character (the second half of a UTF-16 surrogate pair) gives its start.
  std::uint32_t offset(Position position, Encoding encoding) const;
  Range range(std::uint32_t begin, std::uint32_t end, Encoding encoding) const {
    return {position(begin, encoding), position(end, encoding)};
  }
  std::size_t line_count() const { return starts_.size(); }
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
  std::vector<std::uint32_t> starts_;  // byte offset of each line's first byte
};

// Replaces the text of `range` (positions in `encoding`) with `replacement`:
// one change of textDocument/didChange.
void apply_change(std::string& text, const Range& range, std::string_view replacement, Encoding encoding);

// file:// URIs and paths. Percent-encoding as VS Code writes it: every byte
// but unreserved characters and '/' is escaped.
std::string path_to_uri(const std::string& absolute_path);
// The path of a file:// URI; nullopt for another scheme or a malformed one.
std::optional<std::string> uri_to_path(std::string_view uri);

}  // namespace mkq::lsp
