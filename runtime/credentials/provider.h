// runtime/credentials: the kubeconfig each worker's MultiKueueCluster reads on
// the manager, issued by mkq inside apply -- never written by hand, never
// stored, printed or logged.
//
// Per worker, by its `credentials` mode (docs/language.md):
//   - serviceaccount (default): a token for the worker's ServiceAccount from the
//     TokenRequest API (POST /api/v1/namespaces/NS/serviceaccounts/SA/token,
//     expirationSeconds = the policy's lifetime), or the policy's pre-issued
//     `token` secret; the kubeconfig holds the worker's server, its CA as
//     certificate-authority-data and the token -- nothing Kueue refuses (exec,
//     tokenFile, file paths, insecure-skip-tls-verify).
//   - kubeconfig: the policy's `kubeconfig` secret, as given.
//   - clusterprofile: no Secret (nothing to do here).
// The issued Secret carries non-secret annotations for the next plan:
// mkq.dev/credential-expires (RFC 3339), mkq.dev/credential-server and
// mkq.dev/credential-ca-digest (of the worker's endpoint when issued), and for
// a TokenRequest token mkq.dev/credential-anchor: the empty Secret on the
// worker the token is bound to (boundObjectRef). settled() deletes the other
// anchors once the new Secret is stored, which revokes the old tokens
// (provider.cpp, "Revocation"), and a transaction recorded in the state finds
// and revokes what an interrupted rotation left (provider.cpp, "Transactions").
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "compiler/sema/model.h"
#include "runtime/kube/client.h"
#include "runtime/kube/kubeconfig.h"
#include "runtime/reconcile/credentials_port.h"

namespace mkq::credentials {

struct WorkerAccess {
  kube::Endpoint endpoint;               // how mkq reaches the worker (server, CA, mkq's own credentials)
  kube::Client* client = nullptr;        // mkq's client of the worker (null: unreachable)
};

struct ProviderOptions {
  // The clock of expiry decisions and anchor names; never null (tests move it).
  const base::Clock* clock = &base::system_clock();
  bool force_rotate = false;             // `mkq credentials rotate`: issue anew whatever the expiry
  std::vector<std::string> rotate_only;  // with force_rotate: only these workers (empty: all)
  // Reads a secret("env:..."/"file:...") source's value; default: the process environment / the file.
  std::function<base::Result<std::string>(const std::string& source)> read_secret;
  // The state's credential intents not finished (StateStore::credential_intents):
  // the anchors an interrupted transaction meant to revoke or issue are looked
  // for by name as well, and revoked when still there.
  std::vector<state::CredentialIntent> unfinished;
};

// A provider for `policy`'s workers. `workers` maps a worker's policy name to
// its access; the provider finds the worker a Secret belongs to by the
// Secret's name and namespace (sema::model::Worker::secret_name, Kueue's namespace).
std::unique_ptr<reconcile::CredentialProvider> make_provider(const sema::model::Policy& policy,
                                                             std::map<std::string, WorkerAccess> workers,
                                                             ProviderOptions options);

// When the token a worker's kubeconfig Secret (on the manager, as read) holds
// expires, as mkq recorded it when it issued the token
// (mkq.dev/credential-expires); nullopt when none is recorded (a kubeconfig or
// a pre-issued token, a placeholder, a Secret mkq did not write).
std::optional<std::chrono::system_clock::time_point> recorded_expiry(const kube::Json& secret);

// The kubeconfig text (YAML) for a worker: one cluster, one user, one context,
// certificate-authority-data and token inline. Exposed for tests.
std::string worker_kubeconfig(const std::string& worker, const std::string& server, const std::string& ca_pem,
                              const std::string& token);

}  // namespace mkq::credentials
