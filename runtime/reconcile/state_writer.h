// Group commit of an apply's records. The executor's threads queue what they
// learn (an object applied or deleted, an object's outcome); a background
// thread writes the queue in one transaction (StateStore::record_batch) at
// most `interval` after the first record of a burst. One commit then covers
// dozens of objects instead of each object paying its own.
//
// What a kill -9 can lose is bounded by `interval`: the objects applied in
// that window stay on the clusters without an inventory entry, and the next
// plan finds them there (no-op or update: it adopts them) -- the same as
// after an apply killed between its request and its record.
//
// Thread-safe. The StateStore is only touched under the writer's own mutex,
// so a caller that needs the store meanwhile goes through find().
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

inline constexpr std::chrono::milliseconds kStateCommitInterval{20};

class StateWriter {
 public:
  // interval 0: every record is written at once, in the caller's thread.
  StateWriter(state::StateStore& store, std::chrono::milliseconds interval);
  ~StateWriter();  // writes what is queued
  StateWriter(const StateWriter&) = delete;
  StateWriter& operator=(const StateWriter&) = delete;

  void add(state::StateWrite write);
  // Writes the queue now. Fails (reason state::kStateError) when records
  // failed since the last call, counting them and naming the first one's
  // object: "the state could not record 3 changes: w1/Cohort/a: state
  // /x/state.db: database or disk is full" (no address: it is about the run).
  base::Result<void> flush();
  // Writes the queue and then `write` now, in the caller's thread, and
  // returns only once they are committed: for a record that must be durable
  // before the caller goes on (a credential intent, state.h). The store's
  // Error (state::kStateError, about the write's address) when `write` could
  // not be recorded.
  base::Result<void> write_now(state::StateWrite write);
  // The store's entry, after writing the queue (so it is current).
  base::Result<std::optional<state::InventoryEntry>> find(const std::string& address);
  std::string lineage();

 private:
  void loop();
  void write_queue();  // under store_mutex_

  state::StateStore& store_;
  const std::chrono::milliseconds interval_;

  std::mutex queue_mutex_;  // guards queue_, stop_; never held while taking store_mutex_
  std::condition_variable wake_;
  std::vector<state::StateWrite> queue_;
  bool stop_ = false;

  std::mutex store_mutex_;  // guards store_, failed_, first_error_
  std::size_t failed_ = 0;
  std::string first_error_;

  std::thread thread_;
};

}  // namespace mkq::reconcile
