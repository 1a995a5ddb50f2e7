// lower(): the checked policy model -> the desired objects of the manager and
// of every worker. The kinds' details are in lower_manager.cpp and
// lower_worker.cpp; this file holds the entry point and the shapes both share.
#include "compiler/kueue/lower.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <unordered_set>
#include <utility>

#include "compiler/kueue/lower_internal.h"
#include "compiler/kueue/validate.h"

namespace mkq::kueue {

namespace detail {

LowerContext::LowerContext(const model::Policy& policy_, const LowerOptions& options_)
    : policy(policy_), options(options_) {
  base_labels = Json::object();
  base_labels[std::string(schema::kManagedByLabel)] = std::string(schema::kManagedByValue);
  base_labels[std::string(schema::kPolicyLabel)] = options.policy_name;
  for (const model::LocalQueue& queue : policy.local_queues) local_queues[queue.cluster_queue.name].push_back(&queue);
}

const std::vector<const model::LocalQueue*>& LowerContext::local_queues_of(std::string_view cluster_queue) const {
  static const std::vector<const model::LocalQueue*> kNone;
  const auto found = local_queues.find(cluster_queue);
  return found == local_queues.end() ? kNone : found->second;
}

Json object_with_capacity(std::size_t capacity) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(capacity);
  return out;
}

Object make_object(const LowerContext& context, schema::Kind kind, const std::string& name,
                   const std::string& namespace_name, diag::SourceRange origin, const model::Labels& labels) {
  const schema::KindInfo& info = schema::info(kind);
  Object object;
  object.api_version = std::string(info.api_version);
  object.kind = std::string(info.name);
  object.name = name;
  object.namespace_name = info.namespaced ? namespace_name : std::string();
  object.origin = origin;

  Json label_json;
  if (labels.empty()) {
    label_json = context.base_labels;
  } else {
    model::Labels all = labels;
    all[std::string(schema::kManagedByLabel)] = std::string(schema::kManagedByValue);
    all[std::string(schema::kPolicyLabel)] = context.options.policy_name;
    label_json = Json::object();
    for (const auto& [key, value] : all) label_json[key] = value;
  }

  Json metadata = object_with_capacity(4);
  metadata["name"] = name;
  if (!object.namespace_name.empty()) metadata["namespace"] = object.namespace_name;
  metadata["labels"] = std::move(label_json);

  object.document = object_with_capacity(6);
  object.document["apiVersion"] = object.api_version;
  object.document["kind"] = object.kind;
  object.document["metadata"] = std::move(metadata);
  return object;
}

std::string address_of(const std::string& cluster, schema::Kind kind, const std::string& namespace_name,
                       const std::string& name) {
  const schema::KindInfo& info = schema::info(kind);
  return base::object_address(cluster, info.name, info.namespaced ? std::string_view(namespace_name) : "", name);
}

Json quantity_json(const sema::Quantity& quantity) {
  std::string text = quantity.to_string();
  const bool plain_integer =
      !text.empty() && text.size() <= 18 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (plain_integer) return Json(std::stoll(text));
  return Json(std::move(text));
}

Json resource_groups_json(const std::vector<model::ResourceGroup>& groups) {
  Json out = Json::array();
  for (const model::ResourceGroup& group : groups) {
    Json g = object_with_capacity(2);
    g["coveredResources"] = group.covered_resources;
    Json flavors = Json::array();
    for (const model::FlavorQuotas& flavor : group.flavors) {
      Json f = object_with_capacity(2);
      f["name"] = flavor.flavor.name;
      Json resources = Json::array();
      for (const model::ResourceQuota& quota : flavor.resources) {
        Json r = object_with_capacity(4);
        r["name"] = quota.resource;
        r["nominalQuota"] = quantity_json(quota.nominal.value);
        if (quota.borrowing_limit) r["borrowingLimit"] = quantity_json(quota.borrowing_limit->value);
        if (quota.lending_limit) r["lendingLimit"] = quantity_json(quota.lending_limit->value);
        resources.push_back(std::move(r));
      }
      f["resources"] = std::move(resources);
      flavors.push_back(std::move(f));
    }
    g["flavors"] = std::move(flavors);
    out.push_back(std::move(g));
  }
  return out;
}

Json namespace_selector_json(const model::NamespaceSelector& selector) {
  Json out = Json::object();
  switch (selector.kind) {
    case model::NamespaceSelection::All:
      break;  // {}: every namespace
    case model::NamespaceSelection::Names: {
      Json values = Json::array();
      for (const auto& name : selector.names) values.push_back(name.value);
      Json expression = Json::object();
      expression["key"] = std::string(schema::kNamespaceNameLabel);
      expression["operator"] = "In";
      expression["values"] = std::move(values);
      Json expressions = Json::array();  // not Json::array({...}): an initializer list is copied
      expressions.push_back(std::move(expression));
      out["matchExpressions"] = std::move(expressions);
      break;
    }
    case model::NamespaceSelection::MatchLabels: {
      Json labels = Json::object();
      for (const auto& [key, value] : selector.match_labels) labels[key] = value;
      out["matchLabels"] = std::move(labels);
      break;
    }
  }
  return out;
}

void add_scheduling_fields(const model::ClusterQueue& queue, Json& spec) {
  if (queue.cohort) spec["cohortName"] = queue.cohort->name;
  if (queue.preemption) {
    const model::Preemption& p = *queue.preemption;
    Json preemption = Json::object();
    if (p.within_cluster_queue) preemption["withinClusterQueue"] = std::string(to_string(p.within_cluster_queue->value));
    if (p.reclaim_within_cohort) {
      preemption["reclaimWithinCohort"] = std::string(to_string(p.reclaim_within_cohort->value));
    }
    if (p.borrow_within_cohort || p.borrow_max_priority_threshold) {
      Json borrow = Json::object();
      if (p.borrow_within_cohort) borrow["policy"] = std::string(to_string(p.borrow_within_cohort->value));
      if (p.borrow_max_priority_threshold) borrow["maxPriorityThreshold"] = p.borrow_max_priority_threshold->value;
      preemption["borrowWithinCohort"] = std::move(borrow);
    }
    if (!preemption.empty()) spec["preemption"] = std::move(preemption);
  }
  if (queue.fair_sharing_weight) {
    spec["fairSharing"] = Json::object({{"weight", quantity_json(queue.fair_sharing_weight->value)}});
  }
  if (queue.flavor_fungibility) {
    const model::FlavorFungibility& f = *queue.flavor_fungibility;
    Json fungibility = Json::object();
    if (f.when_can_borrow) fungibility["whenCanBorrow"] = std::string(to_string(f.when_can_borrow->value));
    if (f.when_can_preempt) fungibility["whenCanPreempt"] = std::string(to_string(f.when_can_preempt->value));
    if (f.preference) fungibility["preference"] = std::string(to_string(f.preference->value));
    if (!fungibility.empty()) spec["flavorFungibility"] = std::move(fungibility);
  }
  if (queue.queueing_strategy) spec["queueingStrategy"] = std::string(to_string(queue.queueing_strategy->value));
}

Object local_queue_object(const LowerContext& context, const model::LocalQueue& queue, const std::string& cluster,
                          const std::string& cluster_queue, QueueCopy copy) {
  Object object = make_object(context, schema::Kind::LocalQueue, queue.name, queue.namespace_name.value,
                              queue.name_range);
  Json spec = Json::object();
  spec["clusterQueue"] = cluster_queue;
  if (queue.stop_policy && copy == QueueCopy::Manager) spec["stopPolicy"] = std::string(to_string(queue.stop_policy->value));
  if (queue.fair_sharing_weight) {
    spec["fairSharing"] = Json::object({{"weight", quantity_json(queue.fair_sharing_weight->value)}});
  }
  object.document["spec"] = std::move(spec);
  object.depends_on.push_back(address_of(cluster, schema::Kind::Namespace, "", queue.namespace_name.value));
  object.depends_on.push_back(address_of(cluster, schema::Kind::ClusterQueue, "", cluster_queue));
  return object;
}

Object topology_object(const LowerContext& context, const model::Topology& topology) {
  Object object = make_object(context, schema::Kind::Topology, topology.name, "", topology.name_range);
  Json levels = Json::array();
  for (const auto& level : topology.levels) levels.push_back(Json::object({{"nodeLabel", level.value}}));
  object.document["spec"] = Json::object({{"levels", std::move(levels)}});
  return object;
}

Object flavor_object(const LowerContext& context, const model::Flavor& flavor, const std::string& cluster) {
  Object object = make_object(context, schema::Kind::ResourceFlavor, flavor.name, "", flavor.name_range);
  Json spec = Json::object();
  if (!flavor.node_labels.empty()) {
    Json labels = Json::object();
    for (const auto& [key, value] : flavor.node_labels) labels[key] = value;
    spec["nodeLabels"] = std::move(labels);
  }
  if (!flavor.taints.empty()) {
    Json taints = Json::array();
    for (const model::Taint& taint : flavor.taints) {
      Json t = Json::object();
      t["key"] = taint.key.value;
      if (taint.value) t["value"] = taint.value->value;
      t["effect"] = std::string(to_string(taint.effect.value));
      taints.push_back(std::move(t));
    }
    spec["nodeTaints"] = std::move(taints);
  }
  if (!flavor.tolerations.empty()) {
    Json tolerations = Json::array();
    for (const model::Toleration& toleration : flavor.tolerations) {
      Json t = Json::object();
      if (toleration.key) t["key"] = toleration.key->value;
      t["operator"] = std::string(to_string(toleration.op.value));
      if (toleration.value) t["value"] = toleration.value->value;
      if (toleration.effect) t["effect"] = std::string(to_string(toleration.effect->value));
      if (toleration.toleration_seconds) t["tolerationSeconds"] = toleration.toleration_seconds->value;
      tolerations.push_back(std::move(t));
    }
    spec["tolerations"] = std::move(tolerations);
  }
  if (flavor.topology) {
    spec["topologyName"] = flavor.topology->name;
    object.depends_on.push_back(address_of(cluster, schema::Kind::Topology, "", flavor.topology->name));
  }
  if (!spec.empty()) object.document["spec"] = std::move(spec);
  return object;
}

Object cohort_object(const LowerContext& context, const model::Cohort& cohort,
                     const std::vector<model::ResourceGroup>& groups, const std::string& cluster) {
  Object object = make_object(context, schema::Kind::Cohort, cohort.name, "", cohort.name_range);
  Json spec = Json::object();
  if (cohort.parent) {
    spec["parentName"] = cohort.parent->name;
    object.depends_on.push_back(address_of(cluster, schema::Kind::Cohort, "", cohort.parent->name));
  }
  if (!groups.empty()) spec["resourceGroups"] = resource_groups_json(groups);
  if (cohort.fair_sharing_weight) {
    spec["fairSharing"] = Json::object({{"weight", quantity_json(cohort.fair_sharing_weight->value)}});
  }
  for (const model::ResourceGroup& group : groups) {
    for (const model::FlavorQuotas& flavor : group.flavors) {
      object.depends_on.push_back(address_of(cluster, schema::Kind::ResourceFlavor, "", flavor.flavor.name));
    }
  }
  if (!spec.empty()) object.document["spec"] = std::move(spec);
  return object;
}

Object priority_class_object(const LowerContext& context, const model::PriorityClass& priority) {
  Object object =
      make_object(context, schema::Kind::WorkloadPriorityClass, priority.name, "", priority.name_range);
  object.document["value"] = priority.value.value;
  if (priority.description) object.document["description"] = priority.description->value;
  return object;
}

Object namespace_object(const LowerContext& context, const model::Namespace& ns) {
  if (context.policy.kueue.platform.value != model::Platform::OpenShift) {
    return make_object(context, schema::Kind::Namespace, ns.name, "", ns.name_range, ns.labels);
  }
  // The Red Hat build of Kueue manages the jobs of labelled namespaces only.
  model::Labels labels = ns.labels;
  labels[std::string(schema::kOpenShiftManagedLabel)] = "true";
  return make_object(context, schema::Kind::Namespace, ns.name, "", ns.name_range, labels);
}

void finish_cluster(ClusterObjects& cluster) {
  // Sort the positions, then move the objects once into that order.
  std::vector<ApplyPosition> positions;
  positions.reserve(cluster.objects.size());
  for (const Object& object : cluster.objects) positions.push_back(apply_position(object));
  std::vector<Object> sorted;
  sorted.reserve(positions.size());
  for (const std::size_t index : apply_order(positions)) sorted.push_back(std::move(cluster.objects[index]));
  cluster.objects = std::move(sorted);

  std::unordered_set<std::string> present;
  for (const Object& object : cluster.objects) present.insert(address(cluster.cluster, object));
  for (Object& object : cluster.objects) {
    std::vector<std::string>& deps = object.depends_on;
    std::erase_if(deps, [&](const std::string& dep) { return !present.contains(dep); });
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  }
}

// Collects a cluster's objects for finish_cluster().
class CollectingSink final : public ObjectSink {
 public:
  explicit CollectingSink(std::vector<Object>& objects) : objects_(objects) {}
  void add(Object object) override { objects_.push_back(std::move(object)); }

 private:
  std::vector<Object>& objects_;
};

}  // namespace detail

ApplyPosition apply_position(const Object& object) {
  return ApplyPosition{schema::apply_rank(object.kind), object.namespace_name, object.name};
}

std::vector<std::size_t> apply_order(const std::vector<ApplyPosition>& positions) {
  // Indexes are sorted rather than the positions themselves: cheaper to move.
  std::vector<std::size_t> order(positions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const ApplyPosition& x = positions[a];
    const ApplyPosition& y = positions[b];
    if (x.rank != y.rank) return x.rank < y.rank;
    if (const int c = x.namespace_name.compare(y.namespace_name); c != 0) return c < 0;
    if (const int c = x.name.compare(y.name); c != 0) return c < 0;
    return a < b;
  });
  return order;
}

ClusterLowering::ClusterLowering(const sema::model::Policy& policy, LowerOptions options)
    : options_(std::move(options)), context_(std::make_unique<detail::LowerContext>(policy, options_)) {}

ClusterLowering::~ClusterLowering() = default;

std::size_t ClusterLowering::size() const { return 1 + context_->policy.workers.size(); }

const std::string& ClusterLowering::name(std::size_t index) const {
  return index == 0 ? context_->policy.manager.name : context_->policy.workers.at(index - 1).name;
}

ClusterRole ClusterLowering::role(std::size_t index) const {
  return index == 0 ? ClusterRole::Manager : ClusterRole::Worker;
}

void ClusterLowering::each_object(std::size_t index, ObjectSink& sink) const {
  detail::ClusterOut out{name(index), sink};
  if (index == 0) {
    detail::lower_manager(*context_, out);
  } else {
    detail::lower_worker(*context_, context_->policy.workers.at(index - 1), out);
  }
}

ClusterObjects ClusterLowering::cluster(std::size_t index) const {
  ClusterObjects cluster;
  cluster.cluster = name(index);
  cluster.role = role(index);
  detail::CollectingSink sink(cluster.objects);
  each_object(index, sink);
  detail::finish_cluster(cluster);
  return cluster;
}

std::optional<DesiredState> lower(const sema::model::Policy& policy, const LowerOptions& options,
                                  diag::Diagnostics& diagnostics) {
  validate(policy, diagnostics);
  if (diagnostics.has_errors()) return std::nullopt;

  const ClusterLowering lowering(policy, options);
  DesiredState state;
  state.policy = options.policy_name;
  state.clusters.reserve(lowering.size());
  for (std::size_t i = 0; i < lowering.size(); ++i) state.clusters.push_back(lowering.cluster(i));
  return state;
}

}  // namespace mkq::kueue
