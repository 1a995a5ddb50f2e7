// How many of one cluster's changes apply carries out at once: as many as the
// server sustains, found as TCP finds a path's capacity -- additive increase,
// multiplicative decrease (AIMD). A cluster starts at the ceiling
// (--parallelism, the bound over all clusters): a kube-apiserver sustains
// hundreds of requests at once with its defaults, and a limit that had to
// climb would slow every small apply. The server says "too many" by turning
// requests away with 429 (API Priority and Fairness, and the max-in-flight
// filter before it, shed load so); the client retries them after their
// Retry-After (kube/pacing.h), and the limit halves -- once per window of as
// many calls as the limit, so one burst of 429s counts as one signal. Each
// window of calls the server took without a 429 raises the limit by one, back
// up to the ceiling. 500s are not a signal (a fault, not load).
//
// Transport-free and clock-free: the executor (apply.cpp) says after each
// call whether the server turned any of its attempts away; the unit tests
// (tests/reconcile/concurrency_test.cpp) drive it so.
#pragma once

#include <condition_variable>
#include <mutex>

namespace mkq::reconcile {

// What one cluster's limit came to over an apply (ClusterOutcome, -v).
struct ConcurrencyReport {
  int ceiling = 1;  // the most it could be (--parallelism)
  int lowest = 1;   // the lowest it fell to
  int final = 1;    // where it ended
  int cuts = 0;     // times it was halved
  int calls = 0;    // calls counted
  int shed = 0;     // calls the server turned away at least once
};

class ConcurrencyLimit {
 public:
  explicit ConcurrencyLimit(int ceiling);

  // Waits until fewer calls than the limit are in flight, then counts one more.
  void acquire();
  // How one call went, as far as the limit is concerned.
  enum class Call {
    Taken,    // the server took it (whatever it answered in the end)
    Shed,     // the server answered at least one of its attempts 429
    NotSent,  // nothing was sent (a change skipped once its turn came): not counted
  };
  void release(Call call);

  int limit() const;
  ConcurrencyReport report() const;

 private:
  // Counts one call sent; true when the limit rose (room for one more).
  bool learn(bool shed);

  mutable std::mutex mutex_;
  std::condition_variable room_;
  const int ceiling_;
  int limit_;
  int in_flight_ = 0;
  int since_cut_;   // calls finished since the last cut (a cut needs a window of them)
  int clean_ = 0;   // calls finished without a 429 since the last change of the limit
  ConcurrencyReport report_;
};

// Holds one place under a cluster's limit for the span of one call.
class ConcurrencyTurn {
 public:
  explicit ConcurrencyTurn(ConcurrencyLimit& limit) : limit_(limit) { limit_.acquire(); }
  ~ConcurrencyTurn() { limit_.release(call_); }
  ConcurrencyTurn(const ConcurrencyTurn&) = delete;
  ConcurrencyTurn& operator=(const ConcurrencyTurn&) = delete;
  void set(ConcurrencyLimit::Call call) { call_ = call; }

 private:
  ConcurrencyLimit& limit_;
  ConcurrencyLimit::Call call_ = ConcurrencyLimit::Call::NotSent;
};

}  // namespace mkq::reconcile
