// --exclude-cluster (exclude.h): the worker's objects and the manager's objects
// for it -- its MultiKueueCluster and kubeconfig Secret -- are neither planned
// nor pruned, whether the policy still has the worker or not; and the plan says
// how many objects each exclusion leaves as they are.
#include "runtime/reconcile/exclude.h"

#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers

namespace {

kueue::Object multikueue_cluster(const std::string& worker, const std::string& secret) {
  kueue::Object o = make("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", worker, "",
                         Json{{"spec", {{"clusterSource", {{"kubeConfig", {{"locationType", "Secret"},
                                                                            {"location", secret}}}}}}}});
  o.depends_on.push_back("manager/Secret/kueue-system/" + secret);
  return o;
}

// The test policy plus worker1's MultiKueueCluster and its Secret on the manager.
kueue::DesiredState policy_with_connection() {
  kueue::DesiredState d = policy();
  d.clusters[0].objects.push_back(placeholder_secret());
  d.clusters[0].objects.push_back(multikueue_cluster("worker1", "worker1-secret"));
  return d;
}

// The same policy without worker1: neither its cluster nor the manager's objects for it.
kueue::DesiredState policy_without_worker() {
  kueue::DesiredState d = policy();
  d.clusters.pop_back();
  return d;
}

// Refresh as a run with worker1 excluded does it: the manager only.
reconcile::LiveState refresh_manager(World& world, const kueue::DesiredState& desired) {
  return reconcile::refresh(desired, world.inventory, {world.targets().front()}, reconcile::RefreshOptions{});
}

std::vector<std::string> inventory_addresses(const std::vector<state::InventoryEntry>& inventory) {
  std::vector<std::string> out;
  for (const auto& e : inventory) out.push_back(e.ref.address());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("exclude: a worker of the policy and the manager's objects for it are left out", "[reconcile][exclude]") {
  World world;
  kueue::DesiredState desired = policy_with_connection();
  world.apply(desired);
  REQUIRE(world.inventory.size() == 8);
  desired.clusters[0].objects[1] = cluster_queue("cluster-queue", "12", "36Gi");  // a change on the manager
  const reconcile::LiveState live = refresh_manager(world, desired);
  std::vector<state::InventoryEntry> inventory = world.inventory;

  const auto excluded = reconcile::exclude_clusters({"worker1"}, live, desired, inventory);
  REQUIRE(excluded.size() == 1);
  CHECK(excluded[0].cluster == "worker1");
  CHECK(excluded[0].objects == 5);  // its flavor, ClusterQueue, LocalQueue; the MultiKueueCluster and the Secret
  REQUIRE(desired.clusters.size() == 1);
  CHECK(desired.clusters[0].cluster == "manager");
  CHECK(desired.clusters[0].objects.size() == 3);
  CHECK(inventory_addresses(inventory) ==
        std::vector<std::string>{"manager/ClusterQueue/cluster-queue", "manager/LocalQueue/default/user-queue",
                                 "manager/ResourceFlavor/default-flavor"});

  const reconcile::Plan plan = reconcile::make_plan(desired, inventory, kLineage, live, nullptr, {});
  CHECK(plan.complete());
  CHECK(actions(plan) ==
        std::vector<std::string>{"update manager/ClusterQueue/cluster-queue (the policy changed)"});
}

TEST_CASE("exclude: a worker only the state remembers keeps its Secret, found through the live MultiKueueCluster",
          "[reconcile][exclude]") {
  World world;
  world.apply(policy_with_connection());
  kueue::DesiredState desired = policy_without_worker();

  // Without the exclusion, the plan prunes the worker's objects on the manager.
  const reconcile::LiveState live = refresh_manager(world, desired);
  const reconcile::Plan pruning = reconcile::make_plan(desired, world.inventory, kLineage, live, nullptr, {});
  CHECK(change_of(pruning, "manager/MultiKueueCluster/worker1")->action == reconcile::Action::Delete);
  CHECK(change_of(pruning, "manager/Secret/kueue-system/worker1-secret")->action == reconcile::Action::Delete);

  std::vector<state::InventoryEntry> inventory = world.inventory;
  const auto excluded = reconcile::exclude_clusters({"worker1"}, live, desired, inventory);
  REQUIRE(excluded.size() == 1);
  CHECK(excluded[0].objects == 5);
  const reconcile::Plan plan = reconcile::make_plan(desired, inventory, kLineage, live, nullptr, {});
  CHECK(plan.complete());
  CHECK_FALSE(plan.has_changes());

  // Destroy leaves them too.
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const reconcile::Plan gone = reconcile::make_plan(desired, inventory, kLineage, live, nullptr, destroy);
  CHECK(actions(gone) == std::vector<std::string>{
                             "delete manager/LocalQueue/default/user-queue (destroy)",
                             "delete manager/ClusterQueue/cluster-queue (destroy)",
                             "delete manager/ResourceFlavor/default-flavor (destroy)"});
}

TEST_CASE("exclude: the plan names each excluded cluster in every rendering", "[reconcile][exclude]") {
  reconcile::Plan plan;
  plan.lineage = kLineage;
  reconcile::ClusterPlan manager;
  manager.cluster = "manager";
  manager.role = kueue::ClusterRole::Manager;
  plan.clusters.push_back(manager);
  plan.excluded = {{"worker2", 7}, {"worker3", 1}};

  CHECK(reconcile::render_text(plan, false) ==
        "No changes. Every cluster matches the policy.\n"
        "# cluster worker2 (worker): excluded (--exclude-cluster): 7 objects left as they are\n"
        "# cluster worker3 (worker): excluded (--exclude-cluster): 1 object left as it is\n");
  CHECK(reconcile::render_markdown(plan) ==
        "### mkq plan: no changes\n\nNo changes. Every cluster matches the policy.\n"
        "\n#### cluster `worker2` (worker)\n\nexcluded (--exclude-cluster): 7 objects left as they are\n"
        "\n#### cluster `worker3` (worker)\n\nexcluded (--exclude-cluster): 1 object left as it is\n");

  const Json json = reconcile::render_json(plan);
  CHECK(json["excluded"] == Json::parse(R"([{"name": "worker2", "objects": 7}, {"name": "worker3", "objects": 1}])"));
  const auto back = reconcile::plan_from_json(json);
  INFO((back ? std::string() : back.error().message));
  REQUIRE(back);
  REQUIRE(back->excluded.size() == 2);
  CHECK(back->excluded[1].cluster == "worker3");
  CHECK(back->excluded[1].objects == 1);
}
