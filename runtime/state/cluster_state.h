// The state kept in a Kubernetes cluster: kubernetes://CONTEXT/NAMESPACE/NAME.
//
// The SQLite database, compressed (zlib), is split across Secrets of at most
// ClusterStateOptions::chunk_bytes (900 KiB: a Secret holds 1 MiB) named
// NAME-<write>-<n>, and one index Secret, NAME, names the chunks with the
// database's SHA-256, lineage, serial and policy. A write creates the new
// chunks, then updates the index with the resourceVersion last read as its
// precondition, then deletes the old chunks: of two writers one wins and the
// other gets Conflict and changes nothing (its new chunks are removed again),
// and a reader never sees half a write. A crash leaves the index on the last
// write that got through; at worst chunks nobody names are left behind, and
// the first write of the next process that writes removes them
// (orphaned_chunks()).
//
// The lock is a coordination.k8s.io/v1 Lease, NAME-lock (kube::Lease): the
// holder's identity is "user@host (pid N)" and annotations say which command
// holds it since when; while held it is renewed in the background every third
// of its duration, and a holder that stopped renewing (a crashed process)
// loses it when it expires.
//
// The namespace is created when absent and labelled as mkq's; nothing here
// ever enters a policy's inventory, so no apply prunes it. Never stored: any
// credential -- the state holds digests, never documents (state.h).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "runtime/kube/client.h"
#include "runtime/state/state.h"

namespace mkq::state {

// Where a state in a cluster is: the kubeconfig context of the cluster, the
// namespace and the name of its index Secret.
struct ClusterAddress {
  std::string context;
  std::string namespace_name;
  std::string name;

  std::string uri() const;  // "kubernetes://CONTEXT/NAMESPACE/NAME"
};

inline constexpr std::string_view kClusterScheme = "kubernetes://";

// `text` names a state in a cluster (it starts with kubernetes://).
bool is_cluster_address(const std::string& text);
// The address of kubernetes://CONTEXT/NAMESPACE/NAME; an Error (ConfigError)
// when a part is missing or NAMESPACE/NAME are no DNS labels (NAME at most 40
// characters, so that its chunks' and lock's names stay valid).
base::Result<ClusterAddress> parse_cluster_address(const std::string& text);

struct ClusterStateOptions {
  std::chrono::seconds lock_duration{60};  // the Lease's leaseDurationSeconds
  bool renew_in_background = true;         // false: the caller renews (tests move a fake clock)
  std::size_t chunk_bytes = 900 * 1024;    // compressed bytes per chunk Secret
  const base::Clock* clock = &base::system_clock();  // the Lease's times; must outlive the ClusterState
};

// One state database as the cluster keeps it.
struct StateSnapshot {
  std::string database;  // the SQLite file's bytes
  std::string lineage;
  std::int64_t serial = 0;
  std::string policy;    // the policy's identity, "" until recorded
};

// How a write that lost to another writer reads (Conflict, 409).
std::string changed_by_another_writer(const ClusterAddress& address);

// One state in one cluster. Thread-compatible: one thread at a time (the lock's
// renewal runs on a thread of its own, with its own Lease object).
class ClusterState {
 public:
  // `client` must outlive this object unless it is handed over with keep().
  ClusterState(kube::Client& client, ClusterAddress address, ClusterStateOptions options = {});
  ~ClusterState();  // stops the renewal; releases the lock still held
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  // Owns the client from now on (the composition root makes it for us).
  void keep(std::unique_ptr<kube::Client> client);
  const ClusterAddress& address() const { return address_; }

  // Reads the index and its chunks and verifies them (checksum, format);
  // nullopt when there is no state. The index read is the base of the next
  // write(). A damaged state is an error naming what is wrong ("... is
  // damaged: its checksum does not match ...").
  kube::Result<std::optional<StateSnapshot>> read();
  // The index's resourceVersion as read or written last; "" before, or when
  // there was no state.
  const std::string& base_version() const { return base_version_; }
  // The index's resourceVersion now (one GET); "" when there is no state.
  kube::Result<std::string> current_version();
  // Makes the next write() replace whatever the index is now, read or not,
  // damaged or not (`mkq state push --force`).
  kube::Result<void> overwrite_next();

  // Writes `snapshot` over the state last read or written (none: creates it).
  // Conflict (409) with changed_by_another_writer() when another writer got
  // there first: nothing of this write remains. Refused (409) once the lock
  // was lost to another holder.
  kube::Result<void> write(const StateSnapshot& snapshot);

  // The apply lock (LockResult as StateStore::acquire_lock): Acquired,
  // AcquiredStale (the previous holder's lease had expired; *previous says
  // whose) or Held (*previous says who holds it). Acquired leases are renewed
  // in the background until unlock().
  kube::Result<LockResult> lock(const LockHolder& me, LockHolder* previous);
  // Releases our lock (no-op when not held); best effort.
  void unlock();

  // The chunk Secrets of this state that the index read or written last does
  // not name and that were written for an older serial than it (by a writer
  // that crashed between its chunks and its index, or whose clean-up after
  // losing the race failed): their names, sorted. Only Secrets labelled as
  // this state's chunks, of type mkq.dev/state-chunk and named NAME-..., are
  // ever considered; a chunk without a serial (an older mkq's) counts as
  // serial 0. Chunks of the current serial are left alone: they may be a
  // concurrent writer's, about to lose the race and remove them itself.
  kube::Result<std::vector<std::string>> orphaned_chunks();
  // Deletes them (best effort: one that cannot be deleted is left for the
  // next time); the names deleted. Done by the first successful write().
  kube::Result<std::vector<std::string>> remove_orphaned_chunks();
  bool locked() const;
  // Renews our lease now (what the background renewal does).
  kube::Result<void> renew();
  // The holder of an unexpired lease; nullopt when free.
  kube::Result<std::optional<LockHolder>> lock_holder();
  // `mkq state unlock`: deletes the lease whoever holds it; the holder it
  // named, if any (expired or not).
  kube::Result<std::optional<LockHolder>> break_lock();
  // Why our lock is no longer ours (another process took it after our
  // renewals failed: the renewal's Conflict); nullopt while it is.
  std::optional<kube::Error> lock_lost() const;

 private:
  struct Renewal;
  kube::Result<void> ensure_namespace();
  kube::Result<std::string> read_chunks(const kube::Json& index);
  void remove_chunks(const std::vector<std::string>& names);

  kube::Client& client_;
  std::unique_ptr<kube::Client> owned_;
  ClusterAddress address_;
  ClusterStateOptions options_;
  std::string base_version_;                // the index's resourceVersion read or written last
  std::vector<std::string> base_chunks_;    // the chunks that index names
  std::int64_t base_serial_ = 0;            // the serial that index gives
  bool namespace_ready_ = false;
  bool orphans_swept_ = false;              // the first successful write removed the orphaned chunks
  std::unique_ptr<Renewal> renewal_;        // while the lock is ours
};

// What `mkq state push` and `mkq state pull` did.
struct Transfer {
  enum class Outcome { Copied, LockHeld };
  Outcome outcome = Outcome::Copied;
  LockHolder holder;       // LockHeld: who holds the lock of the state to be replaced
  std::string lineage;     // Copied: of the state copied
  std::int64_t serial = 0;
  bool replaced = false;   // Copied: a state was there before (of this lineage, or another with force)
};

// `mkq state push`: the state in `file` becomes the state in `cluster`, under
// the cluster's lock (taken as `me`; held by another: LockHeld, nothing
// changed). Refused, nothing changed, when the file is missing, damaged or
// locked, or -- unless `force` -- when the cluster holds a state of another
// lineage, a newer serial, or a damaged one.
kube::Result<Transfer> push_state(const std::filesystem::path& file, ClusterState& cluster, const LockHolder& me,
                                  bool force);
// `mkq state pull`: the state in `cluster` becomes the file (owner-only,
// replaced atomically, its directory made when absent). Refused, nothing
// changed, when the cluster holds no state or a damaged one, when the file is
// locked, or -- unless `force` -- when the file is a state of another lineage,
// of a newer serial, or damaged.
kube::Result<Transfer> pull_state(ClusterState& cluster, const std::filesystem::path& file, bool force);

// The LockHolder a Lease written by mkq names (its annotations); a Lease
// written by something else names its holderIdentity as the user.
LockHolder holder_of_lease(const std::string& identity, const std::map<std::string, std::string>& annotations);

}  // namespace mkq::state
