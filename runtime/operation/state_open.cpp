#include "runtime/operation/state_open.h"

#include <optional>
#include <system_error>

#include "runtime/kube/kubeconfig.h"
#include "runtime/operation/session.h"

namespace mkq::operation {

namespace {

namespace fs = std::filesystem;

// The kubeconfig the clusters are reached through (session.cpp's choice, made
// before the sandbox is started: the state is read first): --sandbox, or none
// named anywhere, is the sandbox's, which must be running by now.
std::optional<kube::Kubeconfig> state_kubeconfig(const RuntimeOptions& options, const std::string& policy_path,
                                                 std::string* error) {
  bool found_none = false;
  if (!options.sandbox) {
    kube::LoadOptions load;
    load.explicit_file = options.kubeconfig;
    std::optional<kube::Kubeconfig> config = kube::load_kubeconfig(load, error, &found_none);
    if (config || !found_none) return config;
  }
  const fs::path sandbox = sandbox_dir_for(policy_path, options) / "kubeconfig";
  std::error_code ec;
  if (!fs::exists(sandbox, ec)) {
    *error = std::string(options.sandbox ? "" : "no kubeconfig names it (no --kubeconfig, KUBECONFIG or "
                                                "~/.kube/config), and ") +
             "the sandbox at " + shown(sandbox.parent_path()) +
             " is not running: start it first with `mkq sandbox up`, or name a kubeconfig";
    return std::nullopt;
  }
  kube::LoadOptions load;
  load.explicit_file = sandbox;
  load.explicit_named_by = "the sandbox";
  return kube::load_kubeconfig(load, error);
}

}  // namespace

std::unique_ptr<state::ClusterState> connect_cluster_state(const std::string& location, const RuntimeOptions& options,
                                                           const std::string& policy_path, std::string* error) {
  const std::optional<state::ClusterAddress> address = state::parse_cluster_address(location, error);
  if (!address) return nullptr;
  std::string why;
  const std::optional<kube::Kubeconfig> config = state_kubeconfig(options, policy_path, &why);
  std::optional<kube::Endpoint> endpoint;
  if (config) endpoint = kube::resolve_context(*config, address->context, options.insecure_skip_tls_verify, &why);
  std::unique_ptr<kube::Client> client;
  if (endpoint) {
    kube::ClientOptions client_options;
    if (options.request_timeout.count() > 0) client_options.request_timeout = options.request_timeout;
    client = kube::make_http_client(*endpoint, client_options, &why);
  }
  if (client == nullptr) {
    *error = "state " + location + ": cannot reach the cluster of context " + address->context + ": " + why;
    return nullptr;
  }
  auto cluster = std::make_unique<state::ClusterState>(*client, *address);
  cluster->keep(std::move(client));
  return cluster;
}

std::unique_ptr<state::StateStore> open_state_at(const std::string& location, const RuntimeOptions& options,
                                                 const std::string& policy_path, bool create, std::string* error) {
  error->clear();
  if (!state::is_cluster_address(location)) {
    return create ? state::StateStore::open(location, error) : state::StateStore::open_existing(location, error);
  }
  std::unique_ptr<state::ClusterState> cluster = connect_cluster_state(location, options, policy_path, error);
  if (cluster == nullptr) return nullptr;
  return state::StateStore::open_in_cluster(std::move(cluster), create, error);
}

}  // namespace mkq::operation
