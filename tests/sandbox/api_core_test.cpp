// Discovery, the verbs on built-in kinds, errors as metav1.Status.
#include <catch2/catch.hpp>

#include "tests/sandbox/api_test_support.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using testing::body_of;
using testing::request;

TEST_CASE("sandbox api: version, health and discovery", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  REQUIRE(c);
  auto v = c->handle(request("GET", "/version"));
  CHECK(v.status == 200);
  CHECK(body_of(v)["minor"] == "33");
  CHECK(body_of(v)["gitVersion"] == "v1.33.0");
  for (const char* path : {"/healthz", "/readyz", "/livez"}) {
    auto h = c->handle(request("GET", path));
    CHECK(h.status == 200);
    CHECK(h.body == "ok");
  }
  auto api = body_of(c->handle(request("GET", "/api")));
  CHECK(api["kind"] == "APIVersions");
  CHECK(api["versions"] == json::array({"v1"}));

  auto core = body_of(c->handle(request("GET", "/api/v1")));
  CHECK(core["kind"] == "APIResourceList");
  CHECK(core["groupVersion"] == "v1");
  bool saw_ns = false, saw_ns_status = false, saw_cm = false;
  for (const auto& r : core["resources"]) {
    if (r["name"] == "namespaces") {
      saw_ns = true;
      CHECK(r["namespaced"] == false);
      CHECK(r["kind"] == "Namespace");
      CHECK(r["shortNames"] == json::array({"ns"}));
      CHECK(r["singularName"] == "namespace");
    }
    if (r["name"] == "namespaces/status") saw_ns_status = true;
    if (r["name"] == "configmaps") {
      saw_cm = true;
      CHECK(r["namespaced"] == true);
      CHECK(r["verbs"].size() == 8);
    }
  }
  CHECK(saw_ns);
  CHECK(saw_ns_status);
  CHECK(saw_cm);

  auto groups = body_of(c->handle(request("GET", "/apis")));
  CHECK(groups["kind"] == "APIGroupList");
  std::vector<std::string> names;
  for (const auto& g : groups["groups"]) {
    names.push_back(g["name"]);
    CHECK(g["preferredVersion"]["version"] == "v1");
  }
  CHECK(names == std::vector<std::string>{"apps", "events.k8s.io", "authentication.k8s.io", "authorization.k8s.io",
                                         "batch", "rbac.authorization.k8s.io", "scheduling.k8s.io",
                                         "coordination.k8s.io", "apiextensions.k8s.io"});
  auto rbac = body_of(c->handle(request("GET", "/apis/rbac.authorization.k8s.io/v1")));
  CHECK(rbac["resources"].size() == 4);
  auto group = body_of(c->handle(request("GET", "/apis/rbac.authorization.k8s.io")));
  CHECK(group["kind"] == "APIGroup");

  // kubectl 1.32+ asks for aggregated discovery first and accepts the plain form.
  auto aggregated = request("GET", "/apis");
  aggregated.headers["accept"] =
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
  auto plain = c->handle(aggregated);
  CHECK(plain.status == 200);
  CHECK(plain.content_type == "application/json");
  CHECK(body_of(plain)["kind"] == "APIGroupList");

  auto missing = c->handle(request("GET", "/apis/nope.io/v1"));
  CHECK(missing.status == 404);
  CHECK(body_of(missing)["reason"] == "NotFound");
  CHECK(body_of(missing)["message"] == "the server could not find the requested resource");
}

TEST_CASE("sandbox api: default namespaces exist", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  auto list = body_of(c->handle(request("GET", "/api/v1/namespaces")));
  CHECK(list["kind"] == "NamespaceList");
  CHECK(list["items"].size() == 4);
  auto def = body_of(c->handle(request("GET", "/api/v1/namespaces/default")));
  CHECK(def["status"]["phase"] == "Active");
  CHECK(def["metadata"]["labels"]["kubernetes.io/metadata.name"] == "default");
}

TEST_CASE("sandbox api: create, get, update, conflict, delete a ConfigMap", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  const std::string cm = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","labels":{"app":"a"}},"data":{"k":"v"}})";
  auto created = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", cm));
  REQUIRE(created.status == 201);
  auto obj = body_of(created);
  CHECK(obj["metadata"]["namespace"] == "default");
  CHECK(obj["metadata"]["uid"].get<std::string>().size() == 36);
  CHECK(!obj["metadata"]["resourceVersion"].get<std::string>().empty());
  CHECK(!obj["metadata"]["creationTimestamp"].get<std::string>().empty());
  CHECK_FALSE(obj["metadata"].contains("generation"));

  auto again = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", cm));
  CHECK(again.status == 409);
  auto status = body_of(again);
  CHECK(status["kind"] == "Status");
  CHECK(status["reason"] == "AlreadyExists");
  CHECK(status["message"] == "configmaps \"cfg\" already exists");
  CHECK(status["details"]["kind"] == "configmaps");
  CHECK(status["details"]["name"] == "cfg");

  auto got = c->handle(request("GET", "/api/v1/namespaces/default/configmaps/cfg"));
  CHECK(got.status == 200);
  CHECK(body_of(got)["data"]["k"] == "v");

  // PUT with the current resourceVersion; then a stale one conflicts.
  auto updated_body = obj;
  updated_body["data"]["k"] = "w";
  auto updated = c->handle(request("PUT", "/api/v1/namespaces/default/configmaps/cfg", updated_body.dump()));
  REQUIRE(updated.status == 200);
  CHECK(body_of(updated)["data"]["k"] == "w");
  CHECK(body_of(updated)["metadata"]["uid"] == obj["metadata"]["uid"]);
  auto stale = c->handle(request("PUT", "/api/v1/namespaces/default/configmaps/cfg", updated_body.dump()));
  CHECK(stale.status == 409);
  CHECK(body_of(stale)["reason"] == "Conflict");
  CHECK(body_of(stale)["message"] ==
        "Operation cannot be fulfilled on configmaps \"cfg\": the object has been modified; please apply your "
        "changes to the latest version and try again");

  // Namespace must exist.
  auto no_ns = c->handle(request("POST", "/api/v1/namespaces/nope/configmaps", cm));
  CHECK(no_ns.status == 404);
  CHECK(body_of(no_ns)["message"] == "namespaces \"nope\" not found");

  auto deleted = c->handle(request("DELETE", "/api/v1/namespaces/default/configmaps/cfg"));
  CHECK(deleted.status == 200);
  auto gone = c->handle(request("GET", "/api/v1/namespaces/default/configmaps/cfg"));
  CHECK(gone.status == 404);
  CHECK(body_of(gone)["message"] == "configmaps \"cfg\" not found");
  CHECK(body_of(gone)["details"] == json({{"name", "cfg"}, {"kind", "configmaps"}}));
  CHECK(c->handle(request("DELETE", "/api/v1/namespaces/default/configmaps/cfg")).status == 404);
}

TEST_CASE("sandbox api: bad requests and methods", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  auto bad = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", "{not json"));
  CHECK(bad.status == 400);
  CHECK(body_of(bad)["reason"] == "BadRequest");
  auto method = c->handle(request("POST", "/api/v1/namespaces/default/configmaps/x", "{}"));
  CHECK(method.status == 405);
  CHECK(body_of(method)["reason"] == "MethodNotAllowed");
  auto no_name = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{}})"));
  CHECK(no_name.status == 422);
  auto bad_name = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"Bad_Name"}})"));
  CHECK(bad_name.status == 422);
  CHECK(body_of(bad_name)["details"]["causes"][0]["field"] == "metadata.name");
  auto generated = c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"generateName":"gen-"}})"));
  CHECK(generated.status == 201);
  CHECK(body_of(generated)["metadata"]["name"].get<std::string>().size() == 9);
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"p"}})"));
  auto media = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/p", "{}", {}, "text/plain"));
  CHECK(media.status == 415);
  CHECK(body_of(media)["reason"] == "UnsupportedMediaType");
}

TEST_CASE("sandbox api: list with selectors, limit and continue", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  for (int i = 0; i < 5; ++i) {
    json cm = {{"metadata", {{"name", "cm" + std::to_string(i)}, {"labels", {{"tier", i % 2 == 0 ? "even" : "odd"}, {"n", std::to_string(i)}}}}}};
    if (i == 4) cm["metadata"]["labels"].erase("n");
    REQUIRE(c->handle(request("POST", "/api/v1/namespaces/default/configmaps", cm.dump())).status == 201);
  }
  c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"other"}})"));
  c->handle(request("POST", "/api/v1/namespaces/other/configmaps", R"({"metadata":{"name":"x","labels":{"tier":"even"}}})"));

  auto names = [&](std::multimap<std::string, std::string> q, const std::string& path = "/api/v1/namespaces/default/configmaps") {
    std::vector<std::string> out;
    const auto list = body_of(c->handle(request("GET", path, "", std::move(q))));
    for (const auto& item : list["items"]) out.push_back(item["metadata"]["name"]);
    return out;
  };
  using V = std::vector<std::string>;
  CHECK(names({{"labelSelector", "tier=even"}}) == V{"cm0", "cm2", "cm4"});
  CHECK(names({{"labelSelector", "tier==odd"}}) == V{"cm1", "cm3"});
  CHECK(names({{"labelSelector", "tier!=even"}}) == V{"cm1", "cm3"});
  CHECK(names({{"labelSelector", "n in (1,2)"}}) == V{"cm1", "cm2"});
  CHECK(names({{"labelSelector", "n notin (1,2)"}}) == V{"cm0", "cm3", "cm4"});
  CHECK(names({{"labelSelector", "!n"}}) == V{"cm4"});
  CHECK(names({{"labelSelector", "n,tier=even"}}) == V{"cm0", "cm2"});
  CHECK(names({{"fieldSelector", "metadata.name=cm3"}}) == V{"cm3"});
  CHECK(names({{"labelSelector", "tier=even"}}, "/api/v1/configmaps") == V{"cm0", "cm2", "cm4", "x"});
  CHECK(names({{"fieldSelector", "metadata.namespace=other"}}, "/api/v1/configmaps") == V{"x"});
  CHECK(c->handle(request("GET", "/api/v1/configmaps", "", {{"labelSelector", "a in (b"}})).status == 400);
  CHECK(c->handle(request("GET", "/api/v1/configmaps", "", {{"fieldSelector", "spec.x=1"}})).status == 400);

  auto page1 = body_of(c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "", {{"limit", "2"}})));
  CHECK(page1["items"].size() == 2);
  REQUIRE(page1["metadata"].contains("continue"));
  CHECK(!page1["metadata"]["resourceVersion"].get<std::string>().empty());
  auto page2 = body_of(c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "",
                                         {{"limit", "2"}, {"continue", page1["metadata"]["continue"]}})));
  CHECK(page2["items"][0]["metadata"]["name"] == "cm2");
  auto page3 = body_of(c->handle(request("GET", "/api/v1/namespaces/default/configmaps", "",
                                         {{"limit", "2"}, {"continue", page2["metadata"]["continue"]}})));
  CHECK(page3["items"].size() == 1);
  CHECK_FALSE(page3["metadata"].contains("continue"));
}

TEST_CASE("sandbox api: patches on built-in kinds", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"p"},"data":{"a":"1","b":"2"}})"));
  auto merge = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/p", R"({"data":{"a":null,"c":"3"}})", {},
                                 "application/merge-patch+json"));
  REQUIRE(merge.status == 200);
  CHECK(body_of(merge)["data"] == json({{"b", "2"}, {"c", "3"}}));
  auto strategic = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/p", R"({"data":{"d":"4"}})", {},
                                     "application/strategic-merge-patch+json"));
  CHECK(body_of(strategic)["data"]["d"] == "4");
  auto jp = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/p",
                              R"([{"op":"replace","path":"/data/b","value":"x"},{"op":"add","path":"/metadata/labels","value":{"l":"1"}}])",
                              {}, "application/json-patch+json"));
  REQUIRE(jp.status == 200);
  CHECK(body_of(jp)["data"]["b"] == "x");
  CHECK(body_of(jp)["metadata"]["labels"]["l"] == "1");
  auto failing = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/p",
                                   R"([{"op":"test","path":"/data/b","value":"nope"}])", {}, "application/json-patch+json"));
  CHECK(failing.status == 422);
  auto missing = c->handle(request("PATCH", "/api/v1/namespaces/default/configmaps/zz", "{}", {}, "application/merge-patch+json"));
  CHECK(missing.status == 404);
}

TEST_CASE("sandbox api: secrets, stringData and dryRun", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  auto s = c->handle(request("POST", "/api/v1/namespaces/default/secrets", R"({"metadata":{"name":"s"},"stringData":{"k":"hello"}})",
                             {{"dryRun", "All"}}));
  CHECK(s.status == 201);
  CHECK(body_of(s)["data"]["k"] == "aGVsbG8=");
  CHECK(body_of(s)["type"] == "Opaque");
  CHECK(c->handle(request("GET", "/api/v1/namespaces/default/secrets/s")).status == 404);
  CHECK(c->handle(request("POST", "/api/v1/namespaces/default/secrets", R"({"metadata":{"name":"s"},"stringData":{"k":"hello"}})")).status == 201);
  CHECK(body_of(c->handle(request("GET", "/api/v1/namespaces/default/secrets/s")))["data"]["k"] == "aGVsbG8=");
}

TEST_CASE("sandbox api: finalizers and namespace deletion", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})"));
  c->handle(request("POST", "/api/v1/namespaces/team/configmaps", R"({"metadata":{"name":"plain"}})"));
  c->handle(request("POST", "/api/v1/namespaces/team/configmaps", R"({"metadata":{"name":"held","finalizers":["example.com/hold"]}})"));
  auto del = c->handle(request("DELETE", "/api/v1/namespaces/team"));
  CHECK(del.status == 200);
  CHECK(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/plain")).status == 404);
  auto held = body_of(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/held")));
  CHECK(held["metadata"].contains("deletionTimestamp"));
  auto ns = body_of(c->handle(request("GET", "/api/v1/namespaces/team")));
  CHECK(ns["status"]["phase"] == "Terminating");
  auto refused = c->handle(request("POST", "/api/v1/namespaces/team/configmaps", R"({"metadata":{"name":"new"}})"));
  CHECK(refused.status == 403);
  // Removing the last finalizer removes the object, then the namespace.
  auto released = c->handle(request("PATCH", "/api/v1/namespaces/team/configmaps/held", R"({"metadata":{"finalizers":null}})", {},
                                    "application/merge-patch+json"));
  CHECK(released.status == 200);
  CHECK(c->handle(request("GET", "/api/v1/namespaces/team/configmaps/held")).status == 404);
  CHECK(c->handle(request("GET", "/api/v1/namespaces/team")).status == 404);
}

TEST_CASE("sandbox api: rbac kinds and deletecollection", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  auto role = c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                                R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r","labels":{"x":"1"}},"rules":[]})"));
  CHECK(role.status == 201);
  auto wrong = c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                                 R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"q"}})"));
  CHECK(wrong.status == 400);
  CHECK(c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", R"({"metadata":{"name":"r"}})")).status == 201);
  auto removed = c->handle(request("DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterroles", "", {{"labelSelector", "x=1"}}));
  CHECK(removed.status == 200);
  CHECK(body_of(removed)["items"].size() == 1);
  CHECK(c->handle(request("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/r")).status == 404);
}

TEST_CASE("sandbox api: roles and CRDs print Created At, bindings their role and subjects, as kube-apiserver's printers",
          "[sandbox][api]") {
  auto c = testing::memory_cluster();
  REQUIRE(c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
                            R"({"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]})"))
              .status == 201);
  REQUIRE(c->handle(request("POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
                            R"({"metadata":{"name":"rb"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},
                                "subjects":[{"kind":"User","name":"u1"},{"kind":"Group","name":"g1"},{"kind":"User","name":"u2"},
                                            {"kind":"ServiceAccount","name":"sa","namespace":"default"}]})"))
              .status == 201);
  const auto table_of = [&](const std::string& path) {
    auto r = request("GET", path);
    r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    return body_of(c->handle(r));
  };
  const auto names = [](const json& table) {
    std::vector<std::string> out;
    for (const auto& column : table["columnDefinitions"]) {
      out.push_back(column["name"].get<std::string>() + "/" + std::to_string(column["priority"].get<int>()));
    }
    return out;
  };
  const json roles = table_of("/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles");
  CHECK(names(roles) == std::vector<std::string>{"Name/0", "Created At/0"});
  CHECK(roles["rows"][0]["cells"][1] == body_of(c->handle(request("GET", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r")))["metadata"]["creationTimestamp"]);
  const json bindings = table_of("/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings");
  CHECK(names(bindings) == std::vector<std::string>{"Name/0", "Role/0", "Age/0", "Users/1", "Groups/1", "ServiceAccounts/1"});
  const json cells = bindings["rows"][0]["cells"];
  CHECK(cells[0] == "rb");
  CHECK(cells[1] == "Role/r");
  CHECK(cells[3] == "u1, u2");
  CHECK(cells[4] == "g1");
  CHECK(cells[5] == "default/sa");
  const json crds = table_of("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
  CHECK(names(crds) == std::vector<std::string>{"Name/0", "Created At/0"});
}

TEST_CASE("sandbox api: a watch asked for Tables sends each event as a one-row Table, columns first only", "[sandbox][api][watch]") {
  auto c = testing::memory_cluster();
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"a"},"data":{"x":"1"}})"));
  auto r = request("GET", "/api/v1/namespaces/default/configmaps", "", {{"watch", "true"}, {"timeoutSeconds", "2"}});
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
  auto watch = c->handle(r);
  REQUIRE(watch.stream);
  std::string chunk;
  REQUIRE(watch.stream(chunk));
  const json first = json::parse(chunk.substr(0, chunk.find('\n')));
  CHECK(first["type"] == "ADDED");
  CHECK(first["object"]["kind"] == "Table");
  CHECK(first["object"]["columnDefinitions"][1]["name"] == "Data");
  CHECK(first["object"]["rows"][0]["cells"][0] == "a");
  CHECK(first["object"]["rows"][0]["cells"][1] == 1);
  c->handle(request("POST", "/api/v1/namespaces/default/configmaps", R"({"metadata":{"name":"b"}})"));
  REQUIRE(watch.stream(chunk));
  const json second = json::parse(chunk.substr(0, chunk.find('\n')));
  CHECK(second["object"]["kind"] == "Table");
  CHECK(second["object"]["columnDefinitions"].is_null());
  CHECK(second["object"]["rows"][0]["cells"][0] == "b");
}

TEST_CASE("sandbox api: tables for built-in kinds", "[sandbox][api]") {
  auto c = testing::memory_cluster();
  auto r = request("GET", "/api/v1/namespaces");
  r.headers["accept"] = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  auto table = body_of(c->handle(r));
  CHECK(table["kind"] == "Table");
  CHECK(table["apiVersion"] == "meta.k8s.io/v1");
  CHECK(table["columnDefinitions"][0]["name"] == "Name");
  CHECK(table["columnDefinitions"][1]["name"] == "Status");
  CHECK(table["columnDefinitions"][2]["name"] == "Age");
  CHECK(table["rows"].size() == 4);
  CHECK(table["rows"][0]["cells"][1] == "Active");
  CHECK(table["rows"][0]["object"]["kind"] == "PartialObjectMetadata");
}

}  // namespace
}  // namespace mkq::sandbox
