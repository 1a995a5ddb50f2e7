// Private to runtime/state: the StateStore's connection and what it holds, and
// the helpers the store and the lock share.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/sqlite_db.h"
#include "runtime/state/state.h"

namespace mkq::state {

namespace detail {

// A private directory (owner-only) removed with everything in it when it goes.
class WorkingDirectory {
 public:
  WorkingDirectory() = default;
  ~WorkingDirectory();
  WorkingDirectory(WorkingDirectory&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  WorkingDirectory& operator=(WorkingDirectory&& other) noexcept;
  // A new one under the system's temporary directory.
  static base::Result<WorkingDirectory> make();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// What a StateStore holds (its Impl), visible to the stage's free functions.
struct StoreData {
  // A state kept in a cluster: the directory of its working copy (`path`),
  // declared first so that it goes last, after the connection closed.
  WorkingDirectory working_copy;
  // A state kept in a cluster (kubernetes://): every transaction is pushed
  // there before it commits, and the lock is its Lease. Null for a file.
  std::unique_ptr<ClusterState> cluster;
  std::filesystem::path path;
  Database db;
  std::string lineage;
  std::string policy;                   // meta.policy as last read or written
  int schema_version = 0;
  std::int64_t serial = 0;              // the last serial read or written
  std::optional<LockHolder> held_lock;  // the lock this store acquired, until released
  bool backed_up = false;               // this run's backup is written (once per run)
  const base::Clock* clock = &base::system_clock();  // the times the state records; never null
};

}  // namespace detail

struct StateStore::Impl : detail::StoreData {};

namespace detail {

// The store's clock, now, in RFC 3339 UTC: "2026-11-21T10:00:00Z".
std::string now_rfc3339(const StoreData& impl);
// `holder` with who and when filled in where empty: this process's user, host
// and pid (base/host.h), `now` (RFC 3339 UTC).
LockHolder complete_holder(LockHolder holder, const std::string& now);
// A random (version 4) UUID from OpenSSL's RAND_bytes; empty when the generator fails.
std::string random_uuid();

// Writes the state as it is now to PATH.backup (owner-only, replaced
// atomically, without the lock row).
base::Result<void> back_up(StoreData& impl);

// The lock row, if any.
base::Result<std::optional<LockHolder>> read_lock(Database& db);
// The lock as it stands: the row of a file, the unexpired Lease of a state in
// a cluster (one that cannot be read is taken for none).
base::Result<std::optional<LockHolder>> current_lock(StoreData& impl);

// Opens an existing state file (migrating it when `migrate_it`) and verifies it.
base::Result<void> open_verified(StoreData& store, const std::filesystem::path& path, bool migrate_it);

// The lock of a state in a cluster (StateStore::acquire_lock with `me` filled
// in): the Lease, then the working copy read again when the state moved since
// it was read.
base::Result<LockResult> acquire_cluster_lock(StoreData& impl, const LockHolder& me, LockHolder* previous);

}  // namespace detail
}  // namespace mkq::state
