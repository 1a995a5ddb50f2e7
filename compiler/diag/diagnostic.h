// Diagnostics are values: every compiler stage appends them to a Diagnostics
// collection and never prints. The driver sorts them by location and renders
// them once, as text for people or JSON for editors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"

namespace mkq::diag {

enum class Severity { Error, Warning, Note };

// A secondary location or explanation ("note: first declared here").
struct Note {
  std::string message;
  std::optional<SourceRange> range;
};

// A proposed fix: "did you mean 'clusterqueue'?". replacement is the text that
// would replace `range` (empty when the suggestion is only advice).
struct Suggestion {
  std::string message;
  std::optional<SourceRange> range;
  std::string replacement;
};

// One finding. Invariants: code is stable across releases (documented in
// docs/diagnostics.md); message starts lower-case and has no final period.
struct Diagnostic {
  Severity severity = Severity::Error;
  std::string code;
  std::string message;
  SourceRange range;
  std::vector<Note> notes;
  std::vector<Suggestion> suggestions;
};

class Diagnostics {
 public:
  // Appends a diagnostic and returns it so that notes and suggestions can be added.
  Diagnostic& error(std::string code, SourceRange range, std::string message);
  Diagnostic& warning(std::string code, SourceRange range, std::string message);
  Diagnostic& add(Diagnostic diagnostic);

  bool has_errors() const { return error_count_ > 0; }
  std::size_t error_count() const { return error_count_; }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }

  // Sorted by (file path, offset), then code; exact duplicates removed.
  std::vector<Diagnostic> sorted(const SourceManager& sources) const;

 private:
  std::vector<Diagnostic> items_;
  std::size_t error_count_ = 0;
};

// "did you mean" helper: the candidate closest to `word` by edit distance, if it
// is close enough to be a plausible typo.
std::optional<std::string> closest_match(const std::string& word,
                                         const std::vector<std::string>& candidates);

// Adds "did you mean 'X'?" to `d` when a close candidate exists.
void suggest_closest(Diagnostic& d, const std::string& word,
                     const std::vector<std::string>& candidates);

struct RenderOptions {
  bool color = false;
};

// file:line:col: error[CODE]: message
//   12 |   quota "default-flavor" { cpu = 9Gx }
//      |                                  ^~~
//   = note: ...
//   = help: did you mean 'x'?
// followed by a summary line ("error: 3 errors") when any errors were rendered.
std::string render_text(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources,
                        const RenderOptions& options = {});

// The version of the diagnostics document (`mkq check --format json`,
// docs/json.md): raised when a field changes meaning or goes.
inline constexpr int kDiagnosticsJsonFormatVersion = 1;

// {"diagnostics":[{"file","range":{"start":{"line","column","offset"},"end":...},
//   "severity","code","message","notes":[...],"suggestions":[...]}], "errors":N, "warnings":N}
std::string render_json(const std::vector<Diagnostic>& diagnostics, const SourceManager& sources);

}  // namespace mkq::diag
