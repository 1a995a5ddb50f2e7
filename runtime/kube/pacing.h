// How a client paces its requests to one cluster: which rate limit governs
// them (its regime), and the retries of an answer the server asks to have
// again later. The HTTP client (http_client.cpp) runs every request through
// RequestPacing::run; the transport stays outside, behind the attempt callback,
// so the pacing is unit-tested with a fake transport and a fake Timer
// (tests/kube/pacing_test.cpp).
//
// The regimes (docs/apply.md, "Speed and politeness"):
//   - a server that announces API Priority and Fairness (APF: the
//     X-Kubernetes-PF-FlowSchema-UID / -PriorityLevel-UID response headers)
//     governs by itself: no client-side limit once one answer carried them, as
//     Flux and cert-manager do with client-go (kubernetes#111880 asks the
//     same of client-go itself); its 429s are honoured;
//   - a server that announces nothing: a token bucket of the default size
//     (ClientOptions, high enough not to dominate a large apply);
//   - a limit the user set (--qps/--burst) always holds, whatever the server
//     announces (cert-manager#9158).
// Invariant: no attempt starts, and no wait begins, that would end after the
// request's deadline; every wait after a 429 is at least its Retry-After (read
// as at most a minute).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <random>

#include "runtime/kube/client.h"

namespace mkq::kube {

// Steady time and sleeping: a port, so the pacing's tests move time themselves.
class Timer {
 public:
  virtual ~Timer() = default;
  virtual std::chrono::steady_clock::time_point now() const = 0;
  virtual void sleep_for(std::chrono::nanoseconds duration) const = 0;
};

// std::chrono::steady_clock and std::this_thread::sleep_for.
const Timer& steady_timer();

struct PacingOptions {
  double qps = 0;                // the token bucket's rate; <= 0: no client-side limit at all
  int burst = 1;                 // the bucket's size
  bool explicit_limit = false;   // the user set the limit: it holds whatever the server announces
  int max_retries = 10;  // after the first attempt, while the answers ask to be asked again (429, 5xx)
  int max_transport_retries = 6;  // after the first attempt, while the last one got no answer at all
  std::chrono::milliseconds backoff_base{100};  // the first retry waits up to ~base, doubling
  std::chrono::milliseconds backoff_max{5000};
};

// What one attempt came to, as far as pacing is concerned.
struct AttemptOutcome {
  int status = 0;                      // the HTTP status; 0: no answer (a transport failure)
  std::optional<int> retry_after;      // seconds, from the answer's Retry-After
  bool priority_and_fairness = false;  // the answer carried APF's headers
  bool may_retry = true;               // false: final whatever it is (a TLS failure, a streamed body)
  bool again_at_once = false;          // try once more without waiting (a refreshed credential)
};

// What RequestPacing::run came to.
struct PacedRun {
  // An attempt's outcome is the result; false: the deadline passed before one could start.
  bool answered = false;
  int attempts = 0;                      // attempts made, the first included
  std::chrono::milliseconds elapsed{0};  // from run's start to its end, waits included
  // Why an outcome that could have been tried again was not (neither: it was
  // final): the retries were spent (max_retries, or max_transport_retries
  // after no answer), or the next wait would have passed the deadline.
  bool retries_spent = false;
  bool out_of_time = false;

  explicit operator bool() const { return answered; }
};

// The 429s answered to the requests the calling thread sent through any
// RequestPacing (monotonic). A caller that makes one call on its own thread
// reads it before and after to learn whether the server turned that call
// away, whatever other threads sent meanwhile (the apply executor's
// per-cluster concurrency, reconcile/concurrency.h).
int throttled_on_this_thread();

class RequestPacing {
 public:
  RequestPacing(const PacingOptions& options, const Timer& timer, std::uint64_t seed);

  // Runs `attempt` (given the time left) until its outcome is final: an
  // answer that is not 429/500/502/503/504, a failure that may not be retried,
  // the retries spent, or a deadline too close for the next wait. Each attempt
  // first waits for the client-side limit of the current regime. The caller
  // keeps what the last attempt returned; not `answered` when the deadline
  // (`timeout` from now) passed before an attempt could start.
  PacedRun run(std::chrono::milliseconds timeout,
               const std::function<AttemptOutcome(std::chrono::milliseconds budget)>& attempt);

  RateRegime regime() const;
  bool priority_and_fairness() const { return announced_.load(); }  // an answer carried APF's headers
  double qps() const { return options_.qps; }
  int burst() const { return options_.burst; }
  int retries() const { return retries_.load(); }
  int throttled() const { return throttled_.load(); }  // attempts answered 429

  // The wait before retry number `attempt` + 1 of an answer with `status`:
  // full jitter over an exponential ceiling; after a 429 with Retry-After,
  // that many seconds (at most 60) plus the jitter, so that clients the server
  // turned away together do not come back together.
  std::chrono::milliseconds retry_wait(int attempt, int status, std::optional<int> retry_after);

 private:
  void take_token();

  const PacingOptions options_;
  const Timer& timer_;
  std::atomic<bool> announced_{false};  // an answer carried APF's headers
  std::atomic<int> retries_{0};
  std::atomic<int> throttled_{0};
  std::mutex mutex_;                    // the bucket and the random source
  double tokens_;
  std::chrono::steady_clock::time_point last_;
  std::mt19937_64 random_;
};

}  // namespace mkq::kube
