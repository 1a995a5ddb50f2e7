// The generic verbs over the store, as kube-apiserver's generic registry
// serves them for every kind: get and list (verbs_read.cpp); create, update
// (PUT, status included), the three patch types and server-side apply
// (verbs_write.cpp); delete and deletecollection, with finalizers, namespace
// termination and a CRD's custom resources (verbs_delete.cpp). Kind-specific
// preparation and validation are prepare.h's; the side effects of a write are
// the post-write hooks' (cluster_state.h), run by the router after the verb.
//
// Every function here is called under the cluster's lock (cluster_state.h).
// `info` is held by the caller (Registry::hold): valid even when the registry
// changes during a write.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/request.h"
#include "sandbox/resources.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

// GET of one object / of a collection (label and field selectors, limit and continue).
ApiResponse get_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);
ApiResponse list_objects(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);

// POST. `applied`: the object a server-side apply creates (its managedFields kept).
ApiResponse create_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t,
                          const nlohmann::json* applied = nullptr);
// PUT of an object or of its status.
ApiResponse update_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);
// PATCH: JSON, merge and strategic merge patches, and server-side apply.
ApiResponse patch_object(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);

// DELETE of one object (preconditions honoured) / of a collection (selectors).
ApiResponse delete_one(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);
ApiResponse delete_collection(ClusterState& state, const ApiRequest& r, const ResourceInfo& info, const Target& t);

// DeleteOptions.propagationPolicy: what becomes of an object's dependents
// (the objects whose metadata.ownerReferences name it) when it is deleted.
enum class Propagation {
  Orphan,      // the garbage collector removes their references, then the object goes (finalizer `orphan`)
  Background,  // the object goes at once, the garbage collector deletes them after
  Foreground,  // the object stays (finalizer `foregroundDeletion`) until its blocking dependents are gone
};

// Deletes one stored object as kube-apiserver's generic store does: the
// garbage collector's finalizers (`orphan`, `foregroundDeletion`) set as
// `policy` says (nullopt: as the object's finalizers say, else the kind's
// default: Orphan for batch/v1 Jobs, Background for the rest; Namespaces
// have none), then the object marked for deletion (deletionTimestamp) while
// finalizers remain, else removed (a Namespace: everything in it first).
// Returns the object's last state.
nlohmann::json delete_object(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, nlohmann::json object,
                             std::optional<Propagation> policy = std::nullopt);
// The served resource of group/resource in its preferred version; nullptr when none serves it.
const ResourceInfo* find_served(const Registry& registry, const std::string& group, const std::string& resource);
// True when an object's metadata lists finalizers still to run.
bool has_finalizers(const nlohmann::json& meta);
// Removes an object for good, then what depends on it: a CRD's custom
// resources, a terminating namespace that became empty.
void finish_delete(ClusterState& state, const ResourceInfo& info, const ObjectKey& key, nlohmann::json& last);

}  // namespace mkq::sandbox
