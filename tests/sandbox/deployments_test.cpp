// apps/v1 Deployments in the sandbox (sandbox/deployments.h) through
// Cluster::handle(): defaults and checks, the simulated rollout a Deployment
// controller makes, Kueue's installation objects, and the simulated Kueue
// reading its configuration when its controller manager restarts.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "sandbox/kueue_install.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::ClusterOptions;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using nlohmann::json;
using namespace std::chrono_literals;

const std::string kDeployments = "/apis/apps/v1/namespaces/team/deployments";

std::unique_ptr<Cluster> cluster_with_delay(std::chrono::milliseconds delay,
                                            std::vector<std::string>* log = nullptr,
                                            std::mutex* log_mutex = nullptr) {
  ClusterOptions options;
  options.rollout_delay = delay;
  if (log != nullptr) {
    options.log = [log, log_mutex](const std::string& line) {
      const std::lock_guard<std::mutex> lock(*log_mutex);
      log->push_back(line);
    };
  }
  std::string error;
  auto cluster = Cluster::open("test", ":memory:", options, &error);
  REQUIRE(cluster);
  return cluster;
}

void create_namespace(Cluster& c, const std::string& name) {
  REQUIRE(
      c.handle(request("POST", "/api/v1/namespaces", json{{"metadata", {{"name", name}}}}.dump())).status ==
      201);
}

json web(const std::string& name = "web") {
  return json::parse(R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": ")" + name +
                     R"("},
    "spec": {"selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})");
}

json get(Cluster& c, const std::string& path) { return body_of(c.handle(request("GET", path))); }

json condition(const json& deployment, const std::string& type) {
  for (const json& c : deployment.value("status", json::object()).value("conditions", json::array())) {
    if (c.value("type", "") == type) return c;
  }
  return nullptr;
}

// Polls until `done` holds for the object at `path` (at most 5 s).
json wait_for(Cluster& c, const std::string& path, const std::function<bool(const json&)>& done) {
  json object;
  for (int i = 0; i < 500; ++i) {
    object = get(c, path);
    if (done(object)) return object;
    std::this_thread::sleep_for(10ms);
  }
  FAIL("timed out waiting on " << path << ": " << object.dump());
  return object;
}

bool available(const json& d) {
  return condition(d, "Available").value("status", "") == "True" &&
         condition(d, "Progressing").value("reason", "") == "NewReplicaSetAvailable";
}

ApiResponse restart(Cluster& c, const std::string& path, const std::string& when) {
  const json patch = {
      {"spec",
       {{"template", {{"metadata", {{"annotations", {{"kubectl.kubernetes.io/restartedAt", when}}}}}}}}}};
  return c.handle(request("PATCH", path, patch.dump(), {}, "application/strategic-merge-patch+json"));
}

TEST_CASE("deployments: served as apps/v1, defaulted and checked as kube-apiserver does",
          "[sandbox][deployments]") {
  auto c = cluster_with_delay(50ms);
  create_namespace(*c, "team");
  const json resources = get(*c, "/apis/apps/v1");
  // apps/v1 lists daemonsets first (by name); deployments, then its subresources /scale and /status.
  std::vector<std::string> names;
  json deployments;
  for (const json& resource : resources.value("resources", json::array())) {
    names.push_back(resource["name"]);
    if (resource["name"] == "deployments") deployments = resource;
  }
  CHECK(names == std::vector<std::string>{"daemonsets", "daemonsets/status", "deployments", "deployments/scale",
                                          "deployments/status", "replicasets", "replicasets/scale",
                                          "replicasets/status", "statefulsets", "statefulsets/scale",
                                          "statefulsets/status"});
  CHECK(deployments["shortNames"] == json{"deploy"});

  json no_selector = web();
  no_selector["spec"].erase("selector");
  ApiResponse r = c->handle(request("POST", kDeployments, no_selector.dump()));
  CHECK(r.status == 422);
  CHECK(body_of(r)["message"] == "Deployment.apps \"web\" is invalid: spec.selector: Required value");

  json mismatched = web();
  mismatched["spec"]["template"]["metadata"]["labels"]["app"] = "other";
  r = c->handle(request("POST", kDeployments, mismatched.dump()));
  CHECK(r.status == 422);
  CHECK(body_of(r)["message"].get<std::string>().find(
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"other\"}: `selector` "
            "does not "
            "match template `labels`") != std::string::npos);

  r = c->handle(request("POST", kDeployments, web().dump()));
  REQUIRE(r.status == 201);
  const json created = body_of(r);
  CHECK(created["metadata"]["generation"] == 1);
  CHECK(created["spec"]["replicas"] == 1);
  CHECK(created["spec"]["strategy"] ==
        json{{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", "25%"}, {"maxSurge", "25%"}}}});
  CHECK(created["spec"]["revisionHistoryLimit"] == 10);
  CHECK(created["spec"]["progressDeadlineSeconds"] == 600);
  CHECK(created["spec"]["template"]["spec"]["restartPolicy"] == "Always");

  json reselected = web();
  reselected["spec"]["selector"]["matchLabels"]["tier"] = "front";
  reselected["spec"]["template"]["metadata"]["labels"]["tier"] = "front";
  r = c->handle(request("PUT", kDeployments + "/web", reselected.dump()));
  CHECK(r.status == 422);
  CHECK(
      body_of(r)["message"].get<std::string>().find(
          "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", "
          "\"tier\":\"front\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable") !=
      std::string::npos);
}

TEST_CASE(
    "deployments: a new Deployment rolls out, a restart keeps the old pod until the new one is available",
    "[sandbox][deployments]") {
  auto c = cluster_with_delay(100ms);
  create_namespace(*c, "team");
  REQUIRE(c->handle(request("POST", kDeployments, web().dump())).status == 201);

  const json fresh = get(*c, kDeployments + "/web");
  CHECK(fresh["status"]["observedGeneration"] == 1);
  CHECK(fresh["status"]["replicas"] == 1);
  CHECK(fresh["status"]["updatedReplicas"] == 1);
  CHECK(fresh["status"]["unavailableReplicas"] == 1);
  CHECK_FALSE(fresh["status"].contains("availableReplicas"));
  CHECK(condition(fresh, "Available")["reason"] == "MinimumReplicasUnavailable");
  CHECK(condition(fresh, "Progressing")["reason"] == "ReplicaSetUpdated");
  CHECK(fresh["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "1");

  const json ready = wait_for(*c, kDeployments + "/web", available);
  CHECK(ready["status"]["availableReplicas"] == 1);
  CHECK(ready["status"]["readyReplicas"] == 1);
  CHECK_FALSE(ready["status"].contains("unavailableReplicas"));
  const std::string message = condition(ready, "Progressing")["message"];
  CHECK(message.rfind("ReplicaSet \"web-", 0) == 0);
  CHECK(message.find("\" has successfully progressed.") != std::string::npos);

  const ApiResponse patched = restart(*c, kDeployments + "/web", "2026-01-01T00:00:00Z");
  REQUIRE(patched.status == 200);
  const json rolling = get(*c, kDeployments + "/web");
  CHECK(rolling["metadata"]["generation"] == 2);
  CHECK(rolling["status"]["observedGeneration"] == 2);
  CHECK(rolling["status"]["replicas"] == 2);  // the old pod and the new one
  CHECK(rolling["status"]["updatedReplicas"] == 1);
  CHECK(rolling["status"]["availableReplicas"] == 1);
  CHECK(condition(rolling, "Available")["status"] == "True");
  CHECK(condition(rolling, "Progressing")["reason"] == "ReplicaSetUpdated");
  CHECK(condition(rolling, "Progressing")["message"] != message);  // a new ReplicaSet
  CHECK(rolling["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "2");

  const json rolled = wait_for(*c, kDeployments + "/web", [](const json& d) {
    return d["status"].value("observedGeneration", 0) == 2 && available(d);
  });
  CHECK(rolled["status"]["replicas"] == 1);
  CHECK(rolled["status"]["updatedReplicas"] == 1);
}

TEST_CASE("deployments: a scale is taken at once, a paused Deployment does not roll out",
          "[sandbox][deployments]") {
  auto c = cluster_with_delay(50ms);
  create_namespace(*c, "team");
  REQUIRE(c->handle(request("POST", kDeployments, web().dump())).status == 201);
  wait_for(*c, kDeployments + "/web", available);

  REQUIRE(c->handle(request("PATCH", kDeployments + "/web", R"({"spec": {"replicas": 3}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  const json scaled = get(*c, kDeployments + "/web");
  CHECK(scaled["status"]["observedGeneration"] == 2);
  CHECK(scaled["status"]["availableReplicas"] == 3);

  REQUIRE(c->handle(request("PATCH", kDeployments + "/web", R"({"spec": {"paused": true}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  REQUIRE(restart(*c, kDeployments + "/web", "2026-01-01T00:00:00Z").status == 200);
  std::this_thread::sleep_for(150ms);
  const json paused = get(*c, kDeployments + "/web");
  CHECK(paused["status"]["observedGeneration"] == 4);
  CHECK(condition(paused, "Progressing")["reason"] == "DeploymentPaused");
  CHECK(condition(paused, "Progressing")["status"] == "Unknown");
  CHECK(paused["status"]["availableReplicas"] == 3);
}

TEST_CASE("kueue install: Kueue's default configuration and its controller manager",
          "[sandbox][deployments]") {
  const auto objects = mkq::sandbox::kueue_install_objects();
  REQUIRE(objects.size() == 2);
  const json& config_map = objects[0];
  CHECK(config_map["metadata"]["name"] == "kueue-manager-config");
  CHECK(config_map["metadata"]["namespace"] == "kueue-system");
  const std::string text = config_map["data"]["controller_manager_config.yaml"];
  CHECK(text == mkq::sandbox::kueue_default_configuration());
  for (const char* setting :
       {"\nhealth:\n  healthProbeBindAddress: :8081\n", "\nmetrics:\n  bindAddress: :8443\n",
        "\nwebhook:\n  port: 9443\n", "\nleaderElection:\n  leaderElect: true\n",
        "\nclientConnection:\n  qps: 300\n", "  - \"batch/job\"\n"}) {
    CHECK(text.find(setting) != std::string::npos);
  }
  const json& deployment = objects[1];
  CHECK(deployment["kind"] == "Deployment");
  CHECK(deployment["metadata"]["name"] == "kueue-controller-manager");
  CHECK(deployment["spec"]["template"]["spec"]["volumes"][2] ==
        json{{"configMap", {{"name", "kueue-manager-config"}}}, {"name", "manager-config"}});

  auto c = cluster_with_delay(50ms);
  create_namespace(*c, "kueue-system");
  CHECK(c->handle(request("POST", "/api/v1/namespaces/kueue-system/configmaps", config_map.dump())).status ==
        201);
  CHECK(c->handle(request("POST", "/apis/apps/v1/namespaces/kueue-system/deployments", deployment.dump()))
            .status == 201);
}

// A ClusterProfile CRD (multicluster.x-k8s.io/v1alpha1), schema-less.
json cluster_profile_crd() {
  json crd = kueue_crd("clusterprofiles", "ClusterProfile", true);
  crd["metadata"]["name"] = "clusterprofiles.multicluster.x-k8s.io";
  crd["spec"]["group"] = "multicluster.x-k8s.io";
  crd["spec"]["versions"][0]["name"] = "v1alpha1";
  return crd;
}

TEST_CASE("simulated Kueue reads its configuration when its controller manager restarts, and behaves by it",
          "[sandbox][deployments][controllers]") {
  std::vector<std::string> log;
  std::mutex log_mutex;
  auto c = cluster_with_delay(50ms, &log, &log_mutex);
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            kueue_crd("multikueueclusters", "MultiKueueCluster", false).dump()))
              .status == 201);
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            cluster_profile_crd().dump()))
              .status == 201);
  create_namespace(*c, "kueue-system");
  const std::string mkc = "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/w1";
  const json cluster = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                        {"kind", "MultiKueueCluster"},
                        {"metadata", {{"name", "w1"}}},
                        {"spec", {{"clusterSource", {{"clusterProfileRef", {{"name", "w1"}}}}}}}};
  REQUIRE(
      c->handle(request("POST", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters", cluster.dump())).status ==
      201);
  const auto reason = [&] {
    const json status = get(*c, mkc).value("status", json::object());
    for (const json& cond : status.value("conditions", json::array())) {
      if (cond.value("type", "") == "Active")
        return cond.value("reason", "") + ": " + cond.value("message", "");
    }
    return std::string("none");
  };
  CHECK(reason() ==
        "MultiKueueClusterProfileFeatureDisabled: load client config failed: MultiKueueClusterProfile "
        "feature gate is disabled");

  // The configuration turns the gate on; Kueue reads it only when it restarts.
  const std::string configuration =
      "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nfeatureGates:\n  "
      "MultiKueueClusterProfile: true\n"
      "multiKueue:\n  clusterProfile:\n    accessProviders:\n    - name: secretreader\n      execConfig:\n"
      "        apiVersion: client.authentication.k8s.io/v1\n        command: /plugins/secretreader\n";
  json config_map = mkq::sandbox::kueue_install_objects()[0];
  config_map["data"]["controller_manager_config.yaml"] = configuration;
  REQUIRE(
      c->handle(request("POST", "/api/v1/namespaces/kueue-system/configmaps", config_map.dump())).status ==
      201);
  c->handle(request("PATCH", mkc, R"({"metadata": {"labels": {"touched": "yes"}}})", {},
                    "application/merge-patch+json"));
  CHECK(reason().rfind("MultiKueueClusterProfileFeatureDisabled", 0) == 0);

  const std::string deployments = "/apis/apps/v1/namespaces/kueue-system/deployments";
  REQUIRE(c->handle(request("POST", deployments, mkq::sandbox::kueue_install_objects()[1].dump())).status ==
          201);
  wait_for(*c, deployments + "/kueue-controller-manager", available);
  CHECK(
      reason() ==
      "BadClusterProfile: load client config failed: clusterprofiles.multicluster.x-k8s.io \"w1\" not found");
  {
    const std::lock_guard<std::mutex> lock(log_mutex);
    REQUIRE_FALSE(log.empty());
    CHECK(log.back().rfind("cluster test: Kueue's controller manager started with the configuration "
                           "kueue-system/kueue-manager-config (resourceVersion ",
                           0) == 0);
    CHECK(log.back().find(
              "feature gate MultiKueueClusterProfile=true, ClusterProfile access providers [secretreader]") !=
          std::string::npos);
  }

  const std::string profiles = "/apis/multicluster.x-k8s.io/v1alpha1/namespaces/kueue-system/clusterprofiles";
  json profile = {{"apiVersion", "multicluster.x-k8s.io/v1alpha1"},
                  {"kind", "ClusterProfile"},
                  {"metadata", {{"name", "w1"}}},
                  {"spec", {{"clusterManager", {{"name", "test"}}}}}};
  REQUIRE(c->handle(request("POST", profiles, profile.dump())).status == 201);
  const auto offer = [&](const std::string& provider) {
    const json status = {{"status",
                          {{"accessProviders",
                            {{{"name", provider}, {"cluster", {{"server", "https://w1.example:6443"}}}}}}}}};
    REQUIRE(c->handle(
                 request("PATCH", profiles + "/w1/status", status.dump(), {}, "application/merge-patch+json"))
                .status == 200);
  };
  offer("google");
  CHECK(reason() ==
        "BadClusterProfile: load client config failed: no matching cluster accessor found for cluster "
        "profile \"w1\"");
  offer("secretreader");
  CHECK(reason() ==
        "ClientConnectionFailed: the sandbox does not run exec credential plugins: access provider "
        "\"secretreader\" (/plugins/secretreader) was not run");

  // Back to the default configuration: after the next restart the gate is off again.
  config_map["data"]["controller_manager_config.yaml"] =
      std::string(mkq::sandbox::kueue_default_configuration());
  REQUIRE(c->handle(request("PUT", "/api/v1/namespaces/kueue-system/configmaps/kueue-manager-config",
                            config_map.dump()))
              .status == 200);
  CHECK(reason().rfind("ClientConnectionFailed", 0) == 0);  // not restarted yet
  REQUIRE(restart(*c, deployments + "/kueue-controller-manager", "2026-01-01T00:00:00Z").status == 200);
  wait_for(*c, mkc,
           [&](const json&) { return reason().rfind("MultiKueueClusterProfileFeatureDisabled", 0) == 0; });

  // A configuration Kueue cannot read: it does not run, and writes no status.
  config_map["data"]["controller_manager_config.yaml"] = "featureGates: [unclosed";
  REQUIRE(c->handle(request("PUT", "/api/v1/namespaces/kueue-system/configmaps/kueue-manager-config",
                            config_map.dump()))
              .status == 200);
  REQUIRE(restart(*c, deployments + "/kueue-controller-manager", "2026-01-02T00:00:00Z").status == 200);
  wait_for(*c, deployments + "/kueue-controller-manager",
           [](const json& d) { return d["status"].value("observedGeneration", 0) == 3 && available(d); });
  const json other = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                      {"kind", "MultiKueueCluster"},
                      {"metadata", {{"name", "w2"}}},
                      {"spec", {{"clusterSource", {{"clusterProfileRef", {{"name", "w2"}}}}}}}};
  REQUIRE(
      c->handle(request("POST", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters", other.dump())).status ==
      201);
  CHECK_FALSE(get(*c, "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/w2").contains("status"));
  const std::lock_guard<std::mutex> lock(log_mutex);
  CHECK(log.back().rfind(
            "cluster test: Kueue's controller manager cannot start: kueue-system/kueue-manager-config: ",
            0) == 0);
}

}  // namespace
