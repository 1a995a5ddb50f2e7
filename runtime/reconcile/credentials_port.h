// The reconciler's view of worker credentials: a kubeconfig Secret whose
// desired document holds a placeholder (kueue::Object::holds_credential_placeholder)
// gets its content from a CredentialProvider at apply time -- never from the
// plan, so plans, saved plan files, logs and the state never hold a credential.
// runtime/credentials implements it; tests use their own.
#pragma once

#include <string>

#include "compiler/kueue/objects.h"
#include "runtime/kube/result.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

using Json = kube::Json;  // as in target.h

struct CredentialDecision {
  bool issue = false;        // true: apply writes a freshly issued credential
  std::string description;   // without values: "token for multikueue-sa, expires 2026-12-21"
  std::string reason;        // why (when issue): "not on the cluster", "placeholder on the cluster",
                             // "expires within 7d", "changed outside mkq", "worker's server changed"
  std::string error;         // non-empty: the credential cannot be issued (the plan reports it, apply fails it)
};

class CredentialProvider {
 public:
  virtual ~CredentialProvider() = default;
  // Plan time. `secret` is the desired Secret (placeholder), `cluster` the manager,
  // `live` the Secret on the manager (null: absent), `recorded` its inventory entry
  // (null: mkq never applied it).
  virtual CredentialDecision decide(const std::string& cluster, const kueue::Object& secret, const Json* live,
                                    const state::InventoryEntry* recorded) = 0;
  // Apply time, after every worker's objects are applied: the complete Secret
  // document to apply (data filled, base64), or the error.
  virtual kube::Result<Json> issue(const std::string& cluster, const kueue::Object& secret) = 0;
  // Apply time, after the issued Secret was applied on the manager (stored true)
  // or not (false): the provider revokes what the Secret no longer uses (the
  // old credential once the new one is stored; the new one when it could not
  // be stored). Returns a message when something could not be revoked.
  virtual std::string settled(const std::string& cluster, const kueue::Object& secret, bool stored) {
    (void)cluster, (void)secret, (void)stored;
    return "";
  }
};

}  // namespace mkq::reconcile
