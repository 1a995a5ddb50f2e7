// Pieces of the apply executor shared by apply.cpp (carrying out the changes)
// and apply_wait.cpp (--wait: until Kueue objects are Active). Internal to
// mkq_reconcile.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/kube/client.h"
#include "runtime/reconcile/apply.h"

namespace mkq::reconcile::detail {

// A counting semaphore: the bound on requests in flight over all clusters.
class RequestSlots {
 public:
  explicit RequestSlots(int count) : free_(count < 1 ? 1 : count) {}
  void acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    available_.wait(lock, [this] { return free_ > 0; });
    --free_;
  }
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++free_;
    }
    available_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable available_;
  int free_;
};

// Holds one slot for the duration of one client call.
class Slot {
 public:
  explicit Slot(RequestSlots& slots) : slots_(slots) { slots_.acquire(); }
  ~Slot() { slots_.release(); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  RequestSlots& slots_;
};

// A Kueue object --wait watches for its Active condition.
struct WaitItem {
  base::ObjectRef ref;
};

// True for the kinds whose status has an Active condition (ClusterQueue,
// LocalQueue, AdmissionCheck, MultiKueueCluster; MULTIKUEUE.md section 6).
bool has_active_condition(const std::string& api_version, const std::string& kind);

// The objects --wait polls: those of `plan` with an Active condition on the
// clusters of `clients` that exist after the run -- created, updated,
// replaced, or unchanged and live -- except the addresses in `excluded` (the
// changes that did not succeed).
std::vector<WaitItem> wait_items(const Plan& plan, const std::map<std::string, kube::Client*>& clients,
                                 const std::set<std::string>& excluded);

struct WaitResult {
  // One Error per item not Active at the end, in `items` order, about the
  // item's address, saying "Active=False (Reason): message", "no Active
  // condition yet", "not found on the cluster", "cannot be read: ERROR";
  // after an interrupt "... (interrupted while waiting)" or "not read: interrupted".
  // Its reason: "Timeout" (the deadline passed), or "Interrupted".
  std::vector<base::Error> failures;
  bool interrupted = false;  // `cancel` cut the wait short
};

// Polls (one LIST per kind per cluster per poll, clusters in parallel) until
// every item reports Active=True, `timeout` passes or `cancel` (may be null)
// reads true -- checked between polls and while sleeping, so an interrupt
// ends the wait within a few milliseconds of the poll in flight. Emits
// Waiting when an item's state is first seen or changes, Ready when it turns
// Active.
WaitResult wait_for_active(const std::vector<WaitItem>& items, const std::map<std::string, kube::Client*>& clients,
                           std::chrono::milliseconds timeout, std::chrono::milliseconds poll_interval,
                           const std::atomic<bool>* cancel, RequestSlots& slots,
                           const std::function<void(const ProgressEvent&)>& emit);

// The drain of the workers leaving a phased apply (ApplyReport::drains).
struct DrainWait {
  // Per leaving worker, the Workloads (NAMESPACE/NAME) still running on it
  // at the end (every worker of the wait has an entry).
  std::map<std::string, std::vector<std::string>> running;
  // The last poll could not read the manager's Workloads: whether anything
  // still runs is unknown.
  std::optional<base::Error> error;
  bool interrupted = false;  // `cancel` cut the wait short
  std::chrono::milliseconds waited{0};
};

// Polls the manager's Workloads (one LIST per poll) until none runs on any of
// `workers` -- status.clusterName names it and no Finished=True condition --
// `timeout` passes (0: one poll) or `cancel` (may be null) reads true.
// Workloads not served by the manager: nothing runs. Emits Waiting on the
// worker's MultiKueueCluster (`manager`'s) when what runs on it changes.
DrainWait wait_drained(kube::Client& client, const std::string& manager, const std::vector<std::string>& workers,
                       std::chrono::milliseconds timeout, std::chrono::milliseconds poll_interval,
                       const std::atomic<bool>* cancel, RequestSlots& slots,
                       const std::function<void(const ProgressEvent&)>& emit);

// The Workloads still running (DrainWait::running), for a message: the first
// five names, then ", ..." when more run.
std::string first_workloads(const std::vector<std::string>& names);

// Sleeps until `until`, waking early when `cancel` is set. Returns false when cancelled.
bool sleep_unless_cancelled(std::chrono::steady_clock::time_point until, const std::atomic<bool>* cancel);

// True once the token (may be null) is set.
inline bool cancelled(const std::atomic<bool>* cancel) {
  return cancel != nullptr && cancel->load();
}

// A kube::Error in words for a result message, which names the object already
// (base/result.h).
using base::describe;

}  // namespace mkq::reconcile::detail
