// Test support for runtime/credentials: a policy with one worker per
// credentials mode, compiled and lowered, its placeholder Secrets, a worker
// client that answers TokenRequests, and a movable clock.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "runtime/credentials/encoding.h"
#include "runtime/credentials/provider.h"
#include "runtime/kube/client.h"
#include "tests/kueue/kueue_test_support.h"
#include "tests/support/fake_clock.h"

namespace credtest {

using mkq::kube::Json;
using Clock = std::chrono::system_clock;

inline Clock::time_point at(const std::string& rfc3339) { return *mkq::credentials::parse_rfc3339(rfc3339); }

inline const char* const kCaPem =
    "-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIBADAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhrM3Mtc2Vy\n"
    "-----END CERTIFICATE-----\n";
inline const char* const kOtherCaPem =
    "-----BEGIN CERTIFICATE-----\nMIIBeDCCAR6gAwIBAgIBATAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhrM3Mtb3Ro\n"
    "-----END CERTIFICATE-----\n";
inline const char* const kTokenMarker = "s3cr3t-t0ken";  // part of every token the fake issues

// A worker's API as far as credentials go: answers POST .../token like the
// TokenRequest API (the token lives until now + expirationSeconds), GETs of
// any ServiceAccount (it exists, uid "uid-sa-NAME"), and keeps Secrets (the
// anchors) in memory: apply, list by one "key=value" label, get and remove.
class TokenClient : public mkq::kube::Client {
 public:
  explicit TokenClient(std::function<Clock::time_point()> now) : now_(std::move(now)) {}

  std::optional<mkq::kube::Error> fail;  // answer this instead (token requests and ServiceAccount GETs)
  std::optional<mkq::kube::Error> fail_apply, fail_list, fail_remove;  // for the anchors
  std::vector<std::string> calls;         // token requests: "POST /api/..."
  std::vector<std::string> object_calls;  // "apply Secret ns/name", "list Secret ns label", "remove Secret ns/name"
  std::vector<Json> bodies;
  std::vector<std::string> tokens;  // every token issued
  std::map<std::string, Json> stored;  // "ns/name" -> Secret

  std::string server() const override { return "https://east.example:6443"; }
  mkq::kube::Result<mkq::kube::ResourceType> resource_for(const std::string&, const std::string&) override {
    return unsupported();
  }
  mkq::kube::Result<Json> get(const mkq::kube::ResourceType& type, const std::string& ns,
                              const std::string& name) override {
    object_calls.push_back("get " + type.kind + " " + ns + "/" + name);
    if (type.kind == "ServiceAccount") {
      if (fail) return *fail;
      return Json{{"apiVersion", "v1"},
                  {"kind", "ServiceAccount"},
                  {"metadata", {{"name", name}, {"namespace", ns}, {"uid", "uid-sa-" + name}}}};
    }
    const auto found = stored.find(ns + "/" + name);
    if (type.kind != "Secret" || found == stored.end()) return not_found(name);
    return found->second;
  }
  mkq::kube::Result<Json> create(const mkq::kube::ResourceType&, const Json&) override { return unsupported(); }
  mkq::kube::Result<Json> update(const mkq::kube::ResourceType&, const Json&) override { return unsupported(); }
  mkq::kube::Result<mkq::kube::ObjectList> list(const mkq::kube::ResourceType& type,
                                                const mkq::kube::ListOptions& options) override {
    object_calls.push_back("list " + type.kind + " " + options.namespace_name + " " + options.label_selector);
    if (fail_list) return *fail_list;
    if (type.kind != "Secret") return unsupported();
    const auto equals = options.label_selector.find('=');
    const std::string key = options.label_selector.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : options.label_selector.substr(equals + 1);
    mkq::kube::ObjectList out;
    for (const auto& [at, secret] : stored) {
      if (secret["metadata"]["namespace"] != options.namespace_name) continue;
      const Json labels = secret["metadata"].value("labels", Json::object());
      if (!options.label_selector.empty() && labels.value(key, std::string("\x01")) != value) continue;
      out.items.push_back(secret);
    }
    return out;
  }
  mkq::kube::Result<Json> apply(const mkq::kube::ResourceType& type, const Json& object,
                                const mkq::kube::ApplyOptions& options) override {
    const std::string at = object["metadata"].value("namespace", std::string()) + "/" +
                           object["metadata"].value("name", std::string());
    object_calls.push_back("apply " + type.kind + " " + at + " by " + options.field_manager);
    if (fail_apply) return *fail_apply;
    if (type.kind != "Secret") return unsupported();
    Json copy = object;
    copy["metadata"]["uid"] = stored.count(at) ? stored[at]["metadata"]["uid"]
                                                : Json("uid-secret-" + std::to_string(++uids_));
    stored[at] = copy;
    return copy;
  }
  mkq::kube::Result<Json> remove(const mkq::kube::ResourceType& type, const std::string& ns,
                                 const std::string& name, const mkq::kube::DeleteOptions&) override {
    object_calls.push_back("remove " + type.kind + " " + ns + "/" + name);
    if (fail_remove) return *fail_remove;
    const auto found = stored.find(ns + "/" + name);
    if (type.kind != "Secret" || found == stored.end()) return not_found(name);
    Json gone = found->second;
    stored.erase(found);
    return gone;
  }
  mkq::kube::Result<void> watch(const mkq::kube::ResourceType&, const mkq::kube::WatchOptions&,
                                const std::function<bool(const mkq::kube::WatchEvent&)>&) override {
    return unsupported();
  }
  // The names of the anchors held for `account`.
  std::vector<std::string> anchors(const std::string& account = "multikueue-sa") const {
    std::vector<std::string> names;
    for (const auto& [at, secret] : stored) {
      if (secret["metadata"].value("labels", Json::object()).value("mkq.dev/credential-anchor", "") == account)
        names.push_back(secret["metadata"]["name"].get<std::string>());
    }
    return names;
  }
  mkq::kube::Result<Json> request(const std::string& method, const std::string& path, const Json* body,
                                  const std::string&) override {
    calls.push_back(method + " " + path);
    if (body != nullptr) bodies.push_back(*body);
    if (fail) return *fail;
    const std::int64_t seconds =
        body != nullptr ? (*body)["spec"]["expirationSeconds"].get<std::int64_t>() : 3600;
    tokens.push_back("eyJhbGciOiJSUzI1NiJ9." + std::string(kTokenMarker) + "-" +
                     std::to_string(tokens.size() + 1) + ".c2ln");
    return Json{{"apiVersion", "authentication.k8s.io/v1"},
                {"kind", "TokenRequest"},
                {"spec", {{"expirationSeconds", seconds}}},
                {"status",
                 {{"token", tokens.back()},
                  {"expirationTimestamp",
                   mkq::credentials::format_rfc3339(now_() + std::chrono::seconds(seconds))}}}};
  }
  mkq::kube::ClientStats stats() const override { return {}; }

 private:
  static mkq::kube::Error unsupported() {
    return mkq::kube::Error{405, "MethodNotAllowed", "not in this fake", nullptr};
  }
  static mkq::kube::Error not_found(const std::string& name) {
    return mkq::kube::Error{404, "NotFound", "secrets \"" + name + "\" not found", nullptr};
  }
  std::function<Clock::time_point()> now_;
  int uids_ = 0;
};

// One worker per mode:
//   east  -- serviceaccount, TokenRequest, defaults (30d, rotate 7d)
//   north -- serviceaccount "multikueue-north", lifetime 2d, rotate_before 1d
//   west  -- kubeconfig from a file
//   south -- serviceaccount with a pre-issued token from env:SOUTH_TOKEN
//   hub   -- clusterprofile
struct World {
  std::filesystem::path dir;
  std::filesystem::path west_file;
  std::unique_ptr<kueuetest::Rendered> rendered;
  mkq::testing::FakeClock clock{at("2026-11-21T10:00:00Z")};
  std::map<std::string, std::string> secrets;  // source -> value, what read_secret answers
  std::map<std::string, std::unique_ptr<TokenClient>> clients;
  std::map<std::string, mkq::kube::Endpoint> endpoints;

  World() {
    dir = std::filesystem::temp_directory_path() /
          ("mkq-credentials-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(dir);
    west_file = dir / "west.kubeconfig";
    const std::string text = R"(manager "m" {}
worker "east" {}
worker "north" {
  credentials { service_account = "multikueue-north", lifetime = 2d, rotate_before = 1d }
}
worker "west" {
  credentials { mode = "kubeconfig", kubeconfig = secret("file:)" +
                             west_file.string() + R"(") }
}
worker "south" {
  credentials { token = secret("env:SOUTH_TOKEN") }
}
worker "hub" {
  credentials { mode = "clusterprofile" }
}
kueue { multikueue { access_provider "google" { command = "/plugins/gke-gcloud-auth-plugin" } } }
)";
    rendered = kueuetest::render_text(text, "creds");
    INFO(rendered->messages());
    REQUIRE(rendered->state);
    for (const std::string worker : {"east", "north", "south", "west", "hub"}) {
      clients[worker] = std::make_unique<TokenClient>([this] { return clock.now(); });
      mkq::kube::Endpoint endpoint;
      endpoint.context = worker + "-ctx";
      endpoint.cluster.server = "https://" + worker + ".example:6443";
      endpoint.cluster.certificate_authority_data = kCaPem;
      endpoint.user.client_certificate_data = "mkq's own certificate";
      endpoints[worker] = endpoint;
    }
  }
  ~World() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  static int& counter() {
    static int n = 0;
    return n;
  }

  const mkq::sema::model::Policy& policy() const { return *rendered->policy; }

  // The desired (placeholder) Secret of a worker, as lowering renders it.
  const mkq::kueue::Object& secret(const std::string& worker) const {
    const auto* manager = kueuetest::find_cluster(*rendered->state, "m");
    REQUIRE(manager != nullptr);
    const auto* object = kueuetest::find_object(*manager, "Secret", worker + "-kubeconfig", "kueue-system");
    REQUIRE(object != nullptr);
    return *object;
  }

  void write_west(const std::string& text) const {
    std::ofstream out(west_file, std::ios::binary | std::ios::trunc);
    out << text;
  }

  std::unique_ptr<mkq::reconcile::CredentialProvider> provider(
      mkq::credentials::ProviderOptions options = {}) {
    std::map<std::string, mkq::credentials::WorkerAccess> access;
    for (auto& [worker, endpoint] : endpoints) access[worker] = {endpoint, clients[worker].get()};
    options.clock = &clock;
    if (!options.read_secret) {
      options.read_secret = [this](const std::string& source) -> mkq::base::Result<std::string> {
        if (source.rfind("file:", 0) == 0) {  // the real file, as written by the test
          std::ifstream in(source.substr(5), std::ios::binary);
          if (!in) return mkq::base::Error::config("cannot open " + source.substr(5));
          return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        const auto found = secrets.find(source);
        if (found == secrets.end()) return mkq::base::Error::config("not set");
        return found->second;
      };
    }
    return mkq::credentials::make_provider(policy(), std::move(access), std::move(options));
  }
};

// The kubeconfig a Secret document holds (data.kubeconfig, base64).
inline std::string kubeconfig_of(const Json& secret) {
  const auto decoded = mkq::credentials::base64_decode(secret.at("data").at("kubeconfig").get<std::string>());
  REQUIRE(decoded);
  return *decoded;
}

// A valid kubeconfig as an admin would give it.
inline std::string given_kubeconfig(const std::string& user_fields, const std::string& cluster_fields = "") {
  return "apiVersion: v1\nkind: Config\nclusters:\n- name: west\n  cluster:\n    server: "
         "https://west.example:6443\n"
         "    certificate-authority-data: " +
         mkq::credentials::base64_encode(kCaPem) + "\n" + cluster_fields +
         "users:\n- name: west-admin\n  user:\n" + user_fields +
         "contexts:\n- name: west\n  context:\n    cluster: west\n    user: west-admin\ncurrent-context: "
         "west\n";
}

}  // namespace credtest
