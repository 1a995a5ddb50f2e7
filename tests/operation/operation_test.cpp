// runtime/operation's safety rules, through the library with fake clusters and
// a real state in a temporary directory: a run stops before it changes
// anything when another run holds the lock, when the plan would change
// another policy's objects, when an apply would delete everything, when a saved
// plan is stale or not what the policy plans now, or when the user says no.
#include <catch2/catch.hpp>

#include "runtime/operation/saved_plan.h"
#include "tests/operation/operation_test_support.h"

namespace {

using namespace mkq;
using namespace mkq::operation::testing;
using operation::Stop;

// Applies the fleet policy once; the test goes on from there.
void apply_once(Fleet& fleet) {
  const operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  REQUIRE(result.report.has_value());
  REQUIRE(result.report->success());
  fleet.ui = FakeUi{};
}

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) { return line.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("apply carries the plan out, records it, and gives the lock back", "[operation][apply]") {
  Fleet fleet;
  const operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  REQUIRE(result.stop == Stop::None);
  REQUIRE(result.report.has_value());
  CHECK(result.report->success());
  CHECK(result.run_id > 0);
  CHECK(result.command == "apply");
  CHECK(fleet.ui.plans_shown == 1);
  CHECK(fleet.ui.confirmations == 0);  // auto_approve
  CHECK(fleet.cluster_queue().has_value());
  const auto state = fleet.state();
  REQUIRE(state != nullptr);
  CHECK_FALSE(state->inventory().value().empty());
  CHECK_FALSE(state->lock_holder().value().has_value());

  // Made again, the plan has nothing to do.
  fleet.ui = FakeUi{};
  const operation::PlanResult again =
      operation::plan(fleet.request<operation::PlanRequest>(), fleet.resolver, fleet.ui);
  REQUIRE(again.stop == Stop::None);
  CHECK_FALSE(again.plan->has_changes());
}

TEST_CASE("apply stops when another run holds the state's lock", "[operation][apply][lock]") {
  Fleet fleet;
  apply_once(fleet);
  fleet.write("policy.mkq", fleet_policy(fleet.kubeconfig(), 8));
  // Another run, on another host, holds the lock (a store gives its lock back when it closes).
  const auto other_run = fleet.state();
  state::LockHolder other{"apply", "alice", "another-host.invalid", 4242, "2026-01-01T00:00:00Z"};
  state::LockHolder previous;
  REQUIRE(other_run->acquire_lock(other, &previous).value() == state::LockResult::Acquired);
  const operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::LockHeld);
  CHECK_FALSE(result.report.has_value());
  CHECK(contains(fleet.ui.errors, "is locked: apply by alice@another-host.invalid (pid 4242)"));
  CHECK(fleet.resolver.opened == 1);  // no cluster was even reached this time
  CHECK(fleet.cpu_quota() == "4");  // the old quota
  // The other run's lock stays.
  const auto holder = other_run->lock_holder().value();
  REQUIRE(holder.has_value());
  CHECK(holder->host == "another-host.invalid");
}

TEST_CASE("apply refuses to delete everything it applied unless allowed", "[operation][apply][empty]") {
  Fleet fleet;
  apply_once(fleet);
  fleet.write("policy.mkq", "manager \"m\" {}\n");
  operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::RemovesEverything);
  REQUIRE(result.plan.has_value());
  CHECK(result.plan->removes_everything());
  CHECK(contains(fleet.ui.errors, "this apply would delete every object mkq applied and create none"));
  CHECK(fleet.cluster_queue().has_value());
  CHECK_FALSE(fleet.state()->lock_holder().value().has_value());  // the guard gave the lock back

  fleet.ui = FakeUi{};
  operation::ApplyRequest allowed = fleet.apply_request();
  allowed.allow_empty = true;
  result = operation::apply(allowed, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  CHECK(result.stop == Stop::None);
  CHECK_FALSE(fleet.cluster_queue().has_value());
}

TEST_CASE("apply refuses objects of another policy unless it takes them over", "[operation][apply][ownership]") {
  Fleet fleet;
  fleet.resolver.cluster("m").put(Json{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                                       {"kind", "ClusterQueue"},
                                       {"metadata", {{"name", "cq"}, {"labels", {{"mkq.dev/policy", "other"}}}}},
                                       {"spec", {{"namespaceSelector", Json::object()}}}},
                                  "mkq");
  operation::ApplyResult result = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::Refused);
  CHECK(contains(fleet.ui.errors, "apply refuses this plan; nothing was changed"));
  CHECK(contains(fleet.ui.errors, "owned by policy other"));
  CHECK(fleet.cluster_queue()->at("metadata").at("labels").at("mkq.dev/policy") == "other");
  CHECK(fleet.state()->inventory().value().empty());

  fleet.ui = FakeUi{};
  operation::ApplyRequest take_over = fleet.apply_request();
  take_over.ownership.take_over = true;
  result = operation::apply(take_over, fleet.resolver, fleet.ui);
  INFO(fleet.ui.all_errors());
  CHECK(result.stop == Stop::None);
  CHECK(fleet.cluster_queue()->at("metadata").at("labels").at("mkq.dev/policy") != "other");
}

TEST_CASE("apply changes nothing when the user does not confirm", "[operation][apply][confirm]") {
  Fleet fleet;
  fleet.ui.answer = false;
  operation::ApplyRequest asked = fleet.apply_request();
  asked.auto_approve = false;
  const operation::ApplyResult result = operation::apply(asked, fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::NotConfirmed);
  CHECK(fleet.ui.confirmations == 1);
  CHECK(fleet.ui.applies == 0);
  CHECK_FALSE(fleet.cluster_queue().has_value());
  const auto state = fleet.state();
  CHECK(state->inventory().value().empty());
  CHECK_FALSE(state->lock_holder().value().has_value());
}

TEST_CASE("a saved plan is applied as saved, and refused once stale or tampered with", "[operation][saved]") {
  Fleet fleet;
  apply_once(fleet);
  fleet.write("policy.mkq", fleet_policy(fleet.kubeconfig(), 8));
  const std::string file = (fleet.dir / "saved.plan").string();
  operation::PlanRequest plan = fleet.request<operation::PlanRequest>();
  plan.out = file;
  REQUIRE(operation::plan(plan, fleet.resolver, fleet.ui).stop == Stop::None);
  CHECK(operation::looks_like_saved_plan(file));
  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = file;

  SECTION("a live object changed since the plan: stale") {
    Json cq = *fleet.cluster_queue();
    cq["metadata"]["labels"]["edited-by"] = "kubectl";
    fleet.resolver.cluster("m").put(cq, "kubectl");
    const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
    CHECK(result.stop == Stop::StalePlan);
    CHECK(contains(fleet.ui.errors, "m/ClusterQueue/cq: changed on the cluster since the plan"));
    CHECK(fleet.cpu_quota() == "4");
  }
  SECTION("the policy changed since the plan: stale") {
    fleet.write("policy.mkq", fleet_policy(fleet.kubeconfig(), 6));
    const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
    CHECK(result.stop == Stop::StalePlan);
    CHECK(contains(fleet.ui.errors, "changed since the plan"));
  }
  SECTION("a change edited in the file: not what the policy plans") {
    mkq::base::Result<reconcile::Plan> read = operation::read_saved_plan(file);
    REQUIRE(read.ok());
    bool edited = false;
    for (reconcile::ClusterPlan& cluster : read->clusters) {
      for (reconcile::Change& change : cluster.changes) {
        if (change.ref.kind != "ClusterQueue" || change.action != reconcile::Action::Update) continue;
        change.desired["spec"]["cohortName"] = "elsewhere";
        edited = true;
      }
    }
    REQUIRE(edited);
    REQUIRE(operation::write_saved_plan(*read, file).ok());
    const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
    CHECK(result.stop == Stop::PlanDiffers);
    CHECK(contains(fleet.ui.errors, "m/ClusterQueue/cq: its desired differs from what the policy plans now"));
  }
  SECTION("still current: applied, without asking (as Terraform applies a saved plan)") {
    fleet.ui.answer = false;  // a prompt would cancel the run
    const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
    INFO(fleet.ui.all_errors());
    CHECK(result.stop == Stop::None);
    CHECK(fleet.ui.confirmations == 0);
    REQUIRE(result.report.has_value());
    CHECK(result.report->success());
    CHECK(fleet.cpu_quota() == "8");
    // A saved plan is stale once applied.
    fleet.ui = FakeUi{};
    CHECK(operation::apply_saved_plan(saved, fleet.resolver, fleet.ui).stop == Stop::StalePlan);
  }
  CHECK_FALSE(fleet.state()->lock_holder().value().has_value());
}

TEST_CASE("a file that is not a saved plan is refused before anything is read", "[operation][saved]") {
  Fleet fleet;
  fleet.write("not.plan", "{\"hello\": 1}");
  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = (fleet.dir / "not.plan").string();
  const operation::ApplyResult result = operation::apply_saved_plan(saved, fleet.resolver, fleet.ui);
  CHECK(result.stop == Stop::Failed);
  CHECK(contains(fleet.ui.errors, "is not a saved plan"));
  CHECK(fleet.resolver.opened == 0);
}

TEST_CASE("a plan saved as --format json (an older mkq's saved plan) is refused", "[operation][saved][format]") {
  Fleet fleet;
  apply_once(fleet);
  const std::string file = (fleet.dir / "old.plan").string();
  operation::PlanRequest plan = fleet.request<operation::PlanRequest>();
  const operation::PlanResult made = operation::plan(plan, fleet.resolver, fleet.ui);
  REQUIRE(made.plan.has_value());
  fleet.write("old.plan", reconcile::render_json(*made.plan).dump(2));
  const mkq::base::Result<reconcile::Plan> old = operation::read_saved_plan(file);
  REQUIRE_FALSE(old.ok());
  CHECK(old.error().message == "written by an older mkq (or by --format json); make the plan again with `mkq plan --out`");
  operation::SavedPlanRequest saved = fleet.request<operation::SavedPlanRequest>();
  saved.path = file;
  CHECK(operation::apply_saved_plan(saved, fleet.resolver, fleet.ui).stop == Stop::Failed);
}

TEST_CASE("the saved plan keeps every change's directives, documents and what refresh saw", "[operation][saved][format]") {
  Fleet fleet;
  reconcile::Plan plan;
  plan.kind = reconcile::PlanKind::Destroy;
  plan.policy = "fleet";
  plan.policy_path = "/p";
  plan.policy_digest = "sha256:p";
  plan.lineage = "l";
  plan.state_serial = 3;
  plan.options.prune = false;
  plan.options.take_over = true;
  reconcile::ClusterPlan cluster;
  cluster.cluster = "m";
  cluster.role = kueue::ClusterRole::Manager;
  reconcile::Change change;
  change.ref.cluster = "m";
  change.ref.api_version = "kueue.x-k8s.io/v1beta2";
  change.ref.kind = "ClusterQueue";
  change.ref.name = "cq";
  change.action = reconcile::Action::Update;
  change.reason = reconcile::Reason::Drift;
  change.repairs_drift = true;
  change.take_ownership = true;
  change.take_over = true;
  change.adopted = true;
  change.owner_conflict = "other";
  change.desired = Json{{"spec", {{"cohortName", "all"}}}};
  change.live_uid = "u1";
  change.live_resource_version = "7";
  change.depends_on = {"m/ResourceFlavor/f"};
  change.restart = reconcile::Restart{"kueue-system", "kueue-controller-manager", false};
  change.step = reconcile::Step::Switch;  // a phased plan's step
  cluster.changes.push_back(change);
  reconcile::Change revoke;  // an interrupted rotation's leftover anchor
  revoke.ref.cluster = "m";
  revoke.ref.api_version = "v1";
  revoke.ref.kind = "Secret";
  revoke.ref.namespace_name = "kueue-system";
  revoke.ref.name = "sa-token-1";
  revoke.action = reconcile::Action::Delete;
  revoke.revokes_token_of = "w1";
  cluster.changes.push_back(revoke);
  plan.clusters.push_back(cluster);
  plan.excluded.push_back({"w2", 4});
  plan.handover.joining = {"w3"};
  plan.handover.leaving = {"w1"};
  const std::string file = (fleet.dir / "saved.plan").string();
  REQUIRE(operation::write_saved_plan(plan, file).ok());
  const mkq::base::Result<reconcile::Plan> back = operation::read_saved_plan(file);
  INFO((back ? std::string() : back.error().message));
  REQUIRE(back.ok());
  CHECK(reconcile::first_difference(plan, *back).empty());
  CHECK(back->kind == reconcile::PlanKind::Destroy);
  CHECK(back->state_serial == 3);
  CHECK_FALSE(back->options.prune);
  CHECK(back->options.take_over);
  CHECK(back->excluded.size() == 1);
  CHECK(back->handover == plan.handover);
  const reconcile::Change& read = back->clusters.at(0).changes.at(0);
  CHECK(read.step == reconcile::Step::Switch);
  CHECK(back->clusters.at(0).changes.at(1).step == reconcile::Step::Unphased);
  CHECK(read.repairs_drift);
  CHECK(read.take_ownership);
  CHECK(read.take_over);
  CHECK(read.adopted);
  CHECK(read.live_resource_version == "7");
  CHECK(reconcile::reason_text(read) == reconcile::reason_text(change));
  CHECK(read.revokes_token_of.empty());
  CHECK(back->clusters.at(0).changes.at(1).revokes_token_of == "w1");
  CHECK(reconcile::render_text(*back, false) == reconcile::render_text(plan, false));

  // An address is its object's (base::ObjectRef): one that names another object is malformed.
  reconcile::Json document = reconcile::Json::parse(std::ifstream(file));
  document["clusters"][0]["changes"][0]["address"] = "m/ClusterQueue/other";
  fleet.write("saved.plan", document.dump());
  const auto malformed = operation::read_saved_plan(file);
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.error().message == "the saved plan is malformed: address \"m/ClusterQueue/other\" does not name its object "
                 "(m/ClusterQueue/cq)");
}
