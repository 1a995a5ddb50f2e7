// OpenSSL 3 certificate generation for the sandbox (see pki.h).
#include "sandbox/pki.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

#include "base/encoding.h"
#include "base/files.h"
#include "sandbox/daemon_files.h"

namespace mkq::sandbox {
namespace {

struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

constexpr long kValiditySeconds = 10L * 365 * 24 * 3600;

std::string openssl_error(const std::string& what) {
  const unsigned long code = ERR_get_error();
  std::string message = what;
  if (code != 0) {
    char buffer[256];
    ERR_error_string_n(code, buffer, sizeof buffer);
    message += ": ";
    message += buffer;
  }
  ERR_clear_error();
  return message;
}

std::string bio_string(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return size > 0 ? std::string(data, static_cast<std::size_t>(size)) : std::string();
}

std::string key_pem(EVP_PKEY* key) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1) return {};
  return bio_string(bio.get());
}

std::string cert_pem(X509* cert) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1) return {};
  return bio_string(bio.get());
}

bool add_name(X509_NAME* name, const char* field, const std::string& value) {
  return X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.c_str()),
                                    -1, -1, 0) == 1;
}

bool add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (extension == nullptr) return false;
  const bool ok = X509_add_ext(cert, extension, -1) == 1;
  X509_EXTENSION_free(extension);
  return ok;
}

struct Subject {
  std::string common_name;
  std::vector<std::string> organizations;
};

// A certificate for key's public half, signed by issuer_key (self-signed when
// issuer is null). extensions: (nid, value) pairs.
CertPtr make_cert(EVP_PKEY* key, const Subject& subject, X509* issuer, EVP_PKEY* issuer_key,
                  const std::vector<std::pair<int, const char*>>& extensions) {
  CertPtr cert(X509_new());
  if (!cert) return nullptr;
  X509_set_version(cert.get(), 2);
  unsigned char serial_bytes[16];
  if (RAND_bytes(serial_bytes, sizeof serial_bytes) != 1) return nullptr;
  serial_bytes[0] &= 0x7f;  // positive
  BIGNUM* serial = BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr);
  if (serial == nullptr) return nullptr;
  BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
  BN_free(serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // tolerate small clock skew
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), kValiditySeconds);
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (const std::string& organization : subject.organizations) {
    if (!add_name(name, "O", organization)) return nullptr;
  }
  if (!add_name(name, "CN", subject.common_name)) return nullptr;
  X509* signer = issuer != nullptr ? issuer : cert.get();
  if (X509_set_issuer_name(cert.get(), X509_get_subject_name(signer)) != 1) return nullptr;
  if (X509_set_pubkey(cert.get(), key) != 1) return nullptr;
  for (const auto& [nid, value] : extensions) {
    if (!add_extension(cert.get(), signer, nid, value)) return nullptr;
  }
  if (X509_sign(cert.get(), issuer_key != nullptr ? issuer_key : key, EVP_sha256()) <= 0) return nullptr;
  return cert;
}

KeyPtr new_key() { return KeyPtr(EVP_EC_gen("P-256")); }

bool read_file(const std::filesystem::path& path, std::string* out) {
  return read_text(path, out) && !out->empty();
}

// base::write_file (atomic; the mode set before the text is written).
bool write_file(const std::filesystem::path& path, const std::string& content, base::FileMode mode,
                std::string* error) {
  base::FileWrite options;
  options.mode = mode;
  const base::Result<void> written = base::write_file(path, content, options);
  if (!written) *error = written.error().message;
  return written.ok();
}

}  // namespace

bool issue_client_certificate(const Pki& pki, const std::string& user, const std::vector<std::string>& groups,
                              std::string* cert_out, std::string* key_out, std::string* error) {
  const KeyPtr ca_key = read_key(pki.ca_key);
  const CertPtr ca_cert = read_cert(pki.ca_cert);
  if (!ca_key || !ca_cert) {
    *error = openssl_error("cannot read the sandbox CA");
    return false;
  }
  const KeyPtr key = new_key();
  if (!key) {
    *error = openssl_error("cannot generate a key");
    return false;
  }
  const CertPtr cert = make_cert(key.get(), {user, groups}, ca_cert.get(), ca_key.get(),
                                 {{NID_basic_constraints, "critical,CA:FALSE"},
                                  {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                  {NID_ext_key_usage, "clientAuth"}});
  if (!cert) {
    *error = openssl_error("cannot issue a client certificate");
    return false;
  }
  *cert_out = cert_pem(cert.get());
  *key_out = key_pem(key.get());
  return true;
}

bool generate_pki(Pki* pki, std::string* error) {
  const KeyPtr ca_key = new_key();
  const KeyPtr server_key = new_key();
  if (!ca_key || !server_key) {
    *error = openssl_error("cannot generate a key");
    return false;
  }
  const CertPtr ca = make_cert(ca_key.get(), {"mkq-sandbox-ca", {}}, nullptr, nullptr,
                               {{NID_basic_constraints, "critical,CA:TRUE"},
                                {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"},
                                {NID_subject_key_identifier, "hash"}});
  if (!ca) {
    *error = openssl_error("cannot make the sandbox CA");
    return false;
  }
  const CertPtr server = make_cert(server_key.get(), {"mkq-sandbox", {}}, ca.get(), ca_key.get(),
                                   {{NID_basic_constraints, "critical,CA:FALSE"},
                                    {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                    {NID_ext_key_usage, "serverAuth"},
                                    {NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"}});
  if (!server) {
    *error = openssl_error("cannot make the sandbox server certificate");
    return false;
  }
  Pki result;
  result.ca_cert = cert_pem(ca.get());
  result.ca_key = key_pem(ca_key.get());
  result.server_cert = cert_pem(server.get());
  result.server_key = key_pem(server_key.get());
  if (!issue_client_certificate(result, kAdminUser, {kAdminGroup}, &result.admin_cert, &result.admin_key, error)) {
    return false;
  }
  *pki = std::move(result);
  return true;
}

bool load_or_create_pki(const std::filesystem::path& dir, Pki* pki, std::string* error) {
  Pki loaded;
  const bool complete = read_file(dir / "ca.crt", &loaded.ca_cert) && read_file(dir / "ca.key", &loaded.ca_key) &&
                        read_file(dir / "server.crt", &loaded.server_cert) &&
                        read_file(dir / "server.key", &loaded.server_key) &&
                        read_file(dir / "admin.crt", &loaded.admin_cert) &&
                        read_file(dir / "admin.key", &loaded.admin_key);
  if (complete && read_cert(loaded.ca_cert) && read_key(loaded.ca_key) && read_cert(loaded.server_cert) &&
      read_key(loaded.server_key)) {
    *pki = std::move(loaded);
    return true;
  }
  ERR_clear_error();
  Pki fresh;
  if (!generate_pki(&fresh, error)) return false;
  using base::FileMode;
  const bool written = write_file(dir / "ca.key", fresh.ca_key, FileMode::OwnerOnly, error) &&
                       write_file(dir / "ca.crt", fresh.ca_cert, FileMode::WorldReadable, error) &&
                       write_file(dir / "server.key", fresh.server_key, FileMode::OwnerOnly, error) &&
                       write_file(dir / "server.crt", fresh.server_cert, FileMode::WorldReadable, error) &&
                       write_file(dir / "admin.key", fresh.admin_key, FileMode::OwnerOnly, error) &&
                       write_file(dir / "admin.crt", fresh.admin_cert, FileMode::WorldReadable, error);
  if (!written) return false;
  *pki = std::move(fresh);
  return true;
}

std::string base64(const std::string& bytes) { return base::base64_encode(bytes); }

std::string base64_decode(const std::string& in) {
  static const std::string chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  int value = 0;
  int bits = -8;
  for (const char c : in) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
    const auto pos = chars.find(c);
    if (pos == std::string::npos) continue;
    value = (value << 6) + static_cast<int>(pos);
    bits += 6;
    if (bits >= 0) {
      out += static_cast<char>((value >> bits) & 0xFF);
      bits -= 8;
    }
  }
  return out;
}

KeyPtr read_key(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) return nullptr;
  return KeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

CertPtr read_cert(const std::string& pem) {
  BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) return nullptr;
  return CertPtr(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

}  // namespace mkq::sandbox
