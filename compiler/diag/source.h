// Source text and positions shared by every compiler stage.
//
// A SourceManager owns the text of every file read in a run (policy files,
// imported files and embedded stdlib modules). Everything else refers to a file
// by its FileId, so ranges stay small and diagnostics can be rendered after the
// ASTs are gone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mkq::diag {

using FileId = std::uint32_t;
inline constexpr FileId kNoFile = 0xffffffffu;

// The largest source file mkq reads: 8 MiB. A generated policy of 10,000
// queues and 50 workers (bench/generate) is 2.4 MB and 460,000 tokens, so a
// real policy stays far below it (and below the parser's token limit, which
// a dense file reaches at about 5 MB). A larger file is refused from its size
// before any of it is read, so that its text never costs memory; every reader
// of sources (the policy loader, imports, fmt) checks it, and parse_file()
// again for text from elsewhere.
inline constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{8} << 20;

// A point in a file, for people: line and column are 1-based; column counts
// bytes of the line (UTF-8 is shown as is). offset is the 0-based byte offset
// in the file. Computed from a SourceFile's line table (SourceFile::position)
// when a diagnostic is drawn; never stored in a tree.
struct SourcePosition {
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  std::uint32_t offset = 0;

  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// One end of a range: a byte offset in the range's file. A struct (not a bare
// integer) so that `range.begin.offset` reads the same everywhere.
struct SourceOffset {
  std::uint32_t offset = 0;

  friend bool operator==(const SourceOffset&, const SourceOffset&) = default;
};

// A half-open byte range [begin, end) in one file. Every AST node, evaluated
// value and model field carries one, so it is kept to 12 bytes: lines and
// columns are not stored but computed when a diagnostic is drawn
// (SourceFile::position). Invariant: begin <= end <= the file's size.
struct SourceRange {
  FileId file = kNoFile;
  SourceOffset begin;
  SourceOffset end;

  bool valid() const { return file != kNoFile; }
  // The smallest range covering both (same file assumed; otherwise *this).
  SourceRange to(const SourceRange& last) const;
  friend bool operator==(const SourceRange&, const SourceRange&) = default;
};
static_assert(sizeof(SourceRange) == 12);

struct SourceFile {
  std::string path;     // as shown to the user: relative where the user gave it so, "std/gpu" for stdlib
  std::string text;
  bool is_stdlib = false;
  bool unread = false;  // refused before it was read (add_unread()): a name for diagnostics, no text
  std::vector<std::uint32_t> line_starts;  // byte offset of each line's first byte

  // Position of a byte offset (clamped to the text's end).
  SourcePosition position(std::uint32_t offset) const;
  // The byte offset clamped to the text's end: what a range may hold.
  std::uint32_t clamp(std::uint32_t offset) const;
  // The text of 1-based line `line`, without its line break.
  std::string_view line_text(std::uint32_t line) const;
};

class SourceManager {
 public:
  FileId add(std::string path, std::string text, bool is_stdlib = false);
  // A file refused before it was read (too large): diagnostics can point at
  // it by name; it has no text, and no source line is shown.
  FileId add_unread(std::string path);
  const SourceFile& file(FileId id) const { return *files_.at(id); }
  std::size_t size() const { return files_.size(); }
  SourceRange range(FileId id, std::uint32_t begin_offset, std::uint32_t end_offset) const;
  // Where a range begins and ends, in lines and columns of its file (the
  // range must be valid).
  SourcePosition begin_of(const SourceRange& range) const { return file(range.file).position(range.begin.offset); }
  SourcePosition end_of(const SourceRange& range) const { return file(range.file).position(range.end.offset); }

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace mkq::diag
