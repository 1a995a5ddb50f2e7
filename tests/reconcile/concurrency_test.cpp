// A cluster's changes at once (reconcile/concurrency.h): halved once per
// window of 429s, raised by one per clean window, never past the ceiling nor
// below one; and the apply executor held to it by a server that sheds load.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <future>
#include <thread>

#include "apply_test_support.h"
#include "runtime/kube/pacing.h"
#include "runtime/reconcile/concurrency.h"

namespace mkq::reconcile::testing {
namespace {

using Call = ConcurrencyLimit::Call;

// `count` calls one after another, each released as `call`.
void calls(ConcurrencyLimit& limit, int count, Call call) {
  for (int i = 0; i < count; ++i) {
    limit.acquire();
    limit.release(call);
  }
}

TEST_CASE("a cluster's limit starts at the ceiling and never passes it", "[reconcile][concurrency]") {
  ConcurrencyLimit limit(16);
  CHECK(limit.limit() == 16);
  calls(limit, 100, Call::Taken);
  CHECK(limit.limit() == 16);
  const ConcurrencyReport report = limit.report();
  CHECK(report.ceiling == 16);
  CHECK(report.lowest == 16);
  CHECK(report.final == 16);
  CHECK(report.cuts == 0);
  CHECK(report.calls == 100);
  CHECK(report.shed == 0);
}

TEST_CASE("429s halve the limit once per window of calls", "[reconcile][concurrency]") {
  ConcurrencyLimit limit(16);
  calls(limit, 1, Call::Shed);
  CHECK(limit.limit() == 8);
  // The rest of the burst: fewer than 8 calls since the cut are one signal.
  calls(limit, 7, Call::Shed);
  CHECK(limit.limit() == 8);
  // A window later, another 429 cuts again.
  calls(limit, 1, Call::Shed);
  CHECK(limit.limit() == 4);
  calls(limit, 4, Call::Shed);  // the window of 4 ends with the 4th
  CHECK(limit.limit() == 2);
  calls(limit, 2, Call::Shed);
  CHECK(limit.limit() == 1);
  calls(limit, 10, Call::Shed);
  CHECK(limit.limit() == 1);  // never below one
  const ConcurrencyReport report = limit.report();
  CHECK(report.cuts == 4);
  CHECK(report.lowest == 1);
  CHECK(report.final == 1);
  CHECK(report.shed == 25);
  CHECK(report.calls == 25);
}

TEST_CASE("each clean window raises the limit by one, back to the ceiling", "[reconcile][concurrency]") {
  ConcurrencyLimit limit(8);
  calls(limit, 1, Call::Shed);
  REQUIRE(limit.limit() == 4);
  calls(limit, 3, Call::Taken);
  CHECK(limit.limit() == 4);
  calls(limit, 1, Call::Taken);
  CHECK(limit.limit() == 5);
  calls(limit, 5, Call::Taken);
  CHECK(limit.limit() == 6);
  // A 429 restarts the count of clean calls.
  calls(limit, 5, Call::Taken);
  calls(limit, 1, Call::Shed);  // a window of calls since the last cut: this one cuts
  CHECK(limit.limit() == 3);
  calls(limit, 3 + 4 + 5 + 6 + 7, Call::Taken);
  CHECK(limit.limit() == 8);
  calls(limit, 50, Call::Taken);
  CHECK(limit.limit() == 8);
  const ConcurrencyReport report = limit.report();
  CHECK(report.cuts == 2);
  CHECK(report.lowest == 3);
  CHECK(report.final == 8);
}

TEST_CASE("a call that sent nothing teaches the limit nothing", "[reconcile][concurrency]") {
  ConcurrencyLimit limit(4);
  calls(limit, 1, Call::Shed);
  REQUIRE(limit.limit() == 2);
  calls(limit, 20, Call::NotSent);
  CHECK(limit.limit() == 2);
  CHECK(limit.report().calls == 1);
}

TEST_CASE("acquire waits while the limit's places are taken", "[reconcile][concurrency]") {
  ConcurrencyLimit limit(2);
  limit.acquire();
  limit.acquire();
  std::promise<void> entered;
  std::future<void> third = entered.get_future();
  std::thread waiting([&] {
    limit.acquire();
    entered.set_value();
    limit.release(Call::Taken);
  });
  CHECK(third.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  limit.release(Call::Taken);
  CHECK(third.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  waiting.join();
  limit.release(Call::Taken);
}

// A cluster that serves `capacity` applies at once: one more is answered 429
// first, through the client's real pacing (kube/pacing.h), whose retry
// succeeds.
class SheddingClient : public kube::FakeClient {
 public:
  explicit SheddingClient(int capacity) : capacity_(capacity), pacing_(pacing_options(), kube::steady_timer(), 1) {}

  kube::Result<Json> apply(const kube::ResourceType& type, const Json& object,
                           const kube::ApplyOptions& options) override {
    const int now = ++in_flight_;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      peaks_.push_back(now);
    }
    bool turned_away = false;
    pacing_.run(std::chrono::seconds(10), [&](std::chrono::milliseconds) {
      kube::AttemptOutcome outcome;
      outcome.status = now > capacity_ && !turned_away ? 429 : 200;
      turned_away = true;
      return outcome;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the round trip
    kube::Result<Json> answer = FakeClient::apply(type, object, options);
    --in_flight_;
    return answer;
  }
  kube::ClientStats stats() const override {
    kube::ClientStats stats = FakeClient::stats();
    stats.throttled = pacing_.throttled();
    return stats;
  }
  // How many applies were in flight as each began, in order.
  std::vector<int> peaks() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peaks_;
  }

 private:
  static kube::PacingOptions pacing_options() {
    kube::PacingOptions options;
    options.qps = 0;  // no client-side limit: the server's fairness governs
    options.backoff_base = std::chrono::milliseconds(3);
    options.backoff_max = std::chrono::milliseconds(3);
    return options;
  }

  const int capacity_;
  kube::RequestPacing pacing_;
  std::atomic<int> in_flight_{0};
  mutable std::mutex mutex_;
  std::vector<int> peaks_;
};

TEST_CASE("apply runs as many of a cluster's changes at once as its server sustains", "[reconcile][concurrency]") {
  StateFixture state;
  SheddingClient shedding(3);
  kube::FakeClient roomy;
  std::vector<Change> crowded_changes, roomy_changes;
  for (int i = 0; i < 300; ++i) {
    crowded_changes.push_back(change_of("w1", Action::Create, "ResourceFlavor", "", "f" + std::to_string(i)));
    roomy_changes.push_back(change_of("w2", Action::Create, "ResourceFlavor", "", "f" + std::to_string(i)));
  }
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kueue::ClusterRole::Worker, crowded_changes));
  plan.clusters.push_back(cluster_plan("w2", kueue::ClusterRole::Worker, roomy_changes));
  const std::vector<Target> targets{target_of("w1", kueue::ClusterRole::Worker, &shedding),
                                    target_of("w2", kueue::ClusterRole::Worker, &roomy)};
  ApplyOptions options = fast_options();
  options.parallelism = 16;
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  REQUIRE(report.success());
  REQUIRE(report.clusters.size() == 2);

  // The crowded cluster: cut, and most changes ran within its capacity.
  REQUIRE(report.clusters[0].concurrency);
  const ConcurrencyReport& crowded = *report.clusters[0].concurrency;
  CHECK(crowded.ceiling == 16);
  CHECK(crowded.calls == 300);
  CHECK(crowded.cuts >= 2);
  CHECK(crowded.lowest <= 4);
  CHECK(crowded.final <= 8);
  const std::vector<int> peaks = shedding.peaks();
  REQUIRE(peaks.size() == 300);
  const auto over = std::count_if(peaks.begin() + 100, peaks.end(), [](int peak) { return peak > 3; });
  // At 16 at once (the ceiling, as before) nearly every change would find 3 in flight.
  CHECK(over < 100);

  CHECK(report.clusters[0].throttled == shedding.stats().throttled);
  CHECK(report.clusters[0].throttled >= crowded.shed);

  // The other cluster's limit is its own: never cut.
  REQUIRE(report.clusters[1].concurrency);
  CHECK(report.clusters[1].throttled == 0);
  CHECK(report.clusters[1].concurrency->cuts == 0);
  CHECK(report.clusters[1].concurrency->final == 16);
  CHECK(report.clusters[1].concurrency->shed == 0);
}

}  // namespace
}  // namespace mkq::reconcile::testing
