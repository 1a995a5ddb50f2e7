// Compile-time Kueue validation: every rule of ../shared/kueue/VALIDATION.md
// that can be decided before apply and that the binder (compiler/sema) does not
// already check, reported at the policy source. `mkq check` runs it; lower()
// runs it before lowering.
#pragma once

#include "compiler/diag/diagnostic.h"
#include "compiler/sema/model.h"

namespace mkq::kueue {

void validate(const sema::model::Policy& policy, diag::Diagnostics& diagnostics);

}  // namespace mkq::kueue
