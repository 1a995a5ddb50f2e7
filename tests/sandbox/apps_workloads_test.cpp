// apps/v1 ReplicaSets, StatefulSets and DaemonSets in the sandbox
// (sandbox/apps_workloads.h) and the ReplicaSets the Deployment controller
// keeps (sandbox/deployments.h), through Cluster::handle(): v1 defaults,
// kube-apiserver's validation messages, the simulated statuses, the table
// printers, the scale subresource, garbage collection of a deleted
// Deployment's ReplicaSets.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <thread>

#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::ClusterOptions;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::request;
using nlohmann::json;
using namespace std::chrono_literals;

const std::string kApps = "/apis/apps/v1/namespaces/team/";

std::unique_ptr<Cluster> cluster(std::chrono::milliseconds rollout_delay = 0ms) {
  ClusterOptions options;
  options.rollout_delay = rollout_delay;
  std::string error;
  auto c = Cluster::open("test", ":memory:", options, &error);
  REQUIRE(c);
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})")).status == 201);
  return c;
}

// A workload of `kind` selecting app=web, its template labelled app=web.
json workload(const std::string& kind, const std::string& name = "web") {
  json object = json::parse(R"({"apiVersion": "apps/v1",
    "spec": {"selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}})");
  object["kind"] = kind;
  object["metadata"] = {{"name", name}};
  return object;
}

ApiResponse create(Cluster& c, const std::string& resource, const json& object) {
  return c.handle(request("POST", kApps + resource, object.dump()));
}

json get(Cluster& c, const std::string& path) { return body_of(c.handle(request("GET", path))); }

std::string message_of(const ApiResponse& response) { return body_of(response).value("message", ""); }

json table(Cluster& c, const std::string& path) {
  ApiRequest r = request("GET", path);
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io";
  return body_of(c.handle(r));
}

std::vector<std::string> column_names(const json& table) {
  std::vector<std::string> names;
  for (const json& column : table["columnDefinitions"]) {
    names.push_back(column["name"].get<std::string>() + (column["priority"] == 1 ? "(wide)" : ""));
  }
  return names;
}

// The ReplicaSets in team, polled until `done` holds (at most 5 s).
json replica_sets_when(Cluster& c, const std::function<bool(const json&)>& done) {
  json list;
  for (int i = 0; i < 500; ++i) {
    list = get(c, kApps + "replicasets");
    if (done(list["items"])) return list["items"];
    std::this_thread::sleep_for(10ms);
  }
  FAIL("timed out waiting on the ReplicaSets: " << list.dump());
  return list;
}

}  // namespace

TEST_CASE("apps workloads: ReplicaSets, StatefulSets and DaemonSets get apps/v1's defaults",
          "[sandbox][apps]") {
  auto c = cluster();
  REQUIRE(create(*c, "replicasets", workload("ReplicaSet")).status == 201);
  const json rs = get(*c, kApps + "replicasets/web");
  CHECK(rs["spec"]["replicas"] == 1);
  CHECK(rs["metadata"]["generation"] == 1);
  CHECK(rs["spec"]["template"]["spec"]["restartPolicy"] == "Always");
  CHECK(rs["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] == 30);
  CHECK(rs["spec"]["template"]["spec"]["dnsPolicy"] == "ClusterFirst");
  CHECK(rs["spec"]["template"]["spec"]["schedulerName"] == "default-scheduler");

  REQUIRE(create(*c, "statefulsets", workload("StatefulSet")).status == 201);
  const json sts = get(*c, kApps + "statefulsets/web");
  CHECK(sts["spec"]["replicas"] == 1);
  CHECK(sts["spec"]["podManagementPolicy"] == "OrderedReady");
  CHECK(sts["spec"]["revisionHistoryLimit"] == 10);
  // partition only: maxUnavailable is defaulted behind the MaxUnavailableStatefulSet gate, off in 1.33.
  CHECK(sts["spec"]["updateStrategy"] == json{{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}});
  CHECK(sts["spec"]["persistentVolumeClaimRetentionPolicy"] ==
        json{{"whenDeleted", "Retain"}, {"whenScaled", "Retain"}});
  CHECK_FALSE(sts["spec"].contains("serviceName"));  // optional since 1.33

  // An explicit RollingUpdate without rollingUpdate gets no partition (SetDefaults_StatefulSet).
  json explicit_strategy = workload("StatefulSet", "db");
  explicit_strategy["spec"]["updateStrategy"] = {{"type", "RollingUpdate"}};
  REQUIRE(create(*c, "statefulsets", explicit_strategy).status == 201);
  CHECK(get(*c, kApps + "statefulsets/db")["spec"]["updateStrategy"] == json{{"type", "RollingUpdate"}});

  REQUIRE(create(*c, "daemonsets", workload("DaemonSet")).status == 201);
  const json ds = get(*c, kApps + "daemonsets/web");
  CHECK(ds["spec"]["updateStrategy"] ==
        json{{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 1}, {"maxSurge", 0}}}});
  CHECK(ds["spec"]["revisionHistoryLimit"] == 10);
  CHECK_FALSE(ds["spec"].contains("replicas"));
}

TEST_CASE("apps workloads: refused with kube-apiserver's messages", "[sandbox][apps]") {
  auto c = cluster();
  json mismatched = workload("ReplicaSet");
  mismatched["spec"]["template"]["metadata"]["labels"]["app"] = "other";
  ApiResponse r = create(*c, "replicasets", mismatched);
  CHECK(r.status == 422);
  CHECK(message_of(r) == "ReplicaSet.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
                         "map[string]string{\"app\":\"other\"}: `selector` does not match template `labels`");

  json negative = workload("ReplicaSet");
  negative["spec"]["replicas"] = -1;
  r = create(*c, "replicasets", negative);
  CHECK(message_of(r) ==
        "ReplicaSet.apps \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");

  json no_selector = workload("DaemonSet");
  no_selector["spec"].erase("selector");
  CHECK(message_of(create(*c, "daemonsets", no_selector)) ==
        "DaemonSet.apps \"web\" is invalid: spec.selector: Required value");

  json empty_selector = workload("StatefulSet");
  empty_selector["spec"]["selector"] = json::object();
  CHECK(message_of(create(*c, "statefulsets", empty_selector)) ==
        "StatefulSet.apps \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]"
        "string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset");

  json never = workload("DaemonSet");
  never["spec"]["template"]["spec"]["restartPolicy"] = "Never";
  CHECK(message_of(create(*c, "daemonsets", never)) ==
        "DaemonSet.apps \"web\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": "
        "supported values: \"Always\"");

  json policy = workload("StatefulSet");
  policy["spec"]["podManagementPolicy"] = "Sometimes";
  CHECK(message_of(create(*c, "statefulsets", policy)) ==
        "StatefulSet.apps \"web\" is invalid: spec.podManagementPolicy: Unsupported value: \"Sometimes\": "
        "supported values: \"OrderedReady\", \"Parallel\"");

  json stuck = workload("DaemonSet");
  stuck["spec"]["updateStrategy"] = {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxUnavailable", 0}}}};
  CHECK(message_of(create(*c, "daemonsets", stuck)) ==
        "DaemonSet.apps \"web\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: "
        "may not be 0 when `maxSurge` is 0");

  // A selector with matchExpressions matches by them.
  json expressions = workload("ReplicaSet", "expr");
  expressions["spec"]["selector"] = {{"matchExpressions", {{{"key", "app"}, {"operator", "In"}, {"values", {"web", "api"}}}}}};
  CHECK(create(*c, "replicasets", expressions).status == 201);

  // Updates: a ReplicaSet's selector is immutable, a StatefulSet's spec but for its listed fields.
  REQUIRE(create(*c, "replicasets", workload("ReplicaSet")).status == 201);
  json reselected = get(*c, kApps + "replicasets/web");
  reselected["spec"]["selector"]["matchLabels"]["tier"] = "front";
  reselected["spec"]["template"]["metadata"]["labels"]["tier"] = "front";
  r = c->handle(request("PUT", kApps + "replicasets/web", reselected.dump()));
  CHECK(r.status == 422);
  CHECK(message_of(r) == "ReplicaSet.apps \"web\" is invalid: spec.selector: Invalid value: v1.LabelSelector{"
                         "MatchLabels:map[string]string{\"app\":\"web\", \"tier\":\"front\"}, "
                         "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable");
  REQUIRE(create(*c, "statefulsets", workload("StatefulSet")).status == 201);
  json renamed = get(*c, kApps + "statefulsets/web");
  renamed["spec"]["serviceName"] = "web-headless";
  r = c->handle(request("PUT", kApps + "statefulsets/web", renamed.dump()));
  CHECK(message_of(r) ==
        "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than "
        "'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', "
        "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  json scaled = get(*c, kApps + "statefulsets/web");
  scaled["spec"]["replicas"] = 3;
  CHECK(c->handle(request("PUT", kApps + "statefulsets/web", scaled.dump())).status == 200);
}

TEST_CASE("apps workloads: their controllers' statuses, simulated", "[sandbox][apps]") {
  auto c = cluster();
  json rs = workload("ReplicaSet");
  rs["spec"]["replicas"] = 2;
  REQUIRE(create(*c, "replicasets", rs).status == 201);
  CHECK(get(*c, kApps + "replicasets/web")["status"] ==
        json{{"replicas", 2}, {"fullyLabeledReplicas", 2}, {"readyReplicas", 2}, {"availableReplicas", 2},
             {"observedGeneration", 1}});

  REQUIRE(create(*c, "statefulsets", workload("StatefulSet")).status == 201);
  json sts = get(*c, kApps + "statefulsets/web");
  CHECK(sts["status"]["readyReplicas"] == 1);
  CHECK(sts["status"]["availableReplicas"] == 1);
  CHECK(sts["status"]["currentRevision"] == sts["status"]["updateRevision"]);
  const std::string first_revision = sts["status"]["updateRevision"];
  CHECK(first_revision.rfind("web-", 0) == 0);
  sts["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:1.28";
  REQUIRE(c->handle(request("PUT", kApps + "statefulsets/web", sts.dump())).status == 200);
  sts = get(*c, kApps + "statefulsets/web");
  CHECK(sts["status"]["observedGeneration"] == 2);
  CHECK(sts["status"]["updateRevision"] != first_revision);

  // A DaemonSet runs on the Nodes its nodeSelector matches.
  json ds = workload("DaemonSet");
  ds["spec"]["template"]["spec"]["nodeSelector"] = {{"pool", "gpu"}};
  REQUIRE(create(*c, "daemonsets", ds).status == 201);
  CHECK(get(*c, kApps + "daemonsets/web")["status"] ==
        json{{"currentNumberScheduled", 0}, {"numberMisscheduled", 0}, {"desiredNumberScheduled", 0},
             {"numberReady", 0}, {"observedGeneration", 1}});
  for (const auto& [name, pool] : {std::pair{"n1", "gpu"}, {"n2", "cpu"}, {"n3", "gpu"}}) {
    const json node = {{"metadata", {{"name", name}, {"labels", {{"pool", pool}}}}}};
    REQUIRE(c->handle(request("POST", "/api/v1/nodes", node.dump())).status == 201);
  }
  const json status = get(*c, kApps + "daemonsets/web")["status"];
  CHECK(status["desiredNumberScheduled"] == 2);
  CHECK(status["numberReady"] == 2);
  CHECK(status["updatedNumberScheduled"] == 2);
  CHECK(status["numberAvailable"] == 2);
}

TEST_CASE("apps workloads: tables as kube-apiserver's printers print them", "[sandbox][apps]") {
  auto c = cluster();
  json rs = workload("ReplicaSet");
  rs["spec"]["replicas"] = 3;
  REQUIRE(create(*c, "replicasets", rs).status == 201);
  json t = table(*c, kApps + "replicasets");
  CHECK(column_names(t) == std::vector<std::string>{"Name", "Desired", "Current", "Ready", "Age", "Containers(wide)",
                                                    "Images(wide)", "Selector(wide)"});
  REQUIRE(t["rows"].size() == 1);
  const json cells = t["rows"][0]["cells"];
  CHECK(cells[0] == "web");
  CHECK(cells[1] == 3);
  CHECK(cells[2] == 3);
  CHECK(cells[3] == 3);
  CHECK(cells[5] == "web");
  CHECK(cells[6] == "nginx:1.27");
  CHECK(cells[7] == "app=web");

  json sts = workload("StatefulSet");
  sts["spec"]["replicas"] = 2;
  REQUIRE(create(*c, "statefulsets", sts).status == 201);
  t = table(*c, kApps + "statefulsets");
  CHECK(column_names(t) == std::vector<std::string>{"Name", "Ready", "Age", "Containers(wide)", "Images(wide)"});
  CHECK(t["rows"][0]["cells"][1] == "2/2");

  json ds = workload("DaemonSet");
  ds["spec"]["template"]["spec"]["nodeSelector"] = {{"pool", "gpu"}, {"disk", "ssd"}};
  ds["spec"]["selector"] = {{"matchLabels", {{"app", "web"}}},
                            {"matchExpressions", {{{"key", "tier"}, {"operator", "NotIn"}, {"values", {"db"}}}}}};
  REQUIRE(create(*c, "daemonsets", ds).status == 201);
  t = table(*c, kApps + "daemonsets");
  CHECK(column_names(t) == std::vector<std::string>{"Name", "Desired", "Current", "Ready", "Up-to-date", "Available",
                                                    "Node Selector", "Age", "Containers(wide)", "Images(wide)",
                                                    "Selector(wide)"});
  const json ds_cells = t["rows"][0]["cells"];
  CHECK(ds_cells[1] == 0);
  CHECK(ds_cells[6] == "disk=ssd,pool=gpu");
  CHECK(ds_cells[10] == "app=web,tier notin (db)");

  // A Deployment's wide columns, as kube prints them.
  REQUIRE(c->handle(request("POST", kApps + "deployments", workload("Deployment").dump())).status == 201);
  t = table(*c, kApps + "deployments");
  CHECK(column_names(t) == std::vector<std::string>{"Name", "Ready", "Up-to-date", "Available", "Age",
                                                    "Containers(wide)", "Images(wide)", "Selector(wide)"});
}

TEST_CASE("apps workloads: a Deployment owns a ReplicaSet per pod template, and they go with it",
          "[sandbox][apps][deployments]") {
  auto c = cluster(50ms);
  json web = workload("Deployment");
  web["spec"]["replicas"] = 2;
  REQUIRE(c->handle(request("POST", kApps + "deployments", web.dump())).status == 201);
  const json deployment = get(*c, kApps + "deployments/web");
  json items = replica_sets_when(*c, [](const json& rs) {
    return rs.size() == 1 && rs[0]["status"].value("availableReplicas", 0) == 2;
  });
  const json first = items[0];
  const std::string hash = first["metadata"]["labels"]["pod-template-hash"];
  CHECK(first["metadata"]["name"] == "web-" + hash);
  CHECK(first["metadata"]["labels"]["app"] == "web");
  CHECK(first["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == "1");
  CHECK(first["metadata"]["annotations"]["deployment.kubernetes.io/desired-replicas"] == "2");
  CHECK(first["metadata"]["ownerReferences"] ==
        json::array({{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"name", "web"},
                      {"uid", deployment["metadata"]["uid"]}, {"controller", true}, {"blockOwnerDeletion", true}}}));
  CHECK(first["spec"]["selector"]["matchLabels"] == json{{"app", "web"}, {"pod-template-hash", hash}});
  CHECK(first["spec"]["template"]["metadata"]["labels"]["pod-template-hash"] == hash);
  CHECK(first["spec"]["replicas"] == 2);

  // A new template: a second ReplicaSet at revision 2; once rolled out, the first has no pods.
  const json patch = {{"spec", {{"template", {{"spec", {{"containers", {{{"name", "web"}, {"image", "nginx:1.28"}}}}}}}}}}};
  REQUIRE(c->handle(request("PATCH", kApps + "deployments/web", patch.dump(), {}, "application/strategic-merge-patch+json"))
              .status == 200);
  items = replica_sets_when(*c, [&](const json& rs) {
    if (rs.size() != 2) return false;
    for (const json& one : rs) {
      if (one["metadata"]["name"] == first["metadata"]["name"] && one["spec"]["replicas"] != 0) return false;
      if (one["metadata"]["name"] != first["metadata"]["name"] && one["status"].value("availableReplicas", 0) != 2)
        return false;
    }
    return true;
  });
  for (const json& one : items) {
    const bool old = one["metadata"]["name"] == first["metadata"]["name"];
    CHECK(one["metadata"]["annotations"]["deployment.kubernetes.io/revision"] == (old ? "1" : "2"));
    CHECK(one["status"]["replicas"] == (old ? 0 : 2));
  }

  // A ReplicaSet deleted by hand comes back; the Deployment deleted, its ReplicaSets go too.
  const std::string current = items[0]["metadata"]["name"] == first["metadata"]["name"]
                                  ? items[1]["metadata"]["name"].get<std::string>()
                                  : items[0]["metadata"]["name"].get<std::string>();
  REQUIRE(c->handle(request("DELETE", kApps + "replicasets/" + current)).status == 200);
  CHECK(c->handle(request("GET", kApps + "replicasets/" + current)).status == 200);
  REQUIRE(c->handle(request("DELETE", kApps + "deployments/web")).status == 200);
  CHECK(get(*c, kApps + "replicasets")["items"].empty());
}

TEST_CASE("apps workloads: the scale subresource", "[sandbox][apps][scale]") {
  auto c = cluster();
  REQUIRE(c->handle(request("POST", kApps + "deployments", workload("Deployment").dump())).status == 201);
  const json scale = get(*c, kApps + "deployments/web/scale");
  CHECK(scale["kind"] == "Scale");
  CHECK(scale["apiVersion"] == "autoscaling/v1");
  CHECK(scale["spec"] == json{{"replicas", 1}});
  CHECK(scale["status"]["selector"] == "app=web");

  ApiResponse r = c->handle(request("PATCH", kApps + "deployments/web/scale", R"({"spec":{"replicas":3}})", {},
                                    "application/merge-patch+json"));
  CHECK(r.status == 200);
  CHECK(body_of(r)["spec"]["replicas"] == 3);
  const json deployment = get(*c, kApps + "deployments/web");
  CHECK(deployment["spec"]["replicas"] == 3);
  CHECK(deployment["metadata"]["generation"] == 2);

  r = c->handle(request("PUT", kApps + "deployments/web/scale",
                        R"({"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":-1}})"));
  CHECK(r.status == 422);
  CHECK(message_of(r) ==
        "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");
  // A stale resourceVersion is a conflict, as on the object itself.
  r = c->handle(request("PUT", kApps + "deployments/web/scale",
                        R"({"metadata":{"name":"web","resourceVersion":"1"},"spec":{"replicas":2}})"));
  CHECK(r.status == 409);

  REQUIRE(create(*c, "statefulsets", workload("StatefulSet")).status == 201);
  r = c->handle(request("PATCH", kApps + "statefulsets/web/scale", R"([{"op":"replace","path":"/spec/replicas","value":0}])",
                        {}, "application/json-patch+json"));
  CHECK(r.status == 200);
  CHECK(get(*c, kApps + "statefulsets/web")["spec"]["replicas"] == 0);
  // DaemonSets have no scale; discovery says which kinds do.
  REQUIRE(create(*c, "daemonsets", workload("DaemonSet")).status == 201);
  CHECK(c->handle(request("GET", kApps + "daemonsets/web/scale")).status == 404);
  const json discovery = get(*c, "/apis/apps/v1");
  std::vector<std::string> scales;
  for (const json& resource : discovery["resources"]) {
    const std::string name = resource["name"];
    if (name.ends_with("/scale")) {
      scales.push_back(name);
      CHECK(resource["kind"] == "Scale");
      CHECK(resource["group"] == "autoscaling");
    }
  }
  CHECK(scales == std::vector<std::string>{"deployments/scale", "replicasets/scale", "statefulsets/scale"});
}
