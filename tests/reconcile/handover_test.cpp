// Replacing a worker (docs/apply.md, "Replacing a worker"): the plan is phased
// when a worker leaves the fleet (reconcile::Handover, Change::step), its
// renderings show the steps, a saved plan keeps them, and apply runs them in
// order -- the joining worker Active before the MultiKueueConfigs change, the
// leaving one drained before anything of it is deleted.
#include <catch2/catch.hpp>

#include <atomic>

#include "apply_test_support.h"
#include "runtime/reconcile/handover.h"

namespace mkq::reconcile::testing {
namespace {

using Phase = ProgressEvent::Phase;
constexpr auto kManager = kueue::ClusterRole::Manager;
constexpr auto kWorker = kueue::ClusterRole::Worker;
const kube::ResourceType kWorkloads{"kueue.x-k8s.io", "v1beta2", "Workload", "workloads", true};
const std::string kWorkloadsList = "LIST /apis/kueue.x-k8s.io/v1beta2/workloads";

Json config_of(const std::vector<std::string>& clusters) {
  return document_of("MultiKueueConfig", "", "config", Json{{"clusters", clusters}});
}

Json workload(const std::string& name, const std::string& cluster, bool finished = false) {
  Json w = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
            {"kind", "Workload"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"queueName", "user-queue"}}},
            {"status", {{"clusterName", cluster}, {"conditions", Json::array()}}}};
  w["status"]["conditions"].push_back({{"type", "Admitted"}, {"status", "True"}, {"reason", "Admitted"}});
  if (finished) w["status"]["conditions"].push_back({{"type", "Finished"}, {"status", "True"}, {"reason", "Succeeded"}});
  return w;
}

// worker-a replaced by worker-b: the plan make_plan makes for it (before phase_plan).
Plan replacement_plan() {
  Plan plan;
  Change secret = change_of("manager", Action::Create, "Secret", "kueue-system", "worker-b-secret");
  secret.credential = true;
  Change config = change_of("manager", Action::Update, "MultiKueueConfig", "", "config");
  config.desired = config_of({"worker-b"});
  plan.clusters.push_back(cluster_plan(
      "manager", kManager,
      {secret,
       change_of("manager", Action::Create, "MultiKueueCluster", "", "worker-b",
                 {{"clusterSource", {{"kubeConfig", {{"location", "worker-b-secret"}}}}}}),
       config, change_of("manager", Action::Update, "ClusterQueue", "", "cq"),
       change_of("manager", Action::Delete, "MultiKueueCluster", "", "worker-a"),
       change_of("manager", Action::Delete, "Secret", "kueue-system", "worker-a-secret")}));
  plan.clusters.push_back(
      cluster_plan("worker-a", kWorker, {change_of("worker-a", Action::Delete, "ClusterQueue", "", "cq")}));
  plan.clusters.push_back(
      cluster_plan("worker-b", kWorker, {change_of("worker-b", Action::Create, "ClusterQueue", "", "cq")}));
  return plan;
}

kueue::DesiredState desired_of(const std::vector<std::string>& workers) {
  kueue::DesiredState desired;
  desired.clusters.push_back(kueue::ClusterObjects{"manager", kManager, {}});
  for (const std::string& worker : workers) desired.clusters.push_back(kueue::ClusterObjects{worker, kWorker, {}});
  return desired;
}

// The manager's live MultiKueueConfig naming `clusters`.
LiveState live_with_config(const std::vector<std::string>& clusters) {
  LiveState live;
  ClusterLive manager;
  manager.cluster = "manager";
  manager.objects["manager/MultiKueueConfig/config"] = config_of(clusters);
  live.clusters.push_back(manager);
  return live;
}

Step step_at(const Plan& plan, const std::string& address) {
  for (const ClusterPlan& cluster : plan.clusters) {
    for (const Change& change : cluster.changes) {
      if (change.ref.address() == address) return change.step;
    }
  }
  FAIL("no change for " << address);
  return Step::Unphased;
}

TEST_CASE("a plan that replaces a worker is phased: join, switch, drain, remove", "[reconcile][handover]") {
  Plan plan = replacement_plan();
  phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-a"}));
  REQUIRE(plan.phased());
  CHECK(plan.handover.leaving == std::vector<std::string>{"worker-a"});
  CHECK(plan.handover.joining == std::vector<std::string>{"worker-b"});
  CHECK(step_at(plan, "worker-b/ClusterQueue/cq") == Step::Join);
  CHECK(step_at(plan, "manager/Secret/kueue-system/worker-b-secret") == Step::Join);
  CHECK(step_at(plan, "manager/MultiKueueCluster/worker-b") == Step::Join);
  CHECK(step_at(plan, "manager/MultiKueueConfig/config") == Step::Switch);
  CHECK(step_at(plan, "manager/ClusterQueue/cq") == Step::Switch);
  CHECK(step_at(plan, "manager/MultiKueueCluster/worker-a") == Step::Remove);
  CHECK(step_at(plan, "manager/Secret/kueue-system/worker-a-secret") == Step::Remove);
  CHECK(step_at(plan, "worker-a/ClusterQueue/cq") == Step::Remove);

  const std::string text = render_text(plan, false);
  CHECK(text.find("\nApply goes in steps: worker-a leaves the fleet, worker-b joins it.\n"
                  "  1. add and change the rest (3 changes), then wait until MultiKueueCluster worker-b is Active; "
                  "if not, stop here\n"
                  "  2. write the MultiKueueConfigs and what follows them (2 changes), no longer naming worker-a\n"
                  "  3. drain: wait until no Workload on the manager runs on worker-a (at most --drain-timeout)\n"
                  "  4. delete what the policy no longer has (3 changes), worker-a's objects among them\n"
                  "\nPlan: ") != std::string::npos);
  CHECK(render_markdown(plan).find("\n1. add and change the rest (3 changes)") != std::string::npos);
}

TEST_CASE("a plain removal of a worker is phased without the join", "[reconcile][handover]") {
  Plan plan;
  Change config = change_of("manager", Action::Update, "MultiKueueConfig", "", "config");
  config.desired = config_of({"worker-b"});
  plan.clusters.push_back(cluster_plan("manager", kManager,
                                       {config, change_of("manager", Action::Delete, "MultiKueueCluster", "", "worker-a")}));
  phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-a", "worker-b"}));
  REQUIRE(plan.phased());
  CHECK(plan.handover.joining.empty());
  const std::vector<std::string> lines = handover_lines(plan);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "Apply goes in steps: worker-a leaves the fleet.");
  CHECK(lines[1] == "1. write the MultiKueueConfigs and what follows them (1 change), no longer naming worker-a");
  CHECK(lines[2] == "2. drain: wait until no Workload on the manager runs on worker-a (at most --drain-timeout)");
  CHECK(lines[3] == "3. delete what the policy no longer has (1 change), worker-a's objects among them");
}

TEST_CASE("a plan made again after an interrupted replacement picks up where it stopped", "[reconcile][handover]") {
  SECTION("the configs already name the new worker: nothing left to join, the old one still drains") {
    Plan plan;
    plan.clusters.push_back(cluster_plan(
        "manager", kManager, {change_of("manager", Action::Delete, "MultiKueueCluster", "", "worker-a")}));
    phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-b"}));
    CHECK(plan.handover.leaving == std::vector<std::string>{"worker-a"});
    CHECK(plan.handover.joining.empty());
  }
  SECTION("the MultiKueueCluster is gone, the worker's objects are not: it is still leaving") {
    Plan plan;
    plan.clusters.push_back(cluster_plan("manager", kManager, {}));
    plan.clusters.push_back(
        cluster_plan("worker-a", kWorker, {change_of("worker-a", Action::Delete, "ClusterQueue", "", "cq")}));
    phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-b"}));
    CHECK(plan.handover.leaving == std::vector<std::string>{"worker-a"});
    CHECK(step_at(plan, "worker-a/ClusterQueue/cq") == Step::Remove);
  }
}

TEST_CASE("a plan in which no worker leaves is not phased", "[reconcile][handover]") {
  Plan plan = replacement_plan();
  plan.clusters[0].changes.erase(plan.clusters[0].changes.begin() + 4, plan.clusters[0].changes.end());
  plan.clusters.erase(plan.clusters.begin() + 1);
  phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-a"}));
  CHECK_FALSE(plan.phased());
  CHECK(plan.handover.joining.empty());
  CHECK(step_at(plan, "manager/MultiKueueConfig/config") == Step::Unphased);
  CHECK(render_text(plan, false).find("Apply goes in steps") == std::string::npos);

  SECTION("nor is a destroy") {
    Plan destroy = replacement_plan();
    destroy.kind = PlanKind::Destroy;
    phase_plan(destroy, desired_of({}), live_with_config({"worker-a"}));
    CHECK_FALSE(destroy.phased());
  }
}

TEST_CASE("the plan's JSON keeps the steps, and a saved plan whose handover differs is refused",
          "[reconcile][handover]") {
  Plan plan = replacement_plan();
  phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-a"}));
  const Json json = render_json(plan);
  CHECK(json["handover"]["leaving"] == Json::array({"worker-a"}));
  const base::Result<Plan> read = plan_from_json(json);
  REQUIRE(read.ok());
  CHECK(read.value().handover == plan.handover);
  CHECK(step_at(read.value(), "manager/MultiKueueConfig/config") == Step::Switch);
  CHECK(first_difference(read.value(), plan).empty());

  Plan other = plan;
  other.handover.joining.clear();
  CHECK(first_difference(plan, other).find("the workers it hands over differ") == 0);
  Plan restepped = plan;
  restepped.clusters[0].changes[2].step = Step::Join;
  CHECK(first_difference(plan, restepped) ==
        "manager/MultiKueueConfig/config: its step differs from what the policy plans now");
}

// A fleet on fake clusters where worker-b replaces worker-a: the manager holds
// worker-a's MultiKueueCluster and Secret and a config naming it; a Workload
// runs on worker-a.
struct Fleet {
  StateFixture state;
  kube::FakeClient manager{"https://manager.invalid"}, worker_a{"https://a.invalid"}, worker_b{"https://b.invalid"};
  std::atomic<bool> mkc_b_active{true};  // the simulated Kueue connects worker-b
  std::atomic<int> workload_lists{0};
  std::atomic<int> finish_after{-1};  // the Workload finishes on this LIST of Workloads (-1: never)
  Plan plan = replacement_plan();

  Fleet() {
    manager.serve(kWorkloads);
    manager.put(document_of("MultiKueueCluster", "", "worker-a"), "mkq");
    manager.put(document_of("Secret", "kueue-system", "worker-a-secret"), "mkq");
    manager.put(config_of({"worker-a"}), "mkq");
    manager.put(workload("job-1", "worker-a"), "kueue");
    manager.put(workload("job-0", "worker-a", true), "kueue");  // finished: does not hold the drain
    manager.put(workload("job-2", "worker-c"), "kueue");        // runs elsewhere
    worker_a.put(document_of("ClusterQueue", "", "cq"), "mkq");
    phase_plan(plan, desired_of({"worker-b"}), live_with_config({"worker-a"}));
    manager.fail_when([this](const std::string& call) -> std::optional<kube::Error> {
      if (call == "LIST /apis/kueue.x-k8s.io/v1beta2/multikueueclusters" && mkc_b_active) {
        if (auto mkc = manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-b")) {
          manager.put(with_active_condition(*mkc, "True", "Active", "Connected"), "kueue");
        }
      }
      if (call == kWorkloadsList && ++workload_lists == finish_after) {
        manager.put(workload("job-1", "worker-a", true), "kueue");
      }
      return std::nullopt;
    });
  }

  std::vector<Target> targets() {
    return {target_of("manager", kManager, &manager), target_of("worker-a", kWorker, &worker_a),
            target_of("worker-b", kWorker, &worker_b)};
  }
};

std::size_t position(const std::vector<std::string>& calls, const std::string& call) {
  return static_cast<std::size_t>(std::find(calls.begin(), calls.end(), call) - calls.begin());
}

// A credential provider that issues a fixed kubeconfig (no worker is asked).
class FixedCredentials : public CredentialProvider {
 public:
  CredentialDecision decide(const std::string&, const kueue::Object&, const Json*,
                            const state::InventoryEntry*) override {
    return {};
  }
  kube::Result<Json> issue(const std::string&, const kueue::Object& secret, CredentialJournal*) override {
    Json document = secret.document;
    document["stringData"] = {{"kubeconfig", "issued"}};
    return document;
  }
};

TEST_CASE("apply replaces a worker in order: the new one Active, the configs, the drain, then the deletions",
          "[reconcile][handover][apply]") {
  Fleet fleet;
  fleet.finish_after = 3;  // job-1 finishes on the third look
  FixedCredentials credentials;
  EventLog log;
  ApplyOptions options = fast_options();
  options.progress = log.callback();
  options.drain_timeout = 10000ms;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  INFO(report.results.size());
  for (const ObjectResult& result : report.results) INFO(base::render(result.error));
  REQUIRE(report.success());

  const std::vector<std::string> calls = fleet.manager.calls();
  const std::size_t create_b = position(calls, "PATCH /apis/kueue.x-k8s.io/v1beta2/multikueueclusters/worker-b");
  const std::size_t write_config = position(calls, "PATCH /apis/kueue.x-k8s.io/v1beta2/multikueueconfigs/config");
  const std::size_t delete_a = position(calls, "DELETE /apis/kueue.x-k8s.io/v1beta2/multikueueclusters/worker-a");
  REQUIRE(delete_a < calls.size());
  CHECK(create_b < write_config);
  // worker-b was seen Active before the configs were written.
  const int active = log.index_of(Phase::Ready, "manager/MultiKueueCluster/worker-b");
  REQUIRE(active >= 0);
  CHECK(active < log.index_of(Phase::Done, "manager/MultiKueueConfig/config"));
  // Three looks at the Workloads, all after the configs changed, the last before worker-a's deletion.
  std::vector<std::size_t> looks;
  for (std::size_t index = 0; index < calls.size(); ++index) {
    if (calls[index] == kWorkloadsList) looks.push_back(index);
  }
  REQUIRE(looks.size() == 3);
  CHECK(write_config < looks.front());
  CHECK(looks.back() < delete_a);
  CHECK(fleet.worker_a.calls().back() == "DELETE /apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq");
  REQUIRE(report.drains.size() == 1);
  CHECK(report.drains[0].worker == "worker-a");
  CHECK(report.drains[0].running.empty());
  CHECK(log.index_of(Phase::Waiting, "manager/MultiKueueCluster/worker-a") >= 0);
  CHECK_FALSE(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
}

TEST_CASE("a drain that times out keeps the old worker's objects, skips their deletion and is no success",
          "[reconcile][handover][apply]") {
  Fleet fleet;  // job-1 never finishes
  FixedCredentials credentials;
  ApplyOptions options = fast_options();
  options.drain_timeout = 1000ms;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  CHECK_FALSE(report.success());
  CHECK(report.drains.empty());
  CHECK(fleet.workload_lists >= 1);
  const ObjectResult* removal = result_for(report, "manager/MultiKueueCluster/worker-a");
  REQUIRE(removal != nullptr);
  CHECK(removal->outcome == Outcome::Skipped);
  CHECK(removal->error.message ==
        "skipped: after 1s (--drain-timeout) 1 Workload still runs on worker-a: default/job-1; its objects are kept: "
        "apply again once it has drained, or with --drain-timeout 0 to delete them now");
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
  CHECK(fleet.worker_a.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq"));
  // The switch was made: the configs no longer name the old worker.
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueConfig", "", "config").value()["spec"]["clusters"] ==
        Json::array({"worker-b"}));
}

TEST_CASE("a drain with --drain-timeout 0 deletes the old worker at once and says what still ran", "[reconcile][handover][apply]") {
  Fleet fleet;  // job-1 never finishes
  FixedCredentials credentials;
  ApplyOptions options = fast_options();
  options.drain_timeout = 0ms;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  CHECK(report.success());
  REQUIRE(report.drains.size() == 1);
  CHECK(report.drains[0].running == std::vector<std::string>{"default/job-1"});
  CHECK(fleet.workload_lists >= 1);
  CHECK_FALSE(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
  CHECK_FALSE(fleet.worker_a.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq"));
}

TEST_CASE("apply stops before the configs when the new worker does not turn Active", "[reconcile][handover][apply]") {
  Fleet fleet;
  fleet.mkc_b_active = false;
  FixedCredentials credentials;
  ApplyOptions options = fast_options();
  options.activation_timeout = 50ms;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  CHECK_FALSE(report.success());
  const ObjectResult* config = result_for(report, "manager/MultiKueueConfig/config");
  REQUIRE(config != nullptr);
  CHECK(config->outcome == Outcome::Skipped);
  CHECK(config->error.message ==
        "skipped: not Active within 50ms: manager/MultiKueueCluster/worker-b: no Active condition yet; the "
        "MultiKueueConfigs keep the leaving workers and nothing is deleted");
  for (const char* address : {"manager/MultiKueueCluster/worker-a", "manager/Secret/kueue-system/worker-a-secret",
                              "worker-a/ClusterQueue/cq", "manager/ClusterQueue/cq"}) {
    INFO(address);
    const ObjectResult* result = result_for(report, address);
    REQUIRE(result != nullptr);
    CHECK(result->outcome == Outcome::Skipped);
  }
  CHECK(result_for(report, "manager/MultiKueueCluster/worker-b")->ok());
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueConfig", "", "config").value()["spec"]["clusters"] ==
        Json::array({"worker-a"}));
  CHECK(fleet.worker_a.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq"));
  CHECK(fleet.workload_lists == 0);
  CHECK(report.drains.empty());
}

TEST_CASE("nothing of the old worker is deleted when the configs cannot be written or the Workloads read",
          "[reconcile][handover][apply]") {
  Fleet fleet;
  FixedCredentials credentials;
  std::string refused;
  SECTION("the MultiKueueConfig is refused") { refused = "PATCH /apis/kueue.x-k8s.io/v1beta2/multikueueconfigs/config"; }
  SECTION("the Workloads cannot be listed") { refused = kWorkloadsList; }
  kube::FakeClient& manager = fleet.manager;
  manager.fail_when([&manager, &refused](const std::string& call) -> std::optional<kube::Error> {
    if (call == "LIST /apis/kueue.x-k8s.io/v1beta2/multikueueclusters") {
      if (auto mkc = manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-b")) {
        manager.put(with_active_condition(*mkc, "True", "Active", "Connected"), "kueue");
      }
    }
    if (call == refused) return kube::Error{403, "Forbidden", "forbidden", Json()};
    return std::nullopt;
  });
  ApplyOptions options = fast_options();
  options.drain_timeout = 50ms;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  CHECK_FALSE(report.success());
  const ObjectResult* removal = result_for(report, "manager/MultiKueueCluster/worker-a");
  REQUIRE(removal != nullptr);
  CHECK(removal->outcome == Outcome::Skipped);
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
  CHECK(fleet.worker_a.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq"));
}

TEST_CASE("an interrupt during the drain starts no deletion", "[reconcile][handover][apply]") {
  Fleet fleet;
  FixedCredentials credentials;
  std::atomic<bool> cancel{false};
  kube::FakeClient& manager = fleet.manager;
  manager.fail_when([&manager, &cancel](const std::string& call) -> std::optional<kube::Error> {
    if (call == "LIST /apis/kueue.x-k8s.io/v1beta2/multikueueclusters") {
      if (auto mkc = manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-b")) {
        manager.put(with_active_condition(*mkc, "True", "Active", "Connected"), "kueue");
      }
    }
    if (call == kWorkloadsList) cancel = true;
    return std::nullopt;
  });
  ApplyOptions options = fast_options();
  options.cancel = &cancel;
  const ApplyReport report =
      apply_plan(fleet.plan, fleet.targets(), *fleet.state.store, fleet.state.run_id, &credentials, options);
  CHECK(report.interrupted);
  CHECK(result_for(report, "manager/MultiKueueConfig/config")->ok());
  CHECK(result_for(report, "manager/MultiKueueCluster/worker-a")->outcome == Outcome::NotStarted);
  CHECK(fleet.manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "worker-a"));
}

}  // namespace
}  // namespace mkq::reconcile::testing
