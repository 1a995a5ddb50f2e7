// Preflight (preflight.h): one ClusterCheck per reachable cluster, in
// parallel; each check below reads what it needs through the cluster's
// ReadOnlyClient and its Discovery, and adds findings.
#include "runtime/preflight/preflight.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "base/object_ref.h"
#include "base/parallel.h"
#include "compiler/kueue/openshift.h"
#include "compiler/kueue/schema.h"
#include "runtime/credentials/cluster_profile.h"
#include "runtime/preflight/discovery.h"
#include "runtime/preflight/read_only.h"
#include "runtime/reconcile/kueue_config.h"

namespace mkq::preflight {
namespace {

namespace model = sema::model;
namespace schema = kueue::schema;
using kube::Json;
using reconcile::Finding;
using reconcile::listed;
using reconcile::FindingCode;
using reconcile::Severity;

const kube::ResourceType kCrds{"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions",
                               false};
const kube::ResourceType kServices{"", "v1", "Service", "services", true};
const kube::ResourceType kConfigMaps{"", "v1", "ConfigMap", "configmaps", true};
const kube::ResourceType kDeployments{"apps", "v1", "Deployment", "deployments", true};
const kube::ResourceType kClusterRoles{"rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false};
const kube::ResourceType kOpenShiftKueues{"kueue.openshift.io", "v1", "Kueue", "kueues", false};

std::string group_of(std::string_view api_version) {
  const std::size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? "" : std::string(api_version.substr(0, slash));
}

std::string quoted(const std::string& text) { return "'" + text + "'"; }

// One reachable cluster being checked.
struct ClusterCheck {
  ClusterCheck(const Fleet& f, const reconcile::ClusterPlan& p, const reconcile::ClusterLive& l, kube::Client& c)
      : fleet(f), plan(p), live(l), client(c), discovery(client) {}

  const Fleet& fleet;
  const reconcile::ClusterPlan& plan;
  const reconcile::ClusterLive& live;
  ReadOnlyClient client;
  Discovery discovery;
  std::vector<Finding> findings;

  bool manager() const { return plan.role == kueue::ClusterRole::Manager; }
  bool openshift() const { return fleet.policy.kueue.platform.value == model::Platform::OpenShift; }
  const std::string& name() const { return plan.cluster; }
  const std::string& kueue_namespace() const { return fleet.policy.kueue.namespace_name.value; }

  // `kubectl --context CONTEXT`: the context the policy reaches this cluster through.
  std::string kubectl() const {
    std::string context = name();
    if (fleet.policy.manager.name == name()) {
      context = fleet.policy.manager.connection.context.value;
    } else if (const model::Worker* worker = fleet.policy.find_worker(name())) {
      context = worker->connection.context.value;
    }
    return "kubectl --context " + context;
  }

  void add(Severity severity, FindingCode code, std::string missing, std::string fix) {
    findings.push_back(Finding{severity, code, name(), std::move(missing), std::move(fix)});
  }

  // The Kueue kinds the plan writes on this cluster, in apply order.
  std::vector<const schema::KindInfo*> kueue_kinds() const {
    std::set<std::string> wanted;
    for (const kueue::ClusterObjects& cluster : fleet.desired.clusters) {
      if (cluster.cluster != name()) continue;
      for (const kueue::Object& object : cluster.objects) {
        if (group_of(object.api_version) == schema::kKueueGroup) wanted.insert(object.kind);
      }
    }
    std::vector<const schema::KindInfo*> kinds;
    for (const schema::KindInfo& info : schema::kKinds) {
      if (wanted.count(std::string(info.name))) kinds.push_back(&info);
    }
    return kinds;
  }

  bool unserved(const schema::KindInfo& kind) const {
    const std::string type = std::string(kind.api_version) + "/" + std::string(kind.name);
    return std::find(live.unserved_kinds.begin(), live.unserved_kinds.end(), type) != live.unserved_kinds.end();
  }
};

// ------------------------------------------------------------------ Kueue and its API version

std::string install_kueue(const ClusterCheck& c) {
  if (c.openshift()) return "install (or upgrade) the Red Hat build of Kueue Operator on " + c.name();
  return c.kubectl() + " apply --server-side -f https://github.com/kubernetes-sigs/kueue/releases/download/" +
         std::string(schema::kKueueCheckedRelease) + "/manifests.yaml";
}

// Kueue's kinds mkq writes that refresh found not served (as v1beta2): which
// other version serves them, if any.
void check_kueue(ClusterCheck& c) {
  std::vector<const schema::KindInfo*> unserved;
  for (const schema::KindInfo* kind : c.kueue_kinds()) {
    if (c.unserved(*kind)) unserved.push_back(kind);
  }
  if (unserved.empty()) return;
  const std::string group(schema::kKueueGroup);
  const std::optional<std::vector<std::string>> versions = c.discovery.versions(group);
  if (!versions) return;  // discovery unreadable: refresh's errors say why
  if (versions->empty()) {
    c.add(Severity::Error, FindingCode::KueueNotInstalled,
          "Kueue is not installed: the API group " + group + " is not served", install_kueue(c));
    return;
  }
  std::vector<std::string> other_kinds, other_versions, absent;
  for (const schema::KindInfo* kind : unserved) {
    bool elsewhere = false;
    for (const std::string& version : *versions) {
      if (version == schema::kKueueVersion || !c.discovery.serves_kind(group, version, kind->name)) continue;
      elsewhere = true;
      if (std::find(other_versions.begin(), other_versions.end(), version) == other_versions.end()) {
        other_versions.push_back(version);
      }
    }
    (elsewhere ? other_kinds : absent).emplace_back(kind->name);
  }
  if (!other_kinds.empty()) {
    for (std::string& version : other_versions) version = group + "/" + version;
    c.add(Severity::Error, FindingCode::KueueVersion,
          "Kueue serves " + listed(other_kinds) + " as " + listed(other_versions) + " but not as " +
              std::string(schema::kKueueApiVersion) + ", the version mkq writes (served from Kueue " +
              std::string(schema::kKueueFirstV1beta2Release) + " on)",
          c.openshift() ? install_kueue(c) : "upgrade Kueue: " + install_kueue(c));
  }
  if (!absent.empty()) {
    c.add(Severity::Error, FindingCode::KueueNotInstalled,
          "Kueue's CRDs of " + listed(absent) + " are not installed (" + group + " serves no version of them)",
          install_kueue(c));
  }
}

// A Kueue CRD whose conversion webhook names a Service that is gone answers
// every request that needs a conversion with an error (kueue#18411). Only a
// group serving more than one version converts, so the CRDs are read only then.
void check_conversion_webhooks(ClusterCheck& c) {
  const std::optional<std::vector<std::string>> versions = c.discovery.versions(std::string(schema::kKueueGroup));
  if (!versions || versions->size() < 2) return;
  std::map<std::string, std::vector<std::string>> crds_of_missing;  // "ns/name" -> CRDs converting through it
  std::map<std::string, bool> exists;
  for (const schema::KindInfo* kind : c.kueue_kinds()) {
    if (c.unserved(*kind)) continue;
    const std::string crd_name = std::string(kind->plural) + "." + std::string(schema::kKueueGroup);
    const kube::Result<Json> crd = c.client.get(kCrds, "", crd_name);
    if (!crd) continue;  // not readable (RBAC) or not a CRD: nothing to say
    const Json conversion = crd.value().value("spec", Json::object()).value("conversion", Json::object());
    if (!conversion.is_object() || conversion.value("strategy", std::string()) != "Webhook") continue;
    const Json service = conversion.value("webhook", Json::object()).value("clientConfig", Json::object())
                             .value("service", Json());
    if (!service.is_object()) continue;  // a URL: not a Service mkq can look for
    const std::string ns = service.value("namespace", std::string());
    const std::string name = service.value("name", std::string());
    const std::string key = ns + "/" + name;
    if (!exists.count(key)) {
      const kube::Result<Json> found = c.client.get(kServices, ns, name);
      exists[key] = found.ok() || !found.error().not_found();
    }
    if (!exists[key]) crds_of_missing[key].push_back(crd_name);
  }
  for (const auto& [service, crds] : crds_of_missing) {
    const bool one = crds.size() == 1;
    std::string names;
    for (const std::string& crd : crds) names += (names.empty() ? "" : " ") + crd;
    const std::string patch = " patch crd \"$crd\" --type=merge -p "
                              "'{\"spec\":{\"conversion\":{\"strategy\":\"None\",\"webhook\":null}}}'";
    c.add(Severity::Error, FindingCode::ConversionWebhook,
          std::string(one ? "CRD " : "CRDs ") + listed(crds) + (one ? " converts" : " convert") +
              " between versions through Service " + service +
              ", which does not exist: reads and writes of those kinds fail (kueue#18411)",
          "reinstall Kueue (its webhook Service), or, if that webhook is gone for good: for crd in " + names +
              "; do " + c.kubectl() + patch + "; done");
  }
}

// ------------------------------------------------------------------ integrations

// An enabled framework's name as the policy lists it: where to remove it from.
std::string listed_in(const model::Policy& policy, const std::string& framework) {
  for (const model::Located<std::string>& name : policy.kueue.external_frameworks) {
    if (name.value == framework) return "kueue.external_frameworks";
  }
  return "kueue.integrations";
}

// Every enabled integration's CRDs: a worker without one is disconnected by
// Kueue (its MultiKueueCluster turns ClientConnectionFailed: kueue#3582,
// #12400); on the manager its jobs cannot be submitted. Resources of a group
// without a dot are Kubernetes' own (a CRD's group always has one).
void check_integration_crds(ClusterCheck& c) {
  for (const model::Integration* integration : c.fleet.policy.enabled_integrations()) {
    std::vector<std::string> missing;
    for (const model::IntegrationResources& rule : integration->rules) {
      const std::string& group = rule.api_group.value;
      if (group.find('.') == std::string::npos) continue;
      for (const model::Located<std::string>& resource : rule.resources) {
        if (resource.value.find('/') != std::string::npos) continue;
        if (c.discovery.serves_resource(group, resource.value) == std::optional<bool>(false)) {
          missing.push_back(resource.value + "." + group);
        }
      }
    }
    if (missing.empty()) continue;
    const bool one = missing.size() == 1;
    const std::string crds = std::string(one ? "CRD " : "CRDs ") + listed(missing);
    const std::string fix = "install " + quoted(integration->name) + " (" + crds + " and its controller) on " +
                            c.name() + ", or remove " + quoted(integration->name) + " from " +
                            listed_in(c.fleet.policy, integration->name);
    if (c.manager()) {
      c.add(Severity::Warning, FindingCode::IntegrationCrd,
            "integration " + quoted(integration->name) + " is enabled but " + crds + (one ? " is" : " are") +
                " not served: its jobs cannot be submitted on the manager",
            fix);
    } else {
      c.add(Severity::Error, FindingCode::IntegrationCrd,
            "integration " + quoted(integration->name) + " is enabled but " + crds + (one ? " is" : " are") +
                " not served: Kueue disconnects a worker without an enabled integration's CRD "
                "(ClientConnectionFailed; kueue#3582, #12400)",
            fix);
    }
  }
}

// The frameworks a worker's Kueue must manage for the manager's jobs to be
// admitted there: the enabled integrations MultiKueue dispatches (those with
// rules); a Deployment's pods arrive as pods.
std::vector<std::string> dispatched_frameworks(const model::Policy& policy) {
  std::vector<std::string> out;
  for (const model::Located<std::string>& name : policy.kueue.integrations) {
    const model::Integration* integration = policy.find_integration(name.value);
    if (integration == nullptr || integration->rules.empty()) continue;
    const std::string framework = name.value == "deployment" ? "pod" : name.value;
    if (std::find(out.begin(), out.end(), framework) == out.end()) out.push_back(framework);
  }
  return out;
}

std::vector<std::string> strings_at(const Json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const Json& item : list) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// The integrations a worker's Kueue manages, and where that was read (for the message).
struct Frameworks {
  std::vector<std::string> enabled;
  std::string where;
};

// What the worker's own Kueue manages: integrations.frameworks of its
// configuration (Kueue's default when it sets none), or why it cannot be read.
base::Result<Frameworks> worker_frameworks(ClusterCheck& c) {
  const std::string name(schema::kKueueConfigMapName);
  Frameworks out{{}, "ConfigMap " + c.kueue_namespace() + "/" + name};
  kube::Result<Json> config_map = c.client.get(kConfigMaps, c.kueue_namespace(), name);
  if (!config_map && !config_map.error().not_found()) return std::move(config_map.error());
  Json configuration = Json::object();
  if (config_map) {
    kube::Result<Json> read = reconcile::configuration_of(config_map.value());
    if (!read) return std::move(read.error());
    if (!read.value().is_object()) return base::Error::config(out.where + ": its configuration is not a map");
    configuration = std::move(read).value();
  } else {
    out.where = "Kueue's defaults (there is no " + out.where + ")";
  }
  const Json integrations = configuration.value("integrations", Json::object());
  if (!integrations.is_object() || !integrations.contains("frameworks")) {
    out.enabled = {std::string(schema::kDefaultIntegration)};
  } else {
    out.enabled = strings_at(integrations["frameworks"]);
  }
  return out;
}

// The same on OpenShift, from the operator's Kueue resource, in its kind names.
base::Result<Frameworks> openshift_frameworks(ClusterCheck& c) {
  const std::string name(schema::kOpenShiftKueueName);
  kube::Result<Json> resource = c.client.get(kOpenShiftKueues, "", name);
  if (!resource) return std::move(resource.error());
  const Json config = resource.value().value("spec", Json::object()).value("config", Json::object());
  return Frameworks{strings_at(config.value("integrations", Json::object()).value("frameworks", Json::array())),
                    "Kueue " + name};
}

// A job dispatched to a worker whose Kueue does not manage its framework is
// never admitted there: mkq does not write workers' Kueue configuration
// (docs/apply.md says why), so a missing framework is an error with the fix.
void check_worker_integrations(ClusterCheck& c) {
  const std::vector<std::string> needed = dispatched_frameworks(c.fleet.policy);
  if (needed.empty()) return;
  // Unreadable: this check finds nothing (what cannot be read is not a missing framework).
  const base::Result<Frameworks> frameworks = c.openshift() ? openshift_frameworks(c) : worker_frameworks(c);
  if (!frameworks) return;
  const std::vector<std::string>& enabled = frameworks->enabled;
  const std::string& where = frameworks->where;
  std::vector<std::string> missing;
  for (const std::string& framework : needed) {
    std::string spelled = framework;
    if (c.openshift()) {
      const std::optional<std::string_view> kind = kueue::openshift::framework_kind(framework);
      if (!kind) continue;  // validation (E4025) reports what the operator cannot enable
      spelled = std::string(*kind);
    }
    if (std::find(enabled.begin(), enabled.end(), spelled) == enabled.end()) missing.push_back(spelled);
  }
  if (missing.empty()) return;
  std::vector<std::string> quoted_missing;
  for (const std::string& m : missing) quoted_missing.push_back(quoted(m));
  const std::string ns = c.kueue_namespace();
  std::string fix;
  if (c.openshift()) {
    fix = "add " + listed(quoted_missing) + " to spec.config.integrations.frameworks: " + c.kubectl() +
          " edit kueue " + std::string(schema::kOpenShiftKueueName);
  } else {
    fix = "add " + listed(quoted_missing) + " to integrations.frameworks: " + c.kubectl() + " -n " + ns +
          " edit configmap " + std::string(schema::kKueueConfigMapName) + " && " + c.kubectl() + " -n " + ns +
          " rollout restart deployment " + std::string(schema::kKueueDeploymentName);
  }
  c.add(Severity::Error, FindingCode::WorkerIntegration,
        "Kueue on this worker does not manage " + listed(quoted_missing) + " (integrations.frameworks of " + where +
            "): jobs of " + (missing.size() == 1 ? "that kind" : "those kinds") +
            " dispatched here are never admitted",
        fix);
}

// ------------------------------------------------------------------ feature gates (the manager)

// The configuration Kueue will read after the plan: the plan's own document
// when it writes Kueue's configuration, else the cluster's.
Json configuration_after_plan(const ClusterCheck& c) {
  for (const reconcile::Change& change : c.plan.changes) {
    if (!schema::is_kueue_configuration(change.ref.kind, change.ref.name) || !change.error.empty()) continue;
    if (change.action == reconcile::Action::Delete || change.action == reconcile::Action::Release) break;
    if (!change.desired.is_object()) break;  // a no-op: the cluster's is the one
    const kube::Result<Json> planned = reconcile::configuration_of(change.desired);
    if (planned && planned.value().is_object()) return planned.value();
  }
  const base::ObjectRef ref{c.name(), "v1", "ConfigMap", c.kueue_namespace(), std::string(schema::kKueueConfigMapName)};
  const auto live = c.live.objects.find(ref.address());
  if (live == c.live.objects.end()) return Json::object();
  const kube::Result<Json> read = reconcile::configuration_of(live->second.decode());
  return read && read.value().is_object() ? read.value() : Json::object();
}

// A gate set on the controller manager's command line (--feature-gates=A=true,B=false).
std::optional<bool> gate_in_arguments(ClusterCheck& c, std::string_view gate) {
  const kube::Result<Json> deployment =
      c.client.get(kDeployments, c.kueue_namespace(), std::string(schema::kKueueDeploymentName));
  if (!deployment) return std::nullopt;
  const Json containers =
      deployment.value().value("spec", Json::object()).value("template", Json::object()).value("spec", Json::object())
          .value("containers", Json::array());
  const std::string flag = "--feature-gates=";
  for (const Json& container : containers.is_array() ? containers : Json::array()) {
    for (const std::string& arg : strings_at(container.value("args", Json::array()))) {
      if (arg.rfind(flag, 0) != 0) continue;
      const std::string gates = "," + arg.substr(flag.size()) + ",";
      if (gates.find("," + std::string(gate) + "=true,") != std::string::npos) return true;
      if (gates.find("," + std::string(gate) + "=false,") != std::string::npos) return false;
    }
  }
  return std::nullopt;
}

void check_feature_gates(ClusterCheck& c) {
  struct Needed {
    std::string_view gate;
    bool on_by_default;
    std::string why;
  };
  std::vector<Needed> needed;
  if (!c.fleet.policy.workers.empty()) {
    needed.push_back({schema::kMultiKueueFeatureGate, true, "MultiKueue dispatches no job"});
  }
  if (c.fleet.policy.uses_cluster_profiles()) {
    needed.push_back({schema::kClusterProfileFeatureGate, false,
                      "workers reached through a ClusterProfile stay inactive (MultiKueueClusterProfileFeatureDisabled)"});
  }
  if (needed.empty()) return;
  const Json configuration = configuration_after_plan(c);
  const Json gates = configuration.value("featureGates", Json::object());
  const std::string config_map = "ConfigMap " + c.kueue_namespace() + "/" + std::string(schema::kKueueConfigMapName);
  for (const Needed& n : needed) {
    const std::string gate(n.gate);
    // Kueue takes its gates from the configuration or from the flag, never both.
    std::optional<bool> on;
    if (gates.is_object() && gates.contains(gate) && gates[gate].is_boolean()) on = gates[gate].get<bool>();
    if (!on && !n.on_by_default) on = gate_in_arguments(c, n.gate);
    if (on.value_or(n.on_by_default)) continue;
    c.add(Severity::Error, FindingCode::FeatureGate,
          "Kueue's feature gate " + gate + " is off (" + config_map + ", or the controller manager's --feature-gates): " +
              n.why,
          "set featureGates: {" + gate + ": true} in " + config_map + " (and remove " + gate +
              "=false from --feature-gates, if set there): " + c.kubectl() + " -n " + c.kueue_namespace() +
              " edit configmap " + std::string(schema::kKueueConfigMapName));
  }
}

// ClusterProfile mode (the manager): the CRD, each worker's ClusterProfile and
// an access provider the policy names (runtime/credentials says which is missing).
void check_cluster_profiles(ClusterCheck& c) {
  for (std::string& problem : credentials::check_cluster_profiles(c.fleet.policy, &c.client)) {
    c.add(Severity::Error, FindingCode::ClusterProfile, std::move(problem),
          "give the worker its ClusterProfile in Kueue's namespace on the manager (its cluster manager writes it), "
          "with an access provider the policy names in kueue { multikueue { access_provider ... } }");
  }
}

// ------------------------------------------------------------------ OpenShift

void check_openshift(ClusterCheck& c) {
  const std::string group = group_of(schema::kOpenShiftKueueApiVersion);
  const std::optional<std::vector<std::string>> versions = c.discovery.versions(group);
  if (versions && versions->empty()) {
    c.add(Severity::Warning, FindingCode::OpenShiftOperator,
          "the Red Hat build of Kueue Operator is not installed (" + group +
              " is not served): nothing configures Kueue from the Kueue resource mkq writes",
          "install the Red Hat build of Kueue Operator on " + c.name() + " (OperatorHub)");
  }
  if (!c.manager()) return;  // personas are bound on the manager
  std::set<std::string> roles;
  for (const model::Access& access : c.fleet.policy.access) {
    roles.insert(std::string(access.role.value == model::AccessRole::BatchAdmin ? schema::kBatchAdminRole
                                                                                : schema::kBatchUserRole));
  }
  for (const std::string& role : roles) {
    const kube::Result<Json> found = c.client.get(kClusterRoles, "", role);
    if (found || !found.error().not_found()) continue;
    c.add(Severity::Warning, FindingCode::PersonaRole,
          "ClusterRole " + role + " does not exist: the policy's access bindings to it grant nothing until it does",
          "install (or repair) the Red Hat build of Kueue Operator, which creates it; then " + c.kubectl() +
              " get clusterrole " + role);
  }
}

std::vector<Finding> check_cluster(const Fleet& fleet, const reconcile::ClusterPlan& plan,
                                   const reconcile::ClusterLive& live, kube::Client& client) {
  ClusterCheck c(fleet, plan, live, client);
  check_kueue(c);
  check_conversion_webhooks(c);
  check_integration_crds(c);
  if (c.manager()) {
    if (!c.openshift()) check_feature_gates(c);
    check_cluster_profiles(c);
  } else {
    check_worker_integrations(c);
  }
  if (c.openshift()) check_openshift(c);
  return std::move(c.findings);
}

}  // namespace

std::vector<Finding> check(const Fleet& fleet, const Options& options) {
  struct Job {
    const reconcile::ClusterPlan* plan;
    const reconcile::ClusterLive* live;
    kube::Client* client;
  };
  std::vector<Job> jobs;
  for (const reconcile::ClusterPlan& cluster : fleet.plan.clusters) {
    const reconcile::ClusterLive* live = fleet.live.find(cluster.cluster);
    if (!cluster.reachable || live == nullptr || !live->reachable) continue;  // the plan says it is unreachable
    const auto target = std::find_if(fleet.targets.begin(), fleet.targets.end(),
                                     [&](const reconcile::Target& t) { return t.cluster == cluster.cluster; });
    if (target == fleet.targets.end() || target->client == nullptr) continue;
    jobs.push_back({&cluster, live, target->client});
  }
  std::vector<std::vector<Finding>> per_cluster(jobs.size());
  base::run_parallel(jobs.size(), options.parallelism, [&](std::size_t i) {
    per_cluster[i] = check_cluster(fleet, *jobs[i].plan, *jobs[i].live, *jobs[i].client);
  });
  std::vector<Finding> out;
  for (std::vector<Finding>& findings : per_cluster) {
    for (Finding& finding : findings) out.push_back(std::move(finding));
  }
  std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
    return a.severity == Severity::Error && b.severity != Severity::Error;
  });
  return out;
}

}  // namespace mkq::preflight
