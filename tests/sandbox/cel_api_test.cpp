// CRD validation rules through the sandbox's API: Kueue's released
// ClusterQueue CRD refuses a borrowingLimit without a cohort on create,
// update, merge patch and server-side apply with kube-apiserver's 422; schema
// errors that block the rules say so; a CRD whose rule does not compile is
// refused with the rule's path and cel-go's message.
#include <catch2/catch.hpp>

#include <filesystem>

#include "sandbox/daemon_files.h"
#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

const char* kCrds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const char* kQueues = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";

json released_crd(const std::string& plural) {
  std::vector<json> crds;
  std::string error;
  REQUIRE(read_crds(std::filesystem::path(MKQ_SHARED_DIR) / "kueue" / "crds", &crds, &error));
  for (json& crd : crds) {
    if (crd["spec"]["names"]["plural"] == plural) return crd;
  }
  FAIL("no CRD " << plural);
  return nullptr;
}

json queue(bool with_cohort, const std::string& name = "cq") {
  json q = json::parse(R"({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": ""},
    "spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "default",
      "resources": [{"name": "cpu", "nominalQuota": 4, "borrowingLimit": 2}]}]}]}})");
  q["metadata"]["name"] = name;
  if (with_cohort) q["spec"]["cohortName"] = "team";
  return q;
}

void check_refused(const ApiResponse& response, const std::string& name = "cq") {
  REQUIRE(response.status == 422);
  const json status = body_of(response);
  CHECK(status["kind"] == "Status");
  CHECK(status["reason"] == "Invalid");
  CHECK(status["message"] == "ClusterQueue.kueue.x-k8s.io \"" + name +
                                 "\" is invalid: spec: Invalid value: \"object\": borrowingLimit must be nil when cohort is empty");
  CHECK(status["details"]["kind"] == "ClusterQueue");
  CHECK(status["details"]["group"] == "kueue.x-k8s.io");
  REQUIRE(status["details"]["causes"].size() == 1);
  CHECK(status["details"]["causes"][0] == json{{"reason", "FieldValueInvalid"},
                                               {"message", "Invalid value: \"object\": borrowingLimit must be nil when cohort is empty"},
                                               {"field", "spec"}});
}

TEST_CASE("sandbox cel: a borrowingLimit without a cohort is refused on every write", "[sandbox][cel][api]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", kCrds, released_crd("clusterqueues").dump())).status == 201);
  check_refused(c->handle(request("POST", kQueues, queue(false).dump())));
  CHECK(c->handle(request("GET", std::string(kQueues) + "/cq")).status == 404);  // nothing stored
  // A dry run is refused the same way.
  check_refused(c->handle(request("POST", kQueues, queue(false).dump(), {{"dryRun", "All"}})));

  REQUIRE(c->handle(request("POST", kQueues, queue(true).dump())).status == 201);
  const std::string path = std::string(kQueues) + "/cq";
  SECTION("update") {
    json stored = body_of(c->handle(request("GET", path)));
    stored["spec"].erase("cohortName");
    check_refused(c->handle(request("PUT", path, stored.dump())));
  }
  SECTION("merge patch") {
    check_refused(c->handle(request("PATCH", path, R"({"spec":{"cohortName":null}})", {}, "application/merge-patch+json")));
  }
  SECTION("server-side apply of a new queue") {
    check_refused(c->handle(request("PATCH", std::string(kQueues) + "/cq2", queue(false, "cq2").dump(),
                                    {{"fieldManager", "mkq"}}, "application/apply-patch+yaml")),
                  "cq2");
    CHECK(c->handle(request("GET", std::string(kQueues) + "/cq2")).status == 404);
  }
  CHECK(body_of(c->handle(request("GET", path)))["spec"]["cohortName"] == "team");
}

TEST_CASE("sandbox cel: schema errors that block the rules are reported instead of them", "[sandbox][cel][api]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", kCrds, released_crd("clusterqueues").dump())).status == 201);
  json q = queue(false);
  q["spec"]["queueingStrategy"] = "Sometimes";
  const auto response = c->handle(request("POST", kQueues, q.dump()));
  REQUIRE(response.status == 422);
  CHECK(body_of(response)["message"] ==
        "ClusterQueue.kueue.x-k8s.io \"cq\" is invalid: [spec.queueingStrategy: Unsupported value: \"Sometimes\": "
        "supported values: \"StrictFIFO\", \"BestEffortFIFO\", <nil>: Invalid value: \"null\": some validation rules "
        "were not checked because the object was invalid; correct the existing errors to complete validation]");
}

TEST_CASE("sandbox cel: a CRD whose rule does not compile is refused", "[sandbox][cel][api]") {
  auto c = testing::memory_cluster();
  json crd = released_crd("multikueueconfigs");
  auto& rules = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"];
  rules = json::array({{{"rule", "self.clustrs.size() > 0"}, {"message", "at least one cluster"}}});
  const auto response = c->handle(request("POST", kCrds, crd.dump()));
  REQUIRE(response.status == 422);
  const json status = body_of(response);
  REQUIRE(status["details"]["causes"].size() == 1);
  CHECK(status["details"]["causes"][0]["field"] ==
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule");
  CHECK(status["details"]["causes"][0]["message"] ==
        "Invalid value: apiextensions.ValidationRule{Rule:\"self.clustrs.size() > 0\", Message:\"at least one cluster\", "
        "MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", "
        "OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'clustrs'\n"
        " | self.clustrs.size() > 0\n | ....^");
  CHECK(c->handle(request("GET", std::string(kCrds) + "/multikueueconfigs.kueue.x-k8s.io")).status == 404);
}

}  // namespace
}  // namespace mkq::sandbox
