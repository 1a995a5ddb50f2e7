// kube-controller-manager's garbage collector, simulated: what a user sees of
// it (k8s.io/kubernetes pkg/controller/garbagecollector).
//
// An object's metadata.ownerReferences name its owners by apiVersion, kind,
// name and uid; an owner is looked up in the dependent's namespace when its
// kind is namespaced, at the cluster scope otherwise. After every write the
// collector acts on what changed:
//
// - a dependent whose every owner is gone (none of that name, or another uid)
//   is deleted -- in the background, or as its own `orphan` /
//   `foregroundDeletion` finalizer says; one with an owner still there keeps
//   living, and its references to the owners that are gone are removed;
// - an owner deleted with `propagationPolicy: Orphan` (finalizer `orphan`,
//   set by the API server, verbs.h: delete_object): its dependents' references
//   to it are removed, then the finalizer, and the owner goes;
// - an owner deleted in the foreground (finalizer `foregroundDeletion`): its
//   dependents are deleted (those with dependents of their own in the
//   foreground too), and once none with `blockOwnerDeletion: true` is left the
//   finalizer is removed and the owner goes;
// - a reference to a kind the cluster does not serve, or from a cluster-scoped
//   dependent to a namespaced kind (kube's OwnerRefInvalidNamespace), is never
//   resolved: that dependent is left alone.
//
// kube's collector works asynchronously, within milliseconds; this one runs
// inside the write that made the work (a post-write hook, simulation.h), so a
// client's next read sees its result. A dry run writes nothing and so
// collects nothing.
#pragma once

#include <memory>

#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

class GarbageCollector {
 public:
  // Under the cluster's lock: indexes every stored object's ownerReferences,
  // then observes every later write (Store::set_write_observer).
  explicit GarbageCollector(ClusterState& state);
  // Under the cluster's lock: stops observing.
  ~GarbageCollector();
  GarbageCollector(const GarbageCollector&) = delete;
  GarbageCollector& operator=(const GarbageCollector&) = delete;

  // Under the cluster's lock: does what the writes since the last call left
  // to do (its own writes included, until nothing is left). True when it wrote.
  bool collect();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mkq::sandbox
