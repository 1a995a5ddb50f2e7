// The simulated Kueue controllers (sandbox/controllers.h) through
// Cluster::handle(): conditions, reasons, finalizers, kubeconfig rules and a
// real connection to a second cluster behind the HTTPS transport.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "sandbox/controllers.h"
#include "sandbox/daemon.h"
#include "sandbox/pki.h"
#include "sandbox/server.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using nlohmann::json;

const std::string kBase = "/apis/kueue.x-k8s.io/v1beta2/";

void install_kueue(Cluster& c) {
  const std::vector<std::tuple<std::string, std::string, bool>> kinds = {
      {"clusterqueues", "ClusterQueue", false},          {"localqueues", "LocalQueue", true},
      {"resourceflavors", "ResourceFlavor", false},      {"admissionchecks", "AdmissionCheck", false},
      {"multikueueconfigs", "MultiKueueConfig", false},  {"multikueueclusters", "MultiKueueCluster", false},
      {"topologies", "Topology", false},                 {"workloads", "Workload", true}};
  for (const auto& [plural, kind, namespaced] : kinds) {
    const auto r = c.handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                                    kueue_crd(plural, kind, namespaced).dump()));
    REQUIRE(r.status == 201);
  }
  for (const char* ns : {"kueue-system", "team"}) {
    REQUIRE(c.handle(request("POST", "/api/v1/namespaces", json{{"metadata", {{"name", ns}}}}.dump())).status == 201);
  }
}

ApiResponse create(Cluster& c, const std::string& path, const std::string& kind, const json& spec,
                   const std::string& name) {
  json object = {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", kind}, {"metadata", {{"name", name}}}, {"spec", spec}};
  return c.handle(request("POST", kBase + path, object.dump()));
}

json get(Cluster& c, const std::string& path) { return body_of(c.handle(request("GET", kBase + path))); }

json active(Cluster& c, const std::string& path) {
  for (const auto& cond : get(c, path).value("status", json::object()).value("conditions", json::array())) {
    if (cond.value("type", "") == "Active") return cond;
  }
  return nullptr;
}

// "X - Active: True Reason: Ready Message: ...", the tutorial's jsonpath line.
std::string line(Cluster& c, const std::string& prefix, const std::string& path) {
  const json a = active(c, path);
  if (!a.is_object()) return prefix + " - none";
  return prefix + " - Active: " + a.value("status", "") + " Reason: " + a.value("reason", "") +
         " Message: " + a.value("message", "");
}

void create_secret(Cluster& c, const std::string& name, const json& data) {
  json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", name}}}, {"data", data}};
  REQUIRE(c.handle(request("POST", "/api/v1/namespaces/kueue-system/secrets", secret.dump())).status == 201);
}

// The tutorial's manager objects.
void tutorial_objects(Cluster& c) {
  REQUIRE(create(c, "resourceflavors", "ResourceFlavor", json::object(), "default-flavor").status == 201);
  const json cq_spec = json::parse(R"({"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu", "memory"],
    "flavors": [{"name": "default-flavor", "resources": [{"name": "cpu", "nominalQuota": 9}, {"name": "memory", "nominalQuota": "36Gi"}]}]}],
    "admissionChecksStrategy": {"admissionChecks": [{"name": "sample-multikueue"}]}})");
  REQUIRE(create(c, "clusterqueues", "ClusterQueue", cq_spec, "cluster-queue").status == 201);
  REQUIRE(create(c, "namespaces/team/localqueues", "LocalQueue", {{"clusterQueue", "cluster-queue"}}, "user-queue").status == 201);
  REQUIRE(create(c, "admissionchecks", "AdmissionCheck",
                 {{"controllerName", "kueue.x-k8s.io/multikueue"},
                  {"parameters", {{"apiGroup", "kueue.x-k8s.io"}, {"kind", "MultiKueueConfig"}, {"name", "multikueue-test"}}}},
                 "sample-multikueue")
              .status == 201);
  REQUIRE(create(c, "multikueueconfigs", "MultiKueueConfig", {{"clusters", {"multikueue-test-worker1"}}}, "multikueue-test").status ==
          201);
  REQUIRE(create(c, "multikueueclusters", "MultiKueueCluster",
                 {{"clusterSource", {{"kubeConfig", {{"locationType", "Secret"}, {"location", "worker1-secret"}}}}}},
                 "multikueue-test-worker1")
              .status == 201);
}

std::string kubeconfig_yaml(const std::string& server, const std::string& user_yaml, const std::string& cluster_extra = "") {
  return "apiVersion: v1\nkind: Config\ncurrent-context: w\nclusters:\n- name: w\n  cluster:\n    server: " + server + "\n" +
         cluster_extra + "contexts:\n- name: w\n  context:\n    cluster: w\n    user: u\nusers:\n- name: u\n  user:\n" + user_yaml;
}

}  // namespace

TEST_CASE("controllers: the tutorial's objects without a worker are inactive, with Kueue's reasons", "[sandbox][controllers]") {
  auto c = mkq::sandbox::testing::memory_cluster();
  install_kueue(*c);
  tutorial_objects(*c);
  CHECK(line(*c, "MC", "multikueueclusters/multikueue-test-worker1") ==
        "MC - Active: False Reason: BadKubeConfig Message: load client config failed: secrets \"worker1-secret\" not found");
  CHECK(line(*c, "AC", "admissionchecks/sample-multikueue") ==
        "AC - Active: False Reason: NoUsableClusters Message: Inactive clusters: [multikueue-test-worker1]");
  CHECK(line(*c, "CQ", "clusterqueues/cluster-queue") ==
        "CQ - Active: False Reason: AdmissionCheckInactive Message: Can't admit new workloads: references inactive "
        "AdmissionCheck(s): [sample-multikueue].");
  CHECK(line(*c, "LQ", "namespaces/team/localqueues/user-queue") ==
        "LQ - Active: False Reason: ClusterQueueIsInactive Message: Can't submit new workloads to clusterQueue");

  // A Secret without the key, then with an insecure kubeconfig.
  create_secret(*c, "worker1-secret", {{"other", mkq::sandbox::base64("x")}});
  CHECK(line(*c, "MC", "multikueueclusters/multikueue-test-worker1") ==
        "MC - Active: False Reason: BadKubeConfig Message: load client config failed: key \"kubeconfig\" not found in secret "
        "\"worker1-secret\"");
  const auto insecure = [&](const std::string& kubeconfig) {
    json patch = {{"data", {{"kubeconfig", mkq::sandbox::base64(kubeconfig)}}}};
    REQUIRE(c->handle(request("PATCH", "/api/v1/namespaces/kueue-system/secrets/worker1-secret", patch.dump(), {},
                              "application/merge-patch+json"))
                .status == 200);
    return active(*c, "multikueueclusters/multikueue-test-worker1");
  };
  auto cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    tokenFile: /var/run/token\n"));
  CHECK(cond["reason"] == "InsecureKubeConfig");
  CHECK(cond["message"] == "tokenFile is not allowed");
  cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    token: abc\n", "    insecure-skip-tls-verify: true\n"));
  CHECK(cond["message"] == "insecure TLS verification is not allowed for cluster w");
  cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    token: abc\n", "    certificate-authority: /ca.crt\n"));
  CHECK(cond["message"] == "certificate-authority file paths are not allowed, use certificate-authority-data for cluster w");
  cond = insecure(kubeconfig_yaml("\"\"", "    token: abc\n"));
  CHECK(cond["message"] == "server URL is required for cluster w");
  cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    exec:\n      command: x\n"));
  CHECK(cond["message"] == "exec plugins are not allowed");
  cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    auth-provider:\n      name: gcp\n"));
  CHECK(cond["message"] == "auth providers are not allowed");
  cond = insecure(kubeconfig_yaml("https://127.0.0.1:1", "    username: a\n    password: b\n"));
  CHECK(cond["message"] == "basic auth is not allowed");
  CHECK(cond["status"] == "False");
}

TEST_CASE("controllers: ClusterQueue reasons, LocalQueue, finalizers, idempotence", "[sandbox][controllers]") {
  auto c = mkq::sandbox::testing::memory_cluster();
  install_kueue(*c);
  const json rg = json::parse(R"([{"coveredResources": ["cpu"], "flavors": [{"name": "rf", "resources": [{"name": "cpu", "nominalQuota": 1}]}]}])");
  REQUIRE(create(*c, "clusterqueues", "ClusterQueue", {{"resourceGroups", rg}}, "cq").status == 201);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "FlavorNotFound");
  CHECK(active(*c, "clusterqueues/cq")["message"] == "Can't admit new workloads: references missing ResourceFlavor(s): [rf].");
  REQUIRE(create(*c, "namespaces/team/localqueues", "LocalQueue", {{"clusterQueue", "nope"}}, "lq").status == 201);
  CHECK(active(*c, "namespaces/team/localqueues/lq")["reason"] == "ClusterQueueDoesNotExist");

  REQUIRE(create(*c, "resourceflavors", "ResourceFlavor", json::object(), "rf").status == 201);
  CHECK(line(*c, "CQ", "clusterqueues/cq") == "CQ - Active: True Reason: Ready Message: Can admit new workloads");
  // Finalizers on ClusterQueues and ResourceFlavors.
  for (const char* path : {"clusterqueues/cq", "resourceflavors/rf"}) {
    CHECK(get(*c, path)["metadata"]["finalizers"] == json::array({"kueue.x-k8s.io/resource-in-use"}));
  }
  // Idempotent: an unrelated Kueue write does not touch the ClusterQueue.
  const std::string rv = get(*c, "clusterqueues/cq")["metadata"]["resourceVersion"];
  REQUIRE(create(*c, "topologies", "Topology", {{"levels", json::array()}}, "other").status == 201);
  CHECK(get(*c, "clusterqueues/cq")["metadata"]["resourceVersion"] == rv);

  // LocalQueue pointing at an active ClusterQueue.
  json patch = {{"spec", {{"clusterQueue", "cq"}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "namespaces/team/localqueues/lq", patch.dump(), {}, "application/merge-patch+json")).status ==
          200);
  CHECK(line(*c, "LQ", "namespaces/team/localqueues/lq") ==
        "LQ - Active: True Reason: Ready Message: Can submit new workloads to localQueue");

  // Stopped.
  patch = {{"spec", {{"stopPolicy", "Hold"}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "clusterqueues/cq", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "Stopped");
  CHECK(active(*c, "clusterqueues/cq")["message"] == "Can't admit new workloads: is stopped.");
  CHECK(active(*c, "namespaces/team/localqueues/lq")["reason"] == "ClusterQueueIsInactive");
  patch = {{"spec", {{"stopPolicy", "None"}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "clusterqueues/cq", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "Ready");

  // TopologyNotFound (a TAS flavor whose Topology is missing).
  patch = {{"spec", {{"topologyName", "topo"}, {"nodeLabels", {{"a", "b"}}}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "resourceflavors/rf", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "TopologyNotFound");
  REQUIRE(create(*c, "topologies", "Topology", {{"levels", json::array()}}, "topo").status == 201);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "Ready");

  // Admission checks: missing, multiple MultiKueue, per flavor.
  const json mk = {{"controllerName", "kueue.x-k8s.io/multikueue"},
                   {"parameters", {{"apiGroup", "kueue.x-k8s.io"}, {"kind", "MultiKueueConfig"}, {"name", "cfg"}}}};
  patch = {{"spec", {{"admissionChecksStrategy", {{"admissionChecks", {{{"name", "ac1"}}}}}}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "clusterqueues/cq", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["message"] == "Can't admit new workloads: references missing AdmissionCheck(s): [ac1].");
  REQUIRE(create(*c, "admissionchecks", "AdmissionCheck", mk, "ac1").status == 201);
  REQUIRE(create(*c, "admissionchecks", "AdmissionCheck", mk, "ac2").status == 201);
  CHECK(active(*c, "admissionchecks/ac1")["reason"] == "BadConfig");
  CHECK(active(*c, "admissionchecks/ac1")["message"] ==
        "Cannot load the AdmissionChecks parameters: multikueueconfigs.kueue.x-k8s.io \"cfg\" not found");
  REQUIRE(create(*c, "multikueueconfigs", "MultiKueueConfig", {{"clusters", {"a", "b"}}}, "cfg").status == 201);
  REQUIRE(create(*c, "multikueueclusters", "MultiKueueCluster", {{"clusterSource", {{"clusterProfileRef", {{"name", "p"}}}}}}, "a")
              .status == 201);
  CHECK(active(*c, "multikueueclusters/a")["reason"] == "MultiKueueClusterProfileFeatureDisabled");
  CHECK(active(*c, "admissionchecks/ac1")["message"] == "Missing clusters: [b], Inactive clusters: [a]");
  CHECK(active(*c, "admissionchecks/ac1")["reason"] == "NoUsableClusters");
  patch = {{"spec", {{"admissionChecksStrategy", {{"admissionChecks", {{{"name", "ac1"}}, {{"name", "ac2"}}}}}}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "clusterqueues/cq", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["reason"] == "AdmissionCheckInactive");
  CHECK(active(*c, "clusterqueues/cq")["message"] ==
        "Can't admit new workloads: references inactive AdmissionCheck(s): [ac1 ac2], Cannot use multiple MultiKueue "
        "AdmissionChecks on the same ClusterQueue, found: ac1, ac2.");
  patch = {{"spec", {{"admissionChecksStrategy", {{"admissionChecks", {{{"name", "ac1"}, {"onFlavors", {"rf"}}}}}}}}}};
  REQUIRE(c->handle(request("PATCH", kBase + "clusterqueues/cq", patch.dump(), {}, "application/merge-patch+json")).status == 200);
  CHECK(active(*c, "clusterqueues/cq")["message"] ==
        "Can't admit new workloads: references inactive AdmissionCheck(s): [ac1], Cannot specify MultiKueue AdmissionCheck "
        "per flavor, found: ac1.");
  // Bad parameters.
  json bad = mk;
  bad["parameters"]["kind"] = "Other";
  REQUIRE(create(*c, "admissionchecks", "AdmissionCheck", bad, "ac3").status == 201);
  CHECK(active(*c, "admissionchecks/ac3")["message"] ==
        "Cannot load the AdmissionChecks parameters: wrong kind \"Other\", expecting \"MultiKueueConfig\": bad parameters reference");

  // Deleting: the finalizer is removed and the object goes.
  CHECK(c->handle(request("DELETE", kBase + "clusterqueues/cq")).status == 200);
  CHECK(c->handle(request("GET", kBase + "clusterqueues/cq")).status == 404);
  CHECK(active(*c, "namespaces/team/localqueues/lq")["reason"] == "ClusterQueueDoesNotExist");
  CHECK(c->handle(request("DELETE", kBase + "resourceflavors/rf")).status == 200);
  CHECK(c->handle(request("GET", kBase + "resourceflavors/rf")).status == 404);
}

TEST_CASE("controllers: a MultiKueueCluster really connects to its worker", "[sandbox][controllers]") {
  mkq::sandbox::Pki pki;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&pki, &error));
  auto worker = mkq::sandbox::testing::memory_cluster();
  install_kueue(*worker);
  mkq::sandbox::ServerOptions options;
  options.threads = 4;
  mkq::sandbox::HttpsServer server(*worker, pki, options);
  REQUIRE(server.bind(&error));
  server.start();

  auto manager = mkq::sandbox::testing::memory_cluster();
  install_kueue(*manager);
  tutorial_objects(*manager);
  const std::string kubeconfig = mkq::sandbox::make_kubeconfig(pki, {{"worker1", server.port()}});
  create_secret(*manager, "worker1-secret", {{"kubeconfig", mkq::sandbox::base64(kubeconfig)}});

  const auto wait_for = [&](const std::string& want) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    std::string got;
    while (std::chrono::steady_clock::now() < deadline) {
      got = line(*manager, "MC", "multikueueclusters/multikueue-test-worker1");
      if (got == want) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return got;
  };
  CHECK(wait_for("MC - Active: True Reason: Active Message: Connected") == "MC - Active: True Reason: Active Message: Connected");
  // The tutorial's three jsonpath checks.
  CHECK(line(*manager, "CQ", "clusterqueues/cluster-queue") == "CQ - Active: True Reason: Ready Message: Can admit new workloads");
  CHECK(line(*manager, "AC", "admissionchecks/sample-multikueue") ==
        "AC - Active: True Reason: Active Message: The admission check is active");
  CHECK(line(*manager, "LQ", "namespaces/team/localqueues/user-queue") ==
        "LQ - Active: True Reason: Ready Message: Can submit new workloads to localQueue");

  // A worker that stops answering: ClientConnectionFailed on the next probe.
  server.stop();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  json cond;
  while (std::chrono::steady_clock::now() < deadline) {
    cond = active(*manager, "multikueueclusters/multikueue-test-worker1");
    if (cond.value("reason", "") == "ClientConnectionFailed") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(cond.value("reason", "") == "ClientConnectionFailed");
  CHECK(line(*manager, "CQ", "clusterqueues/cluster-queue").find("AdmissionCheckInactive") != std::string::npos);
}

TEST_CASE("controllers: the connection probe trusts the kubeconfig's CA and no other", "[sandbox][controllers]") {
  mkq::sandbox::Pki pki, other_pki;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&pki, &error));
  REQUIRE(mkq::sandbox::generate_pki(&other_pki, &error));
  auto worker = mkq::sandbox::testing::memory_cluster();
  install_kueue(*worker);
  mkq::sandbox::ServerOptions options;
  options.threads = 2;
  mkq::sandbox::HttpsServer server(*worker, pki, options);
  REQUIRE(server.bind(&error));
  server.start();

  const auto parsed = [](const std::string& kubeconfig) {
    std::string parse_error;
    auto value = mkq::sandbox::parse_kubeconfig(kubeconfig, &parse_error);
    REQUIRE(value);
    return *value;
  };
  const auto ok = mkq::sandbox::probe_connection(parsed(mkq::sandbox::make_kubeconfig(pki, {{"w", server.port()}})), 5);
  CHECK(ok.ok);
  CHECK(ok.message == "Connected");
  // The same server, but a kubeconfig naming another CA (and that CA's client
  // certificate): the server's certificate does not verify.
  const auto refused =
      mkq::sandbox::probe_connection(parsed(mkq::sandbox::make_kubeconfig(other_pki, {{"w", server.port()}})), 5);
  CHECK_FALSE(refused.ok);
  CHECK(refused.message.find("tls: failed to verify certificate") != std::string::npos);
  server.stop();
}
