// CustomResourceDefinitions: serving, discovery, validation, pruning,
// defaulting, status subresource, generation, tables.
#include <catch2/catch.hpp>
#include <set>

#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const char* kWidgets = "/apis/example.com/v1/widgets";

std::unique_ptr<Cluster> with_widgets() {
  auto c = testing::memory_cluster();
  auto created = c->handle(request("POST", kCrds, testing::widget_crd().dump()));
  REQUIRE(created.status == 201);
  return c;
}

json widget(const std::string& name, json spec) {
  return {{"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", name}}}, {"spec", std::move(spec)}};
}

TEST_CASE("sandbox api: a CRD serves its kinds and is discoverable", "[sandbox][api][crd]") {
  auto c = with_widgets();
  auto crd = body_of(c->handle(request("GET", std::string(kCrds) + "/widgets.example.com")));
  CHECK(crd["metadata"]["generation"] == 1);
  bool established = false;
  for (const auto& cond : crd["status"]["conditions"]) {
    if (cond["type"] == "Established" && cond["status"] == "True") established = true;
  }
  CHECK(established);
  CHECK(crd["status"]["acceptedNames"]["kind"] == "Widget");

  auto groups = body_of(c->handle(request("GET", "/apis")));
  json example;
  for (const auto& g : groups["groups"]) {
    if (g["name"] == "example.com") example = g;
  }
  REQUIRE(example.is_object());
  CHECK(example["preferredVersion"]["version"] == "v1");
  CHECK(example["versions"].size() == 2);

  auto resources = body_of(c->handle(request("GET", "/apis/example.com/v1")));
  REQUIRE(resources["resources"].size() == 2);
  CHECK(resources["resources"][0]["name"] == "widgets");
  CHECK(resources["resources"][0]["namespaced"] == false);
  CHECK(resources["resources"][0]["shortNames"] == json::array({"wd"}));
  CHECK(resources["resources"][0]["categories"] == json::array({"all", "fun"}));
  CHECK(resources["resources"][1]["name"] == "widgets/status");
  auto beta = body_of(c->handle(request("GET", "/apis/example.com/v1beta1")));
  CHECK(beta["resources"].size() == 1);  // no status subresource in v1beta1

  auto list = c->handle(request("GET", kWidgets));
  CHECK(list.status == 200);
  CHECK(body_of(list)["kind"] == "WidgetList");

  auto bad_crd = testing::widget_crd();
  bad_crd["metadata"]["name"] = "other.example.com";
  auto refused = c->handle(request("POST", kCrds, bad_crd.dump()));
  CHECK(refused.status == 422);
  CHECK(body_of(refused)["details"]["causes"][0]["field"] == "metadata.name");

  // Deleting the CRD stops serving its kinds and removes its objects.
  REQUIRE(c->handle(request("POST", kWidgets, widget("w", {{"size", 1}}).dump())).status == 201);
  CHECK(c->handle(request("DELETE", std::string(kCrds) + "/widgets.example.com")).status == 200);
  CHECK(c->handle(request("GET", kWidgets)).status == 404);
  CHECK(c->handle(request("GET", "/apis/example.com/v1")).status == 404);
  CHECK(c->object_count() == 4 + 14 + 3);  // the default namespaces, the bootstrap ClusterRoles (10) and bindings (4), the kubernetes Service, the two system PriorityClasses
}

TEST_CASE("sandbox api: custom resources are validated with Kubernetes' messages", "[sandbox][api][crd]") {
  auto c = with_widgets();
  auto enum_error = c->handle(request("POST", kWidgets, widget("w", {{"size", 1}, {"strategy", "Foo"}}).dump()));
  REQUIRE(enum_error.status == 422);
  auto status = body_of(enum_error);
  CHECK(status["reason"] == "Invalid");
  CHECK(status["message"] ==
        "Widget.example.com \"w\" is invalid: spec.strategy: Unsupported value: \"Foo\": supported values: "
        "\"BestEffortFIFO\", \"StrictFIFO\"");
  CHECK(status["details"]["kind"] == "Widget");
  CHECK(status["details"]["group"] == "example.com");
  CHECK(status["details"]["causes"][0] ==
        json({{"reason", "FieldValueNotSupported"},
              {"message", "Unsupported value: \"Foo\": supported values: \"BestEffortFIFO\", \"StrictFIFO\""},
              {"field", "spec.strategy"}}));

  auto required = body_of(c->handle(request("POST", kWidgets, widget("w", json::object()).dump())));
  CHECK(required["message"] == "Widget.example.com \"w\" is invalid: spec.size: Required value");

  auto several = body_of(c->handle(request(
      "POST", kWidgets,
      widget("w", {{"size", 11}, {"cohort", "ABC"}, {"flavors", {{{"name", "a"}}, {{"name", "a"}}}}}).dump())));
  CHECK(several["details"]["causes"].size() == 3);
  CHECK(several["message"].get<std::string>().find("is invalid: [") != std::string::npos);
  std::set<std::string> fields;
  for (const auto& cause : several["details"]["causes"]) fields.insert(cause["field"]);
  CHECK(fields == std::set<std::string>{"spec.size", "spec.cohort", "spec.flavors[1]"});

  auto type = body_of(c->handle(request("POST", kWidgets, widget("w", {{"size", "big"}}).dump())));
  CHECK(type["details"]["causes"][0]["message"] ==
        "Invalid value: \"string\": spec.size in body must be of type integer: \"string\"");
  auto too_long = body_of(c->handle(request("POST", kWidgets, widget("w", {{"size", 1}, {"cohort", "abcdefghijkl"}}).dump())));
  CHECK(too_long["details"]["causes"][0]["message"] == "Too long: may not be more than 10 bytes");
  auto too_many = body_of(c->handle(request(
      "POST", kWidgets, widget("w", {{"size", 1}, {"flavors", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}}}}}).dump())));
  CHECK(too_many["details"]["causes"][0]["reason"] == "FieldValueTooMany");
  auto map_value = body_of(c->handle(request("POST", kWidgets, widget("w", {{"size", 1}, {"labels", {{"a", 1}}}}).dump())));
  CHECK(map_value["details"]["causes"][0]["field"] == "spec.labels[a]");
  auto ios = c->handle(request("POST", kWidgets, widget("w", {{"size", 1}, {"quota", "10Gi"}}).dump()));
  CHECK(ios.status == 201);
  auto bad_ios = body_of(c->handle(request("POST", kWidgets, widget("w2", {{"size", 1}, {"quota", true}}).dump())));
  CHECK(bad_ios["details"]["causes"][0]["field"] == "spec.quota");
}

TEST_CASE("sandbox api: unknown fields are pruned, or refused under Strict, defaults applied", "[sandbox][api][crd]") {
  auto c = with_widgets();
  const auto body = widget("w", {{"size", 2}, {"color", "red"}, {"note", nullptr}}).dump();
  auto strict = c->handle(request("POST", kWidgets, body, {{"fieldValidation", "Strict"}}));
  CHECK(strict.status == 400);
  CHECK(body_of(strict)["message"] ==
        "Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.color\"");
  auto warn = c->handle(request("POST", kWidgets, body));
  REQUIRE(warn.status == 201);
  CHECK(warn.headers["Warning"] == "299 - \"unknown field \\\"spec.color\\\"\"");
  auto stored = body_of(c->handle(request("GET", kWidgets + std::string("/w"))));
  CHECK_FALSE(stored["spec"].contains("color"));
  CHECK(stored["spec"]["strategy"] == "BestEffortFIFO");
  CHECK(stored["spec"]["note"].is_null());  // nullable: kept
  CHECK(stored["spec"].contains("note"));

  // v1beta1 preserves unknown fields.
  json beta = widget("b", {{"anything", {{"goes", 1}}}});
  beta["apiVersion"] = "example.com/v1beta1";
  auto created = c->handle(request("POST", "/apis/example.com/v1beta1/widgets", beta.dump(), {{"fieldValidation", "Strict"}}));
  CHECK(created.status == 201);
  CHECK(body_of(created)["spec"]["anything"]["goes"] == 1);
}

TEST_CASE("sandbox api: status subresource and generation", "[sandbox][api][crd]") {
  auto c = with_widgets();
  json w = widget("w", {{"size", 2}});
  w["status"] = {{"conditions", {{{"type", "Active"}, {"status", "True"}}}}};
  auto created = body_of(c->handle(request("POST", kWidgets, w.dump())));
  CHECK_FALSE(created.contains("status"));  // dropped on create
  CHECK(created["metadata"]["generation"] == 1);

  auto status_put = created;
  status_put["status"] = {{"conditions", {{{"type", "Active"}, {"status", "True"}}}}};
  status_put["spec"]["size"] = 9;  // ignored by a status write
  auto st = c->handle(request("PUT", kWidgets + std::string("/w/status"), status_put.dump()));
  REQUIRE(st.status == 200);
  auto after_status = body_of(st);
  CHECK(after_status["status"]["conditions"][0]["status"] == "True");
  CHECK(after_status["spec"]["size"] == 2);
  CHECK(after_status["metadata"]["generation"] == 1);

  // The main resource ignores status; spec changes bump generation.
  auto main_put = after_status;
  main_put["status"] = json::object();
  main_put["spec"]["size"] = 3;
  auto updated = body_of(c->handle(request("PUT", kWidgets + std::string("/w"), main_put.dump())));
  CHECK(updated["spec"]["size"] == 3);
  CHECK(updated["status"]["conditions"][0]["status"] == "True");
  CHECK(updated["metadata"]["generation"] == 2);
  // Metadata-only changes keep generation.
  auto labelled = body_of(c->handle(request("PATCH", kWidgets + std::string("/w"), R"({"metadata":{"labels":{"a":"b"}}})", {},
                                            "application/merge-patch+json")));
  CHECK(labelled["metadata"]["generation"] == 2);
  auto status_patch = c->handle(request("PATCH", kWidgets + std::string("/w/status"),
                                        R"({"status":{"conditions":[{"type":"Active","status":"False"}]}})", {},
                                        "application/merge-patch+json"));
  CHECK(body_of(status_patch)["status"]["conditions"][0]["status"] == "False");
  CHECK(body_of(status_patch)["metadata"]["generation"] == 2);

  // Custom resources need a resourceVersion on PUT.
  auto unconditional = updated;
  unconditional["metadata"].erase("resourceVersion");
  CHECK(c->handle(request("PUT", kWidgets + std::string("/w"), unconditional.dump())).status == 422);
  // Strategic merge patch is not for custom resources.
  CHECK(c->handle(request("PATCH", kWidgets + std::string("/w"), "{}", {}, "application/strategic-merge-patch+json")).status == 415);
}

TEST_CASE("sandbox api: tables with printer columns", "[sandbox][api][crd]") {
  auto c = with_widgets();
  c->handle(request("POST", kWidgets, widget("w", {{"size", 2}, {"cohort", "team"}}).dump()));
  c->handle(request("PATCH", kWidgets + std::string("/w/status"), R"({"status":{"conditions":[{"type":"Other","status":"X"},{"type":"Active","status":"True"}]}})",
                    {}, "application/merge-patch+json"));
  auto r = request("GET", kWidgets);
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
  auto table = body_of(c->handle(r));
  CHECK(table["kind"] == "Table");
  // Name and the CRD's two columns: apiextensions-apiserver adds Age only when a CRD declares none.
  REQUIRE(table["columnDefinitions"].size() == 3);
  CHECK(table["columnDefinitions"][1]["name"] == "Cohort");
  CHECK(table["columnDefinitions"][2]["name"] == "Active");
  REQUIRE(table["rows"].size() == 1);
  CHECK(table["rows"][0]["cells"][0] == "w");
  CHECK(table["rows"][0]["cells"][1] == "team");
  CHECK(table["rows"][0]["cells"][2] == "True");
  CHECK(table["rows"][0]["object"]["metadata"]["name"] == "w");
  auto one = request("GET", kWidgets + std::string("/w"));
  one.headers["accept"] = r.headers["accept"];
  CHECK(body_of(c->handle(one))["rows"].size() == 1);
}

}  // namespace
}  // namespace mkq::sandbox
