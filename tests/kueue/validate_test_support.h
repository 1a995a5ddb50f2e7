// Test support for compile-time Kueue validation: compiles policy text held in
// memory (sema::analyze with an InMemoryFileSystem) and runs kueue::validate()
// on the model, keeping every diagnostic so tests can look at codes, messages,
// places and notes.
#pragma once

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/codes.h"
#include "compiler/kueue/validate.h"
#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"
#include "compiler/sema/model.h"

namespace validatetest {

namespace codes = mkq::kueue::codes;
namespace model = mkq::sema::model;
using mkq::diag::Diagnostic;

struct Checked {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  std::optional<model::Policy> policy;
  bool validated = false;

  std::vector<Diagnostic> all() const { return diagnostics.sorted(sources); }

  std::vector<Diagnostic> with_code(const std::string& code) const {
    std::vector<Diagnostic> found;
    for (const Diagnostic& d : all()) {
      if (d.code == code) found.push_back(d);
    }
    return found;
  }

  // The one diagnostic of the run, which must have `code`.
  Diagnostic only(const std::string& code) const {
    INFO(summary());
    REQUIRE(validated);
    REQUIRE(diagnostics.size() == 1);
    REQUIRE(diagnostics.items().front().code == code);
    return diagnostics.items().front();
  }

  // "line:column" where a diagnostic (or a note's range) starts.
  std::string at(const mkq::diag::SourceRange& range) const {
    const mkq::diag::SourcePosition begin = sources.begin_of(range);
    return std::to_string(begin.line) + ":" + std::to_string(begin.column);
  }

  std::string summary() const {
    std::string text;
    for (const Diagnostic& d : all()) text += at(d.range) + " " + d.code + " " + d.message + "\n";
    return text.empty() ? "no diagnostics" : text;
  }
};

// Compiles `text` as the policy file /policy/main.mkq; validates the model
// when the language accepts it (as `mkq check` does).
inline std::unique_ptr<Checked> check(const std::string& text) {
  auto result = std::make_unique<Checked>();
  mkq::sema::InMemoryFileSystem fs;
  fs.add("/policy/main.mkq", text);
  result->policy = mkq::sema::analyze("/policy/main.mkq", fs, result->sources, result->diagnostics);
  if (result->policy && !result->diagnostics.has_errors()) {
    mkq::kueue::validate(*result->policy, result->diagnostics);
    result->validated = true;
  }
  return result;
}

// Requires that `text` compiles and validates with no diagnostic at all.
inline void require_clean(const std::string& text) {
  const auto r = check(text);
  INFO(r->summary());
  REQUIRE(r->validated);
  REQUIRE(r->diagnostics.size() == 0);
}

// The messages of a diagnostic's notes, in order.
inline std::vector<std::string> note_messages(const Diagnostic& d) {
  std::vector<std::string> out;
  for (const auto& note : d.notes) out.push_back(note.message);
  return out;
}

}  // namespace validatetest
