// A worker's objects: what it needs to serve the manager's dispatched queues
// (the same namespaces and LocalQueue names, its own ClusterQueue per queue
// and the cohorts above them, sharing the worker's capacity the way the
// manager's queues share the fleet, the flavors and topologies those use, the
// priority classes its jobs may name) and the MultiKueue ServiceAccount the
// manager connects as, with a least-privilege ClusterRole built from the
// policy's integration catalogue. docs/render.md lists every object.
#include <map>
#include <set>
#include <string>
#include <utility>

#include "compiler/kueue/lower_internal.h"
#include "compiler/kueue/shares.h"

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

// The resource groups of a manager queue or cohort as the worker holds them
// before sharing: the flavors the worker has capacity for, each resource with
// the manager's quota and limits (share_worker_capacity() then scales them);
// a group left without flavors is dropped. Empty when the worker has capacity
// for none of the flavors.
std::vector<model::ResourceGroup> capacity_groups(const std::vector<model::ResourceGroup>& groups,
                                                  const model::Worker& worker) {
  std::vector<model::ResourceGroup> out;
  for (const model::ResourceGroup& group : groups) {
    model::ResourceGroup worker_group;
    worker_group.covered_resources = group.covered_resources;
    worker_group.range = group.range;
    for (const model::FlavorQuotas& flavor : group.flavors) {
      if (worker.find_capacity(flavor.flavor.name) != nullptr) worker_group.flavors.push_back(flavor);
    }
    if (!worker_group.flavors.empty()) out.push_back(std::move(worker_group));
  }
  return out;
}

// A queue or cohort as the worker holds it.
struct WorkerQueue {
  std::string name;
  std::vector<model::ResourceGroup> groups;
  diag::SourceRange origin;
  // The groups are the worker's capacity shared (not an override's, nor the
  // manager's copied for lack of capacity).
  bool shares_capacity = false;
};

// The worker's own ClusterQueue for a manager queue: the override's name and
// resource groups, else the queue's worker_name and the manager queue's groups
// on the flavors the worker has capacity for (shared afterwards), else the
// manager queue's quotas.
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
  out.groups = capacity_groups(queue.resource_groups, worker);
  out.shares_capacity = !out.groups.empty();
  if (out.groups.empty()) out.groups = queue.resource_groups;
  return out;
}

WorkerQueue worker_cohort(const model::Cohort& cohort, const model::Worker& worker) {
  WorkerQueue out;
  out.name = cohort.name;
  out.origin = cohort.name_range;
  out.groups = capacity_groups(cohort.resource_groups, worker);
  out.shares_capacity = !out.groups.empty();
  if (out.groups.empty()) out.groups = cohort.resource_groups;
  return out;
}

// The declared cohorts of the served queues and their ancestors, by name.
std::vector<const model::Cohort*> served_cohorts(const model::Policy& policy,
                                                 const std::vector<const model::ClusterQueue*>& queues) {
  std::set<std::string> names;
  for (const model::ClusterQueue* queue : queues) {
    const model::Cohort* cohort = queue->cohort ? policy.find_cohort(queue->cohort->name) : nullptr;
    // The binder refuses a cycle of parents; the set stops one anyway.
    while (cohort != nullptr && names.insert(cohort->name).second) {
      cohort = cohort->parent ? policy.find_cohort(cohort->parent->name) : nullptr;
    }
  }
  std::vector<const model::Cohort*> out;
  for (const std::string& name : names) out.push_back(policy.find_cohort(name));
  return out;
}

// The worker's capacity of a flavor's resource: 0 when the capacity block
// does not list the resource.
sema::Quantity capacity_of(const model::Capacity& capacity, const std::string& resource) {
  for (const model::ResourceQuota& available : capacity.resources) {
    if (available.resource == resource) return available.nominal.value;
  }
  return sema::Quantity::from_int(0);
}

using FlavorResource = std::pair<std::string, std::string>;

// Shares the worker's capacity of every flavor and resource among the queues
// and cohorts that hold quota of it (docs/render.md, "Each worker"): what an
// override reserves is taken first, the rest goes in proportion to the
// manager's nominal quotas (shares.h).
void share_worker_capacity(const model::Worker& worker, std::vector<WorkerQueue>& holders) {
  std::map<FlavorResource, sema::Quantity> reserved;
  std::map<FlavorResource, std::vector<model::ResourceQuota*>> sharing;
  for (WorkerQueue& holder : holders) {
    for (model::ResourceGroup& group : holder.groups) {
      for (model::FlavorQuotas& flavor : group.flavors) {
        for (model::ResourceQuota& quota : flavor.resources) {
          const FlavorResource key{flavor.flavor.name, quota.resource};
          if (holder.shares_capacity) {
            sharing[key].push_back(&quota);
          } else {
            auto [it, fresh] = reserved.try_emplace(key, sema::Quantity::from_int(0));
            sema::QuantityError error = sema::QuantityError::None;
            if (auto sum = sema::Quantity::add(it->second, quota.nominal.value, &error)) it->second = *sum;
          }
        }
      }
    }
  }
  for (const auto& [key, quotas] : sharing) {
    sema::Quantity capacity = capacity_of(*worker.find_capacity(key.first), key.second);
    const auto taken = reserved.find(key);
    if (taken != reserved.end()) {
      sema::QuantityError error = sema::QuantityError::None;
      const auto rest = sema::Quantity::subtract(capacity, taken->second, &error);
      capacity = rest && !rest->is_negative() ? *rest : sema::Quantity::from_int(0);
    }
    share_capacity(capacity, quotas);
  }
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
  if (queue.cohort) object.depends_on.push_back(address_of(cluster, Kind::Cohort, "", queue.cohort->name));
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
void add_service_account(const LowerContext& context, const model::Worker& worker, ClusterOut& out) {
  const model::Credentials& credentials = worker.credentials;
  if (credentials.mode.value != model::CredentialsMode::ServiceAccount) return;
  const std::string& kueue_namespace = context.policy.kueue.namespace_name.value;
  const std::string& account = credentials.service_account.value;
  const std::string role_name = account + "-role";
  const diag::SourceRange origin =
      credentials.service_account.range.valid() ? credentials.service_account.range : credentials.range;

  out.objects.add(make_object(context, Kind::ServiceAccount, account, kueue_namespace, origin));

  Object role = make_object(context, Kind::ClusterRole, role_name, "", origin);
  role.document["rules"] = service_account_rules(context.policy);
  out.objects.add(std::move(role));

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
  out.objects.add(std::move(binding));
}

}  // namespace

void lower_worker(const LowerContext& context, const model::Worker& worker, ClusterOut& out) {
  const model::Policy& policy = context.policy;

  // The queues, then the cohorts: their groups share the worker's capacity.
  const std::vector<const model::ClusterQueue*> queues = served_queues(policy, worker);
  const std::vector<const model::Cohort*> cohorts = served_cohorts(policy, queues);
  std::vector<WorkerQueue> holders;
  for (const model::ClusterQueue* queue : queues) holders.push_back(worker_queue(*queue, worker));
  for (const model::Cohort* cohort : cohorts) holders.push_back(worker_cohort(*cohort, worker));
  share_worker_capacity(worker, holders);

  std::set<std::string> flavors;
  for (const WorkerQueue& holder : holders) {
    for (const model::ResourceGroup& group : holder.groups) {
      for (const model::FlavorQuotas& flavor : group.flavors) flavors.insert(flavor.flavor.name);
    }
  }
  std::set<std::string> namespaces;
  for (std::size_t i = 0; i < queues.size(); ++i) {
    const WorkerQueue& own = holders[i];
    out.objects.add(worker_cluster_queue_object(context, *queues[i], own, out.cluster));
    for (const model::LocalQueue* local : context.local_queues_of(queues[i]->name)) {
      out.objects.add(local_queue_object(context, *local, out.cluster, own.name, QueueCopy::WorkerMirror));
      namespaces.insert(local->namespace_name.value);
    }
  }
  for (std::size_t i = 0; i < cohorts.size(); ++i) {
    out.objects.add(
        cohort_object(context, *cohorts[i], holders[queues.size() + i].groups, out.cluster));
  }
  // A job's priority class travels with it (the kueue.x-k8s.io/priority-class
  // label): every worker that may receive a job holds every class.
  if (!queues.empty()) {
    for (const model::PriorityClass& priority : policy.priority_classes) {
      out.objects.add(priority_class_object(context, priority));
    }
  }

  std::set<std::string> topologies;
  for (const std::string& name : flavors) {
    const model::Flavor* flavor = policy.find_flavor(name);
    if (flavor == nullptr) continue;
    out.objects.add(flavor_object(context, *flavor, out.cluster));
    if (flavor->topology) topologies.insert(flavor->topology->name);
  }
  for (const std::string& name : topologies) {
    const model::Topology* topology = policy.find_topology(name);
    if (topology != nullptr) out.objects.add(topology_object(context, *topology));
  }
  // Namespaces the policy declares; others (like "default") are assumed to exist, as on the manager.
  for (const std::string& name : namespaces) {
    const model::Namespace* ns = policy.find_namespace(name);
    if (ns != nullptr) out.objects.add(namespace_object(context, *ns));
  }
  add_service_account(context, worker, out);
}

}  // namespace mkq::kueue::detail
