// CEL cost limits as kube-apiserver applies them (cel/cost.h, crd_rules.cpp):
// estimated at a CRD's creation (per rule, times how often it can run, and per
// schema), counted at runtime (per call, and a budget per object). The CRDs
// the sandbox installs are within every limit.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sandbox/cel/cost.h"
#include "sandbox/cel/program.h"
#include "sandbox/crd_rules.h"
#include "sandbox/daemon_files.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* const kTail =
    " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and "
    "strings "
    "are declared)";

std::uint64_t estimate(const std::string& rule, const json& schema) {
  auto program = cel::Program::compile(rule, schema, false);
  REQUIRE(program);
  return program->estimated_cost();
}

// A Gadget CRD whose spec has `properties` and the rules `rules`.
json gadget_crd(const json& properties, const json& rules) {
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "gadgets.example.com"}}},
          {"spec",
           {{"group", "example.com"},
            {"scope", "Cluster"},
            {"names", {{"plural", "gadgets"}, {"kind", "Gadget"}}},
            {"versions",
             {{{"name", "v1"},
               {"served", true},
               {"storage", true},
               {"schema",
                {{"openAPIV3Schema",
                  {{"type", "object"},
                   {"properties",
                    {{"spec",
                      {{"type", "object"},
                       {"properties", properties},
                       {"x-kubernetes-validations", rules}}}}}}}}}}}}}}};
}

TEST_CASE("cel cost: every CRD the sandbox installs is within kube-apiserver's limits",
          "[sandbox][cel][crds]") {
  for (const char* dir : {"/kueue/crds", "/kueue/openshift"}) {
    std::vector<json> found;
    std::string error;
    REQUIRE(read_crds(std::string(MKQ_SHARED_DIR) + dir, &found, &error));
    for (const json& crd : found) {
      std::vector<FieldError> errors;
      validate_crd_rules(crd, &errors);
      INFO(crd["metadata"]["name"].get<std::string>()
           << ": " << (errors.empty() ? "" : errors[0].field + ": " + errors[0].message));
      CHECK(errors.empty());
    }
  }
}

TEST_CASE("cel cost: the estimate follows the schema's bounds", "[sandbox][cel]") {
  const json bounded = {
      {"type", "array"}, {"maxItems", 10}, {"items", {{"type", "string"}, {"maxLength", 20}}}};
  const json unbounded = {{"type", "array"}, {"items", {{"type", "string"}}}};
  // self (1), then per item its loop step (3) and x == 'a' (the call, x, two characters compared).
  CHECK(estimate("self.all(x, x == 'a')", bounded) == 1 + 10 * (3 + 3));
  CHECK(estimate("self.all(x, x == 'a')", unbounded) ==
        1 + cel::unbounded_cardinality(unbounded["items"], false) * 6);
  CHECK(cel::unbounded_cardinality(unbounded["items"], false) == (3 * 1024 * 1024 - 2) / 3);
  // Nested comprehensions multiply; a size is cheap whatever the bound.
  CHECK(estimate("self.all(x, self.all(y, x == y))", bounded) >
        10 * estimate("self.all(x, x == 'a')", bounded));
  CHECK(estimate("self.size() <= 5", unbounded) == 3);
  // Strings are traversed at a tenth of their length.
  CHECK(estimate("self.startsWith('a')", json{{"type", "string"}, {"maxLength", 100}}) == 1 + 1 + 10);
}

TEST_CASE("cel cost: kube-apiserver's factor in the message", "[sandbox][cel]") {
  CHECK(cel::cost_error_message("estimated rule cost", 12, 10) ==
        std::string("estimated rule cost exceeds budget by factor of 1.200000x") + kTail);
  CHECK(cel::cost_error_message("estimated rule cost", 25, 10) ==
        std::string("estimated rule cost exceeds budget by factor of 2.5x") + kTail);
  CHECK(cel::cost_error_message("estimated rule cost", 1001, 10) ==
        std::string("estimated rule cost exceeds budget by factor of more than 100x") + kTail);
}

TEST_CASE("cel cost: a CRD over the estimated limits is refused as kube-apiserver refuses it",
          "[sandbox][cel]") {
  auto c = testing::memory_cluster();
  const std::string crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  const json strings = {{"type", "array"}, {"items", {{"type", "string"}}}};
  // One rule: cubic over an unbounded list.
  ApiResponse refused = c->handle(
      request("POST", crds,
              gadget_crd({{"names", strings}},
                         {{{"rule", "self.names.all(x, self.names.all(y, self.names.all(z, x == y)))"}}})
                  .dump()));
  REQUIRE(refused.status == 422);
  // Over the per-rule limit, and so over the schema's too: three errors, as kube-apiserver lists them.
  const std::string rule =
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule";
  CHECK(body_of(refused)["message"] ==
        "CustomResourceDefinition.apiextensions.k8s.io \"gadgets.example.com\" is invalid: [" + rule +
            ": Forbidden: estimated rule cost exceeds budget by factor of more than 100x" + kTail + ", " +
            rule +
            ": Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 "
            "schema, "
            "spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule "
            "cost total "
            "for entire OpenAPIv3 schema exceeds budget by factor of more than 100x" +
            kTail + "]");
  // A cheap rule run once per item of an unbounded list: its cardinality makes it dear.
  json item = {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}};
  item["x-kubernetes-validations"] = json::array({json{{"rule", "self.name.startsWith('a')"}}});
  json items = {{"type", "array"}, {"items", item}};
  refused = c->handle(request("POST", crds, gadget_crd({{"items", items}}, json::array()).dump()));
  REQUIRE(refused.status == 422);
  CHECK(body_of(refused)["message"].get<std::string>().find(
            "properties[items].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost "
            "exceeds budget "
            "by factor of more than 100x") != std::string::npos);
  items["maxItems"] = 10;
  items["items"]["properties"]["name"]["maxLength"] = 63;
  CHECK(c->handle(request("POST", crds, gadget_crd({{"items", items}}, json::array()).dump())).status == 201);
  REQUIRE(c->handle(request("DELETE", crds + "/gadgets.example.com")).status == 200);

  // Twelve rules each under the per-rule limit (1 + 6 x 1,500,000), over the schema's limit together.
  const json wide = {
      {"type", "array"}, {"maxItems", 1500000}, {"items", {{"type", "string"}, {"maxLength", 1}}}};
  json rules = json::array();
  for (int i = 0; i < 12; ++i) rules.push_back({{"rule", "self.names.all(x, x == 'a')"}});
  refused = c->handle(request("POST", crds, gadget_crd({{"names", wide}}, rules).dump()));
  REQUIRE(refused.status == 422);
  const std::string message = body_of(refused)["message"];
  CHECK(message.find(
            "x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding "
            "cost limit for entire OpenAPIv3 schema") != std::string::npos);
  CHECK(
      message.find(
          "spec.versions[0].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost "
          "total for entire OpenAPIv3 schema exceeds budget by factor of 1.080000x") != std::string::npos);
  CHECK(message.find("x-kubernetes-validations[4].rule: Forbidden: contributed") ==
        std::string::npos);  // four named
  rules.erase(rules.begin());
  CHECK(c->handle(request("POST", crds, gadget_crd({{"names", wide}}, rules).dump())).status == 201);
}

TEST_CASE("cel cost: at runtime a rule over the per-call limit, and rules over the object's budget, are 422",
          "[sandbox][cel]") {
  auto c = testing::memory_cluster();
  const auto ints = [](int max_items) {
    return json{{"type", "array"}, {"maxItems", max_items}, {"items", {{"type", "integer"}}}};
  };
  const auto numbers = [](int n) {
    json out = json::array();
    for (int i = 0; i < n; ++i) out.push_back(i);
    return out;
  };
  const std::string quadratic = "self.l.all(x, self.l.all(y, x <= y || x > y))";
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            gadget_crd({{"l", ints(900)}}, {{{"rule", quadratic}}}).dump()))
              .status == 201);
  const auto create = [&](const std::string& name, int n) {
    return c->handle(request("POST", "/apis/example.com/v1/gadgets",
                             json{{"apiVersion", "example.com/v1"},
                                  {"kind", "Gadget"},
                                  {"metadata", {{"name", name}}},
                                  {"spec", {{"l", numbers(n)}}}}
                                 .dump()));
  };
  CHECK(create("small", 100).status == 201);
  const ApiResponse dear = create("dear", 900);
  REQUIRE(dear.status == 422);
  CHECK(body_of(dear)["message"] ==
        "Gadget.example.com \"dear\" is invalid: spec: Invalid value: \"object\": 'operation cancelled: "
        "actual cost "
        "limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: " +
            quadratic);

  // Fourteen rules of about 770,000 each on 300 items: the last finds the budget spent.
  auto budget = testing::memory_cluster();
  json rules = json::array();
  for (int i = 0; i < 14; ++i) rules.push_back({{"rule", quadratic}});
  REQUIRE(budget
              ->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                               gadget_crd({{"l", ints(300)}}, rules).dump()))
              .status == 201);
  const ApiResponse spent =
      budget->handle(request("POST", "/apis/example.com/v1/gadgets",
                             json{{"metadata", {{"name", "g"}}}, {"spec", {{"l", numbers(300)}}}}.dump()));
  REQUIRE(spent.status == 422);
  CHECK(body_of(spent)["message"] ==
        "Gadget.example.com \"g\" is invalid: spec: Invalid value: \"object\": validation failed due to "
        "running out "
        "of cost budget, no further validation rules will be run");
}

}  // namespace
}  // namespace mkq::sandbox
