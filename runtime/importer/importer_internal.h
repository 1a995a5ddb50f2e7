// The pieces of runtime/importer shared by its files: the layout the writer
// follows (what becomes which declaration), the writer and the check.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/importer/importer.h"

namespace mkq::importer {

std::string name_of(const Json& object);
std::string namespace_of(const Json& object);

// A multikueue AdmissionCheck with its MultiKueueConfig.
struct Dispatch {
  std::string name;                  // the AdmissionCheck's
  std::string config;                // the MultiKueueConfig's
  std::vector<std::string> queues;   // the ClusterQueues that name the check
  std::vector<std::string> workers;  // the config's clusters, in order
};

// A worker's own version of a mirrored ClusterQueue.
struct QueueOverride {
  std::string name;    // "" : the queue's worker_name (or its own name)
  std::string quotas;  // quota blocks; "" : the manager's quotas
};

struct WorkerPlan {
  std::string name;
  std::string context;                             // live: the context it was read through
  std::string secret;                              // the kubeconfig Secret the MultiKueueCluster names
  std::map<std::string, QueueOverride> overrides;  // by the manager's queue name
};

// What becomes which declaration.
struct Layout {
  Layout() = default;
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  Layout(Layout&&) = default;
  Layout& operator=(Layout&&) = default;

  std::string manager;
  std::string manager_context;
  // The manager's objects as read, without the fields that hold Kueue's
  // default (the API server fills them in; a policy leaves them out).
  std::vector<Json> objects_read;
  std::vector<const Json*> objects;  // into objects_read
  std::vector<WorkerPlan> workers;   // sorted by name
  std::vector<Dispatch> dispatches;
  std::map<std::string, std::string> worker_name;  // queue -> the name every worker gives it

  std::vector<const Json*> of_kind(const std::string& kind) const;
  // The LocalQueues that point at `queue`.
  std::vector<const Json*> localqueues_of(const std::string& queue) const;
};

// Not copyable: `objects` points into `objects_read`.
Layout lay_out(const Snapshot& snapshot);

// `value` at `path` (dotted, list items as [n] or []) is Kueue's default for
// that field of `kind` (kueue::schema's defaults).
bool holds_default(const std::string& kind, const std::string& path, const Json& value);

// The quota blocks of a spec's resourceGroups.
std::string quota_blocks(const Json& spec);

// The policy's text, formatted.
base::Result<std::string> write_policy(const Layout& layout, const WriteOptions& options);

// The policy compiled and lowered, compared with every object read.
base::Result<Imported> check_policy(const Snapshot& snapshot, std::string policy);

}  // namespace mkq::importer
