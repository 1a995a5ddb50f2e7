// Base64 (RFC 4648, standard alphabet) for kubeconfig *-data fields and the
// exec plugin's KUBERNETES_EXEC_INFO; also runtime/credentials' (Secret data).
#pragma once

#include <optional>
#include <string>

namespace mkq::kube {

// Decodes standard base64; whitespace (line breaks) is ignored, padding is
// optional. std::nullopt on any other character or a truncated quantum.
std::optional<std::string> base64_decode(const std::string& text);
// Encodes bytes, padded, without line breaks.
std::string base64_encode(const std::string& bytes);

}  // namespace mkq::kube
