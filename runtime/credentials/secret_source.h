// Reading a policy secret's value from its source ("env:NAME", "file:PATH"),
// the default of ProviderOptions::read_secret. Internal to runtime/credentials.
#pragma once

#include <optional>
#include <string>

namespace mkq::credentials {

// The value, or nullopt with *error saying why ("environment variable X is not
// set", "cannot open /p: No such file or directory"); never the value.
std::optional<std::string> read_secret_source(const std::string& source, std::string* error);

}  // namespace mkq::credentials
