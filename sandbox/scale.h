// The scale subresource (`.../deployments/NAME/scale`, ReplicaSets' and
// StatefulSets' too) as kube-apiserver serves it: an autoscaling/v1 Scale
// read from the object (spec.replicas, status.replicas, status.selector) and
// written back into it. `kubectl scale` reads it through discovery
// (`deployments/scale`, kind Scale) and sends a merge patch of spec.replicas.
//
// Called under the cluster's lock (cluster_state.h), like the verbs.
#pragma once

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"
#include "sandbox/resources.h"

namespace mkq::sandbox {

// GET, PUT or PATCH (merge, strategic merge, JSON patch) of an object's
// Scale. A write is an update of the object itself (spec.replicas; the
// Scale's resourceVersion, when set, as its precondition), validated as one,
// answered with the new Scale. `info.has_scale` must be set.
ApiResponse scale_verb(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);

}  // namespace mkq::sandbox
