// A coordination.k8s.io/v1 Lease as a lock between processes that share
// nothing but a cluster: the apply lock of a state kept in the cluster, and
// the controller's leader election. The semantics are client-go's
// leaderelection: the holder writes spec.holderIdentity and renews
// spec.renewTime; a lease whose renewTime + leaseDurationSeconds has passed is
// free for anyone to take (a crashed holder loses it by expiry); every write
// is an update with the resourceVersion just read, so of two processes that
// race for it exactly one wins and the other reads it as held.
//
// Times come from a base::Clock (the caller's), so tests move time. Clocks of
// different machines are trusted to agree within a small fraction of the
// duration, as client-go's are.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/time.h"
#include "runtime/kube/client.h"

namespace mkq::kube {

// How Leases are served: a built-in kind, never discovered.
ResourceType lease_type();

// A Lease as read from the server.
struct LeaseRecord {
  std::string namespace_name, name;
  std::string holder;                  // spec.holderIdentity; empty: released
  std::chrono::seconds duration{0};    // spec.leaseDurationSeconds
  std::optional<base::TimePoint> acquired;  // spec.acquireTime
  std::optional<base::TimePoint> renewed;   // spec.renewTime
  int transitions = 0;                 // spec.leaseTransitions: how often the holder changed
  std::map<std::string, std::string> annotations;  // metadata.annotations (who holds it, in words)
  std::string resource_version;

  // When it is free for another holder: renewTime (or acquireTime) +
  // leaseDurationSeconds; nullopt when it names no holder or no time.
  std::optional<base::TimePoint> expires() const;
  // It names a holder whose lease has not expired at `now`.
  bool held_at(base::TimePoint now) const;
};

struct LeaseOptions {
  std::string namespace_name;
  std::string name;
  std::string identity;                 // this process's spec.holderIdentity; never empty
  std::chrono::seconds duration{15};    // spec.leaseDurationSeconds
  // Written with every acquisition (metadata.annotations), e.g. which command
  // of which user on which host holds it; never a secret.
  std::map<std::string, std::string> annotations;
};

enum class LeaseOutcome {
  Acquired,     // it was absent or released: now ours
  TookOver,     // its holder let it expire: now ours (LeaseAttempt::record says whose it was)
  Renewed,      // it was ours already
  HeldByOther,  // someone else holds it and it has not expired (record says who, until when)
};

struct LeaseAttempt {
  LeaseOutcome outcome = LeaseOutcome::HeldByOther;
  // Ours (Acquired, Renewed): the lease as written. TookOver: as it was
  // before (the previous holder). HeldByOther: as the other holds it.
  LeaseRecord record;
};

// One lease, as one identity sees it. Not thread-safe: one thread uses it
// (a renewing thread owns its own Lease object or is serialised by the caller).
class Lease {
 public:
  // `client` and `clock` must outlive the Lease.
  Lease(Client& client, LeaseOptions options, const base::Clock& clock);

  // One attempt: creates the lease when absent, takes it when released or
  // expired, renews it when ours. Losing a race (AlreadyExists or Conflict on
  // the write) is HeldByOther with the winner's record. Other answers (the
  // server unreachable, Forbidden) are errors.
  Result<LeaseAttempt> try_acquire();
  // Ours: renewTime becomes now. Conflict (409) when it is no longer ours --
  // someone took it over after it expired -- with a message naming the holder.
  Result<void> renew();
  // Ours: holderIdentity cleared and leaseDurationSeconds 1, so the next
  // process takes it at once (client-go's ReleaseOnCancel). Not ours or
  // absent: nothing is written.
  Result<void> release();
  // The lease as it is now; nullopt when there is none.
  Result<std::optional<LeaseRecord>> read();

  const LeaseOptions& options() const { return options_; }

 private:
  Result<LeaseAttempt> write(const Json& object, bool create, LeaseOutcome outcome, LeaseRecord before);
  Json document(const std::optional<LeaseRecord>& existing, bool keep_acquired) const;

  Client& client_;
  LeaseOptions options_;
  const base::Clock& clock_;
};

// A LeaseRecord from a Lease object as the server returns it.
LeaseRecord lease_record_of(const Json& object);

}  // namespace mkq::kube
