#include "runtime/operation/state_open.h"

#include <system_error>

#include "runtime/kube/kubeconfig.h"
#include "runtime/operation/session.h"

namespace mkq::operation {

namespace {

namespace fs = std::filesystem;

// The kubeconfig the clusters are reached through (session.cpp's choice, made
// before the sandbox is started: the state is read first): --sandbox, or none
// named anywhere, is the sandbox's, which must be running by now.
kube::Result<kube::Kubeconfig> state_kubeconfig(const RuntimeOptions& options, const std::string& policy_path) {
  if (!options.sandbox) {
    kube::LoadOptions load;
    load.explicit_file = options.kubeconfig;
    kube::Result<kube::Kubeconfig> config = kube::load_kubeconfig(load);
    if (config || config.error().reason != kube::kNoKubeconfig) return config;
  }
  const fs::path sandbox = sandbox_dir_for(policy_path, options) / "kubeconfig";
  std::error_code ec;
  if (!fs::exists(sandbox, ec)) {
    return kube::Error::config(std::string(options.sandbox ? "" : "no kubeconfig names it (no --kubeconfig, KUBECONFIG or "
                                                                  "~/.kube/config), and ") +
                               "the sandbox at " + shown(sandbox.parent_path()) +
                               " is not running: start it first with `mkq sandbox up`, or name a kubeconfig");
  }
  kube::LoadOptions load;
  load.explicit_file = sandbox;
  load.explicit_named_by = "the sandbox";
  return kube::load_kubeconfig(load);
}

// The client of the state's cluster, or why there is none.
kube::Result<std::unique_ptr<kube::Client>> state_client(const state::ClusterAddress& address,
                                                         const RuntimeOptions& options, const std::string& policy_path) {
  kube::Result<kube::Kubeconfig> config = state_kubeconfig(options, policy_path);
  if (!config) return config.error();
  kube::Result<kube::Endpoint> endpoint =
      kube::resolve_context(config.value(), address.context, options.insecure_skip_tls_verify);
  if (!endpoint) return endpoint.error();
  kube::ClientOptions client_options;
  if (options.request_timeout.count() > 0) client_options.request_timeout = options.request_timeout;
  return kube::make_http_client(endpoint.value(), client_options);
}

}  // namespace

base::Result<std::unique_ptr<state::ClusterState>> connect_cluster_state(const std::string& location,
                                                                        const RuntimeOptions& options,
                                                                        const std::string& policy_path) {
  const base::Result<state::ClusterAddress> address = state::parse_cluster_address(location);
  if (!address) return address.error();
  kube::Result<std::unique_ptr<kube::Client>> client = state_client(*address, options, policy_path);
  if (!client) {
    return kube::Error::config("state " + location + ": cannot reach the cluster of context " + address->context +
                               ": " + client.error().message);
  }
  auto cluster = std::make_unique<state::ClusterState>(*client.value(), *address);
  cluster->keep(std::move(client.value()));
  return cluster;
}

base::Result<std::unique_ptr<state::StateStore>> open_state_at(const std::string& location,
                                                              const RuntimeOptions& options,
                                                              const std::string& policy_path, bool create) {
  if (!state::is_cluster_address(location)) {
    return create ? state::StateStore::open(location) : state::StateStore::open_existing(location);
  }
  base::Result<std::unique_ptr<state::ClusterState>> cluster = connect_cluster_state(location, options, policy_path);
  if (!cluster) return cluster.error();
  return state::StateStore::open_in_cluster(std::move(cluster.value()), create);
}

}  // namespace mkq::operation
