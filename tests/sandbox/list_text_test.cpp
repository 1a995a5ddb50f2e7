// A LIST answered from the stored text (verbs_read.cpp) says byte for byte
// what the parsed answer says; json_text.h's scan of top-level members.
#include <catch2/catch.hpp>

#include "sandbox/json_text.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::request;

TEST_CASE("json text: top-level members are found without parsing, nested ones are not", "[sandbox][list]") {
  const std::string text =
      R"({"a":{"kind":"Inner","s":"}{]\"["},"apiVersion":"v1","items":[1,{"kind":"x"}],"kind":"Pod","n":-1.5e3})";
  CHECK(top_level_member(text, "kind") == std::optional<std::string_view>("\"Pod\""));
  CHECK(top_level_member(text, "apiVersion") == std::optional<std::string_view>("\"v1\""));
  CHECK(top_level_member(text, "n") == std::optional<std::string_view>("-1.5e3"));
  CHECK(top_level_member(text, "a") == std::optional<std::string_view>(R"({"kind":"Inner","s":"}{]\"["})"));
  CHECK_FALSE(top_level_member(text, "s"));
  CHECK_FALSE(top_level_member(text, "missing"));
  CHECK(top_level_member(R"( { "kind" : "Pod" } )", "kind") == std::optional<std::string_view>("\"Pod\""));
  // Not guessed: an escaped key, text that is not an object or is cut short.
  CHECK_FALSE(top_level_member(R"({"\u006bind":"Pod"})", "kind"));
  CHECK_FALSE(top_level_member(R"(["kind","Pod"])", "kind"));
  CHECK_FALSE(top_level_member(R"({"a":{"b":1},"kind":"Po)", "kind"));
  CHECK_FALSE(top_level_member(R"({"a":"x" "kind":"Pod"})", "kind"));
  CHECK_FALSE(top_level_member("", "kind"));
  CHECK_FALSE(top_level_member("{}", "kind"));
}

TEST_CASE("sandbox list: the answer from stored text is the parsed answer, byte for byte", "[sandbox][list]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", testing::widget_crd().dump()))
              .status == 201);
  for (int i = 0; i < 7; ++i) {
    json cm = {{"metadata", {{"name", "cm" + std::to_string(i)}, {"labels", {{"n", std::to_string(i)}}}}},
               {"data", {{"text", "caf\u00e9 \"quoted\" {brace} \\ " + std::to_string(i)}, {"kind", "not the kind"}}}};
    REQUIRE(c->handle(request("POST", "/api/v1/namespaces/default/configmaps", cm.dump())).status == 201);
  }
  REQUIRE(c->handle(request("POST", "/apis/example.com/v1/widgets", R"({"metadata":{"name":"w1"},"spec":{"size":2}})"))
              .status == 201);
  // Every answer with no selector (spliced) against the same list with a
  // selector that matches everything (each object parsed and written again).
  const auto same = [&](const std::string& path, std::multimap<std::string, std::string> query) {
    const ApiResponse spliced = c->handle(request("GET", path, "", query));
    query.emplace("fieldSelector", "metadata.name!=no-such-name");
    const ApiResponse parsed = c->handle(request("GET", path, "", query));
    REQUIRE(spliced.status == 200);
    // A page without selectors also says how many are left; with one it cannot.
    const json metadata = testing::body_of(spliced)["metadata"];
    std::string text = spliced.body;
    if (metadata.contains("remainingItemCount")) {
      const std::string member = "\"remainingItemCount\":" + metadata["remainingItemCount"].dump() + ",";
      REQUIRE(text.find(member) != std::string::npos);
      text.erase(text.find(member), member.size());
    }
    CHECK(text == parsed.body);
    return testing::body_of(spliced);
  };
  CHECK(same("/api/v1/namespaces/default/configmaps", {})["items"].size() == 7);
  same("/api/v1/configmaps", {});
  same("/api/v1/namespaces", {});
  same("/apis/rbac.authorization.k8s.io/v1/clusterroles", {});
  same("/apis/example.com/v1/widgets", {});
  // The stored text says v1: served as v1beta1, the object is presented again.
  CHECK(same("/apis/example.com/v1beta1/widgets", {})["items"][0]["apiVersion"] == "example.com/v1beta1");
  // Pages: the same items, the same continue token.
  json page = same("/api/v1/namespaces/default/configmaps", {{"limit", "3"}});
  CHECK(page["items"].size() == 3);
  CHECK(page["metadata"]["remainingItemCount"] == 4);
  REQUIRE(page["metadata"].contains("continue"));
  page = same("/api/v1/namespaces/default/configmaps", {{"limit", "3"}, {"continue", page["metadata"]["continue"]}});
  CHECK(page["items"][0]["metadata"]["name"] == "cm3");
  page = same("/api/v1/namespaces/default/configmaps", {{"limit", "3"}, {"continue", page["metadata"]["continue"]}});
  CHECK(page["items"].size() == 1);
  CHECK_FALSE(page["metadata"].contains("continue"));
  same("/api/v1/namespaces/default/configmaps", {{"limit", "7"}});
}

}  // namespace
}  // namespace mkq::sandbox
