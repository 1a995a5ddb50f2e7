// Bearer tokens and RBAC through the real HTTPS transport, dropped-connection
// faults, and a MultiKueueCluster whose kubeconfig carries a wrong or
// unprivileged token.
#include <httplib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "sandbox/daemon.h"
#include "sandbox/flow_control.h"
#include "sandbox/identity.h"
#include "sandbox/pki.h"
#include "sandbox/server.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::Cluster;
using mkq::sandbox::testing::admin;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using nlohmann::json;

const mkq::sandbox::Pki& pki() {
  static const mkq::sandbox::Pki generated = [] {
    mkq::sandbox::Pki p;
    std::string error;
    REQUIRE(mkq::sandbox::generate_pki(&p, &error));
    return p;
  }();
  return generated;
}

std::unique_ptr<Cluster> open_cluster() {
  mkq::sandbox::ClusterOptions options;
  options.ca_cert = pki().ca_cert;
  std::string error;
  auto c = Cluster::open("worker1", ":memory:", options, &error);
  REQUIRE(c);
  return c;
}

// Kueue's namespace, the Workload and MultiKueue CRDs, a ServiceAccount and
// (when `bind`) a ClusterRole letting it use Workloads.
void prepare(Cluster& c, bool bind) {
  admin(c, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", kueue_crd("workloads", "Workload", true));
  admin(c, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", kueue_crd("multikueueclusters", "MultiKueueCluster", false));
  admin(c, "POST", "/api/v1/namespaces", {{"metadata", {{"name", "kueue-system"}}}});
  admin(c, "POST", "/api/v1/namespaces/kueue-system/serviceaccounts", {{"metadata", {{"name", "multikueue-sa"}}}});
  if (!bind) return;
  admin(c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "multikueue"}, "rules": [
          {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": ["create", "delete", "get", "list", "watch"]}]})"));
  admin(c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "multikueue"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "multikueue"},
          "subjects": [{"kind": "ServiceAccount", "name": "multikueue-sa", "namespace": "kueue-system"}]})"));
}

std::string token_for(Cluster& c) {
  const auto r = c.handle(request("POST", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa/token",
                                  R"({"spec": {"expirationSeconds": 3600}})"));
  REQUIRE(r.status == 201);
  return body_of(r)["status"]["token"];
}

struct Served {
  std::unique_ptr<Cluster> cluster;
  std::unique_ptr<mkq::sandbox::HttpsServer> server;
  explicit Served(bool bind, mkq::sandbox::FaultOptions faults = {}) : cluster(open_cluster()) {
    prepare(*cluster, bind);
    mkq::sandbox::ServerOptions options;
    options.threads = 8;
    options.faults = std::move(faults);
    server = std::make_unique<mkq::sandbox::HttpsServer>(*cluster, pki(), options);
    std::string error;
    REQUIRE(server->bind(&error));
    server->start();
  }
};

std::unique_ptr<httplib::SSLClient> client(int port) {
  auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port);
  X509_STORE* store = X509_STORE_new();  // owned by the client
  X509_STORE_add_cert(store, mkq::sandbox::read_cert(pki().ca_cert).get());
  c->set_ca_cert_store(store);
  c->enable_server_certificate_verification(true);
  c->set_connection_timeout(5, 0);
  c->set_read_timeout(10, 0);
  return c;
}

// A token kubeconfig for the worker, as create-multikueue-kubeconfig.sh writes it.
std::string token_kubeconfig(int port, const std::string& token) {
  return "apiVersion: v1\nkind: Config\ncurrent-context: w\nclusters:\n- name: w\n  cluster:\n    server: https://127.0.0.1:" +
         std::to_string(port) + "\n    certificate-authority-data: " + mkq::sandbox::base64(pki().ca_cert) +
         "\ncontexts:\n- name: w\n  context:\n    cluster: w\n    user: u\nusers:\n- name: u\n  user:\n    token: " + token + "\n";
}

}  // namespace

TEST_CASE("transport: a service-account token authenticates, RBAC decides, a bad token gets 401", "[sandbox][identity]") {
  Served worker(true);
  const std::string token = token_for(*worker.cluster);
  auto http = client(worker.server->port());

  auto ok = http->Get("/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads", {{"Authorization", "Bearer " + token}});
  REQUIRE(ok);
  CHECK(ok->status == 200);

  auto denied = http->Get("/api/v1/namespaces/kueue-system/secrets", {{"Authorization", "Bearer " + token}});
  REQUIRE(denied);
  CHECK(denied->status == 403);
  CHECK(json::parse(denied->body)["message"] ==
        "secrets is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot list resource \"secrets\" "
        "in API group \"\" in the namespace \"kueue-system\"");

  std::string tampered = token;
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'x' ? 'y' : 'x';
  for (const std::string& bad : {tampered, std::string("garbage"), std::string("a.b.c")}) {
    auto refused = http->Get("/api/v1/namespaces", {{"Authorization", "Bearer " + bad}});
    REQUIRE(refused);
    CHECK(refused->status == 401);
    const json body = json::parse(refused->body);
    CHECK(body["reason"] == "Unauthorized");
    CHECK(body["message"] == "Unauthorized");
    CHECK(body["code"] == 401);
  }

  // Re-creating the ServiceAccount (a new uid) invalidates every token issued for it.
  REQUIRE(worker.cluster->handle(request("DELETE", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa")).status == 200);
  admin(*worker.cluster, "POST", "/api/v1/namespaces/kueue-system/serviceaccounts", {{"metadata", {{"name", "multikueue-sa"}}}});
  auto old = http->Get("/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads", {{"Authorization", "Bearer " + token}});
  REQUIRE(old);
  CHECK(old->status == 401);
  auto fresh = http->Get("/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads",
                         {{"Authorization", "Bearer " + token_for(*worker.cluster)}});
  REQUIRE(fresh);
  CHECK(fresh->status == 200);
}

// The multikueue account may impersonate users (a ClusterRole bound to it).
void let_impersonate_users(Cluster& c) {
  admin(c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "impersonator"}, "rules": [{"apiGroups": [""], "resources": ["users"], "verbs": ["impersonate"]}]})"));
  admin(c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "impersonator"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "impersonator"},
          "subjects": [{"kind": "ServiceAccount", "name": "multikueue-sa", "namespace": "kueue-system"}]})"));
}

TEST_CASE("transport: API Priority and Fairness classifies the impersonated user, as kube-apiserver's filter order does",
          "[sandbox][apf][identity]") {
  Served worker(true);
  const std::string token = token_for(*worker.cluster);
  auto http = client(worker.server->port());
  const std::string path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads";
  const auto header_map = [](const mkq::sandbox::Flow& flow) {
    std::map<std::string, std::string> out;
    for (const auto& [name, value] : mkq::sandbox::flow_headers(flow)) out[name] = value;
    return out;
  };
  const auto as_account = header_map(mkq::sandbox::classify_flow(
      "system:serviceaccount:kueue-system:multikueue-sa", {"system:serviceaccounts", "system:authenticated"}, path));
  const auto as_alice = header_map(mkq::sandbox::classify_flow("alice", {"system:authenticated"}, path));
  REQUIRE(as_account.at("X-Kubernetes-Pf-Flowschema-Uid") != as_alice.at("X-Kubernetes-Pf-Flowschema-Uid"));

  // Without the right to impersonate: the impersonation filter's 403, before APF (no APF headers).
  auto refused = http->Get(path, {{"Authorization", "Bearer " + token}, {"Impersonate-User", "alice"}});
  REQUIRE(refused);
  CHECK(refused->status == 403);
  CHECK(json::parse(refused->body)["message"] ==
        "users \"alice\" is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot impersonate "
        "resource \"users\" in API group \"\" at the cluster scope");
  CHECK_FALSE(refused->has_header("X-Kubernetes-Pf-Flowschema-Uid"));

  let_impersonate_users(*worker.cluster);
  auto own = http->Get(path, {{"Authorization", "Bearer " + token}});
  REQUIRE(own);
  CHECK(own->get_header_value("X-Kubernetes-Pf-Flowschema-Uid") == as_account.at("X-Kubernetes-Pf-Flowschema-Uid"));
  auto as = http->Get(path, {{"Authorization", "Bearer " + token}, {"Impersonate-User", "alice"}});
  REQUIRE(as);
  CHECK(as->status == 403);  // alice may not list workloads
  CHECK(as->get_header_value("X-Kubernetes-Pf-Flowschema-Uid") == as_alice.at("X-Kubernetes-Pf-Flowschema-Uid"));
  CHECK(as->get_header_value("X-Kubernetes-Pf-Prioritylevel-Uid") == as_alice.at("X-Kubernetes-Pf-Prioritylevel-Uid"));
}

// The transport asks Cluster::authorize before it refuses a body as too large
// (an HTTP client writing 4 MiB to a server that answers early sees a reset,
// so e2e.conformance_api checks the whole path with curl).
TEST_CASE("authorize: what authorization alone answers, impersonation resolved, before a body is read",
          "[sandbox][limits][identity]") {
  auto c = open_cluster();
  prepare(*c, true);
  auto anonymous = request("POST", "/api/v1/namespaces/default/configmaps");
  anonymous.user = "system:anonymous";
  anonymous.groups = {"system:unauthenticated"};
  const auto denied = c->authorize(anonymous);
  REQUIRE(denied);
  CHECK(denied->status == 403);
  CHECK(body_of(*denied)["message"] ==
        "configmaps is forbidden: User \"system:anonymous\" cannot create resource \"configmaps\" in API group \"\" "
        "in the namespace \"default\"");
  auto account = request("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads");
  account.user = "system:serviceaccount:kueue-system:multikueue-sa";
  account.groups = {"system:serviceaccounts", "system:serviceaccounts:kueue-system", "system:authenticated"};
  CHECK_FALSE(c->authorize(account));
  auto as_account = request("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads");
  as_account.headers["impersonate-user"] = account.user;
  CHECK_FALSE(c->authorize(as_account));  // the admin may impersonate; the account may create
  account.path = "/api/v1/namespaces/kueue-system/configmaps";
  CHECK(c->authorize(account)->status == 403);
}

TEST_CASE("token review: the sandbox's tokens are authenticated with the account's name, uid and groups",
          "[sandbox][identity]") {
  auto c = open_cluster();
  prepare(*c, false);
  const std::string token = token_for(*c);
  const std::string path = "/apis/authentication.k8s.io/v1/tokenreviews";
  const auto review = [&](const json& spec) {
    return c->handle(request("POST", path, json({{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenReview"}, {"spec", spec}}).dump()));
  };
  auto ok = review({{"token", token}});
  REQUIRE(ok.status == 201);
  const json status = body_of(ok)["status"];
  const json account = body_of(c->handle(request("GET", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa")));
  CHECK(status["authenticated"] == true);
  CHECK(status["user"]["username"] == "system:serviceaccount:kueue-system:multikueue-sa");
  CHECK(status["user"]["uid"] == account["metadata"]["uid"]);
  CHECK(status["user"]["groups"] ==
        json::parse(R"(["system:serviceaccounts", "system:serviceaccounts:kueue-system", "system:authenticated"])"));
  CHECK(status["audiences"] == json::array({"https://kubernetes.default.svc.cluster.local"}));
  CHECK(body_of(ok)["kind"] == "TokenReview");

  auto unknown = review({{"token", "garbage"}});
  REQUIRE(unknown.status == 201);
  CHECK(body_of(unknown)["status"] == json({{"user", json::object()}}));
  auto elsewhere = review({{"token", token}, {"audiences", {"vault"}}});
  REQUIRE(elsewhere.status == 201);
  CHECK_FALSE(body_of(elsewhere)["status"].contains("authenticated"));
  CHECK(body_of(elsewhere)["status"]["error"] ==
        "[invalid bearer token, token audiences [\"https://kubernetes.default.svc.cluster.local\"] is invalid for the "
        "target audiences [\"vault\"]]");
  auto empty = review(json::object());
  CHECK(empty.status == 400);
  CHECK(body_of(empty)["message"] == "token is required for TokenReview in authentication");
}

TEST_CASE("transport: dropped-connection faults close the connection without an answer", "[sandbox][faults]") {
  mkq::sandbox::FaultOptions faults;
  faults.rate_drop = 1.0;
  faults.verbs = {"post"};
  Served worker(false, faults);
  mkq::sandbox::CertPtr cert = mkq::sandbox::read_cert(pki().admin_cert);
  mkq::sandbox::KeyPtr key = mkq::sandbox::read_key(pki().admin_key);
  httplib::SSLClient admin_client("127.0.0.1", worker.server->port(), cert.get(), key.get());
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, mkq::sandbox::read_cert(pki().ca_cert).get());
  admin_client.set_ca_cert_store(store);
  admin_client.enable_server_certificate_verification(true);
  admin_client.set_connection_timeout(5, 0);
  admin_client.set_read_timeout(5, 0);

  auto dropped = admin_client.Post("/api/v1/namespaces", R"({"metadata": {"name": "x"}})", "application/json");
  CHECK_FALSE(dropped);  // no response at all
  CHECK(dropped.error() != httplib::Error::Success);
  // Other verbs (and health) are untouched.
  auto listed = admin_client.Get("/api/v1/namespaces");
  REQUIRE(listed);
  CHECK(listed->status == 200);
  // The dropped request never reached the cluster.
  CHECK(worker.cluster->handle(request("GET", "/api/v1/namespaces/x")).status == 404);
}

TEST_CASE("controllers: a MultiKueueCluster with a wrong or unprivileged token is not Connected", "[sandbox][controllers][identity]") {
  Served worker(false);  // the ServiceAccount exists but has no permissions yet
  const std::string token = token_for(*worker.cluster);

  auto manager = open_cluster();
  admin(*manager, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        kueue_crd("multikueueclusters", "MultiKueueCluster", false));
  admin(*manager, "POST", "/api/v1/namespaces", {{"metadata", {{"name", "kueue-system"}}}});
  const auto set_kubeconfig = [&](const std::string& kubeconfig) {
    const json secret = {{"apiVersion", "v1"},
                         {"kind", "Secret"},
                         {"metadata", {{"name", "worker1-secret"}}},
                         {"data", {{"kubeconfig", mkq::sandbox::base64(kubeconfig)}}}};
    const auto put = manager->handle(request("PUT", "/api/v1/namespaces/kueue-system/secrets/worker1-secret", secret.dump()));
    if (put.status == 404) admin(*manager, "POST", "/api/v1/namespaces/kueue-system/secrets", secret);
  };
  set_kubeconfig(token_kubeconfig(worker.server->port(), "wrong-token"));
  admin(*manager, "POST", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters",
        {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
         {"kind", "MultiKueueCluster"},
         {"metadata", {{"name", "worker1"}}},
         {"spec", {{"clusterSource", {{"kubeConfig", {{"locationType", "Secret"}, {"location", "worker1-secret"}}}}}}}});

  const auto wait_for = [&](const std::string& reason, const std::string& message_part) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    json cond;
    while (std::chrono::steady_clock::now() < deadline) {
      const json mkc = body_of(manager->handle(request("GET", "/apis/kueue.x-k8s.io/v1beta2/multikueueclusters/worker1")));
      for (const auto& c : mkc.value("status", json::object()).value("conditions", json::array())) {
        if (c.value("type", "") == "Active") cond = c;
      }
      if (cond.is_object() && cond.value("reason", "") == reason &&
          cond.value("message", "").find(message_part) != std::string::npos) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return cond;
  };

  json cond = wait_for("ClientConnectionFailed", "Unauthorized");
  CHECK(cond.value("status", "") == "False");
  CHECK(cond.value("reason", "") == "ClientConnectionFailed");
  CHECK(cond.value("message", "") == "Unauthorized");

  // A valid token without RBAC: Kueue's list of Workloads is forbidden.
  set_kubeconfig(token_kubeconfig(worker.server->port(), token));
  cond = wait_for("ClientConnectionFailed", "forbidden");
  CHECK(cond.value("message", "") ==
        "workloads.kueue.x-k8s.io is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot list "
        "resource \"workloads\" in API group \"kueue.x-k8s.io\" at the cluster scope");

  // list but not watch: the watch is refused.
  admin(*worker.cluster, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "mk"}, "rules": [
          {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": ["get", "list"]}]})"));
  admin(*worker.cluster, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "mk"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "mk"},
          "subjects": [{"kind": "ServiceAccount", "name": "multikueue-sa", "namespace": "kueue-system"}]})"));
  cond = wait_for("ClientConnectionFailed", "cannot watch");
  CHECK(cond.value("message", "").find("cannot watch resource \"workloads\"") != std::string::npos);

  // With the permissions MultiKueue needs, Connected.
  admin(*worker.cluster, "PUT", "/apis/rbac.authorization.k8s.io/v1/clusterroles/mk",
        json::parse(R"({"metadata": {"name": "mk"}, "rules": [
          {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": ["get", "list", "watch"]}]})"));
  cond = wait_for("Active", "Connected");
  CHECK(cond.value("status", "") == "True");
  CHECK(cond.value("message", "") == "Connected");
}
