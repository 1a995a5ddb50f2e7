// The sandbox serves Nodes and Pods as written (no kubelet, no scheduler):
// discovery, strict decoding, tables as kube-apiserver prints them, the
// status subresource and the pods' field selectors.
#include <catch2/catch.hpp>

#include "api_test_support.h"

using namespace mkq::sandbox;
using namespace mkq::sandbox::testing;
using nlohmann::json;

namespace {

const char* const kNodes = "/api/v1/nodes";
const char* const kPods = "/api/v1/namespaces/default/pods";

json node(const std::string& name, const std::string& gpus, bool ready = true) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", {{"node-role.kubernetes.io/worker", ""}}}}},
          {"status",
           {{"capacity", {{"cpu", "16"}, {"nvidia.com/gpu", gpus}}},
            {"allocatable", {{"cpu", "15500m"}, {"nvidia.com/gpu", gpus}}},
            {"conditions", json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})},
            {"nodeInfo", {{"kubeletVersion", "v1.33.1"}}}}}};
}

json pod(const std::string& name, const std::string& node_name, const std::string& phase, const std::string& gpus) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"nodeName", node_name},
            {"containers",
             json::array({{{"name", "main"},
                           {"image", "busybox"},
                           {"resources", {{"requests", {{"nvidia.com/gpu", gpus}}}}}}})}}},
          {"status", {{"phase", phase}}}};
}

ApiResponse table_of(Cluster& c, const std::string& path) {
  ApiRequest r = request("GET", path);
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io";
  return c.handle(r);
}

// The columns kubectl shows without -o wide (priority 0), in order.
std::vector<std::string> default_columns(const json& table) {
  std::vector<std::string> out;
  for (const json& d : table["columnDefinitions"]) {
    if (d["priority"] == 0) out.push_back(d["name"]);
  }
  return out;
}

std::vector<std::string> names_in(const ApiResponse& list) {
  INFO(list.body);
  CHECK(list.status == 200);
  const json body = body_of(list);  // kept: a range over a temporary's member would outlive it
  std::vector<std::string> out;
  for (const json& item : body["items"]) out.push_back(item["metadata"]["name"]);
  return out;
}

}  // namespace

TEST_CASE("sandbox nodes and pods: discovered in core/v1 with their scope, short names and status", "[sandbox][api][nodes]") {
  auto c = memory_cluster();
  const json resources = body_of(c->handle(request("GET", "/api/v1")))["resources"];
  std::map<std::string, json> by_name;
  for (const json& r : resources) by_name[r["name"]] = r;
  REQUIRE(by_name.count("nodes") == 1);
  REQUIRE(by_name.count("pods") == 1);
  CHECK(by_name["nodes"]["namespaced"] == false);
  CHECK(by_name["nodes"]["kind"] == "Node");
  CHECK(by_name["nodes"]["shortNames"] == json::array({"no"}));
  CHECK(by_name["pods"]["namespaced"] == true);
  CHECK(by_name["pods"]["shortNames"] == json::array({"po"}));
  CHECK(by_name["pods"]["categories"] == json::array({"all"}));
  CHECK(by_name.count("nodes/status") == 1);
  CHECK(by_name.count("pods/status") == 1);
}

TEST_CASE("sandbox nodes and pods: stored as written, status included", "[sandbox][api][nodes]") {
  auto c = memory_cluster();
  REQUIRE(c->handle(request("POST", kNodes, node("gpu-1", "8").dump())).status == 201);
  REQUIRE(c->handle(request("POST", kPods, pod("train", "gpu-1", "Running", "2").dump())).status == 201);
  const json stored_node = body_of(c->handle(request("GET", "/api/v1/nodes/gpu-1")));
  CHECK(stored_node["status"]["allocatable"]["nvidia.com/gpu"] == "8");
  CHECK(stored_node["metadata"].contains("namespace") == false);
  const json stored_pod = body_of(c->handle(request("GET", std::string(kPods) + "/train")));
  CHECK(stored_pod["spec"]["nodeName"] == "gpu-1");
  CHECK(stored_pod["status"]["phase"] == "Running");
  CHECK(stored_pod["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] == "2");

  // A write of the pod itself keeps its status; the status subresource changes it.
  json finished = stored_pod;
  finished["status"]["phase"] = "Succeeded";
  CHECK(body_of(c->handle(request("PUT", std::string(kPods) + "/train", finished.dump())))["status"]["phase"] == "Running");
  finished = body_of(c->handle(request("GET", std::string(kPods) + "/train")));
  finished["status"]["phase"] = "Succeeded";
  const auto status = c->handle(request("PUT", std::string(kPods) + "/train/status", finished.dump()));
  CHECK(status.status == 200);
  CHECK(body_of(status)["status"]["phase"] == "Succeeded");
}

TEST_CASE("sandbox nodes and pods: strict decoding of unknown fields and wrong types", "[sandbox][api][nodes][validation]") {
  auto c = memory_cluster();
  json bad_node = node("n", "1");
  bad_node["status"]["allocatables"] = json::object();
  const auto strict = c->handle(request("POST", kNodes, bad_node.dump(), {{"fieldValidation", "Strict"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "Node in version \"v1\" cannot be handled as a Node: strict decoding error: unknown field \"status.allocatables\"");

  json bad_pod = pod("p", "n", "Running", "1");
  bad_pod["spec"]["containers"][0]["resources"]["request"] = json::object();
  const auto unknown = c->handle(request("POST", kPods, bad_pod.dump(), {{"fieldValidation", "Strict"}}));
  CHECK(unknown.status == 400);
  CHECK(body_of(unknown)["message"] ==
        "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field "
        "\"spec.containers[0].resources.request\"");

  json wrong = pod("p", "n", "Running", "1");
  wrong["spec"]["nodeName"] = 3;
  const auto typed = c->handle(request("POST", kPods, wrong.dump()));
  CHECK(typed.status == 400);
  CHECK(body_of(typed)["message"].get<std::string>().find(
            "json: cannot unmarshal number into Go struct field PodSpec.spec.nodeName of type string") !=
        std::string::npos);
}

TEST_CASE("sandbox nodes and pods: field selectors on spec.nodeName and status.phase", "[sandbox][api][nodes][selector]") {
  auto c = memory_cluster();
  REQUIRE(c->handle(request("POST", kPods, pod("a", "gpu-1", "Running", "1").dump())).status == 201);
  REQUIRE(c->handle(request("POST", kPods, pod("b", "gpu-2", "Succeeded", "1").dump())).status == 201);
  REQUIRE(c->handle(request("POST", kPods, pod("c", "gpu-1", "Failed", "1").dump())).status == 201);
  json unscheduled = pod("d", "", "Pending", "1");
  unscheduled["spec"].erase("nodeName");
  REQUIRE(c->handle(request("POST", kPods, unscheduled.dump())).status == 201);

  const auto on_node = c->handle(request("GET", "/api/v1/pods", "", {{"fieldSelector", "spec.nodeName=gpu-1"}}));
  CHECK(names_in(on_node) == std::vector<std::string>{"a", "c"});
  const auto unfinished = c->handle(
      request("GET", kPods, "", {{"fieldSelector", "status.phase!=Succeeded,status.phase!=Failed"}}));
  CHECK(names_in(unfinished) == std::vector<std::string>{"a", "d"});
  // An absent string field is "" to a field selector.
  const auto nowhere = c->handle(request("GET", kPods, "", {{"fieldSelector", "spec.nodeName="}}));
  CHECK(names_in(nowhere) == std::vector<std::string>{"d"});

  const auto refused = c->handle(request("GET", kPods, "", {{"fieldSelector", "spec.nodename=gpu-1"}}));
  CHECK(refused.status == 400);
  CHECK(body_of(refused)["message"] == "field label not supported: spec.nodename");
  // A pod's field labels are not every kind's.
  const auto not_here = c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "",
                                          {{"fieldSelector", "status.phase=Running"}}));
  CHECK(not_here.status == 400);

  REQUIRE(c->handle(request("POST", kNodes, node("cordoned", "1").dump())).status == 201);
  json cordoned = body_of(c->handle(request("GET", "/api/v1/nodes/cordoned")));
  cordoned["spec"]["unschedulable"] = true;
  REQUIRE(c->handle(request("PUT", "/api/v1/nodes/cordoned", cordoned.dump())).status == 200);
  REQUIRE(c->handle(request("POST", kNodes, node("open", "1").dump())).status == 201);
  const auto schedulable = c->handle(request("GET", kNodes, "", {{"fieldSelector", "spec.unschedulable=false"}}));
  CHECK(names_in(schedulable) == std::vector<std::string>{"open"});
}

TEST_CASE("sandbox nodes and pods: tables as kube-apiserver prints them", "[sandbox][api][nodes][table]") {
  auto c = memory_cluster();
  REQUIRE(c->handle(request("POST", kNodes, node("gpu-1", "8").dump())).status == 201);
  REQUIRE(c->handle(request("POST", kNodes, node("gpu-2", "4", false).dump())).status == 201);
  json p = pod("train", "gpu-1", "Running", "2");
  p["status"]["containerStatuses"] = json::array({{{"name", "main"}, {"ready", true}, {"restartCount", 3},
                                                   {"image", "busybox"}, {"imageID", ""}}});
  REQUIRE(c->handle(request("POST", kPods, p.dump())).status == 201);

  const json nodes = body_of(table_of(*c, kNodes));
  CHECK(default_columns(nodes) == std::vector<std::string>{"Name", "Status", "Roles", "Age", "Version"});
  REQUIRE(nodes["rows"].size() == 2);
  const json first = nodes["rows"][0]["cells"];
  CHECK(first[0] == "gpu-1");
  CHECK(first[1] == "Ready");
  CHECK(first[2] == "worker");
  CHECK(first[4] == "v1.33.1");
  CHECK(nodes["rows"][1]["cells"][1] == "NotReady");
  CHECK(nodes["rows"][0]["cells"].size() == nodes["columnDefinitions"].size());

  const json pods = body_of(table_of(*c, kPods));
  CHECK(default_columns(pods) == std::vector<std::string>{"Name", "Ready", "Status", "Restarts", "Age"});
  REQUIRE(pods["rows"].size() == 1);
  const json cells = pods["rows"][0]["cells"];
  CHECK(cells[0] == "train");
  CHECK(cells[1] == "1/1");
  CHECK(cells[2] == "Running");
  CHECK(cells[3] == "3");
  CHECK(cells[6] == "gpu-1");  // NODE, priority 1 (-o wide)
  CHECK(cells.size() == pods["columnDefinitions"].size());
}
