// make_plan's ownership rules (plan.h): another policy's objects are conflicts,
// objects that existed before mkq are adopted with what they held and
// released (not deleted) when they leave, a namespace holding what mkq does
// not manage is never deleted, and mkq.dev/prevent-destroy protects anything.
#include <algorithm>

#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers
using reconcile::Action;

namespace {

const char* kFlavor = "worker1/ResourceFlavor/default-flavor";
const char* kWorkerQueue = "worker1/ClusterQueue/cluster-queue";

// The item of a prior (Change::prior) for a path, or null.
Json prior_item(const std::string& prior, const std::vector<std::string>& path) {
  const Json items = Json::parse(prior);
  REQUIRE(items.is_array());
  for (const Json& item : items) {
    if (item["path"] == Json(path)) return item;
  }
  return Json();
}

// Records a planned create/update as the executor does: applied (server-side,
// forced like a take-over) and in the inventory with its adoption facts.
void record(World& world, const kueue::DesiredState& desired, const reconcile::Change& change) {
  const kueue::Object* object = nullptr;
  for (const auto& cluster : desired.clusters) {
    for (const auto& o : cluster.objects) {
      if (kueue::address(cluster.cluster, o) == change.ref.address()) object = &o;
    }
  }
  REQUIRE(object != nullptr);
  world.apply_one(change.ref.cluster, *object);
  for (auto& entry : world.inventory) {
    if (entry.ref.address() != change.ref.address()) continue;
    entry.adopted = change.adopted;
    entry.prior = change.prior;
  }
}

void remove_object(kueue::DesiredState& desired, const std::string& cluster, const std::string& kind) {
  for (auto& c : desired.clusters) {
    if (c.cluster != cluster) continue;
    c.objects.erase(std::remove_if(c.objects.begin(), c.objects.end(),
                                   [&](const kueue::Object& o) { return o.kind == kind; }),
                    c.objects.end());
  }
}

bool any_manager(const Json& object, const std::string& manager) {
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    if (entry.value("manager", std::string()) == manager) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("plan: an object labelled with another policy is a conflict, take-over makes it this policy's",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ResourceFlavor", "default-flavor")->document;
  theirs["metadata"]["labels"]["mkq.dev/policy"] = "tas";
  world.worker.put(theirs, "mkq");

  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, kFlavor);
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Update);
  CHECK(change->owner_conflict == "tas");
  CHECK_FALSE(change->take_over);
  CHECK(reconcile::reason_text(*change) == "owned by policy tas");
  CHECK(plan.summary().conflicts == 1);
  CHECK(plan.refusals() == std::vector<std::string>{"worker1/ResourceFlavor/default-flavor: owned by policy tas"});
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("  ~ ResourceFlavor default-flavor (owned by policy tas)\n") != std::string::npos);
  CHECK(text.find("      ! owned by policy tas: apply refuses it; --take-over makes it this policy's") !=
        std::string::npos);
  CHECK(text.find("1 change is not this policy's to make (marked !): apply refuses this plan.\n") != std::string::npos);

  reconcile::PlanOptions take_over;
  take_over.take_over = true;
  const auto taken = world.plan(desired, nullptr, take_over);
  const auto* taken_change = change_of(taken, kFlavor);
  REQUIRE(taken_change != nullptr);
  CHECK(taken_change->owner_conflict == "tas");
  CHECK(taken_change->take_over);
  CHECK(reconcile::reason_text(*taken_change) == "owned by policy tas: taken over");
  CHECK(taken.summary().conflicts == 0);
  CHECK(taken.refusals().empty());
  // It was not this policy's before: recorded as adopted, the other label as its prior.
  CHECK(taken_change->adopted);
  CHECK(prior_item(taken_change->prior, {"metadata", "labels", "mkq.dev/policy"})["value"] == "tas");
}

TEST_CASE("plan: mkq's label without a policy label, or this policy's own label, is no conflict",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  Json unnamed = find(desired, "worker1", "ResourceFlavor", "default-flavor")->document;
  unnamed["metadata"]["labels"].erase("mkq.dev/policy");
  world.worker.put(unnamed, "kubectl");
  Json ours = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  ours["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "5";
  world.worker.put(ours, "kubectl");

  const auto plan = world.plan(desired);
  for (const char* address : {kFlavor, kWorkerQueue}) {
    const auto* change = change_of(plan, address);
    REQUIRE(change != nullptr);
    INFO(address);
    CHECK(change->action == Action::Update);
    CHECK(change->owner_conflict.empty());
    CHECK(reconcile::reason_text(*change) == "exists, not yet managed by mkq");
    CHECK(change->adopted);
  }
  CHECK(plan.summary().conflicts == 0);
}

TEST_CASE("plan: adopting records what the object held before mkq, of a Secret only which keys it had",
          "[reconcile][plan][ownership][secrets]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  theirs["metadata"].erase("labels");
  theirs["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "5";
  world.worker.put(theirs, "kubectl");
  desired.clusters[1].objects.push_back(
      make("v1", "Secret", "creds", "kueue-system", Json{{"type", "Opaque"}, {"stringData", {{"token", "new"}}}}));
  world.worker.put(Json{{"apiVersion", "v1"},
                        {"kind", "Secret"},
                        {"metadata", {{"name", "creds"}, {"namespace", "kueue-system"}}},
                        {"type", "Opaque"},
                        {"data", {{"token", "b2xkLXNlY3JldA=="}}}},
                   "kubectl");

  const auto plan = world.plan(desired);
  const auto* queue = change_of(plan, kWorkerQueue);
  REQUIRE(queue != nullptr);
  CHECK(queue->adopted);
  CHECK(prior_item(queue->prior, {"spec", "resourceGroups"})["value"] == theirs["spec"]["resourceGroups"]);
  CHECK(prior_item(queue->prior, {"spec", "namespaceSelector"})["value"] == Json::object());
  const Json label = prior_item(queue->prior, {"metadata", "labels", "mkq.dev/policy"});
  CHECK(label.is_object());
  CHECK_FALSE(label.contains("value"));  // absent before mkq
  CHECK(prior_item(queue->prior, {"metadata", "name"}).is_null());  // the name is never restored

  const auto* secret = change_of(plan, "worker1/Secret/kueue-system/creds");
  REQUIRE(secret != nullptr);
  CHECK(secret->adopted);
  const Json token = prior_item(secret->prior, {"data", "token"});  // stringData is stored as data
  CHECK(token["present"] == true);
  CHECK_FALSE(token.contains("value"));
  CHECK(secret->prior.find("b2xkLXNlY3JldA==") == std::string::npos);
  CHECK(reconcile::render_json(plan).dump().find("b2xkLXNlY3JldA==") == std::string::npos);
}

TEST_CASE("plan: an object mkq created, or lost from the state, is not adopted", "[reconcile][plan][ownership]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  world.inventory.clear();  // the records of an interrupted apply
  const auto plan = world.plan(desired);
  for (const auto& cluster : plan.clusters) {
    for (const auto& change : cluster.changes) {
      INFO(change.ref.address());
      CHECK(reconcile::reason_text(change) == "applied by mkq but missing from the state");
      CHECK_FALSE(change.adopted);
      CHECK(change.prior.empty());
    }
  }
}

TEST_CASE("plan: an adopted object keeps its prior across applies, paths set later join it",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ResourceFlavor", "default-flavor")->document;
  theirs["metadata"]["labels"] = Json{{"team", "ml"}};
  world.worker.put(theirs, "kubectl");
  const auto first = world.plan(desired);
  record(world, desired, *change_of(first, kFlavor));
  const std::string recorded = world.inventory.back().prior;
  REQUIRE(world.inventory.back().adopted);

  // The policy now sets a node label too: its prior value (absent) joins; the rest is kept.
  find(desired, "worker1", "ResourceFlavor", "default-flavor")->document["spec"]["nodeLabels"] = Json{{"gpu", "a100"}};
  const auto second = world.plan(desired);
  const auto* change = change_of(second, kFlavor);
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Update);
  CHECK(reconcile::reason_text(*change) == "the policy changed");
  CHECK(change->adopted);
  CHECK(change->prior.rfind(recorded.substr(0, recorded.size() - 1), 0) == 0);
  const Json added = prior_item(change->prior, {"spec", "nodeLabels", "gpu"});
  CHECK(added.is_object());
  CHECK_FALSE(added.contains("value"));
}

TEST_CASE("plan: an adopted object that leaves the policy is released, not deleted, --delete-adopted deletes it",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  theirs["metadata"]["labels"] = Json{{"team", "ml"}};
  theirs["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "5";
  world.worker.put(theirs, "kubectl");
  record(world, desired, *change_of(world.plan(desired), kWorkerQueue));
  const Json applied = *world.worker.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  REQUIRE(applied["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] == "9");

  remove_object(desired, "worker1", "ClusterQueue");
  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, kWorkerQueue);
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Release);
  CHECK(reconcile::reason_text(*change) == "released: existed before mkq");
  CHECK(plan.summary().release == 1);
  CHECK(plan.summary().destroy == 0);
  // The patch: mkq's values back to the prior ones, its labels gone (the team label stays), its managedFields
  // entry gone, on condition of the resourceVersion the plan saw.
  const Json& patch = change->desired;
  CHECK(patch["spec"]["resourceGroups"] == theirs["spec"]["resourceGroups"]);
  CHECK(patch["metadata"]["labels"] == Json{{"app.kubernetes.io/managed-by", nullptr}, {"mkq.dev/policy", nullptr}});
  CHECK_FALSE(any_manager(patch, "mkq"));
  CHECK(patch["metadata"]["resourceVersion"] == applied["metadata"]["resourceVersion"]);
  CHECK_FALSE(patch.contains("kind"));
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("  . ClusterQueue cluster-queue (released: existed before mkq)\n") != std::string::npos);
  CHECK(text.find("      - metadata.labels.mkq.dev/policy: \"test\"\n") != std::string::npos);
  CHECK(text.find(" to destroy, 1 to release.\n") != std::string::npos);

  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const auto destroyed = world.plan(desired, nullptr, destroy);
  CHECK(change_of(destroyed, kWorkerQueue)->action == Action::Release);
  CHECK(change_of(destroyed, "worker1/ResourceFlavor/default-flavor") == nullptr);  // never applied

  reconcile::PlanOptions delete_adopted;
  delete_adopted.delete_adopted = true;
  const auto deleting = world.plan(desired, nullptr, delete_adopted);
  CHECK(change_of(deleting, kWorkerQueue)->action == Action::Delete);
  CHECK(reconcile::reason_text(*change_of(deleting, kWorkerQueue)) == "no longer in the policy");
}

TEST_CASE("plan: a release leaves what someone changed since mkq applied it", "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  theirs["metadata"].erase("labels");
  theirs["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "5";
  world.worker.put(theirs, "kubectl");
  record(world, desired, *change_of(world.plan(desired), kWorkerQueue));
  // Someone edits the quota after mkq applied it: the field is theirs now.
  Json edited = *world.worker.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  edited["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "7";
  world.worker.put(edited, "kubectl-edit");

  remove_object(desired, "worker1", "ClusterQueue");
  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, kWorkerQueue);
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Release);
  CHECK_FALSE(change->desired.contains("spec"));
  CHECK(change->desired["metadata"]["labels"].contains("mkq.dev/policy"));
}

TEST_CASE("plan: a namespace is deleted only when it holds nothing mkq does not manage",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  desired.clusters[0].objects.insert(desired.clusters[0].objects.begin(),
                                     make("v1", "Namespace", "team-a", "", Json::object()));
  desired.clusters[0].objects.push_back(local_queue("team-a", "lq", "cluster-queue"));
  world.apply(desired);
  // What Kubernetes puts in every namespace does not count.
  world.manager.put(Json{{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"metadata", {{"name", "kube-root-ca.crt"}, {"namespace", "team-a"}}}},
                    "kube-controller-manager");
  world.manager.put(Json{{"apiVersion", "v1"},
                         {"kind", "ServiceAccount"},
                         {"metadata", {{"name", "default"}, {"namespace", "team-a"}}}},
                    "kube-controller-manager");
  const Json notes{{"apiVersion", "v1"},
                   {"kind", "ConfigMap"},
                   {"metadata", {{"name", "notes"}, {"namespace", "team-a"}}},
                   {"data", {{"a", "b"}}}};
  world.manager.put(notes, "kubectl");

  // While the namespace stays in the policy, its contents are not read.
  world.plan(desired);
  const auto calls = world.manager.calls();
  CHECK(std::find(calls.begin(), calls.end(), "GET /api/v1") == calls.end());

  remove_object(desired, "manager", "Namespace");
  remove_object(desired, "manager", "LocalQueue");
  auto plan = world.plan(desired);
  const auto* ns = change_of(plan, "manager/Namespace/team-a");
  REQUIRE(ns != nullptr);
  CHECK(ns->action == Action::Release);
  CHECK(reconcile::reason_text(*ns) == "released: holds ConfigMap team-a/notes, not managed by mkq");
  // mkq's own LocalQueue in it goes.
  CHECK(change_of(plan, "manager/LocalQueue/team-a/lq")->action == Action::Delete);

  // Two more foreign objects: the reason names two and counts the rest.
  for (const char* name : {"more", "other"}) {
    Json extra = notes;
    extra["metadata"]["name"] = name;
    world.manager.put(extra, "kubectl");
  }
  plan = world.plan(desired);
  CHECK(reconcile::reason_text(*change_of(plan, "manager/Namespace/team-a")) ==
        "released: holds ConfigMap team-a/more, ConfigMap team-a/notes and 1 more, not managed by mkq");

  // Empty of anything else: deleted.
  for (const char* name : {"notes", "more", "other"}) {
    REQUIRE(world.manager.remove(world.manager.resource_for("v1", "ConfigMap").value(), "team-a", name, {}).ok());
  }
  plan = world.plan(desired);
  CHECK(change_of(plan, "manager/Namespace/team-a")->action == Action::Delete);

  // Contents that cannot be read count as foreign.
  world.manager.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call == "LIST /api/v1/namespaces/team-a/configmaps") return kube::Error{403, "Forbidden", "forbidden", Json()};
    return std::nullopt;
  });
  plan = world.plan(desired);
  CHECK(change_of(plan, "manager/Namespace/team-a")->action == Action::Release);
  CHECK(reconcile::reason_text(*change_of(plan, "manager/Namespace/team-a")) ==
        "released: its contents could not be read: list configmaps: forbidden");
}

TEST_CASE("plan: mkq.dev/prevent-destroy releases instead of deleting and refuses a replace",
          "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  world.apply(desired);
  for (const char* kind : {"LocalQueue", "ClusterQueue"}) {
    Json live = *world.worker.object("kueue.x-k8s.io/v1beta2", kind, kind == std::string("LocalQueue") ? "default" : "",
                                     kind == std::string("LocalQueue") ? "user-queue" : "cluster-queue");
    live["metadata"]["annotations"] = Json{{"mkq.dev/prevent-destroy", "true"}};
    world.worker.put(live, "kubectl");
  }

  // A replace (the LocalQueue moves to another ClusterQueue) is refused.
  find(desired, "worker1", "LocalQueue", "user-queue")->document["spec"]["clusterQueue"] = "other";
  auto plan = world.plan(desired);
  const auto* moved = change_of(plan, "worker1/LocalQueue/default/user-queue");
  REQUIRE(moved != nullptr);
  CHECK(moved->action == Action::Replace);
  CHECK(moved->refusal ==
        "it is marked mkq.dev/prevent-destroy=true and spec.clusterQueue is immutable: it can only change by being "
        "deleted and created again; remove the annotation to allow that");
  CHECK(plan.summary().conflicts == 1);
  CHECK(plan.refusals().size() == 1);

  // Destroy releases both; the unmarked flavor is deleted.
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  plan = world.plan(desired, nullptr, destroy);
  CHECK(change_of(plan, kWorkerQueue)->action == Action::Release);
  CHECK(reconcile::reason_text(*change_of(plan, kWorkerQueue)) == "released: marked mkq.dev/prevent-destroy");
  CHECK(change_of(plan, kFlavor)->action == Action::Delete);
  // An object mkq created has no prior: a release only takes mkq's labels off.
  const Json& patch = change_of(plan, kWorkerQueue)->desired;
  CHECK(patch["metadata"]["labels"] == Json{{"app.kubernetes.io/managed-by", nullptr}, {"mkq.dev/policy", nullptr}});
  CHECK_FALSE(patch.contains("spec"));
}

TEST_CASE("plan: a saved plan keeps ownership and releases", "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  world.apply(desired);
  world.inventory.back().adopted = true;
  world.inventory.back().prior = R"([{"path":["metadata","labels","mkq.dev/policy"]}])";
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const auto plan = world.plan(desired, nullptr, destroy);
  const auto back = reconcile::plan_from_json(reconcile::render_json(plan));
  REQUIRE(back.ok());
  CHECK(back->policy == "test");
  const auto* release = change_of(*back, world.inventory.back().ref.address());
  REQUIRE(release != nullptr);
  CHECK(release->action == Action::Release);
  CHECK(release->adopted);
  CHECK(release->prior == world.inventory.back().prior);
  CHECK(release->desired == change_of(plan, world.inventory.back().ref.address())->desired);
}

TEST_CASE("identity_in_use: the policy label most objects of the inventory carry", "[reconcile][plan][ownership]") {
  World world;
  auto desired = policy();
  world.apply(desired);
  CHECK(reconcile::identity_in_use(world.inventory, world.refresh(desired)) == "test");
  CHECK(reconcile::identity_in_use({}, world.refresh(desired)).empty());
}

namespace {

reconcile::Change change_with(reconcile::Action action, const std::string& live_uid) {
  reconcile::Change change;
  change.action = action;
  change.live_uid = live_uid;
  return change;
}

reconcile::Plan plan_of(std::vector<reconcile::Change> changes) {
  reconcile::Plan plan;
  reconcile::ClusterPlan cluster;
  cluster.cluster = "manager";
  cluster.changes = std::move(changes);
  plan.clusters.push_back(std::move(cluster));
  return plan;
}

}  // namespace

TEST_CASE("a plan removes everything only when it deletes or releases and nothing stays", "[reconcile][plan]") {
  using reconcile::Action;
  CHECK(plan_of({change_with(Action::Delete, "u1"), change_with(Action::Release, "u2")}).removes_everything());
  // An inventory object already gone stays nowhere: still everything.
  CHECK(plan_of({change_with(Action::Delete, "u1"), change_with(Action::NoOp, "")}).removes_everything());
  // An object that stays (up to date), or any write: not everything.
  CHECK_FALSE(plan_of({change_with(Action::Delete, "u1"), change_with(Action::NoOp, "u2")}).removes_everything());
  CHECK_FALSE(plan_of({change_with(Action::Delete, "u1"), change_with(Action::Create, "")}).removes_everything());
  CHECK_FALSE(plan_of({change_with(Action::Release, "u1"), change_with(Action::Update, "u2")}).removes_everything());
  // Nothing to remove at all: not a removal of everything.
  CHECK_FALSE(plan_of({change_with(Action::NoOp, "")}).removes_everything());
  CHECK_FALSE(plan_of({}).removes_everything());
}
