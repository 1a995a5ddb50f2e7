// The steps every operation of operation.h strings together (internal to
// runtime/operation): compile, open and lock the state, connect, refresh,
// plan, check the safety rules, carry out or verify, record.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/operation/lock.h"
#include "runtime/operation/operation.h"
#include "runtime/reconcile/capacity.h"
#include "runtime/reconcile/exclude.h"
#include "runtime/state/state.h"

namespace mkq::operation::detail {

// Everything a run holds after start(). The lock is declared after the store
// it locks, so that it is given back before the store closes.
struct Run {
  explicit Run(Ui& port) : ui(port) {}
  // After process_ends_after_command() (process.h), leaves `compiled`,
  // `inventory` and `live` to the exit.
  ~Run();
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  Ui& ui;
  std::string policy_path;  // as the user gave it (for the commands mkq suggests)
  RuntimeOptions runtime;
  bool destroy = false;  // a destroy: refresh reads what every namespace of the inventory holds
  bool verbose = false;
  Compilation compiled;
  std::unique_ptr<state::StateStore> store;  // null for a plan without a state file
  StateLock lock;
  std::vector<state::InventoryEntry> inventory;
  std::int64_t serial = 0;  // the state's serial when `inventory` was read (0: no state)
  Session session;
  reconcile::LiveState live;
  std::vector<reconcile::ExcludedCluster> excluded;  // --exclude-cluster: left out of `compiled.state` and `inventory`
  // --cluster: what the scope left out of `compiled.state` and `inventory`
  // (clusters, not_planned, manager_objects_left; make_plan copies it).
  reconcile::Scope scope;
  // Of `compiled.state` as the policy makes it, before the dispatch orders
  // were written into it: free capacity moving is not the policy changing.
  std::string policy_digest;
  // The dispatches ordered by free capacity, as read (reconcile/capacity.h);
  // `compiled.state`'s MultiKueueConfigs list their workers in this order.
  std::vector<reconcile::DispatchOrder> dispatch_orders;
};

// Compiles, opens the state (creating it when `lock_command` is set), locks it
// (when `lock_command` is set: the history's command), connects through
// `resolver` and refreshes.
Stop start(Run& run, const RunOptions& options, const std::string& lock_command,
           credentials::ProviderOptions provider, TargetResolver& resolver);

// --cluster names the manager, a worker of the policy or a cluster of the
// state (`inventory`), and does not go with --exclude-cluster. False with
// every problem given to `ui` (an unknown name with "did you mean").
bool scope_ok(const RuntimeOptions& runtime, const sema::model::Policy& policy,
              const std::vector<state::InventoryEntry>& inventory, Ui& ui);

// Preflight (runtime/preflight) of a plan of the policy, read-only: its
// findings go into plan.preflight. A destroy's plan has none.
void run_preflight(Run& run, reconcile::Plan& plan);

// Plan::preflight's errors as one message (each error's cluster and what is
// missing) given to the Ui; true when there were any. `applying`: an apply
// refuses the plan; else a plan says apply will.
bool preflight_failed(const reconcile::Plan& plan, Run& run, bool applying);

reconcile::Plan make_plan(Run& run, const std::string& path, reconcile::PlanKind kind, bool no_prune,
                          const OwnershipOptions& ownership = {}, const ScopeOptions& scope = {});

// --replace and --drift-only against what the run planned: every address
// --replace names is an object of the policy in the run's scope, and neither
// goes with a destroy, nor the two together. False with every problem given
// to the Ui.
bool scope_options_ok(const Run& run, const ScopeOptions& scope);

// Plan::refusals as an error; true when refused.
bool refused(const reconcile::Plan& plan, Run& run);

// How a run carries a plan out.
struct Execution {
  std::string command;  // the history's
  std::optional<std::chrono::milliseconds> wait;
  bool force_conflicts = false;
  bool auto_approve = false;
  std::chrono::milliseconds drain_timeout{600000};  // a phased plan's drain (reconcile::ApplyOptions)
};

// Confirms (unless auto_approve), carries `plan` out and records it -- or,
// for a plan without changes, verifies it (exit 0 only when every cluster was
// read and, with wait, every Kueue object is Active) without writing anything.
ApplyResult carry_out(Run& run, const reconcile::Plan& plan, const Execution& execution);

// Every worker's credential expiry as its kubeconfig Secret on the manager
// records it now (one GET per worker that is not in clusterprofile mode);
// workers whose Secret records none are left out.
std::vector<CredentialExpiry> credential_expiries(Run& run);

// The digest of the desired state a plan records (a saved plan is stale when it moves).
std::string policy_digest(const kueue::DesiredState& desired);

}  // namespace mkq::operation::detail
