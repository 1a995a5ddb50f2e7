// RequestPacing: the client-side limit of each regime and the retry loop (pacing.h).
#include "runtime/kube/pacing.h"

#include <algorithm>
#include <thread>

namespace mkq::kube {

namespace {

using SteadyClock = std::chrono::steady_clock;

class SteadyTimer final : public Timer {
 public:
  SteadyClock::time_point now() const override { return SteadyClock::now(); }
  void sleep_for(std::chrono::nanoseconds duration) const override { std::this_thread::sleep_for(duration); }
};

bool retryable_status(int status) {
  return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

constexpr int kMaxRetryAfterSeconds = 60;

}  // namespace

const Timer& steady_timer() {
  static const SteadyTimer timer;
  return timer;
}

RequestPacing::RequestPacing(const PacingOptions& options, const Timer& timer, std::uint64_t seed)
    : options_(options),
      timer_(timer),
      tokens_(static_cast<double>(std::max(1, options.burst))),
      last_(timer.now()),
      random_(seed) {}

RateRegime RequestPacing::regime() const {
  if (options_.explicit_limit) return RateRegime::Explicit;
  return announced_.load() ? RateRegime::ServerFairness : RateRegime::ClientLimit;
}

// Token bucket: `burst` requests at once, then `qps` per second. A caller
// reserves its token (the bucket may go negative) and sleeps outside the lock.
void RequestPacing::take_token() {
  if (options_.qps <= 0.0 || regime() == RateRegime::ServerFairness) return;
  std::chrono::duration<double> delay{0.0};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const SteadyClock::time_point now = timer_.now();
    const double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    const double burst = static_cast<double>(std::max(1, options_.burst));
    tokens_ = std::min(burst, tokens_ + elapsed * options_.qps) - 1.0;
    if (tokens_ < 0.0) delay = std::chrono::duration<double>(-tokens_ / options_.qps);
  }
  if (delay.count() > 0.0) timer_.sleep_for(std::chrono::duration_cast<std::chrono::nanoseconds>(delay));
}

std::chrono::milliseconds RequestPacing::retry_wait(int attempt, int status, std::optional<int> retry_after) {
  const long long base = std::max<long long>(1, options_.backoff_base.count());
  const long long cap = std::max<long long>(base, options_.backoff_max.count());
  const long long ceiling = attempt >= 30 ? cap : std::min(cap, base << std::max(0, attempt));
  long long jitter = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jitter = std::uniform_int_distribution<long long>(0, ceiling)(random_);  // full jitter
  }
  if (status == 429 && retry_after && *retry_after > 0) {
    return std::chrono::milliseconds(std::min(*retry_after, kMaxRetryAfterSeconds) * 1000LL + jitter);
  }
  return std::chrono::milliseconds(jitter);
}

namespace {
thread_local int throttled_here = 0;
}  // namespace

int throttled_on_this_thread() { return throttled_here; }

PacedRun RequestPacing::run(std::chrono::milliseconds timeout,
                            const std::function<AttemptOutcome(std::chrono::milliseconds budget)>& attempt) {
  const SteadyClock::time_point start = timer_.now();
  const SteadyClock::time_point deadline = start + timeout;
  const auto remaining = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - timer_.now());
  };
  PacedRun run;
  const auto ended = [&](bool answered) {
    run.answered = answered;
    run.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(timer_.now() - start);
    return run;
  };
  int retry = 0;  // retries spent (an at-once retry counts too)
  for (;;) {
    take_token();
    const std::chrono::milliseconds budget = remaining();
    if (budget.count() <= 0) return ended(false);
    const AttemptOutcome outcome = attempt(budget);
    ++run.attempts;
    if (outcome.priority_and_fairness) announced_.store(true);
    if (outcome.status == 429) {
      ++throttled_;
      ++throttled_here;
    }
    if (outcome.again_at_once && retry < options_.max_retries) {
      ++retry;
      ++retries_;
      continue;
    }
    const bool retryable = outcome.may_retry && (outcome.status == 0 || retryable_status(outcome.status));
    if (!retryable) return ended(true);
    if (retry >= (outcome.status == 0 ? options_.max_transport_retries : options_.max_retries)) {
      run.retries_spent = true;
      return ended(true);
    }
    const std::chrono::milliseconds wait = retry_wait(retry, outcome.status, outcome.retry_after);
    if (wait >= remaining()) {  // no time for another attempt: this outcome is the result
      run.out_of_time = true;
      return ended(true);
    }
    ++retry;
    ++retries_;
    timer_.sleep_for(wait);
  }
}

}  // namespace mkq::kube
