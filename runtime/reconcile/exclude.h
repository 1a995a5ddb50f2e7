// --exclude-cluster: going on without a worker (a dead one, say). The worker is
// neither read nor changed, and neither are the manager's objects that exist
// for it -- its MultiKueueCluster and the kubeconfig Secret that one reads --
// so nothing of it is planned, pruned or destroyed: every such object stays as
// it is, on the clusters and in the inventory.
#pragma once

#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/target.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

// Removes what concerns the excluded `clusters` (workers of the policy or
// clusters only the inventory names) from `desired` and `inventory`, so that
// make_plan neither plans nor prunes it. Runs after refresh (which has no
// target for an excluded cluster): for a worker the policy no longer has, the
// manager's live MultiKueueCluster says which Secret it reads. Returns, sorted
// by name, how many inventory objects each exclusion leaves as they are.
std::vector<ExcludedCluster> exclude_clusters(const std::vector<std::string>& clusters, const LiveState& live,
                                              kueue::DesiredState& desired,
                                              std::vector<state::InventoryEntry>& inventory);

}  // namespace mkq::reconcile
