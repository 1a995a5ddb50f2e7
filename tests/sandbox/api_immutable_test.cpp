// Immutable fields of custom resources: the CEL transition rules Kueue's CRDs
// use (`self == oldSelf`, and the set-once form) rejected on update, patch and
// server-side apply the way kube-apiserver reports them.
#include <catch2/catch.hpp>

#include "sandbox/crd_rules.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const char* kQueues = "/apis/kueue.x-k8s.io/v1beta1/namespaces/default/localqueues";
const char* kFlavors = "/apis/kueue.x-k8s.io/v1beta1/resourceflavors";

// A LocalQueue-like CRD carrying Kueue's rule on spec.clusterQueue, plus a
// rule on spec that every object here satisfies.
json queue_crd() {
  return json::parse(R"({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "localqueues.kueue.x-k8s.io"},
  "spec": {"group": "kueue.x-k8s.io", "scope": "Namespaced",
    "names": {"plural": "localqueues", "singular": "localqueue", "kind": "LocalQueue", "listKind": "LocalQueueList"},
    "versions": [{"name": "v1beta1", "served": true, "storage": true, "subresources": {"status": {}},
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
          "clusterQueue": {"type": "string", "maxLength": 253,
                           "x-kubernetes-validations": [{"message": "field is immutable", "rule": "self == oldSelf"}]},
          "stopPolicy": {"type": "string", "default": "None"}},
          "x-kubernetes-validations": [{"message": "never fails here", "rule": "self.stopPolicy != 'Nope'"}]},
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}})");
}

json flavor_crd() {
  return json::parse(R"json({
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "resourceflavors.kueue.x-k8s.io"},
  "spec": {"group": "kueue.x-k8s.io", "scope": "Cluster",
    "names": {"plural": "resourceflavors", "singular": "resourceflavor", "kind": "ResourceFlavor", "listKind": "ResourceFlavorList"},
    "versions": [{"name": "v1beta1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
          "topologyName": {"type": "string"},
          "nodeLabels": {"type": "object", "additionalProperties": {"type": "string"}}},
          "x-kubernetes-validations": [
            {"message": "topologyName is immutable when topologyName is set",
             "rule": "!has(oldSelf.topologyName) || (has(self.topologyName) && self.topologyName\n    == oldSelf.topologyName)"}]}}}}}]}})json");
}

std::unique_ptr<Cluster> with_kueue_crds() {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", kCrds, queue_crd().dump())).status == 201);
  REQUIRE(c->handle(request("POST", kCrds, flavor_crd().dump())).status == 201);
  return c;
}

json queue(const std::string& cluster_queue) {
  return {{"apiVersion", "kueue.x-k8s.io/v1beta1"},
          {"kind", "LocalQueue"},
          {"metadata", {{"name", "user-queue"}, {"namespace", "default"}}},
          {"spec", {{"clusterQueue", cluster_queue}}}};
}

void check_immutable(const ApiResponse& response) {
  REQUIRE(response.status == 422);
  const auto status = body_of(response);
  CHECK(status["reason"] == "Invalid");
  CHECK(status["message"] ==
        "LocalQueue.kueue.x-k8s.io \"user-queue\" is invalid: spec.clusterQueue: Invalid value: \"string\": field is immutable");
  REQUIRE(status["details"]["causes"].size() == 1);
  const auto& cause = status["details"]["causes"][0];
  CHECK(cause["reason"] == "FieldValueInvalid");
  CHECK(cause["field"] == "spec.clusterQueue");
  CHECK(cause["message"] == "Invalid value: \"string\": field is immutable");
}

TEST_CASE("sandbox api: self == oldSelf rejects changing the field on update, patch and apply", "[sandbox][api][immutable]") {
  auto c = with_kueue_crds();
  const auto created = c->handle(request("POST", kQueues, queue("cq-a").dump()));
  REQUIRE(created.status == 201);  // create never evaluates transition rules
  const std::string path = std::string(kQueues) + "/user-queue";

  SECTION("update") {
    auto stored = body_of(c->handle(request("GET", path)));
    stored["spec"]["clusterQueue"] = "cq-b";
    check_immutable(c->handle(request("PUT", path, stored.dump())));
    stored["spec"]["clusterQueue"] = "cq-a";
    stored["spec"]["stopPolicy"] = "Hold";
    CHECK(c->handle(request("PUT", path, stored.dump())).status == 200);
  }
  SECTION("merge patch") {
    check_immutable(c->handle(request("PATCH", path, R"({"spec":{"clusterQueue":"cq-b"}})", {}, "application/merge-patch+json")));
    CHECK(c->handle(request("PATCH", path, R"({"spec":{"stopPolicy":"Hold"}})", {}, "application/merge-patch+json")).status == 200);
    CHECK(c->handle(request("PATCH", path, R"({"spec":{"clusterQueue":"cq-a"}})", {}, "application/merge-patch+json")).status == 200);
  }
  SECTION("server-side apply") {
    const std::multimap<std::string, std::string> query = {{"fieldManager", "mkq"}, {"force", "true"}};
    check_immutable(c->handle(request("PATCH", path, queue("cq-b").dump(), query, "application/apply-patch+yaml")));
    auto same = queue("cq-a");
    same["spec"]["stopPolicy"] = "HoldAndDrain";
    CHECK(c->handle(request("PATCH", path, same.dump(), query, "application/apply-patch+yaml")).status == 200);
  }
  SECTION("a status write leaves the spec alone") {
    auto stored = body_of(c->handle(request("GET", path)));
    stored["status"] = {{"pendingWorkloads", 1}};
    CHECK(c->handle(request("PUT", path + "/status", stored.dump())).status == 200);
  }
  // The value is unchanged after every rejected write.
  CHECK(body_of(c->handle(request("GET", path)))["spec"]["clusterQueue"] == "cq-a");
}

TEST_CASE("sandbox api: the set-once topologyName rule", "[sandbox][api][immutable]") {
  auto c = with_kueue_crds();
  const json plain = {{"apiVersion", "kueue.x-k8s.io/v1beta1"}, {"kind", "ResourceFlavor"},
                      {"metadata", {{"name", "gpu"}}}, {"spec", {{"nodeLabels", {{"pool", "a"}}}}}};
  REQUIRE(c->handle(request("POST", kFlavors, plain.dump())).status == 201);
  const std::string path = std::string(kFlavors) + "/gpu";
  const auto merge = [&](const std::string& body) {
    return c->handle(request("PATCH", path, body, {}, "application/merge-patch+json"));
  };
  CHECK(merge(R"({"spec":{"nodeLabels":{"pool":"b"}}})").status == 200);
  CHECK(merge(R"({"spec":{"topologyName":"default"}})").status == 200);  // unset → set is allowed
  const auto changed = merge(R"({"spec":{"topologyName":"other"}})");
  REQUIRE(changed.status == 422);
  CHECK(body_of(changed)["message"] ==
        "ResourceFlavor.kueue.x-k8s.io \"gpu\" is invalid: spec: Invalid value: \"object\": topologyName is immutable when "
        "topologyName is set");
  CHECK(body_of(changed)["details"]["causes"][0]["field"] == "spec");
  CHECK(merge(R"({"spec":{"topologyName":null}})").status == 422);  // removing it is a change too
  CHECK(merge(R"({"spec":{"topologyName":"default","nodeLabels":{"pool":"c"}}})").status == 200);
}

TEST_CASE("sandbox crd rules: transition rules run on updates where the old value exists", "[sandbox][immutable]") {
  const auto check = [](const std::string& rule, const json& after, const json& before, const json& extra = json::object()) {
    json r = {{"rule", rule}};
    r.update(extra);
    const json schema = {{"type", "object"},
                         {"properties", {{"x", {{"type", "string"}, {"x-kubernetes-validations", json::array({r})}}}}}};
    std::vector<FieldError> errors;
    const auto rules = CrdRules::compile(schema, "schema", &errors);
    REQUIRE(errors.empty());
    return rules->validate(after, &before);
  };
  const json before = {{"x", "a"}};
  const json after = {{"x", "b"}};
  CHECK(check("self == oldSelf", after, before).size() == 1);
  CHECK(check("self == oldSelf", before, before).empty());
  CHECK(check("self == oldSelf", json::object(), before).empty());  // no new value: not run
  CHECK(check("self == oldSelf", after, json::object()).empty());   // no old value: not run
  CHECK(check("self == oldSelf || true", after, before).empty());
  CHECK(check("self.size() > 1", after, before).size() == 1);  // not a transition rule: runs on a changed value
  CHECK(check("self.size() > 1", before, before).empty());     // ... and not on an unchanged one (ratcheting)
  const auto unnamed = check("  self==oldSelf ", after, before);
  REQUIRE(unnamed.size() == 1);
  CHECK(unnamed[0].field == "x");
  CHECK(unnamed[0].message == "Invalid value: \"string\": failed rule: self==oldSelf");
  const auto expressed = check("self == oldSelf", after, before, {{"messageExpression", "'x went from ' + oldSelf + ' to ' + self"}});
  REQUIRE(expressed.size() == 1);
  CHECK(expressed[0].message == "Invalid value: \"string\": x went from a to b");
}

}  // namespace
}  // namespace mkq::sandbox
