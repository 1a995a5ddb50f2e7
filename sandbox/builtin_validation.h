// Validation of the built-in kinds, as kube-apiserver v1.33's registry
// strategies run it after decoding (builtin_types.h) and defaulting: the
// rules of ObjectMeta for every kind (custom resources included) and each
// served built-in kind's own rules, with kube-apiserver's field paths,
// reasons and messages (`data[a b]: Invalid value: "a b": a valid config key
// must consist of ...`, `rules[0].verbs: Required value: verbs must contain at
// least one value`, `roleRef.kind: Unsupported value: "Foo": supported
// values: "Role", "ClusterRole"`).
//
// The fields and their JSON types are the decoder's (builtin_types.cpp); what
// is checked here is what the types cannot say: names by the kind's rule,
// keys, enums, ranges, required values, immutability. The 422 itself is
// prepare.cpp's (`invalid`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/resources.h"
#include "sandbox/schema.h"

namespace mkq::sandbox {

// Appends kube-apiserver's errors for `object` (a whole object of `info`'s
// kind, decoded, defaulted and normalised), in its order: metadata first,
// then the kind's own rules. `existing` is the stored object of an update
// (the immutability rules), null on a create. For a custom resource only the
// metadata is checked here (its schema and CEL rules are prepare.cpp's).
void validate_builtin(const ResourceInfo& info, const nlohmann::json& object, const nlohmann::json* existing,
                      std::vector<FieldError>* errors);

// The defaults kube-apiserver's v1 types give before validation that the
// sandbox's other code does not: a binding's `roleRef.apiGroup` and its
// subjects' `apiGroup` (rbac.authorization.k8s.io for User and Group).
void default_builtin(const ResourceInfo& info, nlohmann::json& object);

// Go's base64.StdEncoding verdict on a []byte field's text, as the JSON
// decoder reports it: "" when it decodes, else `illegal base64 data at input
// byte N`.
std::string base64_error(std::string_view text);

}  // namespace mkq::sandbox
