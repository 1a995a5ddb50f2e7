// The apply executor: carries out a Plan over the clusters' clients, records
// every outcome in the state, and optionally waits for Kueue objects to turn Active.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "runtime/reconcile/concurrency.h"
#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {

struct ProgressEvent {
  enum class Phase { Started, Done, Failed, Waiting, Ready };
  Phase phase = Phase::Started;
  base::ObjectRef ref;  // the object whose change (or wait) this is
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
  // A phased plan (Plan::phased): the joining MultiKueueClusters must be
  // Active within this (or within `wait` when that is set) before the
  // MultiKueueConfigs are written; else apply stops there.
  std::chrono::milliseconds activation_timeout{300000};
  // A phased plan: how long to wait for the leaving workers to drain (no
  // Workload on the manager running on them). When it passes with work still
  // running, their objects are kept and the deletions skipped (the run is not
  // a success); 0: no wait, they are deleted at once (what runs is reported).
  std::chrono::milliseconds drain_timeout{600000};
  // The state records are written in groups this long after the first of a
  // burst (state_writer.h: what a kill -9 may lose); 0: each at once.
  std::chrono::milliseconds state_commit_interval{20};
  // Called from worker threads (serialised by the executor).
  std::function<void(const ProgressEvent&)> progress;
  // The cancellation token (an interrupt; null: none). Once it reads true the
  // executor starts no new change -- each gets the outcome NotStarted -- and
  // lets the changes in flight finish (a replace finishes its create, a
  // deletion its wait for finalizers); --wait stops waiting at once. It is
  // only read, never reset.
  const std::atomic<bool>* cancel = nullptr;
};

// What became of one change. The history records Done as "ok", Failed as
// "failed", Skipped and NotStarted as "skipped".
enum class Outcome {
  Done,
  Failed,
  Skipped,     // a change it depends on failed (or, for a deletion, was not deleted)
  NotStarted,  // the run was interrupted before it ("not started: interrupted")
};

struct ObjectResult {
  base::ObjectRef ref;  // empty for an error of the whole run (the state could not be written)
  Action action = Action::NoOp;
  Outcome outcome = Outcome::Failed;
  // Why it is not Done (base/result.h): the server's status and reason when
  // one answered, the words (conflicts name the other manager and fields),
  // and the object's address (`ref`'s; for an error of the whole run, the
  // state's or none). Empty when Done.
  base::Error error;
  std::string note;  // what a Done result says besides its action ("restarted"), or empty
  bool ok() const { return outcome == Outcome::Done; }
};

// One cluster of the plan after the run: how its planned changes ended.
struct ClusterOutcome {
  std::string cluster;
  kueue::ClusterRole role = kueue::ClusterRole::Worker;
  // False when the cluster could not be read for the plan (or no connection
  // could be made): its changes are unknown, so the run cannot be complete.
  bool reachable = true;
  std::string error;  // why not reachable
  int done = 0, failed = 0, skipped = 0, not_started = 0;
  // How many of its changes ran at once (concurrency.h); unset for a cluster
  // apply did not run (unreachable, or a verification without changes).
  std::optional<ConcurrencyReport> concurrency;
  int throttled = 0;  // attempts the server answered 429 during the apply (each tried again)
  int planned() const { return done + failed + skipped + not_started; }
};

// A worker that left the fleet in a phased apply, as its drain ended.
struct Drain {
  std::string worker;
  // The Workloads on the manager (NAMESPACE/NAME) still running on it when
  // its objects were deleted: empty when it drained; else drain_timeout was 0.
  std::vector<std::string> running;
  std::chrono::milliseconds waited{0};
};

// How a run ends in the history (RunRecord::result).
enum class RunResult { Success, Partial, Failed, Interrupted };
const char* run_result_name(RunResult result);  // "success", "partial", "failed", "interrupted"

struct ApplyReport {
  // Every non-no-op change, in the order carried out; then every restart
  // (action NoOp, the Deployment's address, note "restarted" when it succeeded).
  std::vector<ObjectResult> results;
  std::vector<ClusterOutcome> clusters;  // every cluster of the plan, in plan order
  // The objects --wait found not Active, each an Error about its address:
  // render() gives "manager/ClusterQueue/cq: Active=False (FlavorNotFound): ...".
  std::vector<base::Error> wait_failures;
  // A phased plan: each leaving worker's drain, when it was carried out (not
  // when apply stopped before it).
  std::vector<Drain> drains;
  int waited = 0;      // Kueue objects --wait verified (Active or not)
  int failed = 0;      // results not Done (failed, skipped or not started)
  // The cancellation token stopped something: a change not started, or the
  // wait cut short. (A token set after everything was done changes nothing.)
  bool interrupted = false;

  int done() const;
  int unreachable() const;  // clusters not reachable
  // Every cluster was read, every change Done, every waited object Active.
  bool success() const { return failed == 0 && wait_failures.empty() && unreachable() == 0 && !interrupted; }
  // Interrupted when interrupted; else success; else partial when any change
  // was Done; else failed.
  RunResult result() const;
};

// Carries out `plan`. A phased plan (Plan::phased; docs/apply.md, "Replacing a
// worker") runs its steps in order: Join (in the order below), then a wait
// until the joining MultiKueueClusters are Active -- if they are not within
// activation_timeout, every later change is skipped and nothing is deleted --
// then Switch (the manager's MultiKueueConfigs and later kinds) -- if a
// MultiKueueConfig change fails, nothing is drained or deleted -- then the
// drain of the leaving workers (until no Workload on the manager runs on them
// or drain_timeout passes: ApplyReport::drains; when it passes with work
// still running, every deletion is skipped), then Remove (the deletions,
// as below). Otherwise: within a cluster, creates/updates/replaces by
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
// keeps the worker's MultiKueueCluster inactive and dispatches to the
// others). Once options.cancel is set no change starts (outcome NotStarted)
// and --wait stops; the changes in flight finish. Every outcome is recorded in
// run `run_id` of `state`, and the inventory follows each success at once
// (state_writer.h: a kill -9 loses at most the objects in flight and the last
// commit interval); every record is written before apply_plan returns.
ApplyReport apply_plan(const Plan& plan, const std::vector<Target>& targets, state::StateStore& state,
                       std::int64_t run_id, CredentialProvider* credentials, const ApplyOptions& options);

// `apply` of a plan without changes: nothing to carry out, the same report --
// every cluster's outcome (an unreachable one makes it fail: its changes are
// unknown) and, with options.wait, the wait apply_plan does: every object of
// the plan with an Active condition on every reachable cluster, changed or
// not, until each is Active=True. Touches neither the clusters nor the state.
ApplyReport verify_plan(const Plan& plan, const std::vector<Target>& targets, const ApplyOptions& options);

}  // namespace mkq::reconcile
