// Kueue's configuration (runtime/reconcile/kueue_config.h): the merge of the
// settings mkq manages into the cluster's configuration, the field-level
// diff, the plan of the ConfigMap and the restart that follows a change.
#include <catch2/catch.hpp>

#include "compiler/kueue/yaml_emit.h"
#include "plan_test_support.h"
#include "runtime/reconcile/kueue_config.h"

namespace {

using namespace plantest;
namespace detail = reconcile::detail;

// Kueue's default configuration, shortened (its comments kept).
const std::string kDefaultConfiguration = R"(apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
health:
  healthProbeBindAddress: :8081
metrics:
  bindAddress: :8443
# enableClusterQueueResources: true
webhook:
  port: 9443
leaderElection:
  leaderElect: true
  resourceName: c1f6bfd2.kueue.x-k8s.io
controller:
  groupKindConcurrency:
    Job.batch: 5
clientConnection:
  qps: 300
  burst: 500
integrations:
  frameworks:
  - "batch/job"
  - "pod"
  # - "kubeflow.org/paddlejob"
  - "deployment"
)";

Json parse(const std::string& text) {
  const auto parsed = detail::parse_configuration(text);
  REQUIRE(parsed);
  return parsed.value();
}

std::vector<std::string> keys_of(const Json& object) {
  std::vector<std::string> out;
  for (const auto& [key, value] : object.items()) out.push_back(key);
  return out;
}

// The ConfigMap lowering renders for `settings` (YAML as to_yaml writes it).
kueue::Object configuration_object(const Json& settings, bool restart = true) {
  Json config = {{"apiVersion", "config.kueue.x-k8s.io/v1beta2"}, {"kind", "Configuration"}};
  for (const auto& [key, value] : settings.items()) config[key] = value;
  kueue::Object o = make("v1", "ConfigMap", "kueue-manager-config", "kueue-system",
                         Json{{"data", {{"controller_manager_config.yaml", kueue::to_yaml(config)}}}});
  o.document["metadata"]["labels"]["app.kubernetes.io/name"] = "kueue";
  o.kueue_configuration = true;
  o.restart_kueue = restart;
  return o;
}

// Kueue's ConfigMap as its installation makes it (field manager kubectl).
Json installed_config_map(const std::string& text) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata",
               {{"name", "kueue-manager-config"},
                {"namespace", "kueue-system"},
                {"labels", {{"app.kubernetes.io/name", "kueue"}}}}},
              {"data", {{"controller_manager_config.yaml", text}}}};
}

kueue::DesiredState manager_only(const kueue::Object& object) {
  kueue::DesiredState d;
  d.clusters = {kueue::ClusterObjects{"manager", kueue::ClusterRole::Manager, {object}}};
  return d;
}

const std::string kAddress = "manager/ConfigMap/kueue-system/kueue-manager-config";
const std::string kData = R"(data["controller_manager_config.yaml"])";

std::vector<std::string> field_lines(const reconcile::Change& change) {
  std::vector<std::string> out;
  for (const reconcile::FieldDiff& field : change.fields) {
    out.push_back(field.path + ": " + (field.before ? field.before->dump() : "-") + " -> " +
                  (field.after ? field.after->dump() : "-"));
  }
  return out;
}

// The live text of the ConfigMap on the fake manager.
std::string live_text(World& world) {
  const auto object = world.manager.object("v1", "ConfigMap", "kueue-system", "kueue-manager-config");
  REQUIRE(object);
  return (*object)["data"]["controller_manager_config.yaml"].get<std::string>();
}

// Applies what the plan says of the ConfigMap, as the executor would, and records it.
void apply_planned(World& world, const reconcile::Plan& plan) {
  const reconcile::Change* change = change_of(plan, kAddress);
  REQUIRE(change != nullptr);
  kueue::Object applied = configuration_object(Json::object());
  applied.document = change->desired;
  world.apply_one("manager", applied);
}

TEST_CASE("the merge keeps every setting mkq does not manage, in its place", "[reconcile][kueue-config]") {
  const Json live = parse(kDefaultConfiguration);
  const Json managed = {{"apiVersion", "config.kueue.x-k8s.io/v1beta2"},
                        {"kind", "Configuration"},
                        {"namespace", "kueue-system"},
                        {"waitForPodsReady", {{"timeout", "10m0s"}}},
                        {"integrations", {{"frameworks", {"batch/job"}}}}};
  const Json merged = detail::merge_configuration(managed, live, &live);

  CHECK(keys_of(merged) == std::vector<std::string>{"apiVersion", "kind", "health", "metrics", "webhook",
                                                    "leaderElection", "controller", "clientConnection",
                                                    "integrations", "namespace", "waitForPodsReady"});
  for (const char* kept :
       {"health", "metrics", "webhook", "leaderElection", "controller", "clientConnection"}) {
    CHECK(merged[kept] == live[kept]);
  }
  CHECK(merged["health"]["healthProbeBindAddress"] == ":8081");
  CHECK(merged["webhook"]["port"] == 9443);
  CHECK(merged["leaderElection"]["leaderElect"] == true);
  CHECK(merged["integrations"]["frameworks"] == Json{"batch/job"});
  CHECK(merged["waitForPodsReady"] == Json{{"timeout", "10m0s"}});
}

TEST_CASE("a managed setting the policy stops declaring goes back to its value before mkq, or goes",
          "[reconcile][kueue-config]") {
  const Json before = parse(kDefaultConfiguration);
  Json live = before;
  live["integrations"]["frameworks"] = Json{"batch/job"};
  live["fairSharing"] = {{"preemptionStrategies", {"LessThanInitialShare"}}};
  live["multiKueue"] = {{"origin", "hub"}};
  live["featureGates"] = {{"MultiKueueClusterProfile", true}, {"TopologyAwareScheduling", false}};
  const Json managed = {{"apiVersion", "config.kueue.x-k8s.io/v1beta2"}, {"kind", "Configuration"}};

  SECTION("before known: the prior values come back, what mkq added goes (and maps it left empty)") {
    const Json merged = detail::merge_configuration(managed, live, &before);
    CHECK(merged["integrations"]["frameworks"] == before["integrations"]["frameworks"]);
    CHECK_FALSE(merged.contains("fairSharing"));
    CHECK_FALSE(merged.contains("multiKueue"));
    // Another feature gate, someone else's, stays.
    CHECK(merged["featureGates"] == Json{{"TopologyAwareScheduling", false}});
    CHECK(merged["clientConnection"] == before["clientConnection"]);
  }
  SECTION("before unknown: left as they are") {
    CHECK(detail::merge_configuration(managed, live, nullptr) == live);
  }
}

TEST_CASE("merged into nothing, the settings come out exactly as lowering rendered them",
          "[reconcile][kueue-config]") {
  // Every managed key, in lowering's order.
  const Json managed = Json::parse(R"({"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
    "namespace": "kueue", "manageJobsWithoutQueueName": true,
    "managedJobsNamespaceSelector": {"matchLabels": {"mkq.dev/managed": "true"}},
    "waitForPodsReady": {"timeout": "10m0s", "blockAdmission": true},
    "integrations": {"frameworks": ["batch/job"]},
    "fairSharing": {"preemptionStrategies": ["LessThanInitialShare"]},
    "multiKueue": {"gcInterval": "2m0s", "origin": "hub", "workerLostTimeout": "1h0m0s",
                   "dispatcherName": "kueue.x-k8s.io/multikueue-dispatcher-incremental",
                   "incrementalDispatcherConfig": {"stepSize": 5}, "externalFrameworks": [{"name": "Foo.v1.example.com"}],
                   "clusterProfile": {"accessProviders": [{"name": "p", "execConfig": {"command": "/p"}}]}},
    "featureGates": {"MultiKueueClusterProfile": true}})");
  const Json empty = Json::object();
  CHECK(kueue::to_yaml(detail::merge_configuration(managed, empty, &empty)) == kueue::to_yaml(managed));
  CHECK(parse(kueue::to_yaml(managed)) == managed);  // the reader reads the writer back
}

TEST_CASE("the configuration's diff: one line per changed setting, nothing for the rest",
          "[reconcile][kueue-config]") {
  const Json before = parse(kDefaultConfiguration);
  Json after = before;
  after["integrations"]["frameworks"] = Json{"batch/job"};
  after["controller"]["groupKindConcurrency"]["Job.batch"] = 7;
  after["waitForPodsReady"] = {{"timeout", "5m0s"}};
  after.erase("webhook");
  const auto fields = detail::configuration_diff(before, after, "data");
  std::vector<std::string> lines;
  for (const auto& field : fields) {
    lines.push_back(field.path + ": " + (field.before ? field.before->dump() : "-") + " -> " +
                    (field.after ? field.after->dump() : "-"));
  }
  CHECK(lines == std::vector<std::string>{
                     R"(data.controller.groupKindConcurrency["Job.batch"]: 5 -> 7)",
                     R"(data.integrations.frameworks: ["batch/job","pod","deployment"] -> ["batch/job"])",
                     R"(data.waitForPodsReady: - -> {"timeout":"5m0s"})",
                     R"(data.webhook: {"port":9443} -> -)"});
  CHECK(detail::configuration_diff(before, before, "data").empty());
}

TEST_CASE("plan: Kueue's configuration is merged into the cluster's and shown field by field",
          "[reconcile][kueue-config][plan]") {
  World world;
  world.manager.put(installed_config_map(kDefaultConfiguration), "kubectl");
  const Json settings = {{"namespace", "kueue-system"},
                         {"waitForPodsReady", {{"timeout", "10m0s"}}},
                         {"integrations", {{"frameworks", {"batch/job", "pod"}}}}};
  kueue::DesiredState desired = manager_only(configuration_object(settings));

  const reconcile::Plan first = world.plan(desired);
  const reconcile::Change* change = change_of(first, kAddress);
  REQUIRE(change != nullptr);
  CHECK(change->action == reconcile::Action::Update);
  CHECK(reconcile::reason_text(*change) == "exists, not yet managed by mkq");
  CHECK(field_lines(*change) ==
        std::vector<std::string>{
            R"(metadata.labels.app.kubernetes.io/managed-by: - -> "mkq")",
            R"(metadata.labels.mkq.dev/policy: - -> "test")",
            kData + R"(.integrations.frameworks: ["batch/job","pod","deployment"] -> ["batch/job","pod"])",
            kData + R"(.namespace: - -> "kueue-system")",
            kData + R"(.waitForPodsReady: - -> {"timeout":"10m0s"})"});
  REQUIRE(change->restart);
  CHECK(change->restart->namespace_name == "kueue-system");
  CHECK(change->restart->name == "kueue-controller-manager");
  CHECK(change->restart->enabled);
  CHECK(change->take_ownership);
  CHECK(change->error.empty());
  // What apply writes: every unmanaged setting kept.
  const Json written = parse(change->desired["data"]["controller_manager_config.yaml"].get<std::string>());
  const Json installed = parse(kDefaultConfiguration);
  for (const char* kept :
       {"health", "metrics", "webhook", "leaderElection", "controller", "clientConnection"}) {
    CHECK(written[kept] == installed[kept]);
  }

  apply_planned(world, first);
  const std::string applied_text = live_text(world);
  SECTION("a second plan changes nothing and restarts nothing") {
    const reconcile::Plan second = world.plan(desired);
    CHECK(change_of(second, kAddress)->action == reconcile::Action::NoOp);
    CHECK_FALSE(change_of(second, kAddress)->restart);
    CHECK_FALSE(second.has_changes());
  }
  SECTION("a change of one managed setting is one field line") {
    desired = manager_only(configuration_object({{"namespace", "kueue-system"},
                                                 {"waitForPodsReady", {{"timeout", "15m0s"}}},
                                                 {"integrations", {{"frameworks", {"batch/job", "pod"}}}}}));
    const reconcile::Plan second = world.plan(desired);
    const reconcile::Change* update = change_of(second, kAddress);
    CHECK(reconcile::reason_text(*update) == "the policy changed");
    CHECK(field_lines(*update) ==
          std::vector<std::string>{kData + R"(.waitForPodsReady.timeout: "10m0s" -> "15m0s")"});
    CHECK(update->restart);
  }
  SECTION("someone's change of a setting mkq does not manage is theirs: no change") {
    std::string edited = applied_text;
    const auto at = edited.find("qps: 300");
    REQUIRE(at != std::string::npos);
    edited.replace(at, 8, "qps: 100");
    Json config_map = *world.manager.object("v1", "ConfigMap", "kueue-system", "kueue-manager-config");
    config_map["data"]["controller_manager_config.yaml"] = edited;
    world.manager.put(config_map, "kubectl-edit");
    const reconcile::Plan second = world.plan(desired);
    CHECK(change_of(second, kAddress)->action == reconcile::Action::NoOp);
  }
  SECTION("the policy turns restarts off: the plan says Kueue is not restarted") {
    desired = manager_only(configuration_object(
        {{"namespace", "kueue-system"}, {"integrations", {{"frameworks", {"batch/job"}}}}}, false));
    const reconcile::Plan plan = world.plan(desired);
    const reconcile::Change* update = change_of(plan, kAddress);
    REQUIRE(update->restart);
    CHECK_FALSE(update->restart->enabled);
  }
}

TEST_CASE("plan: an unchanged configuration keeps its text, only labels do not restart Kueue",
          "[reconcile][kueue-config][plan]") {
  World world;
  const std::string text =
      "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n# Kueue's comment\nnamespace: "
      "kueue-system\n"
      "integrations:\n  frameworks:\n  - \"batch/job\"\n";
  world.manager.put(installed_config_map(text), "kubectl");
  const kueue::DesiredState desired = manager_only(configuration_object(
      {{"namespace", "kueue-system"}, {"integrations", {{"frameworks", {"batch/job"}}}}}));
  const reconcile::Plan plan = world.plan(desired);
  const reconcile::Change* change = change_of(plan, kAddress);
  CHECK(change->action == reconcile::Action::Update);  // mkq's labels
  CHECK(change->desired["data"]["controller_manager_config.yaml"] == text);
  CHECK_FALSE(change->restart);
  for (const auto& field : change->fields) CHECK(field.path.rfind("data", 0) != 0);
}

TEST_CASE("plan: without Kueue's ConfigMap, mkq's settings are created and Kueue restarted",
          "[reconcile][kueue-config][plan]") {
  World world;
  const kueue::Object object = configuration_object(
      {{"namespace", "kueue-system"}, {"integrations", {{"frameworks", {"batch/job"}}}}});
  const reconcile::Plan plan = world.plan(manager_only(object));
  const reconcile::Change* change = change_of(plan, kAddress);
  CHECK(change->action == reconcile::Action::Create);
  CHECK(change->desired["data"] == object.document["data"]);
  CHECK(change->restart);
}

TEST_CASE("plan: a configuration mkq cannot read is never overwritten", "[reconcile][kueue-config][plan]") {
  World world;
  const kueue::DesiredState desired =
      manager_only(configuration_object({{"integrations", {{"frameworks", {"batch/job"}}}}}));
  SECTION("not YAML") {
    world.manager.put(installed_config_map("health: [unclosed"), "kubectl");
    const reconcile::Plan plan = world.plan(desired);
    const reconcile::Change* change = change_of(plan, kAddress);
    CHECK(change->action == reconcile::Action::Update);
    CHECK(change->error.rfind("Kueue's configuration on the cluster cannot be merged into (not YAML: ", 0) ==
          0);
    CHECK(change->fields.empty());
    CHECK_FALSE(change->restart);
  }
  SECTION("another version of the Configuration") {
    world.manager.put(
        installed_config_map("apiVersion: config.kueue.x-k8s.io/v1beta1\nkind: Configuration\n"), "kubectl");
    const reconcile::Plan plan = world.plan(desired);
    const reconcile::Change* change = change_of(plan, kAddress);
    CHECK(change->error ==
          "Kueue's configuration on the cluster cannot be merged into (its apiVersion is "
          "\"config.kueue.x-k8s.io/v1beta1\", mkq writes \"config.kueue.x-k8s.io/v1beta2\"); mkq does not "
          "overwrite it");
  }
}

TEST_CASE("destroy: removing Kueue's configuration restarts Kueue, unless the policy says not to",
          "[reconcile][kueue-config][plan]") {
  World world;
  world.manager.put(installed_config_map(kDefaultConfiguration), "kubectl");
  kueue::DesiredState desired =
      manager_only(configuration_object({{"integrations", {{"frameworks", {"batch/job"}}}}}));
  desired.clusters[0].objects.push_back(flavor("default-flavor"));
  apply_planned(world, world.plan(desired));
  world.apply_one("manager", flavor("default-flavor"));

  reconcile::PlanOptions destroy;
  destroy.kind = reconcile::PlanKind::Destroy;
  SECTION("restart") {
    const reconcile::Plan plan = world.plan(desired, nullptr, destroy);
    const reconcile::Change* removal = change_of(plan, kAddress);
    REQUIRE(removal->action == reconcile::Action::Delete);
    REQUIRE(removal->restart);
    CHECK(removal->restart->enabled);
    CHECK_FALSE(change_of(plan, "manager/ResourceFlavor/default-flavor")->restart);
  }
  SECTION("kueue { restart = false }") {
    desired.clusters[0].objects[0].restart_kueue = false;
    const reconcile::Plan plan = world.plan(desired, nullptr, destroy);
    const reconcile::Change* removal = change_of(plan, kAddress);
    REQUIRE(removal->restart);
    CHECK_FALSE(removal->restart->enabled);
  }
}

TEST_CASE("render: the plan says Kueue will be restarted, and a saved plan keeps it",
          "[reconcile][kueue-config][render]") {
  World world;
  world.manager.put(installed_config_map(kDefaultConfiguration), "kubectl");
  const kueue::DesiredState desired =
      manager_only(configuration_object({{"integrations", {{"frameworks", {"batch/job"}}}}}));
  const reconcile::Plan plan = world.plan(desired);
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("      ~ " + kData +
                  R"(.integrations.frameworks: ["batch/job","pod","deployment"] -> ["batch/job"])"
                  "\n"
                  "      Kueue's controller manager will be restarted to read it "
                  "(Deployment kueue-system/kueue-controller-manager)\n") != std::string::npos);
  CHECK(text.find("controller_manager_config.yaml: \"") == std::string::npos);  // never the whole string
  CHECK(reconcile::render_markdown(plan).find(
            "`ConfigMap kueue-system/kueue-manager-config`: Kueue's controller manager will be restarted to read it "
            "(Deployment kueue-system/kueue-controller-manager)\n") != std::string::npos);

  const auto saved = reconcile::plan_from_json(reconcile::render_json(plan));
  REQUIRE(saved);
  const reconcile::Change* change = change_of(*saved, kAddress);
  REQUIRE(change->restart);
  CHECK(change->restart->name == "kueue-controller-manager");
  CHECK(change->take_ownership);
  CHECK(reconcile::render_text(*saved, false) == text);
}

}  // namespace
