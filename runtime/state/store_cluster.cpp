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

#include "base/host.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

namespace fs = std::filesystem;

void set_error(std::string* error, const std::string& message) {
  if (error != nullptr) *error = message;
}

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
bool write_file(const fs::path& path, const std::string& bytes, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    set_error(error, "cannot write " + path.string() + ": " + std::system_category().message(errno));
    return false;
  }
  ::fchmod(fd, 0600);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      set_error(error, "cannot write " + path.string() + ": " + std::system_category().message(errno));
      ::close(fd);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    set_error(error, "cannot write " + path.string() + ": " + std::system_category().message(errno));
    return false;
  }
  return true;
}

// What is pushed before a transaction of a state in a cluster commits.
bool push(detail::StoreData& impl, std::string* error) {
  StateSnapshot snapshot;
  const std::optional<std::string> bytes = serialize(impl.db.handle());
  Statement meta(impl.db.handle(), "SELECT serial, policy FROM meta WHERE id = 1");
  if (!bytes || !meta.step()) {
    set_error(error, impl.db.error_message());
    return false;
  }
  snapshot.database = *bytes;
  snapshot.lineage = impl.lineage;
  snapshot.serial = meta.integer(0);
  snapshot.policy = meta.text(1);
  const kube::Result<void> written = impl.cluster->write(snapshot);
  if (!written.ok()) set_error(error, written.error().message);
  return written.ok();
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
bool reload(detail::StoreData& impl, std::string* error) {
  const std::string uri = impl.cluster->address().uri();
  const bool was_absent = impl.cluster->base_version().empty();
  kube::Result<std::optional<StateSnapshot>> read = impl.cluster->read();
  if (!read.ok()) {
    set_error(error, read.error().message);
    return false;
  }
  if (!read.value() || (read.value()->lineage != impl.lineage && !was_absent)) {
    set_error(error, "state " + uri + " was " +
                         (read.value() ? "replaced by another state (lineage " + read.value()->lineage + ")"
                                       : std::string("removed")) +
                         " since it was read; nothing was changed: run again");
    return false;
  }
  impl.db.close();
  std::error_code ec;
  fs::remove(impl.path.string() + "-wal", ec);
  fs::remove(impl.path.string() + "-shm", ec);
  if (!write_file(impl.path, read.value()->database, error) || !detail::open_verified(impl, impl.path, true, error)) {
    if (error != nullptr) *error = named(*error, impl.path, uri);
    return false;
  }
  return true;
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

WorkingDirectory WorkingDirectory::make(std::string* error) {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "mkq-state-XXXXXX").string();
  WorkingDirectory made;
  if (ec || ::mkdtemp(pattern.data()) == nullptr) {  // mkdtemp: mode 0700
    set_error(error, "cannot make a working copy of the state under " + fs::temp_directory_path(ec).string() + ": " +
                         std::system_category().message(errno));
    return made;
  }
  made.path_ = pattern;
  return made;
}

LockResult acquire_cluster_lock(StoreData& impl, const LockHolder& me, LockHolder* previous) {
  const auto failed = [&](const std::string& why) {
    impl.cluster->unlock();
    impl.last_error = why;
    if (previous != nullptr) *previous = LockHolder{};
    return LockResult::Held;
  };
  const kube::Result<LockResult> locked = impl.cluster->lock(me, previous);
  if (!locked.ok()) return failed(locked.error().message);
  if (locked.value() == LockResult::Held) return LockResult::Held;
  // What was read before the lock may have moved since: read it again.
  const kube::Result<std::string> version = impl.cluster->current_version();
  if (!version.ok()) return failed(version.error().message);
  std::string error;
  if (version.value() != impl.cluster->base_version() && !reload(impl, &error)) return failed(error);
  impl.held_lock = me;
  return locked.value();
}

}  // namespace detail

std::unique_ptr<StateStore> StateStore::open_in_cluster(std::unique_ptr<ClusterState> cluster, bool create,
                                                        std::string* error) {
  if (error != nullptr) error->clear();
  const std::string uri = cluster->address().uri();
  kube::Result<std::optional<StateSnapshot>> read = cluster->read();
  if (!read.ok()) {
    set_error(error, read.error().message);
    return nullptr;
  }
  if (!read.value() && !create) return nullptr;
  detail::WorkingDirectory working = detail::WorkingDirectory::make(error);
  if (working.path().empty()) return nullptr;
  const fs::path path = working.path() / "state.db";
  if (read.value() && !write_file(path, read.value()->database, error)) return nullptr;
  std::unique_ptr<StateStore> store = create ? open(path, error) : open_existing(path, error);
  if (store == nullptr) {
    if (error != nullptr) *error = named(*error, path, uri);
    return nullptr;
  }
  if (read.value() && (store->lineage() != read.value()->lineage || store->serial() != read.value()->serial)) {
    set_error(error, "state " + uri + " is damaged: its index gives lineage " + read.value()->lineage + " and serial " +
                         std::to_string(read.value()->serial) + ", its database " + store->lineage() + " and " +
                         std::to_string(store->serial()) + "; nothing was changed");
    return nullptr;
  }
  Impl& impl = *store->impl_;
  impl.working_copy = std::move(working);
  impl.cluster = std::move(cluster);
  impl.db.set_name(uri);
  impl.db.set_before_commit([&impl](std::string* why) { return push(impl, why); });
  return store;
}

std::string StateStore::location() const {
  return impl_->cluster ? impl_->cluster->address().uri() : impl_->path.string();
}

bool StateStore::snapshot(StateSnapshot* out, std::string* error) const {
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
  if (!bytes) {
    set_error(error, impl_->db.error_message(std::string("cannot copy it: ") +
                                             (copy != nullptr ? sqlite3_errmsg(copy) : "out of memory")));
  }
  sqlite3_close(copy);
  if (!bytes) return false;
  out->database = std::move(*bytes);
  out->lineage = impl_->lineage;
  out->serial = serial();
  out->policy = impl_->policy;
  return true;
}

}  // namespace mkq::state
