// The reconcile loop, one look at a time: Reconciler::tick decides whether a
// run is due and, when this replica leads, makes it -- operation::apply with
// the ChangeSelection of the controller's options -- then reports it
// (metrics, Events, the log). The entry function (controller.cpp) calls tick
// every Options::watch_every; tests call it with a clock they move.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "runtime/controller/controller.h"
#include "runtime/controller/events.h"
#include "runtime/controller/http.h"
#include "runtime/controller/leader.h"
#include "runtime/controller/metrics.h"

namespace mkq::controller {

// What a controller's runs carry out: credentials always; drift repairs with
// self-heal; what the policy asks with sync auto.
operation::ChangeSelection selection_of(const Settings& settings);

// What one run found and did, as it is reported.
struct RunFacts {
  RunMetrics metrics;
  std::vector<std::string> rotated;   // credential Secrets issued anew (addresses)
  std::vector<std::string> failures;  // errors, failed changes, unreachable clusters
  std::int64_t run_id = 0;            // the history's; 0: nothing recorded
};

class Reconciler {
 public:
  // Every reference must outlive the reconciler. `leadership` null: no
  // election (this replica always leads); `events` null: no Events; `stop`
  // (null: never) reads true once the controller is to end: an apply in
  // flight starts no new change.
  Reconciler(const Options& options, std::string identity, operation::TargetResolver& resolver,
             PolicyWatch& watch, const base::Clock& clock, Log& log, Metrics& metrics,
             const Leadership* leadership, EventRecorder* events, const std::atomic<bool>* stop = nullptr);

  // A run when one is due and this replica leads: the first look, the
  // policy's content changed, the interval passed since the last run, or
  // this replica has just become the leader. True when a run was made.
  bool tick();

  // /readyz: ready once a run made a plan; a replica that does not lead is
  // ready (standing by).
  Probe ready() const;

  // The last run's apply was cut short by `stop`: changes were left not started.
  bool interrupted() const { return interrupted_; }
  // What the runs do now: the flags over the policy's `sync {}` as last read.
  const Settings& settings() const { return settings_; }

 private:
  // Reads the policy's `sync {}` again (the policy's content changed): a
  // policy that does not compile keeps the settings it had (its run says why).
  void read_settings();
  // One run; `why` for the log ("start", "the policy changed", ...).
  void run_once(const std::string& why);
  // The log's line and the Events of a finished run.
  void report(const std::string& why, RunFacts& facts);
  // Events for what a plan found and left: drift (self-heal off) and, with
  // sync manual, the policy's changes; each said again only when it changes.
  void report_left(const reconcile::Plan& plan, const operation::ChangeSelection& select);

  Options options_;
  std::string identity_;
  operation::TargetResolver& resolver_;
  PolicyWatch& watch_;
  const base::Clock& clock_;
  Log& log_;
  Metrics& metrics_;
  const Leadership* leadership_;
  EventRecorder* events_;
  const std::atomic<bool>* stop_;

  Settings settings_;
  std::optional<std::string> digest_;  // of the policy at the last look
  std::optional<base::TimePoint> last_run_;
  bool was_leading_ = false;
  bool interrupted_ = false;
  std::atomic<bool> planned_{false};
  std::set<std::string> drift_said_, pending_said_;  // what the last DriftDetected / OutOfSync named
};

}  // namespace mkq::controller
