// The reconciler's view of worker credentials: a kubeconfig Secret whose
// desired document holds a placeholder (kueue::Object::holds_credential_placeholder)
// gets its content from a CredentialProvider at apply time -- never from the
// plan, so plans, saved plan files, logs and the state never hold a credential.
// runtime/credentials implements it; tests use their own.
//
// Credential transactions: issuing a credential that replaces another is
// recorded in the state (state::CredentialIntent) through a CredentialJournal
// before anything changes, and cleared once it is finished; what an
// interrupted one left (a credential of mkq's that no Secret holds any more)
// is found at plan time (leftovers) and planned as a change of its own that
// revokes it (Change::revokes_token_of).
#pragma once

#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/kube/result.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

using Json = kube::Json;  // as in target.h

// Why a credential is issued, or not: what a caller decides on. Its words
// (CredentialDecision::reason) are for display only.
enum class CredentialCause {
  None,                     // no cause given (the decision is an error)
  NotOnCluster,             // "not on the cluster"
  Placeholder,              // "placeholder on the cluster"
  ChangedOutsideMkq,        // "changed outside mkq"
  PolicyKubeconfigChanged,  // "the policy's kubeconfig changed"
  PolicyTokenChanged,       // "the policy's token changed"
  ServerChanged,            // "worker's server changed"
  CaChanged,                // "worker's CA changed"
  NotRevocable,             // "not revocable (no anchor Secret)"
  AnchorGone,               // "its anchor Secret is gone (token revoked)"
  ExpiryUnknown,            // "expiry unknown"
  Expired,                  // "expired"
  ExpiresWithin,            // "expires within WINDOW"
  RotationRequested,        // "rotation requested"
  Current,                  // "credential current" (not issued)
  ClusterProfile,           // "no Secret in clusterprofile mode" (not issued)
};

struct CredentialDecision {
  bool issue = false;        // true: apply writes a freshly issued credential
  std::string description;   // without values: "token for multikueue-sa, expires 2026-12-21"
  CredentialCause cause = CredentialCause::None;  // why (issued or not)
  std::string window;        // ExpiresWithin: the rotation window as the policy says it ("7d")
  std::string error;         // non-empty: the credential cannot be issued (the plan reports it, apply fails it)

  // The cause in words ("expires within 7d"); "" for None.
  std::string reason() const;
};

// Where credential transactions are recorded. The apply executor gives the
// provider one backed by the state (writes are durable before they return).
class CredentialJournal {
 public:
  virtual ~CredentialJournal() = default;
  // Records what is about to be issued and revoked. An Error: the credential
  // must not be issued (nothing may change unrecorded).
  virtual base::Result<void> begin(const state::CredentialIntent& intent) = 0;
  // The worker's transaction is finished. An Error: the intent stays, and the
  // next plan looks at the worker again.
  virtual base::Result<void> finish(const std::string& worker) = 0;
};

// A credential of mkq's on a worker that nothing uses: the anchor Secret
// (v1, on the worker) of a token the manager's Secret does not hold -- the
// previous token of a rotation interrupted after the new one was stored, or
// a token issued by a run interrupted before storing it. Deleting the anchor
// revokes the token.
struct StaleCredential {
  std::string worker;                   // the worker cluster the anchor is on
  std::string namespace_name, name;     // the anchor Secret
  std::string uid, resource_version;    // as listed (the deletion's precondition)
  bool never_stored = false;            // issued, never stored (else: a previous token)
};

// `mkq status`: how many credentials of mkq's are live on a worker (anchor
// Secrets not being deleted). More than one: a previous token still works.
struct LiveCredentials {
  std::string worker;
  std::string account;  // NAMESPACE/NAME of the ServiceAccount
  int live = 0;
  std::string error;    // non-empty: the count is unknown (the worker could not be read)
};

class CredentialProvider {
 public:
  virtual ~CredentialProvider() = default;
  // Plan time. `secret` is the desired Secret (placeholder), `cluster` the manager,
  // `live` the Secret on the manager (null: absent), `recorded` its inventory entry
  // (null: mkq never applied it).
  virtual CredentialDecision decide(const std::string& cluster, const kueue::Object& secret, const Json* live,
                                    const state::InventoryEntry* recorded) = 0;
  // Plan time, after decide(): the credentials of mkq's for the Secret's
  // worker that nothing uses (see StaleCredential), for the plan to revoke.
  virtual std::vector<StaleCredential> leftovers(const std::string& cluster, const kueue::Object& secret,
                                                 const Json* live) {
    (void)cluster, (void)secret, (void)live;
    return {};
  }
  // Apply time, after every worker's objects are applied: the complete Secret
  // document to apply (data filled, base64), or the error (about the Secret:
  // Error::address is its address). A credential that
  // replaces others is recorded in `journal` (null: nothing is recorded)
  // before anything changes.
  virtual kube::Result<Json> issue(const std::string& cluster, const kueue::Object& secret,
                                   CredentialJournal* journal) = 0;
  // Apply time, after the issued Secret was applied on the manager (stored true)
  // or not (false): the provider revokes what the Secret no longer uses (the
  // old credential once the new one is stored; the new one when it could not
  // be stored) and, when all went, finishes the transaction in `journal`.
  // The error (about the Secret: Error::address is its address) says what
  // could not be revoked or recorded.
  virtual base::Result<void> settled(const std::string& cluster, const kueue::Object& secret, bool stored,
                                     CredentialJournal* journal) {
    (void)cluster, (void)secret, (void)stored, (void)journal;
    return {};
  }
  // `mkq status`: per worker whose credentials mkq issues and can revoke.
  virtual std::vector<LiveCredentials> live_credentials() { return {}; }
  // After the clusters were read: `cluster` could not be. The provider does
  // not read it again to plan or to report (its credentials' state is
  // unknown), so that an unreachable cluster costs one deadline, not one per
  // read.
  virtual void unreachable(const std::string& cluster) { (void)cluster; }
};

}  // namespace mkq::reconcile
