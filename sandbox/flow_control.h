// API Priority and Fairness (APF) as far as clients can see it: every
// authenticated request is classified by kube-apiserver's default flow schemas
// (v1.33, simplified) into a flow schema and a priority level, whose UIDs go
// back in the X-Kubernetes-PF-FlowSchema-UID / -PriorityLevel-UID response
// headers; and a simple fair-queuing limit: each user ("flow") may have its
// priority level's share of the server's concurrency in flight, a request
// beyond that waits in its user's own queue (so one busy user never delays
// another), and one that finds the queue full or waits too long is answered
// 429 with Retry-After and kube-apiserver's plain-text body. Exempt requests
// (system:masters, health probes) are never limited.
//
// What differs from kube-apiserver: the seats belong to each user rather than
// being shared by the users of a level; no borrowing between levels; no work
// estimation (every request takes one seat, a watch only while it starts);
// Retry-After is always 1 (kube-apiserver starts at 1 and grows while it keeps
// rejecting); the flow schemas for leader election, nodes' leases and the
// endpoint controller are left out. Transport-free: server.cpp applies it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mkq::sandbox {

struct FlowControlOptions {
  // The server's concurrency: kube-apiserver's --max-requests-inflight plus
  // --max-mutating-requests-inflight (400 + 200). Each priority level's share
  // of it is what one user may have in flight there. 0: no limit.
  int concurrency = 600;
  // How long a request beyond its seats waits for one (kube-apiserver: a
  // quarter of the request's deadline, 60 s by default), and how many may wait
  // per user and priority level (the default levels' queueLengthLimit).
  std::chrono::milliseconds queue_wait{15000};
  int queue_length = 50;
};

// What APF made of one request.
struct Flow {
  std::string flow_schema;     // "global-default"
  std::string priority_level;  // "global-default"
  std::string user;            // the flow's distinguisher
  bool exempt = false;         // never queued nor rejected
  int shares = 0;              // the priority level's nominalConcurrencyShares
  bool rejects = false;        // the level never queues (catch-all)
};

// The flow of a request by `user` in `groups` for `path`.
Flow classify_flow(const std::string& user, const std::vector<std::string>& groups, const std::string& path);

// The response headers naming the flow schema and priority level, by UIDs
// stable for a name (each sandbox names the same objects alike).
std::vector<std::pair<std::string, std::string>> flow_headers(const Flow& flow);

// kube-apiserver's answer to a rejected request: 429, this plain-text body.
inline constexpr const char* kTooManyRequestsBody = "Too many requests, please try again later.\n";
inline constexpr const char* kRetryAfterSeconds = "1";

class FlowControl {
 public:
  explicit FlowControl(FlowControlOptions options) : options_(options) {}

  // A seat taken for one request, given back when the Seat goes (or never taken: rejected).
  class Seat {
   public:
    Seat() = default;
    Seat(FlowControl* owner, std::string key) : owner_(owner), key_(std::move(key)) {}
    Seat(Seat&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)), key_(std::move(other.key_)) {}
    Seat& operator=(Seat&&) = delete;
    Seat(const Seat&) = delete;
    ~Seat();
    bool rejected() const { return rejected_; }
    static Seat rejection() {
      Seat seat;
      seat.rejected_ = true;
      return seat;
    }

   private:
    FlowControl* owner_ = nullptr;  // null: nothing to give back
    std::string key_;
    bool rejected_ = false;
  };

  // Admits a request of `flow`: at once when its user has a seat free at its
  // level, after waiting in the user's queue when not, or rejected (answer 429).
  Seat admit(const Flow& flow);

  // Seats of a priority level with `shares` for one user: ceil(concurrency *
  // shares / the default levels' 245 shares), at least 1.
  int seats(int shares) const;

 private:
  struct Queue {
    int in_flight = 0;
    int waiting = 0;
  };
  void release(const std::string& key);

  const FlowControlOptions options_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::map<std::string, Queue> queues_;  // by priority level and user; removed when idle
};

}  // namespace mkq::sandbox
