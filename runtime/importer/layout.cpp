// What becomes which declaration: dispatches from multikueue AdmissionChecks
// and their MultiKueueConfigs, workers from MultiKueueClusters, and each
// worker's own version of a mirrored ClusterQueue, read from the worker.
#include <algorithm>
#include <optional>
#include <set>

#include "compiler/facts/kueue.h"
#include "runtime/importer/importer_internal.h"

namespace mkq::importer {
namespace {

std::string kind_of(const Json& object) { return object.value("kind", std::string()); }

std::string string_in(const Json& object, std::initializer_list<const char*> path) {
  const Json* node = &object;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return {};
    node = &(*node)[key];
  }
  return node->is_string() ? node->get<std::string>() : std::string();
}

const Json* find_object(const ClusterSource& cluster, const std::string& kind, const std::string& ns,
                        const std::string& name) {
  for (const Json& object : cluster.objects) {
    if (kind_of(object) == kind && namespace_of(object) == ns && name_of(object) == name) return &object;
  }
  return nullptr;
}

// The admission checks a ClusterQueue names (either form of the field).
std::vector<std::string> checks_of(const Json& queue) {
  std::vector<std::string> names;
  const Json spec = queue.value("spec", Json::object());
  if (spec.contains("admissionChecksStrategy") &&
      spec["admissionChecksStrategy"].contains("admissionChecks")) {
    for (const Json& check : spec["admissionChecksStrategy"]["admissionChecks"]) {
      if (check.is_object()) names.push_back(check.value("name", std::string()));
    }
  }
  if (spec.contains("admissionChecks") && spec["admissionChecks"].is_array()) {
    for (const Json& check : spec["admissionChecks"]) {
      if (check.is_string()) names.push_back(check.get<std::string>());
    }
  }
  return names;
}

// The ClusterQueues that name the admission check `check`.
std::vector<std::string> queues_naming(const ClusterSource& manager, const std::string& check) {
  std::vector<std::string> out;
  for (const Json& queue : manager.objects) {
    if (kind_of(queue) != "ClusterQueue") continue;
    const std::vector<std::string> checks = checks_of(queue);
    if (std::find(checks.begin(), checks.end(), check) != checks.end()) out.push_back(name_of(queue));
  }
  return out;
}

// The clusters a MultiKueueConfig lists, in order; none when it was not read.
std::vector<std::string> config_clusters(const ClusterSource& manager, const std::string& config) {
  std::vector<std::string> out;
  const Json* found = find_object(manager, "MultiKueueConfig", "", config);
  if (found == nullptr || !found->contains("spec") || !(*found)["spec"].contains("clusters")) return out;
  for (const Json& cluster : (*found)["spec"]["clusters"]) {
    if (cluster.is_string()) out.push_back(cluster.get<std::string>());
  }
  return out;
}

std::vector<Dispatch> dispatches_of(const ClusterSource& manager) {
  std::vector<Dispatch> out;
  for (const Json& check : manager.objects) {
    if (kind_of(check) != "AdmissionCheck" ||
        string_in(check, {"spec", "controllerName"}) != facts::kMultiKueueControllerName) {
      continue;
    }
    Dispatch d;
    d.name = name_of(check);
    d.config = string_in(check, {"spec", "parameters", "name"});
    if (d.config.empty()) d.config = d.name;
    d.queues = queues_naming(manager, d.name);
    d.workers = config_clusters(manager, d.config);
    out.push_back(std::move(d));
  }
  return out;
}

// The worker's version of the manager's `queue`: the ClusterQueue of the
// same name, else the one the worker's LocalQueues of the same namespace and
// name point at.
const Json* mirror_of(const ClusterSource& manager, const ClusterSource& worker, const std::string& queue) {
  if (const Json* same = find_object(worker, "ClusterQueue", "", queue)) return same;
  for (const Json& local : manager.objects) {
    if (kind_of(local) != "LocalQueue" || string_in(local, {"spec", "clusterQueue"}) != queue) continue;
    const Json* theirs = find_object(worker, "LocalQueue", namespace_of(local), name_of(local));
    if (theirs == nullptr) continue;
    if (const Json* mirror =
            find_object(worker, "ClusterQueue", "", string_in(*theirs, {"spec", "clusterQueue"}))) {
      return mirror;
    }
  }
  return nullptr;
}

Json groups_of(const Json& queue) {
  const Json spec = queue.value("spec", Json::object());
  return spec.value("resourceGroups", Json::array());
}

const ClusterSource* source_of(const Snapshot& snapshot, const std::string& worker) {
  for (const ClusterSource& c : snapshot.clusters) {
    if (c.role == kueue::ClusterRole::Worker && c.name == worker) return &c;
  }
  return nullptr;
}

// The worker's version of the manager's queue `ours`, when the worker was
// read and holds one: its name and, when they differ, its quotas.
std::optional<QueueOverride> worker_version(const ClusterSource& manager, const ClusterSource* worker,
                                            const Json* ours, const std::string& queue) {
  if (worker == nullptr || ours == nullptr) return std::nullopt;
  const Json* theirs = mirror_of(manager, *worker, queue);
  if (theirs == nullptr) return std::nullopt;
  QueueOverride o;
  o.name = name_of(*theirs);
  if (groups_of(*theirs) != groups_of(*ours)) o.quotas = quota_blocks(theirs->value("spec", Json::object()));
  return o;
}

// A name every worker read gives a queue becomes its worker_name; then an
// override keeps only what differs from the queue's own.
void settle_names(Layout& layout) {
  std::map<std::string, std::set<std::string>> names;  // queue -> the names the workers read give it
  for (const WorkerPlan& worker : layout.workers) {
    for (const auto& [queue, o] : worker.overrides) names[queue].insert(o.name);
  }
  for (const auto& [queue, given] : names) {
    if (given.size() == 1 && *given.begin() != queue) layout.worker_name[queue] = *given.begin();
  }
  for (WorkerPlan& worker : layout.workers) {
    for (auto it = worker.overrides.begin(); it != worker.overrides.end();) {
      const auto renamed = layout.worker_name.find(it->first);
      const std::string& expected = renamed == layout.worker_name.end() ? it->first : renamed->second;
      if (it->second.name == expected) it->second.name.clear();
      it = it->second.name.empty() && it->second.quotas.empty() ? worker.overrides.erase(it) : std::next(it);
    }
  }
}

// Each worker's version of every queue a dispatch sends it.
void add_overrides(const Snapshot& snapshot, Layout& layout) {
  const ClusterSource& manager = snapshot.clusters.front();
  for (const Dispatch& d : layout.dispatches) {
    for (const std::string& queue : d.queues) {
      const Json* ours = find_object(manager, "ClusterQueue", "", queue);
      for (WorkerPlan& worker : layout.workers) {
        if (std::find(d.workers.begin(), d.workers.end(), worker.name) == d.workers.end()) continue;
        if (auto o = worker_version(manager, source_of(snapshot, worker.name), ours, queue)) {
          worker.overrides[queue] = std::move(*o);
        }
      }
    }
  }
  settle_names(layout);
}

// Removes what holds Kueue's default below `node` (at `path`); true when
// `node` itself is nothing but a default, for the caller to remove.
bool strip_defaults(const std::string& kind, const std::string& path, Json& node) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end();) {
      const std::string below = path.empty() ? it.key() : path + "." + it.key();
      it = strip_defaults(kind, below, it.value()) ? node.erase(it) : std::next(it);
    }
    return node.empty() && !path.empty() && holds_default(kind, path, node);
  }
  if (node.is_array()) {
    for (Json& item : node) strip_defaults(kind, path + "[]", item);
    return false;
  }
  return holds_default(kind, path, node);
}

}  // namespace

std::string name_of(const Json& object) { return string_in(object, {"metadata", "name"}); }
std::string namespace_of(const Json& object) { return string_in(object, {"metadata", "namespace"}); }

std::vector<const Json*> Layout::of_kind(const std::string& kind) const {
  std::vector<const Json*> out;
  for (const Json* object : objects) {
    if (kind_of(*object) == kind) out.push_back(object);
  }
  return out;
}

std::vector<const Json*> Layout::localqueues_of(const std::string& queue) const {
  std::vector<const Json*> out;
  for (const Json* object : of_kind("LocalQueue")) {
    if (string_in(*object, {"spec", "clusterQueue"}) == queue) out.push_back(object);
  }
  return out;
}

Layout lay_out(const Snapshot& snapshot) {
  Layout layout;
  const ClusterSource& manager = snapshot.clusters.front();
  layout.manager = manager.name;
  layout.manager_context = manager.context;
  layout.objects_read = manager.objects;
  for (Json& object : layout.objects_read) {
    strip_defaults(kind_of(object), "", object);
    layout.objects.push_back(&object);
  }
  layout.dispatches = dispatches_of(manager);
  for (const Json* cluster : layout.of_kind("MultiKueueCluster")) {
    WorkerPlan worker;
    worker.name = name_of(*cluster);
    worker.secret = string_in(*cluster, {"spec", "clusterSource", "kubeConfig", "location"});
    for (const ClusterSource& source : snapshot.clusters) {
      if (source.role == kueue::ClusterRole::Worker && source.name == worker.name)
        worker.context = source.context;
    }
    layout.workers.push_back(std::move(worker));
  }
  std::sort(layout.workers.begin(), layout.workers.end(),
            [](const WorkerPlan& a, const WorkerPlan& b) { return a.name < b.name; });
  add_overrides(snapshot, layout);
  return layout;
}

}  // namespace mkq::importer
