// Reading what exists into a Snapshot: Kueue YAML files, or live clusters.
// Only the kinds a policy can declare are read; every other object is named
// in Snapshot::skipped, and a Secret is never read at all.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

#include "base/object_ref.h"
#include "compiler/facts/kueue.h"
#include "runtime/importer/importer.h"
#include "sandbox/yaml.h"

namespace mkq::importer {
namespace {

// The kinds a policy declares, in apply order (kueue::schema's).
constexpr std::array<const char*, 9> kKueueKinds = {
    "Topology",          "ResourceFlavor",   "Cohort",         "WorkloadPriorityClass",
    "MultiKueueCluster", "MultiKueueConfig", "AdmissionCheck", "ClusterQueue",
    "LocalQueue"};

bool is_kueue_kind(const Json& object) {
  const std::string api = object.value("apiVersion", std::string());
  const std::string kind = object.value("kind", std::string());
  return api.starts_with(std::string(facts::kKueueGroup) + "/") &&
         std::find(kKueueKinds.begin(), kKueueKinds.end(), kind) != kKueueKinds.end();
}

std::string meta(const Json& object, const char* key) {
  const auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return {};
  return m->value(key, std::string());
}

// An object without a name (generateName) is named by its prefix and '*'.
std::string address_of(const std::string& cluster, const Json& object) {
  std::string name = meta(object, "name");
  if (name.empty()) name = meta(object, "generateName") + "*";
  return base::object_address(cluster, object.value("kind", std::string("?")), meta(object, "namespace"),
                              name);
}

// Another mkq policy's object: not ours to import.
std::string owning_policy(const Json& object) {
  const auto m = object.find("metadata");
  if (m == object.end() || !m->contains("labels") || !(*m)["labels"].is_object()) return {};
  return (*m)["labels"].value(std::string(facts::kPolicyLabel), std::string());
}

// Sorts `object` into the cluster, or into `skipped` with the reason.
void take(ClusterSource& cluster, Json object, std::vector<std::string>& skipped) {
  if (!object.is_object()) return;
  const std::string kind = object.value("kind", std::string());
  const std::string address = address_of(cluster.name, object);
  if (kind == "Secret") {
    skipped.push_back(address + ": a Secret is never imported (its values stay where they are)");
  } else if (!is_kueue_kind(object)) {
    skipped.push_back(address + ": " + (kind.empty() ? std::string("an object without a kind") : kind) +
                      " is not a kind a policy declares");
  } else if (meta(object, "name").empty()) {
    skipped.push_back(address + ": no metadata.name (generateName is not a name a policy can keep)");
  } else if (const std::string owner = owning_policy(object); !owner.empty()) {
    skipped.push_back(address + ": applied by mkq policy '" + owner + "'");
  } else {
    cluster.objects.push_back(std::move(object));
  }
}

base::Result<void> read_file(const std::string& path, ClusterSource& cluster,
                             std::vector<std::string>& skipped) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::Error::config("cannot read " + path);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    return base::Error::config(path + ": not YAML: " + e.what());
  }
  for (const YAML::Node& document : documents) {
    Json object;
    try {
      object = Json::parse(sandbox::yaml_to_json(document).dump());
    } catch (const std::exception& e) {
      return base::Error::config(path + ": " + e.what());
    }
    if (object.is_null()) continue;  // an empty document ("---" at the end)
    if (object.value("kind", std::string()) == "List" && object.contains("items") &&
        object["items"].is_array()) {
      for (Json& item : object["items"]) take(cluster, std::move(item), skipped);
      continue;
    }
    take(cluster, std::move(object), skipped);
  }
  return {};
}

// Server-set fields are no part of what a policy says.
void strip_server_fields(Json& object) {
  object.erase("status");
  const auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return;
  for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
                          "selfLink", "finalizers"}) {
    m->erase(key);
  }
}

base::Result<void> read_cluster(kube::Client& client, ClusterSource& cluster,
                                std::vector<std::string>& skipped) {
  for (const char* kind : kKueueKinds) {
    const std::string api_version(facts::kKueueApiVersion);
    kube::Result<kube::ResourceType> type = client.resource_for(api_version, kind);
    if (!type) {
      return base::Error(type.error().status, type.error().reason,
                         "cluster " + cluster.name + " (context " + cluster.context + "): " + kind + ": " +
                             type.error().message);
    }
    kube::Result<kube::ObjectList> listed = client.list(type.value(), {});
    if (!listed) {
      return base::Error(listed.error().status, listed.error().reason,
                         "cluster " + cluster.name + " (context " + cluster.context + "): listing " + kind +
                             ": " + listed.error().message);
    }
    for (Json& item : listed.value().items) {
      item["apiVersion"] = api_version;
      item["kind"] = kind;
      strip_server_fields(item);
      take(cluster, std::move(item), skipped);
    }
  }
  return {};
}

}  // namespace

base::Result<Snapshot> read_files(const std::string& manager, const std::vector<std::string>& manager_files,
                                  const std::map<std::string, std::vector<std::string>>& worker_files) {
  Snapshot snapshot;
  ClusterSource& hub = snapshot.clusters.emplace_back();
  hub.name = manager;
  hub.role = kueue::ClusterRole::Manager;
  for (const std::string& file : manager_files) {
    if (base::Result<void> read = read_file(file, hub, snapshot.skipped); !read) return read.error();
  }
  for (const auto& [worker, files] : worker_files) {
    ClusterSource& cluster = snapshot.clusters.emplace_back();
    cluster.name = worker;
    cluster.role = kueue::ClusterRole::Worker;
    for (const std::string& file : files) {
      if (base::Result<void> read = read_file(file, cluster, snapshot.skipped); !read) return read.error();
    }
  }
  return snapshot;
}

base::Result<Snapshot> read_live(const LiveCluster& manager, const std::vector<LiveCluster>& workers) {
  Snapshot snapshot;
  std::vector<const LiveCluster*> all{&manager};
  for (const LiveCluster& worker : workers) all.push_back(&worker);
  for (const LiveCluster* live : all) {
    ClusterSource& cluster = snapshot.clusters.emplace_back();
    cluster.name = live->name;
    cluster.context = live->context;
    cluster.role = live == &manager ? kueue::ClusterRole::Manager : kueue::ClusterRole::Worker;
    if (live->client == nullptr) return base::Error::config("cluster " + live->name + ": no client");
    if (base::Result<void> read = read_cluster(*live->client, cluster, snapshot.skipped); !read)
      return read.error();
  }
  return snapshot;
}

std::vector<std::string> worker_names(const ClusterSource& manager) {
  std::vector<std::string> names;
  for (const Json& object : manager.objects) {
    if (object.value("kind", std::string()) == "MultiKueueCluster") names.push_back(meta(object, "name"));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace mkq::importer
