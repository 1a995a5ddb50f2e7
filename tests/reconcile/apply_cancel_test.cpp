// The apply executor interrupted (ApplyOptions::cancel): nothing new starts,
// the changes in flight finish and are recorded, every change not started is
// reported and recorded as such, and --wait stops at once.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "apply_test_support.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kManager = kueue::ClusterRole::Manager;
constexpr auto kWorker = kueue::ClusterRole::Worker;

// `count` ConfigMaps in namespace "team" of `cluster` (one tier: they run concurrently).
std::vector<Change> config_maps(const std::string& cluster, int count) {
  std::vector<Change> changes;
  for (int index = 0; index < count; ++index) {
    changes.push_back(change_of(cluster, Action::Create, "ConfigMap", "team", "cm-" + std::to_string(index)));
  }
  return changes;
}

int count_outcome(const ApplyReport& report, Outcome outcome) {
  int count = 0;
  for (const ObjectResult& result : report.results) count += result.outcome == outcome ? 1 : 0;
  return count;
}

TEST_CASE("an interrupted apply starts nothing new and finishes what is in flight", "[reconcile][apply][cancel]") {
  StateFixture state;
  kube::FakeClient worker, manager;
  std::atomic<bool> cancel{false};
  std::atomic<int> patches{0};
  // The fifth request sets the token while it is in flight (and is answered).
  worker.fail_when([&](const std::string& call) -> std::optional<kube::Error> {
    if (call.rfind("PATCH", 0) != 0) return std::nullopt;
    if (++patches == 5) {
      cancel = true;
      std::this_thread::sleep_for(20ms);  // the others in flight meanwhile finish too
    }
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager,
                                       {change_of("manager", Action::Create, "MultiKueueCluster", "", "w1")}));
  plan.clusters.push_back(cluster_plan("w1", kWorker, config_maps("w1", 40)));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};
  ApplyOptions options = fast_options();
  options.parallelism = 3;
  options.cancel = &cancel;
  EventLog log;
  options.progress = log.callback();

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);

  const int done = count_outcome(report, Outcome::Done);
  const int not_started = count_outcome(report, Outcome::NotStarted);
  // The fifth request and those in flight with it (at most parallelism - 1 more) were done.
  CHECK(done >= 5);
  CHECK(done <= 5 + 2);
  CHECK(done == patches.load());  // every request sent was answered and counted
  CHECK(not_started == 41 - done);  // the rest, the manager's late MultiKueueCluster included
  CHECK(count_outcome(report, Outcome::Failed) == 0);
  CHECK(report.results.size() == 41);
  CHECK(report.interrupted);
  CHECK_FALSE(report.success());
  CHECK(report.result() == RunResult::Interrupted);
  CHECK(std::string(run_result_name(report.result())) == "interrupted");
  CHECK(report.failed == not_started);

  const ObjectResult* mkc = result_for(report, "manager/MultiKueueCluster/w1");
  REQUIRE(mkc != nullptr);
  CHECK(mkc->outcome == Outcome::NotStarted);
  CHECK(mkc->error.message == "not started: interrupted");
  CHECK(manager.calls().empty());

  REQUIRE(report.clusters.size() == 2);
  CHECK(report.clusters[0].not_started == 1);
  CHECK(report.clusters[1].done == done);
  CHECK(report.clusters[1].not_started == 40 - done);

  // The state holds exactly what was done: the next plan finds nothing
  // "applied by mkq but missing from the state".
  CHECK(state.store->inventory().value().size() == static_cast<std::size_t>(done));
  CHECK(worker.size() == static_cast<std::size_t>(done));
  const std::vector<state::RunRecord> runs = state.store->history(1, true).value();
  REQUIRE(runs.size() == 1);
  REQUIRE(runs[0].objects.size() == 41);
  int skipped = 0;
  for (const state::ObjectOutcome& outcome : runs[0].objects) {
    if (outcome.result != "skipped") continue;
    ++skipped;
    CHECK(outcome.message == "not started: interrupted");
  }
  CHECK(skipped == not_started);

  // No progress line per object not started: only those done.
  int finished_events = 0;
  for (const ProgressEvent& event : log.events()) {
    if (event.phase == ProgressEvent::Phase::Done || event.phase == ProgressEvent::Phase::Failed) ++finished_events;
  }
  CHECK(finished_events == done);
}

TEST_CASE("an apply interrupted before it starts sends no request", "[reconcile][apply][cancel]") {
  StateFixture state;
  kube::FakeClient worker;
  std::atomic<bool> cancel{true};
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, config_maps("w1", 3)));
  plan.clusters.back().changes.push_back(change_of("w1", Action::Delete, "ClusterQueue", "", "old"));
  const std::vector<Target> targets{target_of("w1", kWorker, &worker)};
  ApplyOptions options = fast_options();
  options.cancel = &cancel;

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);

  CHECK(count_outcome(report, Outcome::NotStarted) == 4);
  CHECK(report.result() == RunResult::Interrupted);
  CHECK(worker.calls().empty());
  CHECK(state.store->inventory().value().empty());
}

TEST_CASE("a dependent of a change not started is not started either, not skipped", "[reconcile][apply][cancel]") {
  StateFixture state;
  kube::FakeClient worker;
  std::atomic<bool> cancel{false};
  worker.fail_when([&](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("resourceflavors/default") != std::string::npos) cancel = true;
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker,
      {change_of("w1", Action::Create, "ResourceFlavor", "", "default"),
       change_of("w1", Action::Create, "ClusterQueue", "", "cq", Json::object(), {"w1/ResourceFlavor/default"}),
       change_of("w1", Action::Create, "LocalQueue", "team", "lq", {{"clusterQueue", "cq"}}, {"w1/ClusterQueue/cq"})}));
  const std::vector<Target> targets{target_of("w1", kWorker, &worker)};
  ApplyOptions options = fast_options();
  options.cancel = &cancel;

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);

  CHECK(result_for(report, "w1/ResourceFlavor/default")->outcome == Outcome::Done);
  CHECK(result_for(report, "w1/ClusterQueue/cq")->outcome == Outcome::NotStarted);
  CHECK(result_for(report, "w1/LocalQueue/team/lq")->outcome == Outcome::NotStarted);
  CHECK(result_for(report, "w1/LocalQueue/team/lq")->error.message == "not started: interrupted");
}

TEST_CASE("a token set after the last change leaves a complete apply complete", "[reconcile][apply][cancel]") {
  StateFixture state;
  kube::FakeClient worker;
  std::atomic<bool> cancel{false};
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, config_maps("w1", 1)));
  const std::vector<Target> targets{target_of("w1", kWorker, &worker)};
  ApplyOptions options = fast_options();
  options.cancel = &cancel;
  options.progress = [&cancel](const ProgressEvent& event) {
    if (event.phase == ProgressEvent::Phase::Done) cancel = true;
  };

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);

  CHECK(cancel.load());
  CHECK_FALSE(report.interrupted);
  CHECK(report.success());
}

TEST_CASE("an interrupt stops --wait at once and reports what was not Active", "[reconcile][apply][cancel][wait]") {
  StateFixture state;
  kube::FakeClient manager;
  std::atomic<bool> cancel{false};
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("manager", kManager, {change_of("manager", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager)};
  ApplyOptions options = fast_options();
  options.wait = 30000ms;
  options.poll_interval = 1000ms;
  options.cancel = &cancel;

  std::thread interrupt([&] {
    // Once the first poll has seen the queue (no Active condition: nothing plays Kueue here).
    for (int attempt = 0; attempt < 400 && calls_of(manager, "LIST").empty(); ++attempt) {
      std::this_thread::sleep_for(5ms);
    }
    std::this_thread::sleep_for(20ms);
    cancel = true;
  });
  const auto started = std::chrono::steady_clock::now();
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  const auto took = std::chrono::steady_clock::now() - started;
  interrupt.join();

  CHECK(took < 900ms);  // not the poll interval, let alone the 30 s
  CHECK(report.interrupted);
  CHECK(report.result() == RunResult::Interrupted);
  CHECK(report.failed == 0);  // every change was done
  CHECK(report.waited == 1);
  CHECK(rendered(report.wait_failures) ==
        std::vector<std::string>{"manager/ClusterQueue/cq: no Active condition yet (interrupted while waiting)"});
  CHECK(report.wait_failures.at(0).reason == "Interrupted");
}

TEST_CASE("verify_plan --wait stops at once when interrupted", "[reconcile][apply][cancel][wait]") {
  kube::FakeClient manager;
  manager.put(document_of("ClusterQueue", "", "cq"), "mkq");
  Change cq = change_of("manager", Action::NoOp, "ClusterQueue", "", "cq");
  cq.live_uid = "uid-cq";
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager, {cq}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager)};
  std::atomic<bool> cancel{true};
  ApplyOptions options = fast_options();
  options.wait = 30000ms;
  options.cancel = &cancel;

  const auto started = std::chrono::steady_clock::now();
  const ApplyReport report = verify_plan(plan, targets, options);
  CHECK(std::chrono::steady_clock::now() - started < 900ms);
  CHECK(report.interrupted);
  CHECK(rendered(report.wait_failures) == std::vector<std::string>{"manager/ClusterQueue/cq: not read: interrupted"});
  CHECK(manager.calls().empty());
}

}  // namespace
}  // namespace mkq::reconcile::testing
