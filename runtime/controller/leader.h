// Leader election on a coordination.k8s.io/v1 Lease in the manager
// (kube::Lease, client-go's semantics): of the replicas that share a lease,
// only the one that holds it reconciles. A replica that cannot renew for
// `renew_deadline` stops leading before the lease expires for the others, so
// two replicas never lead at once while their clocks agree.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "base/clock.h"
#include "runtime/controller/controller.h"
#include "runtime/kube/lease.h"

namespace mkq::controller {

// This process's identity on the lease: "HOST-PID-XXXXXX" (six random hex digits).
std::string default_identity();

// Whether this replica may reconcile now; a token that reads true from the
// moment it may not (an apply in flight starts no new change).
class Leadership {
 public:
  virtual ~Leadership() = default;
  virtual bool leading() const = 0;
  virtual const std::atomic<bool>* lost() const = 0;
};

class LeaderElector final : public Leadership {
 public:
  // `client` (the manager) and `clock` must outlive the elector. `on_change`
  // (optional) hears every change of leadership, with a line for the log.
  LeaderElector(kube::Client& client, const LeaderOptions& options, const base::Clock& clock,
                std::function<void(bool leading, const std::string& why)> on_change = {});

  // One attempt: a follower tries to acquire the lease (taking it over once
  // expired); the leader renews it. Returns when to step again: the leader
  // in renew_every; a follower as the lease expires (so that it takes over
  // within the lease's duration of the leader's last renewal), at most
  // renew_every. Called by one thread (the elector's, or a test).
  std::chrono::milliseconds step();
  // Gives the lease back (the next replica takes it at once); stops leading.
  void release();

  // Why the last step could not read or write the lease (nullopt when it
  // could): the server unreachable, the namespace missing, access forbidden.
  const std::optional<base::Error>& error() const { return error_; }

  bool leading() const override;
  const std::atomic<bool>* lost() const override { return &lost_; }
  const std::string& identity() const { return options_.identity; }

 private:
  void become(bool leading, const std::string& why);
  // A failed read or write of the lease, its message naming the lease.
  base::Error about_lease(base::Error error) const;

  kube::Lease lease_;
  LeaderOptions options_;
  const base::Clock& clock_;
  std::function<void(bool, const std::string&)> on_change_;
  std::atomic<bool> leading_{false};
  std::atomic<bool> lost_{true};
  std::atomic<std::chrono::system_clock::time_point> renewed_{};  // the last successful write
  std::optional<base::Error> error_;  // of the last step (the stepping thread's alone)
};

}  // namespace mkq::controller
