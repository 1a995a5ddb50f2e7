// Live clusters through a kubeconfig's contexts: the manager's context, then
// each worker the manager's MultiKueueClusters name -- through the context
// the caller maps it to, else a context of the worker's own name, else not
// read (a Note says how to read it).
#include <algorithm>
#include <memory>

#include "runtime/importer/importer.h"
#include "runtime/kube/kubeconfig.h"

namespace mkq::importer {
namespace {

base::Result<std::unique_ptr<kube::Client>> client_for(const kube::Kubeconfig& config,
                                                       const std::string& context,
                                                       const ContextRequest& request) {
  kube::Result<kube::Endpoint> endpoint =
      kube::resolve_context(config, context, request.insecure_skip_tls_verify);
  if (!endpoint)
    return base::Error(endpoint.error().status, endpoint.error().reason, endpoint.error().message);
  kube::ClientOptions options;
  if (request.request_timeout.count() > 0) options.request_timeout = request.request_timeout;
  kube::Result<std::unique_ptr<kube::Client>> client = kube::make_http_client(endpoint.value(), options);
  if (!client) return base::Error(client.error().status, client.error().reason, client.error().message);
  return std::move(client).value();
}

}  // namespace

base::Result<LiveImport> read_contexts(const ContextRequest& request) {
  kube::LoadOptions load;
  load.explicit_file = request.kubeconfig;
  kube::Result<kube::Kubeconfig> config = kube::load_kubeconfig(load);
  if (!config) return base::Error(config.error().status, config.error().reason, config.error().message);
  const std::string manager_context =
      request.context.empty() ? config.value().current_context : request.context;
  if (manager_context.empty())
    return base::Error::config("no --context, and the kubeconfig has no current-context");
  base::Result<std::unique_ptr<kube::Client>> hub = client_for(config.value(), manager_context, request);
  if (!hub) return hub.error();
  const LiveCluster manager{request.manager.empty() ? manager_context : request.manager, manager_context,
                            hub.value().get()};
  base::Result<Snapshot> first = read_live(manager, {});
  if (!first) return first.error();

  LiveImport out;
  std::vector<std::unique_ptr<kube::Client>> clients;
  std::vector<LiveCluster> workers;
  for (const std::string& worker : worker_names(first.value().clusters.front())) {
    const auto mapped = request.workers.find(worker);
    std::string context = mapped != request.workers.end() ? mapped->second : worker;
    if (!config.value().contexts.contains(context)) {
      out.notes.push_back("worker " + worker + ": no context '" + context +
                          "' in the kubeconfig, so its objects were not read (pass --worker " + worker +
                          "=CONTEXT)");
      continue;
    }
    base::Result<std::unique_ptr<kube::Client>> client = client_for(config.value(), context, request);
    if (!client) return client.error();
    workers.push_back({worker, context, client.value().get()});
    clients.push_back(std::move(client).value());
  }
  for (const auto& [worker, context] : request.workers) {
    const std::vector<std::string> names = worker_names(first.value().clusters.front());
    if (std::find(names.begin(), names.end(), worker) == names.end()) {
      return base::Error::config("--worker " + worker + ": the manager has no MultiKueueCluster " + worker);
    }
  }
  if (workers.empty()) {
    out.snapshot = std::move(first).value();
    return out;
  }
  base::Result<Snapshot> all = read_live(manager, workers);
  if (!all) return all.error();
  out.snapshot = std::move(all).value();
  return out;
}

}  // namespace mkq::importer
