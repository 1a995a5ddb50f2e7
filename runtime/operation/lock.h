// The apply lock of a state as a guard: held from acquire() until release()
// or the guard goes, whichever comes first; no run releases it by hand.
#pragma once

#include "runtime/state/state.h"

namespace mkq::operation {

class StateLock {
 public:
  StateLock() = default;
  ~StateLock() { release(); }
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

  // StateStore::acquire_lock; the lock is this guard's unless the answer is Held.
  // `store` must outlive the guard.
  state::LockResult acquire(state::StateStore& store, const state::LockHolder& me, state::LockHolder* previous) {
    release();
    const state::LockResult result = store.acquire_lock(me, previous);
    if (result != state::LockResult::Held) store_ = &store;
    return result;
  }
  // Gives the lock back now (a run that only reads from here on); no-op when not held.
  void release() {
    if (store_ != nullptr) store_->release_lock();
    store_ = nullptr;
  }
  bool held() const { return store_ != nullptr; }

 private:
  state::StateStore* store_ = nullptr;
};

}  // namespace mkq::operation
