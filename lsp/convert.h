// Between the compiler's byte ranges and LSP's JSON: positions in the
// negotiated encoding, file URIs, and diagnostics as publishDiagnostics
// carries them.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/diag/diagnostic.h"
#include "lsp/text.h"

namespace mkq::lsp {

using Json = nlohmann::json;

// Positions of the files of one SourceManager (line tables made on first use).
class Positions {
 public:
  Positions(const diag::SourceManager& sources, Encoding encoding) : sources_(sources), encoding_(encoding) {}
  Encoding encoding() const { return encoding_; }
  const LineIndex& lines(diag::FileId file) const;
  Range range(const diag::SourceRange& range) const;
  Json range_json(const diag::SourceRange& range) const;
  // The file's URI; nullopt for a std module or a file without text.
  std::optional<std::string> uri(diag::FileId file) const;
  // {"uri", "range"}; null JSON when the file has no URI.
  Json location(const diag::SourceRange& range) const;
  std::uint32_t offset(diag::FileId file, Position position) const { return lines(file).offset(position, encoding_); }

 private:
  const diag::SourceManager& sources_;
  Encoding encoding_;
  mutable std::map<diag::FileId, std::unique_ptr<LineIndex>> lines_;
};

Json to_json(const Position& position);
Json to_json(const Range& range);
std::optional<Position> position_from_json(const Json& json);
std::optional<Range> range_from_json(const Json& json);

// The notes of one diagnostic sent as relatedInformation, at most: a finding
// about every queue of a 10,000-queue policy has thousands, which no editor
// lists usefully and which would make each publication megabytes long.
inline constexpr std::size_t kMaxRelatedNotes = 100;

// One diagnostic as LSP's Diagnostic: the same code, severity, range and
// message as `mkq check`; notes become relatedInformation (a note without a
// range, and every "help", at the diagnostic's own place; past
// kMaxRelatedNotes, one note says how many more there are).
Json diagnostic_json(const diag::Diagnostic& diagnostic, const Positions& positions);

}  // namespace mkq::lsp
