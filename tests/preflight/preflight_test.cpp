// preflight::check against fake clusters: each check's finding (cluster,
// code, what is missing, the fix), the cases that must stay silent, and that
// preflight only reads.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/kueue/schema.h"
#include "runtime/preflight/preflight.h"
#include "runtime/reconcile/refresh.h"
#include "tests/kueue/kueue_test_support.h"
#include "tests/support/fake_client.h"

namespace {

using mkq::kube::FakeClient;
using mkq::kube::Json;
using mkq::kube::ResourceType;
using mkq::reconcile::Finding;
using mkq::reconcile::FindingCode;
using mkq::reconcile::Severity;

const ResourceType kJobSets{"jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets", true};
const ResourceType kCrds{"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false};
const ResourceType kServices{"", "v1", "Service", "services", true};

// A manager "m" and workers "w1", "w2", both dispatched to; `kueue` is the kueue block's body.
std::string fleet(const std::string& kueue, const std::string& extra = "") {
  return R"(manager "m" {}
worker "w1" { capacity "default-flavor" { cpu = 4 } }
worker "w2" { capacity "default-flavor" { cpu = 4 } }
flavor "default-flavor" {}
clusterqueue "cq" {
  namespaces = all
  quota "default-flavor" { cpu = 8 }
  localqueue "lq" in "default" {}
}
dispatch "mk" {
  queues = ["cq"]
  workers = ["w1", "w2"]
}
kueue {
)" + kueue + "\n}\n" + extra;
}

const std::string kJobSetEnabled = R"(integrations = ["batch/job", "jobset.x-k8s.io/jobset"])";

Json config_map(const std::string& yaml) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "kueue-manager-config"}, {"namespace", "kueue-system"}}},
              {"data", {{"controller_manager_config.yaml", yaml}}}};
}

const std::string kAllFrameworks =
    "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nintegrations:\n  frameworks:\n"
    "  - batch/job\n  - jobset.x-k8s.io/jobset\n";

// The compiled policy, a fake client per cluster, and what refresh and the plan made of them.
struct World {
  std::unique_ptr<kueuetest::Rendered> rendered;
  std::map<std::string, std::unique_ptr<FakeClient>> clients;
  std::vector<mkq::reconcile::Target> targets;
  mkq::reconcile::LiveState live;
  mkq::reconcile::Plan plan;

  explicit World(const std::string& text) : rendered(kueuetest::render_text(text)) {
    INFO(rendered->messages());
    REQUIRE(rendered->state);
    REQUIRE_FALSE(rendered->diagnostics.has_errors());
    for (const mkq::kueue::ClusterObjects& cluster : rendered->state->clusters) {
      auto& client = clients[cluster.cluster];
      client = std::make_unique<FakeClient>("https://" + cluster.cluster + ".invalid");
      targets.push_back({cluster.cluster, cluster.role, client.get(), ""});
    }
  }
  FakeClient& cluster(const std::string& name) { return *clients.at(name); }

  // Every cluster serves JobSets and its Kueue manages them.
  void install_jobset() {
    for (auto& [name, client] : clients) {
      client->serve(kJobSets);
      client->put(config_map(kAllFrameworks));
    }
  }

  std::vector<Finding> check() {
    live = mkq::reconcile::refresh(*rendered->state, {}, targets, {});
    plan = mkq::reconcile::make_plan(*rendered->state, {}, "", live, nullptr, {});
    return mkq::preflight::check({*rendered->policy, *rendered->state, plan, live, targets});
  }
};

std::string describe(const std::vector<Finding>& findings) {
  std::string out;
  for (const Finding& f : findings) {
    out += std::string(mkq::reconcile::severity_name(f.severity)) + " " + f.cluster + " [" +
           mkq::reconcile::finding_code_name(f.code) + "] " + f.missing + " | fix: " + f.fix + "\n";
  }
  return out;
}

std::vector<Finding> with_code(const std::vector<Finding>& findings, FindingCode code) {
  std::vector<Finding> out;
  for (const Finding& f : findings) {
    if (f.code == code) out.push_back(f);
  }
  return out;
}

}  // namespace

TEST_CASE("preflight: a fleet that has what the policy needs finds nothing, and only reads", "[preflight]") {
  World world(fleet(kJobSetEnabled));
  world.install_jobset();
  std::map<std::string, std::size_t> before;
  world.live = mkq::reconcile::refresh(*world.rendered->state, {}, world.targets, {});
  world.plan = mkq::reconcile::make_plan(*world.rendered->state, {}, "", world.live, nullptr, {});
  for (auto& [name, client] : world.clients) before[name] = client->calls().size();
  const auto findings = mkq::preflight::check(
      {*world.rendered->policy, *world.rendered->state, world.plan, world.live, world.targets});
  INFO(describe(findings));
  CHECK(findings.empty());
  for (auto& [name, client] : world.clients) {
    const std::vector<std::string> calls = client->calls();
    for (std::size_t i = before[name]; i < calls.size(); ++i) {
      INFO(name << ": " << calls[i]);
      CHECK((calls[i].rfind("GET ", 0) == 0 || calls[i].rfind("LIST ", 0) == 0));
    }
  }
}

TEST_CASE("preflight: a worker without the JobSet CRD while JobSet is enabled is an error naming both",
          "[preflight][integrations]") {
  World world(fleet(kJobSetEnabled));
  world.install_jobset();
  world.cluster("w2").stop_serving("jobset.x-k8s.io/v1alpha2", "JobSet");
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].code == FindingCode::IntegrationCrd);
  CHECK(findings[0].cluster == "w2");
  CHECK(findings[0].missing ==
        "integration 'jobset.x-k8s.io/jobset' is enabled but CRD jobsets.jobset.x-k8s.io is not served: Kueue "
        "disconnects a worker without an enabled integration's CRD (ClientConnectionFailed; kueue#3582, #12400)");
  CHECK(findings[0].fix ==
        "install 'jobset.x-k8s.io/jobset' (CRD jobsets.jobset.x-k8s.io and its controller) on w2, or remove "
        "'jobset.x-k8s.io/jobset' from kueue.integrations");
}

TEST_CASE("preflight: the manager without an integration's CRD is a warning", "[preflight][integrations]") {
  World world(fleet(kJobSetEnabled));
  world.install_jobset();
  world.cluster("m").stop_serving("jobset.x-k8s.io/v1alpha2", "JobSet");
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].severity == Severity::Warning);
  CHECK(findings[0].cluster == "m");
  CHECK(findings[0].code == FindingCode::IntegrationCrd);
}

TEST_CASE("preflight: Kubernetes' own kinds (batch jobs, pods) are never looked for as CRDs", "[preflight][integrations]") {
  World world(fleet(R"(integrations = ["batch/job", "pod", "statefulset"])"));
  for (auto& [name, client] : world.clients) {
    client->put(config_map("integrations:\n  frameworks: [batch/job, pod, statefulset]\n"));
  }
  const auto findings = world.check();
  INFO(describe(findings));
  CHECK(findings.empty());
}

TEST_CASE("preflight: a worker whose Kueue does not manage a dispatched framework is an error with the fix",
          "[preflight][worker-config]") {
  World world(fleet(kJobSetEnabled));
  world.install_jobset();
  world.cluster("w1").put(config_map("integrations:\n  frameworks:\n  - batch/job\n"));
  world.cluster("w2").put(config_map(""));  // no settings: Kueue's default (batch/job)
  const auto findings = with_code(world.check(), FindingCode::WorkerIntegration);
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].cluster == "w1");
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].missing ==
        "Kueue on this worker does not manage 'jobset.x-k8s.io/jobset' (integrations.frameworks of ConfigMap "
        "kueue-system/kueue-manager-config): jobs of that kind dispatched here are never admitted");
  CHECK(findings[0].fix ==
        "add 'jobset.x-k8s.io/jobset' to integrations.frameworks: kubectl --context w1 -n kueue-system edit "
        "configmap kueue-manager-config && kubectl --context w1 -n kueue-system rollout restart deployment "
        "kueue-controller-manager");
  CHECK(findings[1].cluster == "w2");
}

TEST_CASE("preflight: no Kueue configuration on a worker means Kueue's default, batch/job only",
          "[preflight][worker-config]") {
  World plain(fleet(""));
  INFO(describe(plain.check()));
  CHECK(plain.check().empty());

  World jobset(fleet(kJobSetEnabled));
  for (auto& [name, client] : jobset.clients) client->serve(kJobSets);
  const auto findings = with_code(jobset.check(), FindingCode::WorkerIntegration);
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].missing.find("Kueue's defaults (there is no ConfigMap kueue-system/kueue-manager-config)") !=
        std::string::npos);
}

TEST_CASE("preflight: a cluster serving Kueue only as v1beta1 is an error naming both versions", "[preflight][kueue]") {
  World world(fleet(""));
  for (const auto& kind : mkq::kueue::schema::kKinds) {
    if (kind.api_version != mkq::kueue::schema::kKueueApiVersion) continue;
    world.cluster("w1").stop_serving(std::string(kind.api_version), std::string(kind.name));
    world.cluster("w1").serve({"kueue.x-k8s.io", "v1beta1", std::string(kind.name), std::string(kind.plural),
                               kind.namespaced});
  }
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].cluster == "w1");
  CHECK(findings[0].code == FindingCode::KueueVersion);
  CHECK(findings[0].missing ==
        "Kueue serves ResourceFlavor, ClusterQueue and LocalQueue as kueue.x-k8s.io/v1beta1 but not as "
        "kueue.x-k8s.io/v1beta2, the "
        "version mkq writes (served from Kueue v0.15.0 on)");
  CHECK(findings[0].fix ==
        "upgrade Kueue: kubectl --context w1 apply --server-side -f "
        "https://github.com/kubernetes-sigs/kueue/releases/download/v0.19.2/manifests.yaml");
}

TEST_CASE("preflight: a cluster without Kueue is an error with the install command", "[preflight][kueue]") {
  World world(fleet(""));
  for (const auto& kind : mkq::kueue::schema::kKinds) {
    if (kind.api_version == mkq::kueue::schema::kKueueApiVersion) {
      world.cluster("m").stop_serving(std::string(kind.api_version), std::string(kind.name));
    }
  }
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].cluster == "m");
  CHECK(findings[0].code == FindingCode::KueueNotInstalled);
  CHECK(findings[0].missing == "Kueue is not installed: the API group kueue.x-k8s.io is not served");
  CHECK(findings[0].fix.rfind("kubectl --context m apply --server-side -f ", 0) == 0);
}

TEST_CASE("preflight: a Kueue CRD converting through a Service that is gone is an error (kueue#18411)",
          "[preflight][conversion]") {
  World world(fleet(""));
  FakeClient& w1 = world.cluster("w1");
  w1.serve(kCrds);
  w1.serve(kServices);
  w1.serve({"kueue.x-k8s.io", "v1beta1", "LocalQueue", "localqueues", true});  // a group that converts
  for (const char* plural : {"clusterqueues", "localqueues"}) {
    w1.put(Json{{"apiVersion", "apiextensions.k8s.io/v1"},
                {"kind", "CustomResourceDefinition"},
                {"metadata", {{"name", std::string(plural) + ".kueue.x-k8s.io"}}},
                {"spec",
                 {{"group", "kueue.x-k8s.io"},
                  {"conversion",
                   {{"strategy", "Webhook"},
                    {"webhook",
                     {{"clientConfig", {{"service", {{"namespace", "kueue-system"}, {"name", "kueue-webhook-service"}}}}},
                      {"conversionReviewVersions", {"v1"}}}}}}}}});
  }
  auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].cluster == "w1");
  CHECK(findings[0].code == FindingCode::ConversionWebhook);
  CHECK(findings[0].missing ==
        "CRDs clusterqueues.kueue.x-k8s.io and localqueues.kueue.x-k8s.io convert between versions through Service "
        "kueue-system/kueue-webhook-service, which does not exist: reads and writes of those kinds fail "
        "(kueue#18411)");
  CHECK(findings[0].fix.find("for crd in clusterqueues.kueue.x-k8s.io localqueues.kueue.x-k8s.io; do kubectl "
                             "--context w1 patch crd \"$crd\" --type=merge") != std::string::npos);

  w1.put(Json{{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata", {{"name", "kueue-webhook-service"}, {"namespace", "kueue-system"}}}});
  findings = world.check();
  INFO(describe(findings));
  CHECK(findings.empty());
}

TEST_CASE("preflight: a Kueue serving one version converts nothing, and its CRDs are not read", "[preflight][conversion]") {
  World world(fleet(""));
  world.cluster("w1").serve(kCrds);
  world.check();
  for (const std::string& call : world.cluster("w1").calls()) {
    INFO(call);
    CHECK(call.find("customresourcedefinitions") == std::string::npos);
  }
}

TEST_CASE("preflight: a feature gate the policy needs, turned off in Kueue's configuration, is an error",
          "[preflight][feature-gates]") {
  World world(fleet(""));
  world.cluster("m").put(config_map("featureGates:\n  MultiKueue: false\n"));
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].cluster == "m");
  CHECK(findings[0].code == FindingCode::FeatureGate);
  CHECK(findings[0].missing.rfind("Kueue's feature gate MultiKueue is off", 0) == 0);
}

TEST_CASE("preflight: a feature gate mkq's own plan turns on is not a finding", "[preflight][feature-gates]") {
  const std::string policy = R"(manager "m" {}
worker "w1" {
  credentials { mode = "clusterprofile" }
  capacity "default-flavor" { cpu = 4 }
}
flavor "default-flavor" {}
clusterqueue "cq" {
  namespaces = all
  quota "default-flavor" { cpu = 4 }
}
dispatch "mk" {
  queues = ["cq"]
  workers = ["w1"]
}
kueue {
  multikueue { access_provider "secretreader" { command = "/plugins/secretreader" } }
}
)";
  World world(policy);
  world.cluster("m").put(config_map("featureGates:\n  MultiKueueClusterProfile: false\n"));
  const auto findings = world.check();
  INFO(describe(findings));
  CHECK(with_code(findings, FindingCode::FeatureGate).empty());
  // The ClusterProfile CRD is not served on the manager: runtime/credentials' check, as a finding.
  const auto profiles = with_code(findings, FindingCode::ClusterProfile);
  REQUIRE(profiles.size() == 1);
  CHECK(profiles[0].cluster == "m");
  CHECK(profiles[0].missing.find("the manager does not serve ClusterProfile") == 0);
}

TEST_CASE("preflight: on OpenShift, a missing operator and persona ClusterRoles are warnings", "[preflight][openshift]") {
  World world(fleet(R"(platform = "openshift")", R"(
access "admins" {
  role = "batch-admin"
  groups = ["ml-admins"]
}
)"));
  world.cluster("w1").stop_serving("kueue.openshift.io/v1", "Kueue");
  for (auto& [name, client] : world.clients) {
    client->put(Json{{"apiVersion", "kueue.openshift.io/v1"},
                     {"kind", "Kueue"},
                     {"metadata", {{"name", "cluster"}}},
                     {"spec", {{"config", {{"integrations", {{"frameworks", {"BatchJob"}}}}}}}}});
  }
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].severity == Severity::Warning);
  CHECK(findings[0].cluster == "m");
  CHECK(findings[0].code == FindingCode::PersonaRole);
  CHECK(findings[0].missing ==
        "ClusterRole kueue-batch-admin-role does not exist: the policy's access bindings to it grant nothing until it "
        "does");
  CHECK(findings[1].cluster == "w1");
  CHECK(findings[1].code == FindingCode::OpenShiftOperator);
}

TEST_CASE("preflight: an unreachable cluster is left to the plan, which says so", "[preflight]") {
  World world(fleet(kJobSetEnabled));
  world.cluster("w2").set_unreachable(true);
  world.cluster("m").serve(kJobSets);
  world.cluster("m").put(config_map(kAllFrameworks));
  world.cluster("w1").serve(kJobSets);
  world.cluster("w1").put(config_map(kAllFrameworks));
  const auto findings = world.check();
  INFO(describe(findings));
  CHECK(findings.empty());
}

TEST_CASE("preflight: errors come first, then warnings", "[preflight]") {
  World world(fleet(kJobSetEnabled));
  world.install_jobset();
  world.cluster("m").stop_serving("jobset.x-k8s.io/v1alpha2", "JobSet");
  world.cluster("w2").stop_serving("jobset.x-k8s.io/v1alpha2", "JobSet");
  const auto findings = world.check();
  INFO(describe(findings));
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].severity == Severity::Error);
  CHECK(findings[0].cluster == "w2");
  CHECK(findings[1].severity == Severity::Warning);
  CHECK(findings[1].cluster == "m");
}
