// runtime/credentials against the sandbox's identity (transport-free: requests
// go to sandbox::Cluster::handle as the HTTPS transport would hand them over):
// the worker's lowered ServiceAccount and RBAC, a real TokenRequest, and what
// the issued credential may do on the worker.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <tuple>

#include "sandbox/api.h"
#include "sandbox/identity.h"
#include "tests/sandbox/api_test_support.h"
#include "tests/credentials/credentials_test_support.h"

namespace {

using credtest::Json;
using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;

ApiRequest api_request(const std::string& method, const std::string& path, const std::string& body,
                       const std::string& user, const std::vector<std::string>& groups) {
  ApiRequest r;
  r.method = method;
  r.path = path;
  r.body = body;
  r.headers["content-type"] = "application/json";
  r.headers["accept"] = "application/json";
  r.user = user;
  r.groups = groups;
  return r;
}

// mkq's admin client of the worker, over Cluster::handle (only request() is needed).
class SandboxClient : public credtest::TokenClient {
 public:
  explicit SandboxClient(Cluster& cluster)
      : TokenClient([] { return credtest::Clock::now(); }), cluster_(cluster) {}
  mkq::kube::Result<Json> request(const std::string& method, const std::string& path, const Json* body,
                                  const std::string&) override {
    const ApiResponse answer =
        cluster_.handle(api_request(method, path, body ? body->dump() : "", "admin", {"system:masters"}));
    const Json document = Json::parse(answer.body, nullptr, false);
    if (answer.status >= 200 && answer.status < 300) return document;
    mkq::kube::Error error{answer.status, document.is_object() ? document.value("reason", "") : "",
                           document.is_object() ? document.value("message", "") : answer.body, nullptr};
    return error;
  }
  // The worker's core objects (ServiceAccounts, the anchor Secrets), as mkq's admin.
  mkq::kube::Result<Json> get(const mkq::kube::ResourceType& type, const std::string& ns,
                              const std::string& name) override {
    return request("GET", "/api/v1/namespaces/" + ns + "/" + type.plural + "/" + name, nullptr, "");
  }
  mkq::kube::Result<mkq::kube::ObjectList> list(const mkq::kube::ResourceType& type,
                                                const mkq::kube::ListOptions& options) override {
    ApiRequest r = api_request("GET", "/api/v1/namespaces/" + options.namespace_name + "/" + type.plural, "",
                               "admin", {"system:masters"});
    if (!options.label_selector.empty()) r.query.emplace("labelSelector", options.label_selector);
    const ApiResponse answer = cluster_.handle(r);
    const Json document = Json::parse(answer.body, nullptr, false);
    if (answer.status != 200) return mkq::kube::Error{answer.status, "", answer.body, nullptr};
    mkq::kube::ObjectList out;
    for (const Json& item : document["items"]) out.items.push_back(item);
    return out;
  }
  mkq::kube::Result<Json> apply(const mkq::kube::ResourceType& type, const Json& object,
                                const mkq::kube::ApplyOptions& options) override {
    ++applies;
    ApiRequest r = api_request("PATCH",
                               "/api/v1/namespaces/" + object["metadata"]["namespace"].get<std::string>() + "/" +
                                   type.plural + "/" + object["metadata"]["name"].get<std::string>(),
                               object.dump(), "admin", {"system:masters"});
    r.headers["content-type"] = "application/apply-patch+yaml";
    r.query.emplace("fieldManager", options.field_manager);
    const ApiResponse answer = cluster_.handle(r);
    if (answer.status != 200 && answer.status != 201)
      return mkq::kube::Error{answer.status, "", answer.body, nullptr};
    return Json::parse(answer.body);
  }
  mkq::kube::Result<Json> remove(const mkq::kube::ResourceType& type, const std::string& ns,
                                 const std::string& name, const mkq::kube::DeleteOptions&) override {
    if (fail_remove) return *fail_remove;
    return request("DELETE", "/api/v1/namespaces/" + ns + "/" + type.plural + "/" + name, nullptr, "");
  }
  int applies = 0;

 private:
  Cluster& cluster_;
};

std::string collection_path(const mkq::kueue::Object& object) {
  if (object.kind == "Namespace") return "/api/v1/namespaces";
  if (object.kind == "ServiceAccount")
    return "/api/v1/namespaces/" + object.namespace_name + "/serviceaccounts";
  if (object.kind == "ClusterRole") return "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  if (object.kind == "ClusterRoleBinding") return "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings";
  return "";
}

int as_user(Cluster& cluster, const mkq::sandbox::TokenIdentity& who, const std::string& method,
            const std::string& path, const std::string& body = "") {
  return cluster.handle(api_request(method, path, body, who.user, who.groups)).status;
}

std::string token_in(const Json& secret) {
  return YAML::Load(credtest::kubeconfig_of(secret))["users"][0]["user"]["token"].as<std::string>();
}

}  // namespace

TEST_CASE("sandbox: the issued token is the worker's least-privilege ServiceAccount",
          "[credentials][sandbox]") {
  mkq::sandbox::ClusterOptions options;
  options.service_account_key = mkq::sandbox::generate_signing_key();
  std::string error;
  auto worker = Cluster::open("east", ":memory:", options, &error);
  INFO(error);
  REQUIRE(worker);

  credtest::World world;
  for (const auto& [plural, kind, namespaced] :
       {std::tuple{"workloads", "Workload", true}, std::tuple{"clusterqueues", "ClusterQueue", false}}) {
    const ApiResponse crd =
        worker->handle(api_request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                                   mkq::sandbox::testing::kueue_crd(plural, kind, namespaced).dump(), "admin", {"system:masters"}));
    INFO(crd.body);
    REQUIRE(crd.status == 201);
  }
  // The worker's objects as lowering renders them: Kueue's namespace first.
  const Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "kueue-system"}}}};
  REQUIRE(worker->handle(api_request("POST", "/api/v1/namespaces", ns.dump(), "admin", {"system:masters"}))
              .status == 201);
  const auto* east = kueuetest::find_cluster(*world.rendered->state, "east");
  REQUIRE(east != nullptr);
  int credential_objects = 0;
  for (const mkq::kueue::Object& object : east->objects) {
    const std::string path = collection_path(object);
    if (path.empty() || object.name == "kueue-system") continue;
    const ApiResponse created =
        worker->handle(api_request("POST", path, object.document.dump(), "admin", {"system:masters"}));
    INFO(object.kind + " " + object.name + ": " + created.body);
    CHECK(created.status == 201);
    ++credential_objects;
  }
  CHECK(credential_objects == 3);  // ServiceAccount, ClusterRole, ClusterRoleBinding

  SandboxClient client(*worker);
  std::map<std::string, mkq::credentials::WorkerAccess> access;
  access["east"] = {world.endpoints["east"], &client};
  auto provider = mkq::credentials::make_provider(world.policy(), access, {});  // the real clock

  const auto result = provider->issue("m", world.secret("east"), nullptr);
  INFO((result.ok() ? std::string() : result.error().message));
  REQUIRE(result.ok());
  const Json secret = result.value();
  const auto expires = mkq::credentials::parse_rfc3339(
      secret["metadata"]["annotations"]["mkq.dev/credential-expires"].get<std::string>());
  REQUIRE(expires);
  const auto lifetime = *expires - credtest::Clock::now();
  CHECK(lifetime > std::chrono::hours(24 * 30) - std::chrono::minutes(5));
  CHECK(lifetime <= std::chrono::hours(24 * 30));
  CHECK_FALSE(provider->decide("m", world.secret("east"), &secret, nullptr).issue);

  const std::string token = token_in(secret);
  const auto who = worker->authenticate_token(token);
  REQUIRE(who);
  CHECK(who->user == "system:serviceaccount:kueue-system:multikueue-sa");

  // What MultiKueue needs (Workloads) ...
  CHECK(as_user(*worker, *who, "GET", "/apis/kueue.x-k8s.io/v1beta2/workloads") == 200);
  const Json workload = {
      {"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "Workload"}, {"metadata", {{"name", "w"}}}};
  CHECK(as_user(*worker, *who, "POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads",
                workload.dump()) == 201);
  CHECK(as_user(*worker, *who, "DELETE", "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads/w") ==
        200);
  // The enabled job kinds (batch/v1 Jobs by default): the worker's token
  // creates, reads and deletes them.
  const Json job = {{"apiVersion", "batch/v1"},
                    {"kind", "Job"},
                    {"metadata", {{"name", "j"}}},
                    {"spec",
                     {{"template",
                       {{"spec",
                         {{"restartPolicy", "Never"},
                          {"containers", Json::array({{{"name", "c"}, {"image", "busybox"}}})}}}}}}}};
  CHECK(as_user(*worker, *who, "GET", "/apis/batch/v1/namespaces/default/jobs") == 200);
  CHECK(as_user(*worker, *who, "GET", "/apis/batch/v1/namespaces/default/jobs/j") == 404);
  CHECK(as_user(*worker, *who, "POST", "/apis/batch/v1/namespaces/default/jobs", job.dump()) == 201);
  CHECK(as_user(*worker, *who, "GET", "/apis/batch/v1/namespaces/default/jobs/j") == 200);
  CHECK(as_user(*worker, *who, "DELETE", "/apis/batch/v1/namespaces/default/jobs/j") == 200);
  CHECK(as_user(*worker, *who, "GET", "/apis/batch/v1/namespaces/default/cronjobs") == 403);
  // ... and nothing else.
  const Json queue = {
      {"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"}, {"metadata", {{"name", "q"}}}};
  CHECK(as_user(*worker, *who, "POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", queue.dump()) == 403);
  CHECK(as_user(*worker, *who, "GET", "/api/v1/namespaces/kueue-system/secrets") == 403);
  CHECK(as_user(*worker, *who, "POST", "/api/v1/namespaces", Json{{"metadata", {{"name", "x"}}}}.dump()) ==
        403);
  CHECK(as_user(*worker, *who, "GET", "/api/v1/namespaces/kueue-system/serviceaccounts") == 403);

  SECTION("the token is bound to an anchor Secret mkq made on the worker") {
    const std::string anchor = secret["metadata"]["annotations"]["mkq.dev/credential-anchor"].get<std::string>();
    CHECK_THAT(anchor, Catch::Matches("multikueue-sa-token-[0-9]{14}-[0-9a-f]{8}"));
    const ApiResponse got = worker->handle(api_request("GET", "/api/v1/namespaces/kueue-system/secrets/" + anchor,
                                                       "", "admin", {"system:masters"}));
    REQUIRE(got.status == 200);
    const Json held = Json::parse(got.body);
    CHECK(held["type"] == "Opaque");
    CHECK_FALSE(held.contains("data"));
    CHECK(held["metadata"]["labels"] ==
          Json{{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/credential-anchor", "multikueue-sa"}});
    CHECK(held["metadata"]["annotations"]["mkq.dev/credential-for"] == "kueue-system/east-kubeconfig");
    CHECK(held["metadata"]["ownerReferences"][0]["kind"] == "ServiceAccount");
    CHECK(held["metadata"]["ownerReferences"][0]["name"] == "multikueue-sa");
    // Deleting the anchor revokes the token.
    REQUIRE(worker
                ->handle(api_request("DELETE", "/api/v1/namespaces/kueue-system/secrets/" + anchor, "", "admin",
                                     {"system:masters"}))
                .status == 200);
    CHECK_FALSE(worker->authenticate_token(token));
    // ... and the next plan sees it: the credential is re-issued.
    auto fresh = mkq::credentials::make_provider(world.policy(), access, {});
    const auto decision = fresh->decide("m", world.secret("east"), &secret, nullptr);
    CHECK(decision.issue);
    CHECK(decision.reason() == "its anchor Secret is gone (token revoked)");
  }

  SECTION("rotation: storing the new credential revokes the old token; the ServiceAccount stays") {
    CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
    CHECK(worker->authenticate_token(token));  // the first credential: nothing older to revoke
    const std::string sa_before =
        worker->handle(api_request("GET", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa", "",
                                   "admin", {"system:masters"}))
            .body;

    const auto again = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE(again.ok());
    const std::string second = token_in(again.value());
    CHECK(second != token);
    CHECK(worker->authenticate_token(token));  // both valid until the new one is stored: no gap
    CHECK(worker->authenticate_token(second));
    CHECK(provider->settled("m", world.secret("east"), true, nullptr).ok());
    CHECK_FALSE(worker->authenticate_token(token));  // 401 from now on
    CHECK(worker->authenticate_token(second));
    CHECK(Json::parse(worker
                          ->handle(api_request("GET",
                                               "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa",
                                               "", "admin", {"system:masters"}))
                          .body)["metadata"]["uid"] == Json::parse(sa_before)["metadata"]["uid"]);

    // A credential the manager could not store is revoked at once; the stored one keeps working.
    const auto third = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE(third.ok());
    const std::string unstored = token_in(third.value());
    CHECK(worker->authenticate_token(unstored));
    CHECK(provider->settled("m", world.secret("east"), false, nullptr).ok());
    CHECK_FALSE(worker->authenticate_token(unstored));
    CHECK(worker->authenticate_token(second));
    // One anchor left: the stored credential's.
    ApiRequest listing = api_request("GET", "/api/v1/namespaces/kueue-system/secrets", "", "admin",
                                     {"system:masters"});
    listing.query.emplace("labelSelector", "mkq.dev/credential-anchor=multikueue-sa");
    const Json anchors = Json::parse(worker->handle(listing).body)["items"];
    REQUIRE(anchors.size() == 1);
    CHECK(anchors[0]["metadata"]["name"] == again.value()["metadata"]["annotations"]["mkq.dev/credential-anchor"]);
    // The next plan finds the stored credential current.
    auto fresh = mkq::credentials::make_provider(world.policy(), access, {});
    CHECK_FALSE(fresh->decide("m", world.secret("east"), &again.value(), nullptr).issue);
  }

  SECTION("an anchor that cannot be deleted is reported, never a token") {
    const auto again = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE(again.ok());
    client.fail_remove = mkq::kube::Error{500, "InternalError", "etcd is down", nullptr};
    const mkq::base::Result<void> settled = provider->settled("m", world.secret("east"), true, nullptr);
    REQUIRE_FALSE(settled.ok());
    CHECK(settled.error().address == "m/Secret/kueue-system/east-kubeconfig");
    const std::string& message = settled.error().message;
    CHECK_THAT(message, Catch::StartsWith("a previous token of serviceaccount kueue-system/multikueue-sa is still "
                                          "valid until the next apply revokes it: cannot delete the anchor Secret "
                                          "kueue-system/multikueue-sa-token-"));
    CHECK_THAT(message, Catch::EndsWith(" on worker east: etcd is down"));
    CHECK(message.find(token) == std::string::npos);
    CHECK(worker->authenticate_token(token));
  }

  SECTION("no ServiceAccount: a 404 naming the worker") {
    const int applies = client.applies;
    REQUIRE(
        worker
            ->handle(api_request("DELETE", "/api/v1/namespaces/kueue-system/serviceaccounts/multikueue-sa",
                                 "", "admin", {"system:masters"}))
            .status == 200);
    const auto missing = provider->issue("m", world.secret("east"), nullptr);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().status == 404);
    CHECK_THAT(missing.error().message,
               Catch::StartsWith("worker east: serviceaccount kueue-system/multikueue-sa not found: "));
    CHECK(client.applies == applies);  // no anchor left behind
  }
}
