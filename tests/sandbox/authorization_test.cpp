// Authorization as kube-apiserver does it (issue 16.4): anonymous requests,
// impersonation and its RBAC checks, the review APIs behind `kubectl auth`,
// the bootstrap ClusterRoles and their aggregation; and deletes (16.2/16.3):
// dryRun in the DeleteOptions body, the Status answers.
#include <catch2/catch.hpp>

#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::testing::admin;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using mkq::sandbox::testing::team_cluster;
using nlohmann::json;

ApiRequest as(std::string user, std::vector<std::string> groups, ApiRequest r) {
  r.user = std::move(user);
  r.groups = std::move(groups);
  return r;
}

ApiRequest anonymous(ApiRequest r) { return as("system:anonymous", {"system:unauthenticated"}, std::move(r)); }
ApiRequest alice(ApiRequest r) { return as("alice", {"dev", "system:authenticated"}, std::move(r)); }

json ssar(Cluster& c, ApiRequest base, const json& attributes) {
  base.method = "POST";
  base.path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
  base.body = json{{"apiVersion", "authorization.k8s.io/v1"}, {"kind", "SelfSubjectAccessReview"}, {"spec", attributes}}.dump();
  const ApiResponse r = c.handle(base);
  INFO(r.body);
  REQUIRE(r.status == 201);
  return body_of(r);
}

}  // namespace

TEST_CASE("anonymous: health and /version for everyone, 403 naming system:anonymous elsewhere", "[sandbox][authz]") {
  auto c = team_cluster();
  for (const char* path : {"/version", "/healthz", "/readyz", "/livez"}) {
    INFO(path);
    CHECK(c->handle(anonymous(request("GET", path))).status == 200);
  }
  const ApiResponse api = c->handle(anonymous(request("GET", "/api")));
  CHECK(api.status == 403);
  CHECK(body_of(api)["message"] == "forbidden: User \"system:anonymous\" cannot get path \"/api\"");
  const ApiResponse list = c->handle(anonymous(request("GET", "/api/v1/namespaces")));
  CHECK(list.status == 403);
  CHECK(body_of(list)["message"] ==
        "namespaces is forbidden: User \"system:anonymous\" cannot list resource \"namespaces\" in API group \"\" at the cluster scope");
  // Discovery is system:discovery's, bound to system:authenticated.
  CHECK(c->handle(alice(request("GET", "/api"))).status == 200);
  CHECK(c->handle(alice(request("GET", "/apis"))).status == 200);
}

TEST_CASE("impersonation: checked with RBAC's impersonate verb, then the request runs as the impersonated user", "[sandbox][authz]") {
  auto c = team_cluster();
  admin(*c, "POST", "/api/v1/namespaces/team/secrets", {{"metadata", {{"name", "s"}}}});

  // A master impersonating a service account: the account's own rights apply.
  auto r = request("GET", "/api/v1/namespaces/team/secrets");
  r.headers["impersonate-user"] = "system:serviceaccount:team:robot";
  const ApiResponse denied = c->handle(r);
  CHECK(denied.status == 403);
  CHECK(body_of(denied)["message"] ==
        "secrets is forbidden: User \"system:serviceaccount:team:robot\" cannot list resource \"secrets\" in API group \"\" in "
        "the namespace \"team\"");

  // A user without the impersonate verb is refused, naming what they may not impersonate.
  auto by_alice = alice(request("GET", "/api/v1/namespaces"));
  by_alice.headers["impersonate-user"] = "bob";
  const ApiResponse refused = c->handle(by_alice);
  CHECK(refused.status == 403);
  CHECK(body_of(refused)["message"] ==
        "users \"bob\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope");
  auto sa_by_alice = alice(request("GET", "/api/v1/namespaces"));
  sa_by_alice.headers["impersonate-user"] = "system:serviceaccount:team:robot";
  CHECK(body_of(c->handle(sa_by_alice))["message"] ==
        "serviceaccounts \"robot\" is forbidden: User \"alice\" cannot impersonate resource \"serviceaccounts\" in API group "
        "\"\" in the namespace \"team\"");

  // Given impersonate on users "bob" and groups "readers", alice acts as bob in readers.
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "impersonator"}, "rules": [
          {"apiGroups": [""], "resources": ["users"], "verbs": ["impersonate"], "resourceNames": ["bob"]},
          {"apiGroups": [""], "resources": ["groups"], "verbs": ["impersonate"], "resourceNames": ["readers"]}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "impersonator"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "impersonator"},
          "subjects": [{"kind": "User", "name": "alice"}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "readers-view"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
          "subjects": [{"kind": "Group", "name": "readers"}]})"));
  auto who = alice(request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})"));
  who.headers["impersonate-user"] = "bob";
  who.headers["impersonate-group"] = "readers";
  const ApiResponse whoami = c->handle(who);
  REQUIRE(whoami.status == 201);
  CHECK(body_of(whoami)["status"]["userInfo"] == json{{"username", "bob"}, {"groups", {"readers", "system:authenticated"}}});
  auto read = alice(request("GET", "/api/v1/namespaces/team/configmaps"));
  read.headers["impersonate-user"] = "bob";
  read.headers["impersonate-group"] = "readers";
  CHECK(c->handle(read).status == 200);
  read.headers["impersonate-group"] = "readers,system:masters";
  CHECK(body_of(c->handle(read))["message"] ==
        "groups \"system:masters\" is forbidden: User \"alice\" cannot impersonate resource \"groups\" in API group \"\" at the "
        "cluster scope");

  // Groups without a user: upstream's internal error.
  auto groups_only = request("GET", "/api/v1/namespaces");
  groups_only.headers["impersonate-group"] = "readers";
  const ApiResponse no_user = c->handle(groups_only);
  CHECK(no_user.status == 500);
  CHECK(body_of(no_user)["reason"] == "InternalError");
}

TEST_CASE("SelfSubjectAccessReview, SubjectAccessReview and SelfSubjectRulesReview answer from RBAC", "[sandbox][authz]") {
  auto c = team_cluster();
  const json cm_create = {{"resourceAttributes", {{"namespace", "team"}, {"verb", "create"}, {"resource", "configmaps"}}}};
  CHECK(ssar(*c, request("POST", ""), cm_create)["status"] == json{{"allowed", true}});  // system:masters: no reason
  CHECK(ssar(*c, alice(request("POST", "")), cm_create)["status"] == json{{"allowed", false}});
  const json api = ssar(*c, alice(request("POST", "")), {{"nonResourceAttributes", {{"path", "/api"}, {"verb", "get"}}}});
  CHECK(api["status"]["allowed"] == true);
  CHECK(api["status"]["reason"] ==
        "RBAC: allowed by ClusterRoleBinding \"system:discovery\" of ClusterRole \"system:discovery\" to Group \"system:authenticated\"");
  CHECK(api["metadata"] == json{{"creationTimestamp", nullptr}});
  CHECK(api["kind"] == "SelfSubjectAccessReview");

  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings",
        json::parse(R"({"metadata": {"name": "robot-edit"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "edit"},
          "subjects": [{"kind": "ServiceAccount", "name": "robot"}]})"));
  const ApiResponse sar = c->handle(request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews",
                                            json{{"spec",
                                                  {{"user", "system:serviceaccount:team:robot"},
                                                   {"groups", {"system:serviceaccounts"}},
                                                   {"resourceAttributes", {{"namespace", "team"}, {"verb", "create"}, {"resource", "configmaps"}}}}}}
                                                .dump()));
  REQUIRE(sar.status == 201);
  CHECK(body_of(sar)["status"] ==
        json{{"allowed", true},
             {"reason", "RBAC: allowed by RoleBinding \"robot-edit/team\" of ClusterRole \"edit\" to ServiceAccount \"robot/team\""}});
  // A SubjectAccessReview is for those allowed to create one.
  CHECK(c->handle(alice(request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", "{}"))).status == 403);
  CHECK(c->handle(anonymous(request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "{}"))).status == 403);
  const ApiResponse missing = c->handle(alice(request("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "{}")));
  CHECK(missing.status == 422);

  const ApiResponse rules = c->handle(alice(request("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                                                    R"({"spec": {"namespace": "team"}})")));
  REQUIRE(rules.status == 201);
  const json status = body_of(rules)["status"];
  CHECK(status["incomplete"] == false);
  CHECK(status["resourceRules"].size() == 2);  // system:basic-user's two rules
  CHECK(status["nonResourceRules"].size() == 2);  // system:discovery and system:public-info-viewer

  // Discovery serves them as create-only.
  const json authz = body_of(c->handle(request("GET", "/apis/authorization.k8s.io/v1")));
  for (const auto& resource : authz["resources"]) CHECK(resource["verbs"] == json::array({"create"}));
  CHECK(c->handle(request("GET", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).status == 405);
}

TEST_CASE("the default ClusterRoles exist and admin, edit and view aggregate by label", "[sandbox][authz]") {
  auto c = team_cluster();
  for (const char* name : {"cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user",
                           "system:public-info-viewer", "system:aggregate-to-view"}) {
    INFO(name);
    CHECK(c->handle(request("GET", std::string("/apis/rbac.authorization.k8s.io/v1/clusterroles/") + name)).status == 200);
  }
  const auto rules_of = [&c](const char* name) {
    return body_of(c->handle(request("GET", std::string("/apis/rbac.authorization.k8s.io/v1/clusterroles/") + name)))["rules"];
  };
  const json view = body_of(c->handle(request("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/view")));
  CHECK(view["metadata"]["labels"]["rbac.authorization.k8s.io/aggregate-to-edit"] == "true");
  CHECK(view["aggregationRule"]["clusterRoleSelectors"][0]["matchLabels"]["rbac.authorization.k8s.io/aggregate-to-view"] == "true");
  CHECK(rules_of("view") == rules_of("system:aggregate-to-view"));
  CHECK(rules_of("edit").size() == rules_of("system:aggregate-to-edit").size() + rules_of("view").size());
  CHECK(rules_of("admin").size() == rules_of("edit").size() + rules_of("system:aggregate-to-admin").size());

  // A ClusterRole labelled aggregate-to-view reaches view, edit and admin.
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "kueue-view", "labels": {"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
          "rules": [{"apiGroups": ["kueue.x-k8s.io"], "resources": ["localqueues"], "verbs": ["get", "list", "watch"]}]})"));
  const json added = {{"apiGroups", {"kueue.x-k8s.io"}}, {"resources", {"localqueues"}}, {"verbs", {"get", "list", "watch"}}};
  for (const char* name : {"view", "edit", "admin"}) {
    INFO(name);
    const json rules = rules_of(name);
    CHECK(std::find(rules.begin(), rules.end(), added) != rules.end());
  }
}

TEST_CASE("delete: dryRun in the DeleteOptions body deletes nothing, for any kind", "[sandbox][delete]") {
  auto c = team_cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            kueue_crd("workloads", "Workload", true).dump()))
              .status == 201);
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "cm"}}}});
  admin(*c, "POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads", {{"metadata", {{"name", "w"}}}});
  const std::string dry = R"({"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]})";
  for (const char* path : {"/api/v1/namespaces/team/configmaps/cm", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads/w",
                           "/api/v1/namespaces/team", "/api/v1/namespaces/team/configmaps",
                           "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/workloads.kueue.x-k8s.io"}) {
    INFO(path);
    CHECK(c->handle(request("DELETE", path, dry)).status == 200);
  }
  CHECK(c->handle(request("DELETE", "/api/v1/namespaces/team", "", {{"dryRun", "All"}})).status == 200);
  CHECK(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/cm")).status == 200);
  CHECK(c->handle(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads/w")).status == 200);
  const json ns = body_of(c->handle(request("GET", "/api/v1/namespaces/team")));
  CHECK(ns["status"]["phase"] == "Active");
  CHECK_FALSE(ns["metadata"].contains("deletionTimestamp"));
  // The dry-run answer shows what a delete would do.
  const json preview = body_of(c->handle(request("DELETE", "/api/v1/namespaces/team", dry)));
  CHECK(preview["status"]["phase"] == "Terminating");
}

TEST_CASE("delete: Status{Success} for the generic store's kinds, the object for those that return it", "[sandbox][delete]") {
  auto c = team_cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            kueue_crd("workloads", "Workload", true).dump()))
              .status == 201);
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "cm"}}}});
  const std::string uid = body_of(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/cm")))["metadata"]["uid"];
  const json cm = body_of(c->handle(request("DELETE", "/api/v1/namespaces/team/configmaps/cm")));
  CHECK(cm == json{{"kind", "Status"},
                   {"apiVersion", "v1"},
                   {"metadata", json::object()},
                   {"status", "Success"},
                   {"details", {{"name", "cm"}, {"kind", "configmaps"}, {"uid", uid}}}});
  admin(*c, "POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads", {{"metadata", {{"name", "w"}}}});
  const json w = body_of(c->handle(request("DELETE", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads/w")));
  CHECK(w["kind"] == "Status");
  CHECK(w["details"]["group"] == "kueue.x-k8s.io");
  CHECK(w["details"]["kind"] == "workloads");
  // Pending on a finalizer: the object, marked for deletion.
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "held"}, {"finalizers", {"example.com/x"}}}}});
  const json held = body_of(c->handle(request("DELETE", "/api/v1/namespaces/team/configmaps/held")));
  CHECK(held["kind"] == "ConfigMap");
  CHECK(held["metadata"].contains("deletionTimestamp"));
  // ServiceAccounts (ReturnDeletedObject) and namespaces return the object.
  CHECK(body_of(c->handle(request("DELETE", "/api/v1/namespaces/team/serviceaccounts/robot")))["kind"] == "ServiceAccount");
  CHECK(body_of(c->handle(request("DELETE", "/api/v1/namespaces/team")))["kind"] == "Namespace");
}

TEST_CASE("create: metadata.resourceVersion set is refused as the storage layer refuses it", "[sandbox][errors]") {
  auto c = team_cluster();
  const ApiResponse r = c->handle(request("POST", "/api/v1/namespaces/team/configmaps",
                                          R"({"metadata":{"name":"cm","resourceVersion":"5"}})"));
  CHECK(r.status == 500);
  CHECK(body_of(r) == json{{"kind", "Status"},
                           {"apiVersion", "v1"},
                           {"metadata", json::object()},
                           {"status", "Failure"},
                           {"message", "resourceVersion should not be set on objects to be created"},
                           {"code", 500}});
  CHECK(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/cm")).status == 404);
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "p"}}}, {"data", {{"a", "b"}}}});
  const ApiResponse patch = c->handle(request("PATCH", "/api/v1/namespaces/team/configmaps/p",
                                              R"([{"op":"remove","path":"/data/nope"}])", {}, "application/json-patch+json"));
  CHECK(patch.status == 422);
  CHECK(body_of(patch)["message"] == "the server rejected our request due to an error in our request");
  CHECK(body_of(patch)["details"] == json::object());  // no internal library text
  const ApiResponse missing_ns = c->handle(request("GET", "/api/v1/namespaces/missing/configmaps/x"));
  CHECK(missing_ns.status == 404);
  CHECK(body_of(missing_ns)["message"] == "configmaps \"x\" not found");
}
