// Where a run's state is kept, and opening it there: the local file (the
// default, or --state FILE), or kubernetes://CONTEXT/NAMESPACE/NAME -- the
// state in a cluster (runtime/state/cluster_state.h) reached through CONTEXT
// of the kubeconfig mkq uses for the clusters: --kubeconfig, KUBECONFIG or
// ~/.kube/config; with --sandbox, or when none is named, the sandbox's.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "runtime/operation/options.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"

namespace mkq::operation {

// Connects to the state in a cluster named by `location` (kubernetes://...).
// An Error ("--state kubernetes://x/ns/n: the kubeconfig ... has no context
// x ...") when the address or its context cannot be used.
base::Result<std::unique_ptr<state::ClusterState>> connect_cluster_state(const std::string& location,
                                                                        const RuntimeOptions& options,
                                                                        const std::string& policy_path);

// Opens the state at `location` (state_path_for's answer): `create` makes it
// when absent; otherwise an absent state is a null store.
base::Result<std::unique_ptr<state::StateStore>> open_state_at(const std::string& location,
                                                              const RuntimeOptions& options,
                                                              const std::string& policy_path, bool create);

}  // namespace mkq::operation
