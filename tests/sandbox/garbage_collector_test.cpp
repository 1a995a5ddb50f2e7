// The sandbox's garbage collector (sandbox/garbage_collector.h) and the
// DeleteOptions that drive it (propagationPolicy, orphanDependents), through
// Cluster::handle(): what kube-apiserver and kube-controller-manager's
// garbage collector make of ownerReferences, as a client observes it.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

#include "tests/sandbox/api_test_support.h"

namespace {

using mkq::sandbox::ApiResponse;
using mkq::sandbox::Cluster;
using mkq::sandbox::testing::body_of;
using mkq::sandbox::testing::request;
using nlohmann::json;

const std::string kConfigMaps = "/api/v1/namespaces/team/configmaps/";
const std::string kPriorityClasses = "/apis/scheduling.k8s.io/v1/priorityclasses/";

std::unique_ptr<Cluster> cluster() {
  auto c = mkq::sandbox::testing::memory_cluster();
  REQUIRE(c);
  REQUIRE(c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})")).status == 201);
  return c;
}

json get(Cluster& c, const std::string& path) { return body_of(c.handle(request("GET", path))); }
int status_of(Cluster& c, const std::string& path) { return c.handle(request("GET", path)).status; }

// A reference to `owner` (a stored object) as controllers write them.
json reference_to(const json& owner, bool block = false) {
  json ref = {{"apiVersion", owner["apiVersion"]},
              {"kind", owner["kind"]},
              {"name", owner["metadata"]["name"]},
              {"uid", owner["metadata"]["uid"]}};
  if (block) ref["blockOwnerDeletion"] = true;
  return ref;
}

// Creates ConfigMap `name` in team, owned by `owners`; returns it as stored.
json config_map(Cluster& c, const std::string& name, const json& owners = json::array(),
                const json& finalizers = json::array()) {
  json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}}}};
  if (!owners.empty()) object["metadata"]["ownerReferences"] = owners;
  if (!finalizers.empty()) object["metadata"]["finalizers"] = finalizers;
  const ApiResponse r = c.handle(request("POST", "/api/v1/namespaces/team/configmaps", object.dump()));
  REQUIRE(r.status == 201);
  return body_of(r);
}

ApiResponse delete_with(Cluster& c, const std::string& path, const json& options) {
  return c.handle(request("DELETE", path, options.dump()));
}

}  // namespace

TEST_CASE("garbage collector: background, the default, deletes the dependents after the owner",
          "[sandbox][gc]") {
  auto c = cluster();
  const json owner = config_map(*c, "owner");
  const json child = config_map(*c, "child", json::array({reference_to(owner)}));
  config_map(*c, "grandchild", json::array({reference_to(child)}));
  config_map(*c, "bystander");

  const ApiResponse r = c->handle(request("DELETE", kConfigMaps + "owner"));
  CHECK(r.status == 200);
  CHECK(body_of(r)["status"] == "Success");  // gone at once: the generic store's Status
  CHECK(status_of(*c, kConfigMaps + "owner") == 404);
  CHECK(status_of(*c, kConfigMaps + "child") == 404);
  CHECK(status_of(*c, kConfigMaps + "grandchild") == 404);  // the chain, each in the background
  CHECK(status_of(*c, kConfigMaps + "bystander") == 200);
}

TEST_CASE("garbage collector: Orphan removes the dependents' references, then the owner goes", "[sandbox][gc]") {
  auto c = cluster();
  const json owner = config_map(*c, "owner");
  const json other = config_map(*c, "other");
  config_map(*c, "child", json::array({reference_to(owner, true), reference_to(other)}));

  const ApiResponse r = delete_with(*c, kConfigMaps + "owner", {{"propagationPolicy", "Orphan"}});
  CHECK(r.status == 200);
  // The answer is the object as the delete left it: waiting on the orphan finalizer.
  const json answer = body_of(r);
  CHECK(answer["metadata"]["finalizers"] == json::array({"orphan"}));
  CHECK(answer["metadata"].contains("deletionTimestamp"));
  CHECK(answer["metadata"]["deletionGracePeriodSeconds"] == 0);
  // The collector has done its part by the next read.
  CHECK(status_of(*c, kConfigMaps + "owner") == 404);
  const json child = get(*c, kConfigMaps + "child");
  CHECK(child["metadata"]["ownerReferences"] == json::array({reference_to(other)}));

  // The deprecated orphanDependents: true does the same; the last reference gone, the field goes.
  CHECK(delete_with(*c, kConfigMaps + "other", {{"orphanDependents", true}}).status == 200);
  CHECK_FALSE(get(*c, kConfigMaps + "child")["metadata"].contains("ownerReferences"));
  // So does ?propagationPolicy=Orphan when there is no body.
  const json keeper = config_map(*c, "keeper");
  config_map(*c, "kept", json::array({reference_to(keeper)}));
  CHECK(c->handle(request("DELETE", kConfigMaps + "keeper", "", {{"propagationPolicy", "Orphan"}})).status == 200);
  CHECK(status_of(*c, kConfigMaps + "kept") == 200);
}

TEST_CASE("garbage collector: Foreground keeps the owner until its blocking dependents are gone", "[sandbox][gc]") {
  auto c = cluster();
  const json owner = config_map(*c, "owner");
  // A blocking dependent that cannot go yet (a finalizer of its own), a
  // non-blocking one, and one that goes at once.
  config_map(*c, "held", json::array({reference_to(owner, true)}), json::array({"example.com/hold"}));
  config_map(*c, "loose", json::array({reference_to(owner)}), json::array({"example.com/hold"}));
  config_map(*c, "free", json::array({reference_to(owner, true)}));

  const ApiResponse r = delete_with(*c, kConfigMaps + "owner", {{"propagationPolicy", "Foreground"}});
  CHECK(r.status == 200);
  CHECK(body_of(r)["metadata"]["finalizers"] == json::array({"foregroundDeletion"}));

  const json waiting = get(*c, kConfigMaps + "owner");
  CHECK(waiting["metadata"]["finalizers"] == json::array({"foregroundDeletion"}));
  CHECK(waiting["metadata"].contains("deletionTimestamp"));
  CHECK(status_of(*c, kConfigMaps + "free") == 404);
  // Every dependent is deleted; the ones with finalizers are marked.
  CHECK(get(*c, kConfigMaps + "held")["metadata"].contains("deletionTimestamp"));
  CHECK(get(*c, kConfigMaps + "loose")["metadata"].contains("deletionTimestamp"));

  // The non-blocking one does not hold the owner; the blocking one does, until it goes.
  REQUIRE(c->handle(request("PATCH", kConfigMaps + "loose", R"({"metadata":{"finalizers":null}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  CHECK(status_of(*c, kConfigMaps + "loose") == 404);
  CHECK(status_of(*c, kConfigMaps + "owner") == 200);
  REQUIRE(c->handle(request("PATCH", kConfigMaps + "held", R"({"metadata":{"finalizers":null}})", {},
                            "application/merge-patch+json"))
              .status == 200);
  CHECK(status_of(*c, kConfigMaps + "held") == 404);
  CHECK(status_of(*c, kConfigMaps + "owner") == 404);
}

TEST_CASE("garbage collector: a dependent with an owner left survives, without the references that are gone",
          "[sandbox][gc]") {
  auto c = cluster();
  const json a = config_map(*c, "a");
  const json b = config_map(*c, "b");
  config_map(*c, "shared", json::array({reference_to(a), reference_to(b)}));

  REQUIRE(c->handle(request("DELETE", kConfigMaps + "a")).status == 200);
  const json shared = get(*c, kConfigMaps + "shared");
  CHECK(shared["metadata"]["ownerReferences"] == json::array({reference_to(b)}));

  // An owner deleted in the foreground no longer counts either: the reference goes, the dependent stays.
  const json c1 = config_map(*c, "c1");
  const json waiting_owner = config_map(*c, "slow", json::array(), json::array({"example.com/hold"}));
  config_map(*c, "both", json::array({reference_to(c1), reference_to(waiting_owner, true)}));
  REQUIRE(delete_with(*c, kConfigMaps + "slow", {{"propagationPolicy", "Foreground"}}).status == 200);
  CHECK(get(*c, kConfigMaps + "both")["metadata"]["ownerReferences"] == json::array({reference_to(c1)}));

  // The last owner gone, so is the dependent.
  REQUIRE(c->handle(request("DELETE", kConfigMaps + "b")).status == 200);
  CHECK(status_of(*c, kConfigMaps + "shared") == 404);
}

TEST_CASE("garbage collector: owners are found by uid, in the dependent's namespace or at the cluster scope",
          "[sandbox][gc]") {
  auto c = cluster();
  // No such owner, or one of that name with another uid: collected as soon as written.
  config_map(*c, "nobody", json::array({{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "ghost"}, {"uid", "u-1"}}}));
  CHECK(status_of(*c, kConfigMaps + "nobody") == 404);
  config_map(*c, "impostor", json::array());
  config_map(*c, "fooled", json::array({{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "impostor"}, {"uid", "u-2"}}}));
  CHECK(status_of(*c, kConfigMaps + "fooled") == 404);

  // A cluster-scoped owner of a namespaced dependent.
  const ApiResponse pc = c->handle(request("POST", "/apis/scheduling.k8s.io/v1/priorityclasses",
                                           R"({"metadata":{"name":"high"},"value":1000})"));
  REQUIRE(pc.status == 201);
  config_map(*c, "ranked", json::array({reference_to(body_of(pc))}));
  CHECK(status_of(*c, kConfigMaps + "ranked") == 200);
  REQUIRE(c->handle(request("DELETE", kPriorityClasses + "high")).status == 200);
  CHECK(status_of(*c, kConfigMaps + "ranked") == 404);

  // Never collected: a cluster-scoped dependent naming a namespaced kind, a kind nobody serves.
  json invalid = {{"metadata",
                   {{"name", "low"},
                    {"ownerReferences", {{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "x"}, {"uid", "u-3"}}}}}},
                  {"value", 10}};
  REQUIRE(c->handle(request("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", invalid.dump())).status == 201);
  CHECK(status_of(*c, kPriorityClasses + "low") == 200);
  config_map(*c, "unknown", json::array({{{"apiVersion", "example.com/v1"}, {"kind", "Nope"}, {"name", "n"}, {"uid", "u-4"}}}));
  CHECK(status_of(*c, kConfigMaps + "unknown") == 200);
}

TEST_CASE("garbage collector: a dry-run delete collects nothing", "[sandbox][gc]") {
  auto c = cluster();
  const json owner = config_map(*c, "owner");
  config_map(*c, "child", json::array({reference_to(owner, true)}));
  const std::string before = get(*c, kConfigMaps + "owner")["metadata"]["resourceVersion"];

  for (const char* policy : {"Foreground", "Orphan", "Background"}) {
    const ApiResponse r = delete_with(*c, kConfigMaps + "owner", {{"propagationPolicy", policy}, {"dryRun", {"All"}}});
    CHECK(r.status == 200);
    if (std::string(policy) == "Foreground") {
      CHECK(body_of(r)["metadata"]["finalizers"] == json::array({"foregroundDeletion"}));
    }
  }
  CHECK(get(*c, kConfigMaps + "owner")["metadata"]["resourceVersion"] == before);
  CHECK(get(*c, kConfigMaps + "child")["metadata"]["ownerReferences"].size() == 1);
}

TEST_CASE("garbage collector: DeleteOptions are checked as kube-apiserver checks them, Jobs orphan by default",
          "[sandbox][gc]") {
  auto c = cluster();
  config_map(*c, "owner");
  ApiResponse r = delete_with(*c, kConfigMaps + "owner", {{"propagationPolicy", "Sideways"}});
  CHECK(r.status == 422);
  CHECK(body_of(r)["message"] ==
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sideways\": supported "
        "values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"");
  CHECK(body_of(r)["details"] ==
        json{{"group", "meta.k8s.io"},
             {"kind", "DeleteOptions"},
             {"causes",
              {{{"reason", "FieldValueNotSupported"},
                {"message", "Unsupported value: \"Sideways\": supported values: \"Foreground\", \"Background\", "
                            "\"Orphan\", \"nil\""},
                {"field", "propagationPolicy"}}}}});
  r = delete_with(*c, kConfigMaps + "owner", {{"propagationPolicy", "Foreground"}, {"orphanDependents", true}});
  CHECK(r.status == 422);
  CHECK(body_of(r)["message"] ==
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Foreground\": "
        "orphanDependents and deletionPropagation cannot be both set");
  CHECK(status_of(*c, kConfigMaps + "owner") == 200);

  // batch/v1 Jobs: without a policy the delete orphans (a finalizer for a moment) and warns.
  const json job = json::parse(R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},
    "spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl"}]}}}})");
  REQUIRE(c->handle(request("POST", "/apis/batch/v1/namespaces/team/jobs", job.dump())).status == 201);
  const json stored = get(*c, "/apis/batch/v1/namespaces/team/jobs/pi");
  config_map(*c, "pod-like", json::array({reference_to(stored, true)}));
  r = c->handle(request("DELETE", "/apis/batch/v1/namespaces/team/jobs/pi"));
  CHECK(r.status == 200);
  CHECK(body_of(r)["metadata"]["finalizers"] == json::array({"orphan"}));
  CHECK(r.headers["Warning"] ==
        "299 - \"child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to "
        "remove them or set propagationPolicy=Orphan to suppress this warning\"");
  CHECK(status_of(*c, "/apis/batch/v1/namespaces/team/jobs/pi") == 404);
  CHECK(status_of(*c, kConfigMaps + "pod-like") == 200);

  // With kubectl's propagationPolicy: Background, no warning and the dependents go.
  REQUIRE(c->handle(request("POST", "/apis/batch/v1/namespaces/team/jobs", job.dump())).status == 201);
  config_map(*c, "pod-like-2", json::array({reference_to(get(*c, "/apis/batch/v1/namespaces/team/jobs/pi"))}));
  r = delete_with(*c, "/apis/batch/v1/namespaces/team/jobs/pi", {{"propagationPolicy", "Background"}});
  CHECK(r.status == 200);
  CHECK(r.headers.count("Warning") == 0);
  CHECK(status_of(*c, kConfigMaps + "pod-like-2") == 404);
}

TEST_CASE("garbage collector: a Deployment's ReplicaSets follow --cascade", "[sandbox][gc][deployments]") {
  auto c = cluster();
  const std::string apps = "/apis/apps/v1/namespaces/team/";
  const json web = json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},
            "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
  const auto replica_sets = [&] { return get(*c, apps + "replicasets")["items"]; };

  // Orphan: the ReplicaSet stays, no longer owned, and no controller takes it back.
  REQUIRE(c->handle(request("POST", apps + "deployments", web.dump())).status == 201);
  REQUIRE(replica_sets().size() == 1);
  REQUIRE(delete_with(*c, apps + "deployments/web", {{"propagationPolicy", "Orphan"}}).status == 200);
  CHECK(status_of(*c, apps + "deployments/web") == 404);
  json left = replica_sets();
  REQUIRE(left.size() == 1);
  CHECK_FALSE(left[0]["metadata"].contains("ownerReferences"));
  const std::string orphan = left[0]["metadata"]["name"];
  REQUIRE(c->handle(request("DELETE", apps + "replicasets/" + orphan)).status == 200);

  // Foreground: the ReplicaSet (blockOwnerDeletion) goes first, then the Deployment.
  REQUIRE(c->handle(request("POST", apps + "deployments", web.dump())).status == 201);
  REQUIRE(replica_sets().size() == 1);
  const ApiResponse r = delete_with(*c, apps + "deployments/web", {{"propagationPolicy", "Foreground"}});
  CHECK(r.status == 200);
  CHECK(body_of(r)["metadata"]["finalizers"] == json::array({"foregroundDeletion"}));
  CHECK(status_of(*c, apps + "deployments/web") == 404);
  CHECK(replica_sets().empty());

  // Background (kubectl's default): both gone at once.
  REQUIRE(c->handle(request("POST", apps + "deployments", web.dump())).status == 201);
  REQUIRE(replica_sets().size() == 1);
  REQUIRE(delete_with(*c, apps + "deployments/web", {{"propagationPolicy", "Background"}}).status == 200);
  CHECK(replica_sets().empty());
}

TEST_CASE("garbage collector: a reopened cluster collects what was left dangling", "[sandbox][gc]") {
  const auto dir = std::filesystem::temp_directory_path() / ("mkq-gc-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto db = dir / "cluster.db";
  {
    std::string error;
    auto c = Cluster::open("test", db, &error);
    REQUIRE(c);
    REQUIRE(c->handle(request("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})")).status == 201);
    const json owner = config_map(*c, "owner");
    config_map(*c, "child", json::array({reference_to(owner)}));
    c->flush();
  }
  {
    std::string error;
    auto c = Cluster::open("test", db, &error);
    REQUIRE(c);
    CHECK(status_of(*c, kConfigMaps + "child") == 200);  // its owner is there
    REQUIRE(c->handle(request("DELETE", kConfigMaps + "owner")).status == 200);
    CHECK(status_of(*c, kConfigMaps + "child") == 404);  // the index was rebuilt from the store
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("garbage collector: ill-typed ownerReferences of a custom resource are refused, never collected on",
          "[sandbox][gc]") {
  auto c = cluster();
  REQUIRE(c->handle(request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                            mkq::sandbox::testing::kueue_crd("workloads", "Workload", true).dump()))
              .status == 201);
  const json odd = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                    {"kind", "Workload"},
                    {"metadata",
                     {{"name", "odd"},
                      {"ownerReferences", {{{"apiVersion", 1}, {"kind", true}, {"name", json::array()}, {"uid", 5},
                                            {"blockOwnerDeletion", "yes"}}}}}}};
  const ApiResponse r =
      c->handle(request("POST", "/apis/kueue.x-k8s.io/v1beta2/namespaces/team/workloads", odd.dump()));
  CHECK(r.status == 422);  // ObjectMeta's checks: the collector only ever sees well-formed references
  CHECK(body_of(r)["details"]["causes"][0]["field"] == "metadata.ownerReferences.apiVersion");
  // The cluster still answers, and collects as before.
  const json owner = config_map(*c, "owner");
  config_map(*c, "child", json::array({reference_to(owner)}));
  REQUIRE(c->handle(request("DELETE", kConfigMaps + "owner")).status == 200);
  CHECK(status_of(*c, kConfigMaps + "child") == 404);
}
