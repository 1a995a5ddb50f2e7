#include "runtime/reconcile/state_writer.h"

#include <utility>

#include <fmt/format.h>

namespace mkq::reconcile {

StateWriter::StateWriter(state::StateStore& store, std::chrono::milliseconds interval)
    : store_(store), interval_(interval) {
  if (interval_.count() > 0) thread_ = std::thread([this] { loop(); });
}

StateWriter::~StateWriter() {
  {
    const std::lock_guard<std::mutex> lock(queue_mutex_);
    stop_ = true;
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  const std::lock_guard<std::mutex> lock(store_mutex_);
  write_queue();
}

void StateWriter::add(state::StateWrite write) {
  {
    const std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.push_back(std::move(write));
    if (queue_.size() == 1) wake_.notify_one();
  }
  if (interval_.count() == 0) {
    const std::lock_guard<std::mutex> lock(store_mutex_);
    write_queue();
  }
}

void StateWriter::loop() {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;  // the destructor writes the rest
    // Let the burst gather, then write it (unless stopping: the destructor does).
    if (wake_.wait_for(lock, interval_, [this] { return stop_; })) return;
    lock.unlock();
    {
      const std::lock_guard<std::mutex> store_lock(store_mutex_);
      write_queue();
    }
    lock.lock();
  }
}

void StateWriter::write_queue() {
  std::vector<state::StateWrite> batch;
  {
    const std::lock_guard<std::mutex> lock(queue_mutex_);
    batch.swap(queue_);
  }
  if (batch.empty()) return;
  if (store_.record_batch(batch)) return;
  // One bad record must not cost the others: write them one by one.
  for (const state::StateWrite& write : batch) {
    const base::Result<void> written = store_.record_batch({write});
    if (written) continue;
    ++failed_;
    if (first_error_.empty()) first_error_ = base::render(written.error());  // names the record's object
  }
}

base::Result<void> StateWriter::flush() {
  const std::lock_guard<std::mutex> lock(store_mutex_);
  write_queue();
  if (failed_ == 0) return {};
  std::string message =
      fmt::format("the state could not record {} {}: {}", failed_, failed_ == 1 ? "change" : "changes", first_error_);
  failed_ = 0;
  first_error_.clear();
  return base::Error(0, state::kStateError, std::move(message));
}

base::Result<void> StateWriter::write_now(state::StateWrite write) {
  const std::lock_guard<std::mutex> lock(store_mutex_);
  write_queue();
  return store_.record_batch({std::move(write)});
}

base::Result<std::optional<state::InventoryEntry>> StateWriter::find(const std::string& address) {
  const std::lock_guard<std::mutex> lock(store_mutex_);
  write_queue();
  return store_.find(address);
}

std::string StateWriter::lineage() {
  const std::lock_guard<std::mutex> lock(store_mutex_);
  return store_.lineage();
}

}  // namespace mkq::reconcile
