// A change's reason is data (reason.h): every Reason has words, and the plan
// sets typed reasons -- with their parameters -- that reason_text() turns into
// the words the goldens hold.
#include <set>

#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers
using reconcile::Action;
using reconcile::Reason;

namespace {

// A provider that issues a renewed token whatever the Secret holds: a rotation.
class RotatingCredentials : public reconcile::CredentialProvider {
 public:
  reconcile::CredentialDecision decide(const std::string&, const kueue::Object&, const Json*,
                                       const state::InventoryEntry*) override {
    return {true, "token for multikueue-sa, expires 2026-12-21", reconcile::CredentialCause::ExpiresWithin, "7d", ""};
  }
  kube::Result<Json> issue(const std::string&, const kueue::Object&, reconcile::CredentialJournal*) override {
    return kube::Error{500, "InternalError", "not in this test", Json()};
  }
};

}  // namespace

TEST_CASE("reason: every Reason has a stable name and words of its own", "[reconcile][reason]") {
  reconcile::Change change;
  change.ref.api_version = "v1";
  change.ref.kind = "Secret";
  change.revokes_token_of = "worker1";
  reconcile::ReasonArgs& args = change.reason_args;
  args.field = "spec.x";
  args.fields = {"a"};
  args.held = "held";
  args.kueue_default = "default";
  args.foreign = {"ConfigMap team-a/notes"};
  args.error = "forbidden";
  args.credential = "token";
  args.text = "as written";
  const std::set<std::string> parameters = {"spec.x", "a", "held", "default", "forbidden", "token", "worker1"};
  std::set<std::string> names, texts;
  for (int i = 0; i <= static_cast<int>(reconcile::kLastReason); ++i) {
    change.reason = static_cast<Reason>(i);
    const std::string name = reconcile::reason_name(change.reason);
    const std::string text = reconcile::reason_text(change);
    INFO("reason " << i << " (" << name << "): \"" << text << "\"");
    CHECK_FALSE(name.empty());
    CHECK(names.insert(name).second);
    if (change.reason == Reason::None) {
      CHECK(text.empty());
      continue;
    }
    // Its own words: not empty, not a parameter alone, not another reason's.
    CHECK_FALSE(text.empty());
    CHECK(parameters.count(text) == 0);
    CHECK(texts.insert(text).second);
  }
}

TEST_CASE("reason: the words of the reasons that take parameters", "[reconcile][reason]") {
  reconcile::Change change;
  change.ref.api_version = "kueue.x-k8s.io/v1beta2";
  change.ref.kind = "Topology";
  change.reason = Reason::NotServed;
  CHECK(reconcile::reason_text(change) == "not on the cluster, which does not serve kueue.x-k8s.io/v1beta2/Topology");
  change.reason = Reason::DriftFromDefaults;
  change.reason_args.fields = {"queueingStrategy", "stopPolicy", "fairSharing.weight"};
  CHECK(reconcile::reason_text(change) ==
        "drift: queueingStrategy, stopPolicy and fairSharing.weight differ from Kueue's defaults, which the policy leaves");
  change.reason = Reason::ReleasedForeignContents;
  change.reason_args.foreign = {"ConfigMap a/x", "Secret a/y", "Pod a/z", "Pod a/w"};
  CHECK(reconcile::reason_text(change) == "released: holds ConfigMap a/x, Secret a/y and 2 more, not managed by mkq");
  // A removal of another policy's object names the owner first; a write names only the owner.
  change.owner_conflict = "tas";
  change.action = Action::Release;
  change.reason = Reason::ReleasedAdopted;
  CHECK(reconcile::reason_text(change) == "owned by policy tas: released: existed before mkq");
  change.take_over = true;
  CHECK(reconcile::reason_text(change) == "owned by policy tas: taken over, released: existed before mkq");
  change.action = Action::Update;
  CHECK(reconcile::reason_text(change) == "owned by policy tas: taken over");
  // Words read back from a file are shown as written.
  change.reason = Reason::Recorded;
  change.reason_args.text = "owned by policy tas: taken over";
  CHECK(reconcile::reason_text(change) == "owned by policy tas: taken over");
}

TEST_CASE("plan: changes carry typed reasons", "[reconcile][reason][plan]") {
  World world;
  auto desired = policy();

  // Create: nothing is there yet.
  const auto created = world.plan(desired);
  const auto* queue = change_of(created, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(queue != nullptr);
  CHECK(queue->action == Action::Create);
  CHECK(queue->reason == Reason::NotOnCluster);
  world.apply(desired);

  // Drift repair: an edit behind mkq's back.
  Json cq = *world.worker.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "20";
  world.worker.put(cq, "kubectl");
  const auto drifted = world.plan(desired);
  queue = change_of(drifted, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(queue != nullptr);
  CHECK(queue->action == Action::Update);
  CHECK(queue->repairs_drift);
  CHECK(queue->reason == Reason::Drift);
  world.apply(desired);

  // Immutable replace: the field's path is the reason's parameter.
  find(desired, "manager", "LocalQueue", "user-queue")->document["spec"]["clusterQueue"] = "other-queue";
  const auto moved = world.plan(desired);
  const auto* local = change_of(moved, "manager/LocalQueue/default/user-queue");
  REQUIRE(local != nullptr);
  CHECK(local->action == Action::Replace);
  CHECK(local->reason == Reason::Immutable);
  CHECK(local->reason_args.field == "spec.clusterQueue");

  // Release: an object marked prevent-destroy leaves the policy.
  Json flavor_live = *world.worker.object("kueue.x-k8s.io/v1beta2", "ResourceFlavor", "", "default-flavor");
  flavor_live["metadata"]["annotations"] = Json{{"mkq.dev/prevent-destroy", "true"}};
  world.worker.put(flavor_live, "kubectl");
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const auto destroyed = world.plan(desired, nullptr, destroy);
  const auto* flavor = change_of(destroyed, "worker1/ResourceFlavor/default-flavor");
  REQUIRE(flavor != nullptr);
  CHECK(flavor->action == Action::Release);
  CHECK(flavor->reason == Reason::ReleasedPreventDestroy);
  const auto* gone = change_of(destroyed, "manager/ClusterQueue/cluster-queue");
  REQUIRE(gone != nullptr);
  CHECK(gone->action == Action::Delete);
  CHECK(gone->reason == Reason::Destroy);

  // Credential rotation: the provider's description and words are the parameters.
  desired.clusters[0].objects.insert(desired.clusters[0].objects.begin(), placeholder_secret());
  world.apply_one("manager", placeholder_secret());
  RotatingCredentials provider;
  const auto rotated = world.plan(desired, &provider);
  const auto* secret = change_of(rotated, "manager/Secret/kueue-system/worker1-secret");
  REQUIRE(secret != nullptr);
  CHECK(secret->action == Action::Update);
  CHECK(secret->reason == Reason::CredentialRenewed);
  CHECK(secret->reason_args.credential == "token for multikueue-sa, expires 2026-12-21");
  CHECK(secret->reason_args.cause == "expires within 7d");
  CHECK(reconcile::reason_text(*secret) == "token for multikueue-sa, expires 2026-12-21: expires within 7d");
}
