// TLS material parsed once; see tls_material.h.
#include "runtime/kube/tls_material.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <climits>
#include <map>
#include <mutex>

namespace mkq::kube {

void X509Free::operator()(X509* cert) const { X509_free(cert); }
void PkeyFree::operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }

namespace {

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

// A read-only memory BIO over pem (which must outlive it); null when too large.
BioPtr memory_bio(const std::string& pem) {
  if (pem.size() > static_cast<std::size_t>(INT_MAX)) return nullptr;
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// OpenSSL's default asks the terminal for an encrypted key's passphrase; mkq
// never prompts (kubeconfig keys are unencrypted), so an encrypted key fails.
int no_passphrase(char* /*buffer*/, int /*size*/, int /*rwflag*/, void* /*user*/) { return 0; }

}  // namespace

namespace {

// The same certificates again: the objects shared (OpenSSL counts the references).
std::vector<X509Ptr> shared_certificates(const std::vector<X509Ptr>& parsed) {
  std::vector<X509Ptr> certs;
  certs.reserve(parsed.size());
  for (const X509Ptr& cert : parsed) {
    X509_up_ref(cert.get());
    certs.emplace_back(cert.get());
  }
  return certs;
}

// Certificates parsed in this process, by their PEM: the clusters of one
// kubeconfig often share a CA (every cluster of the sandbox's, or a company's
// own), and parsing one is most of a client's making. The cache holds a few.
constexpr std::size_t kParsedCertificateTexts = 16;
std::mutex certificates_mutex;
std::map<std::string, std::vector<X509Ptr>>& parsed_certificates() {
  static auto* parsed = new std::map<std::string, std::vector<X509Ptr>>();  // never destroyed
  return *parsed;
}

}  // namespace

std::vector<X509Ptr> read_certificates(const std::string& pem) {
  {
    const std::lock_guard<std::mutex> lock(certificates_mutex);
    const auto found = parsed_certificates().find(pem);
    if (found != parsed_certificates().end()) return shared_certificates(found->second);
  }
  std::vector<X509Ptr> certs;
  BioPtr bio = memory_bio(pem);
  if (bio) {
    // The _AUX reader also takes "TRUSTED CERTIFICATE" blocks, as curl's PEM
    // loading did; it stops (with PEM_R_NO_START_LINE) at the end of the text.
    while (X509* cert = PEM_read_bio_X509_AUX(bio.get(), nullptr, no_passphrase, nullptr)) certs.emplace_back(cert);
  }
  ERR_clear_error();
  const std::lock_guard<std::mutex> lock(certificates_mutex);
  if (!certs.empty() && parsed_certificates().size() < kParsedCertificateTexts) {
    parsed_certificates().emplace(pem, shared_certificates(certs));
  }
  return certs;
}

PkeyPtr read_private_key(const std::string& pem) {
  PkeyPtr key;
  if (BioPtr bio = memory_bio(pem)) key.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
  ERR_clear_error();
  return key;
}

namespace {

// Identities parsed in this process, by their PEM: the clients of one
// kubeconfig often share one client certificate (every context of the
// sandbox's), and parsing it is most of a client's making. Entries share the
// parsed objects (OpenSSL counts the references); the cache holds a few.
constexpr std::size_t kParsedIdentities = 16;
std::mutex parsed_mutex;
std::map<std::string, std::unique_ptr<ClientIdentity>>& parsed_identities() {
  static auto* parsed = new std::map<std::string, std::unique_ptr<ClientIdentity>>();  // never destroyed
  return *parsed;
}

std::unique_ptr<ClientIdentity> share(const ClientIdentity& parsed) {
  auto identity = std::make_unique<ClientIdentity>();
  identity->certs = shared_certificates(parsed.certs);
  EVP_PKEY_up_ref(parsed.key.get());
  identity->key.reset(parsed.key.get());
  identity->cert_pem = parsed.cert_pem;
  identity->key_pem = parsed.key_pem;
  return identity;
}

}  // namespace

Result<std::unique_ptr<ClientIdentity>> read_client_identity(const std::string& cert_pem, const std::string& key_pem) {
  std::string cache_key = cert_pem;
  cache_key += '\0';
  cache_key += key_pem;
  {
    const std::lock_guard<std::mutex> lock(parsed_mutex);
    const auto found = parsed_identities().find(cache_key);
    if (found != parsed_identities().end()) return share(*found->second);
  }
  auto identity = std::make_unique<ClientIdentity>();
  identity->certs = read_certificates(cert_pem);
  if (identity->certs.empty()) return Error::config("the client certificate is not a PEM certificate");
  identity->key = read_private_key(key_pem);
  if (!identity->key) return Error::config("the client key is not a PEM private key");
  const bool matches = X509_check_private_key(identity->certs.front().get(), identity->key.get()) == 1;
  ERR_clear_error();
  if (!matches) return Error::config("the client key does not match the client certificate");
  identity->cert_pem = cert_pem;
  identity->key_pem = key_pem;
  const std::lock_guard<std::mutex> lock(parsed_mutex);
  if (parsed_identities().size() < kParsedIdentities) parsed_identities().emplace(std::move(cache_key), share(*identity));
  return identity;
}

bool install_tls_setup(SSL_CTX* ctx, const TlsSetup& setup) {
  bool ok = true;
  if (setup.cas != nullptr) {
    X509_STORE* store = SSL_CTX_get_cert_store(ctx);
    ok = store != nullptr;
    for (const X509Ptr& cert : *setup.cas) {
      if (!ok) break;
      // OpenSSL 3 ignores a certificate already in the store (returns 1).
      ok = X509_STORE_add_cert(store, cert.get()) == 1;
    }
  }
  if (ok && setup.identity != nullptr) {
    const ClientIdentity& identity = *setup.identity;
    ok = SSL_CTX_use_certificate(ctx, identity.certs.front().get()) == 1;
    for (std::size_t i = 1; ok && i < identity.certs.size(); ++i) {
      ok = SSL_CTX_add1_chain_cert(ctx, identity.certs[i].get()) == 1;
    }
    ok = ok && SSL_CTX_use_PrivateKey(ctx, identity.key.get()) == 1;
    ok = ok && SSL_CTX_check_private_key(ctx) == 1;
  }
  ERR_clear_error();
  return ok;
}

}  // namespace mkq::kube
