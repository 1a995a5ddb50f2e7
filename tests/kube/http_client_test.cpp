// HttpClient against an in-process sandbox (sandbox::Cluster behind
// sandbox::HttpsServer on an ephemeral port, admin client certificate), and its
// authentication plumbing (token, tokenFile, exec plugins) against a small
// httplib::SSLServer that records the Authorization header.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <thread>

#include "base/time.h"
#include "runtime/kube/client.h"
#include "runtime/kube/exec_credential.h"
#include "runtime/kube/kubeconfig.h"
#include "sandbox/api.h"
#include "sandbox/daemon.h"
#include "sandbox/pki.h"
#include "sandbox/server.h"
#include "tests/kube/kube_test_support.h"

namespace {

using mkq::kube::ClientOptions;
using mkq::kube::Endpoint;
using mkq::kube::Json;
using mkq::kube::ResourceType;
using mkq::kube::testing::read_file;
using mkq::kube::testing::TempDir;
using mkq::kube::testing::write_file;
using Clock = std::chrono::steady_clock;

const mkq::sandbox::Pki& test_pki() {
  static const mkq::sandbox::Pki pki = [] {
    mkq::sandbox::Pki generated;
    std::string error;
    REQUIRE(mkq::sandbox::generate_pki(&generated, &error));
    return generated;
  }();
  return pki;
}

Endpoint admin_endpoint(int port) {
  const auto& pki = test_pki();
  Endpoint endpoint;
  endpoint.context = "test";
  endpoint.cluster.server = "https://127.0.0.1:" + std::to_string(port);
  endpoint.cluster.certificate_authority_data = pki.ca_cert;
  endpoint.user.client_certificate_data = pki.admin_cert;
  endpoint.user.client_key_data = pki.admin_key;
  return endpoint;
}

ClientOptions fast_options() {
  ClientOptions options;
  options.backoff_base = std::chrono::milliseconds(2);
  options.backoff_max = std::chrono::milliseconds(20);
  options.request_timeout = std::chrono::milliseconds(10000);
  options.connect_timeout = std::chrono::milliseconds(2000);
  return options;
}

std::unique_ptr<mkq::kube::Client> make_client(const Endpoint& endpoint, const ClientOptions& options = fast_options()) {
  auto client = mkq::kube::make_http_client(endpoint, options);
  INFO((client ? std::string() : client.error().message));
  REQUIRE(client);
  return std::move(client).value();
}

// A sandbox cluster in memory behind its HTTPS server.
struct Sandbox {
  std::unique_ptr<mkq::sandbox::Cluster> cluster;
  std::unique_ptr<mkq::sandbox::HttpsServer> server;

  explicit Sandbox(mkq::sandbox::FaultOptions faults = {}, mkq::sandbox::FlowControlOptions flow_control = {}) {
    std::string error;
    cluster = mkq::sandbox::Cluster::open("test", ":memory:", &error);
    INFO(error);
    REQUIRE(cluster);
    mkq::sandbox::ServerOptions options;
    options.threads = 16;
    options.faults = std::move(faults);
    options.flow_control = flow_control;
    server = std::make_unique<mkq::sandbox::HttpsServer>(*cluster, test_pki(), options);
    REQUIRE(server->bind(&error));
    server->start();
  }
  ~Sandbox() { server->stop(); }
  int port() const { return server->port(); }
};

ResourceType configmaps() { return {"", "v1", "ConfigMap", "configmaps", true}; }

// Faults on every GET only: `rate_500` of them answered 500, `rate_429` 429.
mkq::sandbox::FaultOptions get_faults(double rate_500, double rate_429) {
  mkq::sandbox::FaultOptions faults;
  faults.rate_500 = rate_500;
  faults.rate_429 = rate_429;
  faults.verbs = {"get"};
  return faults;
}

// A client of `sandbox` with fast backoff and `max_retries` retries of answers that ask again.
std::unique_ptr<mkq::kube::Client> retrying_client(const Sandbox& sandbox, int max_retries) {
  ClientOptions options = fast_options();
  options.max_retries = max_retries;
  return make_client(admin_endpoint(sandbox.port()), options);
}

Json configmap(const std::string& name, const std::string& value, const std::string& ns = "default") {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"data", {{"key", value}}}};
}

Json widget_crd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Cluster",
      "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
      "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"status": {}},
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
          "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}]}})");
}

int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t length = sizeof address;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  ::close(fd);  // nothing listens there now
  return ntohs(address.sin_port);
}

}  // namespace

TEST_CASE("http client: discovery of core kinds, cached, with a NotFound for unknown kinds", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  CHECK(client->server() == "https://127.0.0.1:" + std::to_string(sandbox.port()));
  auto type = client->resource_for("v1", "ConfigMap");
  INFO((type ? std::string() : type.error().message));
  REQUIRE(type);
  CHECK(type.value().plural == "configmaps");
  CHECK(type.value().namespaced);
  CHECK(type.value().api_version() == "v1");
  auto ns = client->resource_for("v1", "Namespace");
  REQUIRE(ns);
  CHECK_FALSE(ns.value().namespaced);
  CHECK(client->stats().requests == 1);  // one GET /api/v1 for both

  auto missing = client->resource_for("v1", "Gadget");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().status == 404);
  CHECK(missing.error().reason == "NotFound");
  CHECK(client->stats().requests == 2);  // a miss refreshes once

  auto rbac = client->resource_for("rbac.authorization.k8s.io/v1", "ClusterRole");
  REQUIRE(rbac);
  CHECK(rbac.value().group == "rbac.authorization.k8s.io");
  CHECK(rbac.value().plural == "clusterroles");
}

TEST_CASE("http client: a CRD's kind is discovered once the CRD exists", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  auto before = client->resource_for("example.com/v1", "Widget");
  REQUIRE_FALSE(before);
  CHECK(before.error().not_found());

  auto crds = client->resource_for("apiextensions.k8s.io/v1", "CustomResourceDefinition");
  REQUIRE(crds);
  auto created = client->apply(crds.value(), widget_crd(), {});
  INFO((created ? std::string() : created.error().message));
  REQUIRE(created);

  auto widget = client->resource_for("example.com/v1", "Widget");
  INFO((widget ? std::string() : widget.error().message));
  REQUIRE(widget);
  CHECK(widget.value().plural == "widgets");
  CHECK_FALSE(widget.value().namespaced);
  auto applied = client->apply(widget.value(),
                               {{"apiVersion", "example.com/v1"}, {"kind", "Widget"},
                                {"metadata", {{"name", "w1"}}}, {"spec", {{"size", 3}}}},
                               {});
  REQUIRE(applied);
  CHECK(applied.value()["spec"]["size"] == 3);
}

TEST_CASE("http client: apply creates then updates, with field manager mkq, get, remove, 404", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  const ResourceType cm = configmaps();

  auto created = client->apply(cm, configmap("settings", "one"), {});
  INFO((created ? std::string() : created.error().message));
  REQUIRE(created);
  const std::string uid = created.value()["metadata"]["uid"];
  CHECK_FALSE(uid.empty());
  const Json& managed = created.value()["metadata"]["managedFields"];
  REQUIRE(managed.is_array());
  REQUIRE(managed.size() == 1);
  CHECK(managed[0]["manager"] == "mkq");
  CHECK(managed[0]["operation"] == "Apply");

  auto updated = client->apply(cm, configmap("settings", "two"), {});
  REQUIRE(updated);
  CHECK(updated.value()["data"]["key"] == "two");
  CHECK(updated.value()["metadata"]["uid"] == uid);
  CHECK(updated.value()["metadata"]["resourceVersion"] != created.value()["metadata"]["resourceVersion"]);

  auto dry = client->apply(cm, configmap("settings", "three"), {"mkq", false, true});
  REQUIRE(dry);
  CHECK(dry.value()["data"]["key"] == "three");

  auto got = client->get(cm, "default", "settings");
  REQUIRE(got);
  CHECK(got.value()["data"]["key"] == "two");  // the dry run changed nothing
  CHECK(client->stats().gets == 1);

  // Another manager's value conflicts unless forced.
  auto conflict = client->apply(cm, configmap("settings", "theirs"), {"other", false, false});
  REQUIRE_FALSE(conflict);
  CHECK(conflict.error().conflict());
  CHECK(conflict.error().reason == "Conflict");
  CHECK(conflict.error().message.find("mkq") != std::string::npos);
  auto forced = client->apply(cm, configmap("settings", "theirs"), {"other", true, false});
  REQUIRE(forced);

  mkq::kube::DeleteOptions wrong_uid;
  wrong_uid.precondition_uid = "00000000-0000-0000-0000-000000000000";
  auto refused = client->remove(cm, "default", "settings", wrong_uid);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().conflict());

  mkq::kube::DeleteOptions right_uid;
  right_uid.precondition_uid = uid;
  auto removed = client->remove(cm, "default", "settings", right_uid);
  INFO((removed ? std::string() : removed.error().message));
  REQUIRE(removed);

  auto gone = client->get(cm, "default", "settings");
  REQUIRE_FALSE(gone);
  CHECK(gone.error().not_found());
  CHECK(gone.error().reason == "NotFound");
  CHECK_FALSE(gone.error().message.empty());
  CHECK(gone.error().details.is_object());
  CHECK(gone.error().details["name"] == "settings");

  auto remove_again = client->remove(cm, "default", "settings", {});
  REQUIRE_FALSE(remove_again);
  CHECK(remove_again.error().not_found());
}

TEST_CASE("http client: list follows continue pages and counts one LIST", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  const ResourceType cm = configmaps();
  for (int i = 0; i < 5; ++i) REQUIRE(client->apply(cm, configmap("cm-" + std::to_string(i), "v"), {}));
  const int before = client->stats().requests;
  mkq::kube::ListOptions options;
  options.namespace_name = "default";
  options.page_size = 2;
  auto list = client->list(cm, options);
  INFO((list ? std::string() : list.error().message));
  REQUIRE(list);
  std::vector<std::string> names;
  for (const Json& item : list.value().items) {
    if (item["metadata"]["name"].get<std::string>().rfind("cm-", 0) == 0) names.push_back(item["metadata"]["name"]);
    CHECK(item["kind"] == "ConfigMap");
    CHECK(item["apiVersion"] == "v1");
  }
  CHECK(names == std::vector<std::string>{"cm-0", "cm-1", "cm-2", "cm-3", "cm-4"});
  CHECK_FALSE(list.value().resource_version.empty());
  CHECK(client->stats().lists == 1);
  CHECK(client->stats().requests - before >= 3);  // at least 3 pages of 2

  options.label_selector = "app=none";
  auto empty = client->list(cm, options);
  REQUIRE(empty);
  CHECK(empty.value().items.empty());
  CHECK(client->stats().lists == 2);
}

TEST_CASE("http client: watch streams ADDED events until the callback stops", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  const ResourceType cm = configmaps();
  for (int i = 0; i < 3; ++i) REQUIRE(client->apply(cm, configmap("w-" + std::to_string(i), "v"), {}));
  auto list = client->list(cm, {"default", "", 500});
  REQUIRE(list);

  // From the current state: the existing objects arrive as ADDED.
  std::vector<std::string> added;
  mkq::kube::WatchOptions options;
  options.namespace_name = "default";
  options.timeout = std::chrono::seconds(2);  // the sandbox holds a stopped watch until its timeout
  const auto start = Clock::now();
  auto result = client->watch(cm, options, [&](const mkq::kube::WatchEvent& event) {
    if (event.type == "ADDED") added.push_back(event.object["metadata"]["name"]);
    return added.size() < 3;
  });
  INFO((result ? std::string() : result.error().message));
  REQUIRE(result);
  CHECK(added.size() == 3);
  CHECK(Clock::now() - start < std::chrono::milliseconds(1500));

  // From a resourceVersion: only what happens after it, as it happens.
  options.resource_version = list.value().resource_version;
  std::vector<std::pair<std::string, std::string>> events;
  auto other = make_client(admin_endpoint(sandbox.port()));
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    (void)other->apply(cm, configmap("w-new", "v"), {});
  });
  result = client->watch(cm, options, [&](const mkq::kube::WatchEvent& event) {
    if (event.type == "BOOKMARK") return true;
    events.emplace_back(event.type, event.object["metadata"]["name"]);
    return false;
  });
  writer.join();
  INFO((result ? std::string() : result.error().reason + ": " + result.error().message));
  REQUIRE(result);
  REQUIRE(events.size() == 1);
  CHECK(events[0] == std::make_pair(std::string("ADDED"), std::string("w-new")));
}

TEST_CASE("http client: concurrent requests from several threads all succeed", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  const ResourceType cm = configmaps();
  REQUIRE(client->apply(cm, configmap("shared", "v"), {}));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i) {
        if (!client->get(cm, "default", "shared")) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == 0);
  CHECK(client->stats().gets == 60);
  CHECK(client->stats().retries == 0);
}

TEST_CASE("http client: an explicit rate limit holds requests beyond the burst", "[kube][http]") {
  Sandbox sandbox;
  ClientOptions options = fast_options();
  options.qps = 20;
  options.burst = 2;
  options.explicit_rate_limit = true;  // the sandbox announces APF: only a limit the user set holds
  auto client = make_client(admin_endpoint(sandbox.port()), options);
  const auto start = Clock::now();
  for (int i = 0; i < 6; ++i) REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));
  // 2 at once, then 4 more at 20 per second: at least ~200 ms.
  CHECK(Clock::now() - start >= std::chrono::milliseconds(180));
}

TEST_CASE("http client: 500s are retried with backoff until they succeed", "[kube][http]") {
  mkq::sandbox::FaultOptions faults;
  faults.rate_500 = 0.5;
  Sandbox sandbox(faults);
  ClientOptions options = fast_options();
  options.max_retries = 20;
  auto client = make_client(admin_endpoint(sandbox.port()), options);
  auto type = client->resource_for("v1", "ConfigMap");
  REQUIRE(type);
  for (int i = 0; i < 8; ++i) {
    auto applied = client->apply(type.value(), configmap("f-" + std::to_string(i), "v"), {});
    INFO((applied ? std::string() : applied.error().message));
    REQUIRE(applied);
  }
  auto list = client->list(type.value(), {"default", "", 3});
  REQUIRE(list);
  CHECK(list.value().items.size() >= 8);
  const auto stats = client->stats();
  CHECK(stats.retries > 0);
  CHECK(stats.requests >= stats.retries + 10);  // discovery, 8 applies, a list of 3+ pages
}

TEST_CASE("http client: a 500 that outlasts every retry says so, for a LIST and a GET", "[kube][http]") {
  Sandbox sandbox(get_faults(1.0, 0.0));
  auto client = retrying_client(sandbox, 3);
  const auto listed = client->list_text(configmaps(), {});
  REQUIRE_FALSE(listed);
  CHECK(listed.error().status == 500);
  CHECK_THAT(listed.error().message, Catch::Matches("Internal error occurred: injected fault \\(tried 4 "
                                                    "times over [0-9]+\\.[0-9] s, every retry spent\\)"));
  CHECK(client->stats().requests == 4);
  const auto got = client->get(configmaps(), "default", "x");
  REQUIRE_FALSE(got);
  CHECK_THAT(got.error().message,
             Catch::Matches(".* \\(tried 4 times over [0-9]+\\.[0-9] s, every retry spent\\)"));
  // A final answer says nothing of tries: deletes are not faulted here, and a 404 is not retried.
  const auto removed = client->remove(configmaps(), "default", "x", {});
  REQUIRE_FALSE(removed);
  CHECK(removed.error().status == 404);
  CHECK(removed.error().message.find("tried") == std::string::npos);
}

TEST_CASE("http client: a 429 is retried after Retry-After, then returned", "[kube][http]") {
  Sandbox sandbox(get_faults(0.0, 1.0));
  auto client = retrying_client(sandbox, 1);
  const auto start = Clock::now();
  auto got = client->get(configmaps(), "default", "x");
  const auto elapsed = Clock::now() - start;
  REQUIRE_FALSE(got);
  CHECK(got.error().status == 429);
  CHECK(got.error().reason == "TooManyRequests");
  CHECK(client->stats().retries == 1);
  CHECK(client->stats().requests == 2);
  CHECK(elapsed >= std::chrono::milliseconds(950));  // Retry-After: 1
  // The message says the 429 stands because the retries are spent, and how long they took.
  CHECK_THAT(
      got.error().message,
      Catch::Matches(".*\\(injected fault\\) \\(tried 2 times over 1\\.[0-9] s, every retry spent\\)"));

  // Writes are not faulted here; a 4xx other than 429 is never retried.
  auto invalid = client->apply(configmaps(), {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                              {"metadata", {{"name", "Not_Valid"}, {"namespace", "default"}}}},
                               {});
  REQUIRE_FALSE(invalid);
  CHECK(invalid.error().status == 422);
  CHECK(invalid.error().reason == "Invalid");
  CHECK(client->stats().retries == 1);
}

TEST_CASE("http client: a server that announces API Priority and Fairness lifts the client-side limit",
          "[kube][http][pacing]") {
  Sandbox sandbox;
  ClientOptions options = fast_options();
  options.qps = 2;  // not the user's: the default of a server without APF
  options.burst = 1;
  auto client = make_client(admin_endpoint(sandbox.port()), options);
  CHECK(client->stats().regime == mkq::kube::RateRegime::ClientLimit);
  const auto start = Clock::now();
  for (int i = 0; i < 10; ++i) REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));
  // At 2 per second, 10 requests would take 4.5 s; the first answer's headers switched the bucket off.
  CHECK(Clock::now() - start < std::chrono::milliseconds(2000));
  CHECK(client->stats().regime == mkq::kube::RateRegime::ServerFairness);
  CHECK(client->stats().priority_and_fairness);

  options.explicit_rate_limit = true;  // --qps 2 --burst 1: holds whatever the server announces
  auto limited = make_client(admin_endpoint(sandbox.port()), options);
  const auto limited_start = Clock::now();
  for (int i = 0; i < 4; ++i) REQUIRE(limited->request("GET", "/api/v1/namespaces/default", nullptr));
  CHECK(Clock::now() - limited_start >= std::chrono::milliseconds(1400));  // 1 at once, 3 at 2 per second
  CHECK(limited->stats().regime == mkq::kube::RateRegime::Explicit);
  CHECK(limited->stats().priority_and_fairness);
}

TEST_CASE("http client: a user beyond its APF seats gets kube-apiserver's 429, and the client waits it out",
          "[kube][http][pacing]") {
  mkq::sandbox::FaultOptions slow;
  slow.latency_ms = 400;  // each request holds its seat this long
  mkq::sandbox::FlowControlOptions flow;
  flow.concurrency = 1;  // one seat per user and priority level
  flow.queue_wait = std::chrono::milliseconds(0);
  Sandbox sandbox(slow, flow);
  std::string cert;
  std::string key;
  std::string error;
  REQUIRE(mkq::sandbox::issue_client_certificate(test_pki(), "alice", {}, &cert, &key, &error));

  // The raw answer, as kubectl would see it.
  const auto alice_get = [&](std::optional<httplib::Response>* out) {
    const mkq::sandbox::CertPtr x509 = mkq::sandbox::read_cert(cert);
    const mkq::sandbox::KeyPtr pkey = mkq::sandbox::read_key(key);
    httplib::SSLClient http("127.0.0.1", sandbox.port(), x509.get(), pkey.get());
    http.enable_server_certificate_verification(false);
    if (auto result = http.Get("/api/v1/namespaces/default/configmaps/x")) *out = *result;
  };
  std::optional<httplib::Response> first;
  std::thread holder([&] { alice_get(&first); });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  std::optional<httplib::Response> second;
  alice_get(&second);
  holder.join();
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->status == 403);  // served (alice may not read ConfigMaps), with the headers
  CHECK(first->has_header("X-Kubernetes-Pf-Flowschema-Uid"));
  CHECK(second->status == 429);
  CHECK(second->get_header_value("Retry-After") == "1");
  CHECK(second->get_header_value("Content-Type") == "text/plain; charset=utf-8");
  CHECK(second->body == "Too many requests, please try again later.\n");
  CHECK(second->get_header_value("X-Kubernetes-Pf-Flowschema-Uid") ==
        first->get_header_value("X-Kubernetes-Pf-Flowschema-Uid"));
  CHECK_FALSE(second->get_header_value("X-Kubernetes-Pf-Prioritylevel-Uid").empty());

  // mkq's client as alice, two requests at once: one is turned away, waits
  // its Retry-After (1 s) and comes back; both end with the server's answer.
  Endpoint endpoint = admin_endpoint(sandbox.port());
  endpoint.user.client_certificate_data = cert;
  endpoint.user.client_key_data = key;
  auto client = make_client(endpoint, fast_options());
  const auto start = Clock::now();
  std::vector<int> statuses(2, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) {
    threads.emplace_back([&, i] {
      if (i == 1) std::this_thread::sleep_for(std::chrono::milliseconds(150));
      auto got = client->get(configmaps(), "default", "x");
      statuses[static_cast<std::size_t>(i)] = got ? 200 : got.error().status;
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(statuses == std::vector<int>{403, 403});
  CHECK(client->stats().retries >= 1);
  CHECK(Clock::now() - start >= std::chrono::milliseconds(1000));
  CHECK(client->stats().regime == mkq::kube::RateRegime::ServerFairness);
}

TEST_CASE("http client: a wrong CA is a TLSError", "[kube][http]") {
  Sandbox sandbox;
  mkq::sandbox::Pki other;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&other, &error));
  Endpoint endpoint = admin_endpoint(sandbox.port());
  endpoint.cluster.certificate_authority_data = other.ca_cert;
  auto client = make_client(endpoint);
  auto got = client->get(configmaps(), "default", "x");
  REQUIRE_FALSE(got);
  CHECK(got.error().transport());
  CHECK(got.error().reason == "TLSError");
  CHECK(got.error().message.find(endpoint.cluster.server) != std::string::npos);
  CHECK(got.error().message == [&] {
    std::string lower = got.error().message;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower;
  }());
  CHECK(client->stats().retries == 0);
  // Refused by the CA the SSL_CTX callback installed (no default store loaded).
  CHECK(client->stats().connections == 1);
}

TEST_CASE("http client: new connections reuse the CA and client certificate parsed once", "[kube][http]") {
  mkq::sandbox::FaultOptions faults;
  faults.latency_ms = 100;  // keeps requests in flight together, so each thread needs its own connection
  Sandbox sandbox(faults);
  auto client = make_client(admin_endpoint(sandbox.port()));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  const auto deadline = Clock::now() + std::chrono::seconds(15);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      while (client->stats().connections < 3 && Clock::now() < deadline) {
        auto got = client->request("GET", "/api/v1/namespaces/default", nullptr);
        if (!got || got.value()["metadata"]["name"] != "default") ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const auto stats = client->stats();
  CHECK(failures == 0);
  CHECK(stats.connections >= 3);
  CHECK(stats.connections <= 4);  // one per thread: kept alive and reused
  CHECK(stats.identity_parses == 1);
  CHECK(stats.retries == 0);
}

TEST_CASE("http client: a closed port is ConnectionFailed, quickly", "[kube][http]") {
  const int port = closed_port();
  ClientOptions options = fast_options();
  options.max_transport_retries = 2;
  auto client = make_client(admin_endpoint(port), options);
  const auto start = Clock::now();
  auto got = client->get(configmaps(), "default", "x");
  REQUIRE_FALSE(got);
  CHECK(got.error().status == 0);
  CHECK(got.error().reason == "ConnectionFailed");
  CHECK(got.error().message.rfind("cannot connect to https://127.0.0.1:" + std::to_string(port), 0) == 0);
  CHECK(client->stats().retries == 2);
  CHECK_THAT(got.error().message,
             Catch::Matches(".* \\(tried 3 times over [0-9]+\\.[0-9] s, every retry spent\\)"));
  CHECK(Clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("http client: a short request timeout is a Timeout", "[kube][http]") {
  mkq::sandbox::FaultOptions faults;
  faults.latency_ms = 700;
  Sandbox sandbox(faults);
  ClientOptions options = fast_options();
  options.request_timeout = std::chrono::milliseconds(200);
  options.max_retries = 0;
  auto client = make_client(admin_endpoint(sandbox.port()), options);
  auto got = client->get(configmaps(), "default", "x");
  REQUIRE_FALSE(got);
  CHECK(got.error().reason == "Timeout");
  CHECK(got.error().message.find("within 200 ms") != std::string::npos);
}

TEST_CASE("http client: one deadline covers a request and its retries", "[kube][http]") {
  // Every attempt would time out: with seven attempts of 300 ms each the old
  // client waited over two seconds and still said "within 300 ms".
  mkq::sandbox::FaultOptions faults;
  faults.latency_ms = 700;
  Sandbox sandbox(faults);
  ClientOptions options = fast_options();
  options.request_timeout = std::chrono::milliseconds(300);
  options.max_retries = 6;
  auto client = make_client(admin_endpoint(sandbox.port()), options);
  const auto started = std::chrono::steady_clock::now();
  auto got = client->get(configmaps(), "default", "x");
  const auto waited = std::chrono::steady_clock::now() - started;
  REQUIRE_FALSE(got);
  CHECK(got.error().reason == "Timeout");
  CHECK(got.error().message.find("within 300 ms") != std::string::npos);
  CHECK(waited < std::chrono::milliseconds(1000));  // the deadline plus scheduling, never another attempt
}

TEST_CASE("http client: make_http_client refuses unusable endpoints without quoting secrets", "[kube][http]") {
  const auto refusal = [](const Endpoint& endpoint) {
    auto client = mkq::kube::make_http_client(endpoint, {});
    REQUIRE_FALSE(client);
    return client.error().message;
  };
  std::string error;
  Endpoint endpoint = admin_endpoint(1);
  endpoint.user.client_key_data = "-----BEGIN PRIVATE KEY-----\nNOT-A-KEY-SECRET\n-----END PRIVATE KEY-----\n";
  CHECK(refusal(endpoint) == "context \"test\": the client key is not a PEM private key");

  mkq::sandbox::Pki other;
  REQUIRE(mkq::sandbox::generate_pki(&other, &error));
  endpoint = admin_endpoint(1);
  endpoint.user.client_key_data = other.admin_key;  // a valid key, but not the certificate's
  CHECK(refusal(endpoint) == "context \"test\": the client key does not match the client certificate");

  endpoint = admin_endpoint(1);
  endpoint.user.client_certificate_data = "-----BEGIN CERTIFICATE-----\nSECRET\n-----END CERTIFICATE-----\n";
  CHECK(refusal(endpoint) == "context \"test\": the client certificate is not a PEM certificate");

  endpoint = admin_endpoint(1);
  endpoint.cluster.certificate_authority_data = "garbage";
  endpoint.cluster.certificate_authority_file = "/etc/ca.crt";
  CHECK(refusal(endpoint) == "context \"test\": the cluster's certificate authority /etc/ca.crt is not a PEM certificate");

  endpoint = admin_endpoint(1);
  endpoint.user.token_file = "/nonexistent/token";
  CHECK(refusal(endpoint) == "context \"test\": cannot read the token file /nonexistent/token");

  endpoint = admin_endpoint(1);
  endpoint.cluster.server = "http://127.0.0.1:1";
  CHECK(refusal(endpoint) == "context \"test\": server http://127.0.0.1:1 is not https");
}

TEST_CASE("http client: the sandbox's own kubeconfig loads and connects", "[kube][http]") {
  Sandbox sandbox;
  TempDir dir;
  write_file(dir / "kubeconfig", mkq::sandbox::make_kubeconfig(test_pki(), {{"alpha", sandbox.port()}}));
  mkq::kube::LoadOptions load;
  load.explicit_file = dir / "kubeconfig";
  std::string error;
  auto config = mkq::kube::load_kubeconfig(load);
  REQUIRE(config);
  auto endpoint = mkq::kube::resolve_context(*config, "", false);
  INFO((endpoint ? std::string() : endpoint.error().message));
  REQUIRE(endpoint);
  auto client = make_client(*endpoint);
  auto ns = client->request("GET", "/api/v1/namespaces/default", nullptr);
  INFO((ns ? std::string() : ns.error().message));
  REQUIRE(ns);
  CHECK(ns.value()["metadata"]["name"] == "default");
}

// --- authentication plumbing against a recording HTTPS server ---------------

namespace {

// An HTTPS server with the sandbox's server certificate (or another PKI's)
// that records the Authorization and Accept-Encoding headers of each request;
// answers 401 to the first `reject` ones.
struct Recorder {
  mkq::sandbox::CertPtr cert;
  mkq::sandbox::KeyPtr key;
  httplib::SSLServer server;
  std::thread thread;
  int port = 0;
  std::mutex mutex;
  std::vector<std::string> authorizations;
  std::vector<std::string> encodings;  // each request's Accept-Encoding; "(none)" when it sent none
  int reject = 0;
  std::string body = R"({"kind":"Namespace","apiVersion":"v1","metadata":{"name":"default"}})";  // every GET's answer

  explicit Recorder(const mkq::sandbox::Pki& pki = test_pki())
      : cert(mkq::sandbox::read_cert(pki.server_cert)),
        key(mkq::sandbox::read_key(pki.server_key)),
        server(cert.get(), key.get()) {
    server.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mutex);
      authorizations.push_back(req.get_header_value("Authorization"));
      encodings.push_back(req.has_header("Accept-Encoding") ? req.get_header_value("Accept-Encoding")
                                                            : "(none)");
      if (reject > 0) {
        --reject;
        res.status = 401;
        res.set_content(R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized",)"
                        R"("message":"Unauthorized","code":401})",
                        "application/json");
        return;
      }
      res.set_content(body, "application/json");
    });
    port = server.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    thread = std::thread([this] { server.listen_after_bind(); });
    // stop() before the loop runs would be lost: wait until it does (bounded).
    for (int i = 0; i < 2000 && !server.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~Recorder() {
    server.stop();
    thread.join();
  }
  std::vector<std::string> seen() {
    std::lock_guard<std::mutex> lock(mutex);
    return authorizations;
  }
  std::vector<std::string> accept_encodings() {
    std::lock_guard<std::mutex> lock(mutex);
    return encodings;
  }
  Endpoint endpoint() const {
    Endpoint endpoint;
    endpoint.context = "recorder";
    endpoint.cluster.server = "https://localhost:" + std::to_string(port);
    endpoint.cluster.certificate_authority_data = test_pki().ca_cert;
    return endpoint;
  }
};

std::string plugin_script(const std::string& counter, const std::string& api_version, const std::string& token,
                          const std::string& expiration, const std::string& env_dump) {
  std::string status = "{\"token\":\"" + token + "\"";
  if (!expiration.empty()) status += ",\"expirationTimestamp\":\"" + expiration + "\"";
  status += "}";
  return "#!/bin/sh\necho run >> '" + counter + "'\n" +
         (env_dump.empty() ? std::string() : "env > '" + env_dump + "'\n") +
         "cat <<'EOF'\n{\"apiVersion\":\"" + api_version + "\",\"kind\":\"ExecCredential\",\"status\":" + status +
         "}\nEOF\n";
}

int runs(const std::filesystem::path& counter) {
  const std::string text = read_file(counter);
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

// list_text's items, decoded, and list()'s, member for member in the same order.
static void same_items(const mkq::kube::ObjectTextList& texts, const mkq::kube::ObjectList& values) {
  REQUIRE(texts.items.size() == values.items.size());
  for (std::size_t i = 0; i < values.items.size(); ++i) {
    const Json decoded = texts.items[i].decode();
    CHECK(decoded.dump() == values.items[i].dump());
    const Json metadata = values.items[i].value("metadata", Json::object());
    CHECK(texts.items[i].name() == metadata.value("name", std::string()));
    CHECK(texts.items[i].namespace_name() == metadata.value("namespace", std::string()));
  }
  CHECK(texts.resource_version == values.resource_version);
}

TEST_CASE("http client: list_text keeps the items of list() as text, pages followed", "[kube][http]") {
  Sandbox sandbox;
  auto client = make_client(admin_endpoint(sandbox.port()));
  const ResourceType cm = configmaps();
  for (int i = 0; i < 5; ++i) REQUIRE(client->apply(cm, configmap("cm-" + std::to_string(i), "v"), {}));
  mkq::kube::ListOptions options;
  options.namespace_name = "default";
  options.page_size = 2;
  const int lists = client->stats().lists;
  auto texts = client->list_text(cm, options);
  auto values = client->list(cm, options);
  REQUIRE(texts);
  REQUIRE(values);
  CHECK(client->stats().lists == lists + 2);
  CHECK(texts.value().items.size() >= 5);
  same_items(texts.value(), values.value());
}

TEST_CASE("http client: list_text types items the server lists without apiVersion and kind", "[kube][http]") {
  Recorder recorder;
  auto client = make_client(recorder.endpoint());
  const ResourceType cm = configmaps();
  for (const std::string& body : std::vector<std::string>{
           // kube-apiserver's typed lists: no apiVersion or kind on the items
           R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[)"
           R"({"metadata":{"name":"a","namespace":"n"},"data":{"k":"v"}}, { } ,{"kind":"ConfigMap","apiVersion":"v1",)"
           R"("metadata":{"name":"b"}}]})",
           // the same items, pretty-printed
           "{\"items\": [\n {\n  \"metadata\": {\"name\": \"a\"}\n }\n]}",
           // an item with one of the two: decoded whole, as list() does
           R"({"metadata":{"resourceVersion":"10"},"items":[{"kind":"ConfigMap","metadata":{"name":"c"}}]})",
           // a surrogate pair, which the fast decoder leaves to nlohmann's
           R"({"metadata":{},"items":[{"metadata":{"name":"d"},"data":{"k":"\ud83d\ude00"}}]})"}) {
    INFO(body);
    recorder.body = body;
    auto texts = client->list_text(cm, {});
    auto values = client->list(cm, {});
    REQUIRE(texts);
    REQUIRE(values);
    same_items(texts.value(), values.value());
    if (body.find("ConfigMapList") != std::string::npos) {
      CHECK(texts.value().items[0].text().rfind(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":)", 0) == 0);
      CHECK(texts.value().items[1].text() == R"({"apiVersion":"v1","kind":"ConfigMap"})");
    }
    for (const mkq::kube::ObjectText& item : texts.value().items) {
      CHECK(item.decode()["apiVersion"] == "v1");
      CHECK(item.decode()["kind"] == "ConfigMap");
    }
  }
  recorder.body = "not json";
  auto refused = client->list_text(cm, {});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("answered a list with no JSON") != std::string::npos);
}

TEST_CASE("http client: a token and a token file re-read on each request", "[kube][http][auth]") {
  Recorder recorder;
  Endpoint endpoint = recorder.endpoint();
  endpoint.user.token = "static-token";
  auto client = make_client(endpoint);
  REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));
  // This server announces no API Priority and Fairness: the default bucket stays.
  CHECK(client->stats().regime == mkq::kube::RateRegime::ClientLimit);
  CHECK_FALSE(client->stats().priority_and_fairness);

  TempDir dir;
  write_file(dir / "token", "file-token-1\n");
  endpoint.user.token_file = (dir / "token").string();
  auto file_client = make_client(endpoint);
  REQUIRE(file_client->request("GET", "/api/v1/namespaces/default", nullptr));
  write_file(dir / "token", "file-token-2");
  REQUIRE(file_client->request("GET", "/api/v1/namespaces/default", nullptr));
  std::filesystem::remove(dir / "token");
  auto unreadable = file_client->request("GET", "/api/v1/namespaces/default", nullptr);
  REQUIRE_FALSE(unreadable);
  CHECK(unreadable.error().reason == "ConfigError");
  CHECK(unreadable.error().message == "cannot read the token file " + (dir / "token").string());
  CHECK(recorder.seen() ==
        std::vector<std::string>{"Bearer static-token", "Bearer file-token-1", "Bearer file-token-2"});
}

TEST_CASE("http client: a LIST asks for gzip unless the kubeconfig says disable-compression",
          "[kube][http]") {
  Recorder recorder;
  recorder.body = R"({"kind":"NamespaceList","apiVersion":"v1","metadata":{"resourceVersion":"7"},)"
                  R"("items":[{"metadata":{"name":"default"}}]})";
  const ResourceType namespaces{"", "v1", "Namespace", "namespaces", false};
  Endpoint endpoint = recorder.endpoint();
  auto client = make_client(endpoint);
  REQUIRE(client->list(namespaces, {}));
  REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));  // a small answer: never compressed
  endpoint.cluster.disable_compression = true;
  auto plain = make_client(endpoint);
  const auto listed = plain->list(namespaces, {});
  REQUIRE(listed);
  CHECK(listed.value().items.size() == 1);
  const auto texts = plain->list_text(namespaces, {});
  REQUIRE(texts);
  CHECK(texts.value().items.size() == 1);
  CHECK(recorder.accept_encodings() == std::vector<std::string>{"gzip", "(none)", "(none)", "(none)"});
}

TEST_CASE("http client: an exec plugin runs once and its token is cached until it expires", "[kube][http][auth]") {
  Recorder recorder;
  TempDir dir;
  const std::string version = GENERATE(std::string("client.authentication.k8s.io/v1"),
                                       std::string("client.authentication.k8s.io/v1beta1"));
  write_file(dir / "bin/plugin",
             plugin_script((dir / "count").string(), version, "exec-token", "2999-01-01T00:00:00Z",
                           (dir / "env").string()),
             true);
  Endpoint endpoint = recorder.endpoint();
  mkq::kube::ExecConfig exec;
  exec.api_version = version;
  exec.command = (dir / "bin/plugin").string();
  exec.env = {{"PLUGIN_MODE", "test"}};
  exec.provide_cluster_info = true;
  endpoint.user.exec = exec;
  auto client = make_client(endpoint);
  for (int i = 0; i < 3; ++i) REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));
  CHECK(runs(dir / "count") == 1);
  CHECK(recorder.seen() == std::vector<std::string>(3, "Bearer exec-token"));
  const std::string env = read_file(dir / "env");
  CHECK(env.find("PLUGIN_MODE=test") != std::string::npos);
  CHECK(env.find("KUBERNETES_EXEC_INFO={\"apiVersion\":\"" + version + "\",\"kind\":\"ExecCredential\"") !=
        std::string::npos);
  CHECK(env.find("\"server\":\"" + endpoint.cluster.server + "\"") != std::string::npos);
  CHECK(env.find("disable-compression") == std::string::npos);

  // An expired credential is asked for again on every request. The cluster's
  // disable-compression goes to the plugin with the rest of its information.
  write_file(dir / "bin/plugin",
             plugin_script((dir / "count2").string(), version, "old-token", "2000-01-01T00:00:00Z",
                           (dir / "env2").string()),
             true);
  endpoint.cluster.disable_compression = true;
  auto expired_client = make_client(endpoint);
  for (int i = 0; i < 2; ++i) REQUIRE(expired_client->request("GET", "/api/v1/namespaces/default", nullptr));
  CHECK(runs(dir / "count2") == 2);
  CHECK(read_file(dir / "env2").find("\"disable-compression\":true") != std::string::npos);
}

TEST_CASE("http client: a 401 asks the exec plugin again, once", "[kube][http][auth]") {
  Recorder recorder;
  recorder.reject = 1;
  TempDir dir;
  write_file(dir / "plugin",
             plugin_script((dir / "count").string(), "client.authentication.k8s.io/v1", "t", "", ""), true);
  Endpoint endpoint = recorder.endpoint();
  endpoint.user.exec = mkq::kube::ExecConfig{"client.authentication.k8s.io/v1", (dir / "plugin").string(), {}, {}, false, ""};
  auto client = make_client(endpoint);
  REQUIRE(client->request("GET", "/api/v1/namespaces/default", nullptr));
  CHECK(runs(dir / "count") == 2);

  recorder.reject = 5;
  auto denied = client->request("GET", "/api/v1/namespaces/default", nullptr);
  REQUIRE_FALSE(denied);
  CHECK(denied.error().status == 401);
  CHECK(denied.error().reason == "Unauthorized");
  CHECK(runs(dir / "count") == 3);
}

TEST_CASE("http client: a server certificate from another CA is refused", "[kube][http]") {
  mkq::sandbox::Pki other;
  std::string error;
  REQUIRE(mkq::sandbox::generate_pki(&other, &error));
  Recorder impostor(other);  // serves a certificate signed by `other`'s CA
  Endpoint endpoint = impostor.endpoint();  // trusts test_pki()'s CA only
  endpoint.user.client_certificate_data = test_pki().admin_cert;
  endpoint.user.client_key_data = test_pki().admin_key;
  auto client = make_client(endpoint);
  auto got = client->request("GET", "/api/v1/namespaces/default", nullptr);
  REQUIRE_FALSE(got);
  CHECK(got.error().reason == "TLSError");
  CHECK(client->stats().connections == 1);
  CHECK(impostor.seen().empty());

  // The same server with its own CA trusted: the callback's store is what verifies.
  endpoint.cluster.certificate_authority_data = other.ca_cert;
  auto trusting = make_client(endpoint);
  REQUIRE(trusting->request("GET", "/api/v1/namespaces/default", nullptr));
  CHECK(trusting->stats().connections == 1);
}

TEST_CASE("http client: tls-server-name is the name verified, the server's address the one dialled", "[kube][http]") {
  Recorder recorder;
  Endpoint endpoint = recorder.endpoint();
  endpoint.cluster.server = "https://127.0.0.1:" + std::to_string(recorder.port);
  endpoint.cluster.tls_server_name = "localhost";  // in the server certificate
  REQUIRE(make_client(endpoint)->request("GET", "/api/v1/namespaces/default", nullptr));
  endpoint.cluster.tls_server_name = "api.elsewhere.example";  // not in it
  auto wrong = make_client(endpoint)->request("GET", "/api/v1/namespaces/default", nullptr);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().reason == "TLSError");
  CHECK(recorder.seen().size() == 1);
}

TEST_CASE("http client: a failing exec plugin is a clear error", "[kube][http][auth]") {
  Recorder recorder;
  TempDir dir;
  write_file(dir / "plugin", "#!/bin/sh\necho 'error: not logged in' >&2\nexit 3\n", true);
  write_file(dir / "liar", "#!/bin/sh\necho '{\"token\": \"SECRET-IN-OUTPUT\"}'\n", true);
  Endpoint endpoint = recorder.endpoint();
  mkq::kube::ExecConfig exec{"client.authentication.k8s.io/v1", (dir / "plugin").string(), {}, {}, false,
                             "run `login` first"};
  endpoint.user.exec = exec;
  auto client = make_client(endpoint);
  auto failed = client->request("GET", "/api/v1/namespaces/default", nullptr);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().reason == "ConfigError");
  CHECK(failed.error().message == "exec plugin " + exec.command + " failed with exit status 3: error: not logged in");

  exec.command = (dir / "absent").string();
  endpoint.user.exec = exec;
  auto absent = make_client(endpoint)->request("GET", "/", nullptr);
  REQUIRE_FALSE(absent);
  CHECK(absent.error().message ==
        "exec plugin " + exec.command + ": cannot run it: no such file or directory; run `login` first");

  exec.command = (dir / "liar").string();
  endpoint.user.exec = exec;
  auto liar = make_client(endpoint)->request("GET", "/", nullptr);
  REQUIRE_FALSE(liar);
  CHECK(liar.error().message == "exec plugin " + exec.command + ": its output is not an ExecCredential (kind \"\")");
  CHECK(recorder.seen().empty());
}

TEST_CASE("exec credentials: parsing, versions, expiry", "[kube][auth]") {
  const auto v1 = mkq::kube::parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
          "status":{"clientCertificateData":"CERT","clientKeyData":"KEY","expirationTimestamp":"2030-01-02T03:04:05.5+01:00"}})",
      "client.authentication.k8s.io/v1", "p");
  REQUIRE(v1);
  CHECK(v1.value().client_certificate_data == "CERT");
  CHECK(v1.value().client_key_data == "KEY");
  REQUIRE(v1.value().expiration);
  CHECK(*v1.value().expiration == *mkq::base::parse_rfc3339("2030-01-02T02:04:05Z"));

  const auto mismatch = mkq::kube::parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"SECRET"}})",
      "client.authentication.k8s.io/v1", "p");
  REQUIRE_FALSE(mismatch);
  CHECK(mismatch.error().message.find("SECRET") == std::string::npos);
  const auto empty = mkq::kube::parse_exec_credential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})",
      "client.authentication.k8s.io/v1", "p");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message == "exec plugin p: its ExecCredential has neither a token nor a client certificate");
  CHECK_FALSE(mkq::base::parse_rfc3339("2030-01-02 03:04:05"));
  CHECK_FALSE(mkq::base::parse_rfc3339("2030-13-02T03:04:05Z"));
}

namespace {

// An exec plugin printing the ExecCredential held in `credential_file`, with
// an expiry in the past so that every request runs it again.
std::string cert_plugin_script(const std::string& credential_file) {
  return "#!/bin/sh\ncat '" + credential_file + "'\n";
}

std::string cert_credential(const std::string& cert, const std::string& key) {
  return Json{{"apiVersion", "client.authentication.k8s.io/v1"},
              {"kind", "ExecCredential"},
              {"status",
               {{"clientCertificateData", cert},
                {"clientKeyData", key},
                {"expirationTimestamp", "2000-01-01T00:00:00Z"}}}}
      .dump();
}

}  // namespace

TEST_CASE("http client: an exec plugin's client certificate is parsed when it changes, on new connections",
          "[kube][http][auth]") {
  Sandbox sandbox;
  TempDir dir;
  std::string alice_cert, alice_key, error;
  REQUIRE(mkq::sandbox::issue_client_certificate(test_pki(), "alice", {}, &alice_cert, &alice_key, &error));
  const auto credential = dir / "credential.json";
  write_file(dir / "plugin", cert_plugin_script(credential.string()), true);
  Endpoint endpoint = admin_endpoint(sandbox.port());
  endpoint.user.client_certificate_data.clear();
  endpoint.user.client_key_data.clear();
  const mkq::kube::ExecConfig exec{"client.authentication.k8s.io/v1", (dir / "plugin").string(), {}, {}, false, ""};
  endpoint.user.exec = exec;
  auto client = make_client(endpoint);
  auto get = [&] { return client->request("GET", "/api/v1/namespaces/default", nullptr); };

  write_file(credential, cert_credential(test_pki().admin_cert, test_pki().admin_key));
  REQUIRE(get());
  REQUIRE(get());  // the same credential: no parse, the same connection
  CHECK(client->stats().identity_parses == 1);
  CHECK(client->stats().connections == 1);

  // alice (no RBAC grants) on a new connection: the admin's is not reused.
  write_file(credential, cert_credential(alice_cert, alice_key));
  auto forbidden = get();
  REQUIRE_FALSE(forbidden);
  CHECK(forbidden.error().status == 403);
  CHECK(forbidden.error().message.find("alice") != std::string::npos);
  CHECK(client->stats().identity_parses == 2);
  CHECK(client->stats().connections == 2);

  write_file(credential, cert_credential(test_pki().admin_cert, test_pki().admin_key));
  REQUIRE(get());
  CHECK(client->stats().identity_parses == 3);
  CHECK(client->stats().connections == 3);

  // A bad key or one that is not the certificate's: a clear error, before any connection.
  write_file(credential, cert_credential(test_pki().admin_cert,
                                         "-----BEGIN PRIVATE KEY-----\nSECRET-KEY\n-----END PRIVATE KEY-----\n"));
  auto bad_key = get();
  REQUIRE_FALSE(bad_key);
  CHECK(bad_key.error().reason == "ConfigError");
  CHECK(bad_key.error().message == "exec plugin " + exec.command + ": the client key is not a PEM private key");
  write_file(credential, cert_credential(test_pki().admin_cert, alice_key));
  auto mismatch = get();
  REQUIRE_FALSE(mismatch);
  CHECK(mismatch.error().message ==
        "exec plugin " + exec.command + ": the client key does not match the client certificate");
  CHECK(client->stats().connections == 3);
  CHECK(client->stats().retries == 0);
}
