// What authentication and authorization remember between requests is never
// stale. RBAC's compiled rules (sandbox/rbac.h: RbacAuthorizer): a Role,
// ClusterRole or binding created, changed or deleted -- by any verb, by the
// aggregation hook -- decides the very next request, the review APIs and
// impersonation included, and the compilation is really kept between
// requests. A token's verified signature (auth.h: verify_token): its expiry
// is still checked on every request (its account's existence: identity_test).
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <random>
#include <thread>

#include "sandbox/identity.h"
#include "sandbox/rbac.h"
#include "sandbox/store.h"
#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiRequest;
using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::ObjectKey;
using mkq::sandbox::RbacAuthorizer;
using mkq::sandbox::RequestAttributes;
using mkq::sandbox::Store;
using mkq::sandbox::testing::admin;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::request;
using nlohmann::json;

const std::string kRbac = "/apis/rbac.authorization.k8s.io/v1";
const std::string kRobot = "system:serviceaccount:team:robot";

ApiRequest robot(ApiRequest r) {
  r.user = kRobot;
  r.groups = {"system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"};
  return r;
}

// The team cluster (api_test_support.h) with its ConfigMap "a".
std::unique_ptr<Cluster> open() {
  auto c = mkq::sandbox::testing::team_cluster();
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "a"}}}});
  return c;
}

int robot_gets_a(Cluster& c) {
  return c.handle(robot(request("GET", "/api/v1/namespaces/team/configmaps/a"))).status;
}

json role(const std::string& kind, const std::string& name, const std::vector<std::string>& verbs) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}}},
          {"rules", {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", verbs}}}}};
}

json binding(const std::string& kind, const std::string& name, const std::string& role_kind,
             const std::string& role_name, const json& subjects) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}}},
          {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role_name}}},
          {"subjects", subjects}};
}

const json kRobotSubject =
    json::array({{{"kind", "ServiceAccount"}, {"name", "robot"}, {"namespace", "team"}}});

json subject_access_review(Cluster& c, const std::string& user, const std::string& verb) {
  const json spec = {{"user", user},
                     {"resourceAttributes",
                      {{"namespace", "team"}, {"verb", verb}, {"resource", "configmaps"}, {"name", "a"}}}};
  const ApiResponse r = c.handle(
      request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", json{{"spec", spec}}.dump()));
  INFO(r.body);
  REQUIRE(r.status == 201);
  return body_of(r)["status"];
}

}  // namespace

TEST_CASE("rbac cache: a Role and RoleBinding created, changed or deleted decide the very next request",
          "[sandbox][rbac][cache]") {
  auto c = open();
  CHECK(robot_gets_a(*c) == 403);  // decided (and kept) with no grant

  admin(*c, "POST", kRbac + "/namespaces/team/roles", role("Role", "reader", {"get"}));
  CHECK(robot_gets_a(*c) == 403);  // a Role alone grants nothing
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot-reader", "Role", "reader", kRobotSubject));
  CHECK(robot_gets_a(*c) == 200);

  // The Role changed: by update, by merge patch, by server-side apply.
  admin(*c, "PUT", kRbac + "/namespaces/team/roles/reader", role("Role", "reader", {"list"}));
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "PATCH", kRbac + "/namespaces/team/roles/reader",
        {{"rules", {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"get"}}}}}},
        "application/merge-patch+json");
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "PATCH", kRbac + "/namespaces/team/roles/reader", role("Role", "reader", {"watch"}),
        "application/apply-patch+yaml", {{"fieldManager", "test"}, {"force", "true"}});
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "PATCH", kRbac + "/namespaces/team/roles/reader",
        json::array({{{"op", "replace"}, {"path", "/rules/0/verbs"}, {"value", {"get"}}}}),
        "application/json-patch+json");
  CHECK(robot_gets_a(*c) == 200);

  // The binding changed: its subject is another account, then the robot again.
  admin(*c, "PATCH", kRbac + "/namespaces/team/rolebindings/robot-reader",
        {{"subjects", {{{"kind", "ServiceAccount"}, {"name", "other"}, {"namespace", "team"}}}}},
        "application/merge-patch+json");
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "PATCH", kRbac + "/namespaces/team/rolebindings/robot-reader", {{"subjects", kRobotSubject}},
        "application/merge-patch+json");
  CHECK(robot_gets_a(*c) == 200);

  // Deleted: the Role, then (recreated) the binding.
  admin(*c, "DELETE", kRbac + "/namespaces/team/roles/reader", json::object());
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "POST", kRbac + "/namespaces/team/roles", role("Role", "reader", {"get"}));
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "DELETE", kRbac + "/namespaces/team/rolebindings/robot-reader", json::object());
  CHECK(robot_gets_a(*c) == 403);

  // A deletecollection of the namespace's bindings.
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "again", "Role", "reader", kRobotSubject));
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "DELETE", kRbac + "/namespaces/team/rolebindings", json::object());
  CHECK(robot_gets_a(*c) == 403);
}

TEST_CASE(
    "rbac cache: ClusterRoles and ClusterRoleBindings created, changed or deleted decide the very next "
    "request",
    "[sandbox][rbac][cache]") {
  auto c = open();
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "POST", kRbac + "/clusterroles", role("ClusterRole", "cm-reader", {"get"}));
  admin(*c, "POST", kRbac + "/clusterrolebindings",
        binding("ClusterRoleBinding", "robot", "ClusterRole", "cm-reader", kRobotSubject));
  CHECK(robot_gets_a(*c) == 200);

  // By group: the binding's subject becomes a group the robot is not in, then one it is in.
  admin(*c, "PATCH", kRbac + "/clusterrolebindings/robot",
        {{"subjects", {{{"kind", "Group"}, {"name", "devs"}}}}}, "application/merge-patch+json");
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "PATCH", kRbac + "/clusterrolebindings/robot",
        {{"subjects", {{{"kind", "Group"}, {"name", "system:serviceaccounts:team"}}}}},
        "application/merge-patch+json");
  CHECK(robot_gets_a(*c) == 200);

  admin(*c, "PUT", kRbac + "/clusterroles/cm-reader", role("ClusterRole", "cm-reader", {"create"}));
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "PUT", kRbac + "/clusterroles/cm-reader", role("ClusterRole", "cm-reader", {"*"}));
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "DELETE", kRbac + "/clusterroles/cm-reader", json::object());
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "POST", kRbac + "/clusterroles", role("ClusterRole", "cm-reader", {"get"}));
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "DELETE", kRbac + "/clusterrolebindings/robot", json::object());
  CHECK(robot_gets_a(*c) == 403);
}

TEST_CASE("rbac cache: a dry run of a binding grants nothing, other writes keep the decision",
          "[sandbox][rbac][cache]") {
  auto c = open();
  admin(*c, "POST", kRbac + "/clusterroles", role("ClusterRole", "cm-reader", {"get"}));
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot", "ClusterRole", "cm-reader", kRobotSubject), "application/json",
        {{"dryRun", "All"}});
  CHECK(robot_gets_a(*c) == 403);
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot", "ClusterRole", "cm-reader", kRobotSubject));
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "DELETE", kRbac + "/namespaces/team/rolebindings/robot", json::object(), "application/json",
        {{"dryRun", "All"}});
  CHECK(robot_gets_a(*c) == 200);
  admin(*c, "POST", "/api/v1/namespaces/team/configmaps", {{"metadata", {{"name", "b"}}}});
  CHECK(robot_gets_a(*c) == 200);
}

TEST_CASE("rbac cache: a ClusterRole aggregated into view by its label grants and stops granting at once",
          "[sandbox][rbac][cache]") {
  auto c = open();
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot-view", "ClusterRole", "view", kRobotSubject));
  admin(*c, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        mkq::sandbox::testing::kueue_crd("workloads", "Workload", true));
  const auto robot_lists_workloads = [&c] {
    return c->handle(robot(request("GET", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads"))).status;
  };
  CHECK(robot_lists_workloads() == 403);
  json kueue_view = {
      {"metadata",
       {{"name", "kueue-view"}, {"labels", {{"rbac.authorization.k8s.io/aggregate-to-view", "true"}}}}},
      {"rules", {{{"apiGroups", {"kueue.x-k8s.io"}}, {"resources", {"workloads"}}, {"verbs", {"list"}}}}}};
  admin(*c, "POST", kRbac + "/clusterroles", kueue_view);
  CHECK(robot_lists_workloads() == 200);
  // The label removed: the aggregation takes the rule out of view.
  admin(*c, "PATCH", kRbac + "/clusterroles/kueue-view",
        {{"metadata", {{"labels", {{"rbac.authorization.k8s.io/aggregate-to-view", nullptr}}}}}},
        "application/merge-patch+json");
  CHECK(robot_lists_workloads() == 403);
  admin(*c, "PATCH", kRbac + "/clusterroles/kueue-view",
        {{"metadata", {{"labels", {{"rbac.authorization.k8s.io/aggregate-to-view", "true"}}}}}},
        "application/merge-patch+json");
  CHECK(robot_lists_workloads() == 200);
  admin(*c, "DELETE", kRbac + "/clusterroles/kueue-view", json::object());
  CHECK(robot_lists_workloads() == 403);
}

TEST_CASE(
    "rbac cache: impersonation, SubjectAccessReview and SelfSubjectRulesReview follow the bindings at once",
    "[sandbox][rbac][cache]") {
  auto c = open();
  const auto as_robot = [&c](const char* verb) { return subject_access_review(*c, kRobot, verb); };
  CHECK(as_robot("get") == json{{"allowed", false}});
  const auto robot_rules = [&c] {
    const ApiResponse r =
        c->handle(robot(request("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                                R"({"spec": {"namespace": "team"}})")));
    REQUIRE(r.status == 201);
    return body_of(r)["status"]["resourceRules"];
  };
  const std::size_t bootstrap_rules = robot_rules().size();
  const json granted = {{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"get"}}};

  admin(*c, "POST", kRbac + "/namespaces/team/roles", role("Role", "reader", {"get"}));
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot-reader", "Role", "reader", kRobotSubject));
  CHECK(as_robot("get") == json{{"allowed", true},
                                {"reason",
                                 "RBAC: allowed by RoleBinding \"robot-reader/team\" of Role \"reader\" to "
                                 "ServiceAccount \"robot/team\""}});
  CHECK(robot_rules().size() == bootstrap_rules + 1);
  CHECK(robot_rules().back() == granted);

  // Impersonating the robot: refused until alice may impersonate service accounts, then as the robot.
  const auto alice_as_robot = [&c] {
    ApiRequest r = request("GET", "/api/v1/namespaces/team/configmaps/a");
    r.user = "alice";
    r.groups = {"system:authenticated"};
    r.headers["impersonate-user"] = kRobot;
    return c->handle(r).status;
  };
  CHECK(alice_as_robot() == 403);
  admin(*c, "POST", kRbac + "/clusterroles",
        {{"metadata", {{"name", "impersonator"}}},
         {"rules", {{{"apiGroups", {""}}, {"resources", {"serviceaccounts"}}, {"verbs", {"impersonate"}}}}}});
  admin(*c, "POST", kRbac + "/clusterrolebindings",
        binding("ClusterRoleBinding", "alice-impersonates", "ClusterRole", "impersonator",
                {{{"kind", "User"}, {"name", "alice"}}}));
  CHECK(alice_as_robot() == 200);

  admin(*c, "DELETE", kRbac + "/namespaces/team/rolebindings/robot-reader", json::object());
  CHECK(as_robot("get") == json{{"allowed", false}});
  CHECK(robot_rules().size() == bootstrap_rules);
  CHECK(alice_as_robot() == 403);  // as the robot, who may no longer read it
  admin(*c, "DELETE", kRbac + "/clusterrolebindings/alice-impersonates", json::object());
  admin(*c, "POST", kRbac + "/namespaces/team/rolebindings",
        binding("RoleBinding", "robot-reader", "Role", "reader", kRobotSubject));
  CHECK(as_robot("get")["allowed"] == true);
  CHECK(alice_as_robot() == 403);  // alice may no longer impersonate
}

namespace {

Store& memory_store(std::unique_ptr<Store>& holder) {
  std::string error;
  holder = Store::open(":memory:", &error);
  REQUIRE(holder);
  return *holder;
}

void put(Store& store, const ObjectKey& key, json object) {
  object["metadata"]["name"] = key.name;
  if (!key.ns.empty()) object["metadata"]["namespace"] = key.ns;
  store.put(key, object, "ADDED");
}

RequestAttributes get_configmap(const std::string& user, const std::string& ns) {
  RequestAttributes a;
  a.user = user;
  a.groups = {"system:authenticated"};
  a.verb = "get";
  a.resource = "configmaps";
  a.ns = ns;
  a.name = "a";
  return a;
}

}  // namespace

TEST_CASE(
    "rbac cache: compiled once, kept across decisions and other groups' writes, dropped on an RBAC write",
    "[sandbox][rbac][cache]") {
  std::unique_ptr<Store> holder;
  Store& store = memory_store(holder);
  RbacAuthorizer rbac;
  put(store, {"rbac.authorization.k8s.io", "clusterroles", "", "reader"}, role("ClusterRole", "", {"get"}));
  put(store, {"rbac.authorization.k8s.io", "rolebindings", "team", "bob"},
      binding("RoleBinding", "", "ClusterRole", "reader", {{{"kind", "User"}, {"name", "bob"}}}));
  CHECK(rbac.allows(store, get_configmap("bob", "team")));
  CHECK_FALSE(rbac.allows(store, get_configmap("bob", "other")));
  CHECK_FALSE(rbac.allows(store, get_configmap("eve", "team")));
  CHECK(rbac.rules_for(store, get_configmap("bob", "team"))["resourceRules"].size() == 1);
  CHECK(rbac.compilations() == 1);

  json config_map = {{"metadata", {{"name", "a"}}}};
  store.put({"", "configmaps", "team", "a"}, config_map, "ADDED");
  CHECK(rbac.allows(store, get_configmap("bob", "team")));
  CHECK(rbac.compilations() == 1);

  json last;
  store.remove({"rbac.authorization.k8s.io", "rolebindings", "team", "bob"}, last);
  CHECK_FALSE(rbac.allows(store, get_configmap("bob", "team")));
  CHECK(rbac.compilations() == 2);

  // Another store never shares an epoch, so a decision there is its own.
  std::unique_ptr<Store> other_holder;
  Store& other = memory_store(other_holder);
  put(other, {"rbac.authorization.k8s.io", "clusterroles", "", "reader"}, role("ClusterRole", "", {"get"}));
  put(other, {"rbac.authorization.k8s.io", "rolebindings", "team", "bob"},
      binding("RoleBinding", "", "ClusterRole", "reader", {{{"kind", "User"}, {"name", "bob"}}}));
  CHECK(store.group_epoch("rbac.authorization.k8s.io") != other.group_epoch("rbac.authorization.k8s.io"));
  CHECK(rbac.allows(other, get_configmap("bob", "team")));
  CHECK_FALSE(rbac.allows(store, get_configmap("bob", "team")));
}

TEST_CASE("rbac cache: decides as a fresh compilation does over random RBAC writes",
          "[sandbox][rbac][cache]") {
  std::unique_ptr<Store> holder;
  Store& store = memory_store(holder);
  RbacAuthorizer cached;
  std::mt19937 random(16);
  const auto pick = [&random](const std::vector<std::string>& from) { return from[random() % from.size()]; };
  const std::vector<std::string> names = {"r1", "r2", "r3"};
  const std::vector<std::string> namespaces = {"", "team", "ops"};
  const std::vector<std::string> users = {"bob", "eve", "system:serviceaccount:team:robot"};
  const std::vector<std::string> groups = {"devs", "ops", "system:authenticated"};
  const std::vector<std::string> verbs = {"get", "list", "create", "*"};
  const std::vector<std::string> resources = {"configmaps", "secrets", "*"};
  const auto random_subject = [&]() -> json {
    switch (random() % 3) {
      case 0:
        return {{"kind", "User"}, {"name", pick(users)}};
      case 1:
        return {{"kind", "Group"}, {"name", pick(groups)}};
      default:
        return {{"kind", "ServiceAccount"}, {"name", "robot"}, {"namespace", pick(namespaces)}};
    }
  };
  std::size_t allowed = 0;
  for (int step = 0; step < 300; ++step) {
    const std::string ns = pick(namespaces);
    const std::string name = pick(names);
    const bool is_binding = random() % 2 == 0;
    const std::string resource =
        std::string(ns.empty() ? "cluster" : "") + (is_binding ? "rolebindings" : "roles");
    const ObjectKey stored{"rbac.authorization.k8s.io", resource, ns, name};
    if (random() % 4 == 0) {
      json last;
      if (store.exists(stored)) store.remove(stored, last);
    } else if (is_binding) {
      put(store, stored,
          binding("", "", ns.empty() || random() % 2 == 0 ? "ClusterRole" : "Role", pick(names),
                  json::array({random_subject(), random_subject()})));
    } else {
      json rule = {
          {"apiGroups", {""}}, {"resources", {pick(resources)}}, {"verbs", {pick(verbs), pick(verbs)}}};
      put(store, stored, {{"rules", {rule}}});
    }
    for (int ask = 0; ask < 8; ++ask) {
      RequestAttributes a = get_configmap(pick(users), pick(namespaces));
      a.groups = {pick(groups), "system:authenticated"};
      const std::string verb = pick(verbs);
      const std::string asked_resource = pick(resources);
      a.verb = verb == "*" ? "delete" : verb;
      a.resource = asked_resource == "*" ? "pods" : asked_resource;
      RbacAuthorizer fresh;
      INFO("step " << step << ": " << a.user << " " << a.verb << " " << a.resource << " in \"" << a.ns
                   << "\"");
      const auto decision = cached.allowed_by(store, a);
      REQUIRE(decision == fresh.allowed_by(store, a));
      REQUIRE(cached.rules_for(store, a) == fresh.rules_for(store, a));
      if (decision) ++allowed;
    }
  }
  // Both answers occur, so the comparison says something.
  CHECK(allowed > 100);
  CHECK(allowed < 2300);
}

TEST_CASE("token cache: a token verified once is refused once it expires", "[sandbox][identity][cache]") {
  mkq::sandbox::ClusterOptions options;
  options.service_account_key = mkq::sandbox::generate_signing_key();
  std::string error;
  auto c = Cluster::open("test", ":memory:", options, &error);
  REQUIRE(c);
  admin(*c, "POST", "/api/v1/namespaces", {{"metadata", {{"name", "team"}}}});
  admin(*c, "POST", "/api/v1/namespaces/team/serviceaccounts", {{"metadata", {{"name", "robot"}}}});
  const ApiResponse issued = c->handle(request("POST", "/api/v1/namespaces/team/serviceaccounts/robot/token",
                                               json{{"spec", {{"expirationSeconds", 3600}}}}.dump()));
  REQUIRE(issued.status == 201);
  const std::string token = body_of(issued)["status"]["token"];
  // The same claims, expiring in a second, signed with the cluster's key.
  const auto first = token.find('.');
  const auto second = token.find('.', first + 1);
  json claims = json::parse(*mkq::sandbox::base64url_decode(token.substr(first + 1, second - first - 1)));
  claims["exp"] = static_cast<long long>(std::time(nullptr)) + 1;
  const std::string short_lived = mkq::sandbox::sign_jwt(claims, options.service_account_key);
  REQUIRE(c->authenticate_token(short_lived));
  REQUIRE(c->authenticate_token(short_lived));  // the second time from the cache
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  CHECK_FALSE(c->authenticate_token(short_lived));
  CHECK(c->authenticate_token(token));
}
