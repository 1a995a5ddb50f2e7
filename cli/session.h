// What plan, apply, destroy and status share after compiling: where the state
// is, how each cluster of the policy is reached (a kubeconfig context, or the
// sandbox), the clients, and the credential provider. Glue only: every
// decision about objects belongs to runtime/reconcile.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"
#include "runtime/credentials/provider.h"
#include "runtime/kube/client.h"
#include "runtime/reconcile/target.h"
#include "runtime/state/state.h"

namespace mkq::cli {

struct Session {
  bool sandbox = false;                       // the clusters are the sandbox's
  std::filesystem::path state_path;
  std::vector<std::unique_ptr<kube::Client>> clients;
  std::vector<reconcile::Target> targets;     // manager first, then workers by name, then clusters only the state names
  std::map<std::string, kube::Endpoint> endpoints;  // by cluster
  std::unique_ptr<reconcile::CredentialProvider> credentials;
};

// The state file for a policy PATH and --state: as typed, else the policy's
// default one beside it (state::default_state_path of kueue::policy_home).
std::filesystem::path state_path_for(const std::string& policy_path, const RuntimeOptions& options);
// The sandbox's directory: --sandbox-dir as typed (relative to the working
// directory), else .mkq/sandbox in the policy's directory.
std::filesystem::path sandbox_dir_for(const std::string& policy_path, const RuntimeOptions& options);

// Connects to every cluster of `policy` and to `extra_clusters` (clusters the
// inventory names that the policy no longer has: reached through a context of
// their own name), leaving out options.exclude_clusters. Uses the sandbox with
// --sandbox, or when no kubeconfig is named anywhere (no --kubeconfig,
// KUBECONFIG, ~/.kube/config, nor a cluster's own), starting it with the
// policy's cluster names when it is not running. Prints the target as its first
// line ("mkq: target: ..."). A kubeconfig that is named but cannot be read, a
// context a kubeconfig does not have (listing its contexts, with "did you
// mean") or cannot use, and a sandbox that cannot start are errors: false,
// every message printed, nothing read. A cluster whose client cannot be made is
// a Target without a client (the plan reports it unreachable).
bool open_session(const sema::model::Policy& policy, const std::string& policy_path,
                  const std::vector<std::string>& extra_clusters, const RuntimeOptions& options,
                  const GlobalOptions& global, const credentials::ProviderOptions& provider_options, Session* session);

// Parses "30s", "5m", "1h30m", "90" (seconds); false when malformed.
bool parse_duration(const std::string& text, std::chrono::milliseconds* out);

}  // namespace mkq::cli
