#include "lsp/convert.h"

#include <fmt/format.h>

namespace mkq::lsp {

const LineIndex& Positions::lines(diag::FileId file) const {
  auto& slot = lines_[file];
  if (!slot) slot = std::make_unique<LineIndex>(sources_.file(file).text);
  return *slot;
}

Range Positions::range(const diag::SourceRange& range) const {
  if (!range.valid()) return {};
  return lines(range.file).range(range.begin.offset, range.end.offset, encoding_);
}

Json Positions::range_json(const diag::SourceRange& range) const { return to_json(this->range(range)); }

std::optional<std::string> Positions::uri(diag::FileId file) const {
  if (file == diag::kNoFile || file >= sources_.size()) return std::nullopt;
  const diag::SourceFile& source = sources_.file(file);
  if (source.is_stdlib || source.unread || source.path.empty() || source.path.front() != '/') return std::nullopt;
  return path_to_uri(source.path);
}

Json Positions::location(const diag::SourceRange& range) const {
  const auto file_uri = uri(range.file);
  if (!file_uri) return nullptr;
  return {{"uri", *file_uri}, {"range", range_json(range)}};
}

Json to_json(const Position& position) { return {{"line", position.line}, {"character", position.character}}; }

Json to_json(const Range& range) { return {{"start", to_json(range.start)}, {"end", to_json(range.end)}}; }

std::optional<Position> position_from_json(const Json& json) {
  if (!json.is_object() || !json.contains("line") || !json.contains("character")) return std::nullopt;
  const Json& line = json["line"];
  const Json& character = json["character"];
  if (!line.is_number_unsigned() || !character.is_number_unsigned()) return std::nullopt;
  return Position{line.get<std::uint32_t>(), character.get<std::uint32_t>()};
}

std::optional<Range> range_from_json(const Json& json) {
  if (!json.is_object() || !json.contains("start") || !json.contains("end")) return std::nullopt;
  const auto start = position_from_json(json["start"]);
  const auto end = position_from_json(json["end"]);
  if (!start || !end) return std::nullopt;
  return Range{*start, *end};
}

Json diagnostic_json(const diag::Diagnostic& diagnostic, const Positions& positions) {
  static constexpr int kSeverities[] = {1, 2, 3};  // Error, Warning, Note -> Error, Warning, Information
  Json result = {{"range", positions.range_json(diagnostic.range)},
                 {"severity", kSeverities[static_cast<int>(diagnostic.severity)]},
                 {"code", diagnostic.code},
                 {"source", "mkq"},
                 {"message", diagnostic.message}};
  Json related = Json::array();
  const Json here = positions.location(diagnostic.range);
  std::size_t shown = 0;
  for (const auto& note : diagnostic.notes) {
    if (shown == kMaxRelatedNotes && !here.is_null()) {
      related.push_back({{"location", here},
                         {"message", fmt::format("note: {} more notes (mkq check lists them all)",
                                                 diagnostic.notes.size() - shown)}});
      break;
    }
    ++shown;
    Json location = note.range ? positions.location(*note.range) : here;
    if (location.is_null()) location = here;
    if (location.is_null()) continue;
    related.push_back({{"location", location}, {"message", fmt::format("note: {}", note.message)}});
  }
  for (const auto& suggestion : diagnostic.suggestions) {
    if (here.is_null()) continue;
    related.push_back({{"location", here}, {"message", fmt::format("help: {}", suggestion.message)}});
  }
  if (!related.empty()) result["relatedInformation"] = std::move(related);
  return result;
}

}  // namespace mkq::lsp
