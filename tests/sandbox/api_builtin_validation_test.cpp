// The sandbox decodes built-in kinds as kube-apiserver does: unknown fields
// by ?fieldValidation, wrong types refused with Go's decoder message; Leases
// with optimistic concurrency.
#include <catch2/catch.hpp>

#include "api_test_support.h"
#include "sandbox/kueue_install.h"

using namespace mkq::sandbox;
using namespace mkq::sandbox::testing;
using nlohmann::json;

namespace {

json deployment() {
  return json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}},
                          "spec": {"containers": [{"name": "web", "image": "nginx",
                                                   "env": [{"name": "A", "value": "1"}],
                                                   "ports": [{"name": "http", "containerPort": 80}]}]}}}})");
}

const char* const kDeployments = "/apis/apps/v1/namespaces/default/deployments";

}  // namespace

TEST_CASE("sandbox decoding: an unknown field of a Deployment by fieldValidation", "[sandbox][api][validation]") {
  auto c = memory_cluster();
  json object = deployment();
  object["spec"]["foo"] = 1;
  auto strict = c->handle(request("POST", kDeployments, object.dump(), {{"fieldValidation", "Strict"}, {"dryRun", "All"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.foo\"");
  CHECK(body_of(strict)["reason"] == "BadRequest");

  auto warn = c->handle(request("POST", kDeployments, object.dump()));
  CHECK(warn.status == 201);
  CHECK(warn.headers["Warning"] == "299 - \"unknown field \\\"spec.foo\\\"\"");
  CHECK_FALSE(body_of(warn)["spec"].contains("foo"));  // dropped, as the Go type has no such field

  object["metadata"]["name"] = "quiet";
  auto ignore = c->handle(request("POST", kDeployments, object.dump(), {{"fieldValidation", "Ignore"}}));
  CHECK(ignore.status == 201);
  CHECK(ignore.headers.count("Warning") == 0);
}

TEST_CASE("sandbox decoding: unknown fields deep in a pod template keep their list index", "[sandbox][api][validation]") {
  auto c = memory_cluster();
  json object = deployment();
  object["spec"]["template"]["spec"]["containers"][0]["restartPolicyy"] = "Always";
  object["metadata"]["spec"] = json::object();
  auto strict = c->handle(request("POST", kDeployments, object.dump(), {{"fieldValidation", "Strict"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field "
        "\"metadata.spec\", unknown field \"spec.template.spec.containers[0].restartPolicyy\"");
}

TEST_CASE("sandbox decoding: a value of the wrong type is refused in every mode, as Go's decoder says", "[sandbox][api][validation]") {
  auto c = memory_cluster();
  json object = deployment();
  object["spec"]["replicas"] = "2";
  for (const char* mode : {"Strict", "Warn", "Ignore"}) {
    auto refused = c->handle(request("POST", kDeployments, object.dump(), {{"fieldValidation", mode}}));
    CHECK(refused.status == 400);
    CHECK(body_of(refused)["message"] ==
          "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go "
          "struct field DeploymentSpec.spec.replicas of type int32");
  }
  object = deployment();
  object["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = 1;
  auto env = c->handle(request("POST", kDeployments, object.dump()));
  CHECK(body_of(env)["message"] ==
        "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct "
        "field EnvVar.spec.template.spec.containers.env.value of type string");
  auto map = c->handle(request("POST", "/api/v1/namespaces/default/configmaps",
                               R"({"metadata":{"name":"m"},"data":{"a":true}})"));
  CHECK(map.status == 400);
  CHECK(body_of(map)["message"] ==
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct "
        "field ConfigMap.data of type string");
  auto role = c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                                R"({"metadata":{"name":"r"},"rules":{"verbs":["get"]}})"));
  CHECK(body_of(role)["message"] ==
        "ClusterRole in version \"v1\" cannot be handled as a ClusterRole: json: cannot unmarshal object into Go "
        "struct field ClusterRole.rules of type []v1.PolicyRule");
}

TEST_CASE("sandbox decoding: an update is decoded too", "[sandbox][api][validation]") {
  auto c = memory_cluster();
  auto created = c->handle(request("POST", "/api/v1/namespaces/default/serviceaccounts", R"({"metadata":{"name":"sa"}})"));
  REQUIRE(created.status == 201);
  json object = body_of(created);
  object["automountServiceAccountToken"] = "yes";
  auto put = c->handle(request("PUT", "/api/v1/namespaces/default/serviceaccounts/sa", object.dump()));
  CHECK(put.status == 400);
  CHECK(body_of(put)["message"] ==
        "ServiceAccount in version \"v1\" cannot be handled as a ServiceAccount: json: cannot unmarshal string into "
        "Go struct field ServiceAccount.automountServiceAccountToken of type bool");
  object["automountServiceAccountToken"] = false;
  object["secretz"] = json::array();
  auto strict = c->handle(request("PUT", "/api/v1/namespaces/default/serviceaccounts/sa", object.dump(),
                                  {{"fieldValidation", "Strict"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "ServiceAccount in version \"v1\" cannot be handled as a ServiceAccount: strict decoding error: unknown field "
        "\"secretz\"");
}

TEST_CASE("sandbox decoding: Kueue's own Deployment and ConfigMap decode strictly", "[sandbox][api][validation]") {
  auto c = memory_cluster();
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"kueue-system"}})")).status == 201);
  for (const json& object : kueue_install_objects()) {
    const bool is_deployment = object["kind"] == "Deployment";
    const std::string path = is_deployment ? "/apis/apps/v1/namespaces/kueue-system/deployments"
                                           : "/api/v1/namespaces/kueue-system/configmaps";
    auto created = c->handle(request("POST", path, object.dump(), {{"fieldValidation", "Strict"}}));
    INFO(created.body);
    CHECK(created.status == 201);
  }
}

TEST_CASE("sandbox leases: an update with a stale resourceVersion is a 409, as kube-apiserver", "[sandbox][api][lease]") {
  auto c = memory_cluster();
  const std::string path = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
  auto created = c->handle(request("POST", path, R"({"metadata":{"name":"lock"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15}})"));
  REQUIRE(created.status == 201);
  json first = body_of(created);
  json second = first;
  first["spec"]["holderIdentity"] = "b";
  auto won = c->handle(request("PUT", path + "/lock", first.dump()));
  CHECK(won.status == 200);
  second["spec"]["holderIdentity"] = "c";
  auto lost = c->handle(request("PUT", path + "/lock", second.dump()));
  CHECK(lost.status == 409);
  CHECK(body_of(lost)["reason"] == "Conflict");
  CHECK(body_of(lost)["message"] ==
        "Operation cannot be fulfilled on leases.coordination.k8s.io \"lock\": the object has been modified; please "
        "apply your changes to the latest version and try again");
  auto again = c->handle(request("POST", path, R"({"metadata":{"name":"lock"}})"));
  CHECK(again.status == 409);
  CHECK(body_of(again)["reason"] == "AlreadyExists");
  CHECK(body_of(c->handle(request("GET", path + "/lock")))["spec"]["holderIdentity"] == "b");
}

TEST_CASE("sandbox events: both APIs print the event table kubectl shows", "[sandbox][api][events]") {
  auto c = memory_cluster();
  auto core = c->handle(request("POST", "/api/v1/namespaces/default/events", R"({
    "metadata": {"name": "run.1"}, "type": "Normal", "reason": "Applied", "message": "3 changes applied",
    "involvedObject": {"kind": "Deployment", "name": "mkq-controller", "namespace": "default"},
    "source": {"component": "mkq-controller"}, "count": 2})"));
  REQUIRE(core.status == 201);
  auto v1 = c->handle(request("POST", "/apis/events.k8s.io/v1/namespaces/default/events", R"({
    "metadata": {"name": "run.2"}, "type": "Warning", "reason": "Drift", "note": "1 object drifted",
    "regarding": {"kind": "Deployment", "name": "mkq-controller"}, "reportingController": "mkq.dev/controller",
    "reportingInstance": "mkq-controller-0", "action": "Plan", "eventTime": "2025-01-01T00:00:00.000000Z"})"));
  REQUIRE(v1.status == 201);
  const std::string table = "application/json;as=Table;v=v1;g=meta.k8s.io";
  for (const char* path : {"/api/v1/namespaces/default/events", "/apis/events.k8s.io/v1/namespaces/default/events"}) {
    auto r = request("GET", path);
    r.headers["accept"] = table;
    const json listed = body_of(c->handle(r));
    REQUIRE(listed["kind"] == "Table");
    CHECK(listed["columnDefinitions"][0]["name"] == "Last Seen");
    CHECK(listed["columnDefinitions"][3]["name"] == "Object");
    CHECK(listed["columnDefinitions"][9]["name"] == "Name");
    CHECK(listed["columnDefinitions"][9]["priority"] == 1);
    REQUIRE(listed["rows"].size() == 1);
    const json cells = listed["rows"][0]["cells"];
    CHECK(cells[3] == "deployment/mkq-controller");
    if (std::string(path).find("events.k8s.io") == std::string::npos) {
      CHECK(cells[0] == "<unknown>");  // no lastTimestamp
      CHECK(cells[1] == "Normal");
      CHECK(cells[5] == "mkq-controller");
      CHECK(cells[6] == "3 changes applied");
      CHECK(cells[8] == "2");
    } else {
      CHECK(cells[1] == "Warning");
      CHECK(cells[5] == "mkq.dev/controller");
      CHECK(cells[6] == "1 object drifted");
      CHECK(cells[9] == "run.2");
    }
  }
}
