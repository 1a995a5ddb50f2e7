// The kubeconfig text mkq writes (worker_kubeconfig, declared in provider.h)
// and the kubeconfig rules Kueue enforces on a MultiKueueCluster's Secret
// (validateKubeconfig / validateRestConfig, ../shared/kueue/MULTIKUEUE.md §7),
// checked before mkq stores a kubeconfig the policy gives: a refused one would
// only show up later as the MultiKueueCluster's InsecureKubeConfig condition.
// Internal to runtime/credentials.
#pragma once

#include <string>

#include "base/result.h"

namespace mkq::credentials {

// Whether Kueue would accept `text`: else a ConfigError whose message is the
// first rule it breaks, naming the place by index ("users[0].user: tokenFile
// is not allowed ..."), never a value.
base::Result<void> kueue_accepts_kubeconfig(const std::string& text);

}  // namespace mkq::credentials
