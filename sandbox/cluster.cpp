// Cluster (api.h): one simulated API server put together from its parts --
// the shared state (cluster_state.h), the router (routing.h), the simulated
// controllers (simulation.h), the token controller (tokens.h) and the group
// committer (committer.h). sandbox/README.md maps the parts and the path of a
// request through them.
#include <memory>

#include "sandbox/api.h"
#include "sandbox/auth.h"
#include "sandbox/cluster_state.h"
#include "sandbox/committer.h"
#include "sandbox/crds.h"
#include "sandbox/prepare.h"
#include "sandbox/priority_classes.h"
#include "sandbox/rbac_defaults.h"
#include "sandbox/responses.h"
#include "sandbox/routing.h"
#include "sandbox/services.h"
#include "sandbox/simulation.h"
#include "sandbox/tokens.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// The namespaces every Kubernetes cluster starts with.
void create_initial_namespaces(ClusterState& state) {
  const ResourceInfo& namespaces = *state.registry.find("", "v1", "namespaces");
  for (const char* ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (state.store->get({"", "namespaces", "", ns})) continue;
    json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}};
    prepare_new(state, namespaces, object);
    state.store->put({"", "namespaces", "", ns}, object, "ADDED");
  }
}

class ClusterImpl final : public Cluster {
 public:
  ClusterImpl(std::string name, std::unique_ptr<Store> store, ClusterOptions options)
      : state_(std::make_shared<ClusterState>(std::move(name), std::move(store), std::move(options))) {
    {
      const std::lock_guard<std::mutex> lock(state_->mutex);
      refresh_registry(*state_);
      create_initial_namespaces(*state_);
      install_default_rbac(*state_);
      install_kubernetes_service(*state_);
      install_system_priority_classes(*state_);
    }
    controllers_ = std::make_unique<SimulatedControllers>(*state_);
    {
      // The side effects of writes, in this order (cluster_state.h: PostWriteHook).
      const std::lock_guard<std::mutex> lock(state_->mutex);
      controllers_->register_hooks(state_->post_write_hooks);
      state_->post_write_hooks.emplace_back(token_secrets_hook);
      state_->post_write_hooks.emplace_back(aggregate_cluster_roles_hook);
    }
    committer_ = std::make_unique<GroupCommitter>(*state_);
  }

  ~ClusterImpl() override {
    controllers_.reset();
    committer_.reset();  // commits what is pending
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->post_write_hooks.clear();  // they point into controllers_
    state_->closing = true;
    state_->changed.notify_all();
  }

  ApiResponse handle(const ApiRequest& request) override {
    try {
      return route(state_, request);
    } catch (const std::exception& e) {
      return status_error(500, "InternalError",
                          std::string("an error on the server has prevented the request from succeeding: ") + e.what());
    }
  }

  std::variant<ApiRequest, ApiResponse> impersonate(const ApiRequest& request) override {
    return resolve_impersonation(state_, request);
  }

  std::optional<ApiResponse> authorize(const ApiRequest& request) override { return authorize_request(state_, request); }

  std::optional<TokenIdentity> authenticate_token(const std::string& token) override {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    return verify_token(*state_, token);
  }

  std::string name() const override { return state_->name; }

  std::size_t object_count() const override {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->store->count();
  }

  void flush() override {
    const std::lock_guard<std::mutex> lock(state_->mutex);
    state_->store->commit_pending();
  }

 private:
  // Shared with watch streams, which may outlive the cluster (they end when it closes).
  const std::shared_ptr<ClusterState> state_;
  std::unique_ptr<SimulatedControllers> controllers_;  // reset first: its threads call back into state_
  std::unique_ptr<GroupCommitter> committer_;
};

}  // namespace

std::unique_ptr<Cluster> Cluster::open(const std::string& name, const std::filesystem::path& database,
                                       std::string* error) {
  return open(name, database, ClusterOptions{}, error);
}

std::unique_ptr<Cluster> Cluster::open(const std::string& name, const std::filesystem::path& database,
                                       const ClusterOptions& options, std::string* error) {
  try {
    auto store = Store::open(database, error);
    if (!store) return nullptr;
    return std::make_unique<ClusterImpl>(name, std::move(store), options);
  } catch (const std::exception& e) {
    if (error != nullptr) *error = e.what();
    return nullptr;
  }
}

}  // namespace mkq::sandbox
