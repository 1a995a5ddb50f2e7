// The block and field table behind hover and completion. The field lists are
// the binder's schemas (compiler/sema/bind_*.cpp) as of this writing; to be
// replaced by the language's schema (compiler/sema/language.h) when it lands.
#include "lsp/fields.h"

#include <algorithm>

namespace mkq::lsp {

namespace {

FieldInfo field(std::string name, std::string doc = {}, std::vector<std::string> values = {}) {
  return {std::move(name), std::move(doc), std::move(values)};
}

const std::vector<std::string> kPreemptionPolicies = {"Never", "LowerPriority", "LowerOrNewerEqualPriority", "Any"};
const std::vector<std::string> kStopPolicies = {"None", "Hold", "HoldAndDrain"};

// Keyed by "parent/kind" ("/kind" at the top level).
const std::vector<std::pair<std::string, BlockInfo>>& table() {
  static const std::vector<std::pair<std::string, BlockInfo>> blocks = {
      {"/policy", {"policy", "the policy's identity, carried by every object mkq writes", {}, {}}},
      {"/manager",
       {"manager", "the MultiKueue manager cluster",
        {field("context", "the kubeconfig context of the cluster"), field("kubeconfig", "a kubeconfig file"),
         field("labels", "labels of the cluster")},
        {"state", "sync"}}},
      {"manager/state", {"state", "where the state is kept in the manager", {field("namespace"), field("name")}, {}}},
      {"manager/sync",
       {"sync", "how `mkq controller` reconciles",
        {field("mode", "", {"manual", "automatic"}), field("self_heal"), field("prune"), field("interval")}, {}}},
      {"/worker",
       {"worker", "a MultiKueue worker cluster",
        {field("context", "the kubeconfig context of the cluster"), field("kubeconfig", "a kubeconfig file"),
         field("labels", "labels that dispatch selects workers by"), field("priority"), field("secret")},
        {"capacity", "override", "credentials"}}},
      {"worker/capacity", {"capacity", "the resources of a flavor this worker has", {}, {}, true}},
      {"worker/override", {"override", "a queue's quotas changed on this worker", {field("name")}, {"quota", "group"}}},
      {"worker/credentials",
       {"credentials", "how the manager reaches the worker",
        {field("mode"), field("service_account"), field("lifetime"), field("rotate_before"), field("kubeconfig"),
         field("token"), field("cluster_profile")},
        {}}},
      {"/flavor",
       {"flavor", "a ResourceFlavor: a kind of node",
        {field("node_labels", "the labels of the flavor's nodes"), field("taints"), field("tolerations"),
         field("topology", "the topology of the flavor's nodes")},
        {}}},
      {"/topology", {"topology", "a Topology: the levels of node labels", {field("levels")}, {}}},
      {"/cohort",
       {"cohort", "a Cohort: queues that borrow from each other", {field("parent", "the parent cohort")},
        {"quota", "group", "fair_sharing"}}},
      {"/clusterqueue",
       {"clusterqueue", "a ClusterQueue: quotas and admission",
        {field("namespaces", "the namespaces whose workloads it admits"), field("cohort", "the cohort it belongs to"),
         field("queueing_strategy", "the order of admission", {"BestEffortFIFO", "StrictFIFO"}),
         field("stop_policy", "", kStopPolicies), field("worker_name")},
        {"quota", "group", "localqueue", "preemption", "fair_sharing", "flavor_fungibility"}}},
      {"clusterqueue/localqueue",
       {"localqueue", "a LocalQueue pointing at this ClusterQueue",
        {field("default"), field("stop_policy", "", kStopPolicies)}, {"fair_sharing"}}},
      {"/localqueue",
       {"localqueue", "a LocalQueue: where a namespace submits workloads",
        {field("clusterqueue", "the ClusterQueue it points at"), field("default"),
         field("stop_policy", "", kStopPolicies)},
        {"fair_sharing"}}},
      {"/namespace", {"namespace", "a namespace mkq manages", {field("labels")}, {}}},
      {"/priorityclass",
       {"priorityclass", "a WorkloadPriorityClass", {field("value", "the priority"), field("description")}, {}}},
      {"/dispatch",
       {"dispatch", "a MultiKueue dispatch: which queues run on which workers",
        {field("config"), field("queues", "the ClusterQueues dispatched"),
         field("workers", "the workers they are dispatched to"), field("mode"), field("step"), field("origin")},
        {"select"}}},
      {"dispatch/select",
       {"select", "workers chosen by their labels",
        {field("labels"), field("order", "", {"name", "most-free"}), field("resource"), field("limit")}, {}}},
      {"/kueue",
       {"kueue", "Kueue's configuration",
        {field("platform"), field("namespace"), field("integrations", "the job frameworks Kueue manages"),
         field("manage_jobs_without_queue_name"), field("managed_namespaces"), field("external_frameworks"),
         field("restart")},
        {"gang_scheduling", "fair_sharing", "multikueue"}}},
      {"kueue/gang_scheduling",
       {"gang_scheduling", "waiting for all pods",
        {field("enable"), field("timeout"), field("recovery_timeout"), field("block_admission")}, {}}},
      {"kueue/fair_sharing",
       {"fair_sharing", "fair sharing between cohorts", {field("enable"), field("preemption_strategies")}, {}}},
      {"kueue/multikueue",
       {"multikueue", "MultiKueue's settings",
        {field("gc_interval"), field("worker_lost_timeout"), field("origin"), field("dispatcher"), field("step")},
        {"access_provider"}}},
      {"multikueue/access_provider",
       {"access_provider", "a credential plugin",
        {field("command"), field("args"), field("env"), field("api_version"), field("provide_cluster_info")}, {}}},
      {"/access", {"access", "who may submit to a queue", {field("role"), field("users"), field("groups")}, {}}},
      {"/integration", {"integration", "a job framework of the catalogue", {field("rules")}, {}}},
      {"clusterqueue/quota", {"quota", "the nominal quota of a flavor", {}, {}, true}},
      {"cohort/quota", {"quota", "the nominal quota of a flavor", {}, {}, true}},
      {"override/quota", {"quota", "the nominal quota of a flavor", {}, {}, true}},
      {"group/quota", {"quota", "the nominal quota of a flavor", {}, {}, true}},
      {"clusterqueue/group", {"group", "a resource group: resources that share flavors", {}, {"quota"}}},
      {"cohort/group", {"group", "a resource group: resources that share flavors", {}, {"quota"}}},
      {"override/group", {"group", "a resource group: resources that share flavors", {}, {"quota"}}},
      {"clusterqueue/preemption",
       {"preemption", "when workloads are preempted",
        {field("within_cluster_queue", "", kPreemptionPolicies), field("reclaim_within_cohort", "", kPreemptionPolicies),
         field("borrow_within_cohort", "", kPreemptionPolicies), field("borrow_max_priority_threshold")},
        {}}},
      {"clusterqueue/flavor_fungibility",
       {"flavor_fungibility", "when the next flavor is tried",
        {field("when_can_borrow", "", {"Borrow", "TryNextFlavor"}),
         field("when_can_preempt", "", {"Preempt", "TryNextFlavor"}), field("preference")},
        {}}},
      {"clusterqueue/fair_sharing", {"fair_sharing", "the queue's share", {field("weight")}, {}}},
      {"cohort/fair_sharing", {"fair_sharing", "the cohort's share", {field("weight")}, {}}},
      {"localqueue/fair_sharing", {"fair_sharing", "the queue's share", {field("weight")}, {}}},
  };
  return blocks;
}

}  // namespace

const BlockInfo* block_info(std::string_view parent, std::string_view kind) {
  const std::string key = std::string(parent) + "/" + std::string(kind);
  for (const auto& [path, info] : table()) {
    if (path == key) return &info;
  }
  return nullptr;
}

std::vector<std::string> block_kinds(std::string_view parent) {
  std::vector<std::string> kinds;
  for (const auto& [path, info] : table()) {
    const auto slash = path.find('/');
    if (std::string_view(path).substr(0, slash) == parent) kinds.push_back(info.kind);
  }
  std::sort(kinds.begin(), kinds.end());
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  return kinds;
}

}  // namespace mkq::lsp
