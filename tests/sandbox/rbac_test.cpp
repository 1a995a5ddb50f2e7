// RBAC authorization in Cluster::handle (sandbox/rbac.h): allow and deny with
// kube-apiserver's 403 wording.
#include <catch2/catch.hpp>

#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::Cluster;
using mkq::sandbox::testing::admin;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::kueue_crd;
using mkq::sandbox::testing::request;
using nlohmann::json;

const std::string kSa = "system:serviceaccount:kueue-system:multikueue-sa";
const std::vector<std::string> kSaGroups = {"system:serviceaccounts", "system:serviceaccounts:kueue-system",
                                            "system:authenticated"};

ApiRequest as(ApiRequest r, const std::string& user, std::vector<std::string> groups) {
  r.user = user;
  r.groups = std::move(groups);
  return r;
}

ApiRequest as_sa(ApiRequest r) { return as(std::move(r), kSa, kSaGroups); }

// A cluster with Kueue's CRDs, a ClusterQueue "cq", namespaces kueue-system and team,
// and a least-privilege ClusterRole for MultiKueue bound to the service account.
std::unique_ptr<Cluster> setup() {
  auto c = mkq::sandbox::testing::memory_cluster();
  admin(*c, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", kueue_crd("clusterqueues", "ClusterQueue", false));
  admin(*c, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", kueue_crd("workloads", "Workload", true));
  for (const char* ns : {"kueue-system", "team"}) admin(*c, "POST", "/api/v1/namespaces", {{"metadata", {{"name", ns}}}});
  admin(*c, "POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues",
        {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"}, {"metadata", {{"name", "cq"}}}});
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "multikueue"},
          "rules": [
            {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": ["create", "delete", "get", "list", "watch", "update", "patch"]},
            {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads/status"], "verbs": ["get", "patch", "update"]},
            {"apiGroups": ["kueue.x-k8s.io"], "resources": ["clusterqueues"], "verbs": ["get", "list", "watch"]}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "multikueue"},
          "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "multikueue"},
          "subjects": [{"kind": "ServiceAccount", "name": "multikueue-sa", "namespace": "kueue-system"}]})"));
  return c;
}

std::string message(const mkq::sandbox::ApiResponse& r) { return body_of(r).value("message", ""); }

}  // namespace

TEST_CASE("rbac: a bound ClusterRole allows its verbs and resources, 403 otherwise, worded as Kubernetes",
          "[sandbox][rbac]") {
  auto c = setup();
  CHECK(c->handle(as_sa(request("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq"))).status == 200);
  CHECK(c->handle(as_sa(request("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues"))).status == 200);
  CHECK(c->handle(as_sa(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads"))).status == 200);
  CHECK(c->handle(as_sa(request("GET", "/apis/kueue.x-k8s.io/v1beta2/workloads", "", {{"watch", "1"}, {"timeoutSeconds", "0"}})))
            .status != 403);

  const auto update = c->handle(as_sa(request("PUT", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq", "{}")));
  CHECK(update.status == 403);
  const json body = body_of(update);
  CHECK(body["reason"] == "Forbidden");
  CHECK(body["kind"] == "Status");
  CHECK(body["message"] ==
        "clusterqueues.kueue.x-k8s.io \"cq\" is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" "
        "cannot update resource \"clusterqueues\" in API group \"kueue.x-k8s.io\" at the cluster scope");
  CHECK(body["details"] == json{{"name", "cq"}, {"group", "kueue.x-k8s.io"}, {"kind", "clusterqueues"}});

  const auto create = c->handle(as_sa(request("POST", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues", "{}")));
  CHECK(create.status == 403);
  CHECK(message(create) ==
        "clusterqueues.kueue.x-k8s.io is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot "
        "create resource \"clusterqueues\" in API group \"kueue.x-k8s.io\" at the cluster scope");

  const auto secrets = c->handle(as_sa(request("GET", "/api/v1/namespaces/kueue-system/secrets")));
  CHECK(secrets.status == 403);
  CHECK(message(secrets) ==
        "secrets is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot list resource "
        "\"secrets\" in API group \"\" in the namespace \"kueue-system\"");
  CHECK(body_of(secrets)["details"] == json{{"kind", "secrets"}});

  const auto ns = c->handle(as_sa(request("POST", "/api/v1/namespaces", R"({"metadata": {"name": "x"}})")));
  CHECK(ns.status == 403);
  CHECK(message(ns) ==
        "namespaces is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot create resource "
        "\"namespaces\" in API group \"\" at the cluster scope");
  // A namespace's own requests are in that namespace.
  CHECK(message(c->handle(as_sa(request("GET", "/api/v1/namespaces/team")))) ==
        "namespaces \"team\" is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot get "
        "resource \"namespaces\" in API group \"\" in the namespace \"team\"");

  // Subresources are their own resource.
  const auto status = c->handle(as_sa(request("PUT", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq/status", "{}")));
  CHECK(status.status == 403);
  CHECK(message(status) ==
        "clusterqueues.kueue.x-k8s.io \"cq\" is forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" "
        "cannot update resource \"clusterqueues/status\" in API group \"kueue.x-k8s.io\" at the cluster scope");
  CHECK(c->handle(as_sa(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads/w/status"))).status == 404);

  // Discovery, version, health and openapi are open to every authenticated user; other paths are not.
  for (const char* path : {"/api", "/api/v1", "/apis", "/apis/kueue.x-k8s.io/v1beta2", "/version", "/healthz", "/openapi/v3"}) {
    INFO(path);
    CHECK(c->handle(as_sa(request("GET", path))).status == 200);
  }
  const auto metrics = c->handle(as_sa(request("GET", "/metrics")));
  CHECK(metrics.status == 403);
  CHECK(message(metrics) == "forbidden: User \"system:serviceaccount:kueue-system:multikueue-sa\" cannot get path \"/metrics\"");

  // An unbound user has nothing but discovery; system:masters has everything.
  CHECK(c->handle(as(request("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq"), "alice", {"system:authenticated"})).status ==
        403);
  CHECK(c->handle(as(request("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq"), "root", {"system:masters"})).status == 200);
}

TEST_CASE("rbac: Roles, RoleBindings, groups, users, resourceNames, wildcards, nonResourceURLs", "[sandbox][rbac]") {
  auto c = setup();
  const std::string cm = R"({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "NAME"}})";
  for (const char* name : {"a", "b"}) {
    std::string body = cm;
    body.replace(body.find("NAME"), 4, name);
    admin(*c, "POST", "/api/v1/namespaces/team/configmaps", json::parse(body));
  }
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team/roles",
        json::parse(R"({"metadata": {"name": "read-a"}, "rules": [
          {"apiGroups": [""], "resources": ["configmaps"], "resourceNames": ["a"], "verbs": ["get", "update"]}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings",
        json::parse(R"({"metadata": {"name": "devs-read-a"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "read-a"},
          "subjects": [{"kind": "Group", "name": "devs"}]})"));

  const auto dev = [](ApiRequest r) { return as(std::move(r), "bob", {"devs", "system:authenticated"}); };
  CHECK(c->handle(dev(request("GET", "/api/v1/namespaces/team/configmaps/a"))).status == 200);
  const auto b = c->handle(dev(request("GET", "/api/v1/namespaces/team/configmaps/b")));
  CHECK(b.status == 403);
  CHECK(message(b) ==
        "configmaps \"b\" is forbidden: User \"bob\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"team\"");
  // resourceNames never allow list (no name).
  CHECK(c->handle(dev(request("GET", "/api/v1/namespaces/team/configmaps"))).status == 403);
  // A Role binds only in its namespace.
  CHECK(c->handle(dev(request("GET", "/api/v1/namespaces/default/configmaps/a"))).status == 403);

  // A RoleBinding to a ClusterRole with wildcards grants it in the binding's namespace only; a User subject.
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "all"}, "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/team/rolebindings",
        json::parse(R"({"metadata": {"name": "carol-all"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "all"},
          "subjects": [{"kind": "User", "name": "carol"}]})"));
  const auto carol = [](ApiRequest r) { return as(std::move(r), "carol", {"system:authenticated"}); };
  CHECK(c->handle(carol(request("DELETE", "/api/v1/namespaces/team/configmaps/b"))).status == 200);
  CHECK(c->handle(carol(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads"))).status == 200);
  CHECK(c->handle(carol(request("GET", "/api/v1/namespaces/default/configmaps"))).status == 403);
  CHECK(c->handle(carol(request("GET", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues"))).status == 403);

  // Subresource wildcards: "*/status".
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        json::parse(R"({"metadata": {"name": "status-writer"}, "rules": [
          {"apiGroups": ["kueue.x-k8s.io"], "resources": ["*/status"], "verbs": ["update", "patch"]},
          {"nonResourceURLs": ["/metrics", "/debug/*"], "verbs": ["get"]}]})"));
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        json::parse(R"({"metadata": {"name": "status-writer"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "status-writer"},
          "subjects": [{"kind": "Group", "name": "writers"}]})"));
  const auto writer = [](ApiRequest r) { return as(std::move(r), "dan", {"writers", "system:authenticated"}); };
  CHECK(c->handle(writer(request("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq/status", R"({"status": {}})", {},
                                 "application/merge-patch+json")))
            .status == 200);
  CHECK(c->handle(writer(request("PATCH", "/apis/kueue.x-k8s.io/v1beta2/clusterqueues/cq", R"({"spec": {}})", {},
                                 "application/merge-patch+json")))
            .status == 403);
  CHECK(c->handle(writer(request("GET", "/metrics"))).status != 403);
  CHECK(c->handle(writer(request("GET", "/debug/pprof"))).status != 403);
}

TEST_CASE("rbac: a ServiceAccount subject without a namespace means the RoleBinding's", "[sandbox][rbac]") {
  auto c = setup();
  admin(*c, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/kueue-system/rolebindings",
        json::parse(R"({"metadata": {"name": "sa-all"}, "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "multikueue"},
          "subjects": [{"kind": "ServiceAccount", "name": "other"}]})"));
  const auto other = as(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/kueue-system/workloads"),
                        "system:serviceaccount:kueue-system:other", {"system:serviceaccounts"});
  CHECK(c->handle(other).status == 200);
}
