// Preflight findings as plan data: the Preflight section of each rendering
// (golden), and their JSON read back.
#include <catch2/catch.hpp>

#include "runtime/reconcile/plan.h"

namespace {

using mkq::reconcile::Finding;
using mkq::reconcile::FindingCode;
using mkq::reconcile::Plan;
using mkq::reconcile::Severity;

Plan plan_with_findings() {
  Plan plan;
  mkq::reconcile::ClusterPlan manager;
  manager.cluster = "m";
  manager.role = mkq::kueue::ClusterRole::Manager;
  plan.clusters.push_back(manager);
  plan.preflight.push_back(Finding{Severity::Error, FindingCode::IntegrationCrd, "w2",
                                   "CRD jobsets.jobset.x-k8s.io is not served", "install JobSet on w2"});
  plan.preflight.push_back(Finding{Severity::Warning, FindingCode::PersonaRole, "m",
                                   "ClusterRole kueue-batch-user-role does not exist", ""});
  return plan;
}

}  // namespace

TEST_CASE("plan text: the Preflight section comes first, and an error says apply refuses", "[plan][preflight]") {
  const std::string text = mkq::reconcile::render_text(plan_with_findings(), false);
  CHECK(text ==
        "Preflight found 1 error and 1 warning:\n"
        "  error: w2: CRD jobsets.jobset.x-k8s.io is not served [integration-crd]\n"
        "      fix: install JobSet on w2\n"
        "  warning: m: ClusterRole kueue-batch-user-role does not exist [persona-role]\n"
        "\n"
        "No changes. Every cluster matches the policy.\n"
        "apply refuses this plan until the preflight errors are fixed.\n");
}

TEST_CASE("plan text: warnings alone do not refuse", "[plan][preflight]") {
  Plan plan = plan_with_findings();
  plan.preflight.erase(plan.preflight.begin());
  CHECK_FALSE(plan.preflight_failed());
  const std::string text = mkq::reconcile::render_text(plan, false);
  CHECK(text.rfind("Preflight found 1 warning:\n", 0) == 0);
  CHECK(text.find("refuses") == std::string::npos);
}

TEST_CASE("plan markdown: a preflight table before the changes", "[plan][preflight]") {
  const std::string md = mkq::reconcile::render_markdown(plan_with_findings());
  CHECK(md.find("#### preflight: 1 error and 1 warning\n\n| Severity | Cluster | Missing | Fix |\n| --- | --- | --- | --- |\n"
                "| error | `w2` | CRD jobsets.jobset.x-k8s.io is not served | install JobSet on w2 |\n") !=
        std::string::npos);
  CHECK(md.find("**apply refuses this plan until the preflight errors are fixed**") != std::string::npos);
}

TEST_CASE("plan json: findings as typed data, read back the same", "[plan][preflight]") {
  const Plan plan = plan_with_findings();
  const mkq::kube::Json json = mkq::reconcile::render_json(plan);
  REQUIRE(json.at("preflight").size() == 2);
  CHECK(json["preflight"][0] == mkq::kube::Json{{"severity", "error"},
                                                 {"code", "integration-crd"},
                                                 {"cluster", "w2"},
                                                 {"missing", "CRD jobsets.jobset.x-k8s.io is not served"},
                                                 {"fix", "install JobSet on w2"}});
  const auto read = mkq::reconcile::plan_from_json(json);
  REQUIRE(read);
  REQUIRE(read->preflight.size() == 2);
  CHECK(read->preflight[1].severity == Severity::Warning);
  CHECK(read->preflight[1].code == FindingCode::PersonaRole);
  CHECK(read->preflight[1].cluster == "m");
  CHECK(read->preflight_failed());
}

TEST_CASE("plan json: an unknown preflight code or severity is refused, not guessed", "[plan][preflight]") {
  mkq::kube::Json json = mkq::reconcile::render_json(plan_with_findings());
  json["preflight"][0]["code"] = "made-up";
  const auto bad_code = mkq::reconcile::plan_from_json(json);
  REQUIRE_FALSE(bad_code);
  CHECK(bad_code.error().message.find("unknown preflight code \"made-up\"") != std::string::npos);
  json = mkq::reconcile::render_json(plan_with_findings());
  json["preflight"][1]["severity"] = "fatal";
  CHECK_FALSE(mkq::reconcile::plan_from_json(json));
}
