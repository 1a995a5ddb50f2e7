// The controller's install objects (manifests.h).
#include "runtime/install/manifests.h"

#include <regex>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"
#include "compiler/kueue/yaml_emit.h"
#include "runtime/install/rbac.h"

namespace mkq::install {
namespace {

// Where the container finds what the manifests mount.
constexpr const char* kPolicyDir = "/etc/mkq/policy";
constexpr const char* kManagerKubeconfigDir = "/etc/mkq/manager";
constexpr const char* kWorkersDir = "/etc/mkq/workers";
constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";
constexpr const char* kKubeconfigKey = "kubeconfig";
// The port of /healthz, /readyz and /metrics, named "http" in the pod.
constexpr int kHttpPort = 8080;
constexpr const char* kName = "mkq-controller";

Json labels(const ManifestOptions& options) {
  Json out = Json::object();
  out["app.kubernetes.io/name"] = kName;
  out["app.kubernetes.io/instance"] = options.policy;
  out["app.kubernetes.io/part-of"] = "mkq";
  if (!options.version.empty()) out["app.kubernetes.io/version"] = options.version;
  return out;
}

// The labels that pick the controller's pods: never the version, which an upgrade changes.
Json selector_labels(const ManifestOptions& options) {
  return Json::object({{"app.kubernetes.io/name", kName}, {"app.kubernetes.io/instance", options.policy}});
}

Json object(const char* api_version, const char* kind, const std::string& name, const std::string& namespace_name,
            const ManifestOptions& options) {
  Json metadata = Json::object();
  metadata["name"] = name;
  if (!namespace_name.empty()) metadata["namespace"] = namespace_name;
  metadata["labels"] = labels(options);
  Json out = Json::object();
  out["apiVersion"] = api_version;
  out["kind"] = kind;
  out["metadata"] = std::move(metadata);
  return out;
}

// Every cluster-scoped RBAC object and every Role is named after the
// namespace the controller runs in, so that two installs never share one.
std::string rbac_name(const ManifestOptions& options) { return std::string(kName) + "-" + options.namespace_name; }

Json rules_document(const std::vector<Rule>& rules) {
  Json out = Json::array();
  for (const Rule& rule : rules) out.push_back(rule_document(rule));
  return out;
}

Json subjects(const ManifestOptions& options) {
  return Json::array({Json::object(
      {{"kind", "ServiceAccount"}, {"name", kName}, {"namespace", options.namespace_name}})});
}

Json role_ref(const char* kind, const std::string& name) {
  return Json::object({{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", kind}, {"name", name}});
}

void add_rbac(const ManifestOptions& options, std::vector<Manifest>& out) {
  const Permissions permissions = controller_permissions(options);
  const std::string name = rbac_name(options);
  if (!permissions.cluster.empty()) {
    Json role = object("rbac.authorization.k8s.io/v1", "ClusterRole", name, "", options);
    role["rules"] = rules_document(permissions.cluster);
    out.push_back({role, {"what the policy's objects on the manager need, cluster-wide (docs/controller.md, RBAC)"}});
    Json binding = object("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", name, "", options);
    binding["roleRef"] = role_ref("ClusterRole", name);
    binding["subjects"] = subjects(options);
    out.push_back({binding, {}});
  }
  for (const auto& [namespace_name, rules] : permissions.per_namespace) {
    Json role = object("rbac.authorization.k8s.io/v1", "Role", name, namespace_name, options);
    role["rules"] = rules_document(rules);
    out.push_back({role, {}});
    Json binding = object("rbac.authorization.k8s.io/v1", "RoleBinding", name, namespace_name, options);
    binding["roleRef"] = role_ref("Role", name);
    binding["subjects"] = subjects(options);
    out.push_back({binding, {}});
  }
}

// A ConfigMap key: kube-apiserver's IsConfigMapKey.
bool valid_key(const std::string& key) {
  static const std::regex re("^[-._a-zA-Z0-9]+$");
  return !key.empty() && key.size() <= facts::kMaxDns1123SubdomainLength && key != "." && key != ".." &&
         std::regex_match(key, re);
}

kube::Error invalid(std::string message) { return kube::Error{0, "Invalid", std::move(message), nullptr}; }

kube::Result<Manifest> policy_config_map(const ManifestOptions& options) {
  Json data = Json::object();
  std::size_t bytes = 0;
  for (const PolicyFile& file : options.policy_files) {
    if (!valid_key(file.name)) {
      return invalid("the policy file name \"" + file.name +
                     "\" cannot be a ConfigMap key (letters, digits, '-', '_' and '.' only)");
    }
    bytes += file.text.size();
    data[file.name] = file.text;
  }
  if (bytes > kMaxConfigMapBytes) {
    return invalid(fmt::format("the policy's files hold {} bytes; a ConfigMap holds at most {} (1 MiB): mount the policy "
                               "another way (a git-sync volume)",
                               bytes, kMaxConfigMapBytes));
  }
  Json map = object("v1", "ConfigMap", "mkq-policy", options.namespace_name, options);
  map["data"] = std::move(data);
  return Manifest{map, {"the policy, mounted at " + std::string(kPolicyDir) + "; the controller re-reads it when it changes"}};
}

// A kubeconfig whose one context -- named as the policy names the manager's --
// reaches the API server of the pod's own cluster with the pod's
// ServiceAccount token, read from its file (it holds no secret itself).
Json manager_kubeconfig(const ManifestOptions& options) {
  const std::string sa = kServiceAccountDir;
  Json cluster = Json::object({{"server", "https://kubernetes.default.svc"}, {"certificate-authority", sa + "/ca.crt"}});
  Json config = Json::object();
  config["apiVersion"] = "v1";
  config["kind"] = "Config";
  config["clusters"] = Json::array({Json::object({{"name", "in-cluster"}, {"cluster", cluster}})});
  config["users"] = Json::array(
      {Json::object({{"name", kName}, {"user", Json::object({{"tokenFile", sa + "/token"}})}})});
  config["contexts"] = Json::array({Json::object(
      {{"name", options.manager.context}, {"context", Json::object({{"cluster", "in-cluster"}, {"user", kName}})}})});
  config["current-context"] = options.manager.context;
  Json map = object("v1", "ConfigMap", "mkq-manager-kubeconfig", options.namespace_name, options);
  map["data"] = Json::object({{kKubeconfigKey, kueue::to_yaml(config)}});
  return map;
}

std::string worker_secret_name(const ClusterContext& worker) { return "mkq-worker-" + worker.name; }

Manifest worker_secret(const ManifestOptions& options, const ClusterContext& worker) {
  Json secret = object("v1", "Secret", worker_secret_name(worker), options.namespace_name, options);
  secret["metadata"]["annotations"] = Json::object(
      {{"mkq.dev/cluster", worker.name}, {"mkq.dev/kubeconfig-context", worker.context}});
  secret["type"] = "Opaque";
  const std::string fill = "kubectl -n " + options.namespace_name + " create secret generic " +
                           worker_secret_name(worker) + " --from-file=" + kKubeconfigKey + "=WORKER.kubeconfig" +
                           " --dry-run=client -o yaml | kubectl apply --server-side --field-manager=mkq-credentials -f -";
  return {secret,
          {"an admin kubeconfig of worker \"" + worker.name + "\" (context \"" + worker.context +
               "\"): mkq prints no credential; fill this Secret's key \"" + kKubeconfigKey + "\" with",
           "  " + fill}};
}

Json probe(const char* path, int period_seconds) {
  Json out = Json::object();
  out["httpGet"] = Json::object({{"path", path}, {"port", "http"}});
  out["periodSeconds"] = period_seconds;
  out["timeoutSeconds"] = 2;
  out["failureThreshold"] = 3;
  return out;
}

Json volume_mount(const std::string& name, const std::string& path) {
  return Json::object({{"name", name}, {"mountPath", path}, {"readOnly", true}});
}

Json deployment(const ManifestOptions& options) {
  // KUBECONFIG merges the manager's in-cluster kubeconfig with each worker's.
  std::string kubeconfig = std::string(kManagerKubeconfigDir) + "/" + kKubeconfigKey;
  Json mounts = Json::array({volume_mount("policy", kPolicyDir), volume_mount("manager-kubeconfig", kManagerKubeconfigDir)});
  Json volumes = Json::array(
      {Json::object({{"name", "policy"}, {"configMap", Json::object({{"name", "mkq-policy"}})}}),
       Json::object({{"name", "manager-kubeconfig"}, {"configMap", Json::object({{"name", "mkq-manager-kubeconfig"}})}})});
  for (std::size_t i = 0; i < options.workers.size(); ++i) {
    const ClusterContext& worker = options.workers[i];
    const std::string volume = fmt::format("worker-{}", i + 1);
    const std::string dir = std::string(kWorkersDir) + "/" + worker.name;
    mounts.push_back(volume_mount(volume, dir));
    Json items = Json::array({Json::object({{"key", kKubeconfigKey}, {"path", kKubeconfigKey}})});
    volumes.push_back(Json::object(
        {{"name", volume}, {"secret", Json::object({{"secretName", worker_secret_name(worker)}, {"items", items}})}}));
    kubeconfig += ":" + dir + "/" + kKubeconfigKey;
  }
  mounts.push_back(Json::object({{"name", "tmp"}, {"mountPath", "/tmp"}}));
  volumes.push_back(Json::object({{"name", "tmp"}, {"emptyDir", Json::object()}}));

  Json container = Json::object();
  container["name"] = "controller";
  container["image"] = options.image;
  container["imagePullPolicy"] = "IfNotPresent";
  container["args"] = Json::array({"controller", "--policy", kPolicyDir, "--state",
                                   "kubernetes://" + options.manager.context + "/" + options.namespace_name + "/" +
                                       options.policy});
  container["env"] = Json::array({Json::object({{"name", "KUBECONFIG"}, {"value", kubeconfig}}),
                                  Json::object({{"name", "TMPDIR"}, {"value", "/tmp"}})});
  container["ports"] = Json::array({Json::object({{"name", "http"}, {"containerPort", kHttpPort}, {"protocol", "TCP"}})});
  container["livenessProbe"] = probe("/healthz", 10);
  container["readinessProbe"] = probe("/readyz", 5);
  container["resources"] = Json::object({{"requests", Json::object({{"cpu", "50m"}, {"memory", "64Mi"}})},
                                         {"limits", Json::object({{"cpu", "1"}, {"memory", "512Mi"}})}});
  container["securityContext"] = Json::object({{"allowPrivilegeEscalation", false},
                                                {"readOnlyRootFilesystem", true},
                                                {"runAsNonRoot", true},
                                                {"capabilities", Json::object({{"drop", Json::array({"ALL"})}})}});
  container["volumeMounts"] = std::move(mounts);

  Json pod = Json::object();
  pod["serviceAccountName"] = kName;
  pod["securityContext"] = Json::object({{"runAsNonRoot", true},
                                         {"runAsUser", 65532},
                                         {"runAsGroup", 65532},
                                         {"seccompProfile", Json::object({{"type", "RuntimeDefault"}})}});
  pod["terminationGracePeriodSeconds"] = 30;
  pod["containers"] = Json::array({container});
  pod["volumes"] = std::move(volumes);

  Json template_metadata = Json::object({{"labels", labels(options)}});
  Json spec = Json::object();
  spec["replicas"] = 2;
  spec["selector"] = Json::object({{"matchLabels", selector_labels(options)}});
  spec["template"] = Json::object({{"metadata", template_metadata}, {"spec", pod}});
  Json out = object("apps/v1", "Deployment", kName, options.namespace_name, options);
  out["spec"] = std::move(spec);
  return out;
}

}  // namespace

kube::Result<Manifests> controller_manifests(const ManifestOptions& options) {
  static const std::regex label("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
  if (options.namespace_name.size() > facts::kMaxDns1123LabelLength ||
      !std::regex_match(options.namespace_name, label)) {
    return invalid(fmt::format("the namespace \"{}\" is not a valid namespace name (an RFC 1123 label: lower-case "
                               "letters, digits and '-', at most {} characters)",
                               options.namespace_name, facts::kMaxDns1123LabelLength));
  }
  if (options.image.empty() || options.image.find_first_of(" \t\n") != std::string::npos) {
    return invalid("the image \"" + options.image + "\" is not an image reference");
  }
  Manifests out;
  out.documents.push_back({object("v1", "Namespace", options.namespace_name, "", options), {}});
  out.documents.push_back({object("v1", "ServiceAccount", kName, options.namespace_name, options), {}});
  add_rbac(options, out.documents);
  auto policy = policy_config_map(options);
  if (!policy) return policy.error();
  out.documents.push_back(std::move(policy).value());
  out.documents.push_back({manager_kubeconfig(options),
                           {"reaches the manager (context \"" + options.manager.context +
                            "\") with the pod's ServiceAccount token; holds no secret"}});
  for (const ClusterContext& worker : options.workers) out.documents.push_back(worker_secret(options, worker));
  out.documents.push_back({deployment(options), {}});
  std::vector<const ClusterContext*> clusters = {&options.manager};
  for (const ClusterContext& worker : options.workers) clusters.push_back(&worker);
  for (const ClusterContext* cluster : clusters) {
    if (cluster->kubeconfig.empty()) continue;
    out.warnings.push_back("cluster \"" + cluster->name + "\" is reached through the kubeconfig file \"" +
                           cluster->kubeconfig +
                           "\", which the controller's container does not have: reach it through a context "
                           "instead (docs/controller.md)");
  }
  return out;
}

}  // namespace mkq::install
