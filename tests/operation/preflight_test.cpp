// The preflight rule of the operations: a plan with a preflight error is made
// and shown but not saved; apply, of a policy or of a saved plan, refuses it
// before anything changes.
#include <catch2/catch.hpp>

#include <filesystem>

#include "compiler/kueue/schema.h"
#include "tests/operation/operation_test_support.h"

namespace {

using namespace mkq;
using namespace mkq::operation::testing;
using operation::Stop;

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

// The worker serves no Kueue kind: a preflight error (kueue-not-installed) on w1.
void uninstall_kueue(kube::FakeClient& cluster) {
  for (const kueue::schema::KindInfo& kind : kueue::schema::kKinds) {
    if (kind.api_version == kueue::schema::kKueueApiVersion) {
      cluster.stop_serving(std::string(kind.api_version), std::string(kind.name));
    }
  }
}

}  // namespace

TEST_CASE("apply refuses a plan with a preflight error and changes nothing", "[operation][preflight]") {
  Fleet fleet;
  uninstall_kueue(fleet.resolver.cluster("w1"));
  const operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::Preflight);
  REQUIRE(result.plan.has_value());
  REQUIRE(result.plan->preflight.size() == 1);
  CHECK(result.plan->preflight[0].cluster == "w1");
  CHECK(result.plan->preflight[0].code == reconcile::FindingCode::KueueNotInstalled);
  CHECK(fleet.ui.plans_shown == 1);
  CHECK(fleet.ui.applies == 0);
  CHECK(contains(fleet.ui.errors, "preflight found 1 error; apply refuses this plan and nothing was changed:\n  w1: "
                                  "Kueue is not installed"));
  CHECK_FALSE(fleet.cluster_queue().has_value());
  CHECK(fleet.state()->inventory().value().empty());
  CHECK_FALSE(fleet.state()->lock_holder().value().has_value());
}

TEST_CASE("plan shows a preflight error, stops, and saves no plan", "[operation][preflight]") {
  Fleet fleet;
  uninstall_kueue(fleet.resolver.cluster("w1"));
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.out = (fleet.dir / "saved.plan").string();
  const operation::PlanResult result = operation::plan(request, fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::Preflight);
  REQUIRE(result.plan.has_value());
  CHECK(result.plan->preflight_failed());
  CHECK(fleet.ui.plans_shown == 1);
  CHECK(contains(fleet.ui.errors, "preflight found 1 error; apply will refuse this plan until it is fixed:"));
  CHECK_FALSE(std::filesystem::exists(request.out));
}

TEST_CASE("a saved plan is checked again: a preflight error found now refuses it", "[operation][preflight][saved]") {
  Fleet fleet;
  const operation::ApplyResult first = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  REQUIRE(first.stop == Stop::None);
  fleet.write("policy.mkq", fleet_policy(fleet.kubeconfig(), 8));
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.out = (fleet.dir / "saved.plan").string();
  REQUIRE(operation::plan(request, fleet.resolver, fleet.ui).stop == Stop::None);
  // Since the plan, w1's Kueue stopped managing batch Jobs (an object the plan does not track).
  fleet.resolver.cluster("w1").put(Json{{"apiVersion", "v1"},
                                        {"kind", "ConfigMap"},
                                        {"metadata", {{"name", "kueue-manager-config"}, {"namespace", "kueue-system"}}},
                                        {"data", {{"controller_manager_config.yaml", "integrations:\n  frameworks: [pod]\n"}}}});
  fleet.ui = FakeUi{};
  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = request.out;
  const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  CHECK(result.stop == Stop::Preflight);
  REQUIRE(result.plan.has_value());
  REQUIRE(result.plan->preflight.size() == 1);
  CHECK(result.plan->preflight[0].code == reconcile::FindingCode::WorkerIntegration);
  CHECK(fleet.cpu_quota() == "4");
}

TEST_CASE("destroy checks nothing: a cluster without Kueue does not stop it", "[operation][preflight][destroy]") {
  Fleet fleet;
  uninstall_kueue(fleet.resolver.cluster("w1"));
  operation::PlanRequest request = fleet.request<operation::PlanRequest>();
  request.destroy = true;
  const operation::PlanResult result = operation::plan(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  CHECK(result.stop == Stop::None);
  REQUIRE(result.plan.has_value());
  CHECK(result.plan->preflight.empty());
}
