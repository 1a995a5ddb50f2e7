// kubectl's rollout restart and rollout status (runtime/reconcile/rollout.h),
// and the executor's restart of Kueue's controller manager after a change of
// its configuration (Change::restart).
#include <catch2/catch.hpp>

#include "apply_test_support.h"
#include "base/time.h"
#include "runtime/reconcile/rollout.h"
#include "tests/support/fake_clock.h"

namespace mkq::reconcile::testing {
namespace {

// What a failed restart says ("" when it succeeded).
std::string failure_text(const base::Result<void>& restarted) { return restarted ? "" : restarted.error().message; }

const mkq::testing::FakeClock kRestartClock{std::chrono::system_clock::from_time_t(1790000000)};  // 2026-09-21T14:13:20Z

RolloutOptions fast_rollout() {
  RolloutOptions options;
  options.timeout = 2000ms;
  options.poll_interval = 5ms;
  options.clock = &kRestartClock;
  return options;
}

TEST_CASE("rollout status judges a Deployment as kubectl rollout status does", "[reconcile][rollout]") {
  CHECK(rollout_status(deployment(2, Json{{"observedGeneration", 1}})).message ==
        "Waiting for deployment spec update to be observed...");
  CHECK(rollout_status(deployment(2, Json{{"observedGeneration", 2}, {"replicas", 1}})).message ==
        "Waiting for deployment \"kueue-controller-manager\" rollout to finish: 0 out of 1 new replicas have "
        "been updated...");
  CHECK(rollout_status(deployment(2, Json{{"observedGeneration", 2},
                                          {"replicas", 2},
                                          {"updatedReplicas", 1},
                                          {"availableReplicas", 1}}))
            .message ==
        "Waiting for deployment \"kueue-controller-manager\" rollout to finish: 1 old replicas are pending "
        "termination...");
  CHECK(
      rollout_status(deployment(2, Json{{"observedGeneration", 2}, {"replicas", 1}, {"updatedReplicas", 1}}))
          .message ==
      "Waiting for deployment \"kueue-controller-manager\" rollout to finish: 0 of 1 updated replicas "
      "are available...");
  const RolloutStatus done = rollout_status(deployment(
      2, Json{{"observedGeneration", 2}, {"replicas", 1}, {"updatedReplicas", 1}, {"availableReplicas", 1}}));
  CHECK(done.done);
  CHECK(done.message == "deployment \"kueue-controller-manager\" successfully rolled out");
  const RolloutStatus stuck = rollout_status(deployment(
      2, Json{{"observedGeneration", 2},
              {"conditions",
               {{{"type", "Progressing"}, {"status", "False"}, {"reason", "ProgressDeadlineExceeded"}}}}}));
  CHECK_FALSE(stuck.done);
  CHECK(stuck.error == "deployment \"kueue-controller-manager\" exceeded its progress deadline");
}

TEST_CASE("restart_deployment patches the template's restartedAt and waits for the rollout",
          "[reconcile][rollout]") {
  KueueCluster cluster;
  std::vector<std::string> progress;
  RolloutOptions options = fast_rollout();
  options.progress = [&](const std::string& message) { progress.push_back(message); };
  CHECK(restart_deployment(cluster.fake, "kueue-system", "kueue-controller-manager", options).ok());
  CHECK(cluster.restarted_at() == base::format_rfc3339_local(kRestartClock.now()));
  CHECK(calls_of(cluster.fake, "PATCH") == std::vector<std::string>{"PATCH " + kDeploymentPath});
  CHECK(cluster.rollouts_seen == 1);
  CHECK(progress == std::vector<std::string>{"Waiting for deployment spec update to be observed..."});
  const auto current =
      cluster.fake.object("apps/v1", "Deployment", "kueue-system", "kueue-controller-manager");
  CHECK((*current)["metadata"]["generation"] == 2);
  CHECK((*current)["spec"]["template"]["metadata"]["labels"] ==
        Json{{"app", "kueue"}});  // a patch, not a replacement
}

TEST_CASE("restart_deployment fails clearly", "[reconcile][rollout]") {
  SECTION("no Deployment") {
    KueueCluster cluster(false);
    CHECK(failure_text(restart_deployment(cluster.fake, "kueue-system", "kueue-controller-manager", fast_rollout())) ==
          "deployment kueue-system/kueue-controller-manager not found");
  }
  SECTION("Deployments not served") {
    kube::FakeClient fake;
    CHECK(failure_text(restart_deployment(fake, "kueue-system", "kueue-controller-manager", fast_rollout())) ==
          "the cluster does not serve apps/v1 Deployments, so deployment "
          "kueue-system/kueue-controller-manager is not "
          "there");
  }
  SECTION("paused, as kubectl refuses it") {
    KueueCluster cluster;
    Json paused = deployment(1, Json{{"observedGeneration", 1}});
    paused["spec"]["paused"] = true;
    cluster.fake.put(paused, "kubectl");
    CHECK(failure_text(restart_deployment(cluster.fake, "kueue-system", "kueue-controller-manager", fast_rollout())) ==
          "can't restart paused deployment (run rollout resume first)");
    CHECK(calls_of(cluster.fake, "PATCH").empty());
  }
  SECTION("a rollout that does not complete in time, with kubectl's last words") {
    KueueCluster cluster(true, false);
    RolloutOptions options = fast_rollout();
    options.timeout = 50ms;
    CHECK(failure_text(restart_deployment(cluster.fake, "kueue-system", "kueue-controller-manager", options)) ==
          "the rollout of deployment kueue-system/kueue-controller-manager did not complete within 50ms: "
          "Waiting for "
          "deployment spec update to be observed...");
  }
}

// A plan that changes Kueue's configuration on the manager, with its restart.
Plan configuration_plan(bool restart = true) {
  Change change = change_of("manager", Action::Update, "ConfigMap", "kueue-system", "kueue-manager-config");
  change.desired["data"] = {
      {"controller_manager_config.yaml", "apiVersion: config.kueue.x-k8s.io/v1beta2\n"}};
  change.restart = Restart{"kueue-system", "kueue-controller-manager", restart};
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kueue::ClusterRole::Manager, {change}));
  return plan;
}

TEST_CASE("apply restarts Kueue's controller manager after its configuration changed",
          "[reconcile][rollout][apply]") {
  StateFixture state;
  KueueCluster cluster;
  EventLog events;
  ApplyOptions options = fast_options();
  options.progress = events.callback();
  const ApplyReport report =
      apply_plan(configuration_plan(), {target_of("manager", kueue::ClusterRole::Manager, &cluster.fake)},
                 *state.store, state.run_id, nullptr, options);
  REQUIRE(report.success());
  const ObjectResult* restart = result_for(report, kDeploymentAddress);
  REQUIRE(restart != nullptr);
  CHECK(restart->ok());
  CHECK(restart->note == "restarted");
  CHECK_FALSE(cluster.restarted_at().empty());
  // After the ConfigMap, and recorded in the history as a restart.
  CHECK(events.index_of(ProgressEvent::Phase::Done, "manager/ConfigMap/kueue-system/kueue-manager-config") <
        events.index_of(ProgressEvent::Phase::Started, kDeploymentAddress));
  const auto run = state.store->find_run(state.run_id).value();
  REQUIRE(run);
  bool recorded = false;
  for (const auto& outcome : run->objects) {
    if (outcome.address == kDeploymentAddress)
      recorded = outcome.action == "restart" && outcome.result == "ok";
  }
  CHECK(recorded);
  CHECK_FALSE(state.store->find(kDeploymentAddress).value());  // mkq does not own the Deployment
}

TEST_CASE("apply's restart: skipped after a failed change, a failure without the Deployment, off by policy",
          "[reconcile][rollout][apply]") {
  StateFixture state;
  SECTION("the configuration was not applied") {
    KueueCluster cluster;
    cluster.fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
      if (call.find("/configmaps/") != std::string::npos)
        return kube::Error{500, "InternalError", "boom", Json()};
      return std::nullopt;
    });
    const ApplyReport report =
        apply_plan(configuration_plan(), {target_of("manager", kueue::ClusterRole::Manager, &cluster.fake)},
                   *state.store, state.run_id, nullptr, fast_options());
    CHECK_FALSE(report.success());
    const ObjectResult* restart = result_for(report, kDeploymentAddress);
    REQUIRE(restart != nullptr);
    CHECK(restart->error.message == "skipped: manager/ConfigMap/kueue-system/kueue-manager-config was not applied");
    CHECK(calls_of(cluster.fake, "PATCH " + kDeploymentPath).empty());
  }
  SECTION("no Deployment: the step fails") {
    KueueCluster cluster(false);
    const ApplyReport report =
        apply_plan(configuration_plan(), {target_of("manager", kueue::ClusterRole::Manager, &cluster.fake)},
                   *state.store, state.run_id, nullptr, fast_options());
    CHECK_FALSE(report.success());
    CHECK(report.failed == 1);
    const ObjectResult* restart = result_for(report, kDeploymentAddress);
    REQUIRE(restart != nullptr);
    CHECK_FALSE(restart->ok());
    CHECK(restart->error.message ==
          "cannot restart Kueue's controller manager to read its new configuration: deployment "
          "kueue-system/kueue-controller-manager not found");
    // About the Deployment, with the server's 404 kept under mkq's words.
    CHECK(restart->error.address == kDeploymentAddress);
    CHECK(restart->error.not_found());
  }
  SECTION("kueue { restart = false }") {
    KueueCluster cluster;
    const ApplyReport report = apply_plan(configuration_plan(false),
                                          {target_of("manager", kueue::ClusterRole::Manager, &cluster.fake)},
                                          *state.store, state.run_id, nullptr, fast_options());
    CHECK(report.success());
    CHECK(result_for(report, kDeploymentAddress) == nullptr);
    CHECK(cluster.restarted_at().empty());
  }
}

}  // namespace
}  // namespace mkq::reconcile::testing
