// The apply executor: carries out a Plan over the clusters' clients, records
// every outcome in the state, and optionally waits for Kueue objects to turn Active.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {

struct ProgressEvent {
  enum class Phase { Started, Done, Failed, Waiting, Ready };
  Phase phase = Phase::Started;
  std::string cluster;
  std::string address;
  Action action = Action::NoOp;
  std::string message;  // for Failed: the error; for Waiting: "Active=False (Reason): message"
};

struct ApplyOptions {
  int parallelism = 8;          // requests in flight at once, over all clusters
  bool force_conflicts = false;  // server-side apply with force=true
  std::optional<std::chrono::milliseconds> wait;  // --wait: until Kueue objects are Active=True
  std::chrono::milliseconds poll_interval{500};   // while waiting (one LIST per kind per cluster per poll)
  std::chrono::milliseconds deletion_timeout{60000};  // waiting for finalizers on delete/replace
  // A restart's rollout (Change::restart, rollout.h) must complete within
  // this, or within `wait` when that is set.
  std::chrono::milliseconds restart_timeout{300000};
  // The state records are written in groups this long after the first of a
  // burst (state_writer.h: what a kill -9 may lose); 0: each at once.
  std::chrono::milliseconds state_commit_interval{20};
  // Called from worker threads (serialised by the executor).
  std::function<void(const ProgressEvent&)> progress;
};

struct ObjectResult {
  std::string cluster, address;
  Action action = Action::NoOp;
  bool ok = false;
  std::string message;  // the error (conflicts name the other manager and fields), or empty
};

struct ApplyReport {
  // Every non-no-op change, in the order carried out; then every restart
  // (action NoOp, the Deployment's address, message "restarted" when it succeeded).
  std::vector<ObjectResult> results;
  std::vector<std::string> wait_failures;  // "manager/ClusterQueue/cq: Active=False (FlavorNotFound): ..."
  int failed = 0;
  bool success() const { return failed == 0 && wait_failures.empty(); }
};

// Carries out `plan`. Order: within a cluster, creates/updates/replaces by
// apply tier (kueue::schema apply order), deletions in reverse order after
// them; workers' changes and the manager's changes below tier
// MultiKueueCluster run at once, the manager's MultiKueueClusters and later
// kinds (and credential Secrets, issued by `credentials`) after every worker
// finished. A replace deletes, waits until the object is gone, then creates.
// After every change (deletions included), the restarts the changes carry
// (Change::restart) run -- skipped when their change failed -- and only then
// the wait for Active.
// Deletions wait for finalizers (deletion_timeout). A cluster that fails does
// not stop the others; a failed object skips the objects that depend on it
// (result "skipped") -- except a worker credential that could not be issued:
// the manager's objects naming that worker are applied all the same (Kueue
// keeps the worker's MultiKueueCluster inactive and dispatches to the others). Every outcome is recorded in run `run_id` of `state`, and
// the inventory follows each success at once (a kill -9 loses at most the
// objects in flight).
ApplyReport apply_plan(const Plan& plan, const std::vector<Target>& targets, state::StateStore& state,
                       std::int64_t run_id, CredentialProvider* credentials, const ApplyOptions& options);

}  // namespace mkq::reconcile
