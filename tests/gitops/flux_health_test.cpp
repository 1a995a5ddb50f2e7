// The Flux health expressions mkq ships (integrations/gitops/flux/
// health-check-exprs.yaml) run as kustomize-controller runs them (see
// flux_health.h), by the sandbox's CEL evaluator, on objects of the four kinds
// in each state Kueue leaves them in. e2e.gitops runs them on the sandbox's
// own objects as well.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sandbox/cel/program.h"
#include "tests/gitops/flux_health.h"
#include "tests/support/crd_validator.h"

namespace {

using mkq::testing::FluxHealthCheck;
using mkq::testing::FluxStatus;
using nlohmann::json;

const char* const kKinds[] = {"ClusterQueue", "LocalQueue", "AdmissionCheck", "MultiKueueCluster"};

std::vector<FluxHealthCheck> shipped_checks() {
  const auto read =
      mkq::test_support::read_yaml_file(MKQ_SOURCE_DIR "/integrations/gitops/flux/health-check-exprs.yaml");
  REQUIRE(read.errors.empty());
  REQUIRE(read.documents.size() == 1);
  return mkq::testing::flux_health_checks(read.documents[0]);
}

// An object of `kind` at generation 2 with `status` (null: no status at all).
json object_of(const std::string& kind, const json& status) {
  json object = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                 {"kind", kind},
                 {"metadata", {{"name", "q"}, {"generation", 2}}},
                 {"spec", json::object()}};
  if (kind == "LocalQueue") object["metadata"]["namespace"] = "default";
  if (!status.is_null()) object["status"] = status;
  return object;
}

json active(const std::string& value) {
  return {{"type", "Active"}, {"status", value},         {"reason", "R"},
          {"message", "m"},   {"observedGeneration", 2}, {"lastTransitionTime", "2025-01-01T00:00:00Z"}};
}

mkq::testing::FluxVerdict health_of(const json& object) {
  static const std::vector<FluxHealthCheck> checks = shipped_checks();
  const FluxHealthCheck* check = mkq::testing::flux_check_for(checks, object);
  REQUIRE(check != nullptr);
  return mkq::testing::flux_health(*check, object);
}

}  // namespace

TEST_CASE("the Flux health expressions cover the four kinds with current and failed, and parse",
          "[gitops][flux]") {
  const std::vector<FluxHealthCheck> checks = shipped_checks();
  REQUIRE(checks.size() == 4);
  for (const char* kind : kKinds) {
    INFO(kind);
    const FluxHealthCheck* check =
        mkq::testing::flux_check_for(checks, {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", kind}});
    REQUIRE(check != nullptr);
    CHECK(!check->current.empty());
    CHECK(!check->failed.empty());
    CHECK(mkq::sandbox::cel::Program::parse_unchecked(check->current).ok());
    CHECK(mkq::sandbox::cel::Program::parse_unchecked(check->failed).ok());
  }
}

TEST_CASE("Flux: Active True is Current, Active False is Failed, for each kind", "[gitops][flux]") {
  for (const char* kind : kKinds) {
    INFO(kind);
    CHECK(health_of(object_of(kind, {{"conditions", {active("True")}}})).status == FluxStatus::Current);
    CHECK(health_of(object_of(kind, {{"conditions", {active("False")}}})).status == FluxStatus::Failed);
    // Among other conditions, in any order.
    const json other = {{"type", "Ready"}, {"status", "False"}};
    CHECK(health_of(object_of(kind, {{"conditions", {other, active("True")}}})).status ==
          FluxStatus::Current);
    CHECK(health_of(object_of(kind, {{"conditions", {active("False"), other}}})).status ==
          FluxStatus::Failed);
  }
}

TEST_CASE("Flux: InProgress while Kueue has not decided", "[gitops][flux]") {
  for (const char* kind : kKinds) {
    INFO(kind);
    CHECK(health_of(object_of(kind, {{"conditions", {active("Unknown")}}})).status == FluxStatus::InProgress);
    CHECK(health_of(object_of(kind, {{"conditions", {{{"type", "Ready"}, {"status", "True"}}}}})).status ==
          FluxStatus::InProgress);
    CHECK(health_of(object_of(kind, {{"conditions", json::array()}})).status == FluxStatus::InProgress);
    CHECK(health_of(object_of(kind, json::object())).status == FluxStatus::InProgress);
    // Flux reads status.observedGeneration before any expression.
    CHECK(health_of(object_of(kind, {{"observedGeneration", 1}, {"conditions", {active("True")}}})).status ==
          FluxStatus::InProgress);
  }
}

TEST_CASE("Flux: an object with no status at all is an evaluation error (Flux waits)", "[gitops][flux]") {
  // The variables are the object's top-level fields: before Kueue writes a
  // status there is no `status`, and has(status.conditions) fails as cel-go's
  // does. Flux reports it and keeps waiting (until the Kustomization's timeout).
  const auto verdict = health_of(object_of("ClusterQueue", nullptr));
  CHECK(verdict.status == FluxStatus::Error);
  CHECK(verdict.error.find("no such attribute: status") != std::string::npos);
}

TEST_CASE("why exists: filter(...).all(...) is true where no Active condition exists", "[gitops][flux]") {
  const json object = object_of("ClusterQueue", {{"conditions", json::array()}});
  FluxHealthCheck check{"kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "",
                        "status.conditions.filter(e, e.type == 'Active').all(e, e.status == 'True')"};
  CHECK(mkq::testing::flux_health(check, object).status == FluxStatus::Current);
}

TEST_CASE("cel evaluate_with: the members are the variables, self is none", "[gitops][cel]") {
  const json variables = {{"status", {{"n", 3}}}, {"metadata", {{"name", "q"}}}};
  const auto run = [&](const std::string& text) {
    auto program = mkq::sandbox::cel::Program::parse_unchecked(text);
    REQUIRE(program);
    return program->evaluate_with(variables);
  };
  const auto sum = run("status.n + 1 == 4 && metadata.name == 'q'");
  REQUIRE(sum.kind() == mkq::sandbox::cel::Value::Kind::Bool);
  CHECK(sum.as_bool());
  CHECK(run("self.status.n == 3").text() == "no such attribute: self");
  CHECK(run("spec.x == 1").text() == "no such attribute: spec");
  CHECK(!mkq::sandbox::cel::Program::parse_unchecked("status.n ==").ok());
}
