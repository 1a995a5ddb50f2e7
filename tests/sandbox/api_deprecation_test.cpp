// A CRD version marked deprecated (resources.cpp, routing.cpp): every request
// to it is answered with kube-apiserver's Warning header; and the compiled
// CRD rules and patterns are held in bounded caches (cel/lru_cache.h).
#include <catch2/catch.hpp>

#include "sandbox/cel/lru_cache.h"
#include "sandbox/crd_rules.h"
#include "sandbox/request.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* const kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

// Widgets in v1alpha1 (deprecated, with its own warning), v1beta1 (deprecated,
// the default warning) and v1.
json deprecated_crd() {
  json crd = testing::widget_crd();
  json alpha = crd["spec"]["versions"][0];
  alpha["name"] = "v1alpha1";
  alpha["deprecated"] = true;
  alpha["deprecationWarning"] = "example.com/v1alpha1 Widget is going away; use example.com/v1 Widget";
  crd["spec"]["versions"][0]["deprecated"] = true;
  crd["spec"]["versions"].push_back(alpha);
  return crd;
}

TEST_CASE("sandbox deprecation: a deprecated CRD version's requests carry kube-apiserver's Warning",
          "[sandbox][api]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", kCrds, deprecated_crd().dump())).status == 201);
  const std::string beta = "299 - \"example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget\"";
  const std::string alpha = "299 - \"example.com/v1alpha1 Widget is going away; use example.com/v1 Widget\"";
  const auto warning = [](const ApiResponse& r) {
    const auto it = r.headers.find("Warning");
    return it == r.headers.end() ? std::string() : it->second;
  };
  // Every verb, an error answer too; none on the version that is not deprecated.
  const ApiResponse created = c->handle(
      request("POST", "/apis/example.com/v1beta1/widgets", R"({"metadata":{"name":"w"},"spec":{"size":1}})"));
  CHECK(created.status == 201);
  CHECK(warning(created) == beta);
  CHECK(warning(c->handle(request("GET", "/apis/example.com/v1beta1/widgets"))) == beta);
  CHECK(warning(c->handle(request("GET", "/apis/example.com/v1beta1/widgets/w"))) == beta);
  const ApiResponse missing = c->handle(request("GET", "/apis/example.com/v1beta1/widgets/nope"));
  CHECK(missing.status == 404);
  CHECK(warning(missing) == beta);
  CHECK(warning(c->handle(request("GET", "/apis/example.com/v1alpha1/widgets/w"))) == alpha);
  CHECK(warning(c->handle(request("GET", "/apis/example.com/v1/widgets/w"))).empty());
  // Before the verb's own warnings.
  ApiResponse answer = with_warnings(ApiResponse{}, {"unknown field \"bogus\""});
  add_first_warning(answer, "example.com/v1alpha1 Widget is going away");
  CHECK(warning(answer) ==
        "299 - \"example.com/v1alpha1 Widget is going away\", 299 - \"unknown field \\\"bogus\\\"\"");
}

TEST_CASE("sandbox caches: the least recently used entry goes first, one in use survives", "[sandbox][cel]") {
  cel::LruCache<std::string> cache(2);
  cache.insert("a", "A");
  const auto b = cache.insert("b", "B");
  CHECK(cache.find("a"));  // a is now the most recently used
  cache.insert("c", "C");
  CHECK(cache.size() == 2);
  CHECK_FALSE(cache.find("b"));
  CHECK(*b == "B");  // still held by its user
  CHECK(*cache.find("a") == "A");
  cache.insert("a", "A2");  // replaced, not added
  CHECK(cache.size() == 2);
  CHECK(*cache.find("a") == "A2");
}

TEST_CASE("sandbox caches: compiled CRD rules stay bounded across CRD updates and deletions",
          "[sandbox][cel]") {
  auto c = testing::memory_cluster();
  json crd = testing::widget_crd();
  crd["spec"]["versions"][1]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] =
      json::array({{{"rule", "self.size >= 1"}}});
  const std::string widgets = "/apis/example.com/v1/widgets";
  REQUIRE(c->handle(request("POST", kCrds, crd.dump())).status == 201);
  const std::size_t before = crd_rules_cached();
  // Each update is a new resourceVersion: its compiled rules replace the last ones.
  for (int i = 0; i < 20; ++i) {
    REQUIRE(c->handle(request("PATCH", std::string(kCrds) + "/widgets.example.com",
                              json{{"metadata", {{"labels", {{"n", std::to_string(i)}}}}}}.dump(), {},
                              "application/merge-patch+json"))
                .status == 200);
    CHECK(
        c->handle(
             request("POST", widgets,
                     json{{"metadata", {{"name", "w" + std::to_string(i)}}}, {"spec", {{"size", 1}}}}.dump()))
            .status == 201);
  }
  CHECK(crd_rules_cached() <= before + 1);
  CHECK(c->handle(request("POST", widgets, R"({"metadata":{"name":"bad"},"spec":{"size":0}})")).status ==
        422);
  // CRDs created and deleted: never more than the bound.
  for (std::size_t i = 0; i < kCrdRulesCached + 20; ++i) {
    json other = crd;
    other["metadata"]["name"] = "gadgets" + std::to_string(i) + ".example.com";
    other["spec"]["group"] = "example.com";
    other["spec"]["names"] = {{"plural", "gadgets" + std::to_string(i)},
                              {"kind", "Gadget" + std::to_string(i)}};
    REQUIRE(c->handle(request("POST", kCrds, other.dump())).status == 201);
    REQUIRE(c->handle(request("POST", "/apis/example.com/v1/gadgets" + std::to_string(i),
                              json{{"metadata", {{"name", "g"}}}, {"spec", {{"size", 1}}}}.dump()))
                .status == 201);
    REQUIRE(
        c->handle(request("DELETE", std::string(kCrds) + "/" + other["metadata"]["name"].get<std::string>()))
            .status == 200);
  }
  CHECK(crd_rules_cached() <= kCrdRulesCached);
}

}  // namespace
}  // namespace mkq::sandbox
