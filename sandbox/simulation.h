// The controllers a real cluster runs beside its API server, simulated:
// Kueue's (controllers.h: status conditions, finalizers, MultiKueue
// connections) and kube-controller-manager's Deployment, ReplicaSet,
// StatefulSet and DaemonSet controllers (deployments.h, apps_workloads.h) and
// garbage collector (garbage_collector.h). They react to writes as post-write hooks
// (cluster_state.h) and run on their own threads when a result is due later
// (a connection probe, a rollout's delay), taking the cluster's lock then.
#pragma once

#include <memory>
#include <vector>

#include "sandbox/cluster_state.h"
#include "sandbox/controllers.h"
#include "sandbox/deployments.h"
#include "sandbox/garbage_collector.h"

namespace mkq::sandbox {

class SimulatedControllers {
 public:
  // Starts the controllers' threads; then, under the cluster's lock (taken
  // here: call it without), Kueue starts and reads its configuration, and
  // statuses are brought up to date (a reopened database: its connections restart).
  explicit SimulatedControllers(ClusterState& state);
  // Stops their threads (the Deployment controller's first); the state must
  // still be there, and no request be running.
  ~SimulatedControllers();
  SimulatedControllers(const SimulatedControllers&) = delete;
  SimulatedControllers& operator=(const SimulatedControllers&) = delete;

  // Appends their post-write hooks: Kueue's controllers after a write to a
  // Kueue kind (or a Secret or ClusterProfile in kueue-system), then the
  // Deployment controller after a write to a Deployment or a ReplicaSet, then
  // the ReplicaSet, StatefulSet and DaemonSet statuses after a write to their
  // kind (a Node: the DaemonSets'), then the garbage collector after every write.
  void register_hooks(std::vector<PostWriteHook>& hooks);

 private:
  // Under the lock: the Deployment controller's pass; a completed rollout of
  // Kueue's controller manager restarts the simulated Kueue, which reads its
  // configuration. True when anything was written.
  bool reconcile_deployments();

  ClusterState& state_;
  std::unique_ptr<Controllers> kueue_;                 // reset last: its thread calls back into state_
  std::unique_ptr<DeploymentController> deployments_;  // reset first
  std::unique_ptr<GarbageCollector> garbage_;           // no thread: reset under the lock
};

}  // namespace mkq::sandbox
