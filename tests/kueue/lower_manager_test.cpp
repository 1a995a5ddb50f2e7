// Lowering for the manager: every kind, the field each comes from, labels,
// origins, dependencies, and the credential placeholder.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "compiler/kueue/schema.h"
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

constexpr const char* kFleet = R"(
manager "hub" {}

worker "east" {
  labels = { region: "east" }
  priority = 10
  capacity "gpu" { cpu = 64, memory = 384Gi, "nvidia.com/gpu" = 16 }
}

worker "west" {
  secret = "west-secret"
  capacity "gpu" { cpu = 32 }
  credentials { mode = "clusterprofile", cluster_profile = "west-profile" }
}

worker "north" {
  credentials { mode = "kubeconfig", kubeconfig = secret("env:NORTH_KUBECONFIG") }
}

kueue { multikueue { access_provider "google" { command = "/plugins/gke-gcloud-auth-plugin" } } }

topology "dc" { levels = ["topology.kubernetes.io/zone", "kubernetes.io/hostname"] }

flavor "gpu" {
  node_labels = { "gpu": "a100" }
  taints = [{ key: "dedicated", value: "ml", effect: "NoSchedule" }]
  tolerations = [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }]
  topology = "dc"
}

flavor "cpu" {}

cohort "org" { fair_sharing { weight = 2 } }

cohort "research" {
  parent = "org"
  quota "cpu" { cpu = { nominal: 50, lending_limit: 20 } }
}

namespace "ml" { labels = { team: "ml" } }

priorityclass "high" { value = 1000, description = "urgent" }

clusterqueue "train" {
  namespaces = ["ml", "ml-dev"]
  cohort = "research"
  quota "gpu" { cpu = 96, memory = 384Gi, "nvidia.com/gpu" = { nominal: 16, borrowing_limit: 4 } }
  preemption { reclaim_within_cohort = "Any", within_cluster_queue = "LowerPriority" }
  fair_sharing { weight = 1.5 }
  flavor_fungibility { when_can_borrow = "TryNextFlavor" }
  queueing_strategy = "StrictFIFO"
  stop_policy = "Hold"
  localqueue "default" in "ml" { default = true }
}

clusterqueue "batch" {
  namespaces = { tier: "batch" }
  quota "cpu" { cpu = 10 }
  localqueue "jobs" in "batch" { stop_policy = "HoldAndDrain", fair_sharing { weight = 3 } }
}

clusterqueue "local" {
  quota "cpu" { cpu = 1 }
}

dispatch "to-gpus" {
  config = "gpus"
  queues = ["train"]
  workers = ["west", "east"]
}

dispatch "to-north" {
  queues = ["batch"]
  workers = ["north"]
}

access "ml-users" in "ml" { role = "batch-user", users = ["alice"], groups = ["ml-team"] }
access "admins" { role = "batch-admin", groups = ["platform"] }
)";

const Rendered& fleet() {
  static const std::unique_ptr<Rendered> rendered = render_text(kFleet, "fleet");
  return *rendered;
}

const ClusterObjects& fleet_manager() {
  const Rendered& r = fleet();
  INFO(r.messages());
  REQUIRE(r.state.has_value());
  const ClusterObjects* manager = find_cluster(*r.state, "hub");
  REQUIRE(manager != nullptr);
  return *manager;
}

const Json& spec_of(const ClusterObjects& cluster, const std::string& kind, const std::string& name,
                    const std::string& ns = "") {
  const Object* object = find_object(cluster, kind, name, ns);
  INFO(kind << " " << name);
  REQUIRE(object != nullptr);
  return object->document.at("spec");
}

}  // namespace

TEST_CASE("lower: the manager comes first, then the workers by name", "[kueue][lower]") {
  const Rendered& r = fleet();
  INFO(r.messages());
  REQUIRE(r.state.has_value());
  REQUIRE(r.state->clusters.size() == 4);
  CHECK(r.state->clusters[0].cluster == "hub");
  CHECK(r.state->clusters[0].role == mkq::kueue::ClusterRole::Manager);
  CHECK(r.state->clusters[1].cluster == "east");
  CHECK(r.state->clusters[2].cluster == "north");
  CHECK(r.state->clusters[3].cluster == "west");
  CHECK(r.state->clusters[3].role == mkq::kueue::ClusterRole::Worker);
}

TEST_CASE("lower: every object has mkq's labels, an origin and a complete header", "[kueue][lower]") {
  const Rendered& r = fleet();
  REQUIRE(r.state.has_value());
  for (const ClusterObjects& cluster : r.state->clusters) {
    for (const Object& object : cluster.objects) {
      INFO(mkq::kueue::address(cluster.cluster, object));
      const Json& doc = object.document;
      CHECK(doc.at("apiVersion") == object.api_version);
      CHECK(doc.at("kind") == object.kind);
      CHECK(doc.at("metadata").at("name") == object.name);
      CHECK(doc.at("metadata").at("labels").at("app.kubernetes.io/managed-by") == "mkq");
      CHECK(doc.at("metadata").at("labels").at("mkq.dev/policy") == "fleet");
      const auto* kind = mkq::kueue::schema::find_kind(object.kind);
      REQUIRE(kind != nullptr);
      CHECK(kind->api_version == object.api_version);
      CHECK(doc.at("metadata").contains("namespace") == kind->namespaced);
      CHECK(object.origin.valid());
      // The first keys are always apiVersion, kind, metadata.
      auto it = doc.begin();
      CHECK(it.key() == "apiVersion");
      CHECK((++it).key() == "kind");
      CHECK((++it).key() == "metadata");
    }
  }
}

TEST_CASE("lower: objects are in apply order and depend only on objects of their cluster", "[kueue][lower]") {
  const Rendered& r = fleet();
  REQUIRE(r.state.has_value());
  for (const ClusterObjects& cluster : r.state->clusters) {
    std::set<std::string> seen;
    int last_rank = -1;
    for (const Object& object : cluster.objects) {
      const int rank = mkq::kueue::schema::apply_rank(object.kind);
      CHECK(rank >= last_rank);
      last_rank = rank;
      for (const std::string& dep : object.depends_on) {
        INFO(mkq::kueue::address(cluster.cluster, object) << " -> " << dep);
        CHECK(seen.contains(dep));  // what it depends on comes earlier
      }
      seen.insert(mkq::kueue::address(cluster.cluster, object));
    }
  }
}

TEST_CASE("lower: manager ClusterQueue fields", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  const Json& train = spec_of(manager, "ClusterQueue", "train");
  const Json expected = Json::parse(R"({
    "namespaceSelector": {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["ml", "ml-dev"]}]},
    "resourceGroups": [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"], "flavors": [{"name": "gpu", "resources": [
      {"name": "cpu", "nominalQuota": 96},
      {"name": "memory", "nominalQuota": "384Gi"},
      {"name": "nvidia.com/gpu", "nominalQuota": 16, "borrowingLimit": 4}]}]}],
    "cohortName": "research",
    "preemption": {"withinClusterQueue": "LowerPriority", "reclaimWithinCohort": "Any"},
    "fairSharing": {"weight": "1500m"},
    "flavorFungibility": {"whenCanBorrow": "TryNextFlavor"},
    "queueingStrategy": "StrictFIFO",
    "stopPolicy": "Hold",
    "admissionChecksStrategy": {"admissionChecks": [{"name": "to-gpus"}]}
  })");
  CHECK(train.dump() == Json(expected).dump());

  CHECK(spec_of(manager, "ClusterQueue", "batch").at("namespaceSelector").dump() ==
        R"({"matchLabels":{"tier":"batch"}})");
  const Json& local = spec_of(manager, "ClusterQueue", "local");
  CHECK(local.at("namespaceSelector").dump() == "{}");
  CHECK_FALSE(local.contains("admissionChecksStrategy"));  // not dispatched: runs on the manager
}

TEST_CASE("lower: LocalQueues, Namespaces, flavors, topologies, cohorts, priority classes", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  CHECK(spec_of(manager, "LocalQueue", "default", "ml").dump() == R"({"clusterQueue":"train"})");
  CHECK(spec_of(manager, "LocalQueue", "jobs", "batch").dump() ==
        R"({"clusterQueue":"batch","stopPolicy":"HoldAndDrain","fairSharing":{"weight":3}})");

  // Only declared namespaces are rendered; "batch" is assumed to exist.
  const Object* ml = find_object(manager, "Namespace", "ml");
  REQUIRE(ml != nullptr);
  CHECK(ml->document.at("metadata").at("labels").at("team") == "ml");
  CHECK(find_object(manager, "Namespace", "batch") == nullptr);

  CHECK(spec_of(manager, "ResourceFlavor", "gpu").dump() ==
        Json::parse(R"({"nodeLabels": {"gpu": "a100"},
          "nodeTaints": [{"key": "dedicated", "value": "ml", "effect": "NoSchedule"}],
          "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
          "topologyName": "dc"})").dump());
  const Object* cpu = find_object(manager, "ResourceFlavor", "cpu");
  REQUIRE(cpu != nullptr);
  CHECK_FALSE(cpu->document.contains("spec"));  // an empty flavor has no spec, as in Kueue's examples

  CHECK(spec_of(manager, "Topology", "dc").dump() ==
        R"({"levels":[{"nodeLabel":"topology.kubernetes.io/zone"},{"nodeLabel":"kubernetes.io/hostname"}]})");
  CHECK(spec_of(manager, "Cohort", "org").dump() == R"({"fairSharing":{"weight":2}})");
  CHECK(spec_of(manager, "Cohort", "research").dump() ==
        R"({"parentName":"org","resourceGroups":[{"coveredResources":["cpu"],"flavors":[{"name":"cpu","resources":[{"name":"cpu","nominalQuota":50,"lendingLimit":20}]}]}]})");

  const Object* high = find_object(manager, "WorkloadPriorityClass", "high");
  REQUIRE(high != nullptr);
  CHECK(high->document.at("value") == 1000);
  CHECK(high->document.at("description") == "urgent");
  CHECK_FALSE(high->document.contains("spec"));
}

TEST_CASE("lower: MultiKueue wiring on the manager", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  CHECK(spec_of(manager, "AdmissionCheck", "to-gpus").dump() ==
        R"({"controllerName":"kueue.x-k8s.io/multikueue","parameters":{"apiGroup":"kueue.x-k8s.io","kind":"MultiKueueConfig","name":"gpus"}})");
  // The dispatch's order, not the names' order.
  CHECK(spec_of(manager, "MultiKueueConfig", "gpus").dump() == R"({"clusters":["west","east"]})");
  CHECK(spec_of(manager, "MultiKueueConfig", "to-north").dump() == R"({"clusters":["north"]})");

  CHECK(spec_of(manager, "MultiKueueCluster", "east").dump() ==
        R"({"clusterSource":{"kubeConfig":{"locationType":"Secret","location":"east-kubeconfig"}}})");
  CHECK(spec_of(manager, "MultiKueueCluster", "west").dump() ==
        R"({"clusterSource":{"clusterProfileRef":{"name":"west-profile"}}})");
  CHECK(spec_of(manager, "MultiKueueCluster", "north").dump() ==
        R"({"clusterSource":{"kubeConfig":{"locationType":"Secret","location":"north-kubeconfig"}}})");
  const Object* mkc = find_object(manager, "MultiKueueCluster", "east");
  REQUIRE(mkc != nullptr);
  CHECK(mkc->depends_on == std::vector<std::string>{"hub/Secret/kueue-system/east-kubeconfig"});
  const Object* check = find_object(manager, "AdmissionCheck", "to-gpus");
  REQUIRE(check != nullptr);
  CHECK(check->depends_on == std::vector<std::string>{"hub/MultiKueueConfig/gpus"});
  const Object* train = find_object(manager, "ClusterQueue", "train");
  REQUIRE(train != nullptr);
  CHECK(train->depends_on == std::vector<std::string>{"hub/AdmissionCheck/to-gpus", "hub/Cohort/research",
                                                      "hub/ResourceFlavor/gpu"});
}

TEST_CASE("lower: kubeconfig Secrets hold a marked placeholder, never a credential", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  CHECK(count_kind(manager, "Secret") == 2);  // east and north; west uses a ClusterProfile
  CHECK(find_object(manager, "Secret", "west-secret", "kueue-system") == nullptr);
  for (const char* name : {"east-kubeconfig", "north-kubeconfig"}) {
    const Object* secret = find_object(manager, "Secret", name, "kueue-system");
    REQUIRE(secret != nullptr);
    CHECK(secret->holds_credential_placeholder);
    CHECK(secret->document.at("metadata").at("annotations").at("mkq.dev/credential") == "placeholder");
    CHECK(secret->document.at("type") == "Opaque");
    const std::string value = secret->document.at("stringData").at("kubeconfig");
    CHECK(value.starts_with("placeholder"));
    CHECK(value.find("NORTH_KUBECONFIG") == std::string::npos);  // not even the secret's source
    CHECK_FALSE(secret->document.contains("data"));
  }
  for (const Object& object : manager.objects) {
    if (object.kind != "Secret") CHECK_FALSE(object.holds_credential_placeholder);
  }
}

TEST_CASE("lower: access becomes RoleBindings and ClusterRoleBindings to Kueue's batch roles", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  const Object* users = find_object(manager, "RoleBinding", "ml-users", "ml");
  REQUIRE(users != nullptr);
  CHECK(users->document.at("roleRef").dump() ==
        R"({"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"kueue-batch-user-role"})");
  CHECK(users->document.at("subjects").dump() ==
        R"([{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"alice"},{"kind":"Group","apiGroup":"rbac.authorization.k8s.io","name":"ml-team"}])");
  CHECK(users->depends_on == std::vector<std::string>{"hub/Namespace/ml"});
  const Object* admins = find_object(manager, "ClusterRoleBinding", "admins");
  REQUIRE(admins != nullptr);
  CHECK(admins->document.at("roleRef").at("name") == "kueue-batch-admin-role");
}

TEST_CASE("lower: no kueue block and default dispatch settings render no ConfigMap", "[kueue][lower]") {
  const auto r = render_text(R"(
manager "m" {}
worker "w" { credentials { mode = "kubeconfig", kubeconfig = secret("env:W") } }
clusterqueue "q" {}
dispatch "d" { queues = ["q"], workers = ["w"] }
)");
  INFO(r->messages());
  REQUIRE(r->state.has_value());
  CHECK(count_kind(r->state->clusters.at(0), "ConfigMap") == 0);
}

TEST_CASE("lower: a ClusterProfile worker renders the access providers and the feature gate", "[kueue][lower]") {
  const ClusterObjects& manager = fleet_manager();
  const Object* map = find_object(manager, "ConfigMap", "kueue-manager-config", "kueue-system");
  REQUIRE(map != nullptr);
  const std::string config = map->document.at("data").at("controller_manager_config.yaml");
  CHECK(config == R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue-system
integrations:
  frameworks:
  - batch/job
multiKueue:
  clusterProfile:
    accessProviders:
    - name: google
      execConfig:
        apiVersion: client.authentication.k8s.io/v1
        command: /plugins/gke-gcloud-auth-plugin
        interactiveMode: Never
featureGates:
  MultiKueueClusterProfile: true
)");
}

TEST_CASE("lower: every exec field of an access provider, in written order", "[kueue][lower]") {
  const auto r = render_text(R"(
manager "m" {}
worker "w" {}
kueue {
  multikueue {
    access_provider "z-first" {
      command = "/plugins/a"
      args = ["--x", "y"]
      env = { B: "2", A: "1" }
      api_version = "client.authentication.k8s.io/v1beta1"
      provide_cluster_info = false
    }
    access_provider "a-second" { command = "/plugins/b" }
  }
}
)");
  INFO(r->messages());
  REQUIRE(r->state.has_value());
  const Object* map = find_object(r->state->clusters.at(0), "ConfigMap", "kueue-manager-config", "kueue-system");
  REQUIRE(map != nullptr);
  const std::string config = map->document.at("data").at("controller_manager_config.yaml");
  CHECK(config.find(R"(multiKueue:
  clusterProfile:
    accessProviders:
    - name: z-first
      execConfig:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: /plugins/a
        args:
        - "--x"
        - "y"
        env:
        - name: A
          value: "1"
        - name: B
          value: "2"
        interactiveMode: Never
        provideClusterInfo: false
    - name: a-second
)") != std::string::npos);
  // No worker uses a ClusterProfile: no feature gate, and W4023.
  CHECK(config.find("featureGates") == std::string::npos);
  REQUIRE(r->diagnostics.items().size() == 1);
  CHECK(r->diagnostics.items()[0].code == "W4023");
}

TEST_CASE("lower: the kueue block renders Kueue's Configuration in kueue-manager-config", "[kueue][lower]") {
  const auto r = render_text(R"(
manager "m" {}
worker "w" {}
kueue {
  namespace = "kueue"
  integrations = ["batch/job", "jobset.x-k8s.io/jobset"]
  manage_jobs_without_queue_name = true
  managed_namespaces = { "mkq.dev/managed": "true" }
  external_frameworks = ["TrainingRun.v1alpha1.example.com"]
  gang_scheduling { timeout = 5min, recovery_timeout = 3min, block_admission = true }
  fair_sharing { preemption_strategies = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"] }
  multikueue { gc_interval = 1min, worker_lost_timeout = 15min, origin = "hub", dispatcher = "incremental", step = 2 }
}
integration "TrainingRun.v1alpha1.example.com" {
  rules = [{ group: "example.com", resources: ["trainingruns", "trainingruns/status"] }]
}
)");
  INFO(r->messages());
  REQUIRE(r->state.has_value());
  const ClusterObjects& manager = r->state->clusters.at(0);
  const Object* map = find_object(manager, "ConfigMap", "kueue-manager-config", "kueue");
  REQUIRE(map != nullptr);
  CHECK(map->document.at("metadata").at("labels").at("app.kubernetes.io/name") == "kueue");
  CHECK(map->document.at("metadata").at("labels").at("control-plane") == "controller-manager");
  const std::string config = map->document.at("data").at("controller_manager_config.yaml");
  CHECK(config == R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
namespace: kueue
manageJobsWithoutQueueName: true
managedJobsNamespaceSelector:
  matchLabels:
    mkq.dev/managed: "true"
waitForPodsReady:
  timeout: 5m0s
  blockAdmission: true
  recoveryTimeout: 3m0s
integrations:
  frameworks:
  - batch/job
  - jobset.x-k8s.io/jobset
fairSharing:
  preemptionStrategies:
  - LessThanOrEqualToFinalShare
  - LessThanInitialShare
multiKueue:
  gcInterval: 1m0s
  origin: hub
  workerLostTimeout: 15m0s
  dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental
  incrementalDispatcherConfig:
    stepSize: 2
  externalFrameworks:
  - name: TrainingRun.v1alpha1.example.com
)");
  // The worker's kubeconfig Secret and ServiceAccount follow Kueue's namespace.
  CHECK(find_object(manager, "Secret", "w-kubeconfig", "kueue") != nullptr);
  const ClusterObjects& worker = *find_cluster(*r->state, "w");
  CHECK(find_object(worker, "ServiceAccount", "multikueue-sa", "kueue") != nullptr);
  // An external framework's catalogue entry reaches the worker's ClusterRole.
  const Json& rules = find_object(worker, "ClusterRole", "multikueue-sa-role")->document.at("rules");
  CHECK(std::find(rules.begin(), rules.end(), Json::parse(R"({"apiGroups":["example.com"],"resources":["trainingruns"],"verbs":["create","delete","get","list","watch"]})")) != rules.end());
  CHECK(std::find(rules.begin(), rules.end(), Json::parse(R"({"apiGroups":["example.com"],"resources":["trainingruns/status"],"verbs":["get"]})")) != rules.end());
}

TEST_CASE("lower: Kueue's configuration is marked, holds only managed settings, and carries the restart switch",
          "[kueue][lower]") {
  const std::string policy = R"(
manager "m" {}
worker "w" { credentials { mode = "clusterprofile" } }
kueue {
  integrations = ["batch/job"]
  manage_jobs_without_queue_name = true
  managed_namespaces = { "mkq.dev/managed": "true" }
  external_frameworks = ["TrainingRun.v1alpha1.example.com"]
  gang_scheduling { timeout = 5min, recovery_timeout = 3min, block_admission = true }
  fair_sharing { preemption_strategies = ["LessThanInitialShare"] }
  multikueue {
    gc_interval = 1min
    worker_lost_timeout = 15min
    origin = "hub"
    dispatcher = "incremental"
    step = 2
    access_provider "p" { command = "/plugins/p" }
  }
  RESTART
}
integration "TrainingRun.v1alpha1.example.com" {
  rules = [{ group: "example.com", resources: ["trainingruns", "trainingruns/status"] }]
}
)";
  const auto with = [&](const std::string& restart) {
    std::string text = policy;
    text.replace(text.find("RESTART"), 7, restart);
    return render_text(text);
  };
  const auto r = with("");
  INFO(r->messages());
  REQUIRE(r->state.has_value());
  for (const Object& object : r->state->clusters.at(0).objects) {
    CHECK(object.kueue_configuration == (object.kind == "ConfigMap" && object.name == "kueue-manager-config"));
  }
  const Object* map = find_object(r->state->clusters.at(0), "ConfigMap", "kueue-manager-config", "kueue-system");
  REQUIRE(map != nullptr);
  CHECK(map->restart_kueue);
  // Every setting rendered is one mkq manages (apply merges exactly those).
  const auto& managed = mkq::kueue::schema::kManagedConfigurationPaths;
  const auto is_managed = [&](const std::string& path) {
    return std::find(managed.begin(), managed.end(), path) != managed.end();
  };
  const YAML::Node config = YAML::Load(map->document.at("data").at("controller_manager_config.yaml").get<std::string>());
  std::set<std::string> rendered;
  for (const auto& entry : config) {
    const std::string key = entry.first.as<std::string>();
    if (key == "apiVersion" || key == "kind" || is_managed(key)) {
      rendered.insert(key);
      continue;
    }
    for (const auto& child : entry.second) {
      const std::string path = key + "." + child.first.as<std::string>();
      CHECK(is_managed(path));
      rendered.insert(path);
    }
  }
  CHECK(rendered.size() == managed.size() + 2);  // this policy renders every managed setting

  const auto off = with("restart = false");
  INFO(off->messages());
  REQUIRE(off->state.has_value());
  CHECK_FALSE(find_object(off->state->clusters.at(0), "ConfigMap", "kueue-manager-config", "kueue-system")->restart_kueue);
}

TEST_CASE("lower: a dispatch's Kueue-wide mode alone renders the ConfigMap", "[kueue][lower]") {
  const auto r = render_text(R"(
manager "m" {}
worker "w" {}
clusterqueue "q" {}
dispatch "d" { queues = ["q"], workers = ["w"], mode = "incremental" }
)");
  INFO(r->messages());
  REQUIRE(r->state.has_value());
  const Object* map = find_object(r->state->clusters.at(0), "ConfigMap", "kueue-manager-config", "kueue-system");
  REQUIRE(map != nullptr);
  const std::string config = map->document.at("data").at("controller_manager_config.yaml");
  CHECK(config.find("dispatcherName: kueue.x-k8s.io/multikueue-dispatcher-incremental\n") != std::string::npos);
  CHECK(config.find("stepSize: 3\n") != std::string::npos);
  CHECK(config.find("  - batch/job\n") != std::string::npos);
}

TEST_CASE("lower: a policy with errors gives no state", "[kueue][lower]") {
  const auto r = render_text(R"(
manager "m" {}
clusterqueue "q" { quota "missing" { cpu = 1 } }
)");
  CHECK_FALSE(r->state.has_value());
  CHECK(r->diagnostics.has_errors());
}
