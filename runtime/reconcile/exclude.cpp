// exclude_clusters: what --exclude-cluster leaves out of a plan (see exclude.h).
#include "runtime/reconcile/exclude.h"

#include <algorithm>
#include <map>
#include <set>

#include "compiler/kueue/schema.h"

namespace mkq::reconcile {
namespace {

using kueue::schema::Kind;

std::string kind_name(Kind kind) { return std::string(kueue::schema::info(kind).name); }

// The name of the Secret a live MultiKueueCluster reads ("" when none).
std::string secret_read_by(const Json& multikueue_cluster) {
  const Json* node = &multikueue_cluster;
  for (const char* key : {"spec", "clusterSource", "kubeConfig", "location"}) {
    if (!node->is_object() || !node->contains(key)) return {};
    node = &(*node)[key];
  }
  return node->is_string() ? node->get<std::string>() : std::string();
}

// The manager's objects that exist for `worker`: its MultiKueueCluster and the
// Secret that one reads -- as the policy declares it (the MultiKueueCluster's
// dependency) and as the cluster has it (the live object's location), so that
// neither an old nor a new Secret of the worker is touched.
std::set<std::string> manager_objects_for(const std::string& worker, const kueue::ClusterObjects* manager,
                                          const LiveState& live,
                                          const std::vector<state::InventoryEntry>& inventory) {
  std::set<std::string> out;
  if (manager == nullptr) return out;
  const std::string multikueue_cluster = base::object_address(manager->cluster, kind_name(Kind::MultiKueueCluster), "", worker);
  out.insert(multikueue_cluster);
  std::set<std::string> secret_names;
  std::map<std::string, const kueue::Object*> declared;  // by address
  for (const kueue::Object& object : manager->objects) declared[kueue::address(manager->cluster, object)] = &object;
  if (const auto it = declared.find(multikueue_cluster); it != declared.end()) {
    for (const std::string& dependency : it->second->depends_on) {
      const auto secret = declared.find(dependency);
      if (secret != declared.end() && secret->second->kind == kind_name(Kind::Secret)) {
        secret_names.insert(secret->second->name);
      }
    }
  }
  if (const ClusterLive* manager_live = live.find(manager->cluster); manager_live != nullptr) {
    if (const auto it = manager_live->objects.find(multikueue_cluster); it != manager_live->objects.end()) {
      if (std::string name = secret_read_by(it->second.decode()); !name.empty()) secret_names.insert(std::move(name));
    }
  }
  const auto is_its_secret = [&](const std::string& kind, const std::string& name) {
    return kind == kind_name(Kind::Secret) && secret_names.count(name) != 0;
  };
  for (const auto& [address, object] : declared) {
    if (is_its_secret(object->kind, object->name)) out.insert(address);
  }
  for (const state::InventoryEntry& entry : inventory) {
    if (entry.ref.cluster == manager->cluster && is_its_secret(entry.ref.kind, entry.ref.name)) out.insert(entry.ref.address());
  }
  return out;
}

// The manager's objects in `desired` (const or not); null when it has none.
template <typename Desired>
auto* manager_of(Desired& desired) {
  const auto it = std::find_if(desired.clusters.begin(), desired.clusters.end(), [](const auto& c) {
    return c.role == kueue::ClusterRole::Manager;
  });
  return it == desired.clusters.end() ? nullptr : &*it;
}

}  // namespace

std::vector<std::string> workers_outside(const std::vector<std::string>& named, const std::string& manager,
                                         const kueue::DesiredState& desired,
                                         const std::vector<state::InventoryEntry>& inventory) {
  std::set<std::string> out;
  for (const kueue::ClusterObjects& cluster : desired.clusters) {
    if (cluster.role == kueue::ClusterRole::Worker) out.insert(cluster.cluster);
  }
  for (const state::InventoryEntry& entry : inventory) {
    if (entry.ref.cluster != manager) out.insert(entry.ref.cluster);
  }
  for (const std::string& name : named) out.erase(name);
  return {out.begin(), out.end()};
}

int keep_manager_objects_for(const std::vector<std::string>& named, const LiveState& live,
                             kueue::DesiredState& desired, std::vector<state::InventoryEntry>& inventory) {
  kueue::ClusterObjects* manager = manager_of(desired);
  if (manager == nullptr) return 0;
  std::set<std::string> kept;
  for (const std::string& worker : named) {
    if (worker == manager->cluster) continue;
    const std::set<std::string> its = manager_objects_for(worker, manager, live, inventory);
    kept.insert(its.begin(), its.end());
  }
  std::erase_if(manager->objects,
                [&](const kueue::Object& o) { return kept.count(kueue::address(manager->cluster, o)) == 0; });
  const std::size_t before = inventory.size();
  std::erase_if(inventory, [&](const state::InventoryEntry& e) {
    return e.ref.cluster == manager->cluster && kept.count(e.ref.address()) == 0;
  });
  return static_cast<int>(before - inventory.size());
}

std::vector<ExcludedCluster> exclude_clusters(const std::vector<std::string>& clusters, const LiveState& live,
                                              kueue::DesiredState& desired,
                                              std::vector<state::InventoryEntry>& inventory) {
  const std::set<std::string> names(clusters.begin(), clusters.end());
  const kueue::ClusterObjects* manager = manager_of(desired);

  std::vector<ExcludedCluster> out;
  std::set<std::string> left;  // addresses on the manager left as they are
  for (const std::string& name : names) {
    const std::set<std::string> its = manager_objects_for(name, manager, live, inventory);
    ExcludedCluster excluded{name, 0};
    for (const state::InventoryEntry& entry : inventory) {
      if (entry.ref.cluster == name || its.count(entry.ref.address()) != 0) ++excluded.objects;
    }
    left.insert(its.begin(), its.end());
    out.push_back(std::move(excluded));
  }

  std::erase_if(desired.clusters, [&](const kueue::ClusterObjects& c) { return names.count(c.cluster) != 0; });
  for (kueue::ClusterObjects& cluster : desired.clusters) {
    std::erase_if(cluster.objects,
                  [&](const kueue::Object& o) { return left.count(kueue::address(cluster.cluster, o)) != 0; });
  }
  std::erase_if(inventory, [&](const state::InventoryEntry& e) {
    return names.count(e.ref.cluster) != 0 || left.count(e.ref.address()) != 0;
  });
  return out;
}

}  // namespace mkq::reconcile
