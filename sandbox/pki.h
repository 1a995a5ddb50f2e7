// The sandbox's certificates: one CA per sandbox directory, a server
// certificate for 127.0.0.1 and localhost, and an admin client certificate
// (CN=mkq-admin, O=system:masters). All PEM, made with OpenSSL 3 (P-256 keys).
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace mkq::sandbox {

struct Pki {
  std::string ca_cert;  // PEM
  std::string ca_key;
  std::string server_cert;
  std::string server_key;
  std::string admin_cert;
  std::string admin_key;
};

inline constexpr const char* kAdminUser = "mkq-admin";
inline constexpr const char* kAdminGroup = "system:masters";

// Makes a fresh CA, server and admin certificate (valid ten years). False with
// *error on an OpenSSL failure.
bool generate_pki(Pki* pki, std::string* error);

// Issues a client certificate signed by pki's CA: CN=user, one O per group.
bool issue_client_certificate(const Pki& pki, const std::string& user, const std::vector<std::string>& groups,
                              std::string* cert_pem, std::string* key_pem, std::string* error);

// Loads DIR/{ca,server,admin}.{crt,key}, or generates and writes them (keys
// 0600) when any is missing, so a restart keeps every client's trust.
bool load_or_create_pki(const std::filesystem::path& dir, Pki* pki, std::string* error);

// Owning OpenSSL pointers and the one PEM reader of the project (server,
// daemon, controllers, tests and benchmarks use it). Null on a parse failure.
struct CertFree {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using CertPtr = std::unique_ptr<X509, CertFree>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;
CertPtr read_cert(const std::string& pem);  // the first certificate of `pem`
KeyPtr read_key(const std::string& pem);

// Base64 of bytes (for kubeconfig's *-data fields), no line breaks: base's codec (base/encoding.h).
std::string base64(const std::string& bytes);
// The bytes of base64 text, leniently: padding, line breaks, spaces and any
// other character outside the alphabet are skipped.
std::string base64_decode(const std::string& in);

}  // namespace mkq::sandbox
