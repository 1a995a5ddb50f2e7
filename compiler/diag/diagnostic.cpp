#include "compiler/diag/diagnostic.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>
#include <tuple>

namespace mkq::diag {

Diagnostic& Diagnostics::error(std::string code, SourceRange range, std::string message) {
  return add(Diagnostic{Severity::Error, std::move(code), std::move(message), range, {}, {}});
}

Diagnostic& Diagnostics::warning(std::string code, SourceRange range, std::string message) {
  return add(Diagnostic{Severity::Warning, std::move(code), std::move(message), range, {}, {}});
}

Diagnostic& Diagnostics::add(Diagnostic diagnostic) {
  if (diagnostic.severity == Severity::Error) ++error_count_;
  items_.push_back(std::move(diagnostic));
  return items_.back();
}

namespace {

// Sort key: files by path (a file id depends on load order), then position.
auto sort_key(const Diagnostic& d, const SourceManager& sources) {
  const std::string_view path = d.range.valid() ? std::string_view(sources.file(d.range.file).path) : std::string_view();
  return std::make_tuple(d.range.valid() ? 1 : 0, path, d.range.begin.offset, d.range.end.offset,
                         static_cast<int>(d.severity), std::string_view(d.code), std::string_view(d.message));
}

}  // namespace

std::vector<Diagnostic> Diagnostics::sorted(const SourceManager& sources) const {
  std::vector<Diagnostic> out = items_;
  std::stable_sort(out.begin(), out.end(), [&](const Diagnostic& a, const Diagnostic& b) {
    return sort_key(a, sources) < sort_key(b, sources);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [&](const Diagnostic& a, const Diagnostic& b) {
                          return sort_key(a, sources) == sort_key(b, sources);
                        }),
            out.end());
  return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

}  // namespace

std::optional<std::string> closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  const std::string lowered = lower(word);
  for (const std::string& candidate : candidates) {
    if (candidate == word) continue;
    // Case-only differences count as one edit.
    std::size_t distance = lower(candidate) == lowered ? 1 : edit_distance(lowered, lower(candidate));
    // Plausible typo: at most a third of the longer word, and at least one edit allowed.
    const std::size_t limit = std::max<std::size_t>(1, std::max(word.size(), candidate.size()) / 3);
    if (distance > limit) continue;
    if (!best || distance < best_distance || (distance == best_distance && candidate < *best)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

void suggest_closest(Diagnostic& d, const std::string& word, const std::vector<std::string>& candidates) {
  if (auto match = closest_match(word, candidates)) {
    d.suggestions.push_back(Suggestion{"did you mean '" + *match + "'?", d.range, *match});
  }
}

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::Error: return "\x1b[1;31m";
    case Severity::Warning: return "\x1b[1;33m";
    case Severity::Note: return "\x1b[1;36m";
  }
  return "";
}

std::string location(const SourceRange& range, const SourceManager& sources) {
  if (!range.valid()) return "mkq";
  const SourcePosition begin = sources.begin_of(range);
  return sources.file(range.file).path + ":" + std::to_string(begin.line) + ":" + std::to_string(begin.column);
}

// A source line with its line number, and carets under the part of `range`
// that lies on that line: `^` at the start, `~` for the rest.
void render_snippet(std::string& out, const SourceRange& range, const SourceManager& sources, bool color) {
  if (!range.valid()) return;
  const SourceFile& file = sources.file(range.file);
  if (file.unread) return;  // its text was never read: there is no line to show
  const SourcePosition begin = file.position(range.begin.offset);
  const SourcePosition end = file.position(range.end.offset);
  const std::string_view line = file.line_text(begin.line);
  // Very long lines (minified or generated input) are cut around the caret.
  constexpr std::size_t kMaxShown = 160;
  std::size_t first = 0;
  const std::size_t col = begin.column - 1;
  if (line.size() > kMaxShown && col > kMaxShown / 2) first = col - kMaxShown / 2;
  std::string shown(line.substr(first, kMaxShown));
  for (char& c : shown) {
    if (c == '\t') c = ' ';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  const std::string number = std::to_string(begin.line);
  const std::string gutter(number.size(), ' ');
  out += " " + number + " | " + shown + "\n";
  std::size_t end_col = end.line == begin.line ? end.column - 1 : line.size();
  end_col = std::max(end_col, col + 1);
  std::size_t caret_begin = col - first;
  std::size_t caret_len = std::min(end_col, first + shown.size() + 1) - col;
  if (caret_len == 0) caret_len = 1;
  std::string carets = "^" + std::string(caret_len - 1, '~');
  out += " " + gutter + " | " + std::string(caret_begin, ' ');
  if (color) out += "\x1b[1;32m";
  out += carets;
  if (color) out += "\x1b[0m";
  out += "\n";
}

}  // namespace

std::string render_text(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources,
                        const RenderOptions& options) {
  std::string out;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) ++errors;
    if (d.severity == Severity::Warning) ++warnings;
    out += location(d.range, sources) + ": ";
    if (options.color) out += severity_color(d.severity);
    out += std::string(severity_name(d.severity)) + "[" + d.code + "]";
    if (options.color) out += "\x1b[0m\x1b[1m";
    out += ": " + d.message;
    if (options.color) out += "\x1b[0m";
    out += "\n";
    render_snippet(out, d.range, sources, options.color);
    for (const Note& note : d.notes) {
      if (note.range && note.range->valid()) {
        out += location(*note.range, sources) + ": note: " + note.message + "\n";
        render_snippet(out, *note.range, sources, options.color);
      } else {
        out += "  = note: " + note.message + "\n";
      }
    }
    for (const Suggestion& s : d.suggestions) out += "  = help: " + s.message + "\n";
  }
  if (errors + warnings > 0) {
    std::string summary;
    if (errors > 0) summary += std::to_string(errors) + (errors == 1 ? " error" : " errors");
    if (warnings > 0) {
      if (!summary.empty()) summary += ", ";
      summary += std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
    }
    out += (errors > 0 ? "error: " : "warning: ") + summary + "\n";
  }
  return out;
}

namespace {

nlohmann::ordered_json range_json(const SourceRange& range, const SourceManager& sources) {
  nlohmann::ordered_json j;
  j["file"] = range.valid() ? sources.file(range.file).path : "";
  // An invalid range has no file to count lines in: line 1, column 1.
  const SourcePosition begin = range.valid() ? sources.begin_of(range) : SourcePosition{1, 1, range.begin.offset};
  const SourcePosition end = range.valid() ? sources.end_of(range) : SourcePosition{1, 1, range.end.offset};
  j["start"] = {{"line", begin.line}, {"column", begin.column}, {"offset", begin.offset}};
  j["end"] = {{"line", end.line}, {"column", end.column}, {"offset", end.offset}};
  return j;
}

}  // namespace

std::string render_json(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) ++errors;
    if (d.severity == Severity::Warning) ++warnings;
    nlohmann::ordered_json j;
    j["file"] = d.range.valid() ? sources.file(d.range.file).path : "";
    j["range"] = range_json(d.range, sources);
    j["severity"] = severity_name(d.severity);
    j["code"] = d.code;
    j["message"] = d.message;
    j["notes"] = nlohmann::ordered_json::array();
    for (const Note& note : d.notes) {
      nlohmann::ordered_json n;
      n["message"] = note.message;
      if (note.range && note.range->valid()) n["range"] = range_json(*note.range, sources);
      j["notes"].push_back(n);
    }
    j["suggestions"] = nlohmann::ordered_json::array();
    for (const Suggestion& s : d.suggestions) {
      nlohmann::ordered_json n;
      n["message"] = s.message;
      if (s.range && s.range->valid()) n["range"] = range_json(*s.range, sources);
      n["replacement"] = s.replacement;
      j["suggestions"].push_back(n);
    }
    list.push_back(j);
  }
  nlohmann::ordered_json doc;
  doc["format_version"] = kDiagnosticsJsonFormatVersion;
  doc["diagnostics"] = list;
  doc["errors"] = errors;
  doc["warnings"] = warnings;
  // Invalid UTF-8 in a message or path is replaced, never thrown.
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace mkq::diag
