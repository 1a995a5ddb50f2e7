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

// --cluster: the workers (of the policy, or only of the inventory) a scope
// to `named` leaves out -- every worker not named; never the manager. Sorted.
std::vector<std::string> workers_outside(const std::vector<std::string>& named, const std::string& manager,
                                         const kueue::DesiredState& desired,
                                         const std::vector<state::InventoryEntry>& inventory);

// --cluster without the manager: of the manager's objects, keeps in `desired`
// and `inventory` only those for the workers `named` (their MultiKueueCluster
// and the Secret it reads, as exclude_clusters finds them); the manager's
// other objects are neither planned nor pruned. Returns how many inventory
// objects of the manager it leaves as they are. Runs after exclude_clusters
// of the workers outside the scope (so the manager's objects for them are
// gone already).
int keep_manager_objects_for(const std::vector<std::string>& named, const LiveState& live,
                             kueue::DesiredState& desired, std::vector<state::InventoryEntry>& inventory);

}  // namespace mkq::reconcile
