// A StateStore over a state kept in a cluster (cluster_state.h): the working
// copy, the push of every transaction before it commits, the Lease as the
// lock, and `mkq state push` / `mkq state pull`.
//
// Cost of a push: the database is serialised (sqlite3_serialize), compressed
// and written as one chunk Secret, the index updated and the old chunk
// deleted -- three requests. An apply's group commit (reconcile/state_writer.h)
// makes one transaction of each burst of records, so an apply pays one push
// per burst plus its run's begin and finish (bench figures: docs/apply.md).
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <system_error>

#include <fmt/format.h>

#include "base/host.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

namespace fs = std::filesystem;

// The database of `db` as a file's bytes -- inside a transaction, with what
// it changed so far.
std::optional<std::string> serialize(sqlite3* db) {
  sqlite3_int64 size = 0;
  unsigned char* bytes = sqlite3_serialize(db, "main", &size, 0);
  if (bytes == nullptr) return std::nullopt;
  std::string out(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  sqlite3_free(bytes);
  return out;
}

// Writes `bytes` to `path` (owner-only), replacing it.
base::Result<void> write_file(const fs::path& path, const std::string& bytes) {
  const auto failed = [&] {
    return base::Error(0, kStateError, "cannot write " + path.string() + ": " + std::system_category().message(errno));
  };
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return failed();
  ::fchmod(fd, 0600);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      base::Error error = failed();
      ::close(fd);
      return error;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) return failed();
  return {};
}

// What is pushed before a transaction of a state in a cluster commits: the
// cluster's Error as it came (Conflict when another writer got there first).
base::Result<void> push(detail::StoreData& impl) {
  StateSnapshot snapshot;
  const std::optional<std::string> bytes = serialize(impl.db.handle());
  Statement meta(impl.db.handle(), "SELECT serial, policy FROM meta WHERE id = 1");
  if (!bytes || !meta.step()) return impl.db.error();
  snapshot.database = *bytes;
  snapshot.lineage = impl.lineage;
  snapshot.serial = meta.integer(0);
  snapshot.policy = meta.text(1);
  return impl.cluster->write(snapshot);
}

// "state /tmp/mkq-state-x/state.db: ..." as the user knows it: "state kubernetes://...: ...".
std::string named(std::string message, const fs::path& working, const std::string& uri) {
  const std::string from = working.string();
  for (std::size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + uri.size())) {
    message.replace(at, from.size(), uri);
  }
  return message;
}

// Replaces the working copy with what the cluster holds now (the lock was
// taken after it was read). The lineage must be the one read before -- unless
// there was none: the copy made then was new and never written, and the state
// another process made since is the one.
base::Result<void> reload(detail::StoreData& impl) {
  const std::string uri = impl.cluster->address().uri();
  const bool was_absent = impl.cluster->base_version().empty();
  kube::Result<std::optional<StateSnapshot>> read = impl.cluster->read();
  if (!read.ok()) return read.error();
  if (!read.value() || (read.value()->lineage != impl.lineage && !was_absent)) {
    return base::Error(0, kStateError,
                       "state " + uri + " was " +
                           (read.value() ? "replaced by another state (lineage " + read.value()->lineage + ")"
                                         : std::string("removed")) +
                           " since it was read; nothing was changed: run again");
  }
  impl.db.close();
  std::error_code ec;
  fs::remove(impl.path.string() + "-wal", ec);
  fs::remove(impl.path.string() + "-shm", ec);
  base::Result<void> reopened = write_file(impl.path, read.value()->database);
  if (reopened) reopened = detail::open_verified(impl, impl.path, true);
  if (!reopened) reopened.error().message = named(reopened.error().message, impl.path, uri);
  return reopened;
}

}  // namespace

namespace detail {

WorkingDirectory::~WorkingDirectory() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

WorkingDirectory& WorkingDirectory::operator=(WorkingDirectory&& other) noexcept {
  if (this != &other) {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
    path_ = std::move(other.path_);
    other.path_.clear();
  }
  return *this;
}

base::Result<WorkingDirectory> WorkingDirectory::make() {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "mkq-state-XXXXXX").string();
  if (ec || ::mkdtemp(pattern.data()) == nullptr) {  // mkdtemp: mode 0700
    return base::Error(0, kStateError,
                       "cannot make a working copy of the state under " + fs::temp_directory_path(ec).string() +
                           ": " + std::system_category().message(errno));
  }
  WorkingDirectory made;
  made.path_ = pattern;
  return made;
}

base::Result<LockResult> acquire_cluster_lock(StoreData& impl, const LockHolder& me, LockHolder* previous) {
  // A failure gives the lease back (when it was taken) and is the answer.
  const auto failed = [&](base::Error why) {
    impl.cluster->unlock();
    return why;
  };
  const kube::Result<LockResult> locked = impl.cluster->lock(me, previous);
  if (!locked.ok()) return failed(locked.error());
  if (locked.value() == LockResult::Held) return LockResult::Held;
  // What was read before the lock may have moved since: read it again.
  const kube::Result<std::string> version = impl.cluster->current_version();
  if (!version.ok()) return failed(version.error());
  if (version.value() != impl.cluster->base_version()) {
    if (base::Result<void> reloaded = reload(impl); !reloaded) return failed(reloaded.error());
  }
  impl.held_lock = me;
  return locked.value();
}

}  // namespace detail

base::Result<std::unique_ptr<StateStore>> StateStore::open_in_cluster(std::unique_ptr<ClusterState> cluster,
                                                                       bool create) {
  const std::string uri = cluster->address().uri();
  kube::Result<std::optional<StateSnapshot>> read = cluster->read();
  if (!read.ok()) return read.error();
  if (!read.value() && !create) return std::unique_ptr<StateStore>();  // none
  base::Result<detail::WorkingDirectory> working = detail::WorkingDirectory::make();
  if (!working) return working.error();
  const fs::path path = working->path() / "state.db";
  if (read.value()) {
    if (base::Result<void> written = write_file(path, read.value()->database); !written) return written.error();
  }
  base::Result<std::unique_ptr<StateStore>> store = create ? open(path) : open_existing(path);
  if (!store) {
    store.error().message = named(store.error().message, path, uri);
    return store;
  }
  if (read.value()) {
    // The database's own lineage and serial must be the ones its index gives.
    const base::Result<std::int64_t> serial = store.value()->serial();
    if (!serial) return serial.error();
    if (store.value()->lineage() != read.value()->lineage || *serial != read.value()->serial) {
      return base::Error(0, kStateError,
                         fmt::format("state {} is damaged: its index gives lineage {} and serial {}, its database {} "
                                     "and {}; nothing was changed",
                                     uri, read.value()->lineage, read.value()->serial, store.value()->lineage(), *serial));
    }
  }
  Impl& impl = *store.value()->impl_;
  impl.working_copy = std::move(working.value());
  impl.cluster = std::move(cluster);
  impl.db.set_name(uri);
  impl.db.set_before_commit([&impl] { return push(impl); });
  return store;
}

std::string StateStore::location() const {
  return impl_->cluster ? impl_->cluster->address().uri() : impl_->path.string();
}

base::Result<std::vector<std::string>> StateStore::orphaned_chunks() const {
  if (!impl_->cluster) return std::vector<std::string>();
  return impl_->cluster->orphaned_chunks();
}

base::Result<StateSnapshot> StateStore::snapshot() const {
  // A consistent copy through the backup API, into memory, without the lock
  // row: a state pushed or pulled is not locked.
  sqlite3* copy = nullptr;
  int rc = sqlite3_open_v2(":memory:", &copy, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_backup* backup = sqlite3_backup_init(copy, "main", impl_->db.handle(), "main");
    rc = backup == nullptr ? sqlite3_errcode(copy) : sqlite3_backup_step(backup, -1);
    if (backup != nullptr) sqlite3_backup_finish(backup);
    if (rc == SQLITE_DONE) rc = sqlite3_exec(copy, "DELETE FROM lock", nullptr, nullptr, nullptr);
  }
  std::optional<std::string> bytes = rc == SQLITE_OK ? serialize(copy) : std::nullopt;
  base::Error failure;
  if (!bytes) {
    failure = impl_->db.error(std::string("cannot copy it: ") + (copy != nullptr ? sqlite3_errmsg(copy) : "out of memory"));
  }
  sqlite3_close(copy);
  if (!bytes) return failure;
  base::Result<std::int64_t> recorded = serial();
  if (!recorded) return recorded.error();
  StateSnapshot out;
  out.database = std::move(*bytes);
  out.lineage = impl_->lineage;
  out.serial = *recorded;
  out.policy = impl_->policy;
  return out;
}

}  // namespace mkq::state
