// Service-account identity of the sandbox: the RSA key that signs tokens (one
// per sandbox directory, DIR/sa.key beside ca.key), and JSON Web Tokens signed
// with RS256 as kube-apiserver issues them (TokenRequest tokens and the
// non-expiring tokens of legacy kubernetes.io/service-account-token Secrets).
// Checking that the account (and a bound object) still exists is the
// Cluster's job (auth.h); this file only signs and verifies.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mkq::sandbox {

// kube-apiserver's default issuer and API audience, and the issuer of legacy
// Secret-based tokens.
inline constexpr const char* kTokenIssuer = "https://kubernetes.default.svc.cluster.local";
inline constexpr const char* kLegacyTokenIssuer = "kubernetes/serviceaccount";
// Below this a TokenRequest is refused (422), unless short tokens are allowed.
inline constexpr long long kMinTokenSeconds = 600;
inline constexpr long long kDefaultTokenSeconds = 3600;

// A fresh RSA-2048 private key as PEM; empty on an OpenSSL failure.
std::string generate_signing_key();
// Loads DIR/sa.key, or generates and writes it (0600) when missing.
bool load_or_create_signing_key(const std::filesystem::path& dir, std::string* pem, std::string* error);

// header.payload.signature, RS256 with key_pem (a private key); empty on failure.
std::string sign_jwt(const nlohmann::json& claims, const std::string& key_pem);
// The claims of a token whose RS256 signature verifies with key_pem's public
// half; nullopt for anything malformed or not signed by that key. Claims are
// not checked (expiry etc.): see token_time_valid.
std::optional<nlohmann::json> verify_jwt(const std::string& token, const std::string& key_pem);
// exp (when present) in the future and nbf (when present) not after now.
bool token_time_valid(const nlohmann::json& claims, long long now);

// base's base64url codec (base/encoding.h), unpadded, under the sandbox's names.
std::string base64url(const std::string& bytes);
std::optional<std::string> base64url_decode(const std::string& text);

}  // namespace mkq::sandbox
