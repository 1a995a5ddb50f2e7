// Scoping in the plan (docs/apply.md, "Scoping"): --cluster's helpers in
// exclude.h (the workers a scope leaves out; the manager's objects kept for
// the workers named), --replace through PlanOptions::replace (a typed
// directive; refused where mkq did not create the object or where
// prevent-destroy holds it), and the scope as every rendering and the JSON
// reader carry it.
#include "runtime/reconcile/exclude.h"

#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers

namespace {

kueue::Object secret_for(const std::string& worker) {
  kueue::Object o = placeholder_secret();
  o.name = worker + "-secret";
  o.document["metadata"]["name"] = o.name;
  return o;
}

kueue::Object multikueue_cluster(const std::string& worker) {
  kueue::Object o = make("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", worker, "",
                         Json{{"spec", {{"clusterSource", {{"kubeConfig", {{"locationType", "Secret"},
                                                                            {"location", worker + "-secret"}}}}}}}});
  o.depends_on.push_back("manager/Secret/kueue-system/" + worker + "-secret");
  return o;
}

// The test policy with the manager connected to worker1 and to worker2 (a
// worker whose own cluster this test does not have).
kueue::DesiredState policy_with_two_connections() {
  kueue::DesiredState d = policy();
  for (const std::string worker : {"worker1", "worker2"}) {
    d.clusters[0].objects.push_back(secret_for(worker));
    d.clusters[0].objects.push_back(multikueue_cluster(worker));
  }
  return d;
}

std::vector<std::string> addresses_of(const kueue::ClusterObjects& cluster) {
  std::vector<std::string> out;
  for (const kueue::Object& o : cluster.objects) out.push_back(kueue::address(cluster.cluster, o));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> inventory_addresses(const std::vector<state::InventoryEntry>& inventory) {
  std::vector<std::string> out;
  for (const auto& e : inventory) out.push_back(e.ref.address());
  std::sort(out.begin(), out.end());
  return out;
}

state::InventoryEntry entry_of(const std::string& cluster, const std::string& kind, const std::string& name) {
  state::InventoryEntry e;
  e.ref.cluster = cluster;
  e.ref.api_version = "kueue.x-k8s.io/v1beta2";
  e.ref.kind = kind;
  e.ref.name = name;
  return e;
}

reconcile::PlanOptions replacing(const std::string& address) {
  reconcile::PlanOptions options;
  options.replace = {address};
  return options;
}

}  // namespace

TEST_CASE("scope: the workers a --cluster scope leaves out, from the policy and the state, never the manager",
          "[reconcile][scope]") {
  kueue::DesiredState desired = policy();
  // worker3 only the state remembers; the manager's own entry is no worker.
  const std::vector<state::InventoryEntry> inventory{entry_of("worker3", "ClusterQueue", "cluster-queue"),
                                                     entry_of("manager", "ClusterQueue", "cluster-queue")};
  CHECK(reconcile::workers_outside({"worker1"}, "manager", desired, inventory) == std::vector<std::string>{"worker3"});
  CHECK(reconcile::workers_outside({"worker3"}, "manager", desired, inventory) == std::vector<std::string>{"worker1"});
  CHECK(reconcile::workers_outside({"manager"}, "manager", desired, inventory) ==
        std::vector<std::string>{"worker1", "worker3"});
  CHECK(reconcile::workers_outside({"worker1", "worker3"}, "manager", desired, inventory).empty());
}

TEST_CASE("scope: without the manager, only its objects for the workers named are planned", "[reconcile][scope]") {
  World world;
  kueue::DesiredState desired = policy_with_two_connections();
  world.apply(desired);
  REQUIRE(world.inventory.size() == 10);  // the manager's 3 + 2 Secrets + 2 MultiKueueClusters, worker1's 3
  // The policy changes on both clusters.
  *find(desired, "manager", "ClusterQueue", "cluster-queue") = cluster_queue("cluster-queue", "12", "36Gi");
  *find(desired, "worker1", "ClusterQueue", "cluster-queue") = cluster_queue("cluster-queue", "12", "36Gi");
  const reconcile::LiveState live = world.refresh(desired);
  std::vector<state::InventoryEntry> inventory = world.inventory;

  const int left = reconcile::keep_manager_objects_for({"worker1"}, live, desired, inventory);
  CHECK(left == 5);  // the manager's flavor, ClusterQueue, LocalQueue; worker2's Secret and MultiKueueCluster
  CHECK(addresses_of(desired.clusters[0]) == std::vector<std::string>{"manager/MultiKueueCluster/worker1",
                                                                      "manager/Secret/kueue-system/worker1-secret"});
  CHECK(desired.clusters[1].objects.size() == 3);  // the worker's own are not the manager's to narrow
  CHECK(inventory_addresses(inventory) ==
        std::vector<std::string>{"manager/MultiKueueCluster/worker1", "manager/Secret/kueue-system/worker1-secret",
                                 "worker1/ClusterQueue/cluster-queue", "worker1/LocalQueue/default/user-queue",
                                 "worker1/ResourceFlavor/default-flavor"});

  // The manager's ClusterQueue changed in the policy, yet neither it nor
  // worker2's objects (still in the state) are planned or pruned.
  const reconcile::Plan plan = reconcile::make_plan(desired, inventory, kLineage, live, nullptr, {});
  CHECK(plan.complete());
  // (Without a credential provider the placeholder Secret is not checked: an update.)
  CHECK(actions(plan) == std::vector<std::string>{"update manager/Secret/kueue-system/worker1-secret (credential not checked)",
                                                  "update worker1/ClusterQueue/cluster-queue (the policy changed)"});
  CHECK(cluster_of(plan, "manager").changes.size() == 2);
}

TEST_CASE("replace: a live object named is deleted and created again, as a typed directive", "[reconcile][scope][replace]") {
  World world;
  kueue::DesiredState desired = policy();
  world.apply(desired);
  const reconcile::Plan plan = world.plan(desired, nullptr, replacing("worker1/ClusterQueue/cluster-queue"));
  CHECK(actions(plan) ==
        std::vector<std::string>{"replace worker1/ClusterQueue/cluster-queue (replace requested (--replace))"});
  const reconcile::Change* change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  CHECK(change->replace_requested);
  CHECK(change->reason == reconcile::Reason::ReplaceRequested);
  CHECK_FALSE(change->repairs_drift);
  CHECK(change->refusal.empty());
  CHECK(change->desired == find(desired, "worker1", "ClusterQueue", "cluster-queue")->document);
  CHECK(plan.refusals().empty());
  CHECK(plan.summary().replace == 1);
  // The same object on the manager is another address: untouched.
  CHECK(change_of(plan, "manager/ClusterQueue/cluster-queue")->action == reconcile::Action::NoOp);
  CHECK_FALSE(change_of(plan, "manager/ClusterQueue/cluster-queue")->replace_requested);
}

TEST_CASE("replace: an object not on the cluster yet is created, not replaced", "[reconcile][scope][replace]") {
  World world;
  kueue::DesiredState desired = policy();
  const reconcile::Plan plan = world.plan(desired, nullptr, replacing("worker1/ClusterQueue/cluster-queue"));
  const reconcile::Change* change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  CHECK(change->action == reconcile::Action::Create);
  CHECK_FALSE(change->replace_requested);
  CHECK(plan.summary().replace == 0);
}

TEST_CASE("replace: refused for an object mkq did not create, another policy's, or one marked prevent-destroy",
          "[reconcile][scope][replace]") {
  World world;
  kueue::DesiredState desired = policy();
  const std::string address = "manager/ClusterQueue/cluster-queue";
  const std::string not_created = "--replace deletes the object, and it existed before mkq (or is another policy's): "
                                  "mkq deletes only what it created";
  kueue::Object cq = *find(desired, "manager", "ClusterQueue", "cluster-queue");

  SECTION("there before mkq (adopted)") {
    Json before = cq.document;
    before["metadata"].erase("labels");
    world.manager.put(before, "kubectl");
    const reconcile::Plan plan = world.plan(desired, nullptr, replacing(address));
    const reconcile::Change* change = change_of(plan, address);
    REQUIRE(change != nullptr);
    CHECK(change->action == reconcile::Action::Replace);
    CHECK(change->adopted);
    CHECK(change->refusal == not_created);
    CHECK(plan.refusals() == std::vector<std::string>{address + ": " + not_created});
  }
  SECTION("another policy's, even taken over") {
    Json other = cq.document;
    other["metadata"]["labels"]["mkq.dev/policy"] = "other";
    world.manager.put(other, "mkq");
    reconcile::PlanOptions options = replacing(address);
    options.take_over = true;
    const reconcile::Plan plan = world.plan(desired, nullptr, options);
    const reconcile::Change* change = change_of(plan, address);
    REQUIRE(change != nullptr);
    CHECK(change->owner_conflict == "other");
    CHECK(change->take_over);
    CHECK(change->refusal == not_created);
    CHECK(plan.refusals() == std::vector<std::string>{address + ": " + not_created});
  }
  SECTION("marked prevent-destroy") {
    world.apply(desired);
    Json marked = *world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
    marked["metadata"]["annotations"][reconcile::kPreventDestroyAnnotation] = "true";
    world.manager.put(marked, "kubectl");
    const reconcile::Plan plan = world.plan(desired, nullptr, replacing(address));
    const reconcile::Change* change = change_of(plan, address);
    REQUIRE(change != nullptr);
    CHECK(change->replace_requested);
    CHECK_FALSE(change->adopted);
    CHECK(change->refusal ==
          "it is marked mkq.dev/prevent-destroy=true and replace requested (--replace): it can only change by being "
          "deleted and created again; remove the annotation to allow that");
  }
}

TEST_CASE("scope: its JSON, read back, a plan without one reads as unscoped", "[reconcile][scope][json]") {
  reconcile::Scope scope;
  scope.clusters = {"worker1"};
  scope.not_planned = {{"worker2", 5}};
  scope.manager_objects_left = 3;
  scope.drift_only = true;
  scope.not_drift = 2;
  CHECK(reconcile::scope_json(scope) == Json::parse(R"({"clusters": ["worker1"],
    "not_planned": [{"name": "worker2", "objects": 5}], "manager_objects_left": 3, "drift_only": true,
    "not_drift": 2})"));
  const reconcile::Scope back = reconcile::scope_from_json(reconcile::scope_json(scope));
  CHECK(back.clusters == scope.clusters);
  REQUIRE(back.not_planned.size() == 1);
  CHECK(back.not_planned[0].cluster == "worker2");
  CHECK(back.not_planned[0].objects == 5);
  CHECK(back.manager_objects_left == 3);
  CHECK(back.drift_only);
  CHECK(back.not_drift == 2);

  const reconcile::Scope none = reconcile::scope_from_json(Json::object());
  CHECK(none.clusters.empty());
  CHECK(none.not_planned.empty());
  CHECK(none.manager_objects_left == 0);
  CHECK_FALSE(none.drift_only);
  CHECK(none.not_drift == 0);

  // Through the plan's JSON: the scope, --replace and the change's directive.
  World world;
  kueue::DesiredState desired = policy();
  world.apply(desired);
  reconcile::Plan plan = world.plan(desired, nullptr, replacing("worker1/ClusterQueue/cluster-queue"));
  plan.scope = scope;
  Json json = reconcile::render_json(plan);
  CHECK(json["options"]["replace"] == Json::parse(R"(["worker1/ClusterQueue/cluster-queue"])"));
  CHECK(json["scope"] == reconcile::scope_json(scope));
  const auto read = reconcile::plan_from_json(json);
  INFO((read ? std::string() : read.error().message));
  REQUIRE(read);
  CHECK(read->options.replace == std::set<std::string>{"worker1/ClusterQueue/cluster-queue"});
  CHECK(read->scope.clusters == std::vector<std::string>{"worker1"});
  CHECK(read->scope.not_drift == 2);
  CHECK(change_of(*read, "worker1/ClusterQueue/cluster-queue")->replace_requested);
  CHECK(reconcile::first_difference(plan, *read).empty());

  json.erase("scope");
  json["options"].erase("replace");
  const auto unscoped = reconcile::plan_from_json(json);
  REQUIRE(unscoped);
  CHECK(unscoped->scope.clusters.empty());
  CHECK_FALSE(unscoped->scope.drift_only);
  CHECK(unscoped->options.replace.empty());
}

TEST_CASE("scope: every rendering says what the scope left out", "[reconcile][scope][render]") {
  reconcile::Plan plan;
  plan.lineage = kLineage;
  reconcile::ClusterPlan manager;
  manager.cluster = "manager";
  manager.role = kueue::ClusterRole::Manager;
  plan.clusters.push_back(manager);
  reconcile::ClusterPlan worker;
  worker.cluster = "worker1";
  worker.role = kueue::ClusterRole::Worker;
  plan.clusters.push_back(worker);
  plan.scope.clusters = {"worker1"};
  plan.scope.not_planned = {{"worker2", 5}, {"worker3", 1}};
  plan.scope.manager_objects_left = 1;

  CHECK(reconcile::render_text(plan, false) ==
        "No changes. Every object planned matches the policy.\n"
        "# 2 clusters not planned (--cluster): worker2 and worker3; 6 objects of the state left as they are\n"
        "# manager manager: only its objects for worker1 planned (--cluster); 1 object of the state left as it is\n");
  CHECK(reconcile::render_markdown(plan) ==
        "### mkq plan: no changes\n\nNo changes. Every object planned matches the policy.\n"
        "\n#### scope\n\n"
        "- 2 clusters not planned (--cluster): worker2 and worker3; 6 objects of the state left as they are\n"
        "- manager manager: only its objects for worker1 planned (--cluster); 1 object of the state left as it is\n");

  // The manager named: no line of its own; drift only: what it left out.
  plan.scope.clusters = {"manager", "worker1"};
  plan.scope.not_planned = {{"worker2", 1}};
  plan.scope.manager_objects_left = 0;
  plan.scope.drift_only = true;
  plan.scope.not_drift = 1;
  CHECK(reconcile::render_text(plan, false) ==
        "No drift. Every object planned is as mkq last applied it.\n"
        "# 1 cluster not planned (--cluster): worker2; 1 object of the state left as it is\n"
        "# drift only (--drift-only): 1 change that is not drift left out\n");
}
