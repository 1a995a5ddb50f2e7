// The front half every command shares: compile a policy (sema::analyze, then
// Kueue's compile-time rules, and for commands that need objects, lowering),
// timing each step when asked. Diagnostics and timings are collected, not
// printed: the caller renders them once (text or JSON).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/objects.h"
#include "compiler/kueue/policy_name.h"
#include "compiler/sema/analyze.h"
#include "compiler/sema/model.h"

namespace mkq::operation {

struct Compilation {
  kueue::PolicyHome home;  // where the policy lives (its default state and sandbox)
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  std::optional<sema::model::Policy> policy;   // set when the policy checked cleanly
  std::optional<kueue::DesiredState> state;    // set when lowering was asked for and succeeded
  std::vector<sema::StageTiming> timings;      // each step's time, when asked for (CompileOptions::timed)

  bool ok() const { return policy.has_value() && !diagnostics.has_errors(); }
};

enum class CompileTo { Model, Objects };

struct CompileOptions {
  std::vector<std::string> import_roots;  // --import-root: more directories the policy may import from
  bool timed = false;                     // fill Compilation::timings
};

// The objects carry the declared identity, else the derived one
// (settle_identity may change it once the state is read).
Compilation compile(const std::string& path, CompileTo target, const CompileOptions& options);

// How a checked policy lowers: its declared identity, else the derived one.
// `compiled.policy` must be set.
kueue::LowerOptions lower_options(const Compilation& compiled);

// The policy's identity against the identity its state recorded ("" none),
// before any cluster is touched (kueue::choose_identity): relabels the desired
// objects when the state's identity is the one to keep; fails (reason
// "ConfigError") when the state belongs to another policy. own_state: the
// state is the policy's default one (no --state).
base::Result<void> settle_identity(Compilation& compiled, const std::string& recorded, bool own_state,
                                   const std::filesystem::path& state_path);

}  // namespace mkq::operation
