// The sandbox's HTTPS transport with a fake Cluster: TLS with the generated
// CA, authentication, request mapping, chunked streaming, fault injection.
#include <httplib.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <nlohmann/json.hpp>

#include "sandbox/daemon.h"
#include "sandbox/pki.h"
#include "sandbox/server.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using nlohmann::json;

// Answers every request with what it received; /watch streams three events.
class FakeCluster : public mkq::sandbox::Cluster {
 public:
  ApiResponse handle(const ApiRequest& request) override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      last_ = request;
    }
    ApiResponse response;
    if (request.path == "/watch") {
      auto count = std::make_shared<int>(0);
      response.stream = [count](std::string& chunk) {
        ++*count;
        chunk = json{{"type", "ADDED"}, {"object", {{"n", *count}}}}.dump() + "\n";
        return *count < 3;
      };
      return response;
    }
    if (request.path == "/large" || request.path == "/small") {
      // A body of 200,000 or 2,000 bytes: over and under kube-apiserver's gzip threshold (128 KiB).
      response.body = std::string(request.path == "/large" ? 200000 : 2000, 'x');
      return response;
    }
    json query = json::object();
    for (const auto& [key, value] : request.query) query[key] = value;
    response.body = json{{"user", request.user},
                         {"groups", request.groups},
                         {"method", request.method},
                         {"path", request.path},
                         {"query", query},
                         {"headers", request.headers},
                         {"body", request.body}}
                        .dump();
    return response;
  }
  std::string name() const override { return "fake"; }
  std::size_t object_count() const override { return 0; }

  ApiRequest last() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return last_;
  }

 private:
  std::mutex mutex_;
  ApiRequest last_;
};

// A client trusting only ca_pem, with an optional client certificate.
struct Client {
  mkq::sandbox::CertPtr cert;
  mkq::sandbox::KeyPtr key;
  std::unique_ptr<httplib::SSLClient> client;

  Client(int port, const std::string& ca_pem, const std::string& cert_pem = {}, const std::string& key_pem = {}) {
    if (!cert_pem.empty()) {
      cert = mkq::sandbox::read_cert(cert_pem);
      key = mkq::sandbox::read_key(key_pem);
      client = std::make_unique<httplib::SSLClient>("127.0.0.1", port, cert.get(), key.get());
    } else {
      client = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
    }
    X509_STORE* store = X509_STORE_new();  // owned by the client
    X509_STORE_add_cert(store, mkq::sandbox::read_cert(ca_pem).get());
    client->set_ca_cert_store(store);
    client->enable_server_certificate_verification(true);
    client->set_connection_timeout(5, 0);
    client->set_read_timeout(10, 0);
  }
};

const mkq::sandbox::Pki& test_pki() {
  static const mkq::sandbox::Pki pki = [] {
    mkq::sandbox::Pki generated;
    std::string error;
    REQUIRE(mkq::sandbox::generate_pki(&generated, &error));
    return generated;
  }();
  return pki;
}

struct Fixture {
  FakeCluster cluster;
  std::unique_ptr<mkq::sandbox::HttpsServer> server;

  explicit Fixture(mkq::sandbox::FaultOptions faults = {}) {
    mkq::sandbox::ServerOptions options;  // the default pool, as `serve` uses it
    options.faults = std::move(faults);
    server = std::make_unique<mkq::sandbox::HttpsServer>(cluster, test_pki(), options);
    std::string error;
    REQUIRE(server->bind(&error));
    REQUIRE(server->port() > 0);
    server->start();
  }
};

}  // namespace

TEST_CASE("an admin client completes the TLS handshake and reaches the cluster as mkq-admin", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  auto result = admin.client->Get("/api/v1/namespaces?labelSelector=app%3Dweb%2Ctier%21%3Ddb&limit=5",
                                  {{"Accept", "application/json;as=Table;g=meta.k8s.io;v=v1"}});
  REQUIRE(result);
  CHECK(admin.client->get_openssl_verify_result() == X509_V_OK);
  CHECK(result->status == 200);
  const json echo = json::parse(result->body);
  CHECK(echo["user"] == "mkq-admin");
  CHECK(echo["groups"] == json::array({"system:masters", "system:authenticated"}));
  CHECK(echo["method"] == "GET");
  CHECK(echo["path"] == "/api/v1/namespaces");
  CHECK(echo["query"]["labelSelector"] == "app=web,tier!=db");
  CHECK(echo["query"]["limit"] == "5");
  CHECK(echo["headers"]["accept"] == "application/json;as=Table;g=meta.k8s.io;v=v1");
}

TEST_CASE("a request body and method reach the cluster", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  auto result = admin.client->Patch("/api/v1/namespaces/a", R"({"metadata":{"labels":{"x":"y"}}})",
                                    "application/merge-patch+json");
  REQUIRE(result);
  const ApiRequest seen = fixture.cluster.last();
  CHECK(seen.method == "PATCH");
  CHECK(seen.body == R"({"metadata":{"labels":{"x":"y"}}})");
  CHECK(seen.headers.at("content-type") == "application/merge-patch+json");
}

TEST_CASE("a client certificate's CN is the user and its O entries the groups", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  std::string cert;
  std::string key;
  std::string error;
  REQUIRE(mkq::sandbox::issue_client_certificate(pki, "alice", {"dev", "ops"}, &cert, &key, &error));
  Client alice(fixture.server->port(), pki.ca_cert, cert, key);
  auto result = alice.client->Get("/apis");
  REQUIRE(result);
  CHECK(result->status == 200);
  const ApiRequest seen = fixture.cluster.last();
  CHECK(seen.user == "alice");
  CHECK(seen.groups == std::vector<std::string>{"dev", "ops", "system:authenticated"});
}

TEST_CASE("a request without credentials is system:anonymous, an unknown bearer token gets a 401 Status", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client anonymous(fixture.server->port(), pki.ca_cert);
  auto result = anonymous.client->Get("/version");
  REQUIRE(result);
  CHECK(result->status == 200);
  CHECK(fixture.cluster.last().user == "system:anonymous");
  CHECK(fixture.cluster.last().groups == std::vector<std::string>{"system:unauthenticated"});

  auto with_token = anonymous.client->Get("/api/v1/namespaces", {{"Authorization", "Bearer not-a-valid-token"}});
  REQUIRE(with_token);
  CHECK(with_token->status == 401);
  const json status = json::parse(with_token->body);
  CHECK(status["kind"] == "Status");
  CHECK(status["apiVersion"] == "v1");
  CHECK(status["status"] == "Failure");
  CHECK(status["message"] == "Unauthorized");
  CHECK(status["reason"] == "Unauthorized");
  CHECK(status["code"] == 401);
  CHECK(fixture.cluster.last().path == "/version");  // never reached the cluster
}

// Sends a 64 MiB body (declared, or chunked) and counts what the server took
// before it answered and closed: a server reading it all would take all of it.
std::size_t bytes_taken(Client& c, const httplib::Headers& headers, bool chunked) {
  constexpr std::size_t kSize = 64 * 1024 * 1024;
  const std::string piece(65536, 'x');
  std::size_t sent = 0;
  const auto provide = [&](std::size_t, std::size_t, httplib::DataSink& sink) {
    if (!sink.write(piece.data(), piece.size())) return false;
    sent += piece.size();
    if (sent >= kSize && chunked) sink.done();
    return true;
  };
  if (chunked) {
    c.client->Post("/api/v1/namespaces", headers, [&](std::size_t offset, httplib::DataSink& sink) {
      return provide(offset, piece.size(), sink);
    }, "application/json");
  } else {
    c.client->Post("/api/v1/namespaces", headers, kSize, provide, "application/json");
  }
  return sent;
}

TEST_CASE("a body is read only after authentication and never past 3 MiB (413)", "[sandbox][transport][limits]") {
  Fixture fixture;
  const auto& pki = test_pki();
  constexpr std::size_t kFarLessThanAll = 32 * 1024 * 1024;  // socket buffers hold a few MiB at most

  Client stranger(fixture.server->port(), pki.ca_cert);
  auto refused = stranger.client->Post("/api/v1/namespaces", {{"Authorization", "Bearer not-a-valid-token"}},
                                       std::string(1024, 'x'), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 401);
  CHECK(bytes_taken(stranger, {{"Authorization", "Bearer not-a-valid-token"}}, false) < kFarLessThanAll);
  CHECK(fixture.cluster.last().path.empty());

  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  CHECK(bytes_taken(admin, {}, false) < kFarLessThanAll);  // refused from its Content-Length
  CHECK(bytes_taken(admin, {}, true) < kFarLessThanAll);   // chunked: cut off at the limit
  CHECK(fixture.cluster.last().path.empty());

  Client again(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  auto at_limit = again.client->Post("/api/v1/namespaces", std::string(3 * 1024 * 1024, 'y'), "application/json");
  REQUIRE(at_limit);
  CHECK(at_limit->status == 200);
  CHECK(fixture.cluster.last().body.size() == 3 * 1024 * 1024);
}

TEST_CASE("a client certificate from another CA fails the TLS handshake", "[sandbox][transport]") {
  Fixture fixture;
  mkq::sandbox::Pki other;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&other, &error));
  Client stranger(fixture.server->port(), test_pki().ca_cert, other.admin_cert, other.admin_key);
  auto result = stranger.client->Get("/api");
  CHECK_FALSE(result);
  CHECK(fixture.cluster.last().path.empty());
}

namespace {
int tickets_received = 0;
int count_ticket(SSL* /*ssl*/, SSL_SESSION* /*session*/) {
  ++tickets_received;
  return 0;  // not kept: the callback does not take the session
}
}  // namespace

TEST_CASE("the server sends one TLS 1.3 session ticket, as Go's servers do", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  REQUIRE(ctx);
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_3_VERSION);
  X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx.get()), mkq::sandbox::read_cert(pki.ca_cert).get());
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  REQUIRE(SSL_CTX_use_certificate(ctx.get(), mkq::sandbox::read_cert(pki.admin_cert).get()) == 1);
  REQUIRE(SSL_CTX_use_PrivateKey(ctx.get(), mkq::sandbox::read_key(pki.admin_key).get()) == 1);
  // Each ticket the server sends is a new session for the client's cache.
  SSL_CTX_set_session_cache_mode(ctx.get(), SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
  SSL_CTX_sess_set_new_cb(ctx.get(), count_ticket);
  tickets_received = 0;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(fixture.server->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  SSL* ssl = SSL_new(ctx.get());
  SSL_set_fd(ssl, fd);
  REQUIRE(SSL_connect(ssl) == 1);
  // A whole exchange: a server's tickets follow its handshake, before the answer.
  const std::string request = "GET /api HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\n\r\n";
  REQUIRE(SSL_write(ssl, request.data(), static_cast<int>(request.size())) == static_cast<int>(request.size()));
  std::string answer;
  char buffer[4096];
  for (int n; (n = SSL_read(ssl, buffer, sizeof buffer)) > 0;) answer.append(buffer, static_cast<std::size_t>(n));
  CHECK(answer.rfind("HTTP/1.1 200 OK\r\n", 0) == 0);
  CHECK(tickets_received == 1);
  SSL_free(ssl);
  ::close(fd);
}

TEST_CASE("a client that trusts another CA refuses the server", "[sandbox][transport]") {
  Fixture fixture;
  mkq::sandbox::Pki other;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&other, &error));
  Client client(fixture.server->port(), other.ca_cert, test_pki().admin_cert, test_pki().admin_key);
  CHECK_FALSE(client.client->Get("/api"));
}

TEST_CASE("a streamed response is sent chunked, event by event", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  std::string received;
  int pieces = 0;
  auto result = admin.client->Get("/watch", {{"Accept-Encoding", "gzip"}}, [&](const char* data, std::size_t size) {
    received.append(data, size);
    ++pieces;
    return true;
  });
  REQUIRE(result);
  CHECK(result->status == 200);
  CHECK(result->get_header_value("Transfer-Encoding") == "chunked");
  CHECK_FALSE(result->has_header("Content-Encoding"));  // never compressed: events must not wait
  CHECK(pieces >= 3);
  CHECK(received == "{\"object\":{\"n\":1},\"type\":\"ADDED\"}\n{\"object\":{\"n\":2},\"type\":\"ADDED\"}\n"
                    "{\"object\":{\"n\":3},\"type\":\"ADDED\"}\n");
}

TEST_CASE("16 concurrent clients are all served", "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&] {
      Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
      for (int j = 0; j < 5; ++j) {
        auto result = admin.client->Get("/api");
        if (result && result->status == 200) ++ok;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(ok == 80);
}

TEST_CASE("injected faults answer 429 with Retry-After and 500, never on health endpoints", "[sandbox][transport]") {
  const auto& pki = test_pki();
  {
    mkq::sandbox::FaultOptions faults;
    faults.rate_429 = 1.0;
    Fixture fixture(faults);
    Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
    auto result = admin.client->Get("/api");
    REQUIRE(result);
    CHECK(result->status == 429);
    CHECK(result->get_header_value("Retry-After") == "1");
    CHECK(json::parse(result->body)["reason"] == "TooManyRequests");
    auto ready = admin.client->Get("/readyz");
    REQUIRE(ready);
    CHECK(ready->status == 200);
  }
  {
    mkq::sandbox::FaultOptions faults;
    faults.rate_500 = 1.0;
    faults.verbs = {"post"};
    Fixture fixture(faults);
    Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
    auto get = admin.client->Get("/api");
    REQUIRE(get);
    CHECK(get->status == 200);
    auto post = admin.client->Post("/api/v1/namespaces", "{}", "application/json");
    REQUIRE(post);
    CHECK(post->status == 500);
    CHECK(json::parse(post->body)["reason"] == "InternalError");
  }
}

TEST_CASE("the kubeconfig names one context, cluster and user per cluster", "[sandbox][transport]") {
  const std::string kubeconfig = mkq::sandbox::make_kubeconfig(test_pki(), {{"manager", 4000}, {"worker1", 4001}});
  CHECK(kubeconfig.find("current-context: manager\n") != std::string::npos);
  CHECK(kubeconfig.find("server: https://127.0.0.1:4000\n") != std::string::npos);
  CHECK(kubeconfig.find("server: https://127.0.0.1:4001\n") != std::string::npos);
  CHECK(kubeconfig.find("- name: worker1\n  context:\n    cluster: worker1\n    user: worker1\n") !=
        std::string::npos);
  CHECK(kubeconfig.find("certificate-authority-data: " + mkq::sandbox::base64(test_pki().ca_cert)) !=
        std::string::npos);
  CHECK(mkq::sandbox::valid_cluster_name("worker-1"));
  CHECK_FALSE(mkq::sandbox::valid_cluster_name("Worker"));
  CHECK_FALSE(mkq::sandbox::valid_cluster_name("../x"));
}

TEST_CASE("an answer of 128 KiB or more is gzipped for a client that accepts gzip, a smaller one never",
          "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  admin.client->set_decompress(false);  // see the bytes as sent
  auto large = admin.client->Get("/large", {{"Accept-Encoding", "gzip"}});
  REQUIRE(large);
  CHECK(large->status == 200);
  CHECK(large->get_header_value("Content-Encoding") == "gzip");
  CHECK(large->get_header_value("Vary") == "Accept-Encoding");
  CHECK(large->body.size() < 10000);
  auto small = admin.client->Get("/small", {{"Accept-Encoding", "gzip"}});
  REQUIRE(small);
  CHECK_FALSE(small->has_header("Content-Encoding"));
  CHECK(small->body == std::string(2000, 'x'));
  auto identity = admin.client->Get("/large", {{"Accept-Encoding", "identity"}});
  REQUIRE(identity);
  CHECK_FALSE(identity->has_header("Content-Encoding"));
  CHECK(identity->body == std::string(200000, 'x'));
  admin.client->set_decompress(true);
  auto unpacked = admin.client->Get("/large", {{"Accept-Encoding", "gzip"}});
  REQUIRE(unpacked);
  CHECK(unpacked->body == std::string(200000, 'x'));
}

TEST_CASE("answers are kube-apiserver's: a status line with Go's text, Date, Content-Length, kept alive by default",
          "[sandbox][transport]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  admin.client->set_keep_alive(true);
  for (int i = 0; i < 3; ++i) {  // one connection, kept alive
    auto result = admin.client->Get("/small");
    REQUIRE(result);
    CHECK(result->status == 200);
    CHECK(result->reason == "OK");
    CHECK(result->get_header_value("Content-Length") == "2000");
    CHECK(result->get_header_value("Content-Type") == "application/json");
    CHECK(result->get_header_value("Date").size() == 29);  // "Mon, 02 Jan 2006 15:04:05 GMT"
    CHECK(result->get_header_value("Cache-Control") == "no-cache, private");
    CHECK_FALSE(result->has_header("Connection"));
  }
  auto last = admin.client->Get("/small", {{"Connection", "close"}});
  REQUIRE(last);
  CHECK(last->status == 200);
  CHECK(last->get_header_value("Connection") == "close");
}

TEST_CASE("a request head over 1 MiB is answered 431 and the connection closed", "[sandbox][transport][limits]") {
  Fixture fixture;
  const auto& pki = test_pki();
  Client admin(fixture.server->port(), pki.ca_cert, pki.admin_cert, pki.admin_key);
  auto result = admin.client->Get("/api", {{"X-Large", std::string(1100 * 1024, 'h')}});
  REQUIRE(result);
  CHECK(result->status == 431);
  CHECK(result->get_header_value("Connection") == "close");
  CHECK(fixture.cluster.last().path.empty());  // never reached the cluster
  auto next = admin.client->Get("/api", {{"X-Small", "h"}});  // a new connection
  REQUIRE(next);
  CHECK(next->status == 200);
}
