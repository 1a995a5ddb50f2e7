// apps/v1 Deployments: what kube-apiserver fills in and checks on a write,
// and a simulated Deployment controller (kube-controller-manager's) that
// keeps every Deployment's status as the real one does -- so that `kubectl
// rollout status`, `kubectl rollout restart` and mkq's restart of Kueue's
// controller manager see a rollout start, progress and complete.
//
// There are no pods: a Deployment's "pods" are the replicas its status
// and its ReplicaSets' count (one ReplicaSet per pod template, as kube's
// controller keeps them: `kubectl get all`, `rollout history` and `rollout
// undo` see them). A new pod template (a new Deployment, or `kubectl rollout
// restart`) rolls out as the RollingUpdate strategy does it with the default
// 25% surge: at once the new ReplicaSet is progressing (observedGeneration,
// replicas old + new, updatedReplicas the new, the old still available), and
// `delay` later its pods are available and the old ones gone (Progressing
// NewReplicaSetAvailable, Available MinimumReplicasAvailable). A change that
// keeps the template (replicas, say) is observed at once, complete. A paused
// Deployment is observed but not rolled out (Progressing Unknown
// DeploymentPaused).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/schema.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

inline constexpr const char* kAppsGroup = "apps";

// What the API server fills in on every write of a Deployment (apps/v1
// SetDefaults_Deployment: replicas 1, strategy RollingUpdate 25%/25%,
// revisionHistoryLimit 10, progressDeadlineSeconds 600; the pod template's
// restartPolicy, terminationGracePeriodSeconds, dnsPolicy, schedulerName,
// securityContext).
void default_deployment(nlohmann::json& deployment);

// The checks the sandbox makes, worded as kube-apiserver's (spec.selector
// required and immutable, the template's labels matching it, containers
// required). `existing`: the stored object of an update.
std::vector<FieldError> validate_deployment(const nlohmann::json& deployment, const nlohmann::json* existing);

class DeploymentController {
 public:
  // `rerun` is called from the controller's own thread when a rollout is due
  // to complete; it must lock the cluster and call reconcile().
  // `delay`: how long the new pods of a template take to become available
  // (ClusterOptions::rollout_delay).
  DeploymentController(std::function<void()> rerun, std::chrono::milliseconds delay);
  ~DeploymentController();  // stops the thread
  DeploymentController(const DeploymentController&) = delete;
  DeploymentController& operator=(const DeploymentController&) = delete;

  // Under the cluster's lock: brings every Deployment's status and its
  // ReplicaSets up to date, each change an ordinary store write (`new_uid`
  // names the ReplicaSets it creates). The ReplicaSets of a deleted
  // Deployment are the garbage collector's (garbage_collector.h): they name
  // it in their ownerReferences. Returns the Deployments
  // (NAMESPACE/NAME) whose rollout completed in this call: their new pods are
  // the ones running from now on. *wrote: whether anything was written.
  std::vector<std::string> reconcile(Store& store, const std::function<std::string()>& new_uid, bool* wrote);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mkq::sandbox
