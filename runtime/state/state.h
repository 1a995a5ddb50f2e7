// runtime/state: what mkq applied, when, and who is applying now -- one SQLite
// database (WAL) per policy, default .mkq/state.db beside the policy.
//
// Tables (schema version in PRAGMA user_version, migrated forward on open, a
// newer version than this build knows is refused): meta (lineage, serial, the
// policy's identity),
// inventory (one row per applied object), runs and run_objects (the history),
// lock (at most one row), credential_intents (the credential rotations under
// way). Every write is one transaction; a crash (kill -9)
// leaves the last committed state.
//
// Never stored: any Secret's data, tokens, kubeconfigs. The inventory keeps a
// digest of what was applied (SHA-256 of the canonical JSON, salted with the
// lineage), never the document.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "base/object_ref.h"

namespace mkq::state {

struct InventoryEntry {
  base::ObjectRef ref;  // the object; ref.address() is the inventory's key
  std::string uid;
  std::string resource_version;  // as the server answered the last apply
  std::string digest;            // see digest_of(); "sha256:<hex>"
  std::string applied_at;        // RFC 3339 UTC
  std::int64_t run_id = 0;       // the run that last applied it
  // The object existed before mkq first applied it: it is released (what mkq
  // set is handed back), never deleted, unless the user asks.
  bool adopted = false;
  // For an adopted object: what it held before mkq touched it, at each path mkq
  // sets -- JSON written and read by runtime/reconcile (Change::prior). Never a
  // Secret's values (only which keys it had).
  std::string prior;
};

// One object's outcome in a run.
struct ObjectOutcome {
  std::string address;
  std::string action;   // create, update, delete, replace
  std::string result;   // ok, failed, skipped
  std::string message;  // empty when ok
};

// A worker's credential being (re)issued: recorded before anything changes
// and cleared once the new credential is stored and every other credential of
// mkq's for the worker is revoked -- so a rotation interrupted anywhere (kill
// -9 after the new token is stored, say) is found by the next plan, which
// finishes it. Identifiers only: never a token, a key or a kubeconfig.
struct CredentialIntent {
  std::string worker;                // the worker (its cluster name); one intent per worker
  std::string secret;                // NAMESPACE/NAME of the manager's Secret that receives the new credential
  std::string account;               // NAMESPACE/NAME of the worker's ServiceAccount the tokens are for
  std::vector<std::string> revokes;  // anchor Secrets (names, in the account's namespace) whose tokens go
  std::string issues;                // the anchor Secret of the token being issued
  std::string started_at;            // RFC 3339 UTC; set by the store when empty
};

// One record of StateStore::record_batch: an object applied (entry), an
// object deleted (address), an object's outcome in a run (run_id, outcome),
// a credential intent begun (intent, replacing the worker's earlier one) or
// finished (address: the worker). Intents are no inventory change: the serial
// stays.
struct StateWrite {
  enum class Kind { Applied, Deleted, Outcome, IntentBegun, IntentFinished };
  Kind kind = Kind::Outcome;
  InventoryEntry entry;
  std::string address;
  std::int64_t run_id = 0;
  ObjectOutcome outcome;
  CredentialIntent intent{};  // default-initialised: aggregate initialisers may leave it out
};

struct RunRecord {
  std::int64_t id = 0;
  std::string started_at, finished_at;  // finished_at empty: interrupted (the process died)
  std::string command;                  // "apply", "destroy"
  std::string policy_digest;
  std::string result;                   // "running", "success", "failed", "partial", "interrupted"
  std::int64_t serial_before = 0, serial_after = 0;
  std::vector<ObjectOutcome> objects;   // filled by history(..., with_objects=true)
};

struct LockHolder {
  std::string command;   // "apply", "destroy", "credentials rotate"
  std::string user;
  std::string host;
  std::int64_t pid = 0;
  std::string since;     // RFC 3339 UTC
  // A holder of a state's Lease in a cluster (cluster_state.h) that stopped
  // renewing it: when its lease ran out (RFC 3339 UTC); "" otherwise.
  std::string expired_at{};  // default-initialised: aggregate initialisers may leave it out
  // "apply by alice@host1 (pid 4242) since 2026-11-21T10:00:00Z" (without the
  // pid when none is known)
  std::string describe() const;
  // Why a lock taken over was stale: "the process no longer runs", or "its
  // lease expired at ..." for a Lease.
  std::string why_stale() const;
  // True when the holder is a process on this host that still runs. A holder
  // on another host is never known to be gone: false.
  bool runs_here() const;
};

enum class LockResult { Acquired, AcquiredStale, Held };

class ClusterState;    // cluster_state.h: a state kept in a Kubernetes cluster
struct StateSnapshot;  // cluster_state.h

// StateStore::unlock's answer.
enum class UnlockResult { Released, NotLocked, HolderRuns };

// What StateStore::forget and forget_clusters did: the entries forgotten, or
// -- when `unknown` is not empty -- nothing at all.
struct ForgetResult {
  std::vector<InventoryEntry> forgotten;  // sorted by address
  std::vector<std::string> unknown;       // addresses (or clusters) the inventory does not hold
};

// The reason (base::Error::reason) of a StateStore's own failures: the file,
// the database or the working copy failed. A state kept in a cluster passes
// the cluster's errors through as they are (Conflict, 409, when another writer
// got there first). Messages name the state: "state /x/state.db: database is
// locked". A failure that concerns one object (an inventory entry, an
// object's outcome) carries its address in base::Error::address.
inline constexpr const char* kStateError = "StateError";

class StateStore {
 public:
  // Opens (creating the directory, owner-only, and the file when absent) and
  // migrates. Every open verifies the file (SQLite's integrity check, schema
  // version, lineage) and refuses a zero-byte file; a damaged state's error
  // names its backup ("state /x/state.db: file is not a database; ...").
  static base::Result<std::unique_ptr<StateStore>> open(const std::filesystem::path& path);
  // Never creates or migrates; verifies as open() does. A null store when
  // there is none; an Error when it is unreadable or damaged.
  static base::Result<std::unique_ptr<StateStore>> open_existing(const std::filesystem::path& path);
  // The state kept in a cluster (cluster_state.h), read into a private working
  // copy (an owner-only temporary directory, removed with the store) and
  // verified as a file is. `create`: made when there is none, and migrated;
  // else a null store when there is none. Every transaction is pushed to the
  // cluster before it commits -- one that cannot be (another writer got there
  // first) is not committed and its call fails -- and the lock is the
  // cluster's Lease. Messages name the state's kubernetes:// address.
  static base::Result<std::unique_ptr<StateStore>> open_in_cluster(std::unique_ptr<ClusterState> cluster, bool create);
  ~StateStore();
  StateStore(const StateStore&) = delete;
  StateStore& operator=(const StateStore&) = delete;

  const std::filesystem::path& path() const;  // a state in a cluster: its working copy
  // Where the state is kept, as the user names it: the file's path, or kubernetes://CONTEXT/NAMESPACE/NAME.
  std::string location() const;
  // The committed database as a file's bytes, without the lock (what `mkq
  // state push` sends).
  base::Result<StateSnapshot> snapshot() const;
  std::string lineage() const;   // a random UUID chosen when the file was created
  // The identity of the policy this state belongs to (the mkq.dev/policy label
  // of its objects); empty until its first apply records it.
  std::string policy() const;
  // Records the identity (one transaction; the serial does not change).
  base::Result<void> set_policy(const std::string& policy);
  // +1 with every committed inventory change; read from the database.
  base::Result<std::int64_t> serial() const;
  int schema_version() const;
  // The clock whose time the state records (lock, runs, applied objects): the
  // system's unless a caller -- a test, a composition root -- chooses another,
  // which must outlive the store.
  void use_clock(const base::Clock& clock);

  // The apply lock. Acquired: it is ours. AcquiredStale: the holder was a
  // process on this host that no longer runs; its lock was taken over
  // (*previous says whose). Held: someone else holds it (*previous says who);
  // nothing changed -- an answer, not an error. The first acquisition of a
  // store (once per run) keeps the state as it is as PATH.backup (owner-only,
  // without the lock) unless nothing was ever recorded (serial 0); when that
  // fails the lock is released and the answer is an Error, as it is when the
  // lock cannot be read or written.
  base::Result<LockResult> acquire_lock(const LockHolder& me, LockHolder* previous);
  // Releases our lock (no-op when not ours). An Error when it could not be
  // removed: it is still ours, and a later release (or the destructor) tries again.
  base::Result<void> release_lock();
  // Removes whatever lock there is; who held it (nullopt: nobody).
  base::Result<std::optional<LockHolder>> force_unlock();
  // The holder of the lock; nullopt when free.
  base::Result<std::optional<LockHolder>> lock_holder() const;

  base::Result<std::vector<InventoryEntry>> inventory() const;  // sorted by address
  // The entry at `address`; nullopt when the inventory has none.
  base::Result<std::optional<InventoryEntry>> find(const std::string& address) const;
  // Insert or replace by address / remove; each bumps the serial. An Error
  // about the entry's address on a database failure.
  base::Result<void> record_applied(const InventoryEntry& entry);
  base::Result<void> record_deleted(const std::string& address);

  // Several records in one transaction, in order: an apply's group commit,
  // one commit for many objects instead of one each. The same effect as the
  // single calls (the serial grows by one per inventory change); all or
  // nothing. A failure of one record is about its address (the entry's, the
  // deleted object's, the outcome's, the worker of an intent); a failed
  // commit is about none.
  base::Result<void> record_batch(const std::vector<StateWrite>& writes);

  // Credential transactions (CredentialIntent): the intents not finished, by
  // worker (empty for a file older than schema version 3). Begin and finish
  // are record_batch writes (IntentBegun, IntentFinished).
  base::Result<std::vector<CredentialIntent>> credential_intents() const;

  // History. begin_run answers the new run's id.
  base::Result<std::int64_t> begin_run(const std::string& command, const std::string& policy_digest);
  base::Result<void> record_outcome(std::int64_t run_id, const ObjectOutcome& outcome);
  base::Result<void> finish_run(std::int64_t run_id, const std::string& result);
  // Newest first; runs left "running" by a dead process read as "interrupted".
  base::Result<std::vector<RunRecord>> history(int limit, bool with_objects) const;
  // One run with its objects (`mkq history RUN`); nullopt when there is none.
  base::Result<std::optional<RunRecord>> find_run(std::int64_t run_id) const;

  // A state in a cluster: its chunk Secrets that no index names and that are
  // older than its serial (ClusterState::orphaned_chunks), which the first
  // write of a run removes; always none for a file.
  base::Result<std::vector<std::string>> orphaned_chunks() const;

  // PRAGMA integrity_check's answer ("ok" when sound; else the problems, one
  // per line); an Error when the check itself could not run.
  base::Result<std::string> integrity_check() const;

  // `mkq state unlock`: removes the lock, unless its holder is a process that
  // still runs on this host and `force` is false (HolderRuns: nothing changed).
  // *holder says who held it (Released, HolderRuns).
  base::Result<UnlockResult> unlock(bool force, LockHolder* holder);

  // `mkq state rm`: forgets inventory entries without touching any cluster, in
  // one transaction; the serial grows by the number forgotten. All or nothing:
  // when an address is not in the inventory, the answer's `unknown` names it
  // and nothing is forgotten.
  base::Result<ForgetResult> forget(const std::vector<std::string>& addresses);
  // The same for every entry of the named clusters; a cluster with no entry is unknown.
  base::Result<ForgetResult> forget_clusters(const std::vector<std::string>& clusters);

 private:
  struct Impl;
  explicit StateStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A run that is over as soon as it began (`mkq state rm`): begun as
// `command`, its outcomes recorded, finished as `result`; the run's id.
base::Result<std::int64_t> record_finished_run(StateStore& store, const std::string& command,
                                               const std::vector<ObjectOutcome>& outcomes, const std::string& result);

// "sha256:<hex>" of the canonical (sorted-key, compact) JSON of `document`,
// salted with `lineage`. Used for inventory digests and never reversible.
std::string digest_of(const std::string& canonical_json, const std::string& lineage);

// The default state of a policy that lives in `directory`: DIR/.mkq/state.db
// for the directory's policy (stem empty), DIR/.mkq/STEM.state.db for a file
// that is one *.mkq among several (kueue::policy_home decides which).
std::filesystem::path default_state_path(const std::filesystem::path& directory, const std::string& stem);

}  // namespace mkq::state
