// The apply executor and ownership (plan.h): an adopted object is recorded with
// what it held before mkq and, once released, holds it again without a trace
// of mkq; changes the plan refuses are never carried out; the first apply
// fixes the policy's identity in the state.
#include <catch2/catch.hpp>

#include "apply_test_support.h"
#include "tests/reconcile/plan_test_support.h"

namespace {

using mkq::reconcile::testing::fast_options;
using mkq::reconcile::testing::result_for;
using mkq::reconcile::testing::StateFixture;
using mkq::reconcile::testing::serve_kueue_deployment;
using plantest::Json;
using plantest::World;
namespace reconcile = mkq::reconcile;
namespace kueue = mkq::kueue;

const char* kConfig = "manager/ConfigMap/kueue-system/kueue-manager-config";

// Kueue's configuration as its installation made it, and the policy's version of it.
Json installed_config() {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "kueue-manager-config"}, {"namespace", "kueue-system"}}},
              {"data", {{"controller_manager_config.yaml", "health:\n  healthProbeBindAddress: :8081\n"}}}};
}

kueue::DesiredState with_config() {
  kueue::DesiredState desired = plantest::policy();
  desired.clusters[0].objects.push_back(
      plantest::make("v1", "ConfigMap", "kueue-manager-config", "kueue-system",
                     Json{{"data", {{"controller_manager_config.yaml", "waitForPodsReady:\n  enable: true\n"}}}}));
  return desired;
}

bool has_manager(const Json& object, const std::string& manager) {
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    if (entry.value("manager", std::string()) == manager) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("apply adopts an object that was there before mkq, and a release gives it back unchanged",
          "[reconcile][apply][ownership]") {
  StateFixture state;
  World world;
  world.manager.put(installed_config(), "kubectl-create");
  serve_kueue_deployment(world.manager, true, true, nullptr);  // restarted after the release
  auto desired = with_config();
  reconcile::ApplyOptions options = fast_options();
  options.force_conflicts = true;  // the installation's field: taken over as --force-conflicts does

  const reconcile::Plan adopt = world.plan(desired);
  const reconcile::ApplyReport applied =
      reconcile::apply_plan(adopt, world.targets(), *state.store, state.run_id, nullptr, options);
  REQUIRE(applied.success());
  const auto entry = state.store->find(kConfig).value();
  REQUIRE(entry.has_value());
  CHECK(entry->adopted);
  CHECK(Json::parse(entry->prior).dump().find("healthProbeBindAddress") != std::string::npos);
  CHECK(world.manager.object("v1", "ConfigMap", "kueue-system", "kueue-manager-config")
            .value()["data"]["controller_manager_config.yaml"] == "waitForPodsReady:\n  enable: true\n");
  CHECK_FALSE(state.store->find("manager/ClusterQueue/cluster-queue").value()->adopted);  // created by mkq

  // A later apply of the same object keeps what it was before mkq.
  world.inventory = state.store->inventory().value();
  desired.clusters[0].objects.back().document["metadata"]["labels"]["extra"] = "x";
  const reconcile::ApplyReport again =
      reconcile::apply_plan(world.plan(desired), world.targets(), *state.store, state.run_id, nullptr, options);
  REQUIRE(again.success());
  CHECK(state.store->find(kConfig).value()->adopted);
  CHECK(state.store->find(kConfig).value()->prior.rfind(entry->prior.substr(0, entry->prior.size() - 1), 0) == 0);

  // Destroy: the configuration is released -- its original content back, mkq's labels and
  // ownership gone -- and everything mkq created is deleted.
  world.inventory = state.store->inventory().value();
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const reconcile::Plan release = world.plan(desired, nullptr, destroy);
  REQUIRE(plantest::change_of(release, kConfig)->action == reconcile::Action::Release);
  const reconcile::ApplyReport released =
      reconcile::apply_plan(release, world.targets(), *state.store, state.run_id, nullptr, fast_options());
  INFO(reconcile::render_text(release, false));
  REQUIRE(released.success());
  const auto config = world.manager.object("v1", "ConfigMap", "kueue-system", "kueue-manager-config");
  REQUIRE(config.has_value());
  CHECK((*config)["data"] == installed_config()["data"]);
  CHECK((*config)["metadata"].value("labels", Json::object()).empty());
  CHECK_FALSE(has_manager(*config, "mkq"));
  CHECK(state.store->find(kConfig).value() == std::nullopt);
  CHECK(state.store->inventory().value().empty());
  CHECK_FALSE(world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue").has_value());
  CHECK(result_for(released, kConfig)->action == reconcile::Action::Release);
}

TEST_CASE("apply does not release an object changed since the plan", "[reconcile][apply][ownership]") {
  StateFixture state;
  World world;
  world.manager.put(installed_config(), "kubectl-create");
  auto desired = with_config();
  reconcile::ApplyOptions options = fast_options();
  options.force_conflicts = true;
  REQUIRE(reconcile::apply_plan(world.plan(desired), world.targets(), *state.store, state.run_id, nullptr, options)
              .success());
  world.inventory = state.store->inventory().value();
  desired.clusters[0].objects.pop_back();
  const reconcile::Plan release = world.plan(desired);
  REQUIRE(plantest::change_of(release, kConfig)->action == reconcile::Action::Release);

  Json edited = world.manager.object("v1", "ConfigMap", "kueue-system", "kueue-manager-config").value();
  edited["data"]["other"] = "someone's";
  world.manager.put(edited, "kubectl-edit");
  const reconcile::ApplyReport report =
      reconcile::apply_plan(release, world.targets(), *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.failed == 2);  // the release, and the restart of Kueue that follows it (skipped)
  CHECK(result_for(report, kConfig)->error.message == "changed on the cluster since the plan; run `mkq plan` again");
  CHECK(result_for(report, "manager/Deployment/kueue-system/kueue-controller-manager")->outcome ==
        reconcile::Outcome::Skipped);
  CHECK(state.store->find(kConfig).value().has_value());  // still mkq's: the next plan decides again
}

TEST_CASE("apply never carries out a change the plan refuses", "[reconcile][apply][ownership]") {
  StateFixture state;
  World world;
  auto desired = plantest::policy();
  Json theirs = plantest::find(desired, "worker1", "ResourceFlavor", "default-flavor")->document;
  theirs["metadata"]["labels"]["mkq.dev/policy"] = "tas";
  world.worker.put(theirs, "mkq");
  const reconcile::Plan plan = world.plan(desired);
  REQUIRE_FALSE(plan.refusals().empty());

  const reconcile::ApplyReport report =
      reconcile::apply_plan(plan, world.targets(), *state.store, state.run_id, nullptr, fast_options());
  const auto* flavor = result_for(report, "worker1/ResourceFlavor/default-flavor");
  REQUIRE(flavor != nullptr);
  CHECK_FALSE(flavor->ok());
  CHECK(flavor->error.message == "refused: owned by policy tas");
  CHECK(world.worker.object("kueue.x-k8s.io/v1beta2", "ResourceFlavor", "", "default-flavor")
            .value()["metadata"]["labels"]["mkq.dev/policy"] == "tas");

  // Taken over: relabelled, recorded as this policy's, adopted (it was not this policy's before).
  reconcile::PlanOptions take_over;
  take_over.take_over = true;
  const reconcile::ApplyReport taken = reconcile::apply_plan(world.plan(desired, nullptr, take_over), world.targets(),
                                                             *state.store, state.run_id, nullptr, fast_options());
  CHECK(result_for(taken, "worker1/ResourceFlavor/default-flavor")->ok());
  CHECK(world.worker.object("kueue.x-k8s.io/v1beta2", "ResourceFlavor", "", "default-flavor")
            .value()["metadata"]["labels"]["mkq.dev/policy"] == "test");
  CHECK(state.store->find("worker1/ResourceFlavor/default-flavor").value()->adopted);
}

TEST_CASE("apply fixes the policy's identity in a state that has none, and keeps it", "[reconcile][apply][ownership]") {
  StateFixture state;
  World world;
  auto desired = plantest::policy();
  REQUIRE(state.store->policy().empty());
  REQUIRE(reconcile::apply_plan(world.plan(desired), world.targets(), *state.store, state.run_id, nullptr,
                                fast_options())
              .success());
  CHECK(state.store->policy() == "test");
  world.inventory = state.store->inventory().value();
  desired.policy = "renamed";
  reconcile::apply_plan(world.plan(desired), world.targets(), *state.store, state.run_id, nullptr, fast_options());
  CHECK(state.store->policy() == "test");  // a rename is the command's refusal, never the executor's
}
