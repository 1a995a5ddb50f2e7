// A Deployment restarted the way `kubectl rollout restart` does it, and its
// rollout awaited the way `kubectl rollout status` judges it -- what apply does
// after a change of Kueue's configuration (plan.h Restart, kueue_config.h).
//
// The restart is a strategic merge patch of the pod template's annotation
// kubectl.kubernetes.io/restartedAt with the current time in RFC 3339 (local
// time with its offset, as kubectl writes it): a new template, so the
// Deployment controller rolls out new pods, which read the configuration
// afresh. A paused Deployment is refused, as kubectl refuses it.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "base/clock.h"
#include "runtime/kube/client.h"

namespace mkq::reconcile {

// kubectl rollout status's judgement of one Deployment (its
// DeploymentStatusViewer): complete once the controller has observed the
// latest generation and every replica is updated and available.
struct RolloutStatus {
  bool done = false;
  std::string message;  // kubectl's words: `Waiting for deployment "x" rollout to finish: ...`
  std::string error;    // the rollout failed: `deployment "x" exceeded its progress deadline`
};
RolloutStatus rollout_status(const kube::Json& deployment);

struct RolloutOptions {
  std::chrono::milliseconds timeout{300000};     // until the rollout is complete
  std::chrono::milliseconds poll_interval{500};  // one GET per poll
  // The clock whose time is written into the annotation; never null.
  const base::Clock* clock = &base::system_clock();
  // Called with kubectl's words whenever the rollout's state changes.
  std::function<void(const std::string& message)> progress;
};

// Restarts Deployment NAMESPACE/NAME and waits until its rollout is complete.
// Fails with what failed: the kind not served, the Deployment not found or
// paused, the patch refused, the rollout failed or not complete within the
// timeout (with kubectl's last words). The server's status and reason stay
// where one answered; the caller, who knows the cluster, sets the address.
base::Result<void> restart_deployment(kube::Client& client, const std::string& namespace_name,
                                      const std::string& name, const RolloutOptions& options);

}  // namespace mkq::reconcile
