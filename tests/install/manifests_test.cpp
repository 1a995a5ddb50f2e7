// runtime/install: the controller's install objects, from plain options.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/kueue/yaml_emit.h"
#include "runtime/install/manifests.h"

namespace {

using mkq::install::Json;
using mkq::install::ManifestOptions;
using mkq::install::Manifests;

mkq::kueue::Object manager_object(const std::string& api_version, const std::string& kind, const std::string& name,
                                  const std::string& namespace_name) {
  mkq::kueue::Object object;
  object.api_version = api_version;
  object.kind = kind;
  object.name = name;
  object.namespace_name = namespace_name;
  object.document = Json::object({{"apiVersion", api_version}, {"kind", kind}, {"metadata", {{"name", name}}}});
  return object;
}

mkq::kueue::ClusterObjects tutorial_manager() {
  mkq::kueue::ClusterObjects manager;
  manager.cluster = "manager";
  manager.role = mkq::kueue::ClusterRole::Manager;
  manager.objects.push_back(manager_object("v1", "Secret", "worker1-secret", "kueue-system"));
  manager.objects.push_back(manager_object("kueue.x-k8s.io/v1beta2", "ResourceFlavor", "default-flavor", ""));
  manager.objects.push_back(manager_object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "cluster-queue", ""));
  manager.objects.push_back(manager_object("kueue.x-k8s.io/v1beta2", "LocalQueue", "user-queue", "default"));
  auto binding = manager_object("rbac.authorization.k8s.io/v1", "RoleBinding", "batch", "team-a");
  binding.document["roleRef"] = {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "kueue-batch-user-role"}};
  manager.objects.push_back(binding);
  return manager;
}

ManifestOptions options_for(const mkq::kueue::ClusterObjects* manager) {
  ManifestOptions options;
  options.image = "mkq:0.1.0";
  options.version = "0.1.0";
  options.policy = "tutorial";
  options.manager = {"manager", "manager-ctx", ""};
  options.workers = {{"worker1", "worker1-ctx", ""}, {"worker2", "worker2-ctx", ""}};
  options.policy_files = {{"policy.mkq", "manager \"manager\" {}\n"}};
  options.manager_objects = manager;
  return options;
}

const Json* find(const Manifests& manifests, const std::string& kind, const std::string& name,
                 const std::string& namespace_name = "") {
  for (const auto& manifest : manifests.documents) {
    const Json& metadata = manifest.document["metadata"];
    if (manifest.document["kind"] == kind && metadata["name"] == name &&
        metadata.value("namespace", std::string()) == namespace_name) {
      return &manifest.document;
    }
  }
  return nullptr;
}

bool has_rule(const Json& role, const std::string& group, const std::string& resource, const std::string& verb) {
  for (const Json& rule : role["rules"]) {
    if (rule["apiGroups"][0] != group) continue;
    bool resource_found = false, verb_found = false;
    for (const Json& r : rule["resources"]) resource_found = resource_found || r == resource;
    for (const Json& v : rule["verbs"]) verb_found = verb_found || v == verb;
    if (resource_found && verb_found) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("install: the workers' kubeconfig Secrets carry no data, only how to fill them", "[install]") {
  const auto manager = tutorial_manager();
  const auto manifests = mkq::install::controller_manifests(options_for(&manager));
  REQUIRE(manifests.ok());
  for (const std::string worker : {"worker1", "worker2"}) {
    const Json* secret = find(manifests.value(), "Secret", "mkq-worker-" + worker, "mkq-system");
    REQUIRE(secret != nullptr);
    CHECK_FALSE(secret->contains("data"));
    CHECK_FALSE(secret->contains("stringData"));
    CHECK((*secret)["metadata"]["annotations"]["mkq.dev/kubeconfig-context"] == worker + "-ctx");
  }
  bool told = false;
  for (const auto& manifest : manifests.value().documents) {
    for (const std::string& note : manifest.notes) {
      told = told || note.find("create secret generic mkq-worker-worker1 --from-file=kubeconfig=") != std::string::npos;
    }
  }
  CHECK(told);
}

TEST_CASE("install: RBAC follows the policy's manager objects, Secrets only in their namespace", "[install]") {
  const auto manager = tutorial_manager();
  const auto manifests = mkq::install::controller_manifests(options_for(&manager));
  REQUIRE(manifests.ok());
  const Json* cluster_role = find(manifests.value(), "ClusterRole", "mkq-controller-mkq-system");
  REQUIRE(cluster_role != nullptr);
  CHECK(has_rule(*cluster_role, "kueue.x-k8s.io", "clusterqueues", "create"));
  CHECK(has_rule(*cluster_role, "kueue.x-k8s.io", "localqueues", "list"));
  CHECK(has_rule(*cluster_role, "rbac.authorization.k8s.io", "clusterroles", "bind"));
  CHECK_FALSE(has_rule(*cluster_role, "", "secrets", "get"));
  CHECK_FALSE(has_rule(*cluster_role, "kueue.x-k8s.io", "cohorts", "get"));  // the policy has none
  const Json* kueue_role = find(manifests.value(), "Role", "mkq-controller-mkq-system", "kueue-system");
  REQUIRE(kueue_role != nullptr);
  CHECK(has_rule(*kueue_role, "", "secrets", "update"));
  const Json* own_role = find(manifests.value(), "Role", "mkq-controller-mkq-system", "mkq-system");
  REQUIRE(own_role != nullptr);
  CHECK(has_rule(*own_role, "coordination.k8s.io", "leases", "update"));
  CHECK(has_rule(*own_role, "", "secrets", "create"));
  CHECK(has_rule(*own_role, "events.k8s.io", "events", "create"));
  CHECK(has_rule(*own_role, "", "events", "patch"));
  CHECK_FALSE(has_rule(*own_role, "", "events", "delete"));
  const Json* bind = nullptr;
  for (const Json& rule : (*cluster_role)["rules"]) {
    if (rule["resources"][0] == "clusterroles") bind = &rule;
  }
  REQUIRE(bind != nullptr);
  CHECK((*bind)["resourceNames"] == Json::array({"kueue-batch-user-role"}));
}

TEST_CASE("install: without a policy's objects, every kind mkq renders", "[install]") {
  const auto manifests = mkq::install::controller_manifests(options_for(nullptr));
  REQUIRE(manifests.ok());
  const Json* cluster_role = find(manifests.value(), "ClusterRole", "mkq-controller-mkq-system");
  REQUIRE(cluster_role != nullptr);
  CHECK(has_rule(*cluster_role, "kueue.x-k8s.io", "cohorts", "create"));
  CHECK(has_rule(*cluster_role, "kueue.x-k8s.io", "multikueueclusters", "watch"));
  const Json* kueue_role = find(manifests.value(), "Role", "mkq-controller-mkq-system", "kueue-system");
  REQUIRE(kueue_role != nullptr);
  CHECK(has_rule(*kueue_role, "apps", "deployments", "patch"));
  CHECK(has_rule(*kueue_role, "", "configmaps", "update"));
}

TEST_CASE("install: the Deployment runs two replicas with probes on a named port and the cluster's state", "[install]") {
  const auto manifests = mkq::install::controller_manifests(options_for(nullptr));
  REQUIRE(manifests.ok());
  const Json* deployment = find(manifests.value(), "Deployment", "mkq-controller", "mkq-system");
  REQUIRE(deployment != nullptr);
  const Json& spec = (*deployment)["spec"];
  CHECK(spec["replicas"] == 2);
  const Json& container = spec["template"]["spec"]["containers"][0];
  CHECK(container["image"] == "mkq:0.1.0");
  CHECK(container["args"] == Json::array({"controller", "--policy", "/etc/mkq/policy", "--state",
                                          "kubernetes://manager-ctx/mkq-system/tutorial"}));
  CHECK(container["ports"][0]["name"] == "http");
  CHECK(container["livenessProbe"]["httpGet"]["path"] == "/healthz");
  CHECK(container["livenessProbe"]["httpGet"]["port"] == "http");
  CHECK(container["readinessProbe"]["httpGet"]["path"] == "/readyz");
  CHECK(container["securityContext"]["readOnlyRootFilesystem"] == true);
  CHECK(container["resources"]["limits"]["memory"] == "512Mi");
  CHECK(container["env"][0]["value"] ==
        "/etc/mkq/manager/kubeconfig:/etc/mkq/workers/worker1/kubeconfig:/etc/mkq/workers/worker2/kubeconfig");
  for (const auto& [key, value] : spec["selector"]["matchLabels"].items()) {
    CHECK(spec["template"]["metadata"]["labels"][key] == value);  // the selector picks the template's pods
  }
  CHECK_FALSE(spec["selector"]["matchLabels"].contains("app.kubernetes.io/version"));  // an upgrade keeps the selector
}

TEST_CASE("install: the manager's kubeconfig names the ServiceAccount's files, no secret", "[install]") {
  const auto manifests = mkq::install::controller_manifests(options_for(nullptr));
  REQUIRE(manifests.ok());
  const Json* map = find(manifests.value(), "ConfigMap", "mkq-manager-kubeconfig", "mkq-system");
  REQUIRE(map != nullptr);
  const std::string text = (*map)["data"]["kubeconfig"];
  CHECK(text.find("tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token") != std::string::npos);
  CHECK(text.find("current-context: manager-ctx") != std::string::npos);
  CHECK(text.find("token:") == std::string::npos);
  CHECK(text.find("-data") == std::string::npos);
}

TEST_CASE("install: a policy over 1 MiB, a file name no ConfigMap key can be, a bad namespace are refused", "[install][errors]") {
  auto options = options_for(nullptr);
  options.policy_files = {{"a.mkq", std::string(600 * 1024, 'x')}, {"b.mkq", std::string(500 * 1024, 'x')}};
  auto refused = mkq::install::controller_manifests(options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message ==
        "the policy's files hold 1126400 bytes; a ConfigMap holds at most 1048576 (1 MiB): mount the policy another "
        "way (a git-sync volume)");
  options = options_for(nullptr);
  options.policy_files = {{"my policy.mkq", ""}};
  refused = mkq::install::controller_manifests(options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message ==
        "the policy file name \"my policy.mkq\" cannot be a ConfigMap key (letters, digits, '-', '_' and '.' only)");
  options = options_for(nullptr);
  options.namespace_name = "Mkq_System";
  refused = mkq::install::controller_manifests(options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.rfind("the namespace \"Mkq_System\" is not a valid namespace name", 0) == 0);
}

TEST_CASE("install: the same options give the same documents", "[install]") {
  const auto manager = tutorial_manager();
  const auto first = mkq::install::controller_manifests(options_for(&manager));
  const auto second = mkq::install::controller_manifests(options_for(&manager));
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  REQUIRE(first.value().documents.size() == second.value().documents.size());
  for (std::size_t i = 0; i < first.value().documents.size(); ++i) {
    CHECK(mkq::kueue::to_yaml(first.value().documents[i].document) ==
          mkq::kueue::to_yaml(second.value().documents[i].document));
  }
}
