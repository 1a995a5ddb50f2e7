// Object preparation, as kube-apiserver's registry strategies do it on every
// write: the metadata a create gives (uid, creationTimestamp, generation),
// the kind-specific defaults and normalisation (Namespaces, Secrets'
// stringData, Deployments), and validation -- the object's name, a custom
// resource against its CRD's schema (pruning and defaulting it, schema.h),
// a CRD's own rules (crds.h), a Deployment's (deployments.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/api.h"
#include "sandbox/cluster_state.h"
#include "sandbox/resources.h"

namespace mkq::sandbox {

// Decodes a built-in kind's object as kube-apiserver's JSON decoder does
// (builtin_types.h), before anything else reads it: a value of the wrong type
// is a 400 whatever the mode; unknown fields are removed and become warnings,
// nothing with ?fieldValidation=Ignore, or a 400 with Strict. nullopt when it
// decodes (and for kinds without a declared type). No state.
std::optional<ApiResponse> decode_fields(const ApiRequest& r, const ResourceInfo& info, nlohmann::json& object,
                                         std::vector<std::string>* warnings);

// Fills the metadata a create gives, and kind-specific defaults.
void prepare_new(ClusterState& state, const ResourceInfo& info, nlohmann::json& object);

// Kind-specific normalisation on every write. No state.
void normalise(const ResourceInfo& info, nlohmann::json& object);

// Checks the name, validates the custom resource against its schema (pruning
// and defaulting it) and the kind's own rules; `existing` is the stored object
// of an update (transition rules compare with it). Unknown fields become
// warnings, or a 400 with ?fieldValidation=Strict. nullopt when valid. No state.
std::optional<ApiResponse> validate(const ApiRequest& r, const ResourceInfo& info, nlohmann::json& object,
                                    std::vector<std::string>* warnings, const nlohmann::json* existing = nullptr);

// What kube-apiserver takes from the rest of the cluster, around validate():
// allocate() before it, the values a write is given from cluster-wide pools (a
// Service's clusterIP and nodePorts, services.h; an update keeps what it left
// out); admit() after it, the admission checks (one global default
// PriorityClass, priority_classes.h). `existing`: the stored object of an
// update, null on a create. nullopt when the write may go on. Read the store only.
std::optional<ApiResponse> allocate(const ClusterState& state, const ResourceInfo& info, nlohmann::json& object,
                                    const nlohmann::json* existing);
std::optional<ApiResponse> admit(const ClusterState& state, const ResourceInfo& info, const nlohmann::json& object,
                                 const nlohmann::json* existing);

// The object without metadata (and status, when it is a subresource): what bumps generation.
nlohmann::json spec_part(const nlohmann::json& object, bool status_is_subresource);

}  // namespace mkq::sandbox
