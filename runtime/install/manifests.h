// What runs `mkq controller` on the manager cluster, as Kubernetes objects:
// `mkq controller manifests POLICY` prints them (docs/controller.md).
//
// Invariants: the output never holds a credential. The workers' admin
// kubeconfig Secrets are emitted without data, each with a note saying how
// to fill it; the manager is reached with the pod's own ServiceAccount token,
// named by path in a kubeconfig that holds no secret. The same options give
// byte-identical documents.
#pragma once

#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/kube/result.h"
#include "runtime/operation/compile.h"

namespace mkq::install {

using Json = kueue::Json;

// One *.mkq file of the policy's directory, as the compiler read it.
struct PolicyFile {
  std::string name;  // the file's name in its directory: "policy.mkq"
  std::string text;
};

// A cluster of the policy and the kubeconfig context that reaches it.
struct ClusterContext {
  std::string name;
  std::string context;
  std::string kubeconfig;  // a kubeconfig path the policy names for it; "" none
};

struct ManifestOptions {
  std::string namespace_name = "mkq-system";  // where the controller runs, keeps its state and leases
  std::string image;                          // the container image: "mkq:0.1.0"
  std::string version;                        // mkq's version: app.kubernetes.io/version
  std::string policy;                         // the policy's identity: names its state
  std::string kueue_namespace = "kueue-system";
  ClusterContext manager;
  std::vector<ClusterContext> workers;  // in the policy's order (sorted by name)
  std::vector<PolicyFile> policy_files;  // the ConfigMap's data, sorted by name
  // The objects the policy renders on the manager: the RBAC rules are derived
  // from them. nullptr: every kind mkq can render (schema::kKinds).
  const kueue::ClusterObjects* manager_objects = nullptr;
};

// One document of the output and the comment lines shown above it (no "#").
struct Manifest {
  Json document;
  std::vector<std::string> notes;
};

struct Manifests {
  std::vector<Manifest> documents;  // in the order `kubectl apply -f` creates them
  std::vector<std::string> warnings;  // what the operator must know and the manifests cannot fix
};

// The controller's install: Namespace, ServiceAccount, RBAC on the manager,
// the policy ConfigMap, the manager's in-cluster kubeconfig, the workers'
// admin kubeconfig Secrets (without data) and the Deployment. An error (a
// policy too large for a ConfigMap, a file name a ConfigMap cannot hold) has
// status 0 and reason "Invalid".
kube::Result<Manifests> controller_manifests(const ManifestOptions& options);

// The options a compiled policy gives (manager and workers, Kueue's
// namespace, identity, manager objects -- which point into `compiled`, so it
// must outlive them -- and its files): `policy_path` is what was compiled, a
// .mkq file or a directory. The files of the ConfigMap are those the compiler
// read; an import from outside the policy's directory is an error (a
// ConfigMap mounts one directory). namespace_name, image and version are left
// for the caller.
kube::Result<ManifestOptions> options_from(const operation::Compilation& compiled, const std::string& policy_path);

// The policy ConfigMap's size limit: kube-apiserver refuses a ConfigMap whose
// data values together exceed 1 MiB.
inline constexpr std::size_t kMaxConfigMapBytes = std::size_t{1} << 20;

}  // namespace mkq::install
