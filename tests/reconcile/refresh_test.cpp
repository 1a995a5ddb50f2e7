// refresh: one LIST per kind per cluster, never a GET per object.
#include <algorithm>

#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers

namespace {

std::vector<std::string> lists(const kube::FakeClient& fake) {
  std::vector<std::string> out;
  for (const std::string& call : fake.calls()) {
    if (call.rfind("LIST ", 0) == 0) out.push_back(call);
  }
  return out;
}

}  // namespace

TEST_CASE("refresh lists each kind once per cluster and keeps only the objects of interest", "[reconcile][refresh]") {
  World world;
  auto desired = policy();
  world.apply(desired);
  // Objects mkq neither declares nor applied are not kept.
  world.manager.put(flavor("someone-elses").document, "kubectl");
  const auto before = world.manager.calls().size();
  const auto live = world.refresh(desired);

  const std::vector<std::string> all_calls = world.manager.calls();
  const std::vector<std::string> manager_calls(all_calls.begin() + static_cast<long>(before), all_calls.end());
  CHECK(manager_calls == std::vector<std::string>{
                             "LIST /apis/kueue.x-k8s.io/v1beta2/resourceflavors",
                             "LIST /apis/kueue.x-k8s.io/v1beta2/clusterqueues",
                             "LIST /apis/kueue.x-k8s.io/v1beta2/namespaces/default/localqueues"});
  CHECK(lists(world.worker).size() == 3);
  REQUIRE(live.clusters.size() == 2);
  const auto* manager = live.find("manager");
  REQUIRE(manager != nullptr);
  CHECK(manager->reachable);
  CHECK(manager->objects.size() == 3);
  CHECK(manager->objects.count("manager/LocalQueue/default/user-queue") == 1);
  CHECK(manager->objects.count("manager/ResourceFlavor/someone-elses") == 0);
  CHECK(manager->types.at("kueue.x-k8s.io/v1beta2/ClusterQueue").plural == "clusterqueues");
  CHECK(live.find("nowhere") == nullptr);
}

TEST_CASE("refresh lists across namespaces when the objects of a kind live in several", "[reconcile][refresh]") {
  World world;
  auto desired = policy();
  desired.clusters[0].objects.push_back(local_queue("team-a", "q", "cluster-queue"));
  world.apply(desired);
  // Inventory-only objects are of interest too.
  world.inventory.push_back(state::InventoryEntry{{"manager", "v1", "Secret", "kueue-system", "old"},
                                                  "", "", "", "", 0, false, ""});
  world.refresh(desired);
  const auto manager_lists = lists(world.manager);
  CHECK(std::count(manager_lists.begin(), manager_lists.end(), "LIST /apis/kueue.x-k8s.io/v1beta2/localqueues") == 1);
  CHECK(std::count(manager_lists.begin(), manager_lists.end(), "LIST /api/v1/namespaces/kueue-system/secrets") == 1);
  CHECK(manager_lists.size() == 4);
}

TEST_CASE("refresh survives an unreachable cluster and a failing LIST", "[reconcile][refresh]") {
  World world;
  const auto desired = policy();
  world.worker.set_unreachable(true);
  auto live = world.refresh(desired);
  CHECK(live.find("manager")->reachable);
  CHECK_FALSE(live.find("worker1")->reachable);
  CHECK(live.find("worker1")->objects.empty());
  CHECK(live.find("worker1")->error.find("connection refused") != std::string::npos);

  world.worker.set_unreachable(false);
  world.worker.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("clusterqueues") != std::string::npos) return kube::Error{403, "Forbidden", "clusterqueues is forbidden", Json()};
    return std::nullopt;
  });
  live = world.refresh(desired);
  CHECK_FALSE(live.find("worker1")->reachable);
  CHECK(live.find("worker1")->error == "list clusterqueues: clusterqueues is forbidden");
}

TEST_CASE("refresh records kinds the server does not serve, their objects are planned as creates",
          "[reconcile][refresh]") {
  World world;
  const auto desired = policy();
  world.worker.stop_serving("kueue.x-k8s.io/v1beta2", "ClusterQueue");
  const auto live = world.refresh(desired);
  const auto* worker = live.find("worker1");
  REQUIRE(worker->reachable);
  CHECK(worker->unserved_kinds == std::vector<std::string>{"kueue.x-k8s.io/v1beta2/ClusterQueue"});
  CHECK(lists(world.worker).size() == 2);
  const auto plan = reconcile::make_plan(desired, {}, kLineage, live, nullptr, {});
  CHECK(reconcile::reason_text(*change_of(plan, "worker1/ClusterQueue/cluster-queue")) ==
        "not on the cluster, which does not serve kueue.x-k8s.io/v1beta2/ClusterQueue");
}

TEST_CASE("refresh reads many clusters in parallel", "[reconcile][refresh]") {
  std::vector<std::unique_ptr<kube::FakeClient>> fakes;
  std::vector<reconcile::Target> targets;
  kueue::DesiredState desired;
  for (int i = 0; i < 12; ++i) {
    const std::string name = "worker" + std::to_string(i);
    fakes.push_back(std::make_unique<kube::FakeClient>());
    targets.push_back(reconcile::Target{name, kueue::ClusterRole::Worker, fakes.back().get(), ""});
    desired.clusters.push_back(kueue::ClusterObjects{name, kueue::ClusterRole::Worker, {flavor("f"), cluster_queue("cq", "1", "1")}});
  }
  reconcile::RefreshOptions options;
  options.parallelism = 4;
  const auto live = reconcile::refresh(desired, {}, targets, options);
  REQUIRE(live.clusters.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(live.clusters[i].cluster == targets[i].cluster);
    CHECK(fakes[i]->stats().lists == 2);
    CHECK(fakes[i]->stats().gets == 0);
  }
}
