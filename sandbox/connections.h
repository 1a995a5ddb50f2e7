// MultiKueueCluster connections as Kueue makes them: the kubeconfig a
// MultiKueueCluster names, read as Kueue reads it; Kueue's rules for what a
// kubeconfig may hold; and a real connection to the worker it points at
// (HTTPS: discovery of kueue.x-k8s.io, a list and a watch of Workloads, then
// each MultiKueue adapter's job kind the worker serves), reported as Kueue's
// cluster client reports it. Used by the simulated controllers
// (controllers.h), outside the cluster's lock: a probe may take seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mkq::sandbox {

// A kubeconfig (YAML or JSON text) as JSON; nullopt and *error when unparseable.
std::optional<nlohmann::json> parse_kubeconfig(const std::string& text, std::string* error);
// Kueue's kubeconfig rules (validateKubeconfig + validateRestConfig): the
// first violation's message, empty when the kubeconfig is allowed.
std::string kubeconfig_violation(const nlohmann::json& kubeconfig);
// Kueue's isValidHostname: the server's host is an IP address or a DNS-1123 subdomain.
bool trusted_server(const std::string& server);

struct ConnectionResult {
  bool ok = false;
  std::string message;  // "Connected", or the error
  bool operator==(const ConnectionResult& o) const { return ok == o.ok && message == o.message; }
};
// Connects to the current context's server (bounded by timeout_seconds).
ConnectionResult probe_connection(const nlohmann::json& kubeconfig, int timeout_seconds);

}  // namespace mkq::sandbox
