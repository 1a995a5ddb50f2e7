// YAML read as JSON, for what the sandbox reads in YAML: CRD files (`up
// --crds`), Kueue's installation manifests and Kueue's configuration (which
// the simulated Kueue reads when its controller manager starts).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace YAML {
class Node;
}

namespace mkq::sandbox {

// A YAML node as JSON: plain scalars that read as null, booleans or numbers
// become those, every other scalar a string (quoted ones always).
nlohmann::json yaml_to_json(const YAML::Node& node, int depth = 0);

// One YAML document's text as JSON; nullopt and *error when it is not YAML.
std::optional<nlohmann::json> parse_yaml(const std::string& text, std::string* error);

}  // namespace mkq::sandbox
