// The apply executor's records: the inventory follows every success, every
// outcome lands in the run's history.
#include <catch2/catch.hpp>

#include "apply_test_support.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kWorker = kueue::ClusterRole::Worker;

TEST_CASE("apply records each applied object in the inventory and each outcome in the run", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("clusterqueues/broken") != std::string::npos) {
      return kube::Error{422, "Invalid", "ClusterQueue.kueue.x-k8s.io \"broken\" is invalid", Json()};
    }
    return std::nullopt;
  });
  const Change cq = change_of("w1", Action::Create, "ClusterQueue", "", "cq", {{"cohort", "all"}});
  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker, {cq, change_of("w1", Action::Create, "ClusterQueue", "", "broken"),
                      change_of("w1", Action::NoOp, "ResourceFlavor", "", "unchanged")}));
  plan.clusters.back().changes.back().live_uid = "uid-unchanged";
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.failed == 1);
  CHECK(report.results.size() == 2);  // no-ops are not results

  const std::vector<state::InventoryEntry> inventory = state.store->inventory().value();
  REQUIRE(inventory.size() == 1);
  const state::InventoryEntry& entry = inventory[0];
  const auto live = fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
  REQUIRE(live);
  CHECK(entry.ref.address() == "w1/ClusterQueue/cq");
  CHECK(entry.ref.cluster == "w1");
  CHECK(entry.ref.api_version == "kueue.x-k8s.io/v1beta2");
  CHECK(entry.ref.kind == "ClusterQueue");
  CHECK(entry.ref.namespace_name.empty());
  CHECK(entry.ref.name == "cq");
  CHECK(entry.uid == (*live)["metadata"]["uid"].get<std::string>());
  CHECK(entry.resource_version == (*live)["metadata"]["resourceVersion"].get<std::string>());
  CHECK(entry.digest == document_digest(cq.desired, state.store->lineage()));
  CHECK(entry.run_id == state.run_id);
  CHECK(entry.applied_at.size() == 20);  // 2026-11-21T10:00:00Z

  const std::vector<state::RunRecord> runs = state.store->history(1, true).value();
  REQUIRE(runs.size() == 1);
  REQUIRE(runs[0].objects.size() == 2);
  for (const state::ObjectOutcome& outcome : runs[0].objects) {
    CHECK(outcome.action == "create");
    if (outcome.address == "w1/ClusterQueue/cq") {
      CHECK(outcome.result == "ok");
      CHECK(outcome.message.empty());
    } else {
      CHECK(outcome.address == "w1/ClusterQueue/broken");
      CHECK(outcome.result == "failed");
      CHECK(outcome.message == "ClusterQueue.kueue.x-k8s.io \"broken\" is invalid");
    }
  }
}

TEST_CASE("apply reports progress for every start, success and failure", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("clusterqueues/b") != std::string::npos) return kube::Error{500, "InternalError", "nope", Json()};
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker,
                                       {change_of("w1", Action::Create, "ClusterQueue", "", "a"),
                                        change_of("w1", Action::Update, "ClusterQueue", "", "b")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  EventLog log;
  ApplyOptions options = fast_options();
  options.progress = log.callback();
  apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);

  using Phase = ProgressEvent::Phase;
  CHECK(log.index_of(Phase::Started, "w1/ClusterQueue/a") < log.index_of(Phase::Done, "w1/ClusterQueue/a"));
  CHECK(log.index_of(Phase::Started, "w1/ClusterQueue/b") < log.index_of(Phase::Failed, "w1/ClusterQueue/b"));
  CHECK(log.events().size() == 4);
  for (const ProgressEvent& event : log.events()) {
    CHECK(event.ref.cluster == "w1");
    if (event.ref.address() == "w1/ClusterQueue/b") {
      CHECK(event.action == Action::Update);
      if (event.phase == Phase::Failed) CHECK(event.message == "nope");
    }
  }
}

}  // namespace
}  // namespace mkq::reconcile::testing
