// Internal to the binder: the policy under construction and the binders of each
// declaration area. Each bind_<kind>() checks one top-level block on its own
// (schema, types, names, local rules) and adds it to the draft; bind.cpp then
// resolves references and checks the rules that span declarations.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "compiler/sema/bind_reader.h"
#include "compiler/sema/codes_bind.h"
#include "compiler/sema/model.h"

namespace mkq::sema::bind_detail {

// Hashes a key as its string_view, so that a Table is searched by a view
// without making a string.
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
};

// Declarations of one kind, in policy order, unique by key (the name, or
// "namespace/name"); a second declaration with a key is reported and dropped.
template <typename T>
class Table {
 public:
  // `what` describes the declaration for the duplicate message, e.g.
  // "clusterqueue 'cq'": a string, or a function that makes it (called only
  // for a duplicate, so that adding 10,000 queues builds no message). Returns
  // false when the key was taken.
  template <typename What>
  bool add(Binder& binder, T item, std::string key, const What& what) {
    const auto [it, inserted] = index_.emplace(std::move(key), items_.size());
    if (!inserted) {
      const T& first = items_[it->second];
      Binder::InstantiationScope scope(binder, item.instantiated_from);
      std::string described;
      if constexpr (std::is_invocable_v<const What&>) {
        described = what();
      } else {
        described = what;
      }
      auto& d = binder.error(bind_codes::kDuplicateDeclaration, item.name_range,
                             fmt::format("{} is declared twice", described));
      d.notes.push_back({"first declared here", first.name_range});
      return false;
    }
    items_.push_back(std::move(item));
    return true;
  }
  const T* find(std::string_view key) const {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second];
  }
  T* find(std::string_view key) {
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second];
  }
  std::vector<T>& items() { return items_; }
  const std::vector<T>& items() const { return items_; }
  void reserve(std::size_t count) {
    items_.reserve(count);
    index_.reserve(count);
  }
  // Every key, sorted.
  std::vector<std::string> keys() const {
    std::vector<std::string> result;
    result.reserve(index_.size());
    for (const auto& entry : index_) result.push_back(entry.first);
    std::sort(result.begin(), result.end());
    return result;
  }

 private:
  std::vector<T> items_;
  // Hashed, not ordered: a policy of 10,000 queues adds as many keys of a
  // common prefix ("queue-1234"), which an ordered map compares byte by byte
  // at every level (a tenth of bind's time).
  std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> index_;
};

// What one declaration wrote about the Kueue-wide dispatcher settings, so that
// bind.cpp can check that they agree.
struct DispatcherSetting {
  std::string owner;  // "dispatch 'a'" or "the kueue block"
  std::optional<Located<model::Dispatcher>> mode;
  std::optional<Located<std::int64_t>> step;
  std::optional<Located<std::string>> origin;
};

struct Draft {
  std::optional<Located<std::string>> identity;  // the first `policy "NAME" {}`
  std::vector<model::Manager> managers;  // exactly one is allowed
  Table<model::Worker> workers;
  Table<model::Flavor> flavors;
  Table<model::Topology> topologies;
  Table<model::Cohort> cohorts;
  Table<model::ClusterQueue> cluster_queues;
  Table<model::LocalQueue> local_queues;  // key "namespace/name"
  Table<model::Namespace> namespaces;
  Table<model::PriorityClass> priority_classes;
  Table<model::Dispatch> dispatches;
  Table<model::Access> access;            // key "namespace/name" ("/name" cluster-wide)
  Table<model::Integration> integrations;  // the catalogue: std/integrations first, then the policy's
  std::vector<const EvalBlock*> kueue_blocks;
  model::KueueSettings kueue;
  std::vector<DispatcherSetting> dispatcher_settings;  // of the dispatches, in policy order
  std::optional<DispatcherSetting> kueue_setting;      // of the (first) kueue block
};

// The top-level kinds bind() dispatches, in its order (for the test that the
// language table lists exactly these).
std::vector<std::string_view> top_level_kinds();

// One function per top-level kind; each checks the block and adds it to the draft.
void bind_identity(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_manager(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_worker(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_flavor(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_topology(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_cohort(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_cluster_queue(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_local_queue(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_namespace(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_priority_class(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_dispatch(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_kueue(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_access(Binder& binder, const EvalBlock& block, Draft& draft);
void bind_integration(Binder& binder, const EvalBlock& block, Draft& draft);

// Once every block is bound: what the kueue block enables is in the catalogue
// (E3015, E3018), and the policy's own integrations are enabled (W3003).
void check_integrations(Binder& binder, Draft& draft);

// A `localqueue` block nested in clusterqueue `cluster_queue` (nullptr at the top level).
void bind_local_queue_in(Binder& binder, const EvalBlock& block, const model::ClusterQueue* cluster_queue,
                         Draft& draft);

// Which declaration owns quota blocks: limits and their rules differ.
enum class QuotaOwner { ClusterQueue, Cohort, Override };

// The resource groups of the `quota` and `group` blocks among `members`:
// explicit groups as written, quota blocks outside a group grouped by identical
// resource sets, in order. Reports resources or flavors in two groups, flavors
// that do not list exactly their group's resources, bad resource names,
// negative quotas and (for cluster queues) lending limits above nominal.
std::vector<model::ResourceGroup> bind_resource_groups(Binder& binder, const Members& members, QuotaOwner owner);

// A worker's `capacity "FLAVOR" { ... }` block (nominal quantities only).
std::optional<model::Capacity> bind_capacity(Binder& binder, const EvalBlock& block);

// A `mode`/`dispatcher` value: "all-at-once", "incremental", Kueue's own
// dispatcher names, or another dispatcher's name.
std::optional<Located<model::Dispatcher>> read_dispatcher(Binder& binder, std::string_view field, const Value& value);

// The declaration's common part from its label (and `instantiated_from`).
model::Declaration declaration_of(const EvalBlock& block, const EvalLabel* label);

}  // namespace mkq::sema::bind_detail
