// The sandbox's own HTTPS client of its clusters, as the admin, trusting
// only the sandbox CA: `up` waits for them, creates CRDs and installs Kueue
// with it, `status` counts objects.
#pragma once

#include <httplib.h>

#include <functional>
#include <string>

#include "sandbox/pki.h"
#include "sandbox/text_sink.h"

namespace mkq::sandbox {

// An HTTPS client of one sandbox cluster, as the admin, trusting only the
// sandbox CA.
class AdminClient {
 public:
  AdminClient(const Pki& pki, int port)
      : cert_(read_cert(pki.admin_cert)),
        key_(read_key(pki.admin_key)),
        client_("127.0.0.1", port, cert_.get(), key_.get()) {
    X509_STORE* store = X509_STORE_new();  // owned by the client from here on
    const auto ca = read_cert(pki.ca_cert);
    if (store != nullptr && ca) X509_STORE_add_cert(store, ca.get());
    client_.set_ca_cert_store(store);
    client_.enable_server_certificate_verification(true);
    client_.set_connection_timeout(2, 0);
    client_.set_read_timeout(30, 0);
  }

  // The status code, or -1 when the request did not get an answer.
  int get(const std::string& path, std::string* body = nullptr) {
    auto result = client_.Get(path.c_str());
    if (!result) return -1;
    if (body != nullptr) *body = result->body;
    return result->status;
  }

  int post(const std::string& path, const std::string& payload, std::string* body) {
    auto result = client_.Post(path.c_str(), payload, "application/json");
    if (!result) return -1;
    *body = result->body;
    return result->status;
  }

  // Server-side apply as `kubectl apply --server-side` (field manager kubectl).
  int apply(const std::string& path, const std::string& payload, std::string* body) {
    auto result = client_.Patch((path + "?fieldManager=kubectl").c_str(), payload, "application/apply-patch+yaml");
    if (!result) return -1;
    *body = result->body;
    return result->status;
  }

 private:
  CertPtr cert_;
  KeyPtr key_;
  httplib::SSLClient client_;
};

// A request that outlasts the sandbox's own injected faults (500, 429,
// dropped connections): `up --fault-*` must still install Kueue.
int retrying(const std::function<int()>& send);
int post_retrying(AdminClient& client, const std::string& path, const std::string& body, std::string* answer);

// Kueue's ConfigMap and controller manager (kueue_install.h) on one cluster,
// each applied only when absent: a configuration mkq or an admin changed
// stays as it is. Returns the number of failures.
int install_kueue_objects(AdminClient& client, const std::string& cluster, TextSink& err);

}  // namespace mkq::sandbox
