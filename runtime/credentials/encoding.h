// Small encodings the credential provider needs: SHA-256 digests (annotations
// that let the next plan recognise what mkq wrote without keeping the value),
// and -- from base/, their one home -- base64 (Secret data,
// certificate-authority-data) and RFC 3339 times. Internal to runtime/credentials.
#pragma once

#include <string>
#include <string_view>

#include "base/encoding.h"
#include "base/time.h"

namespace mkq::credentials {

using base::base64_decode;
using base::base64_encode;
using base::format_date;
using base::format_rfc3339;
using base::parse_rfc3339;

// "sha256:<64 hex digits>" of `bytes`.
std::string sha256_digest(std::string_view bytes);

}  // namespace mkq::credentials
