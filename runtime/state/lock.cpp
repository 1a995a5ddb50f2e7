// The apply lock: one row in `lock`, taken and inspected inside BEGIN
// IMMEDIATE so two processes can never both believe they hold it. A holder on
// this host whose process is gone is stale and taken over; one that still runs
// is never released without force.
#include "base/host.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace detail {

base::Result<std::optional<LockHolder>> read_lock(Database& db) {
  Statement row(db.handle(), "SELECT command, user, host, pid, since FROM lock WHERE id = 1");
  if (!row.step()) {
    if (!row.ok()) return db.error();
    return std::optional<LockHolder>();
  }
  return std::optional<LockHolder>(LockHolder{row.text(0), row.text(1), row.text(2), row.integer(3), row.text(4)});
}

LockHolder complete_holder(LockHolder holder, const std::string& now) {
  if (holder.user.empty()) holder.user = base::user_name();
  if (holder.host.empty()) holder.host = base::host_name();
  if (holder.pid == 0) holder.pid = base::process_id();
  if (holder.since.empty()) holder.since = now;
  return holder;
}

base::Result<std::optional<LockHolder>> current_lock(StoreData& impl) {
  if (!impl.cluster) return read_lock(impl.db);
  // A Lease that cannot be read is taken for no lock: a run under way then
  // reads as interrupted in the history, never the other way round.
  kube::Result<std::optional<LockHolder>> holder = impl.cluster->lock_holder();
  return holder.ok() ? holder.value() : std::nullopt;
}

}  // namespace detail

namespace {

// The state as it is kept beside it (detail::back_up), unless nothing was
// ever recorded (`serial` 0): an older backup then stays in place.
base::Result<void> back_up_unless_empty(detail::StoreData& impl, const base::Result<std::int64_t>& serial) {
  if (!serial) return serial.error();
  if (*serial == 0) return {};
  return detail::back_up(impl);
}

}  // namespace

bool LockHolder::runs_here() const { return base::liveness(host, pid) == base::Liveness::Runs; }

base::Result<LockResult> StateStore::acquire_lock(const LockHolder& me, LockHolder* previous) {
  Database& db = impl_->db;
  const LockHolder holder = detail::complete_holder(me, detail::now_rfc3339(*impl_));
  if (impl_->cluster) return detail::acquire_cluster_lock(*impl_, holder, previous);

  Transaction tx(db);
  if (!tx.begun()) return db.error();
  const base::Result<std::optional<LockHolder>> current = detail::read_lock(db);
  if (!current) return current.error();

  LockResult result = LockResult::Acquired;
  if (*current) {
    const LockHolder& held = **current;
    const bool ours = held.host == holder.host && held.pid == holder.pid;
    const bool stale = base::liveness(held.host, held.pid) == base::Liveness::Gone;
    if (!ours && !stale) {
      if (previous != nullptr) *previous = held;
      return LockResult::Held;  // the destructor rolls back: nothing changed
    }
    if (!ours) {
      result = LockResult::AcquiredStale;
      if (previous != nullptr) *previous = held;
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
  if (!write.run() || !tx.commit()) return db.error();
  impl_->held_lock = holder;
  // Before the run's first write, the state as it was is kept beside it; a
  // state never written to (serial 0) keeps an older backup in place.
  if (!impl_->backed_up) {
    if (const base::Result<void> kept = back_up_unless_empty(*impl_, serial()); !kept) {
      (void)release_lock();  // the backup's failure is the one to tell
      return kept.error();
    }
  }
  impl_->backed_up = true;
  return result;
}

base::Result<void> StateStore::release_lock() {
  if (!impl_->held_lock) return {};
  if (impl_->cluster) {
    impl_->cluster->unlock();
    impl_->held_lock.reset();
    return {};
  }
  Statement remove(impl_->db.handle(), "DELETE FROM lock WHERE id = 1 AND host = ?1 AND pid = ?2");
  remove.bind(1, impl_->held_lock->host).bind(2, impl_->held_lock->pid);
  if (!remove.run()) return impl_->db.error();  // still ours: a later release (or the destructor) tries again
  impl_->held_lock.reset();
  return {};
}

base::Result<std::optional<LockHolder>> StateStore::force_unlock() {
  if (impl_->cluster) {
    kube::Result<std::optional<LockHolder>> broken = impl_->cluster->break_lock();
    impl_->cluster->unlock();
    impl_->held_lock.reset();
    return broken;
  }
  Database& db = impl_->db;
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  base::Result<std::optional<LockHolder>> current = detail::read_lock(db);
  if (!current || !*current) return current;
  if (!db.exec("DELETE FROM lock") || !tx.commit()) return db.error();
  impl_->held_lock.reset();
  return current;
}

base::Result<std::optional<LockHolder>> StateStore::lock_holder() const { return detail::current_lock(*impl_); }

base::Result<UnlockResult> StateStore::unlock(bool force, LockHolder* holder) {
  if (impl_->cluster) {
    kube::Result<std::optional<LockHolder>> current = impl_->cluster->lock_holder();
    if (!current.ok()) return current.error();
    if (!current.value()) return UnlockResult::NotLocked;
    if (holder != nullptr) *holder = *current.value();
    if (!force && current.value()->runs_here()) return UnlockResult::HolderRuns;
    if (base::Result<std::optional<LockHolder>> broken = force_unlock(); !broken) return broken.error();
    return UnlockResult::Released;
  }
  Database& db = impl_->db;
  Transaction tx(db);
  if (!tx.begun()) return db.error();
  const base::Result<std::optional<LockHolder>> current = detail::read_lock(db);
  if (!current) return current.error();
  if (!*current) return UnlockResult::NotLocked;
  if (holder != nullptr) *holder = **current;
  if (!force && (*current)->runs_here()) return UnlockResult::HolderRuns;  // the destructor rolls back
  if (!db.exec("DELETE FROM lock") || !tx.commit()) return db.error();
  impl_->held_lock.reset();
  return UnlockResult::Released;
}

}  // namespace mkq::state
