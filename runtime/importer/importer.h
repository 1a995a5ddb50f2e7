// runtime/importer: `mkq import` -- Kueue objects that exist (YAML files, or
// live clusters reached through kubeconfig contexts) become a policy that
// renders to them.
//
// The stage reads objects into a Snapshot (read_files, read_live), writes a
// policy from it (write_policy: names kept, workers that differ only in their
// name written once as a loop, a worker's own version of a queue as an
// override, run through the formatter), and then checks its own work: the
// policy is compiled and lowered, and every object read is compared with the
// object the policy renders. What differs is a Finding with the object's
// address -- a field the language cannot express, an object it cannot hold --
// never lost in silence. One entry function, import_policy, does all three
// steps after reading.
//
// Invariant: no credential is ever read into a Snapshot, written into the
// policy or put in a Finding. Secrets are never read; a worker's kubeconfig
// becomes a credentials declaration naming where its value comes from.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/result.h"
#include "compiler/kueue/objects.h"
#include "runtime/kube/client.h"

namespace mkq::importer {

using Json = nlohmann::ordered_json;

// The objects one cluster holds, as read.
struct ClusterSource {
  std::string name;  // the cluster's name in the policy (the manager's, or a worker's MultiKueueCluster name)
  kueue::ClusterRole role = kueue::ClusterRole::Manager;
  std::string context;        // live: the kubeconfig context it was read through; "" for files
  std::vector<Json> objects;  // complete objects, in the order read
};

// What was read: the manager first, then the workers whose objects were read.
struct Snapshot {
  std::vector<ClusterSource> clusters;
  // Objects that were not read into a cluster (another kind, a Secret,
  // another policy's), as findings: they are part of the report.
  std::vector<std::string> skipped;  // "ADDRESS: why"
};

// How the policy gets a worker's kubeconfig.
enum class Credentials {
  // mkq makes the worker's ServiceAccount and RBAC and issues its tokens (the
  // language's default): the first apply writes the manager's Secret anew.
  ServiceAccount,
  // The kubeconfig the manager's Secret holds now, given to mkq by an
  // environment variable (MKQ_KUBECONFIG_<WORKER>): nothing on the worker
  // changes and the Secret is kept while it holds the same kubeconfig.
  Kubeconfig,
};

struct WriteOptions {
  std::string manager = "manager";  // the manager's name in the policy
  Credentials credentials = Credentials::ServiceAccount;
  std::string header;  // a comment (without "// ") put first: where the objects came from
};

// One thing the policy does not say as the clusters (or files) do.
struct Finding {
  enum class Kind {
    Dropped,      // a field of an object read that the policy does not render
    NotImported,  // an object read that the policy does not hold at all
    Added,        // an object or field the policy renders that was not read
    Note,         // what to do next (an environment variable to set, a worker not read)
  };
  Kind kind = Kind::Note;
  std::string address;  // CLUSTER/KIND/[NAMESPACE/]NAME; "" for a note about no object
  std::string message;  // lower-case, no final period
};

struct Imported {
  std::string policy;             // the policy's text, formatted
  std::vector<Finding> findings;  // in the order of the objects read
  // The objects read that the policy renders unchanged (their addresses):
  // what an adoption takes over.
  std::vector<std::string> represented;
};

// The finding in words: "dropped: ADDRESS: message" (a note: "ADDRESS: message").
std::string describe(const Finding& finding);

// Kueue YAML files: `manager_files` hold the manager's objects, each worker's
// files its own (key: the worker's name, as its MultiKueueCluster names it).
// A file that cannot be read or parsed is an error naming it.
base::Result<Snapshot> read_files(const std::string& manager, const std::vector<std::string>& manager_files,
                                  const std::map<std::string, std::vector<std::string>>& worker_files);

// Live clusters: every Kueue object mkq writes, listed through each client.
// `workers` maps a worker's name to its client; null: not read.
struct LiveCluster {
  std::string name;
  std::string context;
  kube::Client* client = nullptr;
};
base::Result<Snapshot> read_live(const LiveCluster& manager, const std::vector<LiveCluster>& workers);

// A manager reached through a kubeconfig context, and its workers through
// theirs.
struct ContextRequest {
  std::string kubeconfig;  // empty: $KUBECONFIG, else ~/.kube/config
  std::string context;     // the manager's; empty: the current context
  std::string manager;     // its name in the policy; empty: the context's
  std::map<std::string, std::string>
      workers;                            // worker name -> context; unnamed: a context of the worker's name
  bool insecure_skip_tls_verify = false;  // --insecure-skip-tls-verify: allow such a context
  std::chrono::milliseconds request_timeout{0};  // one request with its retries; 0: the client's default
};
struct LiveImport {
  Snapshot snapshot;
  std::vector<std::string> notes;  // workers not read, and why
};
base::Result<LiveImport> read_contexts(const ContextRequest& request);

// The names of the workers the manager's objects declare (MultiKueueClusters).
std::vector<std::string> worker_names(const ClusterSource& manager);

// Writes the policy for `snapshot` and checks it against the objects read.
// An Error only when the policy written does not compile (a bug of the
// writer, reported with the compiler's message), never for what the language
// cannot express: that is a Finding.
base::Result<Imported> import_policy(const Snapshot& snapshot, const WriteOptions& options);

// The environment variable that holds a worker's kubeconfig with
// Credentials::Kubeconfig: MKQ_KUBECONFIG_ and the name in capitals, '-' and
// '.' as '_'.
std::string kubeconfig_variable(const std::string& worker);

}  // namespace mkq::importer
