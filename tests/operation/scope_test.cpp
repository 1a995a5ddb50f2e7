// Scoping through runtime/operation (docs/apply.md, "Scoping"), on a fleet of
// a manager "m" and two workers "w1" and "w2": --cluster plans and applies
// only the clusters named (a worker with the manager's objects for it), a
// name that is no cluster and --cluster with --exclude-cluster are refused
// before any cluster is read; --replace deletes and creates an object again
// and is refused where it must not; --drift-only leaves every change but a
// repair of drift out; a saved plan keeps its scope (version 3; version 2
// reads as unscoped) and applies without asking.
#include <catch2/catch.hpp>

#include "runtime/operation/saved_plan.h"
#include "tests/operation/operation_test_support.h"

namespace {

using namespace mkq;
using namespace mkq::operation::testing;
using operation::Stop;

// fleet_policy with a second worker "w2" (its own kubeconfig file).
std::string two_worker_policy(const Fleet& fleet, int cpu) {
  const std::string quota = "{ cpu = " + std::to_string(cpu) + ", memory = 8Gi }";
  std::string text = "manager \"m\" {}\n";
  for (const std::string worker : {"w1", "w2"}) {
    text += "\nworker \"" + worker + "\" {\n  credentials { mode = \"kubeconfig\", kubeconfig = secret(\"file:" +
            (fleet.dir / (worker + ".kubeconfig")).string() + "\") }\n  capacity \"default-flavor\" " + quota + "\n}\n";
  }
  return text + "\nflavor \"default-flavor\" {}\n\nclusterqueue \"cq\" {\n  namespaces = all\n  quota \"default-flavor\" " +
         quota + "\n  localqueue \"lq\" in \"default\" {}\n}\n\ndispatch \"to-workers\" {\n  config = \"fleet\"\n"
         "  queues = [\"cq\"]\n  workers = [\"w1\", \"w2\"]\n}\n";
}

void write_policy(Fleet& fleet, int cpu) {
  std::string w2 = kWorkerKubeconfig;
  for (std::size_t at = w2.find("w1"); at != std::string::npos; at = w2.find("w1", at)) w2.replace(at, 2, "w2");
  fleet.write("w2.kubeconfig", w2);
  fleet.write("policy.mkq", two_worker_policy(fleet, cpu));
}

// The two-worker fleet, applied once with a cpu quota of 4.
void applied_fleet(Fleet& fleet) {
  write_policy(fleet, 4);
  const operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  REQUIRE(result.report.has_value());
  REQUIRE(result.report->success());
  fleet.ui = FakeUi{};
}

// The fixture of the cases below: the two-worker fleet, applied once.
struct AppliedFleet {
  Fleet fleet;
  AppliedFleet() { applied_fleet(fleet); }
};

// The ClusterQueue "cq" on `cluster`.
std::optional<Json> cluster_queue(Fleet& fleet, const std::string& cluster) {
  return fleet.resolver.cluster(cluster).object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
}

// Its cpu quota ("" when there is none).
std::string cpu_quota(Fleet& fleet, const std::string& cluster) {
  const std::optional<Json> cq = cluster_queue(fleet, cluster);
  if (!cq) return "";
  const Json& quota = cq->at("spec").at("resourceGroups").at(0).at("flavors").at(0).at("resources").at(0).at("nominalQuota");
  return quota.is_string() ? quota.get<std::string>() : quota.dump();
}

// Every change that is not a no-op, as "action address (reason)", in plan order.
std::vector<std::string> actions(const reconcile::Plan& plan) {
  std::vector<std::string> out;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    for (const reconcile::Change& change : cluster.changes) {
      if (change.action == reconcile::Action::NoOp) continue;
      out.push_back(std::string(reconcile::action_name(change.action)) + " " + change.ref.address() + " (" +
                    reconcile::reason_text(change) + ")");
    }
  }
  return out;
}

const reconcile::Change* change_of(const reconcile::Plan& plan, const std::string& address) {
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    for (const reconcile::Change& change : cluster.changes) {
      if (change.ref.address() == address) return &change;
    }
  }
  return nullptr;
}

std::vector<std::string> cluster_names(const reconcile::Plan& plan) {
  std::vector<std::string> out;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) out.push_back(cluster.cluster);
  return out;
}

std::vector<std::string> addresses_on(const reconcile::Plan& plan, const std::string& cluster) {
  std::vector<std::string> out;
  for (const reconcile::ClusterPlan& c : plan.clusters) {
    if (c.cluster != cluster) continue;
    for (const reconcile::Change& change : c.changes) out.push_back(change.ref.address());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// How many objects the state records on `cluster`.
int recorded_on(const Fleet& fleet, const std::string& cluster) {
  int n = 0;
  const std::vector<state::InventoryEntry> inventory = fleet.state()->inventory().value();
  for (const state::InventoryEntry& entry : inventory) n += entry.ref.cluster == cluster ? 1 : 0;
  return n;
}

operation::PlanResult plan_of(Fleet& fleet, const std::vector<std::string>& clusters,
                              const operation::ScopeOptions& scope = {}) {
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.runtime.clusters = clusters;
  request.scope = scope;
  operation::PlanResult result = operation::plan(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  return result;
}

// The one credential Secret on the manager the policy declares for `worker`.
std::string credential_address(Fleet& fleet, const std::string& worker) {
  const operation::PlanResult made = plan_of(fleet, {});
  REQUIRE(made.plan.has_value());
  fleet.ui = FakeUi{};
  for (const reconcile::Change& change : made.plan->clusters.at(0).changes) {
    if (change.credential && change.ref.name.find(worker) != std::string::npos) return change.ref.address();
  }
  FAIL("no credential Secret for " << worker);
  return "";
}

// apply --replace w1/ClusterQueue/cq is refused, saying `why` of it, and the object keeps its uid.
void replace_refused(Fleet& fleet, const std::string& why) {
  const std::string uid = cluster_queue(fleet, "w1")->at("metadata").at("uid").get<std::string>();
  operation::ApplyRequest request = fleet.apply_request();
  request.scope.replace = {"w1/ClusterQueue/cq"};
  const operation::ApplyResult result = operation::apply(request, fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::Refused);
  CHECK(fleet.ui.errors ==
        std::vector<std::string>{"apply refuses this plan; nothing was changed:\n  w1/ClusterQueue/cq: " + why});
  CHECK(cluster_queue(fleet, "w1")->at("metadata").at("uid").get<std::string>() == uid);
}

}  // namespace

TEST_CASE_METHOD(AppliedFleet,
                 "scope: --cluster WORKER plans and applies that worker and the manager's objects for it only",
                 "[operation][scope][cluster]") {
  const int w2_recorded = recorded_on(fleet, "w2");
  const int m_recorded = recorded_on(fleet, "m");
  const std::size_t w2_calls = fleet.resolver.cluster("w2").calls().size();
  write_policy(fleet, 8);  // the quota changes on every cluster

  const operation::PlanResult result = plan_of(fleet, {"w1"});
  REQUIRE(result.stop == Stop::None);
  const reconcile::Plan& plan = *result.plan;
  CHECK(cluster_names(plan) == std::vector<std::string>{"m", "w1"});
  CHECK(actions(plan) == std::vector<std::string>{"update w1/ClusterQueue/cq (the policy changed)"});
  CHECK(addresses_on(plan, "m") ==
        std::vector<std::string>{"m/MultiKueueCluster/w1", "m/Secret/kueue-system/w1-kubeconfig"});
  CHECK(plan.scope.clusters == std::vector<std::string>{"w1"});
  REQUIRE(plan.scope.not_planned.size() == 1);
  CHECK(plan.scope.not_planned[0].cluster == "w2");
  CHECK(plan.scope.not_planned[0].objects == w2_recorded + 2);  // and its MultiKueueCluster and Secret on m
  CHECK(plan.scope.manager_objects_left == m_recorded - 4);     // all but the two for w1 and the two for w2
  CHECK(plan.excluded.empty());
  CHECK_FALSE(plan.scope.drift_only);
  CHECK(fleet.resolver.cluster("w2").calls().size() == w2_calls);  // w2 was not even read

  operation::ApplyRequest canary = fleet.apply_request();
  canary.runtime.clusters = {"w1"};
  const operation::ApplyResult applied = operation::apply(canary, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(applied.stop == Stop::None);
  REQUIRE(applied.report.has_value());
  CHECK(applied.report->success());
  CHECK(cpu_quota(fleet, "w1") == "8");
  CHECK(cpu_quota(fleet, "m") == "4");
  CHECK(cpu_quota(fleet, "w2") == "4");
  CHECK(fleet.resolver.cluster("w2").calls().size() == w2_calls);
  CHECK(recorded_on(fleet, "m") == m_recorded);  // nothing of the manager's pruned
  CHECK(recorded_on(fleet, "w2") == w2_recorded);
}

TEST_CASE_METHOD(AppliedFleet,
                 "destroy --cluster WORKER deletes that worker's objects and the manager's for it, nothing else",
                 "[operation][scope][cluster][destroy]") {
  const int m_recorded = recorded_on(fleet, "m");
  const int w2_recorded = recorded_on(fleet, "w2");
  operation::ApplyRequest request = fleet.apply_request();
  request.destroy = true;
  request.runtime.clusters = {"w1"};
  const operation::ApplyResult result = operation::apply(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  REQUIRE(result.report.has_value());
  CHECK(result.report->success());
  REQUIRE(result.plan.has_value());
  for (const reconcile::ClusterPlan& cluster : result.plan->clusters) {
    for (const reconcile::Change& change : cluster.changes) {
      INFO(change.ref.address());
      CHECK(change.action == reconcile::Action::Delete);
      CHECK((change.ref.cluster == "w1" || change.ref.address() == "m/MultiKueueCluster/w1" ||
             change.ref.address() == "m/Secret/kueue-system/w1-kubeconfig"));
    }
  }
  CHECK(recorded_on(fleet, "w1") == 0);
  CHECK(recorded_on(fleet, "m") == m_recorded - 2);
  CHECK(recorded_on(fleet, "w2") == w2_recorded);
  CHECK_FALSE(cluster_queue(fleet, "w1").has_value());
  CHECK_FALSE(fleet.resolver.cluster("m").object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "w1").has_value());
  CHECK(fleet.resolver.cluster("m").object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "w2").has_value());
  CHECK(cpu_quota(fleet, "m") == "4");
  CHECK(cpu_quota(fleet, "w2") == "4");
}

TEST_CASE_METHOD(AppliedFleet,
                 "scope: --cluster MANAGER plans the manager's objects but none for the workers left out",
                 "[operation][scope][cluster]") {
  const int w1_recorded = recorded_on(fleet, "w1");
  const int w2_recorded = recorded_on(fleet, "w2");
  write_policy(fleet, 8);
  const operation::PlanResult result = plan_of(fleet, {"m"});
  REQUIRE(result.stop == Stop::None);
  const reconcile::Plan& plan = *result.plan;
  CHECK(cluster_names(plan) == std::vector<std::string>{"m"});
  CHECK(actions(plan) == std::vector<std::string>{"update m/ClusterQueue/cq (the policy changed)"});
  CHECK(plan.scope.clusters == std::vector<std::string>{"m"});
  REQUIRE(plan.scope.not_planned.size() == 2);
  CHECK(plan.scope.not_planned[0].cluster == "w1");
  CHECK(plan.scope.not_planned[0].objects == w1_recorded + 2);
  CHECK(plan.scope.not_planned[1].cluster == "w2");
  CHECK(plan.scope.not_planned[1].objects == w2_recorded + 2);
  CHECK(plan.scope.manager_objects_left == 0);
  const std::vector<std::string> on_manager = addresses_on(plan, "m");
  CHECK(std::find(on_manager.begin(), on_manager.end(), "m/MultiKueueCluster/w1") == on_manager.end());
  CHECK(std::find(on_manager.begin(), on_manager.end(), "m/ClusterQueue/cq") != on_manager.end());
}

TEST_CASE_METHOD(AppliedFleet,
                 "scope: --cluster of no cluster, or with --exclude-cluster, is refused before any cluster is read",
                 "[operation][scope][cluster]") {
  const int opened = fleet.resolver.opened;

  SECTION("a name that is no cluster: did you mean") {
    const operation::PlanResult result = plan_of(fleet, {"w3"});
    CHECK(result.stop == Stop::Failed);
    CHECK_FALSE(result.plan.has_value());
    CHECK(fleet.ui.errors ==
          std::vector<std::string>{"--cluster w3: no cluster of that name in the policy or the state; did you mean 'w1'?"});
  }
  SECTION("a name that is no cluster, on apply") {
    operation::ApplyRequest request = fleet.apply_request();
    request.runtime.clusters = {"w1", "manager"};
    const operation::ApplyResult result = operation::apply(request, fleet.resolver, fleet.ui);
    CHECK(result.stop == Stop::Failed);
    CHECK(fleet.ui.errors ==
          std::vector<std::string>{"--cluster manager: no cluster of that name in the policy or the state"});
  }
  SECTION("with --exclude-cluster") {
    operation::PlanRequest request = fleet.request<operation::PlanRequest>();
    request.runtime.clusters = {"w1"};
    request.runtime.exclude_clusters = {"w2"};
    const operation::PlanResult result = operation::plan(request, fleet.resolver, fleet.ui);
    CHECK(result.stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--cluster and --exclude-cluster do not go together: --cluster "
                                                      "already leaves out every cluster it does not name"});
  }
  CHECK(fleet.resolver.opened == opened);
  CHECK_FALSE(fleet.state()->lock_holder().value().has_value());
}

TEST_CASE_METHOD(AppliedFleet, "scope: --replace deletes an object and creates it again, once",
                 "[operation][scope][replace]") {
  const std::string uid = cluster_queue(fleet, "w1")->at("metadata").at("uid").get<std::string>();
  operation::ScopeOptions scope;
  scope.replace = {"w1/ClusterQueue/cq"};

  const operation::PlanResult planned = plan_of(fleet, {}, scope);
  REQUIRE(planned.stop == Stop::None);
  CHECK(actions(*planned.plan) == std::vector<std::string>{"replace w1/ClusterQueue/cq (replace requested (--replace))"});
  CHECK(planned.plan->options.replace == std::set<std::string>{"w1/ClusterQueue/cq"});

  operation::ApplyRequest request = fleet.apply_request();
  request.scope = scope;
  const operation::ApplyResult applied = operation::apply(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(applied.stop == Stop::None);
  REQUIRE(applied.report.has_value());
  CHECK(applied.report->success());
  const std::optional<Json> again = cluster_queue(fleet, "w1");
  REQUIRE(again.has_value());
  CHECK(again->at("metadata").at("uid").get<std::string>() != uid);  // a new object
  CHECK(cpu_quota(fleet, "w1") == "4");
  const std::vector<std::string> calls = fleet.resolver.cluster("w1").calls();
  CHECK(std::count(calls.begin(), calls.end(), "DELETE /apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq") == 1);

  // Not sticky: the next plan has nothing to do.
  fleet.ui = FakeUi{};
  const operation::PlanResult after = plan_of(fleet, {});
  REQUIRE(after.stop == Stop::None);
  CHECK_FALSE(after.plan->has_changes());
}

TEST_CASE_METHOD(AppliedFleet, "scope: --replace is refused for a credential, an unknown address, prevent-destroy",
                 "[operation][scope][replace]") {
  const std::string hint = " (addresses are CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME, as the plan shows them)";
  operation::ScopeOptions scope;

  SECTION("a worker credential") {
    const std::string secret = credential_address(fleet, "w1");
    scope.replace = {secret};
    const operation::PlanResult result = plan_of(fleet, {}, scope);
    CHECK(result.stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--replace " + secret + ": a worker credential is not replaced; "
                                                      "`mkq credentials rotate " + fleet.policy() +
                                                      "` issues a fresh one"});
  }
  SECTION("an address of no object: did you mean") {
    scope.replace = {"w1/ClusterQueue/qc"};
    const operation::PlanResult result = plan_of(fleet, {}, scope);
    CHECK(result.stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--replace w1/ClusterQueue/qc: no object of the policy at that "
                                                      "address; did you mean 'w1/ClusterQueue/cq'?" + hint});
  }
  SECTION("an address outside --cluster") {
    scope.replace = {"w2/ClusterQueue/cq"};
    const operation::PlanResult result = plan_of(fleet, {"w1"}, scope);
    CHECK(result.stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--replace w2/ClusterQueue/cq: no object of the policy at that "
                                                      "address in the clusters planned; did you mean "
                                                      "'w1/ClusterQueue/cq'?" + hint});
  }
  SECTION("with --drift-only, or on a destroy") {
    scope.replace = {"w1/ClusterQueue/cq"};
    scope.drift_only = true;
    CHECK(plan_of(fleet, {}, scope).stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--drift-only and --replace do not go together: a replace is "
                                                      "not a repair of drift"});
    fleet.ui = FakeUi{};
    operation::ApplyRequest destroy = fleet.apply_request();
    destroy.destroy = true;
    destroy.scope.replace = {"w1/ClusterQueue/cq"};
    CHECK(operation::apply(destroy, fleet.resolver, fleet.ui).stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"--replace plans changes of the policy's objects, not a destroy"});
    CHECK(cluster_queue(fleet, "w1").has_value());
  }
  SECTION("an object marked prevent-destroy") {
    Json marked = *cluster_queue(fleet, "w1");
    marked["metadata"]["annotations"]["mkq.dev/prevent-destroy"] = "true";
    fleet.resolver.cluster("w1").put(marked, "kubectl");
    replace_refused(fleet, "it is marked mkq.dev/prevent-destroy=true and replace requested (--replace): it can "
                           "only change by being deleted and created again; remove the annotation to allow that");
  }
}

TEST_CASE("scope: --replace is refused for an object mkq did not create (adopted)", "[operation][scope][replace]") {
  Fleet fleet;
  write_policy(fleet, 4);
  fleet.resolver.cluster("w1").put(Json{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                                        {"kind", "ClusterQueue"},
                                        {"metadata", {{"name", "cq"}}},
                                        {"spec", {{"namespaceSelector", Json::object()}}}},
                                   "kubectl");
  applied_fleet(fleet);
  replace_refused(fleet, "--replace deletes the object, and it existed before mkq (or is another policy's): mkq "
                         "deletes only what it created");
}

TEST_CASE_METHOD(AppliedFleet, "scope: --drift-only repairs drift and leaves every other change out, counted",
                 "[operation][scope][drift]") {
  write_policy(fleet, 8);  // the policy changes on every cluster
  // And someone deletes the manager's LocalQueue.
  kube::FakeClient& manager = fleet.resolver.cluster("m");
  REQUIRE(manager.remove(manager.resource_for("kueue.x-k8s.io/v1beta2", "LocalQueue").value(), "default", "lq", {}).ok());
  operation::ScopeOptions scope;
  scope.drift_only = true;

  const operation::PlanResult result = plan_of(fleet, {}, scope);
  REQUIRE(result.stop == Stop::None);
  const reconcile::Plan& plan = *result.plan;
  CHECK(actions(plan) == std::vector<std::string>{"create m/LocalQueue/default/lq (deleted outside mkq)"});
  REQUIRE(change_of(plan, "m/LocalQueue/default/lq") != nullptr);
  CHECK(change_of(plan, "m/LocalQueue/default/lq")->repairs_drift);
  CHECK(plan.scope.drift_only);
  CHECK(plan.scope.not_drift == 3);  // the three ClusterQueues' new quota
  std::vector<std::string> left_out;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    for (const reconcile::Change& change : cluster.changes) {
      if (change.reason == reconcile::Reason::NotDrift) left_out.push_back(change.ref.address());
    }
  }
  std::sort(left_out.begin(), left_out.end());
  CHECK(left_out == std::vector<std::string>{"m/ClusterQueue/cq", "w1/ClusterQueue/cq", "w2/ClusterQueue/cq"});

  operation::ApplyRequest request = fleet.apply_request();
  request.scope = scope;
  const operation::ApplyResult applied = operation::apply(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(applied.stop == Stop::None);
  REQUIRE(applied.report.has_value());
  CHECK(applied.report->success());
  CHECK(manager.object("kueue.x-k8s.io/v1beta2", "LocalQueue", "default", "lq").has_value());
  CHECK(cpu_quota(fleet, "m") == "4");
  CHECK(cpu_quota(fleet, "w1") == "4");

  // What was left out is still to do.
  fleet.ui = FakeUi{};
  const operation::PlanResult next = plan_of(fleet, {});
  REQUIRE(next.stop == Stop::None);
  CHECK(actions(*next.plan) == std::vector<std::string>{"update m/ClusterQueue/cq (the policy changed)",
                                                        "update w1/ClusterQueue/cq (the policy changed)",
                                                        "update w2/ClusterQueue/cq (the policy changed)"});
}

TEST_CASE_METHOD(AppliedFleet,
                 "scope: --drift-only leaves out an immutable field changed outside mkq: its repair is a replace",
                 "[operation][scope][drift]") {
  Json lq = *fleet.resolver.cluster("w1").object("kueue.x-k8s.io/v1beta2", "LocalQueue", "default", "lq");
  lq["spec"]["clusterQueue"] = "elsewhere";
  fleet.resolver.cluster("w1").put(lq, "kubectl");
  operation::ScopeOptions scope;
  scope.drift_only = true;
  const operation::PlanResult drift = plan_of(fleet, {}, scope);
  REQUIRE(drift.stop == Stop::None);
  CHECK(actions(*drift.plan).empty());
  CHECK(drift.plan->scope.not_drift == 1);
  REQUIRE(change_of(*drift.plan, "w1/LocalQueue/default/lq") != nullptr);
  CHECK(change_of(*drift.plan, "w1/LocalQueue/default/lq")->reason == reconcile::Reason::NotDrift);

  fleet.ui = FakeUi{};
  const operation::PlanResult full = plan_of(fleet, {});
  REQUIRE(full.stop == Stop::None);
  CHECK(actions(*full.plan) ==
        std::vector<std::string>{"replace w1/LocalQueue/default/lq (spec.clusterQueue is immutable)"});
}

TEST_CASE_METHOD(AppliedFleet, "a saved plan keeps its scope (version 3) and applies without asking",
                 "[operation][scope][saved]") {
  write_policy(fleet, 8);
  const std::string file = (fleet.dir / "canary.plan").string();
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.runtime.clusters = {"w1"};
  request.out = file;
  REQUIRE(operation::plan(request, fleet.resolver, fleet.ui).stop == Stop::None);
  fleet.ui = FakeUi{};

  const base::Result<reconcile::Plan> read = operation::read_saved_plan(file);
  REQUIRE(read.ok());
  CHECK(reconcile::Json::parse(std::ifstream(file))["mkq_saved_plan"] == 3);
  CHECK(read->scope.clusters == std::vector<std::string>{"w1"});
  REQUIRE(read->scope.not_planned.size() == 1);
  CHECK(read->scope.not_planned[0].cluster == "w2");

  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = file;
  SECTION("with another --cluster: refused") {
    saved.runtime.clusters = {"w2"};
    CHECK(operation::apply_saved_plan(saved, fleet.resolver, fleet.ui).stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"the saved plan " + file + " was made with other --cluster "
                                                      "options; make the plan again with the ones you want"});
    CHECK(cpu_quota(fleet, "w1") == "4");
  }
  SECTION("with --exclude-cluster it was not made with: refused") {
    saved.runtime.exclude_clusters = {"w2"};
    CHECK(operation::apply_saved_plan(saved, fleet.resolver, fleet.ui).stop == Stop::Failed);
    CHECK(fleet.ui.errors == std::vector<std::string>{"the saved plan " + file + " was made with other "
                                                      "--exclude-cluster options; make the plan again with the ones "
                                                      "you want"});
  }
  SECTION("as saved, the same --cluster or none: applied to w1 only, without a prompt") {
    SECTION("--cluster w1 again") { saved.runtime.clusters = {"w1"}; }
    SECTION("no --cluster") {}
    fleet.ui.answer = false;  // a prompt would cancel the run
    const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
    INFO(fleet.ui.all_errors());
    REQUIRE(result.stop == Stop::None);
    CHECK(fleet.ui.confirmations == 0);
    REQUIRE(result.report.has_value());
    CHECK(result.report->success());
    CHECK(cpu_quota(fleet, "w1") == "8");
    CHECK(cpu_quota(fleet, "m") == "4");
    CHECK(cpu_quota(fleet, "w2") == "4");
  }
}

TEST_CASE_METHOD(AppliedFleet, "a saved plan of --replace and of --drift-only is carried out as saved",
                 "[operation][scope][saved]") {
  const std::string file = (fleet.dir / "replace.plan").string();
  const std::string uid = cluster_queue(fleet, "w2")->at("metadata").at("uid").get<std::string>();
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.scope.replace = {"w2/ClusterQueue/cq"};
  request.out = file;
  REQUIRE(operation::plan(request, fleet.resolver, fleet.ui).stop == Stop::None);
  fleet.ui = FakeUi{};
  const base::Result<reconcile::Plan> read = operation::read_saved_plan(file);
  REQUIRE(read.ok());
  CHECK(read->options.replace == std::set<std::string>{"w2/ClusterQueue/cq"});
  CHECK(actions(*read) == std::vector<std::string>{"replace w2/ClusterQueue/cq (replace requested (--replace))"});

  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = file;
  fleet.ui.answer = false;
  const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  CHECK(fleet.ui.confirmations == 0);
  CHECK(cluster_queue(fleet, "w2")->at("metadata").at("uid").get<std::string>() != uid);

  // --drift-only: the policy's change stays out when the saved plan is applied.
  write_policy(fleet, 8);
  fleet.ui = FakeUi{};
  request.scope = {};
  request.scope.drift_only = true;
  REQUIRE(operation::plan(request, fleet.resolver, fleet.ui).stop == Stop::None);
  const base::Result<reconcile::Plan> drift = operation::read_saved_plan(file);
  REQUIRE(drift.ok());
  CHECK(drift->scope.drift_only);
  CHECK(drift->scope.not_drift == 3);
  fleet.ui = FakeUi{};
  const operation::ApplyResult none = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(none.stop == Stop::None);
  CHECK(cpu_quota(fleet, "w1") == "4");
}

TEST_CASE_METHOD(AppliedFleet,
                 "a version-2 saved plan reads as a plan of every cluster, and a newer version is refused",
                 "[operation][scope][saved][format]") {
  write_policy(fleet, 8);
  const std::string file = (fleet.dir / "old.plan").string();
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.out = file;
  REQUIRE(operation::plan(request, fleet.resolver, fleet.ui).stop == Stop::None);
  fleet.ui = FakeUi{};

  // As an mkq of version 2 wrote it: no scope, no --replace, no replace_requested.
  reconcile::Json document = reconcile::Json::parse(std::ifstream(file));
  document["mkq_saved_plan"] = 2;
  document.erase("scope");
  document["options"].erase("replace");
  for (reconcile::Json& cluster : document["clusters"]) {
    for (reconcile::Json& change : cluster["changes"]) change["directives"].erase("replace_requested");
  }
  fleet.write("old.plan", document.dump());
  const base::Result<reconcile::Plan> read = operation::read_saved_plan(file);
  INFO((read ? std::string() : read.error().message));
  REQUIRE(read.ok());
  CHECK(read->scope.clusters.empty());
  CHECK(read->scope.not_planned.empty());
  CHECK_FALSE(read->scope.drift_only);
  CHECK(read->options.replace.empty());

  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = file;
  const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  CHECK(cpu_quota(fleet, "m") == "8");
  CHECK(cpu_quota(fleet, "w1") == "8");
  CHECK(cpu_quota(fleet, "w2") == "8");

  document["mkq_saved_plan"] = 4;
  fleet.write("old.plan", document.dump());
  const base::Result<reconcile::Plan> newer = operation::read_saved_plan(file);
  REQUIRE_FALSE(newer.ok());
  CHECK(newer.error().message == "saved plan version 4 (this mkq reads version 3); make the plan again with this mkq");
}
