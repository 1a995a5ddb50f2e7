// Strategic merge patch for built-in kinds (sandbox/strategic.h), directly and
// through PATCH on a ServiceAccount.
#include <catch2/catch.hpp>

#include "sandbox/strategic.h"
#include "tests/sandbox/api_test_support.h"

using mkq::sandbox::strategic_merge;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::request;
using nlohmann::json;

TEST_CASE("strategic merge: keyed lists merge, other lists are replaced, directives", "[sandbox][strategic]") {
  const json original = json::parse(R"({"metadata": {"name": "sa", "finalizers": ["a"],
      "ownerReferences": [{"uid": "1", "name": "x"}, {"uid": "2", "name": "y"}]},
    "secrets": [{"name": "s1"}, {"name": "s2"}], "imagePullSecrets": [{"name": "p1"}]})");
  std::string error;
  const auto merged = strategic_merge(original, json::parse(R"({"metadata": {"finalizers": ["b", "a"],
      "ownerReferences": [{"uid": "2", "name": "z"}, {"uid": "3", "name": "w"}, {"uid": "1", "$patch": "delete"}]},
    "secrets": [{"name": "s3"}], "$setElementOrder/secrets": [{"name": "s1"}, {"name": "s2"}, {"name": "s3"}],
    "imagePullSecrets": [{"name": "p2"}]})"),
                                      "ServiceAccount", &error);
  REQUIRE(merged);
  CHECK((*merged)["metadata"]["finalizers"] == json({"a", "b"}));
  CHECK((*merged)["metadata"]["ownerReferences"] == json::parse(R"([{"uid": "2", "name": "z"}, {"uid": "3", "name": "w"}])"));
  CHECK((*merged)["secrets"] == json::parse(R"([{"name": "s1"}, {"name": "s2"}, {"name": "s3"}])"));
  CHECK((*merged)["imagePullSecrets"] == json::parse(R"([{"name": "p2"}])"));
  CHECK_FALSE(merged->contains("$setElementOrder/secrets"));

  const auto removed = strategic_merge(original, json::parse(R"({"$deleteFromPrimitiveList/finalizers": ["a"],
      "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]}, "secrets": null})"), "ServiceAccount", &error);
  REQUIRE(removed);
  CHECK((*removed)["metadata"]["finalizers"] == json::array());
  CHECK_FALSE(removed->contains("secrets"));

  const auto replaced = strategic_merge(original, json::parse(R"({"metadata": {"$patch": "replace", "name": "sa"}})"),
                                        "ServiceAccount", &error);
  REQUIRE(replaced);
  CHECK((*replaced)["metadata"] == json{{"name", "sa"}});

  CHECK_FALSE(strategic_merge(original, json::parse(R"({"secrets": [{"nope": 1}]})"), "ServiceAccount", &error));
  CHECK(error == "map: {\"nope\":1} does not contain declared merge key: name");
  CHECK_FALSE(strategic_merge(original, json::parse(R"({"metadata": {"$patch": "sideways"}})"), "ServiceAccount", &error));
}

TEST_CASE("strategic merge: PATCH of a built-in kind merges its keyed list", "[sandbox][strategic]") {
  auto c = mkq::sandbox::testing::memory_cluster();
  const json sa = {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", "sa"}}}, {"secrets", {{{"name", "a"}}}}};
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces/default/serviceaccounts", sa.dump())).status == 201);
  const auto r = c->handle(request("PATCH", "/api/v1/namespaces/default/serviceaccounts/sa", R"({"secrets": [{"name": "b"}]})",
                                   {}, "application/strategic-merge-patch+json"));
  REQUIRE(r.status == 200);
  CHECK(body_of(r)["secrets"] == json::parse(R"([{"name": "a"}, {"name": "b"}])"));
  const auto bad = c->handle(request("PATCH", "/api/v1/namespaces/default/serviceaccounts/sa", R"({"secrets": [{"x": "b"}]})", {},
                                     "application/strategic-merge-patch+json"));
  CHECK(bad.status == 400);
}

TEST_CASE("strategic merge: a pod template's containers merge by name, their lists by their patchMergeKey",
          "[sandbox][strategic]") {
  const json original = json::parse(R"({"spec": {"jobTemplate": {"spec": {"template": {"spec": {
      "containers": [{"name": "a", "image": "a:1", "ports": [{"containerPort": 80, "name": "http"}],
                      "env": [{"name": "X", "value": "1"}], "volumeMounts": [{"name": "v", "mountPath": "/v"}]},
                     {"name": "b", "image": "b:1"}],
      "volumes": [{"name": "v", "emptyDir": {}}], "tolerations": [{"key": "t"}]}}}}}})");
  const json patch = json::parse(R"({"spec": {"jobTemplate": {"spec": {"template": {"spec": {
      "containers": [{"name": "a", "image": "a:2", "ports": [{"containerPort": 81}], "env": [{"name": "Y", "value": "2"}],
                      "volumeMounts": [{"name": "w", "mountPath": "/w"}]}],
      "volumes": [{"name": "w", "emptyDir": {}}], "tolerations": [{"key": "u"}]}}}}}})");
  std::string error;
  const auto merged = strategic_merge(original, patch, "CronJob", &error);
  REQUIRE(merged);
  const json spec = (*merged)["spec"]["jobTemplate"]["spec"]["template"]["spec"];
  REQUIRE(spec["containers"].size() == 2);
  CHECK(spec["containers"][0]["image"] == "a:2");
  CHECK(spec["containers"][0]["ports"] == json::parse(R"([{"containerPort": 80, "name": "http"}, {"containerPort": 81}])"));
  CHECK(spec["containers"][0]["env"] == json::parse(R"([{"name": "X", "value": "1"}, {"name": "Y", "value": "2"}])"));
  CHECK(spec["containers"][0]["volumeMounts"].size() == 2);
  CHECK(spec["containers"][1] == json::parse(R"({"name": "b", "image": "b:1"})"));
  CHECK(spec["volumes"].size() == 2);
  CHECK(spec["tolerations"] == json::parse(R"([{"key": "u"}])"));  // atomic: replaced
}

TEST_CASE("strategic merge: kubectl patch of one container of a Deployment keeps the others", "[sandbox][strategic]") {
  auto c = mkq::sandbox::testing::memory_cluster();
  const json web = json::parse(R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
    "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}, {"name": "proxy", "image": "envoy:1"}]}}}})");
  REQUIRE(c->handle(request("POST", "/apis/apps/v1/namespaces/default/deployments", web.dump())).status == 201);
  const auto r = c->handle(request("PATCH", "/apis/apps/v1/namespaces/default/deployments/web",
                                   R"({"spec":{"template":{"spec":{"containers":[{"name":"proxy","image":"envoy:2"}]}}}})",
                                   {}, "application/strategic-merge-patch+json"));
  REQUIRE(r.status == 200);
  const json containers = body_of(r)["spec"]["template"]["spec"]["containers"];
  REQUIRE(containers.size() == 2);
  CHECK(containers[0]["name"] == "web");
  CHECK(containers[0]["image"] == "nginx:1.27");
  CHECK(containers[1]["image"] == "envoy:2");
}
