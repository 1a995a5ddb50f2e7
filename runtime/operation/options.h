// What a run of plan, apply, destroy, rotate or status is told about where it
// goes and what it may do: the options the CLI parses and a controller would
// set. Plain data, no behaviour.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace mkq::operation {

// Where plan/apply/destroy/status find the clusters and the state.
struct RuntimeOptions {
  std::string kubeconfig;             // --kubeconfig; empty: the policy's, $KUBECONFIG, ~/.kube/config
  bool sandbox = false;               // --sandbox: the sandbox's kubeconfig (started when not running)
  std::string sandbox_dir;            // --sandbox-dir; empty: .mkq/sandbox in the policy's directory
  std::string state_path;             // --state; empty: the policy's own state beside it
  bool insecure_skip_tls_verify = false;
  // --qps/--burst, per cluster; 0: not set, the client's regime decides
  // (kube/pacing.h: none when the server announces API Priority and Fairness).
  double qps = 0;
  int burst = 0;
  int parallelism = 16;               // requests in flight at once
  std::chrono::milliseconds request_timeout{0};  // --request-timeout: one request with its retries; 0: 30 s
  std::vector<std::string> exclude_clusters;  // --exclude-cluster (plan, apply, destroy): neither read nor changed
  // --cluster (plan, apply, destroy, status): only these clusters are read and
  // changed, a worker with the manager's objects for it (reconcile::Scope);
  // empty: every cluster. Not together with exclude_clusters.
  std::vector<std::string> clusters;
};

// What plan and apply are asked to force or narrow besides the clusters
// (docs/apply.md, "Scoping").
struct ScopeOptions {
  std::vector<std::string> replace;  // --replace ADDRESS: deleted and created again (PlanOptions::replace)
  bool drift_only = false;           // --drift-only: only repairs of drift are planned and carried out
};

// What plan, apply and destroy may do to objects mkq did not create
// (docs/apply.md, "Safety").
struct OwnershipOptions {
  bool take_over = false;       // --take-over: objects labelled with another policy become this one's
  bool delete_adopted = false;  // --delete-adopted: objects that existed before mkq are deleted, not released
};

// Which kinds of planned change an apply carries out: all of them for `mkq
// apply`; for the controller, what its sync mode and self-heal allow
// (docs/controller.md). The plan shows every change; one not selected is
// left as it is -- reported, not applied.
struct ChangeSelection {
  bool policy = true;       // what the policy asks for: creates, updates, replaces, deletes, releases
  bool drift = true;        // repairs of drift (reconcile::Change::repairs_drift)
  bool credentials = true;  // worker credentials issued or revoked (Change::credential, revokes_token_of)

  bool all() const { return policy && drift && credentials; }
};

}  // namespace mkq::operation
