#include "runtime/credentials/kubeconfig_text.h"

#include <yaml-cpp/yaml.h>

#include <set>

#include <fmt/format.h>

#include "runtime/credentials/encoding.h"
#include "runtime/credentials/provider.h"

namespace mkq::credentials {

namespace {

// A rule Kueue's check breaks, named by its place ("clusters[0].cluster: ...").
base::Error refused(std::string rule) { return base::Error::config(std::move(rule)); }

bool is_true(const YAML::Node& node) {
  if (!node || !node.IsScalar()) return false;
  const std::string& value = node.Scalar();
  return value == "true" || value == "True" || value == "TRUE";
}

bool non_empty(const YAML::Node& node) {
  if (!node) return false;
  if (node.IsScalar()) return !node.Scalar().empty();
  return !node.IsNull();
}

base::Result<void> cluster_accepted(const YAML::Node& cluster, const std::string& at) {
  if (!cluster || !cluster.IsMap()) return refused(at + ": not a map");
  if (is_true(cluster["insecure-skip-tls-verify"])) {
    return refused(at + ": insecure-skip-tls-verify is not allowed (Kueue verifies the worker's certificate)");
  }
  if (non_empty(cluster["certificate-authority"])) {
    return refused(at + ": certificate-authority (a file path) is not allowed; use certificate-authority-data");
  }
  if (!non_empty(cluster["server"])) return refused(at + ": server is empty");
  return {};
}

base::Result<void> user_accepted(const YAML::Node& user, const std::string& at) {
  if (!user) return {};
  if (!user.IsMap()) return refused(at + ": not a map");
  if (non_empty(user["tokenFile"])) return refused(at + ": tokenFile is not allowed; use token");
  if (non_empty(user["exec"])) return refused(at + ": exec plugins are not allowed");
  if (non_empty(user["auth-provider"])) return refused(at + ": auth providers are not allowed");
  if (non_empty(user["username"]) || non_empty(user["password"])) return refused(at + ": basic auth is not allowed");
  // Kueue does not check these, but the paths would name files of this machine,
  // which Kueue's pod cannot read.
  if (non_empty(user["client-certificate"])) {
    return refused(at + ": client-certificate (a file path) is not allowed; use client-certificate-data");
  }
  if (non_empty(user["client-key"]))
    return refused(at + ": client-key (a file path) is not allowed; use client-key-data");
  return {};
}

}  // namespace

base::Result<void> kueue_accepts_kubeconfig(const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    // The mark only: the exception's text may quote the document.
    return refused(fmt::format("not valid YAML (line {})", e.mark.line + 1));
  }
  if (!root || !root.IsMap()) return refused("not a kubeconfig (a YAML map)");
  try {
    const YAML::Node clusters = root["clusters"];
    if (!clusters || !clusters.IsSequence() || clusters.size() == 0) return refused("names no cluster");
    std::set<std::string> cluster_names;
    for (std::size_t i = 0; i < clusters.size(); ++i) {
      const std::string at = fmt::format("clusters[{}]", i);
      if (!clusters[i].IsMap()) return refused(at + ": not a map");
      if (base::Result<void> accepted = cluster_accepted(clusters[i]["cluster"], at + ".cluster"); !accepted) {
        return accepted;
      }
      if (clusters[i]["name"] && clusters[i]["name"].IsScalar())
        cluster_names.insert(clusters[i]["name"].Scalar());
    }
    const YAML::Node users = root["users"];
    if (users && users.IsSequence()) {
      for (std::size_t i = 0; i < users.size(); ++i) {
        const std::string at = fmt::format("users[{}]", i);
        if (!users[i].IsMap()) return refused(at + ": not a map");
        if (base::Result<void> accepted = user_accepted(users[i]["user"], at + ".user"); !accepted) return accepted;
      }
    }
    const YAML::Node current = root["current-context"];
    if (!current || !current.IsScalar() || current.Scalar().empty()) return refused("names no current-context");
    const YAML::Node contexts = root["contexts"];
    bool found = false;
    if (contexts && contexts.IsSequence()) {
      for (std::size_t i = 0; i < contexts.size(); ++i) {
        if (!contexts[i].IsMap() || !contexts[i]["name"] || !contexts[i]["name"].IsScalar()) continue;
        if (contexts[i]["name"].Scalar() != current.Scalar()) continue;
        found = true;
        const YAML::Node context = contexts[i]["context"];
        const YAML::Node cluster = context && context.IsMap() ? context["cluster"] : YAML::Node();
        if (!cluster || !cluster.IsScalar() || cluster_names.count(cluster.Scalar()) == 0) {
          return refused(fmt::format("contexts[{}]: the current context names no cluster of the file", i));
        }
      }
    }
    if (!found) return refused("the current-context names no context of the file");
  } catch (const YAML::Exception& e) {
    return refused(fmt::format("not a kubeconfig (line {})", e.mark.line + 1));
  }
  return {};
}

namespace {

// A YAML scalar that is always read back as the same string: JSON's quoting
// (a JSON string is a YAML double-quoted scalar).
std::string quoted(const std::string& text) { return nlohmann::json(text).dump(); }

}  // namespace

// The layout of create-multikueue-kubeconfig.sh's output, with the token inline.
std::string worker_kubeconfig(const std::string& worker, const std::string& server, const std::string& ca_pem,
                              const std::string& token) {
  const std::string name = quoted(worker);
  std::string out;
  out += "apiVersion: v1\n";
  out += "kind: Config\n";
  out += "clusters:\n";
  out += "- name: " + name + "\n";
  out += "  cluster:\n";
  out += "    server: " + quoted(server) + "\n";
  out += "    certificate-authority-data: " + quoted(base64_encode(ca_pem)) + "\n";
  out += "users:\n";
  out += "- name: " + name + "\n";
  out += "  user:\n";
  out += "    token: " + quoted(token) + "\n";
  out += "contexts:\n";
  out += "- name: " + name + "\n";
  out += "  context:\n";
  out += "    cluster: " + name + "\n";
  out += "    user: " + name + "\n";
  out += "current-context: " + name + "\n";
  return out;
}

}  // namespace mkq::credentials
