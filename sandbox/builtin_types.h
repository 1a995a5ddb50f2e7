// The built-in kinds' fields as kube-apiserver's JSON decoder sees them: Go
// structs with named fields, so that a write is decoded as the real server
// decodes it. A field the kind does not declare is an unknown field (dropped
// and warned about, or refused under ?fieldValidation=Strict:
// `Deployment in version "v1" cannot be handled as a Deployment: strict
// decoding error: unknown field "spec.foo"`); a value of the wrong JSON type is
// refused whatever the mode, with Go's message: `json: cannot unmarshal string
// into Go struct field DeploymentSpec.spec.replicas of type int32`.
//
// Written from the Kubernetes API reference (core/v1, apps/v1, rbac/v1), for
// the kinds mkq's manifests and the MultiKueue setup write: Namespace,
// ServiceAccount, ConfigMap, Secret, Role, ClusterRole, RoleBinding,
// ClusterRoleBinding, Deployment; and Node and Pod, which tests write to give
// a worker capacity and load (nodes_pods.h); Lease and core/v1 Event, which
// mkq's controller writes; Service, Job, CronJob and PriorityClass (services.h,
// jobs.h, priority_classes.h). Every field of those kinds, of ObjectMeta,
// of PodSpec and Container is declared; parts of a pod no client of the
// sandbox writes (affinity, most volume sources, lifecycle hooks, ...) are
// declared by name and accept any value inside. Other kinds are not decoded.
// A []byte field's text must be base64 (builtin_validation.h's base64_error).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/resources.h"

namespace mkq::sandbox {

struct DecodeOutcome {
  bool known = false;       // the kind has a declared type (else nothing was checked)
  std::string type_error;   // the decoder's first type error, "" none
  // "spec.foo", "spec.template.spec.containers[0].bar"; sorted by key within an object (the sandbox's JSON keeps
  // no document order, kube-apiserver lists them as written)
  std::vector<std::string> unknown_fields;
};

// Decodes `object` (a whole object of `info`'s kind, before defaulting) as
// kube-apiserver does; the unknown fields are removed from it.
DecodeOutcome decode_builtin(const ResourceInfo& info, nlohmann::json& object);

// The served OpenAPI schema of a declared kind, made from the same types the
// decoder uses (so what kubectl explain shows is what the server decodes):
// {"type": "object", "description", "properties", "required"}, with the
// fields' descriptions, enums and formats; apiVersion, kind and metadata are
// left out for the caller to add, a nested ObjectMeta (a pod template's) is
// `object_meta`. nullopt for a kind that is not declared.
std::optional<nlohmann::json> builtin_openapi_schema(const ResourceInfo& info, const nlohmann::json& object_meta);

// The served ObjectMeta component schema (io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta),
// made from the same ObjectMeta type the decoder reads every built-in kind's metadata with.
nlohmann::json object_meta_openapi_schema();

}  // namespace mkq::sandbox
