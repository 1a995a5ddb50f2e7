// compiler/kueue entry points: the checked policy model -> Kueue's rules
// checked at compile time -> the desired objects of every cluster.
#pragma once

#include <optional>
#include <string>

#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"

namespace mkq::kueue {

struct LowerOptions {
  // The value of the mkq.dev/policy label: the policy's identity (policy_name.h),
  // a valid label value.
  std::string policy_name;
};

// Checks every rule of Kueue (../shared/kueue/VALIDATION.md) that can be
// decided before apply and that the binder did not already check, adding
// diagnostics at the policy source; then lowers the model. Returns the desired
// state only when no error was found.
std::optional<DesiredState> lower(const sema::model::Policy& policy, const LowerOptions& options,
                                  diag::Diagnostics& diagnostics);

}  // namespace mkq::kueue
