#include "compiler/diag/source.h"

#include <algorithm>

namespace mkq::diag {

SourceRange SourceRange::to(const SourceRange& last) const {
  if (last.file != file) return *this;
  SourceRange r = *this;
  if (last.begin.offset < r.begin.offset) r.begin = last.begin;
  if (last.end.offset > r.end.offset) r.end = last.end;
  return r;
}

SourcePosition SourceFile::position(std::uint32_t offset) const {
  const auto size = static_cast<std::uint32_t>(text.size());
  offset = std::min(offset, size);
  // The last line start that is <= offset.
  auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
  const auto index = static_cast<std::uint32_t>(it - line_starts.begin()) - 1;
  return SourcePosition{index + 1, offset - line_starts[index] + 1, offset};
}

std::uint32_t SourceFile::clamp(std::uint32_t offset) const {
  return std::min(offset, static_cast<std::uint32_t>(text.size()));
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  const std::uint32_t begin = line_starts[line - 1];
  std::uint32_t end = line < line_starts.size() ? line_starts[line] : static_cast<std::uint32_t>(text.size());
  std::string_view view(text.data() + begin, end - begin);
  while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) view.remove_suffix(1);
  return view;
}

FileId SourceManager::add(std::string path, std::string text, bool is_stdlib) {
  auto file = std::make_unique<SourceFile>();
  file->path = std::move(path);
  file->text = std::move(text);
  file->is_stdlib = is_stdlib;
  file->line_starts.push_back(0);
  for (std::uint32_t i = 0; i < file->text.size(); ++i) {
    if (file->text[i] == '\n') file->line_starts.push_back(i + 1);
  }
  files_.push_back(std::move(file));
  return static_cast<FileId>(files_.size() - 1);
}

FileId SourceManager::add_unread(std::string path) {
  const FileId id = add(std::move(path), std::string());
  files_.back()->unread = true;
  return id;
}

SourceRange SourceManager::range(FileId id, std::uint32_t begin_offset, std::uint32_t end_offset) const {
  const SourceFile& f = file(id);
  return SourceRange{id, {f.clamp(begin_offset)}, {f.clamp(std::max(begin_offset, end_offset))}};
}

}  // namespace mkq::diag
