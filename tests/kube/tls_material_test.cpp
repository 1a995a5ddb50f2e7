// TLS material parsed once (runtime/kube/tls_material.h): certificates and
// keys from PEM, identity checks, and installing on an SSL_CTX.
#include "runtime/kube/tls_material.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <catch2/catch.hpp>

#include "sandbox/pki.h"

namespace {


const mkq::sandbox::Pki& pki() {
  static const mkq::sandbox::Pki generated = [] {
    mkq::sandbox::Pki made;
    std::string error;
    REQUIRE(mkq::sandbox::generate_pki(&made, &error));
    return made;
  }();
  return generated;
}

struct SslCtxFree {
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
};

// key as PEM encrypted with a passphrase.
std::string encrypted(const std::string& key_pem) {
  mkq::kube::PkeyPtr key = mkq::kube::read_private_key(key_pem);
  REQUIRE(key);
  BIO* bio = BIO_new(BIO_s_mem());
  REQUIRE(bio != nullptr);
  static unsigned char passphrase[] = "secret";
  REQUIRE(PEM_write_bio_PrivateKey(bio, key.get(), EVP_aes_128_cbc(), passphrase, 6, nullptr, nullptr) == 1);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<std::size_t>(size));
  BIO_free(bio);
  return pem;
}

}  // namespace

TEST_CASE("tls material: certificates and keys from PEM", "[kube][tls]") {
  CHECK(mkq::kube::read_certificates(pki().ca_cert).size() == 1);
  // A bundle, with text and another kind of block between the certificates.
  const std::string bundle = "# cluster CA\n" + pki().ca_cert + pki().admin_key + pki().server_cert;
  CHECK(mkq::kube::read_certificates(bundle).size() == 2);
  CHECK(mkq::kube::read_certificates("garbage").empty());
  CHECK(mkq::kube::read_certificates("").empty());

  CHECK(mkq::kube::read_private_key(pki().admin_key));
  CHECK_FALSE(mkq::kube::read_private_key(pki().admin_cert));
  CHECK_FALSE(mkq::kube::read_private_key("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
  // An encrypted key is refused, without asking for a passphrase on the terminal.
  CHECK_FALSE(mkq::kube::read_private_key(encrypted(pki().admin_key)));
}

TEST_CASE("tls material: a PEM read again shares the certificates parsed the first time", "[kube][tls]") {
  const std::string bundle = pki().ca_cert + pki().server_cert;
  auto first = mkq::kube::read_certificates(bundle);
  const auto again = mkq::kube::read_certificates(bundle);
  REQUIRE(first.size() == 2);
  REQUIRE(again.size() == 2);
  CHECK(again[0].get() == first[0].get());
  CHECK(again[1].get() == first[1].get());
  // Each holds its own reference: the first let go, the second is whole.
  first.clear();
  CHECK(X509_cmp(again[0].get(), mkq::kube::read_certificates(pki().ca_cert).front().get()) == 0);
  // Another text is parsed on its own.
  CHECK(mkq::kube::read_certificates(pki().server_cert).front().get() != again[1].get());
}

TEST_CASE("tls material: a client identity is a certificate, its chain and the matching key", "[kube][tls]") {
  auto identity = mkq::kube::read_client_identity(pki().admin_cert + pki().ca_cert, pki().admin_key);
  REQUIRE(identity);
  CHECK(identity.value()->certs.size() == 2);
  CHECK(identity.value()->cert_pem == pki().admin_cert + pki().ca_cert);

  const auto refused = [](const std::string& cert, const std::string& key) {
    auto result = mkq::kube::read_client_identity(cert, key);
    REQUIRE_FALSE(result);
    CHECK(result.error().reason == "ConfigError");
    return result.error().message;
  };
  CHECK(refused("nope", pki().admin_key) == "the client certificate is not a PEM certificate");
  CHECK(refused(pki().admin_cert, "nope") == "the client key is not a PEM private key");
  CHECK(refused(pki().admin_cert, pki().server_key) == "the client key does not match the client certificate");
}

TEST_CASE("tls material: installing on an SSL_CTX takes references only", "[kube][tls]") {
  auto read = mkq::kube::read_client_identity(pki().admin_cert + pki().ca_cert, pki().admin_key);
  REQUIRE(read);
  const std::unique_ptr<mkq::kube::ClientIdentity> identity = std::move(read).value();
  const auto cas = mkq::kube::read_certificates(pki().ca_cert);
  for (int i = 0; i < 2; ++i) {  // two connections, the same objects
    std::unique_ptr<SSL_CTX, SslCtxFree> ctx(SSL_CTX_new(TLS_client_method()));
    REQUIRE(ctx);
    REQUIRE(mkq::kube::install_tls_setup(ctx.get(), {&cas, identity.get()}));
    CHECK(SSL_CTX_get0_certificate(ctx.get()) == identity->certs.front().get());
    STACK_OF(X509)* chain = nullptr;
    REQUIRE(SSL_CTX_get0_chain_certs(ctx.get(), &chain) == 1);
    REQUIRE(chain != nullptr);
    CHECK(sk_X509_num(chain) == 1);
    STACK_OF(X509_OBJECT)* objects = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx.get()));
    CHECK(sk_X509_OBJECT_num(objects) == 1);
  }
  // The contexts are gone; the parsed objects are still whole.
  CHECK(X509_check_private_key(identity->certs.front().get(), identity->key.get()) == 1);
  // Nothing to install is fine too.
  std::unique_ptr<SSL_CTX, SslCtxFree> empty(SSL_CTX_new(TLS_client_method()));
  CHECK(mkq::kube::install_tls_setup(empty.get(), {}));
}

TEST_CASE("tls material: a pair parsed again shares the parsed objects, each identity owning its references",
          "[kube][tls]") {
  auto first = mkq::kube::read_client_identity(pki().admin_cert + pki().ca_cert, pki().admin_key);
  REQUIRE(first);
  std::unique_ptr<mkq::kube::ClientIdentity> one = std::move(first).value();
  auto second = mkq::kube::read_client_identity(pki().admin_cert + pki().ca_cert, pki().admin_key);
  REQUIRE(second);
  std::unique_ptr<mkq::kube::ClientIdentity> two = std::move(second).value();
  CHECK(one.get() != two.get());
  CHECK(one->certs.front().get() == two->certs.front().get());
  CHECK(one->key.get() == two->key.get());
  CHECK(two->certs.size() == 2);
  CHECK(two->key_pem == pki().admin_key);
  one.reset();  // the other identity's references outlive it
  CHECK(X509_check_private_key(two->certs.front().get(), two->key.get()) == 1);
  // A pair that was once refused is refused again; a cached certificate with another key is not taken.
  auto wrong = mkq::kube::read_client_identity(pki().admin_cert + pki().ca_cert, pki().server_key);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message == "the client key does not match the client certificate");
}
