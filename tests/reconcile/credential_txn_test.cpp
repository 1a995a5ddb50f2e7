// Credential transactions in the plan and the executor (credential_txn.h): a
// credential of mkq's nobody holds is planned as a change of its own that
// revokes it, saved and checked like any change, and apply deletes its anchor
// and then finishes the worker's transaction in the state.
#include "tests/reconcile/apply_test_support.h"
#include "tests/reconcile/plan_test_support.h"

#include "runtime/reconcile/credential_txn.h"
#include "tests/support/result.h"

namespace {

using mkq::reconcile::StaleCredential;
using plantest::Json;
namespace reconcile = mkq::reconcile;
namespace kube = mkq::kube;
namespace state = mkq::state;

// The credential is current; the worker holds one anchor more than it uses.
class Leftovers : public reconcile::CredentialProvider {
 public:
  std::vector<StaleCredential> stale;
  reconcile::CredentialDecision decide(const std::string&, const mkq::kueue::Object&, const Json*,
                                       const state::InventoryEntry*) override {
    return reconcile::CredentialDecision{false, "token for multikueue-sa, expires 2026-12-21",
                                         reconcile::CredentialCause::Current, "", ""};
  }
  std::vector<StaleCredential> leftovers(const std::string&, const mkq::kueue::Object&, const Json*) override {
    return stale;
  }
  kube::Result<Json> issue(const std::string&, const mkq::kueue::Object&, reconcile::CredentialJournal*) override {
    return kube::Error{500, "InternalError", "not in this test", Json()};
  }
};

StaleCredential previous_token(const std::string& name = "multikueue-sa-token-20261121100000-0a1b2c3d") {
  StaleCredential stale;
  stale.worker = "worker1";
  stale.namespace_name = "kueue-system";
  stale.name = name;
  stale.uid = "uid-anchor";
  stale.resource_version = "5";
  return stale;
}

const reconcile::Change* change_at(const reconcile::Plan& plan, const std::string& address) {
  for (const auto& cluster : plan.clusters) {
    for (const auto& change : cluster.changes) {
      if (change.ref.address() == address) return &change;
    }
  }
  return nullptr;
}

const std::string kAnchorAddress = "worker1/Secret/kueue-system/multikueue-sa-token-20261121100000-0a1b2c3d";

}  // namespace

TEST_CASE("plan: a token of mkq's nobody holds is revoked by a change of its own", "[reconcile][plan][credentials]") {
  plantest::World world;
  auto desired = plantest::policy();
  desired.clusters[0].objects.push_back(plantest::placeholder_secret());
  world.apply(desired);
  Leftovers provider;
  REQUIRE_FALSE(world.plan(desired, &provider).has_changes());

  provider.stale = {previous_token()};
  const reconcile::Plan plan = world.plan(desired, &provider);
  const reconcile::Change* revoke = change_at(plan, kAnchorAddress);
  REQUIRE(revoke != nullptr);
  CHECK(revoke->ref.cluster == "worker1");
  CHECK(revoke->action == reconcile::Action::Delete);
  CHECK(revoke->revokes_token_of == "worker1");
  CHECK(revoke->ref.api_version == "v1");
  CHECK(revoke->ref.kind == "Secret");
  CHECK(revoke->live_uid == "uid-anchor");
  CHECK(reconcile::reason_text(*revoke) == "revoke the previous token of worker1");
  CHECK(plan.has_changes());
  CHECK(plan.summary().destroy == 1);
  CHECK_FALSE(plan.removes_everything());
  CHECK(plan.refusals().empty());
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("  - Secret kueue-system/multikueue-sa-token-20261121100000-0a1b2c3d (revoke the previous token "
                  "of worker1)\n") != std::string::npos);
  CHECK(text.find("Plan: 0 to add, 0 to change, 1 to destroy.") != std::string::npos);

  SECTION("never stored") {
    provider.stale[0].never_stored = true;
    const reconcile::Plan orphan = world.plan(desired, &provider);
    CHECK(reconcile::reason_text(*change_at(orphan, kAnchorAddress)) ==
          "revoke a token of worker1 that an interrupted run issued and never stored");
  }
  SECTION("a saved plan keeps the revocation typed and is checked against the anchors listed again") {
    const auto saved = reconcile::plan_from_json(reconcile::render_json(plan));
    REQUIRE(saved);
    const reconcile::Change* kept = change_at(*saved, kAnchorAddress);
    REQUIRE(kept != nullptr);
    CHECK(kept->revokes_token_of == "worker1");
    CHECK(reconcile::first_difference(*saved, world.plan(desired, &provider)).empty());
    CHECK(reconcile::stale_reasons(*saved, 0, plantest::kLineage, world.refresh(desired)).empty());
    // Revoked meanwhile: the plan made again has no such change.
    provider.stale.clear();
    CHECK(reconcile::first_difference(*saved, world.plan(desired, &provider)) ==
          kAnchorAddress + ": not part of what the policy plans now");
  }
  SECTION("only the policy's apply plans them: destroy and an unreachable worker do not") {
    reconcile::PlanOptions destroy;
    destroy.kind = reconcile::PlanKind::Destroy;
    CHECK(change_at(world.plan(desired, &provider, destroy), kAnchorAddress) == nullptr);
    world.worker.set_unreachable(true);
    CHECK(change_at(world.plan(desired, &provider), kAnchorAddress) == nullptr);
  }
}

namespace mkq::reconcile::testing {
namespace {

// The worker's anchor Secret, as mkq made it.
Json anchor(const std::string& name) {
  return Json{{"apiVersion", "v1"},
              {"kind", "Secret"},
              {"type", "Opaque"},
              {"metadata",
               {{"name", name},
                {"namespace", "kueue-system"},
                {"labels", {{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/credential-anchor", "multikueue-sa"}}}}}};
}

Change revocation_of(kube::FakeClient& worker, const std::string& name) {
  const auto live = worker.object("v1", "Secret", "kueue-system", name);
  REQUIRE(live);
  StaleCredential stale = previous_token(name);
  stale.uid = (*live)["metadata"]["uid"].get<std::string>();
  return revocation_change(stale);
}

}  // namespace

TEST_CASE("apply revokes a leftover token and then finishes the worker's transaction",
          "[reconcile][apply][credentials]") {
  StateFixture state;
  kube::FakeClient manager, worker;
  std::string error;
  state::CredentialIntent intent;
  intent.worker = "worker1";
  intent.revokes = {"old-a", "old-b"};
  intent.issues = "new";
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::IntentBegun;
  write.intent = intent;
  REQUIRE(mkq::testing::take(state.store->record_batch({write}), &error));
  const std::int64_t serial = state.store->serial().value();
  worker.put(anchor("old-a"), "mkq");
  worker.put(anchor("old-b"), "mkq");
  worker.put(anchor("new"), "mkq");
  const std::vector<Target> targets{target_of("manager", kueue::ClusterRole::Manager, &manager),
                                    target_of("worker1", kueue::ClusterRole::Worker, &worker)};
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kueue::ClusterRole::Manager, {}));
  plan.clusters.push_back(cluster_plan("worker1", kueue::ClusterRole::Worker,
                                       {revocation_of(worker, "old-a"), revocation_of(worker, "old-b")}));

  SECTION("every revocation succeeds") {
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
    REQUIRE(report.success());
    CHECK_FALSE(worker.object("v1", "Secret", "kueue-system", "old-a"));
    CHECK_FALSE(worker.object("v1", "Secret", "kueue-system", "old-b"));
    CHECK(worker.object("v1", "Secret", "kueue-system", "new"));
    CHECK(state.store->credential_intents().value().empty());
    CHECK(state.store->inventory().value().empty());  // anchors are never inventory objects
    CHECK(state.store->serial().value() == serial);
  }
  SECTION("one fails: the intent stays for the next plan") {
    worker.fail_when([](const std::string& call) -> std::optional<kube::Error> {
      if (call.rfind("DELETE ", 0) == 0 && call.find("/old-b") != std::string::npos) {
        return kube::Error{403, "Forbidden", "secrets \"old-b\" is forbidden", Json()};
      }
      return std::nullopt;
    });
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
    CHECK_FALSE(report.success());
    CHECK_FALSE(worker.object("v1", "Secret", "kueue-system", "old-a"));
    CHECK(worker.object("v1", "Secret", "kueue-system", "old-b"));
    REQUIRE(state.store->credential_intents().value().size() == 1);
    CHECK(state.store->credential_intents().value()[0].worker == "worker1");
  }
  SECTION("already gone: the revocation is done") {
    REQUIRE(worker.remove(kube::ResourceType{"", "v1", "Secret", "secrets", true}, "kueue-system", "old-a", {}));
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
    REQUIRE(report.success());
    CHECK(state.store->credential_intents().value().empty());
  }
}

}  // namespace mkq::reconcile::testing
