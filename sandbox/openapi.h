// The OpenAPI v3 documents kube-apiserver serves under /openapi/v3: an index
// of the served group versions, and per group version a document with the
// resources' paths (each operation tagged with x-kubernetes-group-version-kind
// and its query parameters, which kubectl reads to know that the server
// validates fields itself) and component schemas: a CRD's openAPIV3Schema,
// the built-in kinds' generated from the decoder's types (builtin_types.h). kubectl's validation
// (`apply -f`, `create -f`) and `kubectl explain` need them.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sandbox/resources.h"

namespace mkq::sandbox {

// {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}, "apis/G/V": ...}}
nlohmann::json openapi_v3_index(const Registry& registry);

// The document of one group version (group "" for core), nullopt when it is not served.
std::optional<nlohmann::json> openapi_v3_document(const Registry& registry, const std::string& group,
                                                  const std::string& version);

}  // namespace mkq::sandbox
