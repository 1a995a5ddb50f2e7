// Exec credential plugins (client.authentication.k8s.io/v1 and v1beta1): run
// the kubeconfig's command and read the ExecCredential it prints. Internal to
// mkq_kube; HttpClient caches the credential until its expirationTimestamp.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "runtime/kube/kubeconfig.h"
#include "runtime/kube/result.h"

namespace mkq::kube {

struct ExecCredential {
  std::string token;                    // a secret
  std::string client_certificate_data;  // PEM
  std::string client_key_data;          // PEM, a secret
  std::optional<std::chrono::system_clock::time_point> expiration;  // none: valid for the client's life
};

// Runs the plugin (its args and env added to this process's environment, plus
// KUBERNETES_EXEC_INFO), waits at most `timeout`, and parses its standard
// output. An Error (reason "ConfigError") names the command and says why; it
// never quotes the plugin's standard output (where the secret is).
Result<ExecCredential> run_exec_plugin(const ExecConfig& exec, const ClusterEntry& cluster,
                                       std::chrono::milliseconds timeout);

// Parses an ExecCredential document as printed by a plugin configured with
// `api_version`. Exposed for tests.
Result<ExecCredential> parse_exec_credential(const std::string& output, const std::string& api_version,
                                             const std::string& command);

}  // namespace mkq::kube
