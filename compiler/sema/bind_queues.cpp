// Flavors, topologies and queues: `flavor`, `topology`, `cohort`,
// `clusterqueue` and `localqueue`.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"
#include "compiler/sema/bind_declarations.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kFlavorSchema = schema_at({"flavor"});
const language::Block& kTopologySchema = schema_at({"topology"});
const language::Block& kCohortSchema = schema_at({"cohort"});
const language::Block& kClusterQueueSchema = schema_at({"clusterqueue"});
const language::Block& kLocalQueueSchema = schema_at({"localqueue"});
const language::Block& kPreemptionSchema = schema_at({"clusterqueue", "preemption"});
const language::Block& kFungibilitySchema = schema_at({"clusterqueue", "flavor_fungibility"});

const std::vector<std::string_view>& kTaintKeys = kFlavorSchema.field("taints")->keys;
const std::vector<std::string_view>& kTolerationKeys = kFlavorSchema.field("tolerations")->keys;
using facts::kHostnameLabel;
using facts::kMaxTopologyLevels;

// `fair_sharing { weight = Q }` of a cohort, cluster queue or local queue
// (`owner`: its schema, where the block is nested).
std::optional<Located<Quantity>> bind_fair_sharing(Binder& binder, const EvalBlock* block,
                                                   const language::Block& owner) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  const language::Block& schema = *owner.child("fair_sharing");
  check_labels(binder, *block, schema);
  const Members members(binder, *block, schema);
  auto weight = quantity_field(binder, members, "weight");
  if (weight && weight->value.is_negative()) {
    binder.error(codes::kValueOutOfRange, weight->range,
                 fmt::format("field 'weight' must not be negative, found {}", weight->value.to_string()));
    return std::nullopt;
  }
  return weight;
}

// Reports every borrowing/lending limit of `groups`: they need a cohort
// (cluster queues) or a parent (cohorts). `why` completes "needs ...".
void reject_limits(Binder& binder, const std::vector<model::ResourceGroup>& groups, const std::string& why) {
  for (const model::ResourceGroup& group : groups) {
    for (const model::FlavorQuotas& flavor : group.flavors) {
      for (const model::ResourceQuota& quota : flavor.resources) {
        if (quota.borrowing_limit) {
          binder.error(codes::kLimitWithoutCohort, quota.borrowing_limit->range,
                       "'borrowing_limit' of '" + quota.resource + "' needs " + why);
        }
        if (quota.lending_limit) {
          binder.error(codes::kLimitWithoutCohort, quota.lending_limit->range,
                       "'lending_limit' of '" + quota.resource + "' needs " + why);
        }
      }
    }
  }
}

// The elements of a list-of-maps field (taints, tolerations), each checked
// against `keys`; elements that are not maps are reported and skipped.
std::vector<std::pair<const Value*, std::vector<std::pair<std::string, const Value*>>>> read_map_list(
    Binder& binder, std::string_view field, const Value& value, const std::vector<std::string_view>& keys,
    std::size_t max_items) {
  std::vector<std::pair<const Value*, std::vector<std::pair<std::string, const Value*>>>> result;
  if (!value.is(ValueKind::List)) {
    report_type(binder, field, "a list of maps", value);
    return result;
  }
  if (value.as_list().size() > max_items) {
    binder.error(codes::kTooMany, value.origin,
                 fmt::format("field '{}' has {} entries; a flavor takes at most {}", field,
                             value.as_list().size(), max_items));
  }
  for (const Value& item : value.as_list()) {
    if (!item.is(ValueKind::Map)) {
      if (item.is(ValueKind::Secret)) {
        report_type(binder, field, "a list of maps", item);
      } else {
        binder.error(
            codes::kTypeMismatch, item.origin,
            fmt::format("each element of '{}' must be a map, found {}", field, describe_found(item)));
      }
      continue;
    }
    result.emplace_back(&item, *read_struct(binder, field, item, keys));
  }
  return result;
}

std::vector<model::Taint> bind_taints(Binder& binder, const Value& value) {
  std::vector<model::Taint> taints;
  for (const auto& [map, entries] : read_map_list(binder, "taints", value, kTaintKeys, facts::kMaxNodeTaints)) {
    model::Taint taint;
    taint.range = map->origin;
    bool has_key = false;
    bool has_effect = false;
    bool ok = true;
    for (const auto& [key, item] : entries) {
      if (key == "key") {
        if (auto text = read_string(binder, "key", *item)) {
          ok = check_name(binder, NameFormat::LabelKey, text->value, text->range, "taint key") && ok;
          taint.key = std::move(*text);
          has_key = true;
        } else {
          ok = false;
        }
      } else if (key == "value") {
        if (auto text = read_string(binder, "value", *item)) {
          ok = check_name(binder, NameFormat::LabelValue, text->value, text->range, "taint value") && ok;
          taint.value = std::move(*text);
        } else {
          ok = false;
        }
      } else if (auto effect = read_enum(binder, "effect", *item, model::kTaintEffects)) {
        taint.effect = *effect;
        has_effect = true;
      } else {
        ok = false;
      }
    }
    if (!has_key && ok) binder.error(codes::kMissingField, map->origin, "a taint needs a 'key'");
    if (!has_effect && ok) binder.error(codes::kMissingField, map->origin, "a taint needs an 'effect'");
    if (!ok || !has_key || !has_effect) continue;
    const auto first = std::find_if(taints.begin(), taints.end(), [&](const model::Taint& t) {
      return t.key.value == taint.key.value && t.effect.value == taint.effect.value;
    });
    if (first != taints.end()) {
      auto& d = binder.error(
          codes::kDuplicateTaint, taint.range,
          fmt::format("two taints with key '{}' and effect '{}': taints must be unique by key and "
                      "effect",
                      taint.key.value, model::to_string(taint.effect.value)));
      d.notes.push_back({"first here", first->range});
      continue;
    }
    taints.push_back(std::move(taint));
  }
  return taints;
}

std::vector<model::Toleration> bind_tolerations(Binder& binder, const Value& value) {
  std::vector<model::Toleration> tolerations;
  for (const auto& [map, entries] : read_map_list(binder, "tolerations", value, kTolerationKeys, facts::kMaxTolerations)) {
    model::Toleration toleration;
    toleration.range = map->origin;
    toleration.op = {model::TolerationOperator::Equal, map->origin};
    bool ok = true;
    for (const auto& [key, item] : entries) {
      if (key == "key" || key == "value") {
        auto text = read_string(binder, key, *item);
        if (!text) {
          ok = false;
        } else if (key == "key") {
          if (!text->value.empty()) {
            ok = check_name(binder, NameFormat::LabelKey, text->value, text->range, "toleration key") && ok;
          }
          toleration.key = std::move(*text);
        } else {
          ok = check_name(binder, NameFormat::LabelValue, text->value, text->range, "toleration value") && ok;
          toleration.value = std::move(*text);
        }
      } else if (key == "operator") {
        if (auto op = read_enum(binder, "operator", *item, model::kTolerationOperators)) {
          toleration.op = *op;
        } else {
          ok = false;
        }
      } else if (key == "effect") {
        if (auto effect = read_enum(binder, "effect", *item, model::kTaintEffects)) {
          toleration.effect = *effect;
        } else {
          ok = false;
        }
      } else if (auto seconds = read_integer(binder, "toleration_seconds", *item)) {
        toleration.toleration_seconds = *seconds;
      } else {
        ok = false;
      }
    }
    if (!ok) continue;
    const bool exists = toleration.op.value == model::TolerationOperator::Exists;
    if ((!toleration.key || toleration.key->value.empty()) && !exists) {
      binder.error(codes::kTolerationRule, toleration.op.range,
                   "a toleration without a 'key' must have operator 'Exists' (it matches every key and value)");
    }
    if (exists && toleration.value && !toleration.value->value.empty()) {
      binder.error(codes::kTolerationRule, toleration.value->range,
                   "a toleration with operator 'Exists' must not have a 'value'");
    }
    if (toleration.toleration_seconds &&
        (!toleration.effect || toleration.effect->value != model::TaintEffect::NoExecute)) {
      binder.error(codes::kTolerationRule, toleration.toleration_seconds->range,
                   "'toleration_seconds' needs effect 'NoExecute'");
    }
    tolerations.push_back(std::move(toleration));
  }
  return tolerations;
}

model::NamespaceSelector bind_namespace_selector(Binder& binder, const Members& members,
                                                 const model::Declaration& owner) {
  model::NamespaceSelector selector;
  selector.range = owner.name_range;
  const EvalAttribute* attribute = members.field("namespaces");
  if (attribute == nullptr) return selector;
  const Value& value = attribute->value;
  selector.range = value.origin;
  if (value.is(ValueKind::All)) return selector;
  if (value.is(ValueKind::Map)) {
    selector.kind = model::NamespaceSelection::MatchLabels;
    if (auto labels = read_labels(binder, "namespaces", value)) selector.match_labels = std::move(*labels);
    return selector;
  }
  if (!value.is(ValueKind::List)) {
    report_type(binder, "namespaces", "all, a list of namespace names or a map of labels", value);
    return selector;
  }
  selector.kind = model::NamespaceSelection::Names;
  auto names = read_string_list(binder, "namespaces", value);
  if (!names) return selector;
  if (names->empty()) {
    auto& d = binder.error(codes::kEmptyNamespaceList, value.origin,
                           "'namespaces' is an empty list: no namespace could use this queue");
    d.notes.push_back({"write 'all', a list of namespace names, or a map of namespace labels", std::nullopt});
    return selector;
  }
  std::map<std::string, diag::SourceRange, std::less<>> seen;
  for (Located<std::string>& name : *names) {
    check_name(binder, NameFormat::DnsLabel, name.value, name.range, "namespace name");
    const auto [first, inserted] = seen.emplace(name.value, name.range);
    if (!inserted) {
      auto& d = binder.error(codes::kDuplicateListItem, name.range, "namespace '" + name.value + "' is listed twice");
      d.notes.push_back({"first here", first->second});
      continue;
    }
    selector.names.push_back(std::move(name));
  }
  std::sort(selector.names.begin(), selector.names.end(),
            [](const Located<std::string>& a, const Located<std::string>& b) { return a.value < b.value; });
  return selector;
}

std::optional<model::Preemption> bind_preemption(Binder& binder, const EvalBlock* block) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kPreemptionSchema);
  const Members members(binder, *block, kPreemptionSchema);
  model::Preemption preemption;
  preemption.range = block->range;
  preemption.within_cluster_queue =
      enum_field(binder, members, "within_cluster_queue", model::kWithinClusterQueuePolicies);
  preemption.reclaim_within_cohort =
      enum_field(binder, members, "reclaim_within_cohort", model::kReclaimWithinCohortPolicies);
  preemption.borrow_within_cohort =
      enum_field(binder, members, "borrow_within_cohort", model::kBorrowWithinCohortPolicies);
  if (auto threshold = integer_field(binder, members, "borrow_max_priority_threshold", INT32_MIN, INT32_MAX)) {
    preemption.borrow_max_priority_threshold =
        Located<std::int32_t>{static_cast<std::int32_t>(threshold->value), threshold->range};
  }
  return preemption;
}

std::optional<model::FlavorFungibility> bind_fungibility(Binder& binder, const EvalBlock* block) {
  if (block == nullptr) return std::nullopt;
  Binder::InstantiationScope scope(binder, block->instantiated_from);
  check_labels(binder, *block, kFungibilitySchema);
  const Members members(binder, *block, kFungibilitySchema);
  model::FlavorFungibility fungibility;
  fungibility.range = block->range;
  fungibility.when_can_borrow = enum_field(binder, members, "when_can_borrow", model::kFungibilityPolicies);
  fungibility.when_can_preempt = enum_field(binder, members, "when_can_preempt", model::kFungibilityPolicies);
  fungibility.preference = enum_field(binder, members, "preference", model::kFungibilityPreferences);
  return fungibility;
}

}  // namespace

void bind_flavor(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kFlavorSchema);
  const Members members(binder, block, kFlavorSchema);
  model::Flavor flavor;
  static_cast<model::Declaration&>(flavor) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  bool node_labels_failed = false;
  if (const EvalAttribute* a = members.field("node_labels")) {
    flavor.node_labels_range = a->value.origin;
    node_labels_failed = true;
    if (auto labels = read_labels(binder, "node_labels", a->value)) {
      node_labels_failed = false;
      flavor.node_labels = std::move(*labels);
      if (flavor.node_labels.size() > facts::kMaxNodeLabels) {
        binder.error(codes::kTooMany, a->value.origin,
                     fmt::format("field 'node_labels' has {} labels; a flavor takes at most {}",
                                 flavor.node_labels.size(), facts::kMaxNodeLabels));
      }
    }
  }
  if (const EvalAttribute* a = members.field("taints")) flavor.taints = bind_taints(binder, a->value);
  if (const EvalAttribute* a = members.field("tolerations")) flavor.tolerations = bind_tolerations(binder, a->value);
  if (auto topology = string_field(binder, members, "topology")) {
    check_name(binder, NameFormat::Subdomain, topology->value, topology->range, "topology name");
    if (flavor.node_labels.empty() && !node_labels_failed) {
      binder.error(codes::kTopologyWithoutNodeLabels, topology->range,
                   "a flavor with a topology needs at least one node label");
    }
    flavor.topology = model::Ref{topology->value, topology->range};
  }
  if (label == nullptr) return;
  const std::string what = "flavor '" + flavor.name + "'";
  draft.flavors.add(binder, std::move(flavor), label->text, what);
}

void bind_topology(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kTopologySchema);
  const Members members(binder, block, kTopologySchema);
  model::Topology topology;
  static_cast<model::Declaration&>(topology) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  const EvalAttribute* attribute = members.field("levels");
  if (attribute == nullptr) {
    binder.error(codes::kMissingField, topology.name_range, "topology '" + topology.name + "' needs field 'levels'");
  } else if (auto levels = read_string_list(binder, "levels", attribute->value)) {
    if (levels->empty() || levels->size() > kMaxTopologyLevels) {
      binder.error(
          codes::kTopologyLevels, attribute->value.origin,
          fmt::format("a topology needs 1 to {} levels, found {}", kMaxTopologyLevels, levels->size()));
    }
    for (std::size_t i = 0; i < levels->size(); ++i) {
      const Located<std::string>& level = (*levels)[i];
      check_name(binder, NameFormat::LabelKey, level.value, level.range, "level label key");
      const auto first = std::find_if(levels->begin(), levels->begin() + static_cast<std::ptrdiff_t>(i),
                                      [&](const Located<std::string>& l) { return l.value == level.value; });
      if (first != levels->begin() + static_cast<std::ptrdiff_t>(i)) {
        auto& d = binder.error(codes::kTopologyLevels, level.range,
                               "level '" + level.value + "' is listed twice: levels must be unique");
        d.notes.push_back({"first here", first->range});
      }
      if (level.value == kHostnameLabel && i + 1 != levels->size()) {
        binder.error(codes::kTopologyLevels, level.range,
                     "'kubernetes.io/hostname' can only be the last (lowest) level of a topology");
      }
    }
    topology.levels = std::move(*levels);
  }
  if (label == nullptr) return;
  const std::string what = "topology '" + topology.name + "'";
  draft.topologies.add(binder, std::move(topology), label->text, what);
}

void bind_cohort(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kCohortSchema);
  const Members members(binder, block, kCohortSchema);
  model::Cohort cohort;
  static_cast<model::Declaration&>(cohort) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  if (auto parent = string_field(binder, members, "parent")) {
    check_name(binder, NameFormat::Subdomain, parent->value, parent->range, "cohort name");
    cohort.parent = model::Ref{parent->value, parent->range};
  }
  cohort.resource_groups = bind_resource_groups(binder, members, QuotaOwner::Cohort);
  if (!cohort.parent && members.field("parent") == nullptr) {
    reject_limits(binder, cohort.resource_groups, "a parent: cohort '" + cohort.name + "' has none");
  }
  cohort.fair_sharing_weight = bind_fair_sharing(binder, members.block("fair_sharing"), kCohortSchema);
  if (label == nullptr) return;
  const std::string what = "cohort '" + cohort.name + "'";
  draft.cohorts.add(binder, std::move(cohort), label->text, what);
}

void bind_cluster_queue(Binder& binder, const EvalBlock& block, Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label =
      check_labels(binder, block, kClusterQueueSchema);
  const Members members(binder, block, kClusterQueueSchema);
  model::ClusterQueue queue;
  static_cast<model::Declaration&>(queue) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  queue.namespaces = bind_namespace_selector(binder, members, queue);
  if (auto cohort = string_field(binder, members, "cohort")) {
    check_name(binder, NameFormat::Subdomain, cohort->value, cohort->range, "cohort name");
    queue.cohort = model::Ref{cohort->value, cohort->range};
  }
  queue.resource_groups = bind_resource_groups(binder, members, QuotaOwner::ClusterQueue);
  if (!queue.cohort && members.field("cohort") == nullptr) {
    reject_limits(binder, queue.resource_groups, "a cohort: clusterqueue '" + queue.name + "' has none");
  }
  queue.preemption = bind_preemption(binder, members.block("preemption"));
  queue.fair_sharing_weight = bind_fair_sharing(binder, members.block("fair_sharing"), kClusterQueueSchema);
  queue.flavor_fungibility = bind_fungibility(binder, members.block("flavor_fungibility"));
  queue.queueing_strategy = enum_field(binder, members, "queueing_strategy", model::kQueueingStrategies);
  queue.stop_policy = enum_field(binder, members, "stop_policy", model::kStopPolicies);
  queue.worker_name = {queue.name, queue.name_range};
  if (auto worker_name = string_field(binder, members, "worker_name")) {
    check_name(binder, NameFormat::Subdomain, worker_name->value, worker_name->range, "name");
    queue.worker_name = std::move(*worker_name);
  }
  // A second clusterqueue of one name is reported once, at its name: its
  // nested localqueues (often the first's, copied with it) are not bound, so
  // that they add no follow-on "declared twice".
  const bool duplicate = label != nullptr && draft.cluster_queues.find(label->text) != nullptr;
  for (const EvalBlock* nested : members.blocks("localqueue")) {
    if (duplicate) break;
    bind_local_queue_in(binder, *nested, &queue, draft);  // an unnamed queue is reported; its name is ""
  }
  if (label == nullptr) return;
  const auto what = [&] { return fmt::format("clusterqueue '{}'", label->text); };  // the queue's name
  draft.cluster_queues.add(binder, std::move(queue), label->text, what);
}

void bind_local_queue(Binder& binder, const EvalBlock& block, Draft& draft) {
  bind_local_queue_in(binder, block, nullptr, draft);
}

void bind_local_queue_in(Binder& binder, const EvalBlock& block, const model::ClusterQueue* cluster_queue,
                         Draft& draft) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kLocalQueueSchema);
  const Members members(binder, block, kLocalQueueSchema);
  model::LocalQueue queue;
  static_cast<model::Declaration&>(queue) = declaration_of(block, label);
  if (label != nullptr) check_name(binder, NameFormat::Subdomain, label->text, label->range, "name");
  if (block.in_label) {
    queue.namespace_name = {block.in_label->text, block.in_label->range};
    check_name(binder, NameFormat::DnsLabel, block.in_label->text, block.in_label->range, "namespace name");
  }
  const EvalAttribute* target = members.field("clusterqueue");
  if (cluster_queue != nullptr) {  // nested: the enclosing queue is the target
    queue.cluster_queue = {cluster_queue->name, cluster_queue->name_range};
    if (target != nullptr) {
      binder.error(codes::kUnknownField, target->name_range,
                   "'clusterqueue' is implied by the enclosing clusterqueue '" + cluster_queue->name + "'");
    }
  } else if (target != nullptr) {
    if (auto name = read_string(binder, "clusterqueue", target->value)) {
      check_name(binder, NameFormat::Subdomain, name->value, name->range, "clusterqueue name");
      queue.cluster_queue = {name->value, name->range};
    }
  } else if (label != nullptr) {
    binder.error(codes::kMissingField, queue.name_range,
                 "localqueue '" + queue.name + "' needs field 'clusterqueue'");
  }
  if (auto is_default = bool_field(binder, members, "default")) {
    queue.is_default = is_default->value;
    if (is_default->value && label != nullptr && queue.name != "default") {
      auto& d = binder.error(codes::kDefaultQueueName, queue.name_range,
                             "a default LocalQueue must be named 'default', not '" + queue.name + "'");
      d.notes.push_back({"made the namespace's default here", is_default->range});
    }
  }
  queue.stop_policy = enum_field(binder, members, "stop_policy", model::kStopPolicies);
  queue.fair_sharing_weight = bind_fair_sharing(binder, members.block("fair_sharing"), kLocalQueueSchema);
  if (label == nullptr || !block.in_label) return;
  const auto what = [&] {
    return fmt::format("localqueue '{}' in namespace '{}'", label->text, block.in_label->text);
  };
  draft.local_queues.add(binder, std::move(queue), fmt::format("{}/{}", block.in_label->text, label->text),
                         what);
}

}  // namespace mkq::sema::bind_detail
