// A compiled policy's install options (manifests.h: options_from).
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "runtime/install/manifests.h"

namespace mkq::install {
namespace {

namespace fs = std::filesystem;

ClusterContext cluster_context(const std::string& name, const sema::model::Connection& connection) {
  return {name, connection.context.value, connection.kubeconfig ? connection.kubeconfig->value : std::string()};
}

fs::path canonical_dir(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : out;
}

}  // namespace

kube::Result<ManifestOptions> options_from(const operation::Compilation& compiled, const std::string& policy_path) {
  if (!compiled.policy || !compiled.state) {
    return kube::Error{0, "Invalid", "the policy did not compile to objects", nullptr};
  }
  const sema::model::Policy& policy = *compiled.policy;
  ManifestOptions options;
  options.policy = compiled.state->policy;
  options.kueue_namespace = policy.kueue.namespace_name.value;
  options.manager = cluster_context(policy.manager.name, policy.manager.connection);
  for (const auto& worker : policy.workers) options.workers.push_back(cluster_context(worker.name, worker.connection));
  for (const kueue::ClusterObjects& cluster : compiled.state->clusters) {
    if (cluster.role == kueue::ClusterRole::Manager) options.manager_objects = &cluster;
  }

  std::error_code ec;
  const fs::path given(policy_path);
  const fs::path dir = canonical_dir(fs::is_directory(given, ec) ? given : given.parent_path().empty() ? "." : given.parent_path());
  for (std::size_t id = 0; id < compiled.sources.size(); ++id) {
    const diag::SourceFile& file = compiled.sources.file(static_cast<diag::FileId>(id));
    if (file.is_stdlib || file.unread) continue;
    const fs::path path(file.path);
    if (canonical_dir(path.parent_path().empty() ? "." : path.parent_path()) != dir) {
      return kube::Error{0, "Invalid",
                         "the policy imports " + file.path + ", outside its directory " + dir.string() +
                             ": the controller's ConfigMap mounts one directory; move the file into it",
                         nullptr};
    }
    options.policy_files.push_back({path.filename().string(), file.text});
  }
  std::sort(options.policy_files.begin(), options.policy_files.end(),
            [](const PolicyFile& a, const PolicyFile& b) { return a.name < b.name; });
  return options;
}

}  // namespace mkq::install
