// The sandbox's Kubernetes API, transport-free.
//
// A Cluster is one simulated Kubernetes API server: its objects (persisted in
// its own SQLite database), its served resources (built-in kinds and those
// of the CRDs created in it) and the HTTP semantics of kube-apiserver v1.33 —
// discovery, verbs, errors as metav1.Status, tables, watch. It knows nothing of
// sockets or TLS: the HTTPS transport (server.h) authenticates the client,
// turns each HTTP request into an ApiRequest and writes back the ApiResponse.
// Tests call handle() directly.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mkq::sandbox {

struct ApiRequest {
  std::string method;  // GET, POST, PUT, PATCH, DELETE
  std::string path;    // "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq", without the query
  std::multimap<std::string, std::string> query;  // decoded: labelSelector, fieldValidation, watch, ...
  std::map<std::string, std::string> headers;     // names lower-case: "content-type", "accept"
  std::string body;
  // Who is asking, as the transport authenticated them (client certificate CN
  // and O, or a bearer token; a request without credentials is
  // system:anonymous in system:unauthenticated). handle() applies the
  // Impersonate-* headers first (impersonation.h), then, unless groups holds
  // system:masters, authorizes the request with RBAC.
  std::string user;
  std::vector<std::string> groups;
  std::string uid;                                           // set by impersonation only
  std::map<std::string, std::vector<std::string>> extra;     // likewise
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::map<std::string, std::string> headers;  // extra headers, e.g. "Retry-After"
  // Set for a watch: the transport calls it repeatedly and sends each chunk it
  // produces (one JSON event per line); it blocks until there is something to
  // send or the watch's timeout, and returns false when the stream is over.
  std::function<bool(std::string& chunk)> stream;
};

// Identity settings of a cluster (see docs/sandbox.md, "Identity and RBAC").
struct ClusterOptions {
  // PEM RSA private key signing service-account tokens (the sandbox's DIR/sa.key);
  // empty: a key is made on first use (tests).
  std::string service_account_key;
  // PEM CA certificate put into legacy token Secrets as ca.crt (the sandbox CA).
  std::string ca_cert;
  // TokenRequest: allow expirationSeconds down to 1 (Kubernetes' minimum is 600).
  bool allow_short_tokens = false;
  // How long a Deployment's new pods take to become available (deployments.h).
  std::chrono::milliseconds rollout_delay{750};
  // Lines for the sandbox's log (what the simulated controllers did that a
  // client cannot read back, e.g. the configuration Kueue started with);
  // called under the cluster's lock. Unset: not logged.
  std::function<void(const std::string& line)> log;
};

// A bearer token's authenticated caller.
struct TokenIdentity {
  std::string user;
  std::vector<std::string> groups;
  std::string uid;  // the service account's uid
};

class Cluster {
 public:
  virtual ~Cluster() = default;
  // Opens (or creates) the cluster's database; ":memory:" for tests.
  static std::unique_ptr<Cluster> open(const std::string& name, const std::filesystem::path& database,
                                       std::string* error);
  static std::unique_ptr<Cluster> open(const std::string& name, const std::filesystem::path& database,
                                       const ClusterOptions& options, std::string* error);
  // A service-account token (TokenRequest or legacy Secret): signature,
  // expiry, the account (same uid) and any bound object still exist. nullopt:
  // the transport answers 401. Thread-safe.
  virtual std::optional<TokenIdentity> authenticate_token(const std::string& token) {
    (void)token;
    return std::nullopt;
  }
  // The request as the user it impersonates (its Impersonate-* headers
  // consumed), or the answer refusing it; the request itself when it
  // impersonates no one. The transport resolves it before API Priority and
  // Fairness classifies the request, as kube-apiserver's filters run. Thread-safe.
  virtual std::variant<ApiRequest, ApiResponse> impersonate(const ApiRequest& request) { return request; }
  // What authorization alone answers for `request` (its body not read): a
  // refusal (403), or nullopt. The transport asks before refusing a body as
  // too large, since kube-apiserver authorizes before its handler reads. Thread-safe.
  virtual std::optional<ApiResponse> authorize(const ApiRequest& request) {
    (void)request;
    return std::nullopt;
  }
  // Thread-safe: the transport calls it from several threads.
  virtual ApiResponse handle(const ApiRequest& request) = 0;
  virtual std::string name() const = 0;
  virtual std::size_t object_count() const = 0;
  // Writes are committed to the database in groups, a few milliseconds after
  // they are answered (see Store); flush() commits what is pending now. The
  // destructor flushes too. Thread-safe.
  virtual void flush() {}
};

}  // namespace mkq::sandbox
