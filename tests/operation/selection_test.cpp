// runtime/operation: an apply with a ChangeSelection (the controller's sync
// modes) carries out only the selected kinds of change, shows the whole plan,
// and records the run under the name it is given.
#include <catch2/catch.hpp>

#include "tests/operation/operation_test_support.h"

using namespace mkq;
using namespace mkq::operation::testing;

TEST_CASE("apply with a selection carries out only the selected kinds of change",
          "[operation][apply][select]") {
  Fleet fleet;
  REQUIRE(operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui).stop == operation::Stop::None);
  // Drift on the ClusterQueue, and a change of the policy on the worker's capacity only.
  Json drifted = *fleet.cluster_queue();
  for (Json& resource : drifted["spec"]["resourceGroups"][0]["flavors"][0]["resources"]) {
    if (resource["name"] == "cpu") resource["nominalQuota"] = "2";
  }
  fleet.resolver.cluster("m").put(drifted, "kubectl");

  operation::ApplyRequest request = fleet.apply_request();
  request.select.drift = false;
  request.select.policy = false;
  request.command = "controller test";
  fleet.ui = FakeUi{};
  operation::ApplyResult result = operation::apply(request, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == operation::Stop::None);
  CHECK(fleet.cpu_quota() == "2");  // the drift is left
  REQUIRE(result.plan.has_value());
  CHECK(result.plan->has_changes());  // the plan as made holds it
  int drift = 0;
  for (const auto& cluster : result.plan->clusters) {
    for (const auto& change : cluster.changes) {
      if (change.repairs_drift) {
        ++drift;
        CHECK_FALSE(operation::selected(request.select, change));
      }
    }
  }
  CHECK(drift == 1);
  REQUIRE(result.report.has_value());
  CHECK(result.report->results.empty());  // nothing carried out
  CHECK(result.run_id == 0);              // nor recorded

  request.select.drift = true;
  fleet.ui = FakeUi{};
  result = operation::apply(request, fleet.resolver, fleet.ui);
  REQUIRE(result.stop == operation::Stop::None);
  CHECK(fleet.cpu_quota() == "4");
  REQUIRE(result.run_id > 0);
  CHECK(fleet.state()->find_run(result.run_id).value()->command == "controller test");
}
