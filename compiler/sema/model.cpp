// Spellings of the model's enums and lookups in a Policy (see model.h).
#include "compiler/sema/model.h"

#include <algorithm>

namespace mkq::sema::model {

std::string_view to_string(QueueingStrategy v) {
  switch (v) {
    case QueueingStrategy::BestEffortFIFO: return "BestEffortFIFO";
    case QueueingStrategy::StrictFIFO: return "StrictFIFO";
  }
  return "";
}

std::string_view to_string(StopPolicy v) {
  switch (v) {
    case StopPolicy::None: return "None";
    case StopPolicy::Hold: return "Hold";
    case StopPolicy::HoldAndDrain: return "HoldAndDrain";
  }
  return "";
}

std::string_view to_string(WithinClusterQueuePolicy v) {
  switch (v) {
    case WithinClusterQueuePolicy::Never: return "Never";
    case WithinClusterQueuePolicy::LowerPriority: return "LowerPriority";
    case WithinClusterQueuePolicy::LowerOrNewerEqualPriority: return "LowerOrNewerEqualPriority";
  }
  return "";
}

std::string_view to_string(ReclaimWithinCohortPolicy v) {
  switch (v) {
    case ReclaimWithinCohortPolicy::Never: return "Never";
    case ReclaimWithinCohortPolicy::LowerPriority: return "LowerPriority";
    case ReclaimWithinCohortPolicy::Any: return "Any";
  }
  return "";
}

std::string_view to_string(BorrowWithinCohortPolicy v) {
  switch (v) {
    case BorrowWithinCohortPolicy::Never: return "Never";
    case BorrowWithinCohortPolicy::LowerPriority: return "LowerPriority";
  }
  return "";
}

std::string_view to_string(FungibilityPolicy v) {
  switch (v) {
    case FungibilityPolicy::MayStopSearch: return "MayStopSearch";
    case FungibilityPolicy::TryNextFlavor: return "TryNextFlavor";
  }
  return "";
}

std::string_view to_string(FungibilityPreference v) {
  switch (v) {
    case FungibilityPreference::BorrowingOverPreemption: return "BorrowingOverPreemption";
    case FungibilityPreference::PreemptionOverBorrowing: return "PreemptionOverBorrowing";
  }
  return "";
}

std::string_view to_string(TaintEffect v) {
  switch (v) {
    case TaintEffect::NoSchedule: return "NoSchedule";
    case TaintEffect::PreferNoSchedule: return "PreferNoSchedule";
    case TaintEffect::NoExecute: return "NoExecute";
  }
  return "";
}

std::string_view to_string(TolerationOperator v) {
  switch (v) {
    case TolerationOperator::Equal: return "Equal";
    case TolerationOperator::Exists: return "Exists";
  }
  return "";
}

std::string_view to_string(FairSharingPreemptionStrategy v) {
  switch (v) {
    case FairSharingPreemptionStrategy::LessThanOrEqualToFinalShare: return "LessThanOrEqualToFinalShare";
    case FairSharingPreemptionStrategy::LessThanInitialShare: return "LessThanInitialShare";
  }
  return "";
}

std::string_view to_string(CredentialsMode v) {
  switch (v) {
    case CredentialsMode::ServiceAccount: return "serviceaccount";
    case CredentialsMode::Kubeconfig: return "kubeconfig";
    case CredentialsMode::ClusterProfile: return "clusterprofile";
  }
  return "";
}

std::string_view to_string(DispatchMode v) {
  switch (v) {
    case DispatchMode::AllAtOnce: return "all-at-once";
    case DispatchMode::Incremental: return "incremental";
    case DispatchMode::External: return "external";
  }
  return "";
}

std::string_view to_string(WorkerOrder v) {
  switch (v) {
    case WorkerOrder::Priority: return "priority";
    case WorkerOrder::Name: return "name";
    case WorkerOrder::MostFree: return "most-free";
  }
  return "";
}

std::string_view to_string(AccessRole v) {
  switch (v) {
    case AccessRole::BatchUser: return "batch-user";
    case AccessRole::BatchAdmin: return "batch-admin";
  }
  return "";
}

std::string_view to_string(SyncMode v) {
  switch (v) {
    case SyncMode::Manual: return "manual";
    case SyncMode::Auto: return "auto";
  }
  return "";
}

std::string_view to_string(Platform v) {
  switch (v) {
    case Platform::Kubernetes: return "kubernetes";
    case Platform::OpenShift: return "openshift";
  }
  return "";
}

std::string Dispatcher::kueue_name() const {
  switch (mode) {
    case DispatchMode::AllAtOnce: return std::string(kAllAtOnceDispatcher);
    case DispatchMode::Incremental: return std::string(kIncrementalDispatcher);
    case DispatchMode::External: return external_name;
  }
  return external_name;
}

std::string Dispatcher::spelling() const {
  if (mode == DispatchMode::External) return external_name;
  return std::string(to_string(mode));
}

namespace {

// Binary search in a vector sorted by `name`.
template <typename T>
const T* find_by_name(const std::vector<T>& items, std::string_view name) {
  const auto it = std::lower_bound(items.begin(), items.end(), name,
                                   [](const T& item, std::string_view key) { return item.name < key; });
  if (it == items.end() || it->name != name) return nullptr;
  return &*it;
}

}  // namespace

const Capacity* Worker::find_capacity(std::string_view flavor) const {
  for (const Capacity& capacity : capacities) {
    if (capacity.flavor.name == flavor) return &capacity;
  }
  return nullptr;
}

const ClusterQueueOverride* Worker::find_override(std::string_view cluster_queue) const {
  for (const ClusterQueueOverride& override_ : overrides) {
    if (override_.cluster_queue.name == cluster_queue) return &override_;
  }
  return nullptr;
}

const Worker* Policy::find_worker(std::string_view name) const { return find_by_name(workers, name); }
const Flavor* Policy::find_flavor(std::string_view name) const { return find_by_name(flavors, name); }
const Topology* Policy::find_topology(std::string_view name) const { return find_by_name(topologies, name); }
const Cohort* Policy::find_cohort(std::string_view name) const { return find_by_name(cohorts, name); }
const ClusterQueue* Policy::find_cluster_queue(std::string_view name) const {
  return find_by_name(cluster_queues, name);
}
const Namespace* Policy::find_namespace(std::string_view name) const { return find_by_name(namespaces, name); }
const PriorityClass* Policy::find_priority_class(std::string_view name) const {
  return find_by_name(priority_classes, name);
}
const Dispatch* Policy::find_dispatch(std::string_view name) const { return find_by_name(dispatches, name); }
const Integration* Policy::find_integration(std::string_view name) const {
  return find_by_name(integrations, name);
}

std::vector<const Integration*> Policy::enabled_integrations() const {
  std::vector<const Integration*> result;
  const auto add = [&](const std::vector<Located<std::string>>& names) {
    for (const Located<std::string>& name : names) {
      if (const Integration* integration = find_integration(name.value)) result.push_back(integration);
    }
  };
  add(kueue.integrations);
  add(kueue.external_frameworks);
  std::sort(result.begin(), result.end(),
            [](const Integration* a, const Integration* b) { return a->name < b->name; });
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

const LocalQueue* Policy::find_local_queue(std::string_view namespace_name, std::string_view name) const {
  const auto key = [](const LocalQueue& q) {
    return std::pair<std::string_view, std::string_view>(q.namespace_name.value, q.name);
  };
  const std::pair<std::string_view, std::string_view> wanted(namespace_name, name);
  const auto it = std::lower_bound(local_queues.begin(), local_queues.end(), wanted,
                                   [&](const LocalQueue& q, const auto& w) { return key(q) < w; });
  if (it == local_queues.end() || key(*it) != wanted) return nullptr;
  return &*it;
}

std::vector<const LocalQueue*> Policy::local_queues_of(std::string_view cluster_queue) const {
  std::vector<const LocalQueue*> result;
  for (const LocalQueue& queue : local_queues) {
    if (queue.cluster_queue.name == cluster_queue) result.push_back(&queue);
  }
  return result;
}

bool Policy::uses_cluster_profiles() const {
  return std::any_of(workers.begin(), workers.end(), [](const Worker& worker) {
    return worker.credentials.mode.value == CredentialsMode::ClusterProfile;
  });
}

const AccessProvider* MultiKueueSettings::find_access_provider(std::string_view name) const {
  for (const AccessProvider& provider : access_providers) {
    if (provider.name == name) return &provider;
  }
  return nullptr;
}

}  // namespace mkq::sema::model
