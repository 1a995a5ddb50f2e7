// make_plan: desired vs inventory vs live, against FakeClients.
#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers
using reconcile::Action;

namespace {

class TestCredentials : public reconcile::CredentialProvider {
 public:
  reconcile::CredentialDecision decision;
  int decided = 0;
  reconcile::CredentialDecision decide(const std::string&, const kueue::Object&, const Json*,
                                       const state::InventoryEntry*) override {
    ++decided;
    return decision;
  }
  kube::Result<Json> issue(const std::string&, const kueue::Object&, reconcile::CredentialJournal*) override {
    return kube::Error{500, "InternalError", "not in this test", Json()};
  }
};

const char* kCpuQuota = "spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota";

}  // namespace

TEST_CASE("plan: a new policy creates every object in apply order", "[reconcile][plan]") {
  World world;
  auto desired = policy();
  const auto plan = world.plan(desired);
  CHECK(actions(plan) == std::vector<std::string>{
                             "create manager/ResourceFlavor/default-flavor (not on the cluster)",
                             "create manager/ClusterQueue/cluster-queue (not on the cluster)",
                             "create manager/LocalQueue/default/user-queue (not on the cluster)",
                             "create worker1/ResourceFlavor/default-flavor (not on the cluster)",
                             "create worker1/ClusterQueue/cluster-queue (not on the cluster)",
                             "create worker1/LocalQueue/default/user-queue (not on the cluster)"});
  const auto s = plan.summary();
  CHECK(s.add == 6);
  CHECK(s.change + s.destroy + s.unchanged == 0);
  CHECK(plan.has_changes());
  CHECK(plan.complete());
  CHECK(plan.lineage == kLineage);
  CHECK(plan.policy_digest.rfind("sha256:", 0) == 0);
  const auto* cq = change_of(plan, "manager/ClusterQueue/cluster-queue");
  REQUIRE(cq != nullptr);
  CHECK(cq->desired == find(desired, "manager", "ClusterQueue", "cluster-queue")->document);
  CHECK(cq->fields.empty());
  CHECK(cq->live_uid.empty());
  CHECK(cq->depends_on == std::vector<std::string>{"?/ResourceFlavor/default-flavor"});
}

TEST_CASE("plan: nothing changes after an apply, whatever the server adds", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  // The server and controllers add status, defaults and finalizers.
  Json cq = *world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  cq["status"] = Json{{"conditions", Json::array({Json{{"type", "Active"}, {"status", "True"}}})}};
  cq["spec"]["queueingStrategy"] = "BestEffortFIFO";
  cq["spec"]["flavorFungibility"] = Json{{"whenCanBorrow", "MayStopSearch"}};
  cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["borrowingLimit"] = "1";  // a default in a list item
  cq["metadata"]["finalizers"] = Json::array({"kueue.x-k8s.io/resource-in-use"});
  cq["metadata"]["labels"]["extra"] = "someone-else";
  world.manager.put(cq, "kueue-controller");

  const auto plan = world.plan(desired);
  CHECK(actions(plan).empty());
  CHECK_FALSE(plan.has_changes());
  CHECK(plan.summary().unchanged == 6);
  const auto* change = change_of(plan, "manager/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::NoOp);
  CHECK(reconcile::reason_text(*change) == "up to date");
  const Json live = *world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  CHECK(change->live_uid == live["metadata"]["uid"]);
  CHECK(change->live_resource_version == live["metadata"]["resourceVersion"]);
}

TEST_CASE("plan: int-or-string quantities compare by value", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  Json cq = *world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = 9;  // the server answers a number
  world.manager.put(cq, "kube-apiserver");
  CHECK(actions(world.plan(desired)).empty());
}

TEST_CASE("plan: a quota change shows exactly that field", "[reconcile][plan]") {
  World world;
  world.apply(policy("9"));
  const auto plan = world.plan(policy("12"));
  CHECK(actions(plan) == std::vector<std::string>{"update manager/ClusterQueue/cluster-queue (the policy changed)"});
  const auto* change = change_of(plan, "manager/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == kCpuQuota);
  CHECK(change->fields[0].before == Json("9"));
  CHECK(change->fields[0].after == Json("12"));
  CHECK_FALSE(change->fields[0].sensitive);
  CHECK(plan.summary().change == 1);
  CHECK(plan.summary().unchanged == 5);
}

TEST_CASE("plan: an edit behind mkq's back is drift", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  Json cq = *world.worker.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "20";
  world.worker.put(cq, "kubectl");
  const auto plan = world.plan(desired);
  CHECK(actions(plan) == std::vector<std::string>{"update worker1/ClusterQueue/cluster-queue (drift: changed outside mkq)"});
  const auto* change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == kCpuQuota);
  CHECK(change->fields[0].before == Json("20"));
  CHECK(change->fields[0].after == Json("9"));
}

TEST_CASE("plan: a label removed behind mkq's back is drift", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  Json rf = *world.manager.object("kueue.x-k8s.io/v1beta2", "ResourceFlavor", "", "default-flavor");
  rf["metadata"]["labels"].erase("mkq.dev/policy");
  world.manager.put(rf, "kubectl");
  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, "manager/ResourceFlavor/default-flavor");
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Update);
  CHECK(reconcile::reason_text(*change) == "drift: changed outside mkq");
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == "metadata.labels.mkq.dev/policy");
  CHECK_FALSE(change->fields[0].before.has_value());
  CHECK(change->fields[0].after == Json("test"));
}

TEST_CASE("plan: a field mkq owned and no longer sends is removed", "[reconcile][plan]") {
  World world;
  auto before = policy();
  find(before, "manager", "ClusterQueue", "cluster-queue")->document["spec"]["cohortName"] = "all";
  find(before, "manager", "ClusterQueue", "cluster-queue")->document["spec"]["queueingStrategy"] = "BestEffortFIFO";
  world.apply(before);
  const auto plan = world.plan(policy());
  CHECK(actions(plan) == std::vector<std::string>{"update manager/ClusterQueue/cluster-queue (the policy changed)"});
  const auto* change = change_of(plan, "manager/ClusterQueue/cluster-queue");
  // queueingStrategy: the server's default is the value it holds, so dropping it changes nothing.
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == "spec.cohortName");
  CHECK(change->fields[0].before == Json("all"));
  CHECK_FALSE(change->fields[0].after.has_value());
}

TEST_CASE("plan: a changed immutable field replaces the object", "[reconcile][plan]") {
  World world;
  world.apply(policy());
  auto moved = policy();
  find(moved, "manager", "LocalQueue", "user-queue")->document["spec"]["clusterQueue"] = "other-queue";
  const auto plan = world.plan(moved);
  CHECK(actions(plan) ==
        std::vector<std::string>{"replace manager/LocalQueue/default/user-queue (spec.clusterQueue is immutable)"});
  const auto* change = change_of(plan, "manager/LocalQueue/default/user-queue");
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].before == Json("cluster-queue"));
  CHECK(change->fields[0].after == Json("other-queue"));
  CHECK_FALSE(change->live_uid.empty());
  const auto s = plan.summary();
  CHECK(s.add == 1);
  CHECK(s.destroy == 1);
  CHECK(s.replace == 1);
  CHECK(s.change == 0);
}

TEST_CASE("plan: a flavor's topologyName may be set once, never changed", "[reconcile][plan]") {
  World world;
  world.apply(policy());
  auto with_topology = policy();
  find(with_topology, "worker1", "ResourceFlavor", "default-flavor")->document["spec"]["topologyName"] = "default";
  CHECK(actions(world.plan(with_topology)) ==
        std::vector<std::string>{"update worker1/ResourceFlavor/default-flavor (the policy changed)"});
  world.apply(with_topology);
  auto other = policy();
  find(other, "worker1", "ResourceFlavor", "default-flavor")->document["spec"]["topologyName"] = "other";
  CHECK(actions(world.plan(other)) ==
        std::vector<std::string>{"replace worker1/ResourceFlavor/default-flavor (spec.topologyName is immutable)"});
}

TEST_CASE("plan: objects no longer in the policy are deleted last, in reverse order, --no-prune keeps them",
          "[reconcile][plan]") {
  World world;
  auto before = policy();
  before.clusters[0].objects.push_back(flavor("old-flavor"));
  before.clusters[0].objects.push_back(local_queue("team-a", "old-queue", "cluster-queue"));
  world.apply(before);
  const auto desired = policy();
  const auto plan = world.plan(desired);
  const auto& manager = cluster_of(plan, "manager");
  REQUIRE(manager.changes.size() == 5);
  CHECK(manager.changes[3].ref.address() == "manager/LocalQueue/team-a/old-queue");
  CHECK(manager.changes[4].ref.address() == "manager/ResourceFlavor/old-flavor");
  CHECK(actions(plan) == std::vector<std::string>{"delete manager/LocalQueue/team-a/old-queue (no longer in the policy)",
                                                  "delete manager/ResourceFlavor/old-flavor (no longer in the policy)"});
  CHECK(manager.changes[4].desired.is_null());
  CHECK_FALSE(manager.changes[4].live_uid.empty());
  CHECK(plan.summary().destroy == 2);

  reconcile::PlanOptions keep;
  keep.prune = false;
  const auto kept = world.plan(desired, nullptr, keep);
  CHECK(actions(kept).empty());
  CHECK(cluster_of(kept, "manager").changes.size() == 3);
  // Kept, not forgotten: the plan names them, and says the clusters do not match the policy.
  const auto& kept_manager = cluster_of(kept, "manager");
  REQUIRE(kept_manager.kept.size() == 2);
  CHECK(kept_manager.kept[0].address() == "manager/ResourceFlavor/old-flavor");
  CHECK(kept_manager.kept[1].address() == "manager/LocalQueue/team-a/old-queue");
  CHECK(reconcile::render_text(kept, false) ==
        "No changes to make, but not every cluster matches the policy: 2 objects mkq applied are no longer in the "
        "policy and kept (--no-prune).\n"
        "\n"
        "# cluster manager (manager)\n"
        "  = ResourceFlavor old-flavor (kept: no longer in the policy; --no-prune)\n"
        "  = LocalQueue team-a/old-queue (kept: no longer in the policy; --no-prune)\n");
  CHECK(reconcile::render_json(kept)["clusters"][0]["kept"] ==
        Json::parse(R"(["manager/ResourceFlavor/old-flavor", "manager/LocalQueue/team-a/old-queue"])"));
  CHECK(reconcile::render_text(plan, false).find("kept") == std::string::npos);
}

TEST_CASE("plan: an inventory object already gone is a no-op the executor can forget", "[reconcile][plan]") {
  World world;
  auto before = policy();
  before.clusters[1].objects.push_back(flavor("old-flavor"));
  world.apply(before);
  auto type = world.worker.resource_for("kueue.x-k8s.io/v1beta2", "ResourceFlavor").value();
  REQUIRE(world.worker.remove(type, "", "old-flavor", {}).ok());
  const auto plan = world.plan(policy());
  CHECK(actions(plan).empty());
  const auto* gone = change_of(plan, "worker1/ResourceFlavor/old-flavor");
  REQUIRE(gone != nullptr);
  CHECK(gone->action == Action::NoOp);
  CHECK(reconcile::reason_text(*gone) == "already gone");
  CHECK(gone->live_uid.empty());
}

TEST_CASE("plan: an object deleted outside mkq is created again", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  auto type = world.manager.resource_for("kueue.x-k8s.io/v1beta2", "LocalQueue").value();
  REQUIRE(world.manager.remove(type, "default", "user-queue", {}).ok());
  CHECK(actions(world.plan(desired)) ==
        std::vector<std::string>{"create manager/LocalQueue/default/user-queue (deleted outside mkq)"});
}

TEST_CASE("plan: an object someone else made is adopted", "[reconcile][plan]") {
  World world;
  auto desired = policy();
  Json theirs = find(desired, "worker1", "ClusterQueue", "cluster-queue")->document;
  theirs["metadata"].erase("labels");
  world.worker.put(theirs, "kubectl");
  auto plan = world.plan(desired);
  auto* change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Update);
  CHECK(reconcile::reason_text(*change) == "exists, not yet managed by mkq");
  CHECK(change->fields.size() == 2);  // the two labels

  // Identical but unknown to the state: still recorded by an update.
  world.worker.put(find(desired, "worker1", "ClusterQueue", "cluster-queue")->document, "kubectl");
  plan = world.plan(desired);
  change = change_of(plan, "worker1/ClusterQueue/cluster-queue");
  CHECK(change->action == Action::Update);
  CHECK(reconcile::reason_text(*change) == "exists, not yet managed by mkq");
  CHECK(change->fields.empty());
}

TEST_CASE("plan: destroy deletes every inventory object, in reverse apply order", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  world.worker.put(world.worker.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue").value());
  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  const auto plan = world.plan(desired, nullptr, destroy);
  CHECK(plan.kind == reconcile::PlanKind::Destroy);
  CHECK(actions(plan) == std::vector<std::string>{"delete manager/LocalQueue/default/user-queue (destroy)",
                                                  "delete manager/ClusterQueue/cluster-queue (destroy)",
                                                  "delete manager/ResourceFlavor/default-flavor (destroy)",
                                                  "delete worker1/LocalQueue/default/user-queue (destroy)",
                                                  "delete worker1/ClusterQueue/cluster-queue (destroy)",
                                                  "delete worker1/ResourceFlavor/default-flavor (destroy)"});
  CHECK(plan.summary().destroy == 6);
  // Objects mkq never applied are not destroyed.
  World fresh;
  CHECK(actions(fresh.plan(desired, nullptr, destroy)).empty());
}

TEST_CASE("plan: a credential placeholder is decided by the provider", "[reconcile][plan][credentials]") {
  World world;
  auto desired = policy();
  desired.clusters[0].objects.insert(desired.clusters[0].objects.begin(), placeholder_secret());

  SECTION("no provider") {
    const auto plan = world.plan(desired);
    const auto* secret = change_of(plan, "manager/Secret/kueue-system/worker1-secret");
    REQUIRE(secret != nullptr);
    CHECK(secret->action == Action::Create);
    CHECK(secret->credential);
    CHECK(secret->sensitive);
    CHECK(secret->credential_error == "no credential provider");
    CHECK(reconcile::reason_text(*secret) == "not on the cluster");
  }
  SECTION("issue") {
    TestCredentials provider;
    provider.decision = {true, "token for multikueue-sa, expires 2026-12-21", reconcile::CredentialCause::NotOnCluster,
                         "", ""};
    const auto plan = world.plan(desired, &provider);
    CHECK(provider.decided == 1);
    const auto* secret = change_of(plan, "manager/Secret/kueue-system/worker1-secret");
    REQUIRE(secret != nullptr);
    CHECK(secret->action == Action::Create);
    CHECK(reconcile::reason_text(*secret) == "token for multikueue-sa, expires 2026-12-21: not on the cluster");
    CHECK(secret->credential);
    CHECK(secret->credential_error.empty());
    CHECK(secret->fields.empty());
    CHECK(secret->desired == desired.clusters[0].objects[0].document);
  }
  SECTION("current") {
    world.apply(policy());
    world.apply_one("manager", placeholder_secret());
    TestCredentials provider;
    provider.decision = {false, "token for multikueue-sa, expires 2026-12-21", reconcile::CredentialCause::None, "",
                         ""};
    const auto plan = world.plan(desired, &provider);
    const auto* secret = change_of(plan, "manager/Secret/kueue-system/worker1-secret");
    REQUIRE(secret != nullptr);
    CHECK(secret->action == Action::NoOp);
    CHECK(reconcile::reason_text(*secret) == "token for multikueue-sa, expires 2026-12-21: credential current");
    CHECK_FALSE(plan.has_changes());
  }
  SECTION("cannot issue") {
    TestCredentials provider;
    provider.decision = {true, "token for multikueue-sa", reconcile::CredentialCause::NotOnCluster, "",
                         "worker1 is unreachable"};
    const auto plan = world.plan(desired, &provider);
    const auto* secret = change_of(plan, "manager/Secret/kueue-system/worker1-secret");
    CHECK(secret->action == Action::Create);
    CHECK(secret->credential_error == "worker1 is unreachable");
  }
}

TEST_CASE("plan: a Secret's values never reach the plan", "[reconcile][plan][secrets]") {
  World world;
  auto desired = policy();
  kueue::Object secret = make("v1", "Secret", "tls", "kueue-system", Json{{"data", {{"key", "c2VjcmV0LW9uZQ=="}}}});
  desired.clusters[1].objects.insert(desired.clusters[1].objects.begin(), secret);
  world.apply(desired);
  desired.clusters[1].objects[0].document["data"]["key"] = "c2VjcmV0LXR3bw==";
  const auto plan = world.plan(desired);
  const auto* change = change_of(plan, "worker1/Secret/kueue-system/tls");
  REQUIRE(change != nullptr);
  CHECK(change->action == Action::Update);
  CHECK(change->sensitive);
  REQUIRE(change->fields.size() == 1);
  CHECK(change->fields[0].path == "data.key");
  CHECK(change->fields[0].sensitive);
  CHECK(change->fields[0].before == Json("(sensitive value)"));
  CHECK(change->fields[0].after == Json("(sensitive value)"));
  const std::string text = reconcile::render_text(plan, false) + reconcile::render_markdown(plan) +
                           reconcile::render_json(plan).dump();
  CHECK(text.find("c2VjcmV0") == std::string::npos);
  CHECK(text.find("(sensitive value)") != std::string::npos);
}

TEST_CASE("plan: an unreachable cluster is reported and does not stop the others", "[reconcile][plan]") {
  World world;
  const auto desired = policy();
  world.worker.set_unreachable(true);
  const auto plan = world.plan(desired);
  const auto& worker = cluster_of(plan, "worker1");
  CHECK_FALSE(worker.reachable);
  CHECK(worker.error.find("connection refused") != std::string::npos);
  CHECK(worker.changes.empty());
  CHECK(cluster_of(plan, "manager").changes.size() == 3);
  CHECK_FALSE(plan.complete());
  CHECK(plan.summary().unreachable_clusters == 1);

  auto targets = world.targets();
  targets[1].client = nullptr;
  targets[1].connect_error = "context \"worker1-cluster\" not found in the kubeconfig";
  const auto live = reconcile::refresh(desired, {}, targets, {});
  const auto offline = reconcile::make_plan(desired, {}, kLineage, live, nullptr, {});
  CHECK(cluster_of(offline, "worker1").error == "context \"worker1-cluster\" not found in the kubeconfig");
}

TEST_CASE("plan: a cluster only the inventory remembers is pruned as a worker", "[reconcile][plan]") {
  World world;
  world.apply(policy());
  auto without_worker = policy();
  without_worker.clusters.pop_back();
  const auto plan = world.plan(without_worker);
  REQUIRE(plan.clusters.size() == 2);
  CHECK(plan.clusters[1].cluster == "worker1");
  CHECK(plan.clusters[1].role == kueue::ClusterRole::Worker);
  CHECK(plan.summary().destroy == 3);
}

TEST_CASE("canonical JSON: sorted keys, compact, the same bytes as a sorted-map dump", "[reconcile][plan]") {
  // The digests in existing state files were taken of nlohmann's std::map dump
  // of the document; the canonical form must stay that, byte for byte.
  const char* const documents[] = {
      R"({"b": 1, "a": {"y": 2, "x": 1}})",
      R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "labels": {"z": "1", "Z": "2", "a-b": "3"}},
          "stringData": {"kubeconfig": "line1\nline2\t\"quoted\" \\ back", "ü": "é ✓ \u0001"}})",
      R"({"n": [1, -2, 3.5, -0.0, 1e300, 18446744073709551615, -9223372036854775808, true, false, null, "", [], {}],
          "nested": [{"b": [{"d": 1, "c": 2}], "a": null}], "": "empty key", "aa": 1, "a": 2, "B": 3})",
      R"([3, {"y": "x", "x": "y"}, "text"])",
      R"({"plain ascii ~!#$%&'()*+,-./:;<=>?@[]^_`{|}": "a/b\u007fc", "k\"q": "v\\w", "tab\tkey": "\u001f"})",
      R"("just a string")",
      R"(42)"};
  for (const char* text : documents) {
    const Json document = Json::parse(text);
    INFO(text);
    CHECK(reconcile::detail::canonical(document) == nlohmann::json::parse(document.dump()).dump());
  }
  CHECK(reconcile::detail::canonical(Json::parse(R"({"b": 1, "a": {"y": 2, "x": 1}})")) ==
        R"({"a":{"x":1,"y":2},"b":1})");
}

TEST_CASE("document_digest is the lineage-salted digest of the canonical document", "[reconcile][plan]") {
  const Json a = Json::parse(R"({"b": 1, "a": {"y": 2, "x": 1}})");
  const Json b = Json::parse(R"({"a": {"x": 1, "y": 2}, "b": 1})");
  CHECK(reconcile::document_digest(a, kLineage) == reconcile::document_digest(b, kLineage));
  CHECK(reconcile::document_digest(a, kLineage) != reconcile::document_digest(a, "other"));
  CHECK(reconcile::action_name(Action::Replace) == std::string("replace"));
  CHECK(reconcile::action_name(Action::NoOp) == std::string("no-op"));
}
