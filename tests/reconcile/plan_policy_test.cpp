// make_plan over a compiled policy (examples/quickstart): create everything,
// then nothing to do once applied, then a quota change shows exactly that field.
#include <filesystem>

#include "tests/kueue/kueue_test_support.h"
#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers

namespace {

struct Quickstart {
  kube::FakeClient manager, worker;
  std::vector<state::InventoryEntry> inventory;

  std::vector<reconcile::Target> targets() {
    return {reconcile::Target{"manager-cluster", kueue::ClusterRole::Manager, &manager, ""},
            reconcile::Target{"multikueue-test-worker1", kueue::ClusterRole::Worker, &worker, ""}};
  }
  reconcile::Plan plan(const kueue::DesiredState& desired) {
    const auto live = reconcile::refresh(desired, inventory, targets(), {});
    return reconcile::make_plan(desired, inventory, kLineage, live, nullptr, {});
  }
  void apply(const kueue::DesiredState& desired) {
    for (const auto& cluster : desired.clusters) {
      kube::FakeClient& fake = cluster.role == kueue::ClusterRole::Manager ? manager : worker;
      for (const auto& o : cluster.objects) {
        auto applied = fake.apply(fake.resource_for(o.api_version, o.kind).value(), o.document, {});
        REQUIRE(applied.ok());
        state::InventoryEntry e{kueue::ref(cluster.cluster, o), applied.value()["metadata"]["uid"],
                                applied.value()["metadata"]["resourceVersion"],
                                reconcile::document_digest(o.document, kLineage), "", 1, false, ""};
        inventory.push_back(e);
      }
    }
  }
};

}  // namespace

TEST_CASE("plan over the quickstart: create, then clean, then exactly the changed quota", "[reconcile][plan][policy]") {
  const auto rendered = kueuetest::render_path(std::filesystem::path(MKQ_SOURCE_DIR) / "examples/quickstart", "quickstart");
  REQUIRE(rendered->state.has_value());
  const kueue::DesiredState& desired = *rendered->state;

  Quickstart world;
  const auto first = world.plan(desired);
  CHECK(first.summary().add > 5);
  CHECK(first.summary().change == 0);
  world.apply(desired);
  const auto clean = world.plan(desired);
  INFO(reconcile::render_text(clean, false));
  // The kubeconfig Secret holds a placeholder: without a provider it stays a credential change.
  for (const auto& cluster : clean.clusters) {
    for (const auto& change : cluster.changes) {
      if (change.credential) continue;
      CHECK(change.action == reconcile::Action::NoOp);
    }
  }

  const std::string text = R"(manager "manager-cluster" { context = "manager-cluster" }
worker "multikueue-test-worker1" {
  context = "worker1-cluster"
  secret = "worker1-secret"
  capacity "default-flavor" { cpu = 12, memory = 36Gi }
}
flavor "default-flavor" {}
clusterqueue "cluster-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 12, memory = 36Gi }
  localqueue "user-queue" in "default" {}
}
dispatch "sample-multikueue" {
  config = "multikueue-test"
  queues = ["cluster-queue"]
  workers = ["multikueue-test-worker1"]
}
)";
  const auto changed = kueuetest::render_text(text, "quickstart");
  INFO(changed->messages());
  REQUIRE(changed->state.has_value());
  const auto plan = world.plan(*changed->state);
  INFO(reconcile::render_text(plan, false));
  int updates = 0;
  for (const auto& cluster : plan.clusters) {
    for (const auto& change : cluster.changes) {
      if (change.credential || change.action == reconcile::Action::NoOp) continue;
      CHECK(change.action == reconcile::Action::Update);
      CHECK(change.ref.kind == "ClusterQueue");
      REQUIRE(change.fields.size() == 1);
      CHECK(change.fields[0].path == "spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota");
      CHECK(change.fields[0].after->dump() == "12");  // lowering writes small quantities as numbers
      ++updates;
    }
  }
  CHECK(updates == 2);  // the manager's and the worker's ClusterQueue
}
