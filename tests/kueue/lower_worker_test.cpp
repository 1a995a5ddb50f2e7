// Lowering for the workers: mirrored namespaces and LocalQueues, the worker's
// own ClusterQueue (override, capacity, or the manager's quotas), flavors and
// topologies used, and the MultiKueue ServiceAccount with least-privilege RBAC.
#include <catch2/catch.hpp>

#include "tests/kueue/kueue_test_support.h"

using kueuetest::ClusterObjects;
using kueuetest::Json;
using kueuetest::Object;
using kueuetest::Rendered;
using kueuetest::render_text;
using kueuetest::find_cluster;
using kueuetest::find_object;
using kueuetest::count_kind;

namespace {

constexpr const char* kPolicy = R"(
manager "hub" {}

worker "big" {
  capacity "gpu" { cpu = 64, "nvidia.com/gpu" = 8 }
}

worker "small" {
  override "train" {
    name = "train-small"
    quota "gpu" { cpu = 4, memory = 16Gi, "nvidia.com/gpu" = 1 }
  }
}

worker "spare" {
  credentials { service_account = "mk-spare" }
}

worker "profiled" {
  credentials { mode = "clusterprofile" }
}

topology "dc" { levels = ["kubernetes.io/hostname"] }
topology "unused" { levels = ["kubernetes.io/hostname"] }

flavor "gpu" {
  node_labels = { "gpu": "a100" }
  topology = "dc"
}
flavor "cpu" {}
flavor "other" {}

namespace "ml" { labels = { team: "ml" } }
namespace "other" {}

cohort "research" {}

clusterqueue "train" {
  namespaces = ["ml", "scratch"]
  cohort = "research"
  worker_name = "train-worker"
  group {
    quota "gpu" { cpu = 96, memory = 384Gi, "nvidia.com/gpu" = 16 }
    quota "cpu" { cpu = 10, memory = 10Gi, "nvidia.com/gpu" = 0 }
  }
  localqueue "default" in "ml" { default = true }
  localqueue "scratch" in "scratch" {}
}

clusterqueue "cpu-only" {
  quota "cpu" { cpu = 10 }
  localqueue "jobs" in "default" {}
}

clusterqueue "local" {
  quota "other" { cpu = 1 }
  localqueue "here" in "other" {}
}

kueue {
  integrations = ["batch/job", "jobset.x-k8s.io/jobset", "pod"]
  multikueue { access_provider "google" { command = "/plugins/gke-gcloud-auth-plugin" } }
}

dispatch "d" {
  queues = ["train", "cpu-only"]
  workers = ["big", "small", "profiled"]
}
)";

const Rendered& rendered() {
  static const std::unique_ptr<Rendered> r = render_text(kPolicy, "workers");
  return *r;
}

const ClusterObjects& worker(const std::string& name) {
  const Rendered& r = rendered();
  INFO(r.messages());
  REQUIRE(r.state.has_value());
  const ClusterObjects* cluster = find_cluster(*r.state, name);
  REQUIRE(cluster != nullptr);
  return *cluster;
}

const Json& spec_of(const ClusterObjects& cluster, const std::string& kind, const std::string& name,
                    const std::string& ns = "") {
  const Object* object = find_object(cluster, kind, name, ns);
  INFO(kind << " " << name);
  REQUIRE(object != nullptr);
  return object->document.at("spec");
}

}  // namespace

TEST_CASE("lower worker: capacity replaces the quotas of the flavors the worker has", "[kueue][lower][worker]") {
  const ClusterObjects& big = worker("big");
  const Json& train = spec_of(big, "ClusterQueue", "train-worker");
  // Only the gpu flavor (the worker has no capacity for cpu); memory it does not list is 0.
  CHECK(train.at("resourceGroups").dump() ==
        R"([{"coveredResources":["cpu","memory","nvidia.com/gpu"],"flavors":[{"name":"gpu","resources":[{"name":"cpu","nominalQuota":64},{"name":"memory","nominalQuota":0},{"name":"nvidia.com/gpu","nominalQuota":8}]}]}])");
  // The manager's scheduling fields carry over; never an admission check.
  CHECK(train.at("cohortName") == "research");
  CHECK(train.at("namespaceSelector").dump() ==
        R"({"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"In","values":["ml","scratch"]}]})");
  CHECK_FALSE(train.contains("admissionChecksStrategy"));
  // No capacity for cpu-only's flavor: the manager's quotas.
  CHECK(spec_of(big, "ClusterQueue", "cpu-only").at("resourceGroups").dump() ==
        R"([{"coveredResources":["cpu"],"flavors":[{"name":"cpu","resources":[{"name":"cpu","nominalQuota":10}]}]}])");
}

TEST_CASE("lower worker: an override names the queue and gives its quotas", "[kueue][lower][worker]") {
  const ClusterObjects& small = worker("small");
  CHECK(find_object(small, "ClusterQueue", "train-worker") == nullptr);
  const Json& train = spec_of(small, "ClusterQueue", "train-small");
  CHECK(train.at("resourceGroups").at(0).at("flavors").dump() ==
        R"([{"name":"gpu","resources":[{"name":"cpu","nominalQuota":4},{"name":"memory","nominalQuota":"16Gi"},{"name":"nvidia.com/gpu","nominalQuota":1}]}])");
  // The mirrored LocalQueues point at the worker's own queue.
  CHECK(spec_of(small, "LocalQueue", "default", "ml").at("clusterQueue") == "train-small");
  CHECK(spec_of(small, "LocalQueue", "scratch", "scratch").at("clusterQueue") == "train-small");
  CHECK(spec_of(small, "LocalQueue", "jobs", "default").at("clusterQueue") == "cpu-only");
  const Object* lq = find_object(small, "LocalQueue", "default", "ml");
  CHECK(lq->depends_on == std::vector<std::string>{"small/ClusterQueue/train-small", "small/Namespace/ml"});
}

TEST_CASE("lower worker: only the namespaces, flavors and topologies used", "[kueue][lower][worker]") {
  const ClusterObjects& big = worker("big");
  CHECK(find_object(big, "Namespace", "ml") != nullptr);  // declared and served
  CHECK(find_object(big, "Namespace", "other") == nullptr);  // declared, its queue is not dispatched
  CHECK(find_object(big, "Namespace", "scratch") == nullptr);  // not declared: assumed to exist
  CHECK(find_object(big, "ResourceFlavor", "gpu") != nullptr);
  CHECK(find_object(big, "ResourceFlavor", "cpu") != nullptr);  // cpu-only keeps the manager's quotas
  CHECK(find_object(big, "ResourceFlavor", "other") == nullptr);
  CHECK(find_object(big, "Topology", "dc") != nullptr);
  CHECK(find_object(big, "Topology", "unused") == nullptr);
  CHECK(find_object(big, "ClusterQueue", "local") == nullptr);
  CHECK(find_object(big, "LocalQueue", "here", "other") == nullptr);
  // The cohort of a served queue, as on the manager (lower_worker_share_test.cpp has more).
  CHECK(find_object(big, "Cohort", "research") != nullptr);
  // Manager-only kinds never reach a worker.
  for (const char* kind : {"AdmissionCheck", "MultiKueueConfig", "MultiKueueCluster", "Secret", "ConfigMap",
                           "RoleBinding"}) {
    CHECK(count_kind(big, kind) == 0);
  }
}

TEST_CASE("lower worker: the MultiKueue ServiceAccount, its ClusterRole and binding", "[kueue][lower][worker]") {
  const ClusterObjects& big = worker("big");
  REQUIRE(find_object(big, "ServiceAccount", "multikueue-sa", "kueue-system") != nullptr);
  const Object* role = find_object(big, "ClusterRole", "multikueue-sa-role");
  REQUIRE(role != nullptr);
  const Json expected_rules = Json::parse(R"([
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads/status"], "verbs": ["get", "patch", "update"]},
    {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": ["create", "delete", "get", "list", "watch"]},
    {"apiGroups": ["batch"], "resources": ["jobs/status"], "verbs": ["get"]},
    {"apiGroups": ["jobset.x-k8s.io"], "resources": ["jobsets"], "verbs": ["create", "delete", "get", "list", "watch"]},
    {"apiGroups": ["jobset.x-k8s.io"], "resources": ["jobsets/status"], "verbs": ["get"]},
    {"apiGroups": [""], "resources": ["pods"], "verbs": ["create", "delete", "get", "list", "watch"]}
  ])");
  // Each enabled integration's resources are there (the catalogue may list more, e.g. pods/status).
  for (const Json& rule : expected_rules) {
    INFO(rule.dump());
    CHECK(std::find(role->document.at("rules").begin(), role->document.at("rules").end(), rule) !=
          role->document.at("rules").end());
  }
  // Least privilege: nothing of frameworks that are not enabled.
  for (const Json& rule : role->document.at("rules")) {
    const std::string group = rule.at("apiGroups").at(0);
    CHECK((group == "kueue.x-k8s.io" || group == "batch" || group == "jobset.x-k8s.io" || group.empty()));
  }
  const Object* binding = find_object(big, "ClusterRoleBinding", "multikueue-sa-crb");
  REQUIRE(binding != nullptr);
  CHECK(binding->document.at("roleRef").dump() ==
        R"({"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"multikueue-sa-role"})");
  CHECK(binding->document.at("subjects").dump() ==
        R"([{"kind":"ServiceAccount","name":"multikueue-sa","namespace":"kueue-system"}])");
  CHECK(binding->depends_on == std::vector<std::string>{"big/ClusterRole/multikueue-sa-role",
                                                        "big/ServiceAccount/kueue-system/multikueue-sa"});
}

TEST_CASE("lower worker: a worker that serves nothing still gets its credentials objects", "[kueue][lower][worker]") {
  const ClusterObjects& spare = worker("spare");
  CHECK(spare.objects.size() == 3);
  CHECK(find_object(spare, "ServiceAccount", "mk-spare", "kueue-system") != nullptr);
  CHECK(find_object(spare, "ClusterRole", "mk-spare-role") != nullptr);
  CHECK(find_object(spare, "ClusterRoleBinding", "mk-spare-crb") != nullptr);
}

TEST_CASE("lower worker: ClusterProfile and kubeconfig modes create no ServiceAccount", "[kueue][lower][worker]") {
  const ClusterObjects& profiled = worker("profiled");
  CHECK(count_kind(profiled, "ServiceAccount") == 0);
  CHECK(count_kind(profiled, "ClusterRole") == 0);
  CHECK(count_kind(profiled, "ClusterRoleBinding") == 0);
  CHECK(find_object(profiled, "ClusterQueue", "train-worker") != nullptr);
  const Rendered& r = rendered();
  CHECK(find_object(r.state->clusters.at(0), "MultiKueueCluster", "profiled")
            ->document.at("spec")
            .dump() == R"({"clusterSource":{"clusterProfileRef":{"name":"profiled"}}})");
}
