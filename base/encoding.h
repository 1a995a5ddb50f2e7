// Byte encodings, one codec each: base64 (RFC 4648, standard alphabet) for
// kubeconfig *-data fields, the exec plugin's KUBERNETES_EXEC_INFO and Secret
// data; base64url (RFC 4648 §5, unpadded) for JSON Web Tokens and a LIST's
// continue token; lower-case hex for digests and UUIDs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mkq::base {

// Encodes bytes, padded, without line breaks.
std::string base64_encode(std::string_view bytes);
// Decodes standard base64; whitespace (line breaks) is ignored, padding is
// optional. std::nullopt on any other character, data after padding or a
// truncated quantum.
std::optional<std::string> base64_decode(std::string_view text);

// base64url without padding ('-' and '_' for '+' and '/'), as JWTs write it.
std::string base64url_encode(std::string_view bytes);
// Decodes unpadded base64url; std::nullopt on any other character (padding
// and whitespace included) or a truncated quantum.
std::optional<std::string> base64url_decode(std::string_view text);

// Two lower-case hex digits per byte.
std::string hex_encode(std::string_view bytes);

}  // namespace mkq::base
