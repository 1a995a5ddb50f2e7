// runtime/controller: `mkq controller`, the reconcile loop that keeps a fleet
// true between runs (docs/controller.md, "Running"). It plans on start, on
// every change of the policy directory and every interval; carries out what
// its sync mode allows (sync auto: everything the policy asks; manual: only
// credentials); rotates worker credentials before they expire whatever the
// sync mode; repairs drift only with self-heal and prunes only with prune.
// With leader election only the replica that holds the Lease on the manager
// plans and applies, and it stops applying the moment it loses it. It serves
// /healthz, /readyz and /metrics and records its runs as Events on the
// manager and, for the runs that change something, in the state's history.
//
// The controller is the operations' second user after cli/: every run is
// operation::apply with a ChangeSelection. Its I/O boundaries are ports: the
// target resolver (clusters), the clock (scheduling and the lease), the
// policy watch (the directory's content) and the log.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include "base/clock.h"
#include "runtime/operation/operation.h"

namespace mkq::controller {

enum class Sync {
  Manual,  // plans and reports; applies only credentials (and drift repairs with self-heal)
  Auto,    // applies what the policy asks as well
};

struct LeaderOptions {
  bool enabled = true;                          // --leader-elect
  std::string namespace_name = "mkq-system";    // --lease-namespace (the Events go there too)
  std::string name = "mkq-controller";          // --lease-name
  std::string identity;                         // empty: host-pid-random (leader.h)
  std::chrono::seconds duration{15};            // spec.leaseDurationSeconds
  std::chrono::milliseconds renew_every{5000};  // how often the leader renews (and a follower tries)
  // A leader that could not renew for this long stops leading, before the
  // lease expires for the others (client-go's renewDeadline).
  std::chrono::milliseconds renew_deadline{10000};
};

// What the controller's runs do, as the flags and the policy's `sync {}`
// block decide it (settings_of).
struct Settings {
  Sync sync = Sync::Manual;
  bool self_heal = false;  // drift repairs are applied (else reported and left alone)
  bool prune = false;      // objects mkq applied that the policy no longer has are deleted
  std::chrono::milliseconds interval{std::chrono::minutes(5)};  // a plan at least this often
};

struct Options {
  operation::RunOptions run;  // run.path: the policy (a directory, usually a mounted ConfigMap)
  // The flags (--sync, --self-heal/--no-self-heal, --prune/--no-prune,
  // --interval): each one set overrides the policy's `sync {}`; unset, the
  // policy's field decides, else Settings' default.
  std::optional<Sync> sync;
  std::optional<bool> self_heal;
  std::optional<bool> prune;
  std::optional<std::chrono::milliseconds> interval;
  std::chrono::milliseconds watch_every{1000};                  // the policy directory's digest, this often
  LeaderOptions leader;
  std::string listen = ":8080";  // ADDR:PORT of /healthz, /readyz, /metrics; port 0 picks one
};

// The settings of a run: each flag set, else the policy's field (`policy`
// null: none), else the default.
Settings settings_of(const Options& options, const sema::model::SyncSettings* policy);

// What the controller writes for its operators, one line at a time: what it
// does, and the errors of its runs (which never end it). Called from several
// threads.
class Log {
 public:
  virtual ~Log() = default;
  virtual void line(const std::string& text) = 0;
  virtual void error(const std::string& text) = 0;
};

// The content of the policy: a digest that changes whenever a file the
// policy reads changes (watch.h has the real one, over a directory).
class PolicyWatch {
 public:
  virtual ~PolicyWatch() = default;
  virtual std::string digest() = 0;
};

// How the controller ended. A failing run is reported, never an ending.
enum class Ending {
  Stopped,      // told to stop between runs, or before a run's first change
  Interrupted,  // told to stop during an apply: the changes in flight finished and are in the
                // state, the others were not started (the next run plans them again)
  CannotServe,  // the HTTP address cannot be served: nothing was run
};

// The entry function: runs until `stop` reads true (SIGTERM). A run in
// flight then starts no new change, as `mkq apply` on its first interrupt:
// the changes in flight finish, the state is written and its lock let go;
// then the lease is given back.
Ending run(const Options& options, operation::TargetResolver& resolver, PolicyWatch& watch,
           const base::Clock& clock, Log& log, const std::atomic<bool>& stop);

}  // namespace mkq::controller
