// Watch, as kube-apiserver streams it: from a resourceVersion (410 Expired
// when the event log no longer reaches it) or from now with the current
// objects as ADDED events; filtered by namespace, name and selectors;
// BOOKMARK events on request; ending at ?timeoutSeconds (default 30 minutes).
#pragma once

#include <memory>
#include <mutex>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"
#include "sandbox/resources.h"

namespace mkq::sandbox {

// Called with `lock` (on state->mutex) held; releases it before returning.
// The response's stream holds `state` and takes the lock itself for each
// chunk, waiting on state->changed between them; it ends when the cluster closes.
ApiResponse watch(const std::shared_ptr<ClusterState>& state, const ApiRequest& r, const ResourceInfo& info,
                  const Target& t, std::unique_lock<std::mutex>& lock);

}  // namespace mkq::sandbox
