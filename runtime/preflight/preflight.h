// runtime/preflight: what the clusters must already have for the policy to
// work, checked read-only while the plan is made (docs/apply.md, "Preflight").
// Per cluster: Kueue installed and serving the API version mkq writes
// (facts::kKueueVersion), no Kueue CRD converting through a webhook Service
// that is gone (kueue#18411), every enabled integration's CRDs (kueue#3582,
// #12400) and, on workers, the integration enabled in their own Kueue; the
// feature gates the policy needs on in the manager's Kueue configuration
// (unless the plan turns them on); in ClusterProfile mode the ClusterProfile
// CRD and objects; on OpenShift the Kueue operator and the ClusterRoles the
// policy's access bindings name.
//
// Invariant: preflight only reads -- discovery, GETs and LISTs through
// ReadOnlyClient, which refuses every other call. A cluster refresh could not
// read is left out (the plan reports it unreachable already).
#pragma once

#include <vector>

#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/target.h"

namespace mkq::preflight {

// What preflight is given: the compiled fleet, the plan made of it (the
// changes mkq will make, e.g. to Kueue's configuration), what refresh read,
// and a client per cluster (used read-only).
struct Fleet {
  const sema::model::Policy& policy;
  const kueue::DesiredState& desired;
  const reconcile::Plan& plan;
  const reconcile::LiveState& live;
  const std::vector<reconcile::Target>& targets;
};

struct Options {
  int parallelism = 8;  // clusters checked at once
};

// The entry function: every finding, errors first, then by cluster in the
// plan's order (manager first), then as each check found them.
std::vector<reconcile::Finding> check(const Fleet& fleet, const Options& options = {});

}  // namespace mkq::preflight
