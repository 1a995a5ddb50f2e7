// What plan, apply, destroy, rotate and status share after compiling: how each
// cluster of the policy is reached (a kubeconfig context, or the sandbox), the
// clients, and the credential provider -- chosen by a TargetResolver. Glue
// only: every decision about objects belongs to runtime/reconcile.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "compiler/sema/model.h"
#include "runtime/credentials/provider.h"
#include "runtime/kube/client.h"
#include "runtime/kube/kubeconfig.h"
#include "runtime/operation/options.h"
#include "runtime/operation/ui.h"
#include "runtime/reconcile/target.h"

namespace mkq::operation {

struct Session {
  bool sandbox = false;                       // the clusters are the sandbox's
  std::vector<std::unique_ptr<kube::Client>> clients;  // owned here (a fake resolver may own its own)
  std::vector<reconcile::Target> targets;     // manager first, then workers by name, then clusters only the state names
  std::map<std::string, kube::Endpoint> endpoints;  // by cluster
  std::unique_ptr<reconcile::CredentialProvider> credentials;
};

// What a resolver is asked to connect to.
struct TargetRequest {
  const sema::model::Policy* policy = nullptr;
  std::string policy_path;                  // as the user gave it
  // Clusters the inventory names that the policy no longer has (their objects
  // are pruned): reached through a context of their own name.
  std::vector<std::string> extra_clusters;
  RuntimeOptions options;                   // options.exclude_clusters are left out
  credentials::ProviderOptions provider;
  bool verbose = false;                     // pass on what the sandbox says as it starts
};

// Chooses the clusters a run talks to and connects. Tells `ui` the target
// (TargetChoice) before any cluster is read; false, with every problem given
// to ui.error and nothing read, when the target cannot be used. A cluster
// whose client cannot be made is a Target without a client (the plan reports
// it unreachable).
class TargetResolver {
 public:
  virtual ~TargetResolver() = default;
  virtual bool open(const TargetRequest& request, Ui& ui, Session* session) = 0;
  // Before the state at `state_location` is read (it comes before open):
  // starts what the run would start anyway and the state is kept in -- the
  // sandbox, for a kubernetes:// state in it. False (the reason given to
  // `ui`) when that fails. The default starts nothing.
  virtual bool prepare_state(const TargetRequest& /*request*/, const std::string& /*state_location*/, Ui& /*ui*/) {
    return true;
  }
  // Before the policy is compiled: starts reading what open() will read, on a
  // thread of its own, for as long as the handle lives (null: nothing). The
  // default reads nothing.
  virtual std::unique_ptr<kube::KubeconfigPrefetch> read_ahead(const RuntimeOptions& /*options*/,
                                                               const std::string& /*policy_path*/) {
    return nullptr;
  }
};

// The real resolver: the sandbox with --sandbox, or when no kubeconfig is named
// anywhere (no --kubeconfig, KUBECONFIG, ~/.kube/config, nor a cluster's own),
// starting it with the policy's cluster names when it is not running; else
// each cluster's context in its kubeconfig. A kubeconfig that is named but
// cannot be read, a context a kubeconfig does not have (listing its contexts,
// with "did you mean") or cannot use, and a sandbox that cannot start are
// errors.
class KubeconfigResolver : public TargetResolver {
 public:
  bool open(const TargetRequest& request, Ui& ui, Session* session) override;
  // A kubernetes:// state when the run's target is the sandbox and it is not
  // running: the sandbox is started with the policy's clusters first.
  bool prepare_state(const TargetRequest& request, const std::string& state_location, Ui& ui) override;
  // The kubeconfig open() loads first: the sandbox's with --sandbox, else the
  // one --kubeconfig, KUBECONFIG or ~/.kube/config names.
  std::unique_ptr<kube::KubeconfigPrefetch> read_ahead(const RuntimeOptions& options,
                                                       const std::string& policy_path) override;
};

// Where a policy's state is kept: --state (or MKQ_STATE) as typed; else the
// state the policy's manager names with a `state {}` block (`policy`, when
// compiled; policy_state_location); else the policy's default file beside it
// (state::default_state_path of kueue::policy_home).
std::filesystem::path state_path_for(const std::string& policy_path, const RuntimeOptions& options,
                                     const sema::model::Policy* policy = nullptr);
// The state a policy's manager names: kubernetes://CONTEXT/NAMESPACE/NAME,
// the manager's context, the block's namespace, its name or else the
// policy's identity (declared, else derived from where it lives); "" when
// the manager has no `state {}` block.
std::string policy_state_location(const sema::model::Policy& policy, const std::string& policy_path);
// The sandbox's directory: --sandbox-dir as typed (relative to the working
// directory), else .mkq/sandbox in the policy's directory.
std::filesystem::path sandbox_dir_for(const std::string& policy_path, const RuntimeOptions& options);

// A path as the user would type it: relative to the working directory when it
// lies below it, else absolute.
std::string shown(const std::filesystem::path& path);

}  // namespace mkq::operation
