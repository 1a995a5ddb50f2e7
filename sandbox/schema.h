// Structural OpenAPI v3 schemas of custom resources, applied the way
// kube-apiserver applies them on a write: null values of non-nullable fields
// dropped, unknown fields pruned (and reported, for fieldValidation=Strict),
// `default` values filled in, then the value validated (types, int-or-string,
// enum, pattern, min/maxLength, minimum/maximum and their exclusive forms,
// min/maxItems, required, list-type set/map uniqueness, additionalProperties).
//
// CEL rules (x-kubernetes-validations) are crd_rules.h's.
//
// Not applied: anyOf/allOf/oneOf/not (value constraints), format checks, multipleOf.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mkq::sandbox {

// One field error, as Kubernetes' field.Error renders it:
// "<field>: <message>", e.g. `spec.queueingStrategy: Unsupported value: "Foo": supported values: "A", "B"`.
struct FieldError {
  std::string reason;  // the StatusCause reason: FieldValueRequired, FieldValueNotSupported, FieldValueInvalid, ...
  std::string field;   // "spec.resourceGroups[0].flavors[0].name"
  std::string message; // "Required value"
};

struct SchemaOutcome {
  std::vector<FieldError> errors;
  std::vector<std::string> unknown_fields;  // paths of pruned fields: "spec.foo"
};

// Prunes, defaults and validates `object` (a whole custom resource) in place
// against its version's openAPIV3Schema. apiVersion, kind and metadata at the
// root (and of embedded resources) are never pruned.
SchemaOutcome apply_schema(const nlohmann::json& schema, nlohmann::json& object);

// Go's %v-like rendering of a value in messages: strings quoted, numbers bare.
std::string go_value(const nlohmann::json& value);

}  // namespace mkq::sandbox
