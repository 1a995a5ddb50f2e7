// The group committer's thread (committer.h).
#include "sandbox/committer.h"

namespace mkq::sandbox {

GroupCommitter::GroupCommitter(ClusterState& state) : state_(state) {
  {
    const std::lock_guard<std::mutex> cluster_lock(state_.mutex);
    state_.store->set_commit_listener([this] {
      const std::lock_guard<std::mutex> lock(mutex_);
      due_ = true;
      wake_.notify_one();
    });
  }
  thread_ = std::thread([this] { loop(); });
}

GroupCommitter::~GroupCommitter() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    wake_.notify_one();
  }
  thread_.join();
  const std::lock_guard<std::mutex> cluster_lock(state_.mutex);
  state_.store->commit_pending();
  state_.store->set_commit_listener(nullptr);  // watch streams may still hold the store
}

void GroupCommitter::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || due_; });
    if (stop_) return;
    wake_.wait_for(lock, kCommitDelay, [this] { return stop_; });
    if (stop_) return;  // the destructor commits
    // Cleared before committing: a write after this point either joins the
    // transaction committed below or opens the next one and sets it again.
    due_ = false;
    lock.unlock();
    {
      const std::lock_guard<std::mutex> cluster_lock(state_.mutex);
      state_.store->commit_pending();
    }
    lock.lock();
  }
}

}  // namespace mkq::sandbox
