// Server-side apply by structured-merge-diff's rules: keyed and set lists
// shared between managers, atomic lists and maps, no-op re-applies, and the
// managedFields of writes without a fieldManager (kube-apiserver v1.33).
#include <catch2/catch.hpp>

#include "api_test_support.h"
#include "sandbox/apply.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const std::string kApply = "application/apply-patch+yaml";
const std::string kPath = "/apis/example.com/v1/gadgets/g";

// A CRD whose spec has one list or map of each kind structured-merge-diff tells apart.
json gadget_crd() {
  return json::parse(R"({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "gadgets.example.com"},
  "spec": {"group": "example.com", "scope": "Cluster",
    "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
    "versions": [{"name": "v1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
          "items": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "required": ["name"],
                              "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}}},
          "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
                    "items": {"type": "object", "properties": {"port": {"type": "integer"},
                              "protocol": {"type": "string", "default": "TCP"}}}},
          "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
          "order": {"type": "array", "items": {"type": "integer"}},
          "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
          "extra": {"type": "object", "additionalProperties": {"type": "string"}}}}}}}}]}})");
}

std::unique_ptr<Cluster> gadget_cluster() {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadget_crd().dump())).status == 201);
  return c;
}

ApiResponse apply(Cluster& c, const std::string& manager, const json& spec, bool force = false) {
  const json config = {{"apiVersion", "example.com/v1"}, {"kind", "Gadget"}, {"metadata", {{"name", "g"}}}, {"spec", spec}};
  std::multimap<std::string, std::string> query{{"fieldManager", manager}};
  if (force) query.emplace("force", "true");
  return c.handle(request("PATCH", kPath, config.dump(), query, kApply));
}

json entry_of(const json& object, const std::string& manager) {
  for (const auto& e : object["metadata"]["managedFields"]) {
    if (e["manager"] == manager) return e;
  }
  return json();
}

TEST_CASE("sandbox apply: two managers applying different items of a keyed or set list share it", "[sandbox][apply]") {
  auto c = gadget_cluster();
  REQUIRE(apply(*c, "alice", {{"items", {{{"name", "a"}, {"size", 1}}}}, {"tags", {"x"}}}).status == 201);
  auto both = apply(*c, "bob", {{"items", {{{"name", "b"}, {"size", 2}}}}, {"tags", {"y"}}});
  REQUIRE(both.status == 200);
  const json object = body_of(both);
  CHECK(object["spec"]["items"] == json::parse(R"([{"name":"a","size":1},{"name":"b","size":2}])"));
  CHECK(object["spec"]["tags"] == json::parse(R"(["x","y"])"));
  CHECK(entry_of(object, "bob")["fieldsV1"] == json::parse(R"({"f:spec": {
    "f:items": {"k:{\"name\":\"b\"}": {".": {}, "f:name": {}, "f:size": {}}},
    "f:tags": {"v:\"y\"": {}}}})"));
  CHECK(entry_of(object, "alice")["fieldsV1"]["f:spec"]["f:items"].contains("k:{\"name\":\"a\"}"));

  // bob changing alice's item conflicts; alice dropping her items leaves bob's.
  auto clash = apply(*c, "bob", {{"items", {{{"name", "a"}, {"size", 5}}, {{"name", "b"}, {"size", 2}}}}, {"tags", {"y"}}});
  REQUIRE(clash.status == 409);
  CHECK(body_of(clash)["message"] == "Apply failed with 1 conflict: conflict with \"alice\": .spec.items[name=\"a\"].size");
  auto dropped = apply(*c, "alice", json::object());
  REQUIRE(dropped.status == 200);
  CHECK(body_of(dropped)["spec"]["items"] == json::parse(R"([{"name":"b","size":2}])"));
  CHECK(body_of(dropped)["spec"]["tags"] == json::parse(R"(["y"])"));
}

TEST_CASE("sandbox apply: keys sorted in k:{...}, a key's schema default fills it", "[sandbox][apply]") {
  auto c = gadget_cluster();
  auto created = apply(*c, "alice", {{"ports", {{{"port", 80}}}}});
  REQUIRE(created.status == 201);
  CHECK(entry_of(body_of(created), "alice")["fieldsV1"] ==
        json::parse(R"({"f:spec": {"f:ports": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}}}}})"));
  auto clash = apply(*c, "bob", {{"ports", {{{"port", 80}, {"protocol", "TCP"}}}}, {"order", {1}}});
  CHECK(clash.status == 200);  // the same item, the same values: shared
}

TEST_CASE("sandbox apply: atomic lists and maps are one field, conflicts listed per manager", "[sandbox][apply]") {
  auto c = gadget_cluster();
  REQUIRE(apply(*c, "bob", {{"order", {1, 2}}, {"selector", {{"k", "v"}}}, {"extra", {{"a", "1"}}}}).status == 201);
  auto object = body_of(c->handle(request("GET", kPath)));
  CHECK(entry_of(object, "bob")["fieldsV1"] ==
        json::parse(R"({"f:spec": {"f:order": {}, "f:selector": {}, "f:extra": {"f:a": {}}}})"));
  auto clash = apply(*c, "alice", {{"order", {3}}, {"selector", {{"k", "w"}}}, {"extra", {{"b", "2"}}}});
  REQUIRE(clash.status == 409);
  CHECK(body_of(clash)["message"] ==
        "Apply failed with 2 conflicts: conflicts with \"bob\":\n- .spec.order\n- .spec.selector");
  CHECK(body_of(clash)["details"]["causes"].size() == 2);
  auto forced = apply(*c, "alice", {{"order", {3}}, {"selector", {{"k", "w"}}}}, true);
  REQUIRE(forced.status == 200);
  CHECK(body_of(forced)["spec"]["order"] == json::array({3}));
  CHECK(entry_of(body_of(forced), "bob")["fieldsV1"] == json::parse(R"({"f:spec": {"f:extra": {"f:a": {}}}})"));
}

TEST_CASE("sandbox apply: an identical re-apply changes nothing, not even the entry's time", "[sandbox][apply]") {
  auto c = gadget_cluster();
  const json spec = {{"items", {{{"name", "a"}, {"size", 1}}}}, {"tags", {"x"}}};
  auto first = apply(*c, "alice", spec);
  REQUIRE(first.status == 201);
  auto again = apply(*c, "alice", spec);
  REQUIRE(again.status == 200);
  CHECK(body_of(again)["metadata"]["resourceVersion"] == body_of(first)["metadata"]["resourceVersion"]);
  CHECK(body_of(again)["metadata"]["managedFields"] == body_of(first)["metadata"]["managedFields"]);
  CHECK(body_of(again) == body_of(first));
}

TEST_CASE("sandbox apply: a keyed item without its key is refused as kube-apiserver does", "[sandbox][apply]") {
  auto c = gadget_cluster();
  auto refused = apply(*c, "alice", {{"items", {{{"size", 1}}}}});
  REQUIRE(refused.status == 500);
  CHECK_FALSE(body_of(refused).contains("reason"));
  CHECK(body_of(refused)["message"] ==
        "failed to create typed patch object (g; example.com/v1, Kind=Gadget): .spec.items: element 0: associative list "
        "with keys has an element that omits key field \"name\" (and doesn't have default value)");
  auto duplicate = apply(*c, "alice", {{"tags", {"x", "x"}}});
  REQUIRE(duplicate.status == 500);
  CHECK(body_of(duplicate)["message"] ==
        "failed to create typed patch object (g; example.com/v1, Kind=Gadget): .spec.tags: duplicate entries for key [=\"x\"]");
}

TEST_CASE("sandbox apply: a write without fieldManager is managed by the User-Agent's first segment", "[sandbox][apply]") {
  auto c = testing::memory_cluster();
  auto post = request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"cm"},"data":{"a":"1"}})");
  post.headers["user-agent"] = "OpenAPI-Generator/33.1.0/python";
  auto created = c->handle(post);
  REQUIRE(created.status == 201);
  const json entries = body_of(created)["metadata"]["managedFields"];
  REQUIRE(entries.size() == 1);
  CHECK(entries[0]["manager"] == "OpenAPI-Generator");
  CHECK(entries[0]["operation"] == "Update");
  CHECK(entries[0]["apiVersion"] == "v1");
  CHECK(entries[0]["fieldsV1"] == json::parse(R"({"f:data": {".": {}, "f:a": {}}})"));

  auto patch = request("PATCH", "/api/v1/namespaces/default/configmaps/cm", R"({"data":{"a":"2","b":"3"}})", {},
                       "application/merge-patch+json");
  patch.headers["user-agent"] = "curl/8.5.0";
  auto patched = c->handle(patch);
  REQUIRE(patched.status == 200);
  const json after = body_of(patched)["metadata"]["managedFields"];
  REQUIRE(after.size() == 2);
  CHECK(after[0]["fieldsV1"] == json::parse(R"({"f:data": {}})"));  // a went to curl, the map stays
  CHECK(after[1]["manager"] == "curl");
  CHECK(after[1]["fieldsV1"] == json::parse(R"({"f:data": {"f:a": {}, "f:b": {}}})"));

  CHECK(manager_or_user_agent("", "kubectl/v1.33.0 (linux/amd64) kubernetes/8adc0f0") == "kubectl");
  CHECK(manager_or_user_agent("kubectl-edit", "kubectl/v1.33.0") == "kubectl-edit");
  CHECK(manager_or_user_agent("", "a\tb\x01" + std::string(200, 'x')).size() == 128);
}


// A built-in kind's configuration applied by `manager` to `path` (its collection: `collection`).
ApiResponse apply_builtin(Cluster& c, const std::string& path, const std::string& manager, const json& config) {
  return c.handle(request("PATCH", path, config.dump(), {{"fieldManager", manager}}, kApply));
}

TEST_CASE("sandbox apply: a Service's ports are keyed by port and protocol, as kube's listMapKeys say",
          "[sandbox][apply][services]") {
  auto c = testing::memory_cluster();
  const std::string path = "/api/v1/namespaces/default/services/web";
  const auto service = [](const json& ports) {
    return json{{"apiVersion", "v1"},
                {"kind", "Service"},
                {"metadata", {{"name", "web"}}},
                {"spec", {{"selector", {{"app", "web"}}}, {"ports", ports}}}};
  };
  REQUIRE(apply_builtin(*c, path, "alice", service({{{"name", "http"}, {"port", 80}}})).status == 201);
  // bob applies another port (UDP 80 is another item: the key is port and protocol).
  ApiResponse r = apply_builtin(*c, path, "bob", service({{{"name", "dns"}, {"port", 80}, {"protocol", "UDP"}}}));
  REQUIRE(r.status == 200);
  json object = body_of(r);
  REQUIRE(object["spec"]["ports"].size() == 2);
  CHECK(object["spec"]["ports"][0]["name"] == "http");
  CHECK(object["spec"]["ports"][1]["name"] == "dns");
  // Each owns its item, the protocol defaulted into alice's key.
  CHECK(entry_of(object, "alice")["fieldsV1"]["f:spec"]["f:ports"].contains("k:{\"port\":80,\"protocol\":\"TCP\"}"));
  CHECK(entry_of(object, "bob")["fieldsV1"]["f:spec"]["f:ports"].contains("k:{\"port\":80,\"protocol\":\"UDP\"}"));
  // alice changing her port's name does not conflict with bob; taking bob's item does.
  CHECK(apply_builtin(*c, path, "alice", service({{{"name", "web"}, {"port", 80}}})).status == 200);
  r = apply_builtin(*c, path, "alice", service({{{"name", "web"}, {"port", 80}}, {{"name", "x"}, {"port", 80}, {"protocol", "UDP"}}}));
  CHECK(r.status == 409);
  CHECK(body_of(r)["message"] == "Apply failed with 1 conflict: conflict with \"bob\": .spec.ports[port=80,protocol=\"UDP\"].name");
  // bob no longer applying his port removes it, alice's stays.
  r = apply_builtin(*c, path, "bob", service(json::array()));
  REQUIRE(r.status == 200);
  object = body_of(r);
  REQUIRE(object["spec"]["ports"].size() == 1);
  CHECK(object["spec"]["ports"][0]["name"] == "web");
}

TEST_CASE("sandbox apply: a pod template's containers, their ports, env and mounts are keyed lists",
          "[sandbox][apply][apps]") {
  auto c = testing::memory_cluster();
  const std::string path = "/apis/apps/v1/namespaces/default/deployments/web";
  const auto deployment = [](const json& containers) {
    return json{{"apiVersion", "apps/v1"},
                {"kind", "Deployment"},
                {"metadata", {{"name", "web"}}},
                {"spec",
                 {{"selector", {{"matchLabels", {{"app", "web"}}}}},
                  {"template", {{"metadata", {{"labels", {{"app", "web"}}}}}, {"spec", {{"containers", containers}}}}}}}};
  };
  const json web = {{"name", "web"},
                    {"image", "nginx"},
                    {"ports", {{{"containerPort", 80}}}},
                    {"env", {{{"name", "A"}, {"value", "1"}}}},
                    {"volumeMounts", {{{"name", "data"}, {"mountPath", "/data"}}}}};
  REQUIRE(apply_builtin(*c, path, "alice", deployment(json::array({web}))).status == 201);
  // bob adds a sidecar and, to alice's container, a port, a variable and a mount of his own.
  const json bobs_web = {{"name", "web"},
                         {"ports", {{{"containerPort", 9090}, {"name", "metrics"}}}},
                         {"env", {{{"name", "B"}, {"value", "2"}}}},
                         {"volumeMounts", {{{"name", "cache"}, {"mountPath", "/cache"}}}}};
  const json sidecar = {{"name", "proxy"}, {"image", "envoy"}};
  ApiResponse r = apply_builtin(*c, path, "bob", deployment(json::array({bobs_web, sidecar})));
  REQUIRE(r.status == 200);
  const json object = body_of(r);
  const json containers = object["spec"]["template"]["spec"]["containers"];
  REQUIRE(containers.size() == 2);
  CHECK(containers[0]["image"] == "nginx");
  CHECK(containers[0]["ports"].size() == 2);
  CHECK(containers[0]["env"] == json::parse(R"([{"name":"A","value":"1"},{"name":"B","value":"2"}])"));
  CHECK(containers[0]["volumeMounts"].size() == 2);
  CHECK(containers[1]["name"] == "proxy");
  const json bob = entry_of(object, "bob")["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"];
  CHECK(bob.contains("k:{\"name\":\"proxy\"}"));
  CHECK(bob["k:{\"name\":\"web\"}"]["f:ports"].contains("k:{\"containerPort\":9090,\"protocol\":\"TCP\"}"));
  CHECK(bob["k:{\"name\":\"web\"}"]["f:env"].contains("k:{\"name\":\"B\"}"));
  CHECK(bob["k:{\"name\":\"web\"}"]["f:volumeMounts"].contains("k:{\"mountPath\":\"/cache\"}"));
}

}  // namespace
}  // namespace mkq::sandbox
