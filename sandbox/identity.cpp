// JWT signing and verification with OpenSSL 3 (see identity.h).
#include "sandbox/identity.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>

#include <memory>
#include <mutex>

#include "base/encoding.h"
#include "base/files.h"
#include "sandbox/daemon_files.h"
#include "sandbox/pki.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

// The key id kube-apiserver gives: base64url of the SHA-256 of the public key's DER.
std::string key_id(EVP_PKEY* key) {
  unsigned char* der = nullptr;
  const int length = i2d_PUBKEY(key, &der);
  if (length <= 0) return {};
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(der, static_cast<std::size_t>(length), digest);
  OPENSSL_free(der);
  return base64url(std::string(reinterpret_cast<const char*>(digest), sizeof digest));
}

}  // namespace

std::string base64url(const std::string& bytes) { return base::base64url_encode(bytes); }

std::optional<std::string> base64url_decode(const std::string& text) { return base::base64url_decode(text); }

std::string generate_signing_key() {
  KeyPtr key(EVP_RSA_gen(2048));
  if (!key) return {};
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) return {};
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(length));
}

bool load_or_create_signing_key(const std::filesystem::path& dir, std::string* pem, std::string* error) {
  const std::filesystem::path path = dir / "sa.key";
  if (std::string text; read_text(path, &text)) {
    if (read_key(text)) {
      *pem = std::move(text);
      return true;
    }
    *error = "cannot read the service-account signing key " + path.string();
    return false;
  }
  *pem = generate_signing_key();
  if (pem->empty()) {
    *error = "cannot generate the service-account signing key";
    return false;
  }
  base::FileWrite options;
  options.mode = base::FileMode::OwnerOnly;  // never readable by others, not even for a moment
  const base::Result<void> written = base::write_file(path, *pem, options);
  if (!written) *error = written.error().message;
  return written.ok();
}

namespace {

// The signing key, parsed once: every token-authenticated request verifies a
// signature, and parsing the PEM costs more than verifying. One entry (a
// sandbox has one signing key); a new PEM replaces it.
KeyPtr signing_key_of(const std::string& key_pem) {
  static std::mutex mutex;
  static std::string cached_pem;
  static KeyPtr cached_key;
  const std::lock_guard<std::mutex> lock(mutex);
  if (!cached_key || cached_pem != key_pem) {
    KeyPtr key = read_key(key_pem);
    if (!key) return nullptr;
    cached_key = std::move(key);
    cached_pem = key_pem;
  }
  if (EVP_PKEY_up_ref(cached_key.get()) != 1) return nullptr;
  return KeyPtr(cached_key.get());
}

}  // namespace

std::string sign_jwt(const json& claims, const std::string& key_pem) {
  const KeyPtr key = signing_key_of(key_pem);
  if (!key) return {};
  const json header = {{"alg", "RS256"}, {"kid", key_id(key.get())}};
  const std::string input = base64url(header.dump()) + "." + base64url(claims.dump());
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  std::size_t length = 0;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    return {};
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    return {};
  }
  signature.resize(length);
  return input + "." + base64url(signature);
}

std::optional<json> verify_jwt(const std::string& token, const std::string& key_pem) {
  const auto first = token.find('.');
  if (first == std::string::npos) return std::nullopt;
  const auto second = token.find('.', first + 1);
  if (second == std::string::npos || token.find('.', second + 1) != std::string::npos) return std::nullopt;
  const auto header_text = base64url_decode(token.substr(0, first));
  const auto payload_text = base64url_decode(token.substr(first + 1, second - first - 1));
  const auto signature = base64url_decode(token.substr(second + 1));
  if (!header_text || !payload_text || !signature) return std::nullopt;
  const json header = json::parse(*header_text, nullptr, false);
  if (!header.is_object() || header.value("alg", "") != "RS256") return std::nullopt;
  const KeyPtr key = signing_key_of(key_pem);
  if (!key) return std::nullopt;
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1) return std::nullopt;
  const std::string input = token.substr(0, second);
  if (EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature->data()), signature->size(),
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    return std::nullopt;
  }
  json claims = json::parse(*payload_text, nullptr, false);
  if (!claims.is_object()) return std::nullopt;
  return claims;
}

bool token_time_valid(const json& claims, long long now) {
  if (claims.contains("exp")) {
    if (!claims["exp"].is_number() || claims["exp"].get<long long>() <= now) return false;
  }
  if (claims.contains("nbf")) {
    if (!claims["nbf"].is_number() || claims["nbf"].get<long long>() > now) return false;
  }
  return true;
}

}  // namespace mkq::sandbox
