// The commands mkq suggests in its messages ("release it with `mkq state
// unlock --policy p`"), written so that they can be pasted as is: the policy
// path and every option that chose the clusters and the state, as the user gave
// them, each word shell-quoted when it needs to be.
#pragma once

#include <string>
#include <vector>

#include "runtime/operation/options.h"
#include "runtime/state/state.h"

namespace mkq::operation {

// A word as a POSIX shell reads it back: bare when it is safe, else single-quoted.
std::string shell_word(const std::string& word);

// `mkq COMMAND [PATH] [ARGS...]` with the options of `runtime` that decide
// where the run goes (--kubeconfig, --sandbox, --sandbox-dir, --state,
// --insecure-skip-tls-verify, --exclude-cluster, --cluster). PATH "." is left out.
std::string run_command(const std::string& command, const std::string& path, const RuntimeOptions& runtime,
                        const std::vector<std::string>& args = {});

// `mkq COMMAND [ARGS...]` for the commands that read the state (state ...,
// history): --state when the user gave one, else --policy unless it is ".".
std::string state_command(const std::string& command, const std::string& policy_path, const std::string& state_option,
                          const std::vector<std::string>& args = {});

// "the state S is locked: apply by alice@host (pid 4242) since ...; " and what
// to do: let a holder that still runs on this host finish, else the unlock
// command for a run that is gone.
std::string lock_held_message(const std::string& state_path, const state::LockHolder& holder,
                              const std::string& policy_path, const std::string& state_option);

}  // namespace mkq::operation
