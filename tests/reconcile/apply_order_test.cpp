// The apply executor's ordering: tiers within a cluster, deletions reversed,
// the manager's MultiKueue objects after every worker, the parallelism bound.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "apply_test_support.h"

namespace mkq::reconcile::testing {
namespace {

using Phase = ProgressEvent::Phase;
constexpr auto kManager = kueue::ClusterRole::Manager;
constexpr auto kWorker = kueue::ClusterRole::Worker;

// Position of the first call containing `needle`; calls.size() when none.
std::size_t position(const std::vector<std::string>& calls, const std::string& needle) {
  for (std::size_t index = 0; index < calls.size(); ++index) {
    if (calls[index].find(needle) != std::string::npos) return index;
  }
  return calls.size();
}

TEST_CASE("apply creates a cluster's objects in tier order and deletes in reverse", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  // Objects to delete, as a previous apply left them.
  fake.put(document_of("LocalQueue", "old", "old-lq", {{"clusterQueue", "old-cq"}}), "mkq");
  fake.put(document_of("ClusterQueue", "", "old-cq"), "mkq");
  fake.put(document_of("Namespace", "", "old"), "mkq");

  Plan plan;
  // Listed out of order on purpose: the executor orders by tier.
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker,
      {change_of("w1", Action::Delete, "Namespace", "", "old"),
       change_of("w1", Action::Create, "LocalQueue", "team", "lq", {{"clusterQueue", "cq"}}),
       change_of("w1", Action::Delete, "LocalQueue", "old", "old-lq"),
       change_of("w1", Action::Create, "ClusterQueue", "", "cq"),
       change_of("w1", Action::Delete, "ClusterQueue", "", "old-cq"),
       change_of("w1", Action::Create, "ResourceFlavor", "", "default"),
       change_of("w1", Action::Create, "Namespace", "", "team")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.success());
  REQUIRE(report.results.size() == 7);

  const std::vector<std::string> patches = calls_of(fake, "PATCH");
  REQUIRE(patches.size() == 4);
  CHECK(patches[0] == "PATCH /api/v1/namespaces/team");
  CHECK(patches[1] == "PATCH /apis/kueue.x-k8s.io/v1beta2/resourceflavors/default");
  CHECK(patches[2] == "PATCH /apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq");
  CHECK(patches[3] == "PATCH /apis/kueue.x-k8s.io/v1beta2/namespaces/team/localqueues/lq");

  const std::vector<std::string> calls = fake.calls();
  const std::size_t last_patch = position(calls, "localqueues/lq");
  const std::size_t delete_lq = position(calls, "DELETE /apis/kueue.x-k8s.io/v1beta2/namespaces/old/localqueues/old-lq");
  const std::size_t delete_cq = position(calls, "DELETE /apis/kueue.x-k8s.io/v1beta2/clusterqueues/old-cq");
  const std::size_t delete_ns = position(calls, "DELETE /api/v1/namespaces/old");
  CHECK(last_patch < delete_lq);
  CHECK(delete_lq < delete_cq);
  CHECK(delete_cq < delete_ns);
  CHECK(delete_ns < calls.size());
  CHECK_FALSE(fake.object("v1", "Namespace", "", "old"));
  CHECK(fake.object("kueue.x-k8s.io/v1beta2", "LocalQueue", "team", "lq"));
}

TEST_CASE("apply runs the manager's MultiKueue objects after every worker", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager, w1, w2;
  // Slow workers: the manager's early tiers still start at once.
  auto slow = [](const std::string&) -> std::optional<kube::Error> {
    std::this_thread::sleep_for(15ms);
    return std::nullopt;
  };
  w1.fail_when(slow);
  w2.fail_when(slow);

  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "manager", kManager,
      {change_of("manager", Action::Create, "Namespace", "", "kueue-system"),
       change_of("manager", Action::Create, "MultiKueueCluster", "", "w1"),
       change_of("manager", Action::Create, "MultiKueueCluster", "", "w2"),
       change_of("manager", Action::Create, "MultiKueueConfig", "", "all"),
       change_of("manager", Action::Create, "ClusterQueue", "", "cq")}));
  for (const std::string worker : {"w1", "w2"}) {
    plan.clusters.push_back(cluster_plan(worker, kWorker,
                                         {change_of(worker, Action::Create, "Namespace", "", "team"),
                                          change_of(worker, Action::Create, "ClusterQueue", "", "cq")}));
  }
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &w1),
                                    target_of("w2", kWorker, &w2)};
  EventLog log;
  ApplyOptions options = fast_options();
  options.progress = log.callback();

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  REQUIRE(report.success());
  REQUIRE(report.results.size() == 9);

  const int first_mkc = std::min(log.index_of(Phase::Started, "manager/MultiKueueCluster/w1"),
                                 log.index_of(Phase::Started, "manager/MultiKueueCluster/w2"));
  REQUIRE(first_mkc >= 0);
  for (const std::string worker : {"w1", "w2"}) {
    for (const std::string object : {"/Namespace/team", "/ClusterQueue/cq"}) {
      const int done = log.index_of(Phase::Done, worker + object);
      REQUIRE(done >= 0);
      CHECK(done < first_mkc);
    }
  }
  // The manager's namespace did not wait for the workers.
  CHECK(log.index_of(Phase::Done, "manager/Namespace/kueue-system") < log.index_of(Phase::Done, "w1/ClusterQueue/cq"));
  // Within the manager: MultiKueueCluster -> MultiKueueConfig -> ClusterQueue.
  CHECK(log.index_of(Phase::Done, "manager/MultiKueueCluster/w1") <
        log.index_of(Phase::Started, "manager/MultiKueueConfig/all"));
  CHECK(log.index_of(Phase::Done, "manager/MultiKueueConfig/all") < log.index_of(Phase::Started, "manager/ClusterQueue/cq"));
}

TEST_CASE("apply gives a failed worker's MultiKueueCluster to the manager all the same", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  worker.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("clusterqueues") != std::string::npos) return kube::Error{500, "InternalError", "boom", Json()};
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("manager", kManager, {change_of("manager", Action::Create, "MultiKueueCluster", "", "w1")}));
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.failed == 1);
  CHECK_FALSE(report.success());
  const ObjectResult* cq = result_for(report, "w1/ClusterQueue/cq");
  REQUIRE(cq != nullptr);
  CHECK_FALSE(cq->ok());
  CHECK(cq->error.message == "boom");
  const ObjectResult* mkc = result_for(report, "manager/MultiKueueCluster/w1");
  REQUIRE(mkc != nullptr);
  CHECK(mkc->ok());
  CHECK(manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "w1"));
}

TEST_CASE("apply deletes the manager's objects before the workers'", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  manager.put(document_of("MultiKueueCluster", "", "w1"), "mkq");
  worker.put(document_of("ClusterQueue", "", "cq"), "mkq");
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("manager", kManager, {change_of("manager", Action::Delete, "MultiKueueCluster", "", "w1")}));
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Delete, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};
  EventLog log;
  ApplyOptions options = fast_options();
  options.progress = log.callback();

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  REQUIRE(report.success());
  CHECK(log.index_of(Phase::Done, "manager/MultiKueueCluster/w1") < log.index_of(Phase::Started, "w1/ClusterQueue/cq"));
  CHECK(manager.size() == 0);
  CHECK(worker.size() == 0);
}

TEST_CASE("apply keeps at most `parallelism` requests in flight over all clusters", "[reconcile][apply]") {
  StateFixture state;
  std::atomic<int> in_flight{0}, most{0};
  auto counting = [&](const std::string&) -> std::optional<kube::Error> {
    const int now = ++in_flight;
    int seen = most.load();
    while (now > seen && !most.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(3ms);
    --in_flight;
    return std::nullopt;
  };
  kube::FakeClient a, b;
  a.fail_when(counting);
  b.fail_when(counting);
  Plan plan;
  for (const std::string cluster : {"a", "b"}) {
    std::vector<Change> changes;
    for (int index = 0; index < 12; ++index) {
      changes.push_back(change_of(cluster, Action::Create, "ClusterQueue", "", "cq-" + std::to_string(index)));
    }
    plan.clusters.push_back(cluster_plan(cluster, kWorker, changes));
  }
  const std::vector<Target> targets{target_of("a", kWorker, &a), target_of("b", kWorker, &b)};
  ApplyOptions options = fast_options();
  options.parallelism = 3;

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  REQUIRE(report.success());
  CHECK(report.results.size() == 24);
  CHECK(most.load() <= 3);
  CHECK(most.load() >= 2);  // concurrency does happen
  CHECK(a.size() == 12);
  CHECK(b.size() == 12);
}

TEST_CASE("apply lets an object wait for an object of its own tier it depends on", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  Plan plan;
  // ClusterRoleBinding and ClusterRole share a tier; the binding depends on the role.
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker,
      {change_of("w1", Action::Create, "ClusterRoleBinding", "", "bind", Json::object(), {"w1/ClusterRole/role"}),
       change_of("w1", Action::Create, "ClusterRole", "", "role")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.success());
  const std::vector<std::string> patches = calls_of(fake, "PATCH");
  REQUIRE(patches.size() == 2);
  CHECK(patches[0].find("clusterroles/role") != std::string::npos);
  CHECK(patches[1].find("clusterrolebindings/bind") != std::string::npos);
}

}  // namespace
}  // namespace mkq::reconcile::testing
