// The apply lock: one row in `lock`, taken and inspected inside BEGIN
// IMMEDIATE so two processes can never both believe they hold it. A holder on
// this host whose process is gone is stale and taken over; one that still runs
// is never released without force.
#include "base/host.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace detail {

std::optional<LockHolder> read_lock(Database& db, bool* ok) {
  Statement row(db.handle(), "SELECT command, user, host, pid, since FROM lock WHERE id = 1");
  if (!row.step()) {
    *ok = row.ok();
    return std::nullopt;
  }
  *ok = true;
  return LockHolder{row.text(0), row.text(1), row.text(2), row.integer(3), row.text(4)};
}

LockHolder complete_holder(LockHolder holder, const std::string& now) {
  if (holder.user.empty()) holder.user = base::user_name();
  if (holder.host.empty()) holder.host = base::host_name();
  if (holder.pid == 0) holder.pid = base::process_id();
  if (holder.since.empty()) holder.since = now;
  return holder;
}

std::optional<LockHolder> current_lock(StoreData& impl, bool* ok) {
  if (!impl.cluster) return read_lock(impl.db, ok);
  // A Lease that cannot be read is taken for no lock: a run under way then
  // reads as interrupted in the history, never the other way round.
  *ok = true;
  kube::Result<std::optional<LockHolder>> holder = impl.cluster->lock_holder();
  return holder.ok() ? holder.value() : std::nullopt;
}

}  // namespace detail

bool LockHolder::runs_here() const { return base::liveness(host, pid) == base::Liveness::Runs; }

LockResult StateStore::acquire_lock(const LockHolder& me, LockHolder* previous) {
  impl_->last_error.clear();
  Database& db = impl_->db;
  const LockHolder holder = detail::complete_holder(me, detail::now_rfc3339(*impl_));
  if (impl_->cluster) return detail::acquire_cluster_lock(*impl_, holder, previous);

  // A failure is reported as Held (nothing changed) with last_error() saying why.
  const auto failed = [&]() {
    impl_->last_error = db.error_message();
    if (previous != nullptr) *previous = LockHolder{};
    return LockResult::Held;
  };
  Transaction tx(db);
  if (!tx.begun()) return failed();
  bool ok = true;
  const std::optional<LockHolder> current = detail::read_lock(db, &ok);
  if (!ok) return failed();

  LockResult result = LockResult::Acquired;
  if (current) {
    const bool ours = current->host == holder.host && current->pid == holder.pid;
    const bool stale = base::liveness(current->host, current->pid) == base::Liveness::Gone;
    if (!ours && !stale) {
      if (previous != nullptr) *previous = *current;
      return LockResult::Held;  // the destructor rolls back: nothing changed
    }
    if (!ours) {
      result = LockResult::AcquiredStale;
      if (previous != nullptr) *previous = *current;
    }
  }
  Statement write(
      db.handle(),
      "INSERT OR REPLACE INTO lock (id, command, user, host, pid, since) VALUES (1, ?1, ?2, ?3, ?4, ?5)");
  write.bind(1, holder.command)
      .bind(2, holder.user)
      .bind(3, holder.host)
      .bind(4, holder.pid)
      .bind(5, holder.since);
  if (!write.run() || !tx.commit()) return failed();
  impl_->held_lock = holder;
  // Before the run's first write, the state as it was is kept beside it; a
  // state never written to (serial 0) keeps an older backup in place.
  if (!impl_->backed_up && serial() > 0) {
    std::string error;
    if (!detail::back_up(*impl_, &error)) {
      release_lock();
      impl_->last_error = error;
      if (previous != nullptr) *previous = LockHolder{};
      return LockResult::Held;
    }
  }
  impl_->backed_up = true;
  return result;
}

void StateStore::release_lock() {
  if (!impl_->held_lock) return;
  impl_->last_error.clear();
  if (impl_->cluster) {
    impl_->cluster->unlock();
    impl_->held_lock.reset();
    return;
  }
  Statement remove(impl_->db.handle(), "DELETE FROM lock WHERE id = 1 AND host = ?1 AND pid = ?2");
  remove.bind(1, impl_->held_lock->host).bind(2, impl_->held_lock->pid);
  if (!remove.run()) {
    impl_->last_error = impl_->db.error_message();
    return;  // still ours: a later release (or the destructor) tries again
  }
  impl_->held_lock.reset();
}

std::optional<LockHolder> StateStore::force_unlock() {
  impl_->last_error.clear();
  if (impl_->cluster) {
    kube::Result<std::optional<LockHolder>> broken = impl_->cluster->break_lock();
    impl_->cluster->unlock();
    impl_->held_lock.reset();
    if (broken.ok()) return broken.value();
    impl_->last_error = broken.error().message;
    return std::nullopt;
  }
  Database& db = impl_->db;
  Transaction tx(db);
  if (!tx.begun()) {
    impl_->last_error = db.error_message();
    return std::nullopt;
  }
  bool ok = true;
  const std::optional<LockHolder> current = detail::read_lock(db, &ok);
  if (!ok) {
    impl_->last_error = db.error_message();
    return std::nullopt;
  }
  if (!current) return std::nullopt;
  if (!db.exec("DELETE FROM lock") || !tx.commit()) {
    impl_->last_error = db.error_message();
    return std::nullopt;
  }
  if (impl_->held_lock) impl_->held_lock.reset();
  return current;
}

std::optional<LockHolder> StateStore::lock_holder() const {
  impl_->last_error.clear();
  bool ok = true;
  std::optional<LockHolder> holder = detail::current_lock(*impl_, &ok);
  if (!ok && impl_->last_error.empty()) impl_->last_error = impl_->db.error_message();
  return holder;
}

UnlockResult StateStore::unlock(bool force, LockHolder* holder) {
  impl_->last_error.clear();
  if (impl_->cluster) {
    kube::Result<std::optional<LockHolder>> current = impl_->cluster->lock_holder();
    if (!current.ok()) {
      impl_->last_error = current.error().message;
      return UnlockResult::NotLocked;
    }
    if (!current.value()) return UnlockResult::NotLocked;
    if (holder != nullptr) *holder = *current.value();
    if (!force && current.value()->runs_here()) return UnlockResult::HolderRuns;
    if (!force_unlock() && !impl_->last_error.empty()) return UnlockResult::NotLocked;
    return UnlockResult::Released;
  }
  Database& db = impl_->db;
  Transaction tx(db);
  bool ok = tx.begun();
  const std::optional<LockHolder> current = ok ? detail::read_lock(db, &ok) : std::nullopt;
  if (!ok) {
    impl_->last_error = db.error_message();
    return UnlockResult::NotLocked;
  }
  if (!current) return UnlockResult::NotLocked;
  if (holder != nullptr) *holder = *current;
  if (!force && current->runs_here()) return UnlockResult::HolderRuns;  // the destructor rolls back
  if (!db.exec("DELETE FROM lock") || !tx.commit()) {
    impl_->last_error = db.error_message();
    return UnlockResult::NotLocked;
  }
  impl_->held_lock.reset();
  return UnlockResult::Released;
}

}  // namespace mkq::state
