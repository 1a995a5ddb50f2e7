// Reading a policy secret's value from its source ("env:NAME", "file:PATH"),
// the default of ProviderOptions::read_secret. Internal to runtime/credentials.
#pragma once

#include <string>

#include "base/result.h"

namespace mkq::credentials {

// The value, or an Error (reason "ConfigError") whose message says why
// ("environment variable X is not set", "cannot open /p: No such file or
// directory"); never the value.
base::Result<std::string> read_secret_source(const std::string& source);

}  // namespace mkq::credentials
