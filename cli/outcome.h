// The outcome of an apply, destroy or rotation, drawn from the report
// runtime/reconcile returns (it decides, this only draws), and the command to
// run next.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "runtime/reconcile/apply.h"

namespace mkq::cli {

// What a run carried out, in the history's words and the outcome's.
struct Operation {
  std::string command;  // the history's and the next step's: "apply", "destroy", "credentials rotate"
  std::string title;    // "Apply", "Destroy", "Rotation"
  std::string path;     // the policy, as the next step names it
  RuntimeOptions runtime;
  std::vector<std::string> extra_args;  // the next step's further arguments ("--cluster", "w1")
  std::string wait;  // --wait's duration as given ("2s"); empty: the run did not wait
};

Operation operation_of(const std::string& command, const std::string& path, const RuntimeOptions& runtime);

// "X complete!" only when the run succeeded; otherwise the headline, per
// cluster what was done, skipped and failed (an unreachable cluster:
// "unreachable: changes unknown"), the failures, the objects not Active, and
// the command to run next. `run_id` 0: no run was recorded (nothing to change).
// Returns the exit code: 0, 1, or kInterruptedExit.
int print_outcome(const reconcile::ApplyReport& report, const Operation& operation, std::int64_t run_id);

}  // namespace mkq::cli
