// Rules of single ClusterQueue, Cohort and Topology objects that the binder
// does not check: the size limits of resource groups (VALIDATION.md rules 1-3,
// 11-13, 32), preemption and flavor fungibility combinations (22, 23), fair
// sharing weights (24, 36) and the length of topology levels (47).
//
// A worker's `override` becomes a ClusterQueue on that worker, so its resource
// groups are held to a ClusterQueue's limits too. Queues mirrored from the
// capacity of a worker keep the manager's groups (only quotas change), so they
// need no check of their own.
#include <algorithm>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "compiler/kueue/codes.h"
#include "compiler/kueue/schema.h"
#include "compiler/kueue/validate_internal.h"

namespace mkq::kueue::validate_detail {
namespace {

// Whose resource groups are checked, as messages name it, and which limits apply.
struct GroupOwner {
  std::string description;                // "clusterqueue 'q'", "cohort 'c'", ...
  const model::Declaration* declaration;  // for "instantiated from here" notes
  bool is_cluster_queue;                  // the totals (rules 11-13) apply to ClusterQueues only
};

const std::string& kind_noun(const GroupOwner& owner) {
  static const std::string cluster_queue = "a ClusterQueue";
  static const std::string cohort = "a Cohort";
  return owner.is_cluster_queue ? cluster_queue : cohort;
}

// Whether `inner` lies within `outer` (a quota written in a template lies
// outside the queue that uses it).
bool contains(const diag::SourceRange& outer, const diag::SourceRange& inner) {
  return outer.file == inner.file && outer.begin.offset <= inner.begin.offset &&
         inner.end.offset <= outer.end.offset;
}

// Points a diagnostic about part of an owner's groups at the owner too, when
// the part is written elsewhere (in a template).
void note_owner(diag::Diagnostic& d, const GroupOwner& owner) {
  if (owner.declaration == nullptr || contains(owner.declaration->range, d.range)) return;
  d.notes.push_back({owner.description + " is declared here", owner.declaration->name_range});
}

// A group formed from quota blocks written outside a `group` block: its range
// is its first quota block's.
bool is_implicit(const model::ResourceGroup& group) {
  return !group.flavors.empty() && group.range == group.flavors.front().range;
}

// Where a group covers `index`-th resource (its first flavor lists it there).
diag::SourceRange covered_at(const model::ResourceGroup& group, std::size_t index) {
  if (group.flavors.empty() || index >= group.flavors.front().resources.size()) return group.range;
  return group.flavors.front().resources[index].resource_range;
}

void check_resource_groups(const std::vector<model::ResourceGroup>& groups, const GroupOwner& owner,
                           Reporter& reporter) {
  if (groups.size() > schema::kMaxResourceGroups) {
    auto& d =
        reporter.error(codes::kTooManyResourceGroups, groups[schema::kMaxResourceGroups].range,
                       fmt::format("{} has {} resource groups; {} takes at most {}", owner.description, groups.size(),
                                   kind_noun(owner), schema::kMaxResourceGroups),
                       owner.declaration);
    note_owner(d, owner);
    if (std::any_of(groups.begin(), groups.end(), is_implicit)) {
      d.notes.push_back(
          {"quota blocks outside a 'group' block form one resource group per set of resources: "
           "flavors that provide the same resources share a group",
           std::nullopt});
    }
  }
  std::size_t total_flavors = 0;
  std::size_t total_resources = 0;
  for (const model::ResourceGroup& group : groups) {
    const std::size_t resources = group.covered_resources.size();
    const std::size_t flavors = group.flavors.size();
    if (resources > schema::kMaxCoveredResources) {
      auto& d =
          reporter.error(codes::kTooManyCoveredResources, covered_at(group, schema::kMaxCoveredResources),
                         fmt::format("a resource group of {} covers {} resources; {} takes at most {} per group",
                                     owner.description, resources, kind_noun(owner), schema::kMaxCoveredResources),
                         owner.declaration);
      note_owner(d, owner);
    }
    if (flavors > schema::kMaxFlavorsPerGroup) {
      auto& d =
          reporter.error(codes::kTooManyGroupFlavors, group.flavors[schema::kMaxFlavorsPerGroup].flavor.range,
                         fmt::format("a resource group of {} has {} flavors; {} takes at most {} per group",
                                     owner.description, flavors, kind_noun(owner), schema::kMaxFlavorsPerGroup),
                         owner.declaration);
      note_owner(d, owner);
    }
    if (!owner.is_cluster_queue) continue;
    if (flavors * resources > schema::kMaxFlavorResourceCombinations) {
      auto& d = reporter.error(codes::kTooManyFlavorResources, group.range,
                               fmt::format("a resource group of {} has {} flavor-resource pairs ({} flavors of {} resources); "
                                           "a ClusterQueue takes at most {} per group",
                                           owner.description, flavors * resources, flavors, resources,
                                           schema::kMaxFlavorResourceCombinations),
                               owner.declaration);
      note_owner(d, owner);
    }
    // The first flavor and resource past the limit, where the total crosses it.
    if (total_flavors <= schema::kMaxTotalFlavors && total_flavors + flavors > schema::kMaxTotalFlavors) {
      std::size_t all = 0;
      for (const model::ResourceGroup& g : groups) all += g.flavors.size();
      auto& d = reporter.error(codes::kTooManyFlavorsTotal,
                               group.flavors[schema::kMaxTotalFlavors - total_flavors].flavor.range,
                               fmt::format("{} has {} flavors across its resource groups; a ClusterQueue takes at most {}",
                                           owner.description, all, schema::kMaxTotalFlavors),
                               owner.declaration);
      d.notes.push_back({fmt::format("this is flavor {}", schema::kMaxTotalFlavors + 1), std::nullopt});
      note_owner(d, owner);
    }
    if (total_resources <= schema::kMaxTotalCoveredResources &&
        total_resources + resources > schema::kMaxTotalCoveredResources) {
      std::size_t all = 0;
      for (const model::ResourceGroup& g : groups) all += g.covered_resources.size();
      auto& d = reporter.error(codes::kTooManyResourcesTotal,
                               covered_at(group, schema::kMaxTotalCoveredResources - total_resources),
                               fmt::format("{} covers {} resources across its resource groups; a ClusterQueue takes at most {}",
                                           owner.description, all, schema::kMaxTotalCoveredResources),
                               owner.declaration);
      d.notes.push_back(
          {fmt::format("this is resource {}", schema::kMaxTotalCoveredResources + 1), std::nullopt});
      note_owner(d, owner);
    }
    total_flavors += flavors;
    total_resources += resources;
  }
}

// Kueue rejects reclaimWithinCohort=Never (its default) with a borrowWithinCohort policy.
void check_preemption(const model::ClusterQueue& queue, Reporter& reporter) {
  if (!queue.preemption) return;
  const model::Preemption& preemption = *queue.preemption;
  if (!preemption.borrow_within_cohort ||
      preemption.borrow_within_cohort->value == model::BorrowWithinCohortPolicy::Never) {
    return;
  }
  const auto& reclaim = preemption.reclaim_within_cohort;
  if (reclaim && reclaim->value != model::ReclaimWithinCohortPolicy::Never) return;
  auto& d = reporter.error(codes::kBorrowWithoutReclaim, preemption.borrow_within_cohort->range,
                           fmt::format("'borrow_within_cohort' = \"{}\" needs 'reclaim_within_cohort' other than \"Never\"",
                                       model::to_string(preemption.borrow_within_cohort->value)),
                           &queue);
  if (reclaim) {
    d.notes.push_back({"'reclaim_within_cohort' is \"Never\" here", reclaim->range});
  } else {
    d.notes.push_back({"'reclaim_within_cohort' is not set, and Kueue's default is \"Never\"", std::nullopt});
  }
  d.notes.push_back(
      {"a queue may preempt to borrow only if it may also preempt to reclaim its quota: set "
       "'reclaim_within_cohort' to \"LowerPriority\" or \"Any\"",
       std::nullopt});
}

// A fungibility preference only applies when both searches go on to the next flavor.
void check_fungibility(const model::ClusterQueue& queue, Reporter& reporter) {
  if (!queue.flavor_fungibility || !queue.flavor_fungibility->preference) return;
  const model::FlavorFungibility& f = *queue.flavor_fungibility;
  struct Setting {
    const char* field;
    const std::optional<model::Located<model::FungibilityPolicy>>& value;
    model::FungibilityPolicy kueue_default;
  };
  const Setting settings[] = {
      {"when_can_borrow", f.when_can_borrow, model::FungibilityPolicy::MayStopSearch},
      {"when_can_preempt", f.when_can_preempt, model::FungibilityPolicy::TryNextFlavor},
  };
  std::vector<diag::Note> notes;
  for (const Setting& setting : settings) {
    const model::FungibilityPolicy value = setting.value ? setting.value->value : setting.kueue_default;
    if (value == model::FungibilityPolicy::TryNextFlavor) continue;
    const std::string_view spelled = model::to_string(value);
    if (setting.value) {
      notes.push_back({fmt::format("'{}' is \"{}\" here", setting.field, spelled), setting.value->range});
    } else {
      notes.push_back(
          {fmt::format("'{}' is not set, and Kueue's default is \"{}\"", setting.field, spelled), std::nullopt});
    }
  }
  if (notes.empty()) return;
  auto& d = reporter.error(
      codes::kFungibilityPreference, f.preference->range,
      "'preference' needs both 'when_can_borrow' and 'when_can_preempt' to be \"TryNextFlavor\"", &queue);
  d.notes.insert(d.notes.end(), notes.begin(), notes.end());
}

// 0 < weight <= 1n collapses to 0 in Kueue's share arithmetic; Kueue refuses it.
void check_weight(const std::optional<model::Located<sema::Quantity>>& weight,
                  const model::Declaration& owner, Reporter& reporter) {
  if (!weight) return;
  const sema::Quantity one_nano = *sema::Quantity::parse("1n");
  if (weight->value.is_zero() || weight->value.is_negative() || weight->value.compare(one_nano) > 0) return;
  auto& d = reporter.error(codes::kFairSharingWeightTooSmall, weight->range,
                           fmt::format("fair-sharing weight {} is too small: a weight other than 0 must be greater than 1n",
                                       weight->value.to_string()),
                           &owner);
  d.notes.push_back(
      {"a weight of 0 is allowed: it always comes last when unused quota is shared", std::nullopt});
}

void check_topology(const model::Topology& topology, Reporter& reporter) {
  for (const model::Located<std::string>& level : topology.levels) {
    if (level.value.size() <= schema::kMaxTopologyLevelLength) continue;
    reporter.error(codes::kTopologyLevelTooLong, level.range,
                   fmt::format("topology level is {} characters long; a Topology level takes at most {}",
                               level.value.size(), schema::kMaxTopologyLevelLength),
                   &topology);
  }
}

}  // namespace

void check_queues(const model::Policy& policy, Reporter& reporter) {
  for (const model::ClusterQueue& queue : policy.cluster_queues) {
    check_resource_groups(queue.resource_groups, {"clusterqueue '" + queue.name + "'", &queue, true},
                          reporter);
    check_preemption(queue, reporter);
    check_fungibility(queue, reporter);
    check_weight(queue.fair_sharing_weight, queue, reporter);
  }
  for (const model::Cohort& cohort : policy.cohorts) {
    check_resource_groups(cohort.resource_groups, {"cohort '" + cohort.name + "'", &cohort, false}, reporter);
    check_weight(cohort.fair_sharing_weight, cohort, reporter);
  }
  for (const model::Worker& worker : policy.workers) {
    for (const model::ClusterQueueOverride& override_ : worker.overrides) {
      if (override_.resource_groups.empty()) continue;
      check_resource_groups(override_.resource_groups,
                            {"the override of clusterqueue '" + override_.cluster_queue.name +
                                 "' on worker '" + worker.name + "'",
                             &worker, true},
                            reporter);
    }
  }
  for (const model::Topology& topology : policy.topologies) check_topology(topology, reporter);
}

}  // namespace mkq::kueue::validate_detail
