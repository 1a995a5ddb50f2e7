// ClusterProfile mode at plan time: mirrors what Kueue does when it builds a
// worker's rest config from a ClusterProfile (CLUSTERPROFILE.md, "Library
// behaviour"), so that a missing profile or an unmatched access provider is a
// plan error instead of a MultiKueueCluster left inactive (BadClusterProfile).
#include "runtime/credentials/cluster_profile.h"

#include <algorithm>
#include <map>
#include <set>

#include "compiler/kueue/schema.h"

namespace mkq::credentials {
namespace {

namespace model = sema::model;
namespace schema = kueue::schema;
using kube::Json;

std::string bracketed(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out + "]";
}

// The provider names a ClusterProfile offers: status.credentialProviders
// (deprecated) and status.accessProviders together, sorted, unique.
std::vector<std::string> offered_providers(const Json& profile) {
  std::set<std::string> names;
  const auto status = profile.find("status");
  if (status == profile.end() || !status->is_object()) return {};
  for (const char* field : {"credentialProviders", "accessProviders"}) {
    const auto list = status->find(field);
    if (list == status->end() || !list->is_array()) continue;
    for (const Json& entry : *list) {
      if (!entry.is_object()) continue;
      const auto name = entry.find("name");
      if (name != entry.end() && name->is_string() && !name->get<std::string>().empty()) {
        names.insert(name->get<std::string>());
      }
    }
  }
  return {names.begin(), names.end()};
}

std::string profile_name(const Json& profile) {
  const auto metadata = profile.find("metadata");
  if (metadata == profile.end() || !metadata->is_object()) return {};
  const auto name = metadata->find("name");
  return name != metadata->end() && name->is_string() ? name->get<std::string>() : std::string();
}

}  // namespace

std::vector<std::string> check_cluster_profiles(const model::Policy& policy, kube::Client* manager) {
  std::vector<const model::Worker*> workers;
  for (const model::Worker& worker : policy.workers) {
    if (worker.credentials.mode.value == model::CredentialsMode::ClusterProfile) workers.push_back(&worker);
  }
  if (workers.empty()) return {};
  if (manager == nullptr) return {"cannot check ClusterProfiles: no connection to the manager"};

  const auto type = manager->resource_for(std::string(schema::kClusterProfileApiVersion),
                                          std::string(schema::kClusterProfileKind));
  if (!type) {
    if (type.error().not_found()) {
      return {"the manager does not serve ClusterProfile (" + std::string(schema::kClusterProfileApiVersion) +
              "): install the Cluster Inventory API CRDs"};
    }
    return {"cannot look up ClusterProfile on the manager: " + type.error().message};
  }
  const std::string& ns = policy.kueue.namespace_name.value;
  kube::ListOptions options;
  options.namespace_name = ns;
  const auto listed = manager->list(type.value(), options);
  if (!listed) return {"cannot list ClusterProfiles in namespace " + ns + " on the manager: " + listed.error().message};

  std::map<std::string, const Json*> by_name;
  for (const Json& item : listed.value().items) by_name.emplace(profile_name(item), &item);

  std::vector<std::string> declared;
  for (const model::AccessProvider& provider : policy.kueue.multikueue.access_providers) {
    declared.push_back(provider.name);
  }
  std::vector<std::string> problems;
  for (const model::Worker* worker : workers) {
    const std::string& name = worker->credentials.cluster_profile.value;
    const std::string where = "ClusterProfile " + ns + "/" + name;
    const auto found = by_name.find(name);
    if (found == by_name.end()) {
      problems.push_back("worker " + worker->name + ": " + where +
                         " does not exist on the manager (Kueue reads it from its namespace " + ns + ")");
      continue;
    }
    const std::vector<std::string> offered = offered_providers(*found->second);
    if (offered.empty()) {
      problems.push_back("worker " + worker->name + ": " + where +
                         " offers no access provider (its status.accessProviders is empty: has its cluster manager "
                         "filled it?)");
      continue;
    }
    const bool matched = std::any_of(offered.begin(), offered.end(), [&](const std::string& offer) {
      return std::find(declared.begin(), declared.end(), offer) != declared.end();
    });
    if (!matched) {
      problems.push_back("worker " + worker->name + ": " + where + " offers access providers " + bracketed(offered) +
                         ", none of which the policy's kueue settings name (declared: " + bracketed(declared) + ")");
    }
  }
  return problems;
}

}  // namespace mkq::credentials
