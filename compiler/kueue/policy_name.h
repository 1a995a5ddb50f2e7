// A policy's identity: the value of the mkq.dev/policy label every object it
// writes carries, and where the policy lives (which decides its default state
// and sandbox). The identity is declared (`policy "NAME" {}`), else fixed in the
// policy's state at its first apply, else derived from where it lives -- never
// from how its path was typed or where mkq runs (docs/apply.md, "Identity").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "compiler/kueue/objects.h"

namespace mkq::kueue {

// Where a policy lives, however its path was typed ("dir", "dir/", "dir/fleet.mkq",
// or "." inside dir): its directory (absolute, symbolic links resolved) and, for
// a file that is one *.mkq among several there, the file's stem. A file that is
// the only *.mkq of its directory is the directory's policy (stem empty); so is
// a path that does not exist and does not end in ".mkq".
struct PolicyHome {
  std::filesystem::path directory;
  std::string stem;  // empty: the policy of the whole directory
};
PolicyHome policy_home(const std::filesystem::path& path);

// The name derived from where the policy lives: its directory's name, or the
// stem of a file among several, made a valid label value.
std::string derived_policy_name(const PolicyHome& home);
// derived_policy_name(policy_home(path)).
std::string policy_name_for(const std::filesystem::path& path);

// `text` made a valid Kubernetes label value: characters other than
// [A-Za-z0-9-_.] become '-', it starts and ends with a letter or digit, at most
// 63 characters; "policy" when nothing is left.
std::string to_label_value(std::string_view text);

// The identity a run goes by, or why the state it was given is not this
// policy's (a ConfigError whose message names both identities and the way out).
//
// declared: the policy's `policy "NAME" {}` (nullopt when it has none);
// recorded: the identity the state recorded ("" when none yet); derived: from
// where the policy lives; own_state: the state is the policy's default one
// (not named with --state); state_shown: the state's path for messages.
//
// A declared identity must match the state's (a rename is never silent). An
// undeclared policy takes its own state's identity (a moved or renamed
// directory stays the same policy), but a state named with --state that
// records another identity is refused.
base::Result<std::string> choose_identity(const std::optional<std::string>& declared, const std::string& recorded,
                                          const std::string& derived, bool own_state, const std::string& state_shown);

// Gives every desired object the identity `name` (its mkq.dev/policy label) and
// records it in desired.policy. Lowering labels objects in no other place, so
// this is the same as lowering with that name.
void relabel(DesiredState& desired, const std::string& name);

}  // namespace mkq::kueue
