// Capacity-aware dispatch: a dispatch that selects its workers with
// `select { order = "most-free", resource = R }` lists them in its
// MultiKueueConfig most free of R first, as the clusters hold it when mkq
// plans -- the order in which Kueue's incremental dispatcher nominates them.
// The compiler cannot know that order (it renders the workers by name); this
// is the typed step between render and diff that writes it.
//
// What counts as free on a worker, R being the resource:
//   allocatable  = the sum of status.allocatable[R] over the worker's Nodes
//                  whose Ready condition is True and that are not cordoned
//                  (spec.unschedulable);
//   requested    = the sum, over the Pods bound to those nodes (spec.nodeName)
//                  whose phase is neither Succeeded nor Failed, of each pod's
//                  request of R as the scheduler counts it: the larger of its
//                  containers' requests (sidecar init containers included) and
//                  its largest init container's, plus spec.overhead; a
//                  container that sets only a limit of R requests that limit;
//   free         = allocatable - requested (negative when overcommitted).
// Quantities are exact (sema::Quantity). A worker that cannot be read (not
// connected, a LIST refused, a quantity that does not parse) makes its
// dispatch's order unknown: an error on that MultiKueueConfig's change, never
// an order made up without it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"
#include "compiler/sema/quantity.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/target.h"

namespace mkq::reconcile {

// The free amount of one resource on one worker, from its Nodes and Pods.
struct FreeAmount {
  sema::Quantity free;
  int nodes = 0;  // counted (Ready, schedulable)
};
// The error: a value did not parse (its message names the Node or Pod).
base::Result<FreeAmount> free_amount(const std::vector<Json>& nodes, const std::vector<Json>& pods, const std::string& resource);

// Reads the Nodes and Pods of every worker a most-free dispatch of `policy`
// selects (each worker once, through its target in `targets`) and rewrites
// that dispatch's MultiKueueConfig on the manager in `desired`
// (spec.clusters: most free first, ties by name). Workers in `excluded`
// (--exclude-cluster), and those refresh found unreachable in `live` (one
// deadline, not two), are not read: their dispatch's order is unknown. A
// dispatch whose order is unknown keeps the compiled order (by name).
std::vector<DispatchOrder> order_by_free_capacity(const sema::model::Policy& policy, kueue::DesiredState& desired,
                                                  const std::vector<Target>& targets, const LiveState& live,
                                                  const std::vector<std::string>& excluded);

// Puts the orders into `plan`. A MultiKueueConfig whose order is unknown
// gets Change::error (apply fails it and sends nothing; a no-op becomes an
// update that fails, so that the run does not end "complete"); one whose only
// difference is the order of the same workers says so (Reason::FreeCapacityOrder).
void note_dispatch_orders(Plan& plan, std::vector<DispatchOrder> orders);

}  // namespace mkq::reconcile
