// The lock of a state in a cluster: a Lease, NAME-lock (cluster_state.h),
// renewed on a thread of its own while held.
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "base/host.h"
#include "base/time.h"
#include "runtime/kube/lease.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/store_impl.h"

namespace mkq::state {

namespace {

// Who holds the lease, in words, beside spec.holderIdentity.
constexpr const char* kCommand = "mkq.dev/lock-command";
constexpr const char* kUser = "mkq.dev/lock-user";
constexpr const char* kHost = "mkq.dev/lock-host";
constexpr const char* kPid = "mkq.dev/lock-pid";
constexpr const char* kSince = "mkq.dev/lock-since";

std::string identity_of(const LockHolder& holder) {
  return fmt::format("{}@{} (pid {})", holder.user, holder.host, holder.pid);
}

kube::LeaseOptions lease_options(const ClusterAddress& address, const ClusterStateOptions& options,
                                 const LockHolder& holder) {
  kube::LeaseOptions lease;
  lease.namespace_name = address.namespace_name;
  lease.name = address.name + "-lock";
  lease.identity = identity_of(holder);
  lease.duration = options.lock_duration;
  lease.annotations = {{kCommand, holder.command},
                       {kUser, holder.user},
                       {kHost, holder.host},
                       {kPid, std::to_string(holder.pid)},
                       {kSince, holder.since}};
  return lease;
}

LockHolder holder_of(const kube::LeaseRecord& record) {
  return holder_of_lease(record.holder, record.annotations);
}

kube::Error lock_error(const ClusterAddress& address, const kube::Error& cause, const std::string& doing) {
  kube::Error error = cause;
  error.message = "state " + address.uri() + ": " + doing + " the lock (Lease " + address.namespace_name + "/" +
                  address.name + "-lock): " + cause.message;
  return error;
}

// A renewal's Conflict: another process holds the lock now.
kube::Error lost_lock(kube::Error conflict) {
  conflict.message = "the lock was lost: " + conflict.message;
  return conflict;
}

}  // namespace

LockHolder holder_of_lease(const std::string& identity, const std::map<std::string, std::string>& annotations) {
  const auto value = [&](const char* key) {
    const auto it = annotations.find(key);
    return it == annotations.end() ? std::string() : it->second;
  };
  LockHolder holder;
  holder.command = value(kCommand);
  holder.user = value(kUser);
  holder.host = value(kHost);
  holder.since = value(kSince);
  try {
    holder.pid = value(kPid).empty() ? 0 : std::stoll(value(kPid));
  } catch (const std::exception&) {
    holder.pid = 0;
  }
  // Annotations of another holder than the one named (or none): the identity
  // is all that is known.
  if (holder.host.empty() || identity_of(holder) != identity) holder = LockHolder{"", "", identity, 0, ""};
  return holder;
}

// The lease as the renewing thread holds it, and why it stopped being ours.
struct ClusterState::Renewal {
  Renewal(kube::Client& client, kube::LeaseOptions options, const base::Clock& clock)
      : lease(client, std::move(options), clock) {}

  kube::Lease lease;  // the thread's own (kube::Lease is not thread-safe)
  std::mutex mutex;   // guards stop, lost
  std::condition_variable wake;
  bool stop = false;
  std::optional<kube::Error> lost;  // the renewal's Conflict, reworded
  std::thread thread;

  // Renews every third of the duration until stopped or the lease is taken;
  // a failed renewal (the server unreachable) is tried again at the next turn.
  void run(std::chrono::seconds every) {
    std::unique_lock<std::mutex> hold(mutex);
    while (!wake.wait_for(hold, every, [this] { return stop; })) {
      hold.unlock();
      const kube::Result<void> renewed = lease.renew();
      hold.lock();
      if (!renewed.ok() && renewed.error().conflict()) {
        lost = lost_lock(renewed.error());
        return;
      }
    }
  }
};

// Here, where Renewal is complete.
ClusterState::ClusterState(kube::Client& client, ClusterAddress address, ClusterStateOptions options)
    : client_(client), address_(std::move(address)), options_(options) {}

ClusterState::~ClusterState() { unlock(); }

kube::Result<LockResult> ClusterState::lock(const LockHolder& me, LockHolder* previous) {
  if (renewal_ != nullptr) return LockResult::Acquired;  // ours already
  if (kube::Result<void> ready = ensure_namespace(); !ready.ok()) return ready.error();
  const kube::LeaseOptions lease =
      lease_options(address_, options_, detail::complete_holder(me, base::format_rfc3339(options_.clock->now())));
  kube::Lease attempt_lease(client_, lease, *options_.clock);
  const kube::Result<kube::LeaseAttempt> attempt = attempt_lease.try_acquire();
  if (!attempt.ok()) return lock_error(address_, attempt.error(), "cannot take");
  LockResult result = LockResult::Acquired;
  switch (attempt.value().outcome) {
    case kube::LeaseOutcome::HeldByOther:
      if (previous != nullptr) *previous = holder_of(attempt.value().record);
      return LockResult::Held;
    case kube::LeaseOutcome::TookOver:
      result = LockResult::AcquiredStale;
      if (previous != nullptr) {
        *previous = holder_of(attempt.value().record);
        const std::optional<base::TimePoint> expired = attempt.value().record.expires();
        previous->expired_at = expired ? base::format_rfc3339(*expired) : "an unknown time";
      }
      break;
    case kube::LeaseOutcome::Acquired:
    case kube::LeaseOutcome::Renewed:
      break;
  }
  renewal_ = std::make_unique<Renewal>(client_, lease, *options_.clock);
  if (options_.renew_in_background) {
    const auto every = std::max(std::chrono::seconds(1), options_.lock_duration / 3);
    Renewal* renewal = renewal_.get();
    renewal->thread = std::thread([renewal, every] { renewal->run(every); });
  }
  return result;
}

void ClusterState::unlock() {
  if (renewal_ == nullptr) return;
  {
    const std::lock_guard<std::mutex> hold(renewal_->mutex);
    renewal_->stop = true;
    renewal_->wake.notify_all();
  }
  if (renewal_->thread.joinable()) renewal_->thread.join();
  (void)renewal_->lease.release();  // best effort: otherwise it expires
  renewal_.reset();
}

bool ClusterState::locked() const { return renewal_ != nullptr; }

kube::Result<void> ClusterState::renew() {
  if (renewal_ == nullptr) return kube::Error{409, "Conflict", "state " + address_.uri() + ": the lock is not held", kube::Json()};
  const std::lock_guard<std::mutex> hold(renewal_->mutex);
  const kube::Result<void> renewed = renewal_->lease.renew();
  if (!renewed.ok() && renewed.error().conflict()) renewal_->lost = lost_lock(renewed.error());
  return renewed;
}

std::optional<kube::Error> ClusterState::lock_lost() const {
  if (renewal_ == nullptr) return std::nullopt;
  const std::lock_guard<std::mutex> hold(renewal_->mutex);
  return renewal_->lost;
}

kube::Result<std::optional<LockHolder>> ClusterState::lock_holder() {
  kube::Lease reader(client_, kube::LeaseOptions{address_.namespace_name, address_.name + "-lock", "-", {}, {}},
                     *options_.clock);
  const kube::Result<std::optional<kube::LeaseRecord>> record = reader.read();
  if (!record.ok()) return lock_error(address_, record.error(), "cannot read");
  if (!record.value() || !record.value()->held_at(options_.clock->now())) return std::optional<LockHolder>();
  return std::optional<LockHolder>(holder_of(*record.value()));
}

kube::Result<std::optional<LockHolder>> ClusterState::break_lock() {
  kube::Lease reader(client_, kube::LeaseOptions{address_.namespace_name, address_.name + "-lock", "-", {}, {}},
                     *options_.clock);
  const kube::Result<std::optional<kube::LeaseRecord>> record = reader.read();
  if (!record.ok()) return lock_error(address_, record.error(), "cannot read");
  if (!record.value()) return std::optional<LockHolder>();
  const kube::Result<kube::Json> removed =
      client_.remove(kube::lease_type(), address_.namespace_name, address_.name + "-lock", kube::DeleteOptions{});
  if (!removed.ok() && !removed.error().not_found()) return lock_error(address_, removed.error(), "cannot remove");
  if (record.value()->holder.empty()) return std::optional<LockHolder>();  // released: nobody held it
  return std::optional<LockHolder>(holder_of(*record.value()));
}

}  // namespace mkq::state
