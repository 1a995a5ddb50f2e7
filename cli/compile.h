// The front half every command shares: compile a policy (sema::analyze, then
// Kueue's compile-time rules, and for commands that need objects, lowering),
// timing each step for -v. Diagnostics are collected, not printed: the command
// renders them once (text or JSON).
#pragma once

#include <optional>
#include <string>

#include "cli/commands.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/objects.h"
#include "compiler/kueue/policy_name.h"
#include "compiler/sema/model.h"

namespace mkq::cli {

struct Compilation {
  kueue::PolicyHome home;  // where the policy lives (its default state and sandbox)
  diag::SourceManager sources;
  diag::Diagnostics diagnostics;
  std::optional<sema::model::Policy> policy;   // set when the policy checked cleanly
  std::optional<kueue::DesiredState> state;    // set when lowering was asked for and succeeded

  bool ok() const { return policy.has_value() && !diagnostics.has_errors(); }
  // Every diagnostic as text on stderr (colored when asked).
  void print_diagnostics(const GlobalOptions& global) const;
};

enum class CompileTo { Model, Objects };

// With -v, prints each step's time to stderr ("mkq: parse   12.0 ms"). The
// objects carry the declared identity, else the derived one (settle_identity
// may change it once the state is read).
Compilation compile(const std::string& path, CompileTo target, const GlobalOptions& global);

// The policy's identity against the identity its state recorded ("" none),
// before any cluster is touched (kueue::choose_identity): relabels the desired
// objects when the state's identity is the one to keep; false, with the error
// printed, when the state belongs to another policy. own_state: the state is
// the policy's default one (no --state).
bool settle_identity(Compilation& compiled, const std::string& recorded, bool own_state,
                     const std::filesystem::path& state_path);

}  // namespace mkq::cli
