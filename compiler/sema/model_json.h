// The typed policy model as JSON, for `mkq eval` and for tests: what the
// compiler understood a policy to mean, every default filled in.
#pragma once

#include <string>

#include "compiler/sema/model.h"

namespace mkq::sema::model {

// Pretty JSON (2-space indent, ending with a newline) of every field of the
// model. Keys are the model's field names (Toleration::op is "operator"), in
// the order model.h declares them, a declaration's "name" first; collections
// keep the model's (sorted) order, so the text is deterministic.
// Quantities are strings in Kubernetes' canonical form ("1536Mi"), durations
// strings in the language's notation ("1h30min"), enums their to_string()
// spelling, integers and bools JSON numbers and bools, unset optionals null.
// Source ranges are left out. Of the integration catalogue, only the entries
// the policy enables (kueue.integrations, kueue.external_frameworks) or
// declares itself are shown: the rest of std/integrations is in every policy. A secret is {"secret": "env:NAME"}: where it
// comes from, never a value (the compiler never reads one).
// The document starts with its version, "format_version" (docs/json.md).
inline constexpr int kModelJsonFormatVersion = 1;
std::string model_to_json(const Policy& policy);

}  // namespace mkq::sema::model
