#include "runtime/controller/leader.h"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "base/host.h"
#include "base/time.h"

namespace mkq::controller {

namespace {

// A follower steps this long after the lease it waits for expires.
constexpr std::chrono::milliseconds kExpiryMargin{50};

kube::LeaseOptions lease_options(const LeaderOptions& options) {
  kube::LeaseOptions lease;
  lease.namespace_name = options.namespace_name;
  lease.name = options.name;
  lease.identity = options.identity.empty() ? default_identity() : options.identity;
  lease.duration = options.duration;
  lease.annotations = {
      {"mkq.dev/holder", fmt::format("mkq controller on {} (pid {})", base::host_name(), base::process_id())}};
  return lease;
}

}  // namespace

std::string default_identity() {
  std::random_device device;
  return fmt::format("{}-{}-{:06x}", base::host_name(), base::process_id(), static_cast<unsigned>(device() & 0xffffffu));
}

LeaderElector::LeaderElector(kube::Client& client, const LeaderOptions& options, const base::Clock& clock,
                             std::function<void(bool leading, const std::string& why)> on_change)
    : lease_(client, lease_options(options), clock),
      options_(options),
      clock_(clock),
      on_change_(std::move(on_change)) {
  options_.identity = lease_.options().identity;
}

bool LeaderElector::leading() const {
  return leading_.load() && clock_.now() - renewed_.load() < options_.renew_deadline;
}

void LeaderElector::become(bool leading, const std::string& why) {
  lost_.store(!leading);
  if (leading_.exchange(leading) == leading) return;
  if (on_change_) on_change_(leading, why);
}

base::Error LeaderElector::about_lease(base::Error error) const {
  error.message = "the lease " + options_.namespace_name + "/" + options_.name + ": " + error.message;
  return error;
}

std::chrono::milliseconds LeaderElector::step() {
  const auto now = clock_.now();
  const std::chrono::milliseconds again = options_.renew_every;
  error_.reset();
  if (leading_.load()) {
    const kube::Result<void> renewed = lease_.renew();
    if (renewed.ok()) {
      renewed_.store(now);
      return again;
    }
    error_ = about_lease(renewed.error());
    if (renewed.error().conflict() || renewed.error().not_found()) {
      become(false, "lost the lease " + options_.namespace_name + "/" + options_.name + ": " +
                        renewed.error().message);
      return again;
    }
    // The server did not answer: still the leader until the renew deadline passes.
    if (now - renewed_.load() >= options_.renew_deadline) {
      become(false, fmt::format("could not renew the lease {}/{} for {}s: {}", options_.namespace_name, options_.name,
                                options_.renew_deadline.count() / 1000, renewed.error().message));
    }
    return again;
  }
  const kube::Result<kube::LeaseAttempt> attempt = lease_.try_acquire();
  if (!attempt.ok()) {  // unreachable or refused: a follower stays one; the next step tries again
    error_ = about_lease(attempt.error());
    return again;
  }
  const kube::LeaseAttempt& got = attempt.value();
  if (got.outcome == kube::LeaseOutcome::HeldByOther) {
    const std::optional<base::TimePoint> expires = got.record.expires();
    if (!expires) return again;
    const auto until = std::chrono::duration_cast<std::chrono::milliseconds>(*expires - now) + kExpiryMargin;
    return std::clamp(until, kExpiryMargin, again);
  }
  renewed_.store(now);
  std::string why = "holds the lease " + options_.namespace_name + "/" + options_.name;
  if (got.outcome == kube::LeaseOutcome::TookOver)
    why += " (taken over from " + got.record.holder + ", which let it expire)";
  become(true, why);
  return again;
}

void LeaderElector::release() {
  if (leading_.load()) (void)lease_.release();
  become(false, "gave the lease " + options_.namespace_name + "/" + options_.name + " back");
}

}  // namespace mkq::controller
