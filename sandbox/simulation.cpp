// The simulated controllers as hooks and threads (simulation.h).
#include "sandbox/simulation.h"

#include <string>

#include "sandbox/apps_workloads.h"
#include "sandbox/kueue_install.h"

namespace mkq::sandbox {

SimulatedControllers::SimulatedControllers(ClusterState& state) : state_(state) {
  // The controllers' threads may run before their pointers are assigned, and
  // while they are destroyed: they read the pointers under the cluster's lock,
  // which every assignment here holds, and skip a controller not (or no
  // longer) there.
  const std::lock_guard<std::mutex> lock(state_.mutex);
  kueue_ = std::make_unique<Controllers>([this] {
    const std::lock_guard<std::mutex> held(state_.mutex);
    if (!state_.closing && kueue_ && kueue_->reconcile(*state_.store)) state_.changed.notify_all();
  });
  deployments_ = std::make_unique<DeploymentController>(
      [this] {
        const std::lock_guard<std::mutex> held(state_.mutex);
        if (state_.closing) return;
        const bool wrote = reconcile_deployments();
        if ((garbage_ && garbage_->collect()) || wrote) state_.changed.notify_all();
      },
      state_.options.rollout_delay);
  garbage_ = std::make_unique<GarbageCollector>(state_);
  // The cluster starts, and Kueue with it: it reads its configuration.
  log_line(state_, kueue_->start_kueue(*state_.store));
  reconcile_deployments();
  garbage_->collect();
  kueue_->reconcile(*state_.store);
}

SimulatedControllers::~SimulatedControllers() {
  std::unique_ptr<DeploymentController> deployments;
  std::unique_ptr<Controllers> kueue;
  {
    const std::lock_guard<std::mutex> lock(state_.mutex);
    deployments = std::move(deployments_);
    kueue = std::move(kueue_);
    garbage_.reset();
  }
  // Joined outside the lock: a thread finishing its last round needs it.
  deployments.reset();
  kueue.reset();
}

void SimulatedControllers::register_hooks(std::vector<PostWriteHook>& hooks) {
  hooks.emplace_back([this](ClusterState& state, const WriteEvent& write) {
    return triggers_controllers(write.info.group, write.info.resource, write.ns) && kueue_ &&
           kueue_->reconcile_after_write(*state.store);
  });
  hooks.emplace_back([this](ClusterState&, const WriteEvent& write) {
    // A ReplicaSet written or deleted by hand: its Deployment's controller puts it back.
    return write.info.group == kAppsGroup && (write.info.resource == "deployments" || write.info.resource == "replicasets") &&
           reconcile_deployments();
  });
  // The ReplicaSet, StatefulSet and DaemonSet controllers (apps_workloads.h);
  // a DaemonSet's pods follow the Nodes.
  hooks.emplace_back([](ClusterState& state, const WriteEvent& write) {
    if (write.info.custom) return false;
    if (write.info.group.empty() && write.info.resource == "nodes") {
      return reconcile_workload_status(*state.store, "daemonsets");
    }
    return is_apps_workload(write.info) && reconcile_workload_status(*state.store, write.info.resource);
  });
  // The garbage collector, after every write: what it left to do (garbage_collector.h).
  hooks.emplace_back([this](ClusterState&, const WriteEvent&) { return garbage_ && garbage_->collect(); });
}

bool SimulatedControllers::reconcile_deployments() {
  if (!deployments_ || !kueue_) return false;  // being built or torn down
  bool wrote = false;
  const std::string kueue = std::string(kKueueNamespace) + "/" + kKueueDeploymentName;
  for (const std::string& completed : deployments_->reconcile(
           *state_.store, [this] { return new_uid(state_); }, &wrote)) {
    if (completed != kueue) continue;
    log_line(state_, kueue_->start_kueue(*state_.store));
    wrote = kueue_->reconcile(*state_.store) || wrote;
  }
  return wrote;
}

}  // namespace mkq::sandbox
