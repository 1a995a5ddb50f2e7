// The short report `mkq check` prints for a policy that compiled cleanly.
#pragma once

#include <string>

#include "compiler/sema/model.h"

namespace mkq::cli {

std::string summarize(const sema::model::Policy& policy, const std::string& path);

}  // namespace mkq::cli
