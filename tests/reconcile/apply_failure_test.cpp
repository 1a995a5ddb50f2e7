// The apply executor under failure: conflicts, unreachable clusters,
// dependencies of failed objects, credentials that cannot be issued.
#include <catch2/catch.hpp>

#include "apply_test_support.h"
#include "base/encoding.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kManager = kueue::ClusterRole::Manager;
constexpr auto kWorker = kueue::ClusterRole::Worker;
const std::string kKueue = "kueue.x-k8s.io/v1beta2";

TEST_CASE("apply reports a conflict with another manager, and takes over with force", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(document_of("ClusterQueue", "", "cq", {{"cohort", "theirs"}}), "kubectl-edit");
  Plan plan;
  plan.clusters.push_back(
      cluster_plan("w1", kWorker, {change_of("w1", Action::Update, "ClusterQueue", "", "cq", {{"cohort", "ours"}})}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  ApplyOptions options = fast_options();

  SECTION("without --force-conflicts") {
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
    REQUIRE(report.failed == 1);
    const base::Error& error = report.results[0].error;
    // The error names its object and keeps the server's answer (base/result.h).
    CHECK(error.address == "w1/ClusterQueue/cq");
    CHECK(error.conflict());
    CHECK(base::render(error).rfind("w1/ClusterQueue/cq: conflict: ", 0) == 0);
    const std::string& message = error.message;
    CHECK(message.rfind("conflict: ", 0) == 0);
    CHECK(message.find("conflict with \"kubectl-edit\": .spec.cohort") != std::string::npos);
    CHECK(message.find("--force-conflicts") != std::string::npos);
    CHECK((*fake.object(kKueue, "ClusterQueue", "", "cq"))["spec"]["cohort"] == "theirs");
    CHECK_FALSE(state.store->find("w1/ClusterQueue/cq").value());
  }
  SECTION("with --force-conflicts") {
    options.force_conflicts = true;
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
    REQUIRE(report.success());
    CHECK((*fake.object(kKueue, "ClusterQueue", "", "cq"))["spec"]["cohort"] == "ours");
  }
}

TEST_CASE("apply goes on with the other clusters when one cannot be reached", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient reachable, down;
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker,
                                       {change_of("w1", Action::Create, "Namespace", "", "team"),
                                        change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  plan.clusters.push_back(cluster_plan("w2", kWorker,
                                       {change_of("w2", Action::Create, "Namespace", "", "team"),
                                        change_of("w2", Action::Create, "ClusterQueue", "", "cq")}));
  plan.clusters.push_back(cluster_plan("w3", kWorker, {change_of("w3", Action::Create, "ClusterQueue", "", "cq")}));
  plan.clusters.back().reachable = false;
  plan.clusters.back().error = "w3: connection refused";
  std::vector<Target> targets{target_of("w1", kWorker, &reachable), target_of("w2", kWorker, nullptr),
                              target_of("w3", kWorker, &down)};
  targets[1].connect_error = "w2: cannot load the kubeconfig context";

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.failed == 3);
  CHECK(result_for(report, "w1/ClusterQueue/cq")->ok());
  CHECK(result_for(report, "w2/Namespace/team")->error.message == "w2: cannot load the kubeconfig context");
  CHECK(result_for(report, "w2/ClusterQueue/cq")->error.message == "w2: cannot load the kubeconfig context");
  CHECK(result_for(report, "w3/ClusterQueue/cq")->error.message == "w3: connection refused");
  CHECK(reachable.size() == 2);
  CHECK(down.calls().empty());

  const std::vector<state::RunRecord> runs = state.store->history(1, true).value();
  REQUIRE(runs.size() == 1);
  int failed = 0;
  for (const state::ObjectOutcome& outcome : runs[0].objects) failed += outcome.result == "failed" ? 1 : 0;
  CHECK(failed == 3);
}

TEST_CASE("apply stops trying a cluster whose connection fails mid-way", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.set_unreachable(true);
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker,
                                       {change_of("w1", Action::Create, "Namespace", "", "team"),
                                        change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.failed == 2);
  CHECK(report.results[0].error.message == "connection refused: https://fake.invalid cannot be reached");
  CHECK(report.results[1].error.message ==
        "not attempted: the cluster is unreachable (connection refused: https://fake.invalid cannot be reached)");
  // Each failure is about its own object, and says no server answered.
  CHECK(report.results[0].error.address == "w1/Namespace/team");
  CHECK(report.results[1].error.address == "w1/ClusterQueue/cq");
  CHECK(report.results[0].error.transport());
  CHECK(report.results[1].error.reason == "ConnectionFailed");
}

TEST_CASE("apply skips what depends on a failed object", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call == "PATCH /api/v1/namespaces/team") {
      return kube::Error{403, "Forbidden", "namespaces \"team\" is forbidden", Json()};
    }
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker,
      {change_of("w1", Action::Create, "Namespace", "", "team"),
       change_of("w1", Action::Create, "ClusterQueue", "", "cq"),
       change_of("w1", Action::Create, "LocalQueue", "team", "lq", {{"clusterQueue", "cq"}},
                 {"w1/Namespace/team", "w1/ClusterQueue/cq"}),
       change_of("w1", Action::Create, "RoleBinding", "team", "rb", Json::object(), {"w1/Namespace/team"}),
       change_of("w1", Action::Create, "ConfigMap", "other", "cm")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());

  CHECK(report.failed == 3);
  CHECK(result_for(report, "w1/Namespace/team")->error.message == "namespaces \"team\" is forbidden");
  CHECK(result_for(report, "w1/RoleBinding/team/rb")->error.message ==
        "skipped: depends on w1/Namespace/team, which failed");
  CHECK(result_for(report, "w1/LocalQueue/team/lq")->error.message ==
        "skipped: depends on w1/Namespace/team, which failed");
  CHECK(result_for(report, "w1/ClusterQueue/cq")->ok());
  CHECK(result_for(report, "w1/ConfigMap/other/cm")->ok());
  for (const std::string& call : fake.calls()) {
    CHECK(call.find("localqueues") == std::string::npos);
    CHECK(call.find("rolebindings") == std::string::npos);
  }

  const std::vector<state::RunRecord> runs = state.store->history(1, true).value();
  REQUIRE(runs.size() == 1);
  int skipped = 0;
  for (const state::ObjectOutcome& outcome : runs[0].objects) {
    if (outcome.result != "skipped") continue;
    ++skipped;
    CHECK(outcome.action == "create");
    CHECK(outcome.message.rfind("skipped: depends on w1/Namespace/team", 0) == 0);
  }
  CHECK(skipped == 2);
}

TEST_CASE("apply skips transitively and names the object that failed", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("resourceflavors/gpu") != std::string::npos) return kube::Error{422, "Invalid", "bad flavor", Json()};
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan(
      "w1", kWorker,
      {change_of("w1", Action::Create, "ResourceFlavor", "", "gpu"),
       change_of("w1", Action::Create, "ClusterQueue", "", "cq", Json::object(), {"w1/ResourceFlavor/gpu"}),
       change_of("w1", Action::Create, "LocalQueue", "team", "lq", Json::object(), {"w1/ClusterQueue/cq"})}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.failed == 3);
  CHECK(result_for(report, "w1/ClusterQueue/cq")->error.message == "skipped: depends on w1/ResourceFlavor/gpu, which failed");
  CHECK(result_for(report, "w1/LocalQueue/team/lq")->error.message ==
        "skipped: depends on w1/ResourceFlavor/gpu, which failed");
}

TEST_CASE("apply names a kind the cluster does not serve", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.stop_serving(kKueue, "ClusterQueue");
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.failed == 1);
  CHECK(report.results[0].error.message ==
        "kueue.x-k8s.io/v1beta2 ClusterQueue is not served by the cluster (is Kueue installed?)");
}

// A provider that issues a fixed kubeconfig and counts its calls.
class TestProvider : public CredentialProvider {
 public:
  CredentialDecision decide(const std::string&, const kueue::Object&, const Json*,
                            const state::InventoryEntry*) override {
    return CredentialDecision{true, "test token", reconcile::CredentialCause::NotOnCluster, "", ""};
  }
  kube::Result<Json> issue(const std::string& cluster, const kueue::Object& secret, CredentialJournal*) override {
    ++issued;
    last_cluster = cluster;
    last_name = secret.name;
    if (!fail.empty()) return kube::Error{0, "ConfigError", fail, Json()};
    Json document = secret.document;
    document.erase("stringData");
    document["stringData"] = {{"kubeconfig", "apiVersion: v1\nusers: [{user: {token: s3cr3t-t0ken}}]\n"}};
    return document;
  }
  int issued = 0;
  std::string last_cluster, last_name, fail;
};

Change credential_change() {
  Change change = change_of("manager", Action::Create, "Secret", "kueue-system", "w1-kubeconfig");
  change.desired["stringData"] = {{"kubeconfig", "placeholder"}};
  change.desired["type"] = "Opaque";
  change.credential = true;
  change.sensitive = true;
  return change;
}

TEST_CASE("apply asks the credential provider for a credential Secret, after the workers", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  TestProvider provider;
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager, {credential_change()}));
  plan.clusters.push_back(
      cluster_plan("w1", kWorker, {change_of("w1", Action::Create, "ServiceAccount", "kueue-system", "multikueue")}));
  const std::vector<Target> targets{target_of("manager", kManager, &manager), target_of("w1", kWorker, &worker)};
  EventLog log;
  ApplyOptions options = fast_options();
  options.progress = log.callback();

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, &provider, options);
  REQUIRE(report.success());
  CHECK(provider.issued == 1);
  CHECK(provider.last_cluster == "manager");
  CHECK(provider.last_name == "w1-kubeconfig");
  CHECK(log.index_of(ProgressEvent::Phase::Done, "w1/ServiceAccount/kueue-system/multikueue") <
        log.index_of(ProgressEvent::Phase::Started, "manager/Secret/kueue-system/w1-kubeconfig"));

  // Applied as data (base64), never as stringData.
  const auto secret = manager.object("v1", "Secret", "kueue-system", "w1-kubeconfig");
  REQUIRE(secret);
  CHECK_FALSE(secret->contains("stringData"));
  REQUIRE((*secret)["data"].contains("kubeconfig"));
  const std::string encoded = (*secret)["data"]["kubeconfig"].get<std::string>();
  CHECK(encoded.find("s3cr3t") == std::string::npos);
  CHECK(base::base64_decode(encoded) == std::optional<std::string>(
                                           "apiVersion: v1\nusers: [{user: {token: s3cr3t-t0ken}}]\n"));
  // The value is never in a result, event or the state.
  for (const ObjectResult& result : report.results) CHECK(base::render(result.error).find("s3cr3t") == std::string::npos);
  for (const ProgressEvent& event : log.events()) CHECK(event.message.find("s3cr3t") == std::string::npos);
  const auto entry = state.store->find("manager/Secret/kueue-system/w1-kubeconfig").value();
  REQUIRE(entry);
  CHECK(entry->digest.rfind("sha256:", 0) == 0);
}

TEST_CASE("apply fails a credential change the provider cannot issue", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager;
  TestProvider provider;
  Plan plan;
  const std::vector<Target> targets{target_of("manager", kManager, &manager)};

  SECTION("known at plan time: the provider is not asked") {
    Change change = credential_change();
    change.credential_error = "worker w1 is unreachable: no token can be issued";
    plan.clusters.push_back(cluster_plan("manager", kManager, {change}));
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, &provider, fast_options());
    REQUIRE(report.failed == 1);
    CHECK(report.results[0].error.message == "worker w1 is unreachable: no token can be issued");
    CHECK(provider.issued == 0);
  }
  SECTION("at apply time") {
    provider.fail = "the TokenRequest was refused";
    plan.clusters.push_back(cluster_plan("manager", kManager, {credential_change()}));
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, &provider, fast_options());
    REQUIRE(report.failed == 1);
    CHECK(report.results[0].error.message == "cannot issue the credential: the TokenRequest was refused");
    CHECK(provider.issued == 1);
  }
  CHECK(manager.calls().empty());
}

TEST_CASE("a credential that cannot be issued does not hold back the objects that name it", "[reconcile][apply]") {
  StateFixture state;
  kube::FakeClient manager;
  TestProvider provider;
  provider.fail = "worker w1 is unreachable";
  const std::vector<Target> targets = {target_of("manager", kManager, &manager)};
  Change cluster = change_of("manager", Action::Create, "MultiKueueCluster", "", "w1");
  cluster.depends_on = {"manager/Secret/kueue-system/w1-kubeconfig"};
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager, {credential_change(), cluster}));
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, &provider, fast_options());
  CHECK(report.failed == 1);  // the Secret only
  CHECK(manager.object("kueue.x-k8s.io/v1beta2", "MultiKueueCluster", "", "w1").has_value());
}

}  // namespace
}  // namespace mkq::reconcile::testing
