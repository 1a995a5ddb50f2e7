// The desired state: every Kubernetes object each cluster must hold, as the
// compiler's back end (lowering) produces it from the policy model.
//
// This is the contract between lowering (lower*.cpp), compile-time Kueue
// validation, `mkq render`/`mkq graph`, and later the runtime's diff and
// apply. Objects are plain JSON documents (Kubernetes speaks JSON) plus the
// facts the tools need about them, kept beside the document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/object_ref.h"
#include "compiler/diag/source.h"

namespace mkq::kueue {

using Json = nlohmann::ordered_json;

enum class ClusterRole { Manager, Worker };

// One object to hold on one cluster.
//
// Invariants: `document` is a complete object (apiVersion, kind, metadata with
// name, [namespace], labels including app.kubernetes.io/managed-by: mkq and
// mkq.dev/policy), with keys in a fixed order, quantities in Kubernetes'
// canonical form; it never contains a credential (a kubeconfig Secret's data is
// a placeholder; apply fills it in).
struct Object {
  std::string api_version;  // "kueue.x-k8s.io/v1beta2", "v1", "rbac.authorization.k8s.io/v1"
  std::string kind;         // "ClusterQueue"
  std::string name;
  std::string namespace_name;  // empty for cluster-scoped kinds
  Json document;
  // The policy text this object comes from (a declaration, or the field that
  // made mkq derive it), so a problem found in the object points at the source.
  diag::SourceRange origin;
  // Addresses (see address()) of objects on the same cluster that must exist
  // first, e.g. a LocalQueue depends on its Namespace and its ClusterQueue.
  std::vector<std::string> depends_on;
  // True for the kubeconfig Secret whose value only apply can supply.
  bool holds_credential_placeholder = false;
  // True for the one object that is Kueue's configuration (its ConfigMap):
  // the document holds only the settings mkq manages, which the runtime merges
  // into the configuration the cluster holds (runtime/reconcile/kueue_config.h).
  bool kueue_configuration = false;
  // For Kueue's configuration: restart Kueue's controller manager after a
  // change, so that it reads it (false: the policy says `kueue { restart = false }`).
  bool restart_kueue = true;
};

// CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME (base::object_address).
std::string address(const std::string& cluster, const Object& object);
// The object on `cluster`, as the plan, the state and apply name it.
base::ObjectRef ref(const std::string& cluster, const Object& object);

struct ClusterObjects {
  std::string cluster;  // the policy's manager or worker name
  ClusterRole role = ClusterRole::Worker;
  std::vector<Object> objects;  // sorted: by kind order (apply order), then namespace, then name
};

// Manager first, then workers sorted by name. Deterministic: the same policy
// gives byte-identical documents whatever its declaration order.
struct DesiredState {
  std::string policy;  // the policy's identity: every object's mkq.dev/policy label
  std::vector<ClusterObjects> clusters;
};

}  // namespace mkq::kueue
