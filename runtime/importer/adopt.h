// `mkq import --adopt`: the imported policy's objects become this policy's,
// the way `mkq apply` adopts an object that existed before it -- through the
// apply operation itself, so the state holds the same records (adopted, with
// what each object held before mkq at the paths it sets) and a later destroy
// releases them instead of deleting them. The only change it lets apply make
// is mkq's two labels on objects that are otherwise as the policy says; a plan
// that would do anything else (create, delete, change a field, issue a
// credential) is refused before anything changes.
#pragma once

#include <string>
#include <vector>

#include "runtime/operation/operation.h"

namespace mkq::importer {

// What in `plan` is more than an adoption, one line per change ("ADDRESS:
// why"); empty: the plan only adopts.
std::vector<std::string> beyond_adoption(const reconcile::Plan& plan);

struct AdoptResult {
  operation::ApplyResult apply;
  std::vector<std::string> refused;  // beyond_adoption's lines when the plan was refused
};

// Applies the policy at `request.path` (written by mkq import) when its plan
// only adopts; `request.auto_approve` is ignored: the plan is the check.
AdoptResult adopt(const operation::ApplyRequest& request, operation::TargetResolver& resolver,
                  operation::Ui& ui);

}  // namespace mkq::importer
