// The outcome of one call to a Kubernetes API server: a value, or an error that
// says what the server answered (a metav1.Status) or why no answer came.
//
// The types live in base/result.h, the runtime's one error convention; these
// names keep the kube spelling that most of the runtime uses.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace mkq::kube {

using Json = nlohmann::ordered_json;
using Error = base::Error;
template <class T>
using Result = base::Result<T>;

}  // namespace mkq::kube
