// make_plan on fields the policy leaves at Kueue's default (kueue::schema::kDefaults):
// a live value other than the default is drift that the change restores;
// the default itself, an absent field, and a field the policy sets are not.
#include "runtime/reconcile/apply.h"
#include "tests/reconcile/apply_test_support.h"
#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers
using reconcile::Action;

namespace {

constexpr const char* kClusterQueue = "kueue.x-k8s.io/v1beta2";

// The worker's ClusterQueue as stored, changed by `edit`, written back by kubectl.
template <typename Edit>
void edit_worker_queue(World& world, Edit edit) {
  Json cq = *world.worker.object(kClusterQueue, "ClusterQueue", "", "cluster-queue");
  edit(cq["spec"]);
  world.worker.put(cq, "kubectl-patch");
}

const reconcile::Change& worker_queue(const reconcile::Plan& plan) {
  const auto* change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  return *change;
}

}  // namespace

TEST_CASE("plan: a default the policy leaves, changed outside mkq, is drift the change restores",
          "[reconcile][plan][defaults]") {
  World world;
  auto desired = policy();
  world.apply(desired);
  edit_worker_queue(world, [](Json& spec) {
    spec["stopPolicy"] = "Hold";
    spec["queueingStrategy"] = "StrictFIFO";
  });

  const auto plan = world.plan(desired);
  CHECK(actions(plan) == std::vector<std::string>{
                             "update worker1/ClusterQueue/cluster-queue (drift: queueingStrategy and stopPolicy differ "
                             "from Kueue's defaults, which the policy leaves)"});
  const auto& change = worker_queue(plan);
  CHECK(change.repairs_drift);
  REQUIRE(change.fields.size() == 2);
  CHECK(change.fields[0].path == "spec.queueingStrategy");
  CHECK(change.fields[0].before == Json("StrictFIFO"));
  CHECK(change.fields[0].after == Json("BestEffortFIFO"));
  CHECK(change.fields[0].restores_default);
  CHECK(change.fields[1].path == "spec.stopPolicy");
  CHECK(change.fields[1].before == Json("Hold"));
  CHECK(change.fields[1].after == Json("None"));
  CHECK(change.fields[1].restores_default);
  // The document to apply sets the defaults; the inventory keeps the policy's own digest.
  const Json& policy_document = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  Json expected = policy_document;
  expected["spec"]["queueingStrategy"] = "BestEffortFIFO";
  expected["spec"]["stopPolicy"] = "None";
  CHECK(change.desired == expected);
  CHECK(change.inventory_digest == reconcile::document_digest(policy_document, kLineage));
  CHECK(reconcile::render_text(plan, false) ==
        "mkq will perform the following actions:\n"
        "\n"
        "# cluster manager (manager): no changes\n"
        "\n"
        "# cluster worker1 (worker)\n"
        "  ~ ClusterQueue cluster-queue (drift: queueingStrategy and stopPolicy differ from Kueue's defaults, which "
        "the policy leaves)\n"
        "      ~ spec.queueingStrategy: \"StrictFIFO\" -> \"BestEffortFIFO\" (Kueue's default)\n"
        "      ~ spec.stopPolicy: \"Hold\" -> \"None\" (Kueue's default)\n"
        "\n"
        "Plan: 0 to add, 1 to change, 0 to destroy.\n");
}

TEST_CASE("plan: one changed default is named in the reason", "[reconcile][plan][defaults]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  edit_worker_queue(world, [](Json& spec) { spec["queueingStrategy"] = "StrictFIFO"; });
  CHECK(actions(world.plan(desired)) ==
        std::vector<std::string>{"update worker1/ClusterQueue/cluster-queue (drift: queueingStrategy is StrictFIFO, "
                                 "the policy leaves Kueue's default BestEffortFIFO)"});
}

TEST_CASE("plan: the defaults themselves, spelled out by the server, are no drift", "[reconcile][plan][defaults]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  edit_worker_queue(world, [](Json& spec) {
    spec["stopPolicy"] = "None";
    spec["queueingStrategy"] = "BestEffortFIFO";
    spec["preemption"] = Json::parse(
        R"({"withinClusterQueue": "Never", "reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "Never"}})");
    spec["flavorFungibility"] = Json::parse(R"({"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"})");
    spec["fairSharing"] = Json{{"weight", 1}};  // a number where the default is written "1"
  });
  CHECK(actions(world.plan(desired)).empty());
}

TEST_CASE("plan: a field the policy sets is compared as sent, never as a default", "[reconcile][plan][defaults]") {
  World world;
  auto desired = policy();
  find(desired, "worker1", "ClusterQueue", "cluster-queue")->document["spec"]["queueingStrategy"] = "StrictFIFO";
  world.apply(desired);
  CHECK(actions(world.plan(desired)).empty());
  edit_worker_queue(world, [](Json& spec) { spec["queueingStrategy"] = "BestEffortFIFO"; });
  const auto plan = world.plan(desired);
  CHECK(actions(plan) == std::vector<std::string>{"update worker1/ClusterQueue/cluster-queue (drift: changed outside mkq)"});
  const auto& change = worker_queue(plan);
  REQUIRE(change.fields.size() == 1);
  CHECK(change.fields[0].after == Json("StrictFIFO"));
  CHECK_FALSE(change.fields[0].restores_default);
  CHECK(change.inventory_digest.empty());  // the document to apply is the policy's own
}

TEST_CASE("plan: a nested default is restored inside its parent", "[reconcile][plan][defaults]") {
  World world;
  auto desired = policy();
  // The policy sets one preemption field; the others are Kueue's defaults.
  find(desired, "worker1", "ClusterQueue", "cluster-queue")->document["spec"]["preemption"] =
      Json{{"withinClusterQueue", "LowerPriority"}};
  world.apply(desired);
  edit_worker_queue(world, [](Json& spec) {
    spec["preemption"]["reclaimWithinCohort"] = "Any";
    spec["preemption"]["borrowWithinCohort"] = Json{{"policy", "LowerPriority"}, {"maxPriorityThreshold", 5}};
    spec["flavorFungibility"] = Json{{"whenCanPreempt", "MayStopSearch"}};
  });
  const auto plan = world.plan(desired);
  const auto& change = worker_queue(plan);
  CHECK(reconcile::reason_text(change) ==
        "drift: preemption.reclaimWithinCohort, preemption.borrowWithinCohort.policy and "
        "flavorFungibility.whenCanPreempt differ from Kueue's defaults, which the policy leaves");
  REQUIRE(change.fields.size() == 3);
  CHECK(change.fields[0].path == "spec.preemption.reclaimWithinCohort");
  CHECK(change.fields[1].path == "spec.preemption.borrowWithinCohort.policy");
  CHECK(change.fields[2].path == "spec.flavorFungibility.whenCanPreempt");
  // maxPriorityThreshold has no default: not mkq's to judge.
  CHECK(change.desired["spec"]["preemption"] ==
        Json::parse(R"({"withinClusterQueue": "LowerPriority", "reclaimWithinCohort": "Never",
                        "borrowWithinCohort": {"policy": "Never"}})"));
  CHECK(change.desired["spec"]["flavorFungibility"] == Json{{"whenCanPreempt", "TryNextFlavor"}});
}

TEST_CASE("plan: a default inside an object applies where the object is live", "[reconcile][plan][defaults]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  // No fairSharing at all: its weight is no one's to check.
  CHECK(actions(world.plan(desired)).empty());
  edit_worker_queue(world, [](Json& spec) { spec["fairSharing"] = Json{{"weight", "5"}}; });
  const auto plan = world.plan(desired);
  const auto& change = worker_queue(plan);
  CHECK(reconcile::reason_text(change) == "drift: fairSharing.weight is 5, the policy leaves Kueue's default 1");
  CHECK(change.desired["spec"]["fairSharing"] == Json{{"weight", 1}});
}

TEST_CASE("plan: a LocalQueue's stopPolicy is a default too", "[reconcile][plan][defaults]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  Json lq = *world.manager.object(kClusterQueue, "LocalQueue", "default", "user-queue");
  lq["spec"]["stopPolicy"] = "HoldAndDrain";
  world.manager.put(lq, "kubectl-patch");
  CHECK(actions(world.plan(desired)) ==
        std::vector<std::string>{"update manager/LocalQueue/default/user-queue (drift: stopPolicy is HoldAndDrain, "
                                 "the policy leaves Kueue's default None)"});
}

TEST_CASE("plan: a default inside list items is looked for in the policy's own items", "[reconcile][plan][defaults]") {
  World world;
  auto desired = policy();
  // A toleration without operator (mkq's lowering always writes one; a hand-built one may not).
  find(desired, "manager", "ResourceFlavor", "default-flavor")->document["spec"]["tolerations"] =
      Json::parse(R"([{"key": "gpu", "effect": "NoSchedule"}, {"key": "spot", "operator": "Exists"}])");
  world.apply(desired);
  CHECK(actions(world.plan(desired)).empty());
  Json rf = *world.manager.object(kClusterQueue, "ResourceFlavor", "", "default-flavor");
  rf["spec"]["tolerations"][0]["operator"] = "Exists";
  world.manager.put(rf, "kubectl-patch");
  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, "manager/ResourceFlavor/default-flavor");
  REQUIRE(change != nullptr);
  CHECK(reconcile::reason_text(*change) == "drift: tolerations[0].operator is Exists, the policy leaves Kueue's default Equal");
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == "spec.tolerations[0].operator");
  CHECK(change->desired["spec"]["tolerations"][0] == Json::parse(R"({"key": "gpu", "effect": "NoSchedule", "operator": "Equal"})"));

  // A live list of another length is replaced whole: no default is looked for in it.
  rf["spec"]["tolerations"].push_back(Json{{"key", "extra"}, {"operator", "Exists"}});
  world.manager.put(rf, "kubectl-patch");
  const auto whole = world.plan(desired);
  const auto* replaced = change_of(whole, "manager/ResourceFlavor/default-flavor");
  REQUIRE(replaced != nullptr);
  REQUIRE(replaced->fields.size() == 1);
  CHECK(replaced->fields[0].path == "spec.tolerations");
  CHECK_FALSE(replaced->fields[0].restores_default);
}

TEST_CASE("plan: a changed default is restored, but not forced, when the policy changed too or the object is not mkq's",
          "[reconcile][plan][defaults]") {
  World world;
  world.apply(policy());
  edit_worker_queue(world, [](Json& spec) { spec["stopPolicy"] = "Hold"; });
  const auto plan = world.plan(policy());
  CHECK(worker_queue(plan).repairs_drift);

  // The policy changed the same object: an update that restores the default, without force.
  auto changed = policy();
  find(changed, "worker1", "ClusterQueue", "cluster-queue")->document["spec"]["cohortName"] = "all";
  const auto both = world.plan(changed);
  const auto& change = worker_queue(both);
  CHECK(reconcile::reason_text(change) == "the policy changed");
  CHECK_FALSE(change.repairs_drift);
  REQUIRE(change.fields.size() == 2);
  CHECK(change.fields[1].path == "spec.stopPolicy");
  CHECK(change.fields[1].restores_default);
  CHECK(change.desired["spec"]["stopPolicy"] == "None");

  // An object mkq never applied: adopted with the default restored, without force.
  World other;
  Json foreign = *world.worker.object(kClusterQueue, "ClusterQueue", "", "cluster-queue");
  foreign["metadata"].erase("managedFields");
  other.worker.put(foreign, "kubectl");
  const auto adopted = other.plan(policy());
  CHECK(reconcile::reason_text(worker_queue(adopted)) == "exists, not yet managed by mkq");
  CHECK_FALSE(worker_queue(adopted).repairs_drift);
  CHECK(worker_queue(adopted).desired["spec"]["stopPolicy"] == "None");
}

TEST_CASE("plan: a default mkq stops sending shows as the default restored, not as a removal",
          "[reconcile][plan][defaults]") {
  World world;
  auto before = policy();
  find(before, "worker1", "ClusterQueue", "cluster-queue")->document["spec"]["stopPolicy"] = "Hold";
  world.apply(before);
  const auto plan = world.plan(policy());
  const auto& change = worker_queue(plan);
  CHECK(reconcile::reason_text(change) == "the policy changed");
  CHECK_FALSE(change.repairs_drift);  // mkq owns the field: nothing to force
  REQUIRE(change.fields.size() == 1);
  CHECK(change.fields[0].path == "spec.stopPolicy");
  CHECK(change.fields[0].before == Json("Hold"));
  CHECK(change.fields[0].after == Json("None"));
  CHECK(change.fields[0].restores_default);
}

TEST_CASE("plan and apply: the repair takes the defaults back, records the policy's digest, and the next plan is clean",
          "[reconcile][plan][apply][defaults]") {
  namespace rt = mkq::reconcile::testing;
  rt::StateFixture state;
  World world;
  auto desired = policy();
  const auto run = [&](const reconcile::Plan& plan) {
    return reconcile::apply_plan(plan, world.targets(), *state.store, state.run_id, nullptr, rt::fast_options());
  };
  const auto plan_now = [&] {
    return reconcile::make_plan(desired, state.store->inventory().value(), state.store->lineage(), world.refresh(desired),
                                nullptr, {});
  };
  REQUIRE(run(plan_now()).success());
  world.inventory = state.store->inventory().value();  // refresh reads what the state knows
  edit_worker_queue(world, [](Json& spec) {
    spec["stopPolicy"] = "Hold";
    spec["preemption"] = Json{{"reclaimWithinCohort", "Any"}};
  });

  const auto repair = plan_now();
  REQUIRE(worker_queue(repair).repairs_drift);
  // kubectl-patch owns both fields: only a forced apply takes them.
  const auto report = run(repair);
  INFO((report.results.empty() ? std::string() : mkq::base::render(report.results.back().error)));
  REQUIRE(report.success());
  const Json live = *world.worker.object(kClusterQueue, "ClusterQueue", "", "cluster-queue");
  CHECK(live["spec"]["stopPolicy"] == "None");
  CHECK(live["spec"]["preemption"]["reclaimWithinCohort"] == "Never");

  const auto after = plan_now();
  CHECK(actions(after).empty());
  const std::vector<state::InventoryEntry> inventory = state.store->inventory().value();
  for (const state::InventoryEntry& entry : inventory) {
    if (entry.ref.address() != "worker1/ClusterQueue/cluster-queue") continue;
    CHECK(entry.digest == reconcile::document_digest(find(desired, "worker1", "ClusterQueue", "cluster-queue")->document,
                                                     state.store->lineage()));
  }
  // A later edit of a field the policy sends is still drift of an unchanged policy.
  edit_worker_queue(world, [](Json& spec) { spec["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "1"; });
  CHECK(reconcile::reason_text(worker_queue(plan_now())) == "drift: changed outside mkq");
}

TEST_CASE("plan: the saved plan keeps the repair, the restored defaults and the digest", "[reconcile][plan][defaults]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  edit_worker_queue(world, [](Json& spec) { spec["stopPolicy"] = "Hold"; });
  const auto plan = world.plan(desired);
  const Json json = reconcile::render_json(plan);
  const auto back = reconcile::plan_from_json(json);
  REQUIRE(back.ok());
  const auto& change = worker_queue(*back);
  CHECK(change.repairs_drift);
  CHECK(change.inventory_digest == worker_queue(plan).inventory_digest);
  REQUIRE(change.fields.size() == 1);
  CHECK(change.fields[0].restores_default);
  CHECK(change.desired["spec"]["stopPolicy"] == "None");
  CHECK(reconcile::render_json(*back) == json);
}
