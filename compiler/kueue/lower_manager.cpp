// The manager's objects: the queues users submit to, Kueue's MultiKueue wiring
// (AdmissionCheck -> MultiKueueConfig -> MultiKueueCluster -> kubeconfig
// Secret), Kueue's configuration and the users' access. docs/render.md lists
// every object and the policy field it comes from.
#include <string>

#include "compiler/kueue/lower_internal.h"
#include "compiler/kueue/yaml_emit.h"

namespace mkq::kueue::detail {

namespace {

using schema::Kind;

// What a rendered kubeconfig Secret holds instead of a credential. `mkq apply`
// writes the real kubeconfig; a rendered file never contains one.
std::string credential_placeholder(const model::Worker& worker) {
  return "placeholder (mkq apply writes the kubeconfig of worker " + worker.name +
         " here; rendered output never holds a credential)";
}

Object cluster_queue_object(const LowerContext& context, const model::ClusterQueue& queue, const std::string& cluster) {
  Object object = make_object(context, Kind::ClusterQueue, queue.name, "", queue.name_range);
  Json spec = object_with_capacity(12);
  spec["namespaceSelector"] = namespace_selector_json(queue.namespaces);
  if (!queue.resource_groups.empty()) spec["resourceGroups"] = resource_groups_json(queue.resource_groups);
  add_scheduling_fields(queue, spec);
  if (queue.stop_policy) spec["stopPolicy"] = std::string(to_string(queue.stop_policy->value));
  if (queue.dispatch) {
    spec["admissionChecksStrategy"] =
        Json::object({{"admissionChecks", Json::array({Json::object({{"name", *queue.dispatch}})})}});
    object.depends_on.push_back(address_of(cluster, Kind::AdmissionCheck, "", *queue.dispatch));
  }
  object.document["spec"] = std::move(spec);
  for (const model::ResourceGroup& group : queue.resource_groups) {
    for (const model::FlavorQuotas& flavor : group.flavors) {
      object.depends_on.push_back(address_of(cluster, Kind::ResourceFlavor, "", flavor.flavor.name));
    }
  }
  if (queue.cohort) object.depends_on.push_back(address_of(cluster, Kind::Cohort, "", queue.cohort->name));
  return object;
}

// One dispatch: its AdmissionCheck and MultiKueueConfig.
void add_dispatch_objects(const LowerContext& context, const model::Dispatch& dispatch, ClusterOut& out) {
  Object check = make_object(context, Kind::AdmissionCheck, dispatch.name, "", dispatch.name_range);
  Json parameters = Json::object();
  parameters["apiGroup"] = std::string(schema::kKueueGroup);
  parameters["kind"] = std::string(schema::kMultiKueueConfigKind);
  parameters["name"] = dispatch.config_name.value;
  Json spec = Json::object();
  spec["controllerName"] = std::string(schema::kMultiKueueControllerName);
  spec["parameters"] = std::move(parameters);
  check.document["spec"] = std::move(spec);
  check.depends_on.push_back(address_of(out.cluster, Kind::MultiKueueConfig, "", dispatch.config_name.value));
  out.objects.add(std::move(check));

  const diag::SourceRange config_origin =
      dispatch.config_name.range.valid() ? dispatch.config_name.range : dispatch.name_range;
  Object config = make_object(context, Kind::MultiKueueConfig, dispatch.config_name.value, "", config_origin);
  Json clusters = Json::array();
  for (const model::Ref& worker : dispatch.workers) {
    clusters.push_back(worker.name);
    config.depends_on.push_back(address_of(out.cluster, Kind::MultiKueueCluster, "", worker.name));
  }
  config.document["spec"] = Json::object({{"clusters", std::move(clusters)}});
  out.objects.add(std::move(config));
}

// One worker as the manager sees it: its MultiKueueCluster and, unless the
// worker is reached through a ClusterProfile, the kubeconfig Secret.
void add_worker_connection(const LowerContext& context, const model::Worker& worker, ClusterOut& out) {
  const std::string& kueue_namespace = context.policy.kueue.namespace_name.value;
  Object cluster = make_object(context, Kind::MultiKueueCluster, worker.name, "", worker.name_range);
  Json source = Json::object();
  if (worker.credentials.mode.value == model::CredentialsMode::ClusterProfile) {
    source["clusterProfileRef"] = Json::object({{"name", worker.credentials.cluster_profile.value}});
  } else {
    Json kube_config = Json::object();
    kube_config["locationType"] = "Secret";
    kube_config["location"] = worker.secret_name.value;
    source["kubeConfig"] = std::move(kube_config);
    cluster.depends_on.push_back(address_of(out.cluster, Kind::Secret, kueue_namespace, worker.secret_name.value));

    const diag::SourceRange secret_origin =
        worker.secret_name.range.valid() ? worker.secret_name.range : worker.name_range;
    Object secret = make_object(context, Kind::Secret, worker.secret_name.value, kueue_namespace, secret_origin);
    secret.document["metadata"]["annotations"] = Json::object({{"mkq.dev/credential", "placeholder"}});
    secret.document["type"] = "Opaque";
    secret.document["stringData"] =
        Json::object({{std::string(schema::kKubeconfigSecretKey), credential_placeholder(worker)}});
    secret.holds_credential_placeholder = true;
    out.objects.add(std::move(secret));
  }
  cluster.document["spec"] = Json::object({{"clusterSource", std::move(source)}});
  out.objects.add(std::move(cluster));
}

// Kueue's Configuration (config.kueue.x-k8s.io/v1beta2) from the kueue block
// and the dispatches' Kueue-wide settings: the settings mkq manages
// (schema::kManagedConfigurationPaths), only those the policy sets. `mkq
// render` shows this document; apply merges it into the configuration the
// cluster holds, keeping every other setting (runtime/reconcile/kueue_config.h).
Json access_provider_json(const model::AccessProvider& provider) {
  Json exec = Json::object();
  exec["apiVersion"] = provider.api_version.value;
  exec["command"] = provider.command.value;
  if (!provider.args.empty()) {
    Json args = Json::array();
    for (const auto& arg : provider.args) args.push_back(arg.value);
    exec["args"] = std::move(args);
  }
  if (!provider.env.empty()) {
    Json env = Json::array();
    for (const model::ExecEnvVar& var : provider.env) {
      env.push_back(Json::object({{"name", var.name.value}, {"value", var.value.value}}));
    }
    exec["env"] = std::move(env);
  }
  // Required by Kueue's validation; client-go runs the plugin non-interactively anyway.
  exec["interactiveMode"] = "Never";
  if (provider.provide_cluster_info) exec["provideClusterInfo"] = provider.provide_cluster_info->value;
  return Json::object({{"name", provider.name}, {"execConfig", std::move(exec)}});
}

Json kueue_configuration(const model::Policy& policy) {
  const model::KueueSettings& kueue = policy.kueue;
  Json config = Json::object();
  config["apiVersion"] = std::string(schema::kKueueConfigApiVersion);
  config["kind"] = std::string(schema::kKueueConfigKind);
  config["namespace"] = kueue.namespace_name.value;
  if (kueue.manage_jobs_without_queue_name) {
    config["manageJobsWithoutQueueName"] = kueue.manage_jobs_without_queue_name->value;
  }
  if (kueue.managed_namespaces) {
    Json labels = Json::object();
    for (const auto& [key, value] : kueue.managed_namespaces->value) labels[key] = value;
    config["managedJobsNamespaceSelector"] = Json::object({{"matchLabels", std::move(labels)}});
  }
  if (kueue.gang_scheduling && kueue.gang_scheduling->enable.value) {
    const model::GangScheduling& gang = *kueue.gang_scheduling;
    Json wait = Json::object();
    // v1beta2: the block's presence enables it; timeout is required (Kueue's default is 5 minutes).
    wait["timeout"] = gang.timeout ? gang.timeout->value.to_go_string() : std::string("5m0s");
    if (gang.block_admission) wait["blockAdmission"] = gang.block_admission->value;
    if (gang.recovery_timeout) wait["recoveryTimeout"] = gang.recovery_timeout->value.to_go_string();
    config["waitForPodsReady"] = std::move(wait);
  }
  Json frameworks = Json::array();
  for (const auto& integration : kueue.integrations) frameworks.push_back(integration.value);
  config["integrations"] = Json::object({{"frameworks", std::move(frameworks)}});
  if (kueue.fair_sharing && kueue.fair_sharing->enable.value) {
    Json fair = Json::object();
    if (!kueue.fair_sharing->preemption_strategies.empty()) {
      Json strategies = Json::array();
      for (const auto& s : kueue.fair_sharing->preemption_strategies) strategies.push_back(std::string(to_string(s.value)));
      fair["preemptionStrategies"] = std::move(strategies);
    }
    config["fairSharing"] = std::move(fair);
  }
  const model::MultiKueueSettings& mk = kueue.multikueue;
  Json multikueue = Json::object();
  if (mk.gc_interval) multikueue["gcInterval"] = mk.gc_interval->value.to_go_string();
  if (mk.origin.range.valid() || mk.origin.value != "multikueue") multikueue["origin"] = mk.origin.value;
  if (mk.worker_lost_timeout) multikueue["workerLostTimeout"] = mk.worker_lost_timeout->value.to_go_string();
  if (mk.dispatcher.range.valid() || mk.dispatcher.value.mode != model::DispatchMode::AllAtOnce) {
    multikueue["dispatcherName"] = mk.dispatcher.value.kueue_name();
  }
  if (mk.dispatcher.value.mode == model::DispatchMode::Incremental) {
    multikueue["incrementalDispatcherConfig"] = Json::object({{"stepSize", mk.step.value}});
  }
  if (!kueue.external_frameworks.empty()) {
    Json external = Json::array();
    for (const auto& name : kueue.external_frameworks) external.push_back(Json::object({{"name", name.value}}));
    multikueue["externalFrameworks"] = std::move(external);
  }
  if (!mk.access_providers.empty()) {
    Json providers = Json::array();
    for (const model::AccessProvider& provider : mk.access_providers) providers.push_back(access_provider_json(provider));
    multikueue["clusterProfile"] = Json::object({{"accessProviders", std::move(providers)}});
  }
  if (!multikueue.empty()) config["multiKueue"] = std::move(multikueue);
  // clusterProfileRef works only with this alpha gate (off by default); without
  // it the MultiKueueCluster stays inactive (MultiKueueClusterProfileFeatureDisabled).
  if (policy.uses_cluster_profiles()) {
    config["featureGates"] = Json::object({{std::string(schema::kClusterProfileFeatureGate), true}});
  }
  return config;
}

// The policy sets Kueue settings: a kueue block, or a dispatch that names a
// dispatcher, step or origin (Kueue-wide settings).
bool sets_kueue_configuration(const model::Policy& policy) {
  const model::KueueSettings& kueue = policy.kueue;
  const model::MultiKueueSettings& mk = kueue.multikueue;
  return kueue.declared || policy.uses_cluster_profiles() || mk.dispatcher.range.valid() || mk.step.range.valid() || mk.origin.range.valid() ||
         mk.dispatcher.value.mode != model::DispatchMode::AllAtOnce;
}

diag::SourceRange kueue_origin(const model::Policy& policy) {
  const model::KueueSettings& kueue = policy.kueue;
  if (kueue.range.valid()) return kueue.range;
  if (kueue.multikueue.dispatcher.range.valid()) return kueue.multikueue.dispatcher.range;
  if (kueue.multikueue.step.range.valid()) return kueue.multikueue.step.range;
  return kueue.multikueue.origin.range;
}

void add_kueue_configuration(const LowerContext& context, ClusterOut& out) {
  const model::KueueSettings& kueue = context.policy.kueue;
  // On OpenShift the operator owns Kueue's ConfigMap (it would overwrite
  // mkq's): its `Kueue` resource is the configuration, and always rendered,
  // since the operator runs Kueue only once it exists.
  if (kueue.platform.value == model::Platform::OpenShift) {
    out.objects.add(openshift_kueue_object(context));
    return;
  }
  if (!sets_kueue_configuration(context.policy)) return;
  // Kueue's own labels on its ConfigMap (as installed) stay, beside mkq's.
  const model::Labels kueue_labels = {{"app.kubernetes.io/name", "kueue"}, {"control-plane", "controller-manager"}};
  Object map = make_object(context, Kind::ConfigMap, std::string(schema::kKueueConfigMapName),
                           kueue.namespace_name.value, kueue_origin(context.policy), kueue_labels);
  map.document["data"] =
      Json::object({{std::string(schema::kKueueConfigMapKey), to_yaml(kueue_configuration(context.policy))}});
  map.kueue_configuration = true;
  map.restart_kueue = kueue.restart.value;
  out.objects.add(std::move(map));
}

void add_access(const LowerContext& context, const model::Access& access, ClusterOut& out) {
  const bool namespaced = access.namespace_name.has_value();
  const Kind kind = namespaced ? Kind::RoleBinding : Kind::ClusterRoleBinding;
  Object binding = make_object(context, kind, access.name, namespaced ? access.namespace_name->value : "",
                               access.name_range);
  Json role_ref = Json::object();
  role_ref["apiGroup"] = std::string(schema::kRbacGroup);
  role_ref["kind"] = "ClusterRole";
  role_ref["name"] = std::string(access.role.value == model::AccessRole::BatchAdmin ? schema::kBatchAdminRole
                                                                                      : schema::kBatchUserRole);
  Json subjects = Json::array();
  for (const auto& user : access.users) {
    subjects.push_back(Json::object({{"kind", "User"}, {"apiGroup", std::string(schema::kRbacGroup)}, {"name", user.value}}));
  }
  for (const auto& group : access.groups) {
    subjects.push_back(
        Json::object({{"kind", "Group"}, {"apiGroup", std::string(schema::kRbacGroup)}, {"name", group.value}}));
  }
  binding.document["roleRef"] = std::move(role_ref);
  binding.document["subjects"] = std::move(subjects);
  if (namespaced) {
    binding.depends_on.push_back(address_of(out.cluster, Kind::Namespace, "", access.namespace_name->value));
  }
  out.objects.add(std::move(binding));
}

}  // namespace

void lower_manager(const LowerContext& context, ClusterOut& out) {
  const model::Policy& policy = context.policy;

  for (const model::Namespace& ns : policy.namespaces) out.objects.add(namespace_object(context, ns));
  add_kueue_configuration(context, out);
  for (const model::Access& access : policy.access) add_access(context, access, out);
  for (const model::Topology& topology : policy.topologies) out.objects.add(topology_object(context, topology));
  for (const model::Flavor& flavor : policy.flavors) out.objects.add(flavor_object(context, flavor, out.cluster));
  for (const model::Cohort& cohort : policy.cohorts) {
    out.objects.add(cohort_object(context, cohort, cohort.resource_groups, out.cluster));
  }
  for (const model::PriorityClass& priority : policy.priority_classes) {
    out.objects.add(priority_class_object(context, priority));
  }
  for (const model::Worker& worker : policy.workers) add_worker_connection(context, worker, out);
  for (const model::Dispatch& dispatch : policy.dispatches) add_dispatch_objects(context, dispatch, out);
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    out.objects.add(cluster_queue_object(context, queue, out.cluster));
  }
  for (const model::LocalQueue& queue : policy.local_queues) {
    out.objects.add(local_queue_object(context, queue, out.cluster, queue.cluster_queue.name, QueueCopy::Manager));
  }
}

}  // namespace mkq::kueue::detail
