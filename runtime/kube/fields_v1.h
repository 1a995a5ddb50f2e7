// metadata.managedFields' FieldsV1 sets ({"f:spec":{"f:queueingStrategy":{}}}):
// built from an applied object, and read back as the dotted paths a manager owns.
#pragma once

#include <string>
#include <vector>

#include "runtime/kube/result.h"

namespace mkq::kube {

// The FieldsV1 set of every leaf of `object` (maps descend key by key; lists and
// scalars are leaves; apiVersion and kind are not fields; metadata.name and
// metadata.namespace are included as Kubernetes includes them).
Json fields_v1_of(const Json& object);

// The dotted paths ("spec.queueingStrategy", "metadata.labels.app") of a FieldsV1
// set's leaves. A list keyed by "k:{...}", "v:..." or "i:N" entries counts as one
// leaf at the list's path (mkq compares lists whole).
std::vector<std::string> owned_paths(const Json& fields_v1);

// The paths `manager` owns in an object's metadata.managedFields (every entry of
// that manager, Apply and Update operations alike), sorted and unique.
std::vector<std::string> paths_owned_by(const Json& object, const std::string& manager);

}  // namespace mkq::kube
