// The apply report as data: per cluster what was done, failed and skipped, an
// unreachable cluster (whose changes are unknown) failing the run even when
// nothing else did, the history's result, and verify_plan -- the report of an
// apply with nothing to change, --wait included.
#include <catch2/catch.hpp>

#include "apply_test_support.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kManager = kueue::ClusterRole::Manager;
constexpr auto kWorker = kueue::ClusterRole::Worker;

ClusterPlan unreachable_plan(const std::string& cluster, const std::string& error) {
  ClusterPlan plan = cluster_plan(cluster, kWorker, {});
  plan.reachable = false;
  plan.error = error;
  return plan;
}

const ClusterOutcome* outcome_for(const ApplyReport& report, const std::string& cluster) {
  for (const ClusterOutcome& outcome : report.clusters) {
    if (outcome.cluster == cluster) return &outcome;
  }
  return nullptr;
}

TEST_CASE("apply report: done, failed and skipped per cluster, every cluster listed", "[reconcile][apply][outcome]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  manager.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.rfind("PATCH", 0) == 0 && call.find("clusterqueues/broken") != std::string::npos) {
      return kube::Error{422, "Invalid", "ClusterQueue.kueue.x-k8s.io \"broken\" is invalid", Json()};
    }
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "manager", kManager,
      {change_of("manager", Action::Create, "ResourceFlavor", "", "default"),
       change_of("manager", Action::Create, "ClusterQueue", "", "cq"),
       change_of("manager", Action::Create, "ClusterQueue", "", "broken"),
       change_of("manager", Action::Create, "LocalQueue", "team", "lq", {{"clusterQueue", "broken"}},
                 {"manager/ClusterQueue/broken"})}));
  plan.clusters.push_back(
      cluster_plan("w1", kWorker, {change_of("w1", Action::NoOp, "ResourceFlavor", "", "default")}));
  plan.clusters.push_back(unreachable_plan("w2", "w2: connection refused"));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker),
                                    target_of("w2", kWorker, nullptr)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());

  REQUIRE(report.clusters.size() == 3);
  CHECK(report.clusters[0].cluster == "manager");
  CHECK(report.clusters[0].role == kManager);
  CHECK(report.clusters[0].reachable);
  CHECK(report.clusters[0].done == 2);
  CHECK(report.clusters[0].failed == 1);
  CHECK(report.clusters[0].skipped == 1);
  CHECK(report.clusters[0].not_started == 0);
  CHECK(report.clusters[0].planned() == 4);
  CHECK(report.clusters[1].cluster == "w1");
  CHECK(report.clusters[1].reachable);
  CHECK(report.clusters[1].planned() == 0);
  CHECK(report.clusters[2].cluster == "w2");
  CHECK_FALSE(report.clusters[2].reachable);
  CHECK(report.clusters[2].error == "w2: connection refused");
  CHECK(report.clusters[2].planned() == 0);

  CHECK(report.done() == 2);
  CHECK(report.failed == 2);
  CHECK(report.unreachable() == 1);
  CHECK_FALSE(report.interrupted);
  CHECK_FALSE(report.success());
  CHECK(report.result() == RunResult::Partial);
  CHECK(result_for(report, "manager/ClusterQueue/broken")->outcome == Outcome::Failed);
  const ObjectResult* skipped = result_for(report, "manager/LocalQueue/team/lq");
  REQUIRE(skipped != nullptr);
  CHECK(skipped->outcome == Outcome::Skipped);
  CHECK(skipped->error.message == "skipped: depends on manager/ClusterQueue/broken, which failed");
}

TEST_CASE("apply report: an unreachable cluster fails the run even when every change succeeded",
          "[reconcile][apply][outcome]") {
  StateFixture state;
  kube::FakeClient manager;
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("manager", kManager, {change_of("manager", Action::Create, "ClusterQueue", "", "cq")}));
  plan.clusters.push_back(unreachable_plan("w2", "w2: connection refused"));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w2", kWorker, nullptr)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());

  CHECK(report.failed == 0);  // no change failed ...
  CHECK(report.done() == 1);
  CHECK(report.unreachable() == 1);  // ... but w2's changes are unknown
  CHECK_FALSE(report.success());
  CHECK(report.result() == RunResult::Partial);
  CHECK(std::string(run_result_name(report.result())) == "partial");
  REQUIRE(outcome_for(report, "w2") != nullptr);
  CHECK(outcome_for(report, "w2")->error == "w2: connection refused");
}

TEST_CASE("apply report: a cluster without a connection counts as unreachable, its changes failed",
          "[reconcile][apply][outcome]") {
  StateFixture state;
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  std::vector<Target> targets{target_of("w1", kWorker, nullptr)};
  targets[0].connect_error = "w1: cannot load the kubeconfig context";

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());

  REQUIRE(report.clusters.size() == 1);
  CHECK_FALSE(report.clusters[0].reachable);
  CHECK(report.clusters[0].error == "w1: cannot load the kubeconfig context");
  CHECK(report.clusters[0].failed == 1);
  CHECK(report.result() == RunResult::Failed);  // nothing was done
  CHECK(std::string(run_result_name(report.result())) == "failed");
}

TEST_CASE("apply report: success only when every cluster was read and every change done",
          "[reconcile][apply][outcome]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("manager", kManager, {change_of("manager", Action::Create, "ClusterQueue", "", "cq")}));
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());

  CHECK(report.success());
  CHECK(report.result() == RunResult::Success);
  CHECK(std::string(run_result_name(report.result())) == "success");
  CHECK(report.done() == 2);
  CHECK(report.unreachable() == 0);
  CHECK(outcome_for(report, "manager")->done == 1);
  CHECK(outcome_for(report, "w1")->done == 1);
}

TEST_CASE("verify_plan: no changes and every cluster read is a success, an unreachable one is not",
          "[reconcile][apply][outcome]") {
  kube::FakeClient manager;
  Plan plan;
  Change unchanged = change_of("manager", Action::NoOp, "ClusterQueue", "", "cq");
  unchanged.live_uid = "uid-cq";
  plan.clusters.push_back(cluster_plan("manager", kManager, {unchanged}));
  std::vector<Target> targets{target_of("manager", kManager, &manager)};

  SECTION("every cluster read") {
    const ApplyReport report = verify_plan(plan, targets, fast_options());
    CHECK(report.success());
    CHECK(report.results.empty());
    CHECK(report.waited == 0);
    CHECK(manager.calls().empty());  // without --wait nothing is read
  }
  SECTION("a worker unreachable") {
    plan.clusters.push_back(unreachable_plan("w2", "w2: connection refused"));
    targets.push_back(target_of("w2", kWorker, nullptr));
    const ApplyReport report = verify_plan(plan, targets, fast_options());
    CHECK_FALSE(report.success());
    CHECK(report.unreachable() == 1);
    CHECK(report.result() == RunResult::Failed);  // nothing was done
    REQUIRE(outcome_for(report, "w2") != nullptr);
    CHECK_FALSE(outcome_for(report, "w2")->reachable);
  }
}

TEST_CASE("verify_plan --wait checks every Kueue object of a plan without changes",
          "[reconcile][apply][outcome][wait]") {
  kube::FakeClient manager, worker;
  const Json cq_document = document_of("ClusterQueue", "", "cq");
  manager.put(with_active_condition(cq_document, "False", "FlavorNotFound",
                                    "Can't admit new workloads: references missing ResourceFlavor(s): default"),
              "kueue");
  manager.put(with_active_condition(document_of("LocalQueue", "team", "lq"), "True", "Ready",
                                    "Can submit new workloads"),
              "kueue");
  worker.put(with_active_condition(cq_document, "True", "Ready", "Can admit new workloads"), "kueue");
  Change cq = change_of("manager", Action::NoOp, "ClusterQueue", "", "cq");
  cq.live_uid = "uid-cq";
  Change lq = change_of("manager", Action::NoOp, "LocalQueue", "team", "lq");
  lq.live_uid = "uid-lq";
  Change flavor = change_of("manager", Action::NoOp, "ResourceFlavor", "", "default");  // no Active condition
  flavor.live_uid = "uid-flavor";
  Change worker_cq = change_of("w1", Action::NoOp, "ClusterQueue", "", "cq");
  worker_cq.live_uid = "uid-w1-cq";
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager, {flavor, cq, lq}));
  plan.clusters.push_back(cluster_plan("w1", kWorker, {worker_cq}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};
  ApplyOptions options = fast_options();
  options.wait = 60ms;
  options.poll_interval = 10ms;

  const ApplyReport report = verify_plan(plan, targets, options);

  CHECK(report.waited == 3);
  CHECK(rendered(report.wait_failures) ==
        std::vector<std::string>{"manager/ClusterQueue/cq: Active=False (FlavorNotFound): Can't admit new workloads: "
                                 "references missing ResourceFlavor(s): default"});
  CHECK_FALSE(report.success());
  CHECK(report.result() == RunResult::Failed);
  CHECK_FALSE(report.interrupted);
  for (const std::string& call : manager.calls()) CHECK(call.rfind("LIST ", 0) == 0);  // reads only
  CHECK(manager.calls().size() >= 2);  // a LIST per kind and poll

  SECTION("every object Active: a success") {
    manager.put(with_active_condition(cq_document, "True", "Ready", "Can admit new workloads"), "kueue");
    const ApplyReport active = verify_plan(plan, targets, options);
    CHECK(active.success());
    CHECK(active.waited == 3);
    CHECK(active.wait_failures.empty());
  }
}

TEST_CASE("apply report: a state that cannot be written is a failure of the whole run", "[reconcile][apply][outcome]") {
  ApplyReport report;
  report.results.push_back(ObjectResult{{}, Action::NoOp, Outcome::Failed, base::Error(0, "StateError", "the state could not record 1 change")});
  report.failed = 1;
  CHECK_FALSE(report.success());
  CHECK(report.result() == RunResult::Failed);
  CHECK(report.done() == 0);
}

}  // namespace
}  // namespace mkq::reconcile::testing
