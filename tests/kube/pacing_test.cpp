// RequestPacing (runtime/kube/pacing.h) with a fake transport -- a script of
// attempt outcomes -- and a fake Timer whose time moves only when the pacing
// sleeps, so every wait is measured exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <deque>
#include <thread>
#include <vector>

#include "runtime/kube/pacing.h"

namespace {

using mkq::kube::AttemptOutcome;
using mkq::kube::PacingOptions;
using mkq::kube::RateRegime;
using mkq::kube::RequestPacing;
using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

class FakeTimer final : public mkq::kube::Timer {
 public:
  SteadyClock::time_point now() const override { return now_; }
  void sleep_for(std::chrono::nanoseconds duration) const override {
    now_ += std::chrono::duration_cast<SteadyClock::duration>(duration);
    sleeps_.push_back(std::chrono::duration_cast<milliseconds>(duration));
  }
  milliseconds slept() const {
    milliseconds total{0};
    for (const milliseconds sleep : sleeps_) total += sleep;
    return total;
  }
  const std::vector<milliseconds>& sleeps() const { return sleeps_; }

 private:
  mutable SteadyClock::time_point now_{};
  mutable std::vector<milliseconds> sleeps_;
};

// A fake transport: answers from a script, the last one again when it runs out.
struct ScriptedServer {
  std::deque<AttemptOutcome> script;
  std::vector<milliseconds> budgets;  // what each attempt was given

  AttemptOutcome operator()(milliseconds budget) {
    budgets.push_back(budget);
    AttemptOutcome next = script.front();
    if (script.size() > 1) script.pop_front();
    return next;
  }
};

AttemptOutcome answer(int status, bool apf = false, std::optional<int> retry_after = std::nullopt) {
  AttemptOutcome outcome;
  outcome.status = status;
  outcome.priority_and_fairness = apf;
  outcome.retry_after = retry_after;
  return outcome;
}

PacingOptions options(double qps, int burst, bool explicit_limit = false) {
  PacingOptions pacing;
  pacing.qps = qps;
  pacing.burst = burst;
  pacing.explicit_limit = explicit_limit;
  pacing.backoff_base = milliseconds(100);
  pacing.backoff_max = milliseconds(5000);
  return pacing;
}

// Sends `count` requests answered 200 (with or without APF's headers).
void send_ok(RequestPacing& pacing, int count, bool apf) {
  for (int i = 0; i < count; ++i) {
    ScriptedServer server{{answer(200, apf)}, {}};
    REQUIRE(pacing.run(milliseconds(30000), std::ref(server)));
    REQUIRE(server.budgets.size() == 1);
  }
}

}  // namespace

TEST_CASE("pacing: a 429 is tried again after its Retry-After, then the success is the result", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(1000, 1000), timer, 1);
  ScriptedServer server{{answer(429, true, 2), answer(201, true)}, {}};
  CHECK(pacing.run(milliseconds(30000), std::ref(server)));
  CHECK(server.budgets.size() == 2);
  CHECK(pacing.retries() == 1);
  REQUIRE(timer.sleeps().size() == 1);
  // At least the Retry-After, plus at most the first backoff ceiling of jitter.
  CHECK(timer.sleeps()[0] >= milliseconds(2000));
  CHECK(timer.sleeps()[0] <= milliseconds(2100));
  // The second attempt had what the wait left of the one deadline.
  CHECK(server.budgets[1] == milliseconds(30000) - timer.sleeps()[0]);
}

TEST_CASE("pacing: every wait after a 429 is at least its Retry-After, with jitter that spreads clients",
          "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(0, 1), timer, 7);
  std::vector<milliseconds> waits;
  for (int attempt = 0; attempt < 6; ++attempt) {
    const milliseconds wait = pacing.retry_wait(attempt, 429, 3);
    CHECK(wait >= milliseconds(3000));
    CHECK(wait <= milliseconds(3000) + std::min(milliseconds(100 << attempt), milliseconds(5000)));
    waits.push_back(wait);
  }
  // Six draws with a ceiling of 100..3200 ms of jitter are not all the same.
  CHECK(std::count(waits.begin(), waits.end(), waits.front()) < 6);
  // Retry-After beyond a minute is read as a minute; a 503's Retry-After is
  // not a promise (exponential backoff alone), nor is a 429 without one.
  CHECK(pacing.retry_wait(0, 429, 3600) <= milliseconds(60100));
  CHECK(pacing.retry_wait(0, 429, 3600) >= milliseconds(60000));
  CHECK(pacing.retry_wait(2, 503, 10) <= milliseconds(400));
  CHECK(pacing.retry_wait(2, 429, std::nullopt) <= milliseconds(400));
}

TEST_CASE("pacing: a Retry-After that would pass the deadline ends the request with the 429", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(1000, 1000), timer, 1);
  ScriptedServer server{{answer(429, true, 5)}, {}};
  const mkq::kube::PacedRun run = pacing.run(milliseconds(3000), std::ref(server));
  CHECK(run);
  CHECK(server.budgets.size() == 1);  // no second attempt, and no wait past the deadline
  CHECK(timer.slept() == milliseconds(0));
  CHECK(pacing.retries() == 0);
  // The caller can say why the 429 stands.
  CHECK(run.out_of_time);
  CHECK_FALSE(run.retries_spent);
  CHECK(run.attempts == 1);
}

TEST_CASE("pacing: 429s are retried until the retries are spent, each wait inside the deadline", "[kube][pacing]") {
  FakeTimer timer;
  PacingOptions limited = options(1000, 1000);
  limited.max_retries = 3;
  RequestPacing pacing(limited, timer, 3);
  ScriptedServer server{{answer(429, true, 1)}, {}};
  const mkq::kube::PacedRun run = pacing.run(milliseconds(60000), std::ref(server));
  CHECK(run);
  CHECK(server.budgets.size() == 4);  // the first attempt and three retries
  CHECK(pacing.retries() == 3);
  CHECK(timer.slept() >= milliseconds(3000));
  CHECK(timer.slept() < milliseconds(60000));
  CHECK(run.retries_spent);
  CHECK_FALSE(run.out_of_time);
  CHECK(run.attempts == 4);
  CHECK(run.elapsed == timer.slept());
}

TEST_CASE("pacing: answers that ask again get ten retries, attempts with no answer six", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(mkq::kube::PacingOptions(), timer, 5);  // the defaults
  // Ten faults in a row -- 500s and 429s, as a busy server gives them -- and then the answer.
  ScriptedServer busy{{answer(500), answer(429, true, 1), answer(503), answer(500), answer(502), answer(504),
                       answer(500), answer(429, true, 1), answer(500), answer(500), answer(200)},
                      {}};
  const mkq::kube::PacedRun answered = pacing.run(milliseconds(60000), std::ref(busy));
  CHECK(answered);
  CHECK(answered.attempts == 11);
  CHECK(busy.budgets.size() == 11);
  CHECK_FALSE(answered.retries_spent);
  ScriptedServer down{{answer(0)}, {}};  // connection refused, every time
  const mkq::kube::PacedRun refused = pacing.run(milliseconds(60000), std::ref(down));
  CHECK(refused.attempts == 7);
  CHECK(refused.retries_spent);
  ScriptedServer broken{{answer(500)}, {}};  // a server that always fails
  const mkq::kube::PacedRun spent = pacing.run(milliseconds(60000), std::ref(broken));
  CHECK(spent.attempts == 11);
  CHECK(spent.retries_spent);
  CHECK_FALSE(spent.out_of_time);
}

TEST_CASE("pacing: other answers are final, transport failures are retried unless they may not be",
          "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(1000, 1000), timer, 1);
  for (const int status : {200, 404, 409, 422, 401, 403}) {
    ScriptedServer server{{answer(status)}, {}};
    const mkq::kube::PacedRun run = pacing.run(milliseconds(30000), std::ref(server));
    CHECK(run);
    CHECK(server.budgets.size() == 1);
    CHECK_FALSE(run.retries_spent);
    CHECK_FALSE(run.out_of_time);
  }
  ScriptedServer flaky{{answer(0), answer(503), answer(200)}, {}};  // a dropped connection, a 503, then an answer
  const mkq::kube::PacedRun recovered = pacing.run(milliseconds(30000), std::ref(flaky));
  CHECK(recovered);
  CHECK(flaky.budgets.size() == 3);
  CHECK(recovered.attempts == 3);
  CHECK_FALSE(recovered.retries_spent);
  AttemptOutcome tls = answer(0);
  tls.may_retry = false;
  ScriptedServer refused{{tls}, {}};
  CHECK(pacing.run(milliseconds(30000), std::ref(refused)));
  CHECK(refused.budgets.size() == 1);
  CHECK(pacing.retries() == 2);
}

TEST_CASE("pacing: no attempt starts after the deadline", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(1, 1, true), timer, 1);  // one request a second, the first at once
  ScriptedServer first{{answer(200)}, {}};
  CHECK(pacing.run(milliseconds(500), std::ref(first)));
  // The next token comes in a second: the limiter's wait uses up a 500 ms deadline.
  ScriptedServer second{{answer(200)}, {}};
  CHECK_FALSE(pacing.run(milliseconds(500), std::ref(second)));
  CHECK(second.budgets.empty());
}

TEST_CASE("pacing: without APF's headers the default bucket paces, with them the client-side limit is off",
          "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(10, 5), timer, 1);
  CHECK(pacing.regime() == RateRegime::ClientLimit);
  send_ok(pacing, 15, false);  // 5 at once, then 10 more at 10 per second
  CHECK(timer.slept() >= milliseconds(990));
  CHECK(pacing.regime() == RateRegime::ClientLimit);
  CHECK_FALSE(pacing.priority_and_fairness());

  const milliseconds before = timer.slept();
  send_ok(pacing, 1, true);  // this answer announces API Priority and Fairness
  CHECK(pacing.regime() == RateRegime::ServerFairness);
  CHECK(pacing.priority_and_fairness());
  const milliseconds announced = timer.slept();
  CHECK(announced - before <= milliseconds(100));  // at most the one token it was still waiting for
  send_ok(pacing, 100, true);
  CHECK(timer.slept() == announced);  // 100 more requests, not one wait
  // The regime stays for the client's life, even if an answer (a 401 is
  // answered before APF classifies) comes without the headers.
  send_ok(pacing, 20, false);
  CHECK(pacing.regime() == RateRegime::ServerFairness);
  CHECK(timer.slept() == announced);
}

TEST_CASE("pacing: an explicit --qps/--burst holds even when the server announces APF", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(10, 5, true), timer, 1);
  CHECK(pacing.regime() == RateRegime::Explicit);
  send_ok(pacing, 25, true);  // 5 at once, then 20 at 10 per second
  CHECK(pacing.regime() == RateRegime::Explicit);
  CHECK(pacing.priority_and_fairness());  // known, and still not obeyed over the user's limit
  CHECK(timer.slept() >= milliseconds(1990));
  CHECK(timer.slept() <= milliseconds(2010));
}

TEST_CASE("pacing: a refreshed credential is tried at once, once", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(1000, 1000), timer, 1);
  AttemptOutcome refreshed = answer(401);
  refreshed.again_at_once = true;
  ScriptedServer server{{refreshed, answer(200)}, {}};
  CHECK(pacing.run(milliseconds(30000), std::ref(server)));
  CHECK(server.budgets.size() == 2);
  CHECK(timer.slept() == milliseconds(0));
}

TEST_CASE("pacing: 429s are counted for the client and for the thread that was answered them", "[kube][pacing]") {
  FakeTimer timer;
  RequestPacing pacing(options(0, 1), timer, 3);
  const int before = mkq::kube::throttled_on_this_thread();
  ScriptedServer turned_away{{answer(429, true, 1), answer(503, true), answer(429, true, 1), answer(200, true)}, {}};
  REQUIRE(pacing.run(milliseconds(30000), std::ref(turned_away)));
  CHECK(pacing.throttled() == 2);  // 429s only: a 503 is no sign of load here
  CHECK(pacing.retries() == 3);
  CHECK(mkq::kube::throttled_on_this_thread() - before == 2);

  // Another thread's 429s count for the client, not for this thread.
  std::thread other([&] {
    const int other_before = mkq::kube::throttled_on_this_thread();
    ScriptedServer server{{answer(429, true, 1), answer(200, true)}, {}};
    REQUIRE(pacing.run(milliseconds(30000), std::ref(server)));
    CHECK(mkq::kube::throttled_on_this_thread() - other_before == 1);
  });
  other.join();
  CHECK(pacing.throttled() == 3);
  CHECK(mkq::kube::throttled_on_this_thread() - before == 2);
  send_ok(pacing, 3, true);
  CHECK(pacing.throttled() == 3);
}
