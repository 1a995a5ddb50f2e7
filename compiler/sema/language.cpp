// The language table (see language.h). Enum values come from the model's
// value arrays (model.h), the one home of their spelling; Kueue's descriptions
// from the generated language_kueue_docs.cpp.
#include "compiler/sema/language.h"

#include <algorithm>
#include <array>

#include "compiler/sema/model.h"

namespace mkq::sema::language {
namespace {

template <typename E, std::size_t N>
std::vector<std::string_view> values_of(const std::array<E, N>& values) {
  std::vector<std::string_view> result;
  for (const E value : values) result.push_back(model::to_string(value));
  return result;
}

Field field(std::string_view name, std::string_view type, std::string_view default_value, std::string_view doc,
            KueueField kueue = {}) {
  return Field{name, type, {}, default_value, doc, kueue, {}};
}

Field enum_field(std::string_view name, std::vector<std::string_view> values, std::string_view default_value,
                 std::string_view doc, KueueField kueue = {}) {
  return Field{name, "a string, one of the values", std::move(values), default_value, doc, kueue, {}};
}

// A map (or a list of maps) with fixed keys.
Field keyed_field(std::string_view name, std::string_view type, std::vector<std::string_view> keys,
                  std::string_view default_value, std::string_view doc, KueueField kueue = {}) {
  return Field{name, type, {}, default_value, doc, kueue, std::move(keys)};
}

// Every block of the language, built once in place (children point at
// siblings: the table never moves).
class Table {
 public:
  Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  std::vector<const Block*> top;

 private:
  void quota_blocks(std::string_view kind, Block& quota, Block& group);
  static Block fair_sharing(std::string_view kind, std::string_view doc);
  static void fill_descriptions(Block& block);

  Block policy, manager, state, sync;
  Block worker, capacity, credentials, override_, override_quota, override_group;
  Block flavor, topology;
  Block cohort, cohort_quota, cohort_group, cohort_fair_sharing;
  Block cluster_queue, queue_quota, queue_group, queue_fair_sharing, preemption, fungibility;
  Block local_queue, local_fair_sharing;
  Block namespace_, priority_class, access, integration;
  Block dispatch, select;
  Block kueue, gang_scheduling, kueue_fair_sharing, multikueue, access_provider;
};

constexpr std::string_view kQuantity = "a quantity";
constexpr std::string_view kString = "a string";
constexpr std::string_view kName = "a string (a name)";
constexpr std::string_view kBool = "true or false";
constexpr std::string_view kLabelMap = "a map of labels";
constexpr std::string_view kStringList = "a list of strings";

// `quota "FLAVOR" { ... }` and `group { quota ... }` of a cluster queue, cohort or override (`kind`).
void Table::quota_blocks(std::string_view kind, Block& quota, Block& group) {
  quota = Block{"quota",
                {"a flavor", InLabel::Forbidden, "quota \"FLAVOR\" { cpu = 8, memory = 32Gi }"},
                "a flavor's quota of each resource",
                {kind, "spec.resourceGroups[].flavors", {}},
                {},
                {},
                true,
                true,
                keyed_field({}, "a quantity, or { nominal: Q, borrowing_limit: Q, lending_limit: Q }",
                            {"nominal", "borrowing_limit", "lending_limit"}, {},
                            "the flavor's quota of the resource this field names",
                            {kind, "spec.resourceGroups[].flavors[].resources[].nominalQuota", {}})};
  group = Block{"group",
                {},
                "a resource group: quota blocks that cover the same resources",
                {kind, "spec.resourceGroups", {}},
                {},
                {&quota},
                true};
}

Block Table::fair_sharing(std::string_view kind, std::string_view doc) {
  return Block{"fair_sharing",
               {},
               doc,
               {kind, "spec.fairSharing", {}},
               {field("weight", kQuantity, "Kueue's default (1)",
                      "the share of unused quota this one gets under fair sharing: 0, or more than 1n",
                      {kind, "spec.fairSharing.weight", {}})}};
}

Table::Table() {
  policy = Block{"policy", {"a name", InLabel::Forbidden, "policy \"NAME\" {}"},
                 "the policy's identity: the mkq.dev/policy label of every object mkq writes"};

  state = Block{"state",
                {},
                "keep the policy's state in the manager cluster",
                {},
                {field("namespace", "a string (a DNS-1123 label)", "\"mkq-system\"",
                       "where the state's Secrets and lock live; it must exist"),
                 field("name", "a string (a DNS-1123 label, at most 40 characters)", "the policy's identity",
                       "the state's index Secret; its chunks and lock are named after it")}};
  sync = Block{"sync",
               {},
               "what mkq controller does with the policy",
               {},
               {enum_field("mode", values_of(model::kSyncModes), "\"manual\"",
                           "auto: apply what the policy asks; manual: report it"),
                field("self_heal", kBool, "false", "repair drift: objects mkq applied, changed or deleted outside mkq"),
                field("prune", kBool, "false", "delete objects mkq applied that the policy no longer declares"),
                field("interval", "a duration above zero", "5min", "plan at least this often")}};
  manager = Block{"manager",
                  {"a name", InLabel::Forbidden, "manager \"NAME\" { ... }"},
                  "the cluster users submit jobs to, where the MultiKueue objects live",
                  {},
                  {field("context", kString, "the manager's name", "the kubeconfig context that reaches the manager"),
                   field("kubeconfig", kString, {},
                         "path of a kubeconfig file; unset: --kubeconfig, else $KUBECONFIG, else ~/.kube/config"),
                   field("labels", kLabelMap, "{}", "descriptive labels of the cluster")},
                  {&state, &sync}};

  capacity = Block{"capacity",
                   {"a flavor", InLabel::Forbidden, "capacity \"FLAVOR\" { cpu = 8, memory = 32Gi }"},
                   "what the worker offers of each resource of a flavor, shared by the queues it serves",
                   {},
                   {},
                   {},
                   true,
                   true,
                   field({}, kQuantity, {}, "the worker's capacity of the resource this field names")};
  credentials = Block{
      "credentials",
      {},
      "how the manager gets a kubeconfig for the worker",
      {"MultiKueueCluster", "spec.clusterSource", {}},
      {enum_field("mode", values_of(model::kCredentialsModes), "\"serviceaccount\"",
                  "serviceaccount: mkq creates a service account and requests its token; kubeconfig: a given "
                  "kubeconfig; clusterprofile: Kueue reads a ClusterProfile"),
       field("service_account", kName, "\"multikueue-sa\"",
             "the ServiceAccount mkq creates on the worker (mode serviceaccount)"),
       field("lifetime", "a duration above zero", "30d", "lifetime of the token mkq requests (mode serviceaccount)"),
       field("rotate_before", "a duration above zero", "7d",
             "rotate the token this long before it expires; shorter than lifetime (mode serviceaccount)"),
       field("kubeconfig", "a secret", {}, "the kubeconfig to store in the worker's Secret (mode kubeconfig)"),
       field("token", "a secret", {}, "a pre-issued token, used instead of requesting one (mode serviceaccount)"),
       field("cluster_profile", kName, "the worker's name",
             "the ClusterProfile in Kueue's namespace (mode clusterprofile)",
             {"MultiKueueCluster", "spec.clusterSource.clusterProfileRef.name", {}})}};
  quota_blocks("ClusterQueue", override_quota, override_group);
  override_ = Block{"override",
                    {"a cluster queue", InLabel::Forbidden, "override \"CLUSTERQUEUE\" { name = \"...\" }"},
                    "this worker's version of a mirrored ClusterQueue: another name and/or its own quotas",
                    {"ClusterQueue", {}, {}},
                    {field("name", kName, "the queue's worker_name", "the ClusterQueue's name on this worker",
                           {"ClusterQueue", "metadata.name", {}})},
                    {&override_quota, &override_group},
                    true};
  worker = Block{
      "worker",
      {"a name", InLabel::Forbidden, "worker \"NAME\" { ... }"},
      "a worker cluster: a MultiKueueCluster and its kubeconfig Secret on the manager",
      {"MultiKueueCluster", {}, {}},
      {field("context", kString, "the worker's name", "the kubeconfig context that reaches the worker"),
       field("kubeconfig", kString, {}, "path of a kubeconfig file (as for the manager)"),
       field("labels", kLabelMap, "{}", "properties a dispatch's select matches; not rendered"),
       field("priority", "an integer", "0", "dispatch order for select { order = \"priority\" }: higher first"),
       field("secret", kName, "\"NAME-kubeconfig\"", "the kubeconfig Secret on the manager, in Kueue's namespace",
             {"MultiKueueCluster", "spec.clusterSource.kubeConfig.location", {}})},
      {&capacity, &override_, &credentials}};

  flavor = Block{
      "flavor",
      {"a name", InLabel::Forbidden, "flavor \"NAME\" { ... }"},
      "a ResourceFlavor",
      {"ResourceFlavor", {}, {}},
      {field("node_labels", kLabelMap, "{}", "the labels of the flavor's nodes (at most 8)",
             {"ResourceFlavor", "spec.nodeLabels", {}}),
       keyed_field("taints", "a list of { key, value, effect } maps", {"key", "value", "effect"}, "[]",
                   "the taints of the flavor's nodes (at most 8)", {"ResourceFlavor", "spec.nodeTaints", {}}),
       keyed_field("tolerations", "a list of { key, operator, value, effect, toleration_seconds } maps",
                   {"key", "operator", "value", "effect", "toleration_seconds"}, "[]",
                   "tolerations added to the pods of admitted workloads (at most 8)",
                   {"ResourceFlavor", "spec.tolerations", {}}),
       field("topology", kName, {}, "a declared topology, for Topology Aware Scheduling",
             {"ResourceFlavor", "spec.topologyName", {}})}};
  topology = Block{"topology",
                   {"a name", InLabel::Forbidden, "topology \"NAME\" { ... }"},
                   "a Topology for Topology Aware Scheduling",
                   {"Topology", {}, {}},
                   {field("levels", "a list of label keys", {}, "the node labels of the levels, highest first (1 to 16)",
                          {"Topology", "spec.levels[].nodeLabel", {}})}};

  quota_blocks("Cohort", cohort_quota, cohort_group);
  cohort_fair_sharing = fair_sharing("Cohort", "the cohort's weight under fair sharing");
  cohort = Block{"cohort",
                 {"a name", InLabel::Forbidden, "cohort \"NAME\" { ... }"},
                 "a Cohort: cluster queues in one cohort borrow each other's unused quota",
                 {"Cohort", {}, {}},
                 {field("parent", kName, {}, "the parent cohort", {"Cohort", "spec.parentName", {}})},
                 {&cohort_quota, &cohort_group, &cohort_fair_sharing}};

  quota_blocks("ClusterQueue", queue_quota, queue_group);
  queue_fair_sharing = fair_sharing("ClusterQueue", "the queue's weight under fair sharing");
  preemption = Block{
      "preemption",
      {},
      "when pending workloads of this queue may preempt admitted ones",
      {"ClusterQueue", "spec.preemption", {}},
      {enum_field("within_cluster_queue", values_of(model::kWithinClusterQueuePolicies), "Kueue's default",
                  "preemption within this cluster queue", {"ClusterQueue", "spec.preemption.withinClusterQueue", {}}),
       enum_field("reclaim_within_cohort", values_of(model::kReclaimWithinCohortPolicies), "Kueue's default",
                  "preemption in the cohort to reclaim this queue's nominal quota",
                  {"ClusterQueue", "spec.preemption.reclaimWithinCohort", {}}),
       enum_field("borrow_within_cohort", values_of(model::kBorrowWithinCohortPolicies), "Kueue's default",
                  "preemption in the cohort while borrowing",
                  {"ClusterQueue", "spec.preemption.borrowWithinCohort.policy", {}}),
       field("borrow_max_priority_threshold", "an integer (int32)", {},
             "only workloads of at most this priority are preempted while borrowing",
             {"ClusterQueue", "spec.preemption.borrowWithinCohort.maxPriorityThreshold", {}})}};
  fungibility = Block{
      "flavor_fungibility",
      {},
      "whether a workload tries the next flavor before borrowing or preempting",
      {"ClusterQueue", "spec.flavorFungibility", {}},
      {enum_field("when_can_borrow", values_of(model::kFungibilityPolicies), "Kueue's default",
                  "what to do when the workload fits by borrowing",
                  {"ClusterQueue", "spec.flavorFungibility.whenCanBorrow", {}}),
       enum_field("when_can_preempt", values_of(model::kFungibilityPolicies), "Kueue's default",
                  "what to do when the workload fits by preempting",
                  {"ClusterQueue", "spec.flavorFungibility.whenCanPreempt", {}}),
       enum_field("preference", values_of(model::kFungibilityPreferences), "Kueue's default",
                  "borrowing or preemption first", {"ClusterQueue", "spec.flavorFungibility.preference", {}})}};

  local_fair_sharing = fair_sharing("LocalQueue", "the local queue's weight under fair sharing (in its cluster queue)");
  local_queue = Block{
      "localqueue",
      {"a name", InLabel::Required, "localqueue \"NAME\" in \"NAMESPACE\" { ... }"},
      "a LocalQueue in a namespace, pointing at a cluster queue",
      {"LocalQueue", {}, {}},
      {field("clusterqueue", kName, "the enclosing clusterqueue when nested",
             "the cluster queue this one sends to (required at the top level)",
             {"LocalQueue", "spec.clusterQueue", {}}),
       field("default", kBool, "false", "the namespace's default LocalQueue (it must be named \"default\")"),
       enum_field("stop_policy", values_of(model::kStopPolicies), "Kueue's default", "hold or drain the queue",
                  {"LocalQueue", "spec.stopPolicy", {}})},
      {&local_fair_sharing},
      true};

  cluster_queue = Block{
      "clusterqueue",
      {"a name", InLabel::Forbidden, "clusterqueue \"NAME\" { ... }"},
      "a ClusterQueue on the manager, mirrored on the workers its dispatches send to",
      {"ClusterQueue", {}, {}},
      {field("namespaces", "all, a list of namespace names or a map of labels", "all",
             "the namespaces that may submit to this queue", {"ClusterQueue", "spec.namespaceSelector", {}}),
       field("cohort", kName, {}, "the cohort this queue borrows in", {"ClusterQueue", "spec.cohortName", {}}),
       enum_field("queueing_strategy", values_of(model::kQueueingStrategies), "Kueue's default (\"BestEffortFIFO\")",
                  "the order of pending workloads", {"ClusterQueue", "spec.queueingStrategy", {}}),
       enum_field("stop_policy", values_of(model::kStopPolicies), "Kueue's default (\"None\")",
                  "hold or drain the queue", {"ClusterQueue", "spec.stopPolicy", {}}),
       field("worker_name", kName, "the queue's name", "the mirrored ClusterQueue's name on the workers",
             {"ClusterQueue", "metadata.name", {}})},
      {&queue_quota, &queue_group, &local_queue, &preemption, &queue_fair_sharing, &fungibility}};

  namespace_ = Block{"namespace",
                     {"a name", InLabel::Forbidden, "namespace \"NAME\" { ... }"},
                     "a Namespace on the manager and the workers",
                     {"Namespace", {}, {}},
                     {field("labels", kLabelMap, "{}", "the namespace's labels", {"Namespace", "metadata.labels", {}})}};
  priority_class = Block{
      "priorityclass",
      {"a name", InLabel::Forbidden, "priorityclass \"NAME\" { value = 100 }"},
      "a WorkloadPriorityClass",
      {"WorkloadPriorityClass", {}, {}},
      {field("value", "an integer (int32)", {}, "the priority; higher is more important (required)",
             {"WorkloadPriorityClass", "value", {}}),
       field("description", "a string (at most 2048 bytes)", {}, "what the class is for",
             {"WorkloadPriorityClass", "description", {}})}};
  access = Block{
      "access",
      {"a name", InLabel::Optional, "access \"NAME\" [in \"NAMESPACE\"] { ... }"},
      "a RoleBinding (in a namespace) or ClusterRoleBinding to Kueue's batch roles",
      {"RoleBinding", {}, {}},
      {enum_field("role", values_of(model::kAccessRoles), {}, "Kueue's batch user or admin role (required)",
                  {"RoleBinding", "roleRef.name", {}}),
       field("users", kStringList, "[]", "the users bound", {"RoleBinding", "subjects[].name", {}}),
       field("groups", kStringList, "[]", "the groups bound", {"RoleBinding", "subjects[].name", {}})}};
  integration = Block{
      "integration",
      {"a framework name", InLabel::Forbidden, "integration \"GROUP/KIND\" { rules = [...] }"},
      "a job framework MultiKueue may dispatch, with the API resources workers must grant",
      {},
      {keyed_field("rules", "a list of { group, resources } maps", {"group", "resources"}, {},
                   "one rule per API group: the resources of the framework's objects (required)",
                   {"ClusterRole", "rules[]", {}})}};

  select = Block{
      "select",
      {},
      "a selection of workers by their labels, instead of a list",
      {"MultiKueueConfig", "spec.clusters", {}},
      {field("labels", kLabelMap, "{} (every worker)", "the labels a worker must have"),
       enum_field("order", values_of(model::kWorkerOrders), "\"priority\"", "the order of the selected workers"),
       field("resource", "a string (a resource name)", {},
             "with order \"most-free\" only: the resource whose free amount orders the workers"),
       field("limit", "an integer of at least 1", {}, "keep only the first limit workers")}};
  dispatch = Block{
      "dispatch",
      {"a name", InLabel::Forbidden, "dispatch \"NAME\" { ... }"},
      "MultiKueue dispatch: an AdmissionCheck and a MultiKueueConfig for cluster queues",
      {"AdmissionCheck", {}, {}},
      {field("config", "a string (a DNS-1123 label)", "the dispatch's name", "the MultiKueueConfig's name",
             {"AdmissionCheck", "spec.parameters.name", {}}),
       field("queues", "a list of cluster queue names", {}, "the cluster queues that get this admission check (required)",
             {"ClusterQueue", "spec.admissionChecksStrategy.admissionChecks[].name", {}}),
       field("workers", "a list of worker names", {}, "the workers, in dispatch order (or a select block)",
             {"MultiKueueConfig", "spec.clusters", {}}),
       Field{"mode", "a string: a dispatcher", {"all-at-once", "incremental"}, "\"all-at-once\"",
             "how MultiKueue dispatches (Kueue-wide); another string names an external dispatcher",
             {"Configuration", "multiKueue.dispatcherName", {}}, {}},
       field("step", "an integer of at least 1", "3", "workers added per step of the incremental dispatcher",
             {"Configuration", "multiKueue.incrementalDispatcherConfig.stepSize", {}}),
       field("origin", "a string (a label value)", "\"multikueue\"", "the label value of MultiKueue's objects",
             {"Configuration", "multiKueue.origin", {}})},
      {&select}};

  gang_scheduling = Block{
      "gang_scheduling",
      {},
      "all-or-nothing scheduling: Kueue's waitForPodsReady",
      {"Configuration", "waitForPodsReady", {}},
      {field("enable", kBool, "true", "render waitForPodsReady"),
       field("timeout", "a duration above zero", "Kueue's default", "how long admitted pods have to become ready",
             {"Configuration", "waitForPodsReady.timeout", {}}),
       field("recovery_timeout", "a duration above zero", "Kueue's default",
             "how long a workload's pods have to become ready again",
             {"Configuration", "waitForPodsReady.recoveryTimeout", {}}),
       field("block_admission", kBool, "Kueue's default", "admit one workload at a time until its pods are ready",
             {"Configuration", "waitForPodsReady.blockAdmission", {}})}};
  kueue_fair_sharing = Block{
      "fair_sharing",
      {},
      "fair sharing between cluster queues (Kueue-wide)",
      {"Configuration", "fairSharing", {}},
      {field("enable", kBool, "true", "render fairSharing"),
       Field{"preemption_strategies", "a list of strings, each one of the values",
             values_of(model::kFairSharingPreemptionStrategies), "Kueue's default",
             "the strategies fair sharing preempts by, in order",
             {"Configuration", "fairSharing.preemptionStrategies", {}}, {}}}};
  access_provider = Block{
      "access_provider",
      {"a name", InLabel::Forbidden, "access_provider \"NAME\" { command = ... }"},
      "an exec plugin Kueue runs to get a worker's credentials from its ClusterProfile",
      {"Configuration", "multiKueue.clusterProfile.accessProviders[]", {}},
      {field("command", "a string (not empty)", {}, "the plugin's path in Kueue's container (required)",
             {"Configuration", "multiKueue.clusterProfile.accessProviders[].execConfig.command", {}}),
       field("args", kStringList, "[]", "the plugin's arguments",
             {"Configuration", "multiKueue.clusterProfile.accessProviders[].execConfig.args", {}}),
       field("env", "a map of strings", "{}", "the plugin's environment",
             {"Configuration", "multiKueue.clusterProfile.accessProviders[].execConfig.env[]", {}}),
       Field{"api_version", "a string, one of the values",
             {model::kExecApiV1, model::kExecApiV1beta1}, "\"client.authentication.k8s.io/v1\"",
             "the exec credential API version",
             {"Configuration", "multiKueue.clusterProfile.accessProviders[].execConfig.apiVersion", {}}, {}},
       field("provide_cluster_info", kBool, "false", "pass the cluster's information to the plugin",
             {"Configuration", "multiKueue.clusterProfile.accessProviders[].execConfig.provideClusterInfo", {}})},
      {},
      true};
  multikueue = Block{
      "multikueue",
      {},
      "Kueue's MultiKueue settings",
      {"Configuration", "multiKueue", {}},
      {field("gc_interval", "a duration of at least zero", "Kueue's default (1min)",
             "how often MultiKueue collects orphaned objects on the workers; 0 turns it off",
             {"Configuration", "multiKueue.gcInterval", {}}),
       field("worker_lost_timeout", "a duration of at least zero", "Kueue's default (15min)",
             "how long a workload waits for a lost worker", {"Configuration", "multiKueue.workerLostTimeout", {}}),
       field("origin", "a string (a label value)", "\"multikueue\"", "the label value of MultiKueue's objects",
             {"Configuration", "multiKueue.origin", {}}),
       Field{"dispatcher", "a string: a dispatcher", {"all-at-once", "incremental"}, "\"all-at-once\"",
             "how MultiKueue dispatches; another string names an external dispatcher",
             {"Configuration", "multiKueue.dispatcherName", {}}, {}},
       field("step", "an integer of at least 1", "3", "workers added per step of the incremental dispatcher",
             {"Configuration", "multiKueue.incrementalDispatcherConfig.stepSize", {}})},
      {&access_provider}};
  kueue = Block{
      "kueue",
      {},
      "Kueue's configuration on the manager and the workers",
      {"Configuration", {}, {}},
      {enum_field("platform", values_of(model::kPlatforms), "\"kubernetes\"",
                  "Kueue's own build (a ConfigMap) or the Red Hat build of Kueue (its operator's Kueue resource)"),
       field("namespace", "a string (a DNS-1123 label)", "\"kueue-system\" (\"openshift-kueue-operator\" on OpenShift)",
             "where Kueue runs, and where the workers' Secrets are", {"Configuration", "namespace", {}}),
       field("integrations", "a list of framework names", "[\"batch/job\"]", "the job frameworks Kueue manages",
             {"Configuration", "integrations.frameworks", {}}),
       field("manage_jobs_without_queue_name", kBool, "Kueue's default (false)",
             "whether Kueue manages jobs that name no queue", {"Configuration", "manageJobsWithoutQueueName", {}}),
       field("managed_namespaces", kLabelMap, {}, "the namespaces whose jobs Kueue manages",
             {"Configuration", "managedJobsNamespaceSelector.matchLabels", {}}),
       field("external_frameworks", "a list of \"Kind.version.group\" strings", "[]",
             "job kinds MultiKueue dispatches with its generic adapter",
             {"Configuration", "multiKueue.externalFrameworks[].name", {}}),
       field("restart", kBool, "true", "restart Kueue's controller manager after apply changed its configuration")},
      {&gang_scheduling, &kueue_fair_sharing, &multikueue}};

  top = {&policy, &manager, &worker,         &flavor,   &topology, &cohort, &cluster_queue,
         &local_queue, &namespace_, &priority_class, &dispatch, &kueue,    &access, &integration};
  for (Block* block : {&policy, &manager, &state, &sync, &worker, &capacity, &credentials, &override_,
                       &override_quota, &override_group, &flavor, &topology, &cohort, &cohort_quota, &cohort_group,
                       &cohort_fair_sharing, &cluster_queue, &queue_quota, &queue_group, &queue_fair_sharing,
                       &preemption, &fungibility, &local_queue, &local_fair_sharing, &namespace_, &priority_class,
                       &access, &integration, &dispatch, &select, &kueue, &gang_scheduling, &kueue_fair_sharing,
                       &multikueue, &access_provider}) {
    fill_descriptions(*block);
  }
}

// Kueue's description of the block's and its fields' Kueue fields, from the generated table.
void Table::fill_descriptions(Block& block) {
  const auto fill = [](KueueField& kueue) {
    if (!kueue.kind.empty() && !kueue.path.empty()) kueue.description = kueue_description(kueue.kind, kueue.path);
  };
  fill(block.kueue);
  fill(block.resource.kueue);
  for (Field& f : block.fields) fill(f.kueue);
}

const Table& table() {
  static const Table instance;
  return instance;
}

}  // namespace

const Field* Block::field(std::string_view name) const {
  const auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == name; });
  return it == fields.end() ? nullptr : &*it;
}

const Block* Block::child(std::string_view kind_name) const {
  const auto it = std::find_if(children.begin(), children.end(), [&](const Block* b) { return b->kind == kind_name; });
  return it == children.end() ? nullptr : *it;
}

std::span<const Block* const> top_level() { return table().top; }

const Block* find(std::span<const std::string_view> path) {
  if (path.empty()) return nullptr;
  const auto& top = table().top;
  const auto it = std::find_if(top.begin(), top.end(), [&](const Block* b) { return b->kind == path.front(); });
  const Block* block = it == top.end() ? nullptr : *it;
  for (std::size_t i = 1; block != nullptr && i < path.size(); ++i) block = block->child(path[i]);
  return block;
}

const Block* find(std::initializer_list<std::string_view> path) {
  return find(std::span<const std::string_view>(path.begin(), path.size()));
}

const Field* find_field(std::span<const std::string_view> path, std::string_view name) {
  const Block* block = find(path);
  return block == nullptr ? nullptr : block->field(name);
}

}  // namespace mkq::sema::language
