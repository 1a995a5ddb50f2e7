// Request bodies in Kubernetes' protobuf encoding
// (application/vnd.kubernetes.protobuf): client-go's typed clients — kubectl's
// generators such as `kubectl create namespace|configmap|secret|role...` —
// send built-in kinds that way, and client-go never falls back to JSON for
// them. Decodes the envelope ("k8s\0" + runtime.Unknown) and the built-in kinds
// the sandbox serves into the JSON object the API handles; the answers stay JSON
// (the clients accept "application/vnd.kubernetes.protobuf,application/json").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mkq::sandbox {

// The object, or nullopt with *error set: not the envelope, malformed, or a kind
// this decoder does not know (only the sandbox's built-in kinds; never custom resources).
std::optional<nlohmann::json> decode_protobuf_object(const std::string& body, std::string* error);

}  // namespace mkq::sandbox
