// The sandbox's kubeconfig and cluster names (declared in daemon.h; apart from
// the daemon so that tests can use them without a Cluster implementation).
#include <iterator>
#include <regex>

#include <fmt/format.h>

#include "sandbox/daemon.h"

namespace mkq::sandbox {

bool valid_cluster_name(const std::string& name) {
  static const std::regex label("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return name.size() <= 63 && std::regex_match(name, label);
}

std::string make_kubeconfig(const Pki& pki, const std::vector<ClusterPort>& clusters) {
  const std::string ca = base64(pki.ca_cert);
  const std::string cert = base64(pki.admin_cert);
  const std::string key = base64(pki.admin_key);
  std::string out;
  auto to = std::back_inserter(out);
  fmt::format_to(to, "apiVersion: v1\nkind: Config\npreferences: {{}}\ncurrent-context: {}\nclusters:\n",
                 clusters.empty() ? std::string() : clusters.front().name);
  for (const ClusterPort& cluster : clusters) {
    fmt::format_to(
        to, "- name: {}\n  cluster:\n    certificate-authority-data: {}\n    server: https://127.0.0.1:{}\n",
        cluster.name, ca, cluster.port);
  }
  out += "contexts:\n";
  for (const ClusterPort& cluster : clusters) {
    fmt::format_to(to, "- name: {0}\n  context:\n    cluster: {0}\n    user: {0}\n", cluster.name);
  }
  out += "users:\n";
  for (const ClusterPort& cluster : clusters) {
    fmt::format_to(to, "- name: {}\n  user:\n    client-certificate-data: {}\n    client-key-data: {}\n",
                   cluster.name, cert, key);
  }
  return out;
}

}  // namespace mkq::sandbox
