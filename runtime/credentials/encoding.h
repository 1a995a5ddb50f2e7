// Small encodings the credential provider needs: base64 (Secret data,
// certificate-authority-data), SHA-256 digests (annotations that let the next
// plan recognise what mkq wrote without keeping the value), and RFC 3339 times.
// Internal to runtime/credentials.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mkq::credentials {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not base64 (whitespace is skipped, padding optional).
std::optional<std::string> base64_decode(std::string_view text);

// "sha256:<64 hex digits>" of `bytes`.
std::string sha256_digest(std::string_view bytes);

// "2026-12-21T10:00:00Z" (UTC, whole seconds).
std::string format_rfc3339(std::chrono::system_clock::time_point time);
// "2026-12-21".
std::string format_date(std::chrono::system_clock::time_point time);
// Parses "YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)"; nullopt otherwise.
std::optional<std::chrono::system_clock::time_point> parse_rfc3339(std::string_view text);

}  // namespace mkq::credentials
