// The controller's runs as Kubernetes Events (core/v1) on the manager, in
// the lease's namespace, about the lease (involvedObject): what `kubectl
// describe lease` and `kubectl get events` show. Reasons: LeaderElected,
// Applied, CredentialRotated, DriftDetected, OutOfSync, ApplyFailed.
// An Event that cannot be written is said in the log; it never fails a run.
#pragma once

#include <atomic>
#include <string>

#include "base/clock.h"
#include "runtime/controller/controller.h"
#include "runtime/kube/client.h"

namespace mkq::controller {

// Reasons (Event.reason) and types (Event.type).
inline constexpr const char* kNormal = "Normal";
inline constexpr const char* kWarning = "Warning";

class EventRecorder {
 public:
  // `client` is the manager's (null: no Event is written); it, `clock` and
  // `log` must outlive the recorder. `lease` names the involved object.
  EventRecorder(kube::Client* client, const LeaderOptions& lease, const std::string& identity,
                const base::Clock& clock, Log& log);

  void record(const char* type, const std::string& reason, const std::string& message);

  // How Events are served: core/v1, never discovered.
  static const kube::ResourceType& event_type();

 private:
  kube::Client* client_;
  LeaderOptions lease_;
  std::string identity_;
  const base::Clock& clock_;
  Log& log_;
  std::atomic<unsigned> sequence_{0};  // two Events in the same nanosecond get different names
};

}  // namespace mkq::controller
