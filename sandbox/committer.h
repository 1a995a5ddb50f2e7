// Group commit for one cluster: a write opens the store's transaction (and
// tells the committer, Store::set_commit_listener); kCommitDelay later the
// committer's thread commits it, with every write since -- one commit for a
// burst of writes, as etcd batches its backend commits.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

// A write is committed at most this long after it was answered.
inline constexpr std::chrono::milliseconds kCommitDelay{10};

class GroupCommitter {
 public:
  // Installs the store's commit listener and starts the thread. Takes the
  // cluster's lock itself: call it without.
  explicit GroupCommitter(ClusterState& state);
  // Stops the thread, then commits what is pending and removes the listener
  // (under the cluster's lock, which it takes).
  ~GroupCommitter();
  GroupCommitter(const GroupCommitter&) = delete;
  GroupCommitter& operator=(const GroupCommitter&) = delete;

 private:
  void loop();

  ClusterState& state_;
  std::mutex mutex_;  // guards the two flags; never held while taking state_.mutex
  std::condition_variable wake_;
  bool due_ = false;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace mkq::sandbox
