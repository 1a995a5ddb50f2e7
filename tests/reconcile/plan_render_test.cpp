// The plan's renderings (golden), the saved plan's round trip, and staleness.
#include "tests/reconcile/plan_test_support.h"

using namespace plantest;  // NOLINT: test-local helpers
using reconcile::Action;

namespace {

reconcile::Change change(const std::string& cluster, const std::string& kind, const std::string& ns,
                         const std::string& name, Action action, const std::string& reason) {
  reconcile::Change c;
  c.ref.cluster = cluster;
  c.ref.api_version = kind == "Secret" ? "v1" : "kueue.x-k8s.io/v1beta2";
  c.ref.kind = kind;
  c.ref.namespace_name = ns;
  c.ref.name = name;
  c.action = action;
  c.reason = reconcile::Reason::Recorded;  // the words under test, as a saved plan holds them
  c.reason_args.text = reason;
  if (action != Action::Delete && action != Action::NoOp) {
    c.desired = Json{{"apiVersion", c.ref.api_version}, {"kind", kind}, {"metadata", {{"name", name}}}};
  }
  if (action != Action::Create) {
    c.live_uid = "uid-" + name;
    c.live_resource_version = "7";
  }
  return c;
}

// One plan with every kind of line.
reconcile::Plan mixed_plan() {
  reconcile::Plan plan;
  plan.policy_path = "examples/quickstart";
  plan.policy_digest = "sha256:abc";
  plan.lineage = kLineage;
  plan.state_serial = 4;
  reconcile::ClusterPlan manager;
  manager.cluster = "manager-cluster";
  manager.role = kueue::ClusterRole::Manager;
  auto secret = change("manager-cluster", "Secret", "kueue-system", "worker1-secret", Action::Create,
                       "token for multikueue-sa, expires 2026-12-21: not on the cluster");
  secret.sensitive = secret.credential = true;
  manager.changes.push_back(secret);
  manager.changes.push_back(change("manager-cluster", "ResourceFlavor", "", "default-flavor", Action::NoOp, "up to date"));
  manager.changes.push_back(change("manager-cluster", "ClusterQueue", "", "cluster-queue", Action::Create, "not on the cluster"));
  auto team = change("manager-cluster", "ClusterQueue", "", "team-a", Action::Update, "the policy changed");
  team.fields.push_back({"spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota", Json("9"), Json("12"), false});
  team.fields.push_back({"spec.cohortName", Json("all"), std::nullopt, false});
  team.fields.push_back({"metadata.labels.team", std::nullopt, Json("a"), false});
  team.depends_on = {"manager-cluster/ResourceFlavor/default-flavor"};
  manager.changes.push_back(team);
  auto lq = change("manager-cluster", "LocalQueue", "default", "user-queue", Action::Replace, "spec.clusterQueue is immutable");
  lq.fields.push_back({"spec.clusterQueue", Json("cluster-queue"), Json("team-a"), false});
  manager.changes.push_back(lq);
  manager.changes.push_back(change("manager-cluster", "ResourceFlavor", "", "old", Action::Delete, "no longer in the policy"));
  plan.clusters.push_back(manager);

  reconcile::ClusterPlan worker1;
  worker1.cluster = "worker1";
  worker1.reachable = false;
  worker1.error = "connection refused: https://10.0.0.2:6443 cannot be reached";
  plan.clusters.push_back(worker1);

  reconcile::ClusterPlan worker2;
  worker2.cluster = "worker2";
  auto tls = change("worker2", "Secret", "kueue-system", "tls", Action::Update, "drift: changed outside mkq");
  tls.sensitive = true;
  tls.fields.push_back({"data.key", Json("(sensitive value)"), Json("(sensitive value)"), true});
  worker2.changes.push_back(tls);
  worker2.changes.push_back(change("worker2", "ClusterQueue", "", "cluster-queue", Action::NoOp, "up to date"));
  plan.clusters.push_back(worker2);

  reconcile::ClusterPlan worker3;
  worker3.cluster = "worker3";
  worker3.changes.push_back(change("worker3", "ClusterQueue", "", "cluster-queue", Action::NoOp, "up to date"));
  plan.clusters.push_back(worker3);
  return plan;
}

}  // namespace

TEST_CASE("render_text: a mixed plan (golden)", "[reconcile][render]") {
  const std::string expected = R"(mkq will perform the following actions:

# cluster manager-cluster (manager)
  + Secret kueue-system/worker1-secret (token for multikueue-sa, expires 2026-12-21: not on the cluster)
  + ClusterQueue cluster-queue (not on the cluster)
  ~ ClusterQueue team-a (the policy changed)
      ~ spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota: "9" -> "12"
      - spec.cohortName: "all"
      + metadata.labels.team: "a"
  -/+ LocalQueue default/user-queue (spec.clusterQueue is immutable)
      ~ spec.clusterQueue: "cluster-queue" -> "team-a"
  - ResourceFlavor old (no longer in the policy)

# cluster worker1 (worker): unreachable: connection refused: https://10.0.0.2:6443 cannot be reached

# cluster worker2 (worker)
  ~ Secret kueue-system/tls (drift: changed outside mkq)
      ~ data.key: (sensitive value) -> (sensitive value)

# cluster worker3 (worker): no changes

Plan: 3 to add, 2 to change, 2 to destroy.
1 cluster is unreachable: its changes are unknown and not part of this plan.
)";
  CHECK(reconcile::render_text(mixed_plan(), false) == expected);
}

TEST_CASE("render_text and render_markdown: several unreachable clusters", "[reconcile][render]") {
  reconcile::Plan plan = mixed_plan();
  plan.clusters[3].reachable = false;
  plan.clusters[3].error = "no answer within 30000 ms";
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.substr(text.rfind("Plan: ")) ==
        "Plan: 3 to add, 2 to change, 2 to destroy.\n"
        "2 clusters are unreachable: their changes are unknown and not part of this plan.\n");
  CHECK(reconcile::render_markdown(plan).find("\n**2 clusters are unreachable**: their changes are unknown.\n") !=
        std::string::npos);
}

TEST_CASE("render_text: colours only when asked", "[reconcile][render]") {
  const std::string plain = reconcile::render_text(mixed_plan(), false);
  const std::string colored = reconcile::render_text(mixed_plan(), true);
  CHECK(plain.find('\x1b') == std::string::npos);
  CHECK(colored.find("\x1b[32m+\x1b[0m ClusterQueue cluster-queue") != std::string::npos);
  CHECK(colored.find("\x1b[33m~\x1b[0m ClusterQueue team-a") != std::string::npos);
  CHECK(colored.find("\x1b[31m-\x1b[0m ResourceFlavor old") != std::string::npos);
}

TEST_CASE("render_text and render_markdown: no changes", "[reconcile][render]") {
  reconcile::Plan plan = mixed_plan();
  plan.clusters = {plan.clusters[3]};
  CHECK(reconcile::render_text(plan, false) == "No changes. Every cluster matches the policy.\n");
  CHECK(reconcile::render_markdown(plan) == "### mkq plan: no changes\n\nNo changes. Every cluster matches the policy.\n");
  plan.kind = reconcile::PlanKind::Destroy;
  CHECK(reconcile::render_text(plan, false) == "No changes. mkq has nothing to destroy.\n");
}

TEST_CASE("render_markdown: a mixed plan (golden)", "[reconcile][render]") {
  const std::string expected = R"(### mkq plan: 3 to add, 2 to change, 2 to destroy

**1 cluster is unreachable**: its changes are unknown.

#### cluster `manager-cluster` (manager)

| Action | Object | Reason |
| --- | --- | --- |
| + create | `Secret kueue-system/worker1-secret` | token for multikueue-sa, expires 2026-12-21: not on the cluster |
| + create | `ClusterQueue cluster-queue` | not on the cluster |
| ~ update | `ClusterQueue team-a` | the policy changed |
| -/+ replace | `LocalQueue default/user-queue` | spec.clusterQueue is immutable |
| - delete | `ResourceFlavor old` | no longer in the policy |

<details><summary>field changes on manager-cluster</summary>

```diff
# ~ ClusterQueue team-a
- spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota: "9"
+ spec.resourceGroups[0].flavors[default-flavor].resources[cpu].nominalQuota: "12"
- spec.cohortName: "all"
+ metadata.labels.team: "a"
# -/+ LocalQueue default/user-queue
- spec.clusterQueue: "cluster-queue"
+ spec.clusterQueue: "team-a"
```

</details>

#### cluster `worker1` (worker)

Unreachable: connection refused: https://10.0.0.2:6443 cannot be reached

#### cluster `worker2` (worker)

| Action | Object | Reason |
| --- | --- | --- |
| ~ update | `Secret kueue-system/tls` | drift: changed outside mkq |

<details><summary>field changes on worker2</summary>

```diff
# ~ Secret kueue-system/tls
- data.key: (sensitive value)
+ data.key: (sensitive value)
```

</details>

#### cluster `worker3` (worker)

No changes.
)";
  CHECK(reconcile::render_markdown(mixed_plan()) == expected);
}

TEST_CASE("render_json: summary and shape, plan_from_json round-trips it", "[reconcile][render][json]") {
  const reconcile::Plan plan = mixed_plan();
  const Json json = reconcile::render_json(plan);
  CHECK(json["format_version"] == 1);
  CHECK(json["kind"] == "apply");
  CHECK(json["state_serial"] == 4);
  CHECK(json["summary"] == Json::parse(R"({"add":3,"change":2,"destroy":2,"replace":1,"unchanged":3,"unreachable_clusters":1,"release":0,"conflicts":0})"));
  CHECK(json["clusters"][0]["changes"][3]["fields"][1] == Json::parse(R"({"path":"spec.cohortName","before":"all","sensitive":false})"));
  CHECK(json["clusters"][1]["reachable"] == false);

  const auto back = reconcile::plan_from_json(json);
  REQUIRE(back.ok());
  CHECK(reconcile::render_json(*back) == json);
  CHECK(back->policy_path == plan.policy_path);
  CHECK(back->clusters[0].role == kueue::ClusterRole::Manager);
  const auto& team = back->clusters[0].changes[3];
  CHECK(team.ref.cluster == "manager-cluster");
  CHECK(team.action == Action::Update);
  CHECK(team.depends_on == plan.clusters[0].changes[3].depends_on);
  CHECK_FALSE(team.fields[1].after.has_value());
  CHECK_FALSE(team.fields[2].before.has_value());
  CHECK(back->clusters[0].changes[0].credential);
  CHECK(reconcile::render_text(*back, false) == reconcile::render_text(plan, false));
  // Through text as a saved plan file is.
  CHECK(reconcile::render_json(*reconcile::plan_from_json(Json::parse(json.dump(2)))) == json);
}

TEST_CASE("plan_from_json refuses what it cannot read", "[reconcile][render][json]") {
  const auto refusal = [](const Json& json) {
    const auto plan = reconcile::plan_from_json(json);
    REQUIRE_FALSE(plan);
    return plan.error().message;
  };
  CHECK(refusal(Json::parse("[]")) == "a saved plan is a JSON object");
  Json json = reconcile::render_json(mixed_plan());
  json["format_version"] = 2;
  CHECK(refusal(json) == "unsupported plan format_version (this mkq reads version 1)");
  json = reconcile::render_json(mixed_plan());
  json["clusters"][0]["changes"][0]["action"] = "explode";
  CHECK(refusal(json) == "unknown action \"explode\" for manager-cluster/Secret/kueue-system/worker1-secret");
  // The address is the object's (base::ObjectRef), never a second opinion on it.
  json = reconcile::render_json(mixed_plan());
  json["clusters"][0]["changes"][0]["address"] = "manager-cluster/Secret/kube-system/worker1-secret";
  CHECK(refusal(json) == "address \"manager-cluster/Secret/kube-system/worker1-secret\" does not name its object "
                         "(manager-cluster/Secret/kueue-system/worker1-secret)");
  json = reconcile::render_json(mixed_plan());
  json["clusters"][0].erase("name");
  CHECK(refusal(json).rfind("the saved plan is malformed: ", 0) == 0);
}

TEST_CASE("stale_reasons: a saved plan is stale when the state or a live object moved", "[reconcile][plan][stale]") {
  World world;
  const auto desired = policy();
  world.apply(desired);
  reconcile::Plan saved = world.plan(policy("12"));
  saved.state_serial = 7;
  CHECK(reconcile::stale_reasons(saved, 7, kLineage, world.refresh(desired)).empty());

  CHECK(reconcile::stale_reasons(saved, 8, kLineage, world.refresh(desired)) ==
        std::vector<std::string>{"the state changed since the plan (serial 7 -> 8)"});
  CHECK(reconcile::stale_reasons(saved, 7, "another", world.refresh(desired)) ==
        std::vector<std::string>{"the plan was made for another state (lineage " + kLineage + ", now another)"});

  Json cq = *world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue");
  const std::string rv = cq["metadata"]["resourceVersion"];
  cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = "3";
  world.manager.put(cq, "kubectl");
  const std::string now = world.manager.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cluster-queue").value()["metadata"]["resourceVersion"];
  auto type = world.worker.resource_for("kueue.x-k8s.io/v1beta2", "LocalQueue").value();
  REQUIRE(world.worker.remove(type, "default", "user-queue", {}).ok());
  CHECK(reconcile::stale_reasons(saved, 7, kLineage, world.refresh(desired)) ==
        std::vector<std::string>{
            "manager/ClusterQueue/cluster-queue: changed on the cluster since the plan (resourceVersion " + rv + " -> " +
                now + ")",
            "worker1/LocalQueue/default/user-queue: deleted from the cluster since the plan"});

  World fresh;
  const reconcile::Plan creating = fresh.plan(desired);
  fresh.apply_one("worker1", desired.clusters[1].objects[0]);
  CHECK(reconcile::stale_reasons(creating, 0, kLineage, fresh.refresh(desired)) ==
        std::vector<std::string>{"worker1/ResourceFlavor/default-flavor: appeared on the cluster since the plan"});
  fresh.worker.set_unreachable(true);
  const auto reasons = reconcile::stale_reasons(creating, 0, kLineage, fresh.refresh(desired));
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0].rfind("cluster worker1: cannot be read now, so the plan cannot be checked: connection refused", 0) == 0);
}

TEST_CASE("a saved plan differs from the plan made again when a change was edited, added or dropped",
          "[reconcile][plan][saved]") {
  const auto one_cluster = [](std::vector<reconcile::Change> changes) {
    reconcile::Plan plan;
    reconcile::ClusterPlan cluster;
    cluster.cluster = "manager";
    cluster.changes = std::move(changes);
    plan.clusters.push_back(std::move(cluster));
    return plan;
  };
  const auto queue = [](const std::string& quota) {
    reconcile::Change change;
    change.ref.cluster = "manager";
    change.ref.kind = "ClusterQueue";
    change.ref.name = "cq";
    change.action = Action::Update;
    change.reason = reconcile::Reason::PolicyChanged;
    change.desired = Json{{"spec", {{"quota", quota}}}};
    return change;
  };
  const reconcile::Plan fresh = one_cluster({queue("9")});
  // Round-tripped through the saved file, it is the same plan.
  const auto saved = reconcile::plan_from_json(reconcile::render_json(fresh));
  REQUIRE(saved.ok());
  CHECK(reconcile::first_difference(*saved, fresh).empty());
  // Display text is not compared.
  reconcile::Change reworded = queue("9");
  reworded.reason = reconcile::Reason::Recorded;
  reworded.reason_args.text = "worded otherwise";
  CHECK(reconcile::first_difference(one_cluster({reworded}), fresh).empty());
  // An edited document, another action, an added and a dropped change are all differences.
  CHECK(reconcile::first_difference(one_cluster({queue("1000")}), fresh) ==
        "manager/ClusterQueue/cq: its desired differs from what the policy plans now");
  reconcile::Change deleted = queue("9");
  deleted.action = Action::Delete;
  CHECK(reconcile::first_difference(one_cluster({deleted}), fresh) ==
        "manager/ClusterQueue/cq: the plan says delete, the policy now plans update");
  reconcile::Change extra = queue("9");
  extra.ref.kind = "ClusterRoleBinding";
  extra.ref.name = "open-door";
  CHECK(reconcile::first_difference(one_cluster({queue("9"), extra}), fresh) ==
        "manager/ClusterRoleBinding/open-door: not part of what the policy plans now");
  CHECK(reconcile::first_difference(one_cluster({}), fresh) ==
        "manager/ClusterQueue/cq: planned now, missing from the saved plan");
}
