#include "compiler/diag/diagnostic.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/style.h"

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
    d.suggestions.push_back(Suggestion{fmt::format("did you mean '{}'?", *match), d.range, *match});
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

base::TextStyle severity_style(Severity s) {
  switch (s) {
    case Severity::Error: return base::kBoldRed;
    case Severity::Warning: return base::kBoldYellow;
    case Severity::Note: return base::kBoldCyan;
  }
  return {};
}

// "file:line:col", or "mkq" for a diagnostic about no place in the sources.
void append_location(fmt::memory_buffer& out, const SourceRange& range, const SourceManager& sources) {
  if (!range.valid()) {
    fmt::format_to(std::back_inserter(out), "mkq");
    return;
  }
  const SourcePosition begin = sources.begin_of(range);
  fmt::format_to(std::back_inserter(out), "{}:{}:{}", sources.file(range.file).path, begin.line,
                 begin.column);
}

// A source line with its line number, and carets under the part of `range`
// that lies on that line: `^` at the start, `~` for the rest.
void render_snippet(fmt::memory_buffer& out, const SourceRange& range, const SourceManager& sources,
                    bool color) {
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
  // The gutter is as wide as the line number, blank on the carets' line.
  const std::size_t gutter = fmt::formatted_size("{}", begin.line);
  std::size_t end_col = end.line == begin.line ? end.column - 1 : line.size();
  end_col = std::max(end_col, col + 1);
  const std::size_t caret_begin = col - first;
  std::size_t caret_len = std::min(end_col, first + shown.size() + 1) - col;
  if (caret_len == 0) caret_len = 1;
  const std::string carets = "^" + std::string(caret_len - 1, '~');
  fmt::format_to(std::back_inserter(out), " {} | {}\n {:{}} | {:{}}{}\n", begin.line, shown, "", gutter, "",
                 caret_begin, base::styled(carets, base::kBoldGreen, color));
}

}  // namespace

std::string render_text(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources,
                        const RenderOptions& options) {
  fmt::memory_buffer out;
  const auto it = std::back_inserter(out);
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::Error) ++errors;
    if (d.severity == Severity::Warning) ++warnings;
    // "where: severity[CODE]: message", the severity and code in its color, the message bold.
    append_location(out, d.range, sources);
    const std::string heading = fmt::format("{}[{}]", severity_name(d.severity), d.code);
    const std::string message = fmt::format(": {}", d.message);
    fmt::format_to(it, ": {}{}\n", base::styled(heading, severity_style(d.severity), options.color),
                   base::styled(message, base::kBold, options.color));
    render_snippet(out, d.range, sources, options.color);
    for (const Note& note : d.notes) {
      if (note.range && note.range->valid()) {
        append_location(out, *note.range, sources);
        fmt::format_to(it, ": note: {}\n", note.message);
        render_snippet(out, *note.range, sources, options.color);
      } else {
        fmt::format_to(it, "  = note: {}\n", note.message);
      }
    }
    for (const Suggestion& s : d.suggestions) fmt::format_to(it, "  = help: {}\n", s.message);
  }
  if (errors > 0 && warnings > 0) {
    fmt::format_to(it, "error: {} error{}, {} warning{}\n", errors, errors == 1 ? "" : "s", warnings,
                   warnings == 1 ? "" : "s");
  } else if (errors > 0) {
    fmt::format_to(it, "error: {} error{}\n", errors, errors == 1 ? "" : "s");
  } else if (warnings > 0) {
    fmt::format_to(it, "warning: {} warning{}\n", warnings, warnings == 1 ? "" : "s");
  }
  return fmt::to_string(out);
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
