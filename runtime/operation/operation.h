// runtime/operation: plan, apply, apply a saved plan, destroy, credentials
// rotate and status as library calls. Each takes its request, a TargetResolver
// (which clusters, how reached) and a Ui port (everything said to or asked of
// the user), and returns what happened as data: the CLI (cli/) turns it into
// output and an exit code, a controller or a test into something else. The
// operations never print and never exit.
//
// The safety rules live here, each stopping the run before anything changes
// (Stop says which): the state's apply lock held by another run; a plan that
// would change objects of another policy without --take-over, or replace an
// object marked prevent-destroy (Plan::refusals); a preflight error (a
// cluster lacks Kueue, its API version, an integration's CRD, a feature
// gate: Plan::preflight, runtime/preflight); an apply that would delete
// everything mkq applied and create nothing without allow_empty; a saved plan
// that is stale (the policy, the state or a live object moved) or not what the
// policy plans now.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "runtime/operation/compile.h"
#include "runtime/operation/options.h"
#include "runtime/operation/session.h"
#include "runtime/operation/ui.h"
#include "runtime/reconcile/apply.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/status.h"

namespace mkq::operation {

// What every operation is told.
struct RunOptions {
  std::string path = ".";  // the policy, as the user gave it (the commands mkq suggests repeat it)
  RuntimeOptions runtime;
  CompileOptions compile;
  bool verbose = false;    // Ui::timing calls, and the sandbox's start-up output
  // The credential provider's clock (expiry, rotation); null: the system's.
  const base::Clock* clock = nullptr;
};

// `mkq plan`: made, shown (Ui::show_plan), and written to `out` when set.
struct PlanRequest : RunOptions {
  bool destroy = false;
  bool no_prune = false;
  OwnershipOptions ownership;
  ScopeOptions scope;  // --replace, --drift-only (--cluster: runtime.clusters)
  std::string out;  // the saved plan's file (saved_plan.h); empty: none
};

// `mkq apply` and `mkq destroy` of a policy.
struct ApplyRequest : RunOptions {
  bool destroy = false;
  bool auto_approve = false;  // no Ui::confirm
  std::optional<std::chrono::milliseconds> wait;  // --wait: until every Kueue object is Active
  bool no_prune = false;
  bool force_conflicts = false;
  bool allow_empty = false;  // an apply may delete everything mkq applied
  OwnershipOptions ownership;
  ScopeOptions scope;  // --replace, --drift-only (--cluster: runtime.clusters)
  // Only these kinds of change are carried out (the controller's sync modes);
  // the plan shown holds them all.
  ChangeSelection select;
  // The run's name in the history and on the lock; empty: "apply" or "destroy".
  std::string command;
  // A worker leaving the fleet: how long to wait until no Workload runs on
  // it before its objects are deleted; past it they are kept, 0: no wait
  // (reconcile::ApplyOptions).
  std::chrono::milliseconds drain_timeout{600000};
  // Read every worker's credential expiry on the manager after the run
  // (ApplyResult::credentials): what the controller's metrics report.
  bool read_credentials = false;
};

// `mkq apply FILE` of a plan saved with `mkq plan --out FILE`. RunOptions::path
// is the file; the policy is the plan's. runtime.exclude_clusters and
// runtime.clusters, when given, must be the plan's own: the scope is part of
// the plan (Plan::scope, PlanOptions::replace), applied again as saved. Never asks for confirmation (as Terraform applies a
// saved plan): the plan was shown when it was saved, and only exactly it is
// carried out -- a plan that moved since is refused, never applied.
struct SavedPlanRequest : RunOptions {
  std::optional<std::chrono::milliseconds> wait;
  bool force_conflicts = false;
  std::chrono::milliseconds drain_timeout{600000};  // as ApplyRequest's
};

// `mkq credentials rotate`: only the credential changes, issued anew.
struct RotateRequest : RunOptions {
  std::vector<std::string> clusters;  // only these workers; empty: every one
  bool auto_approve = false;
};

// `mkq status`: reads no state and takes no lock.
struct StatusRequest : RunOptions {
  std::optional<std::chrono::milliseconds> wait;  // until every object is Active
  std::chrono::milliseconds poll_interval{500};
};

// Why a run stopped before it changed anything (the message went to Ui::error,
// except for NotConfirmed, whose words are the Ui's own).
enum class Stop {
  None,               // it went through (or, for plan and status, was made)
  Failed,             // bad input, an unreadable state, an unusable target, a check that failed
  LockHeld,           // another run holds the state's lock
  Refused,            // Plan::refusals: another policy's objects, a prevent-destroy replace
  Preflight,          // Plan::preflight_failed: a cluster lacks what the policy needs (the plan was made and shown)
  RemovesEverything,  // Plan::removes_everything without allow_empty
  StalePlan,          // a saved plan: the policy, the state or a live object moved since
  PlanDiffers,        // a saved plan: not what the policy plans now
  NotConfirmed,       // Ui::confirm said no
};

struct PlanResult {
  Stop stop = Stop::None;
  std::optional<reconcile::Plan> plan;  // set when made
};

// A worker's credential on the manager at the end of a run: when the token
// its kubeconfig Secret holds expires (mkq.dev/credential-expires).
struct CredentialExpiry {
  std::string worker;
  std::optional<std::chrono::system_clock::time_point> expires;  // nullopt: unknown or never (error says why)
  std::string error;  // the Secret could not be read
};

struct ApplyResult {
  Stop stop = Stop::None;
  // The plan as made: every change, those ApplyRequest::select left out included.
  std::optional<reconcile::Plan> plan;
  // Set when the run went as far as carrying out the plan, or verifying one
  // without changes: its outcome. Unset with Stop::None: nothing to do at all
  // (a rotation with no credential mkq issues).
  std::optional<reconcile::ApplyReport> report;
  std::int64_t run_id = 0;      // the history's record of the run; 0: none (nothing changed)
  std::string command;          // the history's: "apply", "destroy", "credentials rotate"
  std::string policy_path;      // the policy the run applied (a saved plan's own)
  // ApplyRequest::read_credentials: per worker whose Secret records an expiry
  // (TokenRequest tokens), or that could not be read.
  std::vector<CredentialExpiry> credentials;
};

struct StatusResult {
  Stop stop = Stop::None;
  std::optional<reconcile::StatusReport> report;
};

// Whether `select` carries `change` out (a no-op never needs to be).
bool selected(const ChangeSelection& select, const reconcile::Change& change);

PlanResult plan(const PlanRequest& request, TargetResolver& resolver, Ui& ui);
ApplyResult apply(const ApplyRequest& request, TargetResolver& resolver, Ui& ui);
ApplyResult apply_saved_plan(const SavedPlanRequest& request, TargetResolver& resolver, Ui& ui);
ApplyResult rotate(const RotateRequest& request, TargetResolver& resolver, Ui& ui);
StatusResult status(const StatusRequest& request, TargetResolver& resolver, Ui& ui);

}  // namespace mkq::operation
