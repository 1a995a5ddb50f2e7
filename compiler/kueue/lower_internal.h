// Shared pieces of lowering (lower.cpp, lower_manager.cpp, lower_worker.cpp):
// object skeletons with mkq's labels, the JSON shape of the parts several
// kinds share (resource groups, quantities), and the final ordering.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "compiler/kueue/lower.h"
#include "compiler/kueue/objects.h"
#include "compiler/kueue/schema.h"
#include "compiler/sema/model.h"

namespace mkq::kueue::detail {

namespace model = sema::model;

struct LowerContext {
  LowerContext(const model::Policy& policy, const LowerOptions& options);

  const model::Policy& policy;
  const LowerOptions& options;
  // mkq's own labels, the metadata.labels of an object without labels of its own.
  Json base_labels;
  // The local queues of each cluster queue, in the policy's order (hashed:
  // every worker looks up every queue it serves).
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, std::vector<const model::LocalQueue*>, NameHash, std::equal_to<>> local_queues;

  const std::vector<const model::LocalQueue*>& local_queues_of(std::string_view cluster_queue) const;
};

// An empty JSON object with room for `capacity` keys. ordered_json keeps keys in
// a vector whose entries are copied, not moved, when it grows: reserving keeps
// big values (a spec's resourceGroups) from being copied again and again.
Json object_with_capacity(std::size_t capacity);

// An object of `kind` with its metadata (name, namespace, labels: `labels`
// plus mkq's own, sorted by key) and nothing else; callers append the body.
Object make_object(const LowerContext& context, schema::Kind kind, const std::string& name,
                   const std::string& namespace_name, diag::SourceRange origin, const model::Labels& labels = {});

// The address of an object of the same cluster, for Object::depends_on.
std::string address_of(const std::string& cluster, schema::Kind kind, const std::string& namespace_name,
                       const std::string& name);

// A quantity in canonical form: a JSON integer when Kubernetes' canonical
// string is a plain integer ("9"), else that string ("36Gi", "500m").
Json quantity_json(const sema::Quantity& quantity);

// spec.resourceGroups of a ClusterQueue or Cohort.
Json resource_groups_json(const std::vector<model::ResourceGroup>& groups);

// A ClusterQueue's spec.namespaceSelector.
Json namespace_selector_json(const model::NamespaceSelector& selector);

// The spec fields a worker's ClusterQueue shares with the manager's (cohort,
// preemption, fair sharing, flavor fungibility, queueing strategy), added to `spec`.
void add_scheduling_fields(const model::ClusterQueue& queue, Json& spec);

// A LocalQueue's document, pointing at `cluster_queue` (the manager's queue
// or the worker's own). A worker's mirror leaves out the stop policy: holding
// a queue is the manager's switch (it stops dispatching).
enum class QueueCopy { Manager, WorkerMirror };
Object local_queue_object(const LowerContext& context, const model::LocalQueue& queue, const std::string& cluster,
                          const std::string& cluster_queue, QueueCopy copy);

Object topology_object(const LowerContext& context, const model::Topology& topology);
Object flavor_object(const LowerContext& context, const model::Flavor& flavor, const std::string& cluster);
Object namespace_object(const LowerContext& context, const model::Namespace& ns);
// A Cohort with `groups` as its quotas (the declared ones on the manager, the
// worker's share of them on a worker).
Object cohort_object(const LowerContext& context, const model::Cohort& cohort,
                     const std::vector<model::ResourceGroup>& groups, const std::string& cluster);
Object priority_class_object(const LowerContext& context, const model::PriorityClass& priority);

// Sorts objects into apply order (ApplyPosition) and keeps in depends_on only
// the addresses of objects the cluster holds, sorted.
void finish_cluster(ClusterObjects& cluster);

// The cluster being lowered: its name (the addresses of depends_on) and where
// its objects go.
struct ClusterOut {
  const std::string& cluster;
  ObjectSink& objects;
};

// Kueue's configuration on OpenShift (lower_openshift.cpp): the operator's
// `Kueue` resource, rendered on the manager instead of the ConfigMap.
Object openshift_kueue_object(const LowerContext& context);

void lower_manager(const LowerContext& context, ClusterOut& out);
void lower_worker(const LowerContext& context, const model::Worker& worker, ClusterOut& out);

}  // namespace mkq::kueue::detail
