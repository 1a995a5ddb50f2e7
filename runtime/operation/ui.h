// The UI port of the operations (operation.h): everything a run tells its
// user or asks them goes through it, so that the same run serves a terminal
// (cli/terminal_ui.h), a controller's log, or a test's fake. The operations
// never print. Calls come in the order a user reads them; progress may come
// from the executor's worker threads (serialised by it).
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kube/client.h"
#include "runtime/operation/compile.h"
#include "runtime/reconcile/apply.h"
#include "runtime/reconcile/plan.h"

namespace mkq::operation {

// Where a run goes, as the target resolver chose it: announced before any
// cluster is read ("mkq: target: ..." on a terminal).
struct TargetChoice {
  // One cluster's route: its context, in its own kubeconfig (`own_file`, as
  // shown) or in the common one ("").
  struct Route {
    std::string cluster, context, own_file;
  };
  bool sandbox = false;
  // The sandbox: its directory (as shown), and whether it was asked for
  // (--sandbox) or chosen because no kubeconfig is named anywhere.
  std::string sandbox_dir;
  bool sandbox_asked = false;
  // Kubeconfigs: the common one as named ("kubeconfig /a (KUBECONFIG)";
  // empty: only the clusters' own files are used) and every cluster's route.
  std::string common_kubeconfig;
  std::vector<Route> routes;
};

// How long a step of a run took, for -v. `requests` and `retries` are counted
// over every cluster; `lists`: LIST requests (refresh, status).
struct Timing {
  enum class Step { Refresh, Apply, Status };
  Step step = Step::Refresh;
  std::string command;  // Apply: the run's command ("apply", "destroy", "credentials rotate")
  double milliseconds = 0;
  int lists = 0, requests = 0, retries = 0, connections = 0;
  // Refresh: how each cluster's requests are paced (kube/pacing.h), once its
  // answers have said whether the server announces API Priority and Fairness.
  struct Pacing {
    std::string cluster;
    kube::RateRegime regime = kube::RateRegime::ClientLimit;
    bool priority_and_fairness = false;  // the server announces it (also under an explicit limit)
    double qps = 0;
    int burst = 0;
  };
  std::vector<Pacing> pacing;
  // Apply: how many changes each cluster that had any ran at once, as its
  // server's answers decided (reconcile/concurrency.h).
  struct Concurrency {
    std::string cluster;
    reconcile::ConcurrencyReport limit;
    int throttled = 0;  // the server's 429s (each tried again)
  };
  std::vector<Concurrency> concurrency;
};

// A cancellation token for the span of one apply (reconcile::ApplyOptions::cancel).
class Cancellation {
 public:
  virtual ~Cancellation() = default;
  virtual const std::atomic<bool>* token() const = 0;
};

class Ui {
 public:
  virtual ~Ui() = default;

  // The policy compiled: its diagnostics (warnings too) and timings, once.
  virtual void compiled(const Compilation& compilation) = 0;
  // Where the run goes; before any cluster is read.
  virtual void target(const TargetChoice& choice) = 0;
  // A fact the user should know ("took over a stale lock: ..."), an error that
  // stops the run (each on its own; several may precede one failure), and text
  // another component wrote for the user as it is (the sandbox's start-up).
  virtual void notice(const std::string& text) = 0;
  virtual void error(const std::string& text) = 0;
  virtual void output(const std::string& text) = 0;
  virtual void timing(const Timing& timing) = 0;
  // The plan, once made (or read from a saved plan), before anything changes.
  virtual void show_plan(const reconcile::Plan& plan) = 0;
  // Whether to carry the plan out; false: nothing is changed.
  virtual bool confirm(const reconcile::Plan& plan) = 0;
  // An apply (or a wait) over `plan` starts; its progress; its end.
  virtual std::unique_ptr<Cancellation> begin_apply(const reconcile::Plan& plan) = 0;
  virtual void progress(const reconcile::ProgressEvent& event) = 0;
  virtual void end_apply(const reconcile::ApplyReport& report) = 0;
  // `mkq status --wait`: a poll that found `active` of `total` objects Active.
  virtual void status_poll(std::size_t active, std::size_t total) = 0;
};

}  // namespace mkq::operation
