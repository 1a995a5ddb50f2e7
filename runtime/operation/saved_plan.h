// The saved plan file (`mkq plan --out FILE`, `mkq apply FILE`): a format of
// its own, versioned and documented in docs/plan-format.md, separate from the
// `--format json` rendering (plan_render), so that rewording what a plan shows
// never changes how a saved one is applied.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "runtime/reconcile/plan.h"

namespace mkq::operation {

// Whether `path` names a saved plan rather than a policy: a regular file, not
// *.mkq, whose first non-blank character opens a JSON object.
bool looks_like_saved_plan(const std::string& path);

// Writes `plan` to `file` owner-only (0600) whatever the umask -- it holds the
// policy's documents -- through a temporary file and a rename, so that an
// interrupted write never leaves half a plan. Fails (reason "ConfigError")
// saying why it could not.
base::Result<void> write_saved_plan(const reconcile::Plan& plan, const std::string& file);

// Reads a saved plan; an Error (reason "ConfigError") whose message says why,
// "" when the file is not JSON at all.
base::Result<reconcile::Plan> read_saved_plan(const std::string& file);

}  // namespace mkq::operation
