// A cluster's TLS material (CA certificates, a client certificate and key)
// parsed once into OpenSSL objects, for HttpClient to install on the SSL_CTX
// of each new connection (CURLOPT_SSL_CTX_FUNCTION) instead of handing curl
// PEM blobs that it would parse again for every connection.
//
// The objects are read-only once parsed and may be installed from several
// threads at once: installing only takes references (X509_STORE_add_cert,
// SSL_CTX_use_certificate, SSL_CTX_use_PrivateKey and SSL_CTX_add1_chain_cert
// up-ref), so the owner keeps them.
#pragma once

#include <openssl/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/kube/result.h"

namespace mkq::kube {

struct X509Free {
  void operator()(X509* cert) const;
};
struct PkeyFree {
  void operator()(EVP_PKEY* key) const;
};
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// Every certificate of a PEM text, in order ("CERTIFICATE" and "TRUSTED
// CERTIFICATE" blocks; other blocks are skipped). Empty when there is none.
std::vector<X509Ptr> read_certificates(const std::string& pem);

// The first private key of a PEM text; null when there is none or it is
// encrypted (never prompts for a passphrase).
PkeyPtr read_private_key(const std::string& pem);

// A client certificate (leaf first, then any chain certificates of the same
// PEM) and its key, checked to belong together.
struct ClientIdentity {
  std::string cert_pem;  // what it was parsed from: the cache key
  std::string key_pem;   // a secret: never logged
  std::vector<X509Ptr> certs;
  PkeyPtr key;
  // Distinct for each identity parsed by one client (never 0): a connection
  // made with another identity must not be reused.
  std::uint64_t generation = 0;
};

// The identity, or an Error (reason "ConfigError") that says what is wrong
// without quoting the PEM: the certificate PEM holds no certificate, the key
// PEM no (unencrypted) private key, or the key is not the certificate's
// ("the client key is not a PEM private key").
Result<std::unique_ptr<ClientIdentity>> read_client_identity(const std::string& cert_pem, const std::string& key_pem);

// What one new connection gets. Either part may be absent: no CAs leaves
// curl's own trust (the system store, or none when verification is off).
struct TlsSetup {
  const std::vector<X509Ptr>* cas = nullptr;
  const ClientIdentity* identity = nullptr;
};

// Adds the CAs to ctx's certificate store and makes the identity ctx's
// certificate, chain and key. False when OpenSSL refuses any of it (the
// error queue is cleared).
bool install_tls_setup(SSL_CTX* ctx, const TlsSetup& setup);

}  // namespace mkq::kube
