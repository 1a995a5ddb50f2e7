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
