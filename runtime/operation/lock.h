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

  // StateStore::acquire_lock; the lock is this guard's unless the answer is
  // Held or an Error. `store` must outlive the guard.
  base::Result<state::LockResult> acquire(state::StateStore& store, const state::LockHolder& me,
                                          state::LockHolder* previous) {
    release();
    base::Result<state::LockResult> result = store.acquire_lock(me, previous);
    if (result && *result != state::LockResult::Held) store_ = &store;
    return result;
  }
  // Gives the lock back now (a run that only reads from here on); no-op when
  // not held. Best effort: a lock that could not be removed is the store's to
  // try again (its destructor does), and is stale once this process is gone.
  void release() {
    if (store_ != nullptr) (void)store_->release_lock();
    store_ = nullptr;
  }
  bool held() const { return store_ != nullptr; }

 private:
  state::StateStore* store_ = nullptr;
};

}  // namespace mkq::operation
