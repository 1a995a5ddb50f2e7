// The plan-time check of workers reached through a ClusterProfile (credentials
// mode "clusterprofile"): what Kueue will need on the manager to connect to
// them, which the policy cannot decide at compile time.
#pragma once

#include <string>
#include <vector>

#include "compiler/sema/model.h"
#include "runtime/kube/client.h"

namespace mkq::credentials {

// For each clusterprofile-mode worker of `policy`, in policy order: the manager
// serves ClusterProfile (multicluster.x-k8s.io/v1alpha1), the worker's
// ClusterProfile exists in Kueue's namespace (policy.kueue.namespace_name), and
// its status.accessProviders (or the deprecated status.credentialProviders)
// offers a provider the policy's kueue settings name. Returns one message per
// problem, empty when all is well; lower-case, naming the worker. Makes no call
// when no worker uses a ClusterProfile; otherwise one discovery lookup and one
// LIST of the namespace's ClusterProfiles, whatever the number of workers.
// Secrets never appear in messages (a ClusterProfile holds none).
std::vector<std::string> check_cluster_profiles(const sema::model::Policy& policy, kube::Client* manager);

}  // namespace mkq::credentials
