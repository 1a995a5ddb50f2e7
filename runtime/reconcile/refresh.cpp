// refresh: what every cluster holds of the objects the plan is about, read with
// one LIST per kind per cluster, clusters in parallel.
#include "runtime/reconcile/refresh.h"

#include <algorithm>
#include <map>
#include <set>

#include "base/parallel.h"
#include "compiler/kueue/schema.h"

namespace mkq::reconcile {
namespace {

// The objects of interest of one kind on one cluster.
struct KindInterest {
  std::string api_version, kind;
  std::set<std::string> namespaces;
  std::set<std::string> addresses;
};

// Kinds in apply order, so the LISTs go out in a stable order.
// The inventory entries of one cluster, in the inventory's order.
using ClusterInventory = std::vector<const state::InventoryEntry*>;

std::vector<KindInterest> interests_of(const std::string& cluster, const kueue::DesiredState& desired,
                                       const ClusterInventory& inventory) {
  std::map<std::string, KindInterest> by_kind;
  const auto note = [&](const std::string& api_version, const std::string& kind, const std::string& namespace_name,
                        const std::string& address) {
    KindInterest& interest = by_kind[api_version + "/" + kind];
    interest.api_version = api_version;
    interest.kind = kind;
    interest.namespaces.insert(namespace_name);
    interest.addresses.insert(address);
  };
  for (const kueue::ClusterObjects& objects : desired.clusters) {
    if (objects.cluster != cluster) continue;
    for (const kueue::Object& object : objects.objects) {
      note(object.api_version, object.kind, object.namespace_name, kueue::address(cluster, object));
    }
  }
  for (const state::InventoryEntry* entry : inventory) {
    note(entry->ref.api_version, entry->ref.kind, entry->ref.namespace_name, entry->ref.address());
  }
  std::vector<KindInterest> out;
  for (auto& [key, interest] : by_kind) out.push_back(std::move(interest));
  std::stable_sort(out.begin(), out.end(), [](const KindInterest& a, const KindInterest& b) {
    const int ra = kueue::schema::apply_rank(a.kind), rb = kueue::schema::apply_rank(b.kind);
    if (ra != rb) return ra < rb;
    return a.api_version + "/" + a.kind < b.api_version + "/" + b.kind;
  });
  return out;
}

std::string failure(const std::string& what, const kube::Error& error) {
  if (error.transport()) return error.message;
  return what + ": " + error.message;
}

// The Namespaces of the cluster's inventory that the plan may delete.
std::vector<std::string> namespaces_that_may_go(const std::string& cluster, const kueue::DesiredState& desired,
                                                const ClusterInventory& inventory, bool destroy) {
  std::set<std::string> declared;
  for (const kueue::ClusterObjects& objects : desired.clusters) {
    if (objects.cluster != cluster) continue;
    for (const kueue::Object& object : objects.objects) {
      if (object.kind == "Namespace") declared.insert(object.name);
    }
  }
  std::vector<std::string> out;
  for (const state::InventoryEntry* entry : inventory) {
    if (entry->ref.kind != "Namespace" || entry->ref.api_version != "v1") continue;
    if (destroy || declared.count(entry->ref.name) == 0) out.push_back(entry->ref.name);
  }
  return out;
}

// The kinds of one discovery document ("/api/v1", "/apis/GROUP/VERSION") that
// live in namespaces and can be listed. Events are left out: they are records
// about objects, not objects a namespace holds.
void add_listable(const Json& document, const std::string& group, const std::string& version,
                  std::vector<kube::ResourceType>& out) {
  if (!document.is_object() || !document.contains("resources") || !document["resources"].is_array()) return;
  for (const Json& resource : document["resources"]) {
    if (!resource.is_object() || !resource.value("namespaced", false)) continue;
    const std::string name = resource.value("name", std::string());
    const std::string kind = resource.value("kind", std::string());
    if (name.empty() || name.find('/') != std::string::npos || kind == "Event") continue;
    const Json verbs = resource.value("verbs", Json::array());
    if (std::find(verbs.begin(), verbs.end(), Json("list")) == verbs.end()) continue;
    out.push_back(kube::ResourceType{group, version, kind, name, true});
  }
}

// Every namespaced kind the server lists: the core group and each group's
// preferred version.
kube::Result<std::vector<kube::ResourceType>> listable_namespaced_kinds(kube::Client& client) {
  std::vector<kube::ResourceType> out;
  auto core = client.request("GET", "/api/v1", nullptr);
  if (!core.ok()) return core.error();
  add_listable(core.value(), "", "v1", out);
  auto groups = client.request("GET", "/apis", nullptr);
  if (!groups.ok()) return groups.error();
  for (const Json& group : groups.value().value("groups", Json::array())) {
    if (!group.is_object()) continue;
    const Json preferred = group.value("preferredVersion", Json::object());
    const std::string group_version = preferred.value("groupVersion", std::string());
    const std::size_t slash = group_version.find('/');
    if (slash == std::string::npos) continue;
    auto resources = client.request("GET", "/apis/" + group_version, nullptr);
    if (!resources.ok()) return resources.error();
    add_listable(resources.value(), group_version.substr(0, slash), group_version.substr(slash + 1), out);
  }
  return out;
}

// What each namespace holds, of every listable kind. One namespace is listed
// kind by kind in that namespace; several are listed once per kind across all
// namespaces (a destroy of a policy with hundreds of namespaces must not cost
// hundreds of LISTs per kind). A failure is recorded for the namespaces it
// concerns: they count as holding objects.
void read_namespace_contents(kube::Client& client, const std::string& cluster, const std::vector<std::string>& names,
                             ClusterLive& live) {
  const auto kinds = listable_namespaced_kinds(client);
  const std::set<std::string> wanted(names.begin(), names.end());
  const auto fail_all = [&](const std::string& error) {
    for (const std::string& name : names) {
      NamespaceContents& contents = live.namespace_contents[name];
      if (contents.error.empty()) contents.error = error;
    }
  };
  for (const std::string& name : names) live.namespace_contents[name];
  if (!kinds.ok()) {
    fail_all(failure("discovery", kinds.error()));
    return;
  }
  const bool one = wanted.size() == 1;
  for (const kube::ResourceType& type : kinds.value()) {
    kube::ListOptions options;
    if (one) options.namespace_name = *wanted.begin();
    auto listed = client.list_text(type, options);
    if (!listed.ok()) {
      fail_all(failure("list " + type.plural, listed.error()));
      return;
    }
    for (const kube::ObjectText& item : listed.value().items) {
      const std::string namespace_name = one ? *wanted.begin() : item.namespace_name();
      if (wanted.count(namespace_name) == 0) continue;
      live.namespace_contents[namespace_name].addresses.push_back(
          base::object_address(cluster, type.kind, namespace_name, item.name()));
    }
  }
}

ClusterLive refresh_cluster(const Target& target, const kueue::DesiredState& desired, const ClusterInventory& inventory,
                            const RefreshOptions& refresh_options) {
  ClusterLive live;
  live.cluster = target.cluster;
  if (target.client == nullptr) {
    live.reachable = false;
    live.error = target.connect_error.empty() ? "no connection to the cluster" : target.connect_error;
    return live;
  }
  kube::Client& client = *target.client;
  const auto fail = [&](const std::string& message) {
    live.reachable = false;
    live.error = message;
    live.objects.clear();
  };
  for (const KindInterest& interest : interests_of(target.cluster, desired, inventory)) {
    auto type = client.resource_for(interest.api_version, interest.kind);
    if (!type.ok()) {
      if (type.error().not_found()) {
        live.unserved_kinds.push_back(interest.api_version + "/" + interest.kind);
        continue;
      }
      fail(failure("discover " + interest.kind, type.error()));
      return live;
    }
    live.types[interest.api_version + "/" + interest.kind] = type.value();
    kube::ListOptions options;
    if (type.value().namespaced && interest.namespaces.size() == 1) options.namespace_name = *interest.namespaces.begin();
    auto listed = client.list_text(type.value(), options);
    if (!listed.ok()) {
      fail(failure("list " + type.value().plural, listed.error()));
      return live;
    }
    for (kube::ObjectText& item : listed.value().items) {
      const std::string address =
          base::object_address(target.cluster, interest.kind, item.namespace_name(), item.name());
      if (interest.addresses.count(address) != 0) live.objects[address] = std::move(item);
    }
  }
  const std::vector<std::string> may_go = namespaces_that_may_go(target.cluster, desired, inventory, refresh_options.destroy);
  if (!may_go.empty()) read_namespace_contents(client, target.cluster, may_go, live);
  return live;
}

}  // namespace

const ClusterLive* LiveState::find(const std::string& cluster) const {
  for (const ClusterLive& c : clusters) {
    if (c.cluster == cluster) return &c;
  }
  return nullptr;
}

LiveState refresh(const kueue::DesiredState& desired, const std::vector<state::InventoryEntry>& inventory,
                  const std::vector<Target>& targets, const RefreshOptions& options) {
  LiveState out;
  out.clusters.resize(targets.size());
  std::map<std::string, ClusterInventory> inventory_of;
  for (const state::InventoryEntry& entry : inventory) inventory_of[entry.ref.cluster].push_back(&entry);
  static const ClusterInventory kNone;
  base::run_parallel(targets.size(), options.parallelism, [&](std::size_t i) {
    try {
      const auto entries = inventory_of.find(targets[i].cluster);
      out.clusters[i] =
          refresh_cluster(targets[i], desired, entries == inventory_of.end() ? kNone : entries->second, options);
    } catch (const std::exception& e) {
      out.clusters[i] = ClusterLive{};
      out.clusters[i].cluster = targets[i].cluster;
      out.clusters[i].reachable = false;
      out.clusters[i].error = std::string("reading the cluster failed: ") + e.what();
    }
  });
  return out;
}

}  // namespace mkq::reconcile
