// The Kueue CustomResourceDefinitions mkq knows, generated from the tables of
// schema.h: what `mkq sandbox up` installs when no `--crds DIR` is given.
//
// Each CRD serves and stores v1beta2 only, with Kueue's names, scope and short
// names, a status subresource and an openAPIV3Schema built from kFields,
// kEnums, kLimits and kDefaults. The tables list only the fields mkq renders,
// so an object whose fields they do not list fully keeps unknown fields
// (x-kubernetes-preserve-unknown-fields) instead of refusing valid Kueue
// objects; only the objects listed as complete in crds.cpp are closed. status
// is always open. CEL rules and Kueue's webhooks are not reproduced.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/kueue/objects.h"
#include "compiler/kueue/schema.h"

namespace mkq::kueue {

// One CRD per Kueue kind of schema::kKinds, in apply order, then an open
// Workload CRD (Kueue's own kind, which MultiKueue watches on workers).
std::vector<Json> kueue_crds();

// The CRD of one Kueue kind (a kind of another group gives a null Json).
Json kueue_crd(schema::Kind kind);

}  // namespace mkq::kueue
