// refresh: read the live objects of every cluster -- one LIST per kind per
// cluster (never one GET per object), all clusters in parallel.
#pragma once

#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/reconcile/target.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

struct RefreshOptions {
  int parallelism = 8;  // clusters read at once
  bool destroy = false;  // a destroy plan follows: every Namespace of the inventory may be deleted
};

// Lists, per cluster, every kind that the desired objects or the inventory
// entries of that cluster mention. A namespaced kind whose objects of interest
// all live in one namespace is listed in that namespace only; otherwise across
// namespaces. A cluster that cannot be reached (or whose LIST fails) is
// reported in ClusterLive::error and does not stop the others. Kinds the server
// does not serve are recorded in unserved_kinds (their objects count as absent).
// Every Namespace of the inventory that the plan may delete (the policy no
// longer declares it, or any for a destroy) has its contents read: one LIST
// per namespaced kind the server lists (discovery), into namespace_contents.
LiveState refresh(const kueue::DesiredState& desired, const std::vector<state::InventoryEntry>& inventory,
                  const std::vector<Target>& targets, const RefreshOptions& options);

}  // namespace mkq::reconcile
