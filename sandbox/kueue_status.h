// What Kueue's controllers write on its objects, as pure functions of the
// objects: the Active condition of ClusterQueues and MultiKueue
// AdmissionChecks (messages and reasons as Kueue's
// pkg/cache/scheduler/clusterqueue.go and admissionchecks/multikueue, recorded
// in ../shared/kueue/MULTIKUEUE.md), the resource-in-use finalizer, and the
// views of a resource's objects the simulated controllers read
// (controllers.h). The writes go to the store under the cluster's lock.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/store.h"

namespace mkq::sandbox {

struct Condition {
  bool status = false;
  std::string reason;
  std::string message;
};

// One Kueue resource's objects as of resourceVersion `rv` (-1: not read yet).
// Reconciling reads only what changed since (the event log), not every object
// again: a burst of writes to a large store would otherwise parse the whole
// store once per reconcile.
struct ResourceView {
  std::int64_t rv = -1;
  std::map<std::string, nlohmann::json> objects;  // by name, or NAMESPACE/NAME
};

// The view of Kueue's `resource` brought up to the store's resourceVersion.
std::map<std::string, nlohmann::json>& up_to_date(const Store& store, const char* resource, ResourceView& view);

// Go's %v of a []string: [a b c].
std::string go_list(const std::vector<std::string>& items);
// The value at `path` (null when absent), and as a string ("" when not one).
nlohmann::json field(const nlohmann::json& object, std::initializer_list<const char*> path);
std::string str(const nlohmann::json& object, std::initializer_list<const char*> path);

// The Active condition of a stored object is True.
bool is_active(const nlohmann::json& object);
// Sets the Active condition of a Kueue object and stores it; false when it
// already was so (nothing written).
bool write_status(Store& store, const char* resource, const std::string& ns, nlohmann::json& object,
                  const Condition& c);
// Adds the resource-in-use finalizer; on an object being deleted removes it
// (and the object, when no finalizer is left: *gone). True when it wrote.
bool reconcile_finalizer(Store& store, const char* resource, nlohmann::json& object, bool* gone);

Condition cluster_queue_condition(const nlohmann::json& cq, const std::map<std::string, nlohmann::json>& flavors,
                                  const std::map<std::string, nlohmann::json>& checks,
                                  const std::map<std::string, nlohmann::json>& topologies);
Condition admission_check_condition(const nlohmann::json& ac, const std::map<std::string, nlohmann::json>& configs,
                                    const std::map<std::string, nlohmann::json>& clusters);

}  // namespace mkq::sandbox
