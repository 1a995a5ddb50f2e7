// Quota blocks and resource groups of cluster queues, cohorts and overrides,
// and a worker's capacity blocks.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "compiler/sema/bind_declarations.h"

namespace mkq::sema::bind_detail {
namespace {

namespace codes = bind_codes;

const language::Block& kCapacitySchema = schema_at({"worker", "capacity"});

// The schema of the quota owner's blocks (their Kueue fields differ by owner).
const language::Block& owner_schema(QuotaOwner owner) {
  static const language::Block& cluster_queue = schema_at({"clusterqueue"});
  static const language::Block& cohort = schema_at({"cohort"});
  static const language::Block& override_ = schema_at({"worker", "override"});
  switch (owner) {
    case QuotaOwner::Cohort:
      return cohort;
    case QuotaOwner::Override:
      return override_;
    case QuotaOwner::ClusterQueue:
      break;
  }
  return cluster_queue;
}

const language::Block& quota_schema(QuotaOwner owner) { return *owner_schema(owner).child("quota"); }
const language::Block& group_schema(QuotaOwner owner) { return *owner_schema(owner).child("group"); }

// `key` is "nominal" for the quota itself, else the limit's name; the message
// is built only when there is something to report.
bool check_non_negative(Binder& binder, const Located<Quantity>& quantity, std::string_view key,
                        std::string_view resource) {
  if (!quantity.value.is_negative()) return true;
  const std::string found = quantity.value.to_string();
  if (key == "nominal") {
    binder.error(codes::kNegativeQuota, quantity.range,
                 fmt::format("the quota of '{}' must not be negative, found {}", resource, found));
  } else {
    binder.error(codes::kNegativeQuota, quantity.range,
                 fmt::format("'{}' of '{}' must not be negative, found {}", key, resource, found));
  }
  return false;
}

// One `RES = Q` or `RES = { nominal: Q, borrowing_limit: Q, lending_limit: Q }`.
std::optional<model::ResourceQuota> bind_resource(Binder& binder, const EvalAttribute& attribute, QuotaOwner owner,
                                                  bool allow_limits) {
  check_name(binder, NameFormat::ResourceName, attribute.name, attribute.name_range, "resource name");
  model::ResourceQuota quota;
  quota.resource = attribute.name;
  quota.resource_range = attribute.name_range;
  quota.range = attribute.range;
  const Value& value = attribute.value;
  if (value.is(ValueKind::Number)) {
    quota.nominal = {value.as_number(), value.origin};
    if (!check_non_negative(binder, quota.nominal, "nominal", attribute.name)) return std::nullopt;
    return quota;
  }
  if (!allow_limits || !value.is(ValueKind::Map)) {
    auto& d = report_type(binder, attribute.name, "a quantity", value);
    if (allow_limits && d.code == codes::kTypeMismatch) {
      d.notes.push_back({"a resource with limits is a map: { nominal: Q, borrowing_limit: Q, lending_limit: Q }",
                         std::nullopt});
    }
    return std::nullopt;
  }
  const auto entries = read_struct(binder, attribute.name, value, quota_schema(owner).resource.keys);
  bool ok = true;
  bool has_nominal = false;
  for (const auto& [key, item] : *entries) {
    const auto amount = read_quantity(binder, key, *item);
    if (!amount) {
      ok = false;
      continue;
    }
    ok = check_non_negative(binder, *amount, key, attribute.name) && ok;
    if (key == "nominal") {
      has_nominal = true;
      quota.nominal = *amount;
    } else {
      (key == "borrowing_limit" ? quota.borrowing_limit : quota.lending_limit) = *amount;
    }
  }
  if (!has_nominal) {
    binder.error(codes::kMissingField, value.origin,
                 fmt::format("resource '{}' needs a 'nominal' quota", attribute.name));
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  // Kueue enforces lending <= nominal for cluster queues, not for cohorts.
  if (owner != QuotaOwner::Cohort && quota.lending_limit &&
      quota.lending_limit->value.compare(quota.nominal.value) > 0) {
    binder.error(
        codes::kLendingAboveNominal, quota.lending_limit->range,
        fmt::format("'lending_limit' of '{}' must be less than or equal to its nominal quota ({}), found {}",
                    attribute.name, quota.nominal.value.to_string(), quota.lending_limit->value.to_string()));
    return std::nullopt;
  }
  return quota;
}

// A `quota "FLAVOR" { ... }` block, resources in written order.
std::optional<model::FlavorQuotas> bind_quota_block(Binder& binder, const EvalBlock& block, QuotaOwner owner) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, quota_schema(owner));
  const Members members(binder, block, quota_schema(owner));
  model::FlavorQuotas quotas;
  quotas.range = block.range;
  bool ok = label != nullptr;
  if (label != nullptr) {
    quotas.flavor = {label->text, label->range};
    ok = check_name(binder, NameFormat::Subdomain, label->text, label->range, "flavor name");
  }
  for (const EvalAttribute* attribute : members.attributes()) {
    if (attribute->value.is(ValueKind::Null)) continue;
    auto resource = bind_resource(binder, *attribute, owner, true);
    if (!resource) {
      ok = false;
      continue;
    }
    quotas.resources.push_back(std::move(*resource));
  }
  if (quotas.resources.empty() && ok) {
    binder.error(codes::kGroupResourceMismatch, label->range, "quota '" + label->text + "' lists no resource");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return quotas;
}

// The resources a quota block lists, sorted and unique (compared as sets).
std::vector<std::string> resource_set(const model::FlavorQuotas& quotas) {
  std::vector<std::string> result;
  result.reserve(quotas.resources.size());
  for (const model::ResourceQuota& quota : quotas.resources) result.push_back(quota.resource);
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

bool in_set(const std::vector<std::string>& set, const std::string& resource) {
  return std::binary_search(set.begin(), set.end(), resource);
}

std::string join(const std::vector<std::string>& items) {
  std::string result;
  for (const std::string& item : items) result += (result.empty() ? "" : ", ") + item;
  return result;
}

// Orders `quotas` like `covered` (same set assumed).
void order_like(model::FlavorQuotas& quotas, const std::vector<std::string>& covered) {
  std::stable_sort(quotas.resources.begin(), quotas.resources.end(),
                   [&](const model::ResourceQuota& a, const model::ResourceQuota& b) {
                     const auto rank = [&](const std::string& name) {
                       return std::find(covered.begin(), covered.end(), name) - covered.begin();
                     };
                     return rank(a.resource) < rank(b.resource);
                   });
}

struct GroupDraft {
  model::ResourceGroup group;
  std::vector<std::string> resources;  // resource_set() of its first quota
  bool is_explicit = false;
};

// A `group { quota ... }` block: the first quota's resources are the group's.
std::optional<GroupDraft> bind_group_block(Binder& binder, const EvalBlock& block, QuotaOwner owner) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  check_labels(binder, block, group_schema(owner));
  const Members members(binder, block, group_schema(owner));
  GroupDraft draft;
  draft.is_explicit = true;
  draft.group.range = block.range;
  for (const EvalBlock* quota_block : members.blocks("quota")) {
    auto quotas = bind_quota_block(binder, *quota_block, owner);
    if (!quotas) continue;
    if (draft.group.flavors.empty()) {
      for (const model::ResourceQuota& quota : quotas->resources) draft.group.covered_resources.push_back(quota.resource);
      draft.resources = resource_set(*quotas);
      draft.group.flavors.push_back(std::move(*quotas));
      continue;
    }
    const std::vector<std::string> mine = resource_set(*quotas);
    if (mine != draft.resources) {
      std::vector<std::string> missing;
      std::vector<std::string> extra;
      for (const std::string& r : draft.group.covered_resources) {
        if (!in_set(mine, r)) missing.push_back("'" + r + "'");
      }
      for (const model::ResourceQuota& q : quotas->resources) {
        if (!in_set(draft.resources, q.resource)) extra.push_back("'" + q.resource + "'");
      }
      std::string message = "quota '" + quotas->flavor.name +
                            "' must list the same resources as the rest of its group (" +
                            join(draft.group.covered_resources) + ")";
      if (!missing.empty()) message += ": missing " + join(missing);
      if (!extra.empty()) message += std::string(missing.empty() ? ": " : "; ") + "not in the group " + join(extra);
      auto& d = binder.error(codes::kGroupResourceMismatch, quotas->flavor.range, std::move(message));
      d.notes.push_back({"the group's resources are those of quota '" + draft.group.flavors.front().flavor.name + "'",
                         draft.group.flavors.front().flavor.range});
      continue;
    }
    order_like(*quotas, draft.group.covered_resources);
    draft.group.flavors.push_back(std::move(*quotas));
  }
  if (draft.group.flavors.empty()) {
    if (members.blocks("quota").empty()) {
      binder.error(codes::kGroupResourceMismatch, block.kind_range, "'group' has no quota block");
    }
    return std::nullopt;
  }
  return draft;
}

// The range of `resource` in a group's first flavor (where the group covers it).
diag::SourceRange where_covered(const model::ResourceGroup& group, const std::string& resource) {
  for (const model::ResourceQuota& quota : group.flavors.front().resources) {
    if (quota.resource == resource) return quota.resource_range;
  }
  return group.range;
}

}  // namespace

std::vector<model::ResourceGroup> bind_resource_groups(Binder& binder, const Members& members, QuotaOwner owner) {
  std::vector<GroupDraft> groups;
  for (const EvalBlock* block : members.all_blocks()) {
    if (block->kind == "group") {
      if (auto group = bind_group_block(binder, *block, owner)) groups.push_back(std::move(*group));
      continue;
    }
    if (block->kind != "quota") continue;
    auto quotas = bind_quota_block(binder, *block, owner);
    if (!quotas) continue;
    std::vector<std::string> resources = resource_set(*quotas);
    const auto same = std::find_if(groups.begin(), groups.end(), [&](const GroupDraft& g) {
      return !g.is_explicit && g.resources == resources;
    });
    if (same != groups.end()) {
      order_like(*quotas, same->group.covered_resources);
      same->group.flavors.push_back(std::move(*quotas));
      continue;
    }
    GroupDraft group;
    group.group.range = quotas->range;
    for (const model::ResourceQuota& quota : quotas->resources) group.group.covered_resources.push_back(quota.resource);
    group.resources = std::move(resources);
    group.group.flavors.push_back(std::move(*quotas));
    groups.push_back(std::move(group));
  }

  // Across groups: a resource or a flavor belongs to one group only. Every
  // name with its group, sorted by name and then by the order seen: the first
  // of a run of equal names is where it was first seen, each other one is
  // reported against it. (A few names per queue: two vectors and an in-place
  // sort rather than two maps of strings.)
  struct Seen {
    std::string_view name;
    std::size_t order = 0;
    std::size_t group = 0;
    diag::SourceRange range;
  };
  std::vector<Seen> resources;
  std::vector<Seen> flavors;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    for (const std::string& resource : groups[i].group.covered_resources) {
      resources.push_back({resource, resources.size(), i, {}});
    }
    for (const model::FlavorQuotas& flavor : groups[i].group.flavors) {
      flavors.push_back({flavor.flavor.name, flavors.size(), i, flavor.flavor.range});
    }
  }
  const auto by_name = [](const Seen& a, const Seen& b) {
    const int names = a.name.compare(b.name);
    return names != 0 ? names < 0 : a.order < b.order;
  };
  std::sort(resources.begin(), resources.end(), by_name);
  std::sort(flavors.begin(), flavors.end(), by_name);
  for (std::size_t first = 0, k = 1; k < resources.size(); ++k) {
    if (resources[k].name != resources[first].name) {
      first = k;
      continue;
    }
    const std::string resource(resources[k].name);
    const GroupDraft& group = groups[resources[k].group];
    auto& d = binder.error(codes::kResourceInTwoGroups, where_covered(group.group, resource),
                           fmt::format("resource '{}' is in two resource groups", resource));
    d.notes.push_back({"also covered here", where_covered(groups[resources[first].group].group, resource)});
    if (!group.is_explicit) {
      d.notes.push_back(
          {"quota blocks outside a 'group' block form one resource group per set of resources: give "
           "the flavors the same resources, or write 'group' blocks",
           std::nullopt});
    }
  }
  for (std::size_t first = 0, k = 1; k < flavors.size(); ++k) {
    if (flavors[k].name != flavors[first].name) {
      first = k;
      continue;
    }
    if (flavors[k].group == flavors[first].group) {
      auto& d = binder.error(codes::kDuplicateQuota, flavors[k].range,
                             fmt::format("flavor '{}' has two quota blocks", flavors[k].name));
      d.notes.push_back({"first here", flavors[first].range});
    } else {
      auto& d = binder.error(codes::kFlavorInTwoGroups, flavors[k].range,
                             fmt::format("flavor '{}' is in two resource groups", flavors[k].name));
      d.notes.push_back({"first here", flavors[first].range});
    }
  }

  std::vector<model::ResourceGroup> result;
  for (GroupDraft& group : groups) result.push_back(std::move(group.group));
  return result;
}

std::optional<model::Capacity> bind_capacity(Binder& binder, const EvalBlock& block) {
  Binder::InstantiationScope scope(binder, block.instantiated_from);
  const EvalLabel* label = check_labels(binder, block, kCapacitySchema);
  const Members members(binder, block, kCapacitySchema);
  model::Capacity capacity;
  capacity.range = block.range;
  bool ok = label != nullptr;
  if (label != nullptr) {
    capacity.flavor = {label->text, label->range};
    ok = check_name(binder, NameFormat::Subdomain, label->text, label->range, "flavor name");
  }
  for (const EvalAttribute* attribute : members.attributes()) {
    if (attribute->value.is(ValueKind::Null)) continue;
    auto resource = bind_resource(binder, *attribute, QuotaOwner::ClusterQueue, false);
    if (!resource) {
      ok = false;
      continue;
    }
    capacity.resources.push_back(std::move(*resource));
  }
  if (ok && capacity.resources.empty()) {
    binder.error(codes::kEmptyCapacity, block.kind_range,
                 "capacity '" + capacity.flavor.name + "' lists no resource: write e.g. { cpu = 8, memory = 32Gi }");
    return std::nullopt;
  }
  if (!ok) return std::nullopt;
  return capacity;
}

}  // namespace mkq::sema::bind_detail
