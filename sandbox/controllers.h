// Simulated Kueue controllers: after every write to a Kueue kind (or to a
// Secret or ClusterProfile in kueue-system) a post-write hook (simulation.h)
// calls Controllers::reconcile_after_write(), which
// recomputes the status conditions Kueue would set on ClusterQueues,
// LocalQueues, MultiKueue AdmissionChecks and MultiKueueClusters, and the
// kueue.x-k8s.io/resource-in-use finalizer on ClusterQueues and
// ResourceFlavors. Each change is an ordinary store write (its own
// resourceVersion, a MODIFIED event); nothing is written when nothing changes.
//
// A MultiKueueCluster whose kubeconfig passes Kueue's rules is connected to
// for real (connections.h: HTTPS to /apis/kueue.x-k8s.io/v1beta2 on its server) by a
// background thread, outside the cluster's lock; when a result changes the
// thread calls `rerun`, which must lock the cluster and call reconcile().
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "compiler/facts/kueue.h"
#include "sandbox/connections.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

// Kueue's facts (compiler/facts), as C strings: each is a literal there, so data() ends in NUL.
inline constexpr const char* kKueueGroup = facts::kKueueGroup.data();
inline constexpr const char* kKueueNamespace = facts::kDefaultKueueNamespace.data();
inline constexpr const char* kResourceInUseFinalizer = facts::kResourceInUseFinalizer.data();
inline constexpr const char* kMultiKueueControllerName = facts::kMultiKueueControllerName.data();

// True for writes the controllers react to: Kueue kinds, Secrets and ClusterProfiles in kueue-system.
bool triggers_controllers(const std::string& group, const std::string& resource, const std::string& ns);

class Controllers {
 public:
  explicit Controllers(std::function<void()> rerun);
  ~Controllers();  // stops the connection thread
  Controllers(const Controllers&) = delete;
  Controllers& operator=(const Controllers&) = delete;

  // Kueue's controller manager (re)starts -- with the cluster, and whenever
  // a rollout of the Deployment kueue-system/kueue-controller-manager
  // completes: it reads its configuration now (the ConfigMap
  // kueue-system/kueue-manager-config, key controller_manager_config.yaml)
  // and behaves by it until it next starts. What the simulation takes from it:
  // the MultiKueueClusterProfile feature gate and the ClusterProfile access
  // providers (multiKueue.clusterProfile). Without the ConfigMap, Kueue's
  // defaults; a configuration Kueue cannot read leaves Kueue not running (no
  // status is written until it starts with one it can). Under the cluster's
  // lock; returns a line for the sandbox's log saying what was read.
  std::string start_kueue(const Store& store);
  // Under the cluster's lock. Returns true when it wrote anything.
  bool reconcile(Store& store);
  // After a write, under the cluster's lock: reconciles now, as Kueue's
  // controllers react within milliseconds -- unless reconciling has become
  // slow (a large store) and ran moments ago; then the write is coalesced
  // with the next ones into one reconcile on the controllers' thread a few
  // milliseconds later (through `rerun`). A burst of N writes to a store of
  // N objects thus costs O(N) reconciles of bounded frequency, not N.
  bool reconcile_after_write(Store& store);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mkq::sandbox
