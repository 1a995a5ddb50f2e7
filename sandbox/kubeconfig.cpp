// The sandbox's kubeconfig and cluster names (declared in daemon.h; apart from
// the daemon so that tests can use them without a Cluster implementation).
#include <regex>
#include <sstream>

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
  std::ostringstream out;
  out << "apiVersion: v1\nkind: Config\npreferences: {}\n";
  out << "current-context: " << (clusters.empty() ? std::string() : clusters.front().name) << "\n";
  out << "clusters:\n";
  for (const ClusterPort& cluster : clusters) {
    out << "- name: " << cluster.name << "\n  cluster:\n    certificate-authority-data: " << ca
        << "\n    server: https://127.0.0.1:" << cluster.port << "\n";
  }
  out << "contexts:\n";
  for (const ClusterPort& cluster : clusters) {
    out << "- name: " << cluster.name << "\n  context:\n    cluster: " << cluster.name << "\n    user: " << cluster.name
        << "\n";
  }
  out << "users:\n";
  for (const ClusterPort& cluster : clusters) {
    out << "- name: " << cluster.name << "\n  user:\n    client-certificate-data: " << cert
        << "\n    client-key-data: " << key << "\n";
  }
  return out.str();
}

}  // namespace mkq::sandbox
