// A client of one Kubernetes API server (one cluster), behind an interface so
// the reconciler's unit tests run against FakeClient (tests/support/fake_client.h) and the tool
// against HttpClient (libcurl, http_client.cpp).
//
// Every call may be made from several threads at once. The client paces
// itself per cluster (pacing.h: no client-side limit when the server announces
// API Priority and Fairness, else a token bucket; a limit the user set always
// holds), and retries, with exponential backoff and jitter, answers 429
// (waiting at least their Retry-After), 500, 502, 503, 504 and connection
// failures, all within the request's one deadline; what is left after the
// retries is the returned Error.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kube/kubeconfig.h"
#include "runtime/kube/result.h"

namespace mkq::kube {

// How a kind is served, from discovery.
struct ResourceType {
  std::string group;    // "" for core
  std::string version;  // "v1beta2"
  std::string kind;     // "ClusterQueue"
  std::string plural;   // "clusterqueues"
  bool namespaced = false;

  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
};

struct ListOptions {
  std::string namespace_name;  // empty: every namespace (or a cluster-scoped kind)
  std::string label_selector;
  // Page size; the client follows `continue` until the list is complete.
  int page_size = 500;
};

struct ObjectList {
  std::vector<Json> items;
  std::string resource_version;  // the list's
};

// An object kept as its JSON text, decoded when read: a fraction of the
// memory of the decoded value (refresh holds every live object of a fleet
// until the plan has read it). Decoded, it is exactly the value it was made
// from -- list()'s item for list_text()'s.
class ObjectText {
 public:
  ObjectText() = default;
  ObjectText(const Json& object);  // NOLINT(google-explicit-constructor): a value is an object's text
  ObjectText(std::string text, std::string name, std::string namespace_name)
      : text_(std::move(text)), name_(std::move(name)), namespace_(std::move(namespace_name)) {}

  Json decode() const;  // the object
  const std::string& text() const { return text_; }
  const std::string& name() const { return name_; }  // metadata's ("" when not a string)
  const std::string& namespace_name() const { return namespace_; }

 private:
  std::string text_;
  std::string name_, namespace_;
};

struct ObjectTextList {
  std::vector<ObjectText> items;
  std::string resource_version;  // the list's
};

struct ApplyOptions {
  std::string field_manager = "mkq";
  bool force = false;    // take ownership of fields another manager owns (force=true)
  bool dry_run = false;  // dryRun=All
};

struct DeleteOptions {
  std::string propagation_policy = "Background";  // Foreground, Background, Orphan
  std::string precondition_uid;                   // empty: none
  bool dry_run = false;
};

struct WatchOptions {
  std::string namespace_name;
  std::string label_selector;
  std::string resource_version;  // start after this one; empty: current state first
  std::chrono::seconds timeout{30};
};

struct WatchEvent {
  std::string type;  // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
  Json object;
};

// Which rate limit governs a client's requests (pacing.h).
enum class RateRegime {
  ClientLimit,     // no answer announced API Priority and Fairness: the default token bucket
  ServerFairness,  // the server announces API Priority and Fairness: no client-side limit
  Explicit,        // the limit the user set (--qps/--burst), whatever the server announces
};

// Counters for tests and -v: what the client really sent, and how it paces.
struct ClientStats {
  int requests = 0;  // HTTP requests sent, retries included
  int retries = 0;
  int throttled = 0;  // attempts the server turned away with 429 (each retried)
  int lists = 0;     // LIST calls (not pages)
  int gets = 0;
  int connections = 0;      // TLS connections given the parsed CA/client certificate (not counted: blob fallback)
  int identity_parses = 0;  // client certificate/key pairs parsed (once per distinct pair)
  RateRegime regime = RateRegime::ClientLimit;
  bool priority_and_fairness = false;  // an answer carried APF's headers (also under an explicit limit)
  double qps = 0;  // the client-side limit when the regime has one
  int burst = 0;
};

class Client {
 public:
  virtual ~Client() = default;

  // The server URL, for messages.
  virtual std::string server() const = 0;

  // The resource serving apiVersion+kind (discovery, cached for the client's
  // life; a miss refreshes the cache once). NotFound when the server does not
  // serve the kind (e.g. Kueue's CRDs are not installed).
  virtual Result<ResourceType> resource_for(const std::string& api_version, const std::string& kind) = 0;

  virtual Result<Json> get(const ResourceType& type, const std::string& namespace_name, const std::string& name) = 0;
  virtual Result<ObjectList> list(const ResourceType& type, const ListOptions& options) = 0;
  // list(), each item kept as its text (one LIST, counted as list() counts
  // it). This default encodes list()'s items; HttpClient cuts them out of
  // the answer without decoding them.
  virtual Result<ObjectTextList> list_text(const ResourceType& type, const ListOptions& options);
  // Server-side apply (PATCH application/apply-patch+yaml, body JSON) of a complete object.
  // A 409 names the other managers and fields in Error::message.
  virtual Result<Json> apply(const ResourceType& type, const Json& object, const ApplyOptions& options) = 0;
  // POST of a new object (the whole object, metadata.name set): the object as
  // created. AlreadyExists (409) when an object of that name exists.
  virtual Result<Json> create(const ResourceType& type, const Json& object) = 0;
  // PUT of the whole object: its metadata.resourceVersion, when set, is a
  // precondition -- Conflict (409) when the object changed since it was read.
  // This is the optimistic concurrency that Leases and mkq's state rely on.
  virtual Result<Json> update(const ResourceType& type, const Json& object) = 0;
  // DELETE; returns the object as the server answered (still present with a
  // deletionTimestamp while finalizers remain) or a Status. NotFound is an Error.
  virtual Result<Json> remove(const ResourceType& type, const std::string& namespace_name, const std::string& name,
                              const DeleteOptions& options) = 0;
  // Streams events to on_event until it returns false, the timeout passes or
  // the server ends the stream. A 410 Expired is an Error (status 410).
  virtual Result<void> watch(const ResourceType& type, const WatchOptions& options,
                             const std::function<bool(const WatchEvent&)>& on_event) = 0;
  // Any other call, e.g. POST .../serviceaccounts/NAME/token. body may be null.
  virtual Result<Json> request(const std::string& method, const std::string& path, const Json* body,
                               const std::string& content_type = "application/json") = 0;

  virtual ClientStats stats() const = 0;
};

// The client-side limit of a cluster that does not announce API Priority and
// Fairness: Kueue's own clients' default (v0.20), high enough that a 2,000-object
// apply is paced by the server's answers, not by the bucket (docs/apply.md).
inline constexpr double kDefaultQps = 1000.0;
inline constexpr int kDefaultBurst = 1000;

struct ClientOptions {
  double qps = kDefaultQps;  // sustained requests per second to this cluster
  int burst = kDefaultBurst;  // requests allowed at once before the rate applies
  // The user set qps/burst: they hold even when the server announces API
  // Priority and Fairness (otherwise that switches the client-side limit off).
  bool explicit_rate_limit = false;
  std::chrono::milliseconds request_timeout{30000};  // one HTTP request (watches use WatchOptions::timeout)
  std::chrono::milliseconds connect_timeout{10000};
  // Retries after the first attempt (pacing.h): of answers that ask to be
  // asked again (429, 500, 502, 503, 504) -- client-go's ten -- and of
  // attempts that got no answer, fewer, so that a cluster that is down is
  // known within seconds. One deadline (request_timeout) bounds them all.
  int max_retries = 10;
  int max_transport_retries = 6;
  std::chrono::milliseconds backoff_base{100};   // first retry waits ~base, doubling, with jitter
  std::chrono::milliseconds backoff_max{5000};
  std::string user_agent = "mkq";
};

// An HTTPS client for the endpoint (libcurl, OpenSSL). Connections are kept and
// reused (one pool per client); only the endpoint's CA is trusted (the system
// store when the kubeconfig names none). Client certificates, a token, a token
// file (re-read on every request) or an exec plugin (its credential cached until
// its expirationTimestamp) authenticate. The CA and client certificate PEM is
// parsed once (an exec plugin's again when it changes), not per connection.
// An Error (reason "ConfigError") when the endpoint cannot be used (a bad
// certificate or key, a key that is not the certificate's, an unreadable file).
Result<std::unique_ptr<Client>> make_http_client(const Endpoint& endpoint, const ClientOptions& options);

}  // namespace mkq::kube
