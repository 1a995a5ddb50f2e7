// The cross-object rules of VALIDATION.md §K (77-82) and rule 41, over the
// objects of the manager and of every worker taken together.
//
// Most of §K holds by construction: lowering renders every object a reference
// needs (a MultiKueueCluster per dispatched worker, the AdmissionCheck and
// MultiKueueConfig of each dispatch, every flavor and topology used, on the
// manager and on each worker, the LocalQueues of a dispatched queue on each
// worker with the same namespace and name). The binder reports the references
// a policy gets wrong (E3040-E3043, E3062, E3083). What lowering relies on is
// still asserted here (E4099), so that a broken model fails loudly instead of
// rendering objects Kueue leaves inactive. What a policy can still get wrong is
// checked with its own code.
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "compiler/kueue/codes.h"
#include "compiler/kueue/schema.h"
#include "compiler/kueue/validate_internal.h"

namespace mkq::kueue::validate_detail {
namespace {

void internal(Reporter& reporter, const diag::SourceRange& range, const std::string& what,
              const model::Declaration* owner) {
  reporter.error(codes::kModelInvariant, range,
                 "internal error: " + what + " (a bug in mkq: the binder should have reported it)", owner);
}

void assert_flavors_exist(const model::Policy& policy, const std::vector<model::ResourceGroup>& groups,
                          const model::Declaration& owner, Reporter& reporter) {
  for (const model::ResourceGroup& group : groups) {
    for (const model::FlavorQuotas& quotas : group.flavors) {
      if (policy.find_flavor(quotas.flavor.name) == nullptr) {
        internal(reporter, quotas.flavor.range, "flavor '" + quotas.flavor.name + "' is not declared",
                 &owner);
      }
    }
  }
}

// Rule 79: every flavor a queue, cohort or worker uses is a ResourceFlavor the
// cluster holds, and every TAS flavor's Topology exists (lowering renders both
// on the manager, and on each worker with the flavors its queues use: with
// MultiKueue the manager needs the Topology too, MULTIKUEUE.md §10).
void assert_references(const model::Policy& policy, Reporter& reporter) {
  for (const model::Flavor& flavor : policy.flavors) {
    if (flavor.topology && policy.find_topology(flavor.topology->name) == nullptr) {
      internal(reporter, flavor.topology->range, "topology '" + flavor.topology->name + "' is not declared",
               &flavor);
    }
  }
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    assert_flavors_exist(policy, queue.resource_groups, queue, reporter);
  }
  for (const model::Cohort& cohort : policy.cohorts)
    assert_flavors_exist(policy, cohort.resource_groups, cohort, reporter);
  for (const model::Worker& worker : policy.workers) {
    for (const model::Capacity& capacity : worker.capacities) {
      if (policy.find_flavor(capacity.flavor.name) == nullptr) {
        internal(reporter, capacity.flavor.range, "flavor '" + capacity.flavor.name + "' is not declared",
                 &worker);
      }
    }
    for (const model::ClusterQueueOverride& override_ : worker.overrides) {
      assert_flavors_exist(policy, override_.resource_groups, worker, reporter);
    }
  }
}

// Rules 77, 78 and 81: every MultiKueueConfig cluster is a declared worker
// (one MultiKueueCluster each), never the manager; 1 to 20 of them; each
// dispatched queue carries exactly its dispatch's admission check.
void assert_dispatches(const model::Policy& policy, Reporter& reporter) {
  for (const model::Dispatch& dispatch : policy.dispatches) {
    if (dispatch.workers.size() < schema::kMinMultiKueueClusters ||
        dispatch.workers.size() > schema::kMaxMultiKueueClusters) {
      internal(reporter, dispatch.name_range,
               fmt::format("dispatch '{}' has {} workers", dispatch.name, dispatch.workers.size()),
               &dispatch);
    }
    for (const model::Ref& worker : dispatch.workers) {
      if (worker.name == policy.manager.name) {
        internal(reporter, worker.range, "dispatch '" + dispatch.name + "' sends work to the manager",
                 &dispatch);
      } else if (policy.find_worker(worker.name) == nullptr) {
        internal(reporter, worker.range, "worker '" + worker.name + "' has no MultiKueueCluster", &dispatch);
      }
    }
    for (const model::Ref& queue : dispatch.queues) {
      const model::ClusterQueue* target = policy.find_cluster_queue(queue.name);
      if (target == nullptr || target->dispatch != dispatch.name) {
        internal(reporter, queue.range,
                 "clusterqueue '" + queue.name + "' does not carry the admission check of dispatch '" +
                     dispatch.name + "'",
                 &dispatch);
      }
    }
  }
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    if (queue.dispatch && policy.find_dispatch(*queue.dispatch) == nullptr) {
      internal(
          reporter, queue.name_range,
          "clusterqueue '" + queue.name + "' names dispatch '" + *queue.dispatch + "', which does not exist",
          &queue);
    }
  }
}

// The workers a queue is mirrored on (its dispatch's), by name.
std::vector<std::string> workers_of(const model::Policy& policy, const model::ClusterQueue& queue) {
  std::vector<std::string> names;
  if (!queue.dispatch) return names;
  const model::Dispatch* dispatch = policy.find_dispatch(*queue.dispatch);
  if (dispatch == nullptr) return names;
  for (const model::Ref& worker : dispatch->workers) names.push_back(worker.name);
  return names;
}

// Rules 41 and 80: a LocalQueue's workloads are admitted only when its
// ClusterQueue's namespaceSelector selects the namespace. A list of names is
// the binder's (W3002); a label selector can be decided when the policy
// declares the namespace, since mkq creates it with exactly those labels (plus
// the name label Kubernetes adds), on the manager and on every worker that
// serves the queue. The worker's ClusterQueue keeps the manager's selector, so
// one check covers both.
void check_namespace_labels(const model::Policy& policy, Reporter& reporter) {
  for (const model::LocalQueue& local : policy.local_queues) {
    const model::ClusterQueue* queue = policy.find_cluster_queue(local.cluster_queue.name);
    if (queue == nullptr || queue->namespaces.kind != model::NamespaceSelection::MatchLabels) continue;
    const model::Namespace* ns = policy.find_namespace(local.namespace_name.value);
    if (ns == nullptr) continue;  // an existing namespace: its labels are known only at apply
    model::Labels labels = ns->labels;
    labels[std::string(schema::kNamespaceNameLabel)] = ns->name;
    std::vector<std::string> missing;
    for (const auto& [key, value] : queue->namespaces.match_labels) {
      const auto it = labels.find(key);
      if (it == labels.end() || it->second != value) missing.push_back(key + ": " + value);
    }
    if (missing.empty()) continue;
    auto& d =
        reporter.warning(codes::kNamespaceLabelsNotAdmitted, local.namespace_name.range,
                         "namespace '" + ns->name + "' lacks the label" + (missing.size() > 1 ? "s " : " ") +
                             quoted_list(missing) + " that clusterqueue '" + queue->name +
                             "' selects: workloads of localqueue '" + local.name + "' will not be admitted",
                         &local);
    d.notes.push_back({"the queue's namespace selector", queue->namespaces.range});
    d.notes.push_back(
        {"namespace '" + ns->name + "' is declared here, with the labels mkq gives it", ns->name_range});
    const std::vector<std::string> workers = workers_of(policy, *queue);
    if (!workers.empty()) {
      d.notes.push_back({"the same holds on the worker" + std::string(workers.size() > 1 ? "s " : " ") +
                             quoted_list(workers) + ", where the queue is mirrored with the same selector",
                         std::nullopt});
    }
  }
}

// The fleet must hold what the manager admits: the manager's queues of a
// dispatch, taken together, hold no more nominal quota of a resource than the
// dispatch's workers declare as capacity of it in the flavors those queues
// use (docs/language.md, W4031). Above it the manager admits workloads -- and
// counts them against its quota, for fair sharing and preemption -- that no
// worker can run. A warning, not an error: Kueue accepts such quota and keeps
// working (the workloads wait on the workers), and a fleet shrinks for a while
// -- a worker drained, replaced or taken out in an incident -- without the
// apply that does it having to rewrite every quota first. Flavors are summed:
// a worker's Kueue assigns flavors anew, from the flavors it has. Decided only
// when every worker of the dispatch declares a capacity (else its size is
// unknown).
struct Holding {
  const model::ClusterQueue* queue;
  const model::FlavorQuotas* flavor;
  const model::ResourceQuota* quota;
};

sema::Quantity plus(const sema::Quantity& a, const sema::Quantity& b) {
  sema::QuantityError error = sema::QuantityError::None;
  const auto sum = sema::Quantity::add(a, b, &error);
  return sum ? *sum : a;  // beyond 10^29 units: the binder's limits keep quotas far below
}

// W4031 lists at most this many of the queues' quotas, and of the workers,
// each; the rest are counted in one note ("... and 9990 more quotas").
constexpr std::size_t kMaxListed = 10;

std::string more_note(std::size_t count, const char* one, const char* many) {
  return fmt::format("... and {} more {}", count, count == 1 ? one : many);
}

void check_fleet_capacity(const model::Policy& policy, const model::Dispatch& dispatch, Reporter& reporter) {
  std::vector<const model::Worker*> workers;
  for (const model::Ref& ref : dispatch.workers) {
    const model::Worker* worker = policy.find_worker(ref.name);
    if (worker == nullptr || worker->capacities.empty()) return;  // a size unknown
    workers.push_back(worker);
  }
  std::map<std::string, std::vector<Holding>> held;  // by resource
  std::set<std::string> flavors;
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    if (queue.dispatch != dispatch.name) continue;
    for (const model::ResourceGroup& group : queue.resource_groups) {
      for (const model::FlavorQuotas& flavor : group.flavors) {
        flavors.insert(flavor.flavor.name);
        for (const model::ResourceQuota& quota : flavor.resources) {
          held[quota.resource].push_back({&queue, &flavor, &quota});
        }
      }
    }
  }
  for (const auto& [resource, holdings] : held) {
    sema::Quantity total = sema::Quantity::from_int(0);
    for (const Holding& h : holdings) total = plus(total, h.quota->nominal.value);
    sema::Quantity capacity = sema::Quantity::from_int(0);
    std::string shares;
    std::vector<diag::Note> notes;
    for (const model::Worker* worker : workers) {
      sema::Quantity amount = sema::Quantity::from_int(0);
      diag::SourceRange where = worker->name_range;
      bool placed = false;
      for (const model::Capacity& declared : worker->capacities) {
        if (!flavors.contains(declared.flavor.name)) continue;
        for (const model::ResourceQuota& available : declared.resources) {
          if (available.resource != resource) continue;
          amount = plus(amount, available.nominal.value);
          if (!placed) where = available.range;
          placed = true;
        }
      }
      capacity = plus(capacity, amount);
      const std::string declared = amount.to_string();
      fmt::format_to(std::back_inserter(shares), "{}{} {}", shares.empty() ? "" : ", ", worker->name, declared);
      notes.push_back({fmt::format("worker '{}' declares {}", worker->name, declared), where});
    }
    if (total.compare(capacity) <= 0) continue;
    auto& d = reporter.warning(codes::kFleetCannotHoldQuota, dispatch.name_range,
                               fmt::format("the queues of dispatch '{}' hold {} of '{}', but its workers declare {} ({})",
                                           dispatch.name, total.to_string(), resource, capacity.to_string(),
                                           shares),
                               &dispatch);
    // One note per queue and per worker, up to kMaxListed of each; a
    // generated fleet of 10,000 queues would otherwise print 10,000 notes.
    for (std::size_t i = 0; i < holdings.size() && i < kMaxListed; ++i) {
      const Holding& h = holdings[i];
      d.notes.push_back({fmt::format("clusterqueue '{}' holds {} in flavor '{}'", h.queue->name,
                                     h.quota->nominal.value.to_string(), h.flavor->flavor.name),
                         h.quota->range});
    }
    if (holdings.size() > kMaxListed) {
      d.notes.push_back({more_note(holdings.size() - kMaxListed, "quota", "quotas"), std::nullopt});
    }
    for (std::size_t i = 0; i < notes.size() && i < kMaxListed; ++i) d.notes.push_back(std::move(notes[i]));
    if (notes.size() > kMaxListed) {
      d.notes.push_back({more_note(notes.size() - kMaxListed, "worker", "workers"), std::nullopt});
    }
    d.notes.push_back(
        {"the manager would admit workloads that no worker can run; lower the queues' quotas or "
         "declare the workers' real capacity",
         std::nullopt});
  }
}

// Rule 82: the workers' ClusterRole is built from the catalogue entries of what
// the manager enables; the binder requires one for each (E3015, E3018).
void assert_catalogue(const model::Policy& policy, Reporter& reporter) {
  for (const auto* names : {&policy.kueue.integrations, &policy.kueue.external_frameworks}) {
    for (const model::Located<std::string>& name : *names) {
      if (policy.find_integration(name.value) != nullptr) continue;
      internal(reporter, name.range, "'" + name.value + "' is enabled but not in the integration catalogue",
               nullptr);
    }
  }
}

}  // namespace

void check_clusters(const model::Policy& policy, Reporter& reporter) {
  assert_references(policy, reporter);
  assert_dispatches(policy, reporter);
  assert_catalogue(policy, reporter);
  check_namespace_labels(policy, reporter);
  for (const model::Dispatch& dispatch : policy.dispatches) check_fleet_capacity(policy, dispatch, reporter);
}

}  // namespace mkq::kueue::validate_detail
