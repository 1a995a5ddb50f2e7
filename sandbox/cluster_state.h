// The state one simulated cluster's parts share: its store, its served
// resources, its identity settings and the post-write hooks. Each part of the
// sandbox (routing.h, discovery.h, verbs.h, watch.h, prepare.h, crds.h,
// auth.h, tokens.h) is a set of free functions taking a ClusterState& --
// nothing of a cluster is hidden in a class's members.
//
// The locking rule, the only one: every function taking a ClusterState& is
// called with `mutex` held and returns with it held, unless its header says
// otherwise (route(), watch(), and the constructors and destructors of
// GroupCommitter and SimulatedControllers). Only the entry points take it --
// the Cluster's methods (handle() through route()), a watch stream between
// its chunks, the controllers' threads (their `rerun`) and the group
// committer. The committer's own mutex is never held while taking this one.
//
// The state is shared (shared_ptr) because a watch stream may outlive the
// handle() call that started it, and the Cluster itself.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/rbac.h"
#include "sandbox/resources.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

struct ClusterState;

// A write the verbs have just made: what the post-write hooks are told.
struct WriteEvent {
  const ResourceInfo& info;  // the resource written to
  const std::string& ns;     // the request's namespace; "" at the cluster scope
};

// A side effect of writes, as a controller reacting to them: called after
// every successful write request that is not a dry run, under the lock, in
// the order the hooks were registered (cluster.cpp). Each hook picks the
// writes it cares about; it may write to the store itself. Returns true when
// it wrote anything (watches are then woken).
using PostWriteHook = std::function<bool(ClusterState& state, const WriteEvent& write)>;

struct ClusterState {
  ClusterState(std::string cluster_name, std::unique_ptr<Store> cluster_store, ClusterOptions cluster_options)
      : name(std::move(cluster_name)), options(std::move(cluster_options)), store(std::move(cluster_store)) {}

  const std::string name;
  // service_account_key is filled on first use when empty (tokens.h: signing_key).
  ClusterOptions options;

  std::mutex mutex;
  // Notified (under the lock) after every change a watch could see.
  std::condition_variable changed;
  std::unique_ptr<Store> store;
  // RBAC's decisions over `store` (rbac.h), compiled from it and kept exact by its epochs.
  RbacAuthorizer rbac;
  // Bearer tokens whose signature verified, with their claims (auth.h:
  // verify_token): a signature checked once is not checked again. Only tokens
  // this cluster signed get in; their expiry and their account are checked
  // on every request all the same.
  std::unordered_map<std::string, std::shared_ptr<const nlohmann::json>> verified_tokens;
  // Built-in kinds and those of the stored CRDs (crds.h: refresh_registry).
  Registry registry;
  // Set when the Cluster is destroyed: watch streams end, threads stop calling back.
  bool closing = false;
  std::mt19937_64 random{std::random_device{}()};
  // Registered at the cluster's construction, never changed afterwards.
  std::vector<PostWriteHook> post_write_hooks;
};

// Runs every post-write hook for a write; true when any of them wrote.
bool run_post_write_hooks(ClusterState& state, const WriteEvent& write);

// A line for the sandbox's log (ClusterOptions::log), prefixed with the cluster's name.
void log_line(const ClusterState& state, const std::string& line);

// A random RFC 4122 version 4 uid, as metadata.uid.
std::string new_uid(ClusterState& state);
// Five characters of Kubernetes' name-suffix alphabet (metadata.generateName).
std::string random_suffix(ClusterState& state);

}  // namespace mkq::sandbox
