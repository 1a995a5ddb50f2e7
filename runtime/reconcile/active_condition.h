// The Active condition Kueue sets on ClusterQueues, LocalQueues,
// AdmissionChecks and MultiKueueClusters (MULTIKUEUE.md section 6), read from a
// live object. Shared by apply --wait (apply_wait.cpp) and `mkq status`
// (status.cpp) so both judge "Active" the same way.
#pragma once

#include <string>

#include "runtime/kube/result.h"

namespace mkq::reconcile {

// True for the kinds whose status has an Active condition.
bool reports_active_condition(const std::string& api_version, const std::string& kind);

// What a live object says in its Active condition.
struct ActiveCondition {
  bool present = false;  // the object has a condition of type Active
  std::string status;  // "True", "False" or "Unknown" (an empty status reads as "Unknown"); empty when absent
  std::string reason;
  std::string message;

  bool active() const { return present && status == "True"; }
};

// The first condition of type Active in status.conditions; `present` false
// when there is none (or the object is not shaped like one).
ActiveCondition active_condition_of(const kube::Json& object);

}  // namespace mkq::reconcile
