// A worker's objects: what it needs to serve the manager's dispatched queues
// (the same namespaces and LocalQueue names, its own ClusterQueue per queue,
// the flavors and topologies those use) and the MultiKueue ServiceAccount the
// manager connects as, with a least-privilege ClusterRole built from the
// policy's integration catalogue. docs/render.md lists every object.
#include <set>
#include <string>
#include <utility>

#include "compiler/kueue/lower_internal.h"

namespace mkq::kueue::detail {

namespace {

using schema::Kind;

// The queues a worker serves: those of every dispatch that lists it, in the
// policy's (name) order.
std::vector<const model::ClusterQueue*> served_queues(const model::Policy& policy, const model::Worker& worker) {
  std::vector<const model::ClusterQueue*> out;
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    if (!queue.dispatch) continue;
    const model::Dispatch* dispatch = policy.find_dispatch(*queue.dispatch);
    if (dispatch == nullptr) continue;
    for (const model::Ref& ref : dispatch->workers) {
      if (ref.name == worker.name) {
        out.push_back(&queue);
        break;
      }
    }
  }
  return out;
}

// The resource groups of the manager's queue, with the worker's capacity as
// nominal quotas: flavors the worker has no capacity for are left out (a
// resource it does not list gets 0), and a group left without flavors is
// dropped. Empty when the worker has capacity for none of the queue's flavors.
std::vector<model::ResourceGroup> capacity_groups(const model::ClusterQueue& queue, const model::Worker& worker) {
  std::vector<model::ResourceGroup> out;
  for (const model::ResourceGroup& group : queue.resource_groups) {
    model::ResourceGroup worker_group;
    worker_group.covered_resources = group.covered_resources;
    worker_group.range = group.range;
    for (const model::FlavorQuotas& flavor : group.flavors) {
      const model::Capacity* capacity = worker.find_capacity(flavor.flavor.name);
      if (capacity == nullptr) continue;
      model::FlavorQuotas quotas;
      quotas.flavor = flavor.flavor;
      quotas.range = capacity->range;
      for (const std::string& resource : group.covered_resources) {
        model::ResourceQuota quota;
        quota.resource = resource;
        quota.nominal.value = sema::Quantity::from_int(0);
        for (const model::ResourceQuota& available : capacity->resources) {
          if (available.resource == resource) {
            quota.nominal = available.nominal;
            break;
          }
        }
        quotas.resources.push_back(std::move(quota));
      }
      worker_group.flavors.push_back(std::move(quotas));
    }
    if (!worker_group.flavors.empty()) out.push_back(std::move(worker_group));
  }
  return out;
}

struct WorkerQueue {
  std::string name;
  std::vector<model::ResourceGroup> groups;
  diag::SourceRange origin;
};

// The worker's own ClusterQueue for a manager queue: the override's name and
// resource groups, else the queue's worker_name and the worker's capacity,
// else the manager queue's quotas.
WorkerQueue worker_queue(const model::ClusterQueue& queue, const model::Worker& worker) {
  WorkerQueue out;
  out.name = queue.worker_name.value;
  out.origin = queue.worker_name.range.valid() ? queue.worker_name.range : queue.name_range;
  const model::ClusterQueueOverride* override_block = worker.find_override(queue.name);
  if (override_block != nullptr) {
    out.origin = override_block->range;
    if (override_block->name) out.name = override_block->name->value;
    if (!override_block->resource_groups.empty()) {
      out.groups = override_block->resource_groups;
      return out;
    }
  }
  out.groups = capacity_groups(queue, worker);
  if (out.groups.empty()) out.groups = queue.resource_groups;
  return out;
}

Object worker_cluster_queue_object(const LowerContext& context, const model::ClusterQueue& queue,
                                   const WorkerQueue& worker_queue, const std::string& cluster) {
  Object object = make_object(context, Kind::ClusterQueue, worker_queue.name, "", worker_queue.origin);
  Json spec = object_with_capacity(12);
  spec["namespaceSelector"] = namespace_selector_json(queue.namespaces);
  if (!worker_queue.groups.empty()) spec["resourceGroups"] = resource_groups_json(worker_queue.groups);
  // Never an admission check (the worker admits for itself) nor the stop
  // policy (holding a queue is the manager's switch).
  add_scheduling_fields(queue, spec);
  object.document["spec"] = std::move(spec);
  for (const model::ResourceGroup& group : worker_queue.groups) {
    for (const model::FlavorQuotas& flavor : group.flavors) {
      object.depends_on.push_back(address_of(cluster, Kind::ResourceFlavor, "", flavor.flavor.name));
    }
  }
  return object;
}

// The RBAC verbs MultiKueue needs on a worker (create-multikueue-kubeconfig.sh):
// the job objects it copies there, read access to their status, and the
// Workloads it creates and whose status it updates.
const std::vector<std::string> kObjectVerbs = {"create", "delete", "get", "list", "watch"};
const std::vector<std::string> kStatusVerbs = {"get"};
const std::vector<std::string> kWorkloadStatusVerbs = {"get", "patch", "update"};
// The manager also pushes priority changes and elastic scale-downs to the
// remote Workload (MULTIKUEUE.md §3.6), so workloads need update and patch.
const std::vector<std::string> kWorkloadVerbs = {"create", "delete", "get", "list", "patch", "update", "watch"};

Json rbac_rule(const std::string& api_group, const std::string& resource, const std::vector<std::string>& verbs) {
  Json rule = Json::object();
  rule["apiGroups"] = Json::array({api_group});
  rule["resources"] = Json::array({resource});
  rule["verbs"] = verbs;
  return rule;
}

// The frameworks Kueue's manager enables (its MultiKueue adapters): the
// integrations and the external frameworks, sorted, without duplicates.
std::set<std::string> enabled_frameworks(const model::KueueSettings& kueue) {
  std::set<std::string> out;
  for (const auto& name : kueue.integrations) out.insert(name.value);
  for (const auto& name : kueue.external_frameworks) out.insert(name.value);
  return out;
}

Json service_account_rules(const model::Policy& policy) {
  Json rules = Json::array();
  rules.push_back(rbac_rule(std::string(schema::kKueueGroup), "workloads", kWorkloadVerbs));
  rules.push_back(rbac_rule(std::string(schema::kKueueGroup), "workloads/status", kWorkloadStatusVerbs));
  std::set<std::pair<std::string, std::string>> seen = {{std::string(schema::kKueueGroup), "workloads"},
                                                        {std::string(schema::kKueueGroup), "workloads/status"}};
  for (const std::string& framework : enabled_frameworks(policy.kueue)) {
    const model::Integration* integration = policy.find_integration(framework);
    if (integration == nullptr) continue;  // validation reports an integration missing from the catalogue
    for (const model::IntegrationResources& group : integration->rules) {
      for (const auto& resource : group.resources) {
        if (!seen.insert({group.api_group.value, resource.value}).second) continue;
        const bool subresource = resource.value.find('/') != std::string::npos;
        rules.push_back(rbac_rule(group.api_group.value, resource.value, subresource ? kStatusVerbs : kObjectVerbs));
      }
    }
  }
  return rules;
}

// The ServiceAccount the manager connects as, its ClusterRole and binding.
void add_service_account(const LowerContext& context, const model::Worker& worker, ClusterObjects& out) {
  const model::Credentials& credentials = worker.credentials;
  if (credentials.mode.value != model::CredentialsMode::ServiceAccount) return;
  const std::string& kueue_namespace = context.policy.kueue.namespace_name.value;
  const std::string& account = credentials.service_account.value;
  const std::string role_name = account + "-role";
  const diag::SourceRange origin =
      credentials.service_account.range.valid() ? credentials.service_account.range : credentials.range;

  out.objects.push_back(make_object(context, Kind::ServiceAccount, account, kueue_namespace, origin));

  Object role = make_object(context, Kind::ClusterRole, role_name, "", origin);
  role.document["rules"] = service_account_rules(context.policy);
  out.objects.push_back(std::move(role));

  Object binding = make_object(context, Kind::ClusterRoleBinding, account + "-crb", "", origin);
  Json role_ref = Json::object();
  role_ref["apiGroup"] = std::string(schema::kRbacGroup);
  role_ref["kind"] = "ClusterRole";
  role_ref["name"] = role_name;
  Json subject = Json::object();
  subject["kind"] = "ServiceAccount";
  subject["name"] = account;
  subject["namespace"] = kueue_namespace;
  binding.document["roleRef"] = std::move(role_ref);
  binding.document["subjects"] = Json::array({std::move(subject)});
  binding.depends_on.push_back(address_of(out.cluster, Kind::ClusterRole, "", role_name));
  binding.depends_on.push_back(address_of(out.cluster, Kind::ServiceAccount, kueue_namespace, account));
  out.objects.push_back(std::move(binding));
}

}  // namespace

ClusterObjects lower_worker(const LowerContext& context, const model::Worker& worker) {
  const model::Policy& policy = context.policy;
  ClusterObjects out;
  out.cluster = worker.name;
  out.role = ClusterRole::Worker;

  std::set<std::string> flavors;
  std::set<std::string> namespaces;
  for (const model::ClusterQueue* queue : served_queues(policy, worker)) {
    const WorkerQueue own = worker_queue(*queue, worker);
    out.objects.push_back(worker_cluster_queue_object(context, *queue, own, out.cluster));
    for (const model::ResourceGroup& group : own.groups) {
      for (const model::FlavorQuotas& flavor : group.flavors) flavors.insert(flavor.flavor.name);
    }
    for (const model::LocalQueue* local : context.local_queues_of(queue->name)) {
      out.objects.push_back(local_queue_object(context, *local, out.cluster, own.name, QueueCopy::WorkerMirror));
      namespaces.insert(local->namespace_name.value);
    }
  }

  std::set<std::string> topologies;
  for (const std::string& name : flavors) {
    const model::Flavor* flavor = policy.find_flavor(name);
    if (flavor == nullptr) continue;
    out.objects.push_back(flavor_object(context, *flavor, out.cluster));
    if (flavor->topology) topologies.insert(flavor->topology->name);
  }
  for (const std::string& name : topologies) {
    const model::Topology* topology = policy.find_topology(name);
    if (topology != nullptr) out.objects.push_back(topology_object(context, *topology));
  }
  // Namespaces the policy declares; others (like "default") are assumed to exist, as on the manager.
  for (const std::string& name : namespaces) {
    const model::Namespace* ns = policy.find_namespace(name);
    if (ns != nullptr) out.objects.push_back(namespace_object(context, *ns));
  }
  add_service_account(context, worker, out);
  return out;
}

}  // namespace mkq::kueue::detail
