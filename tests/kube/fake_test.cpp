// FakeClient: the in-memory API the reconciler's unit tests run against.
#include <catch2/catch.hpp>

#include "tests/support/fake_client.h"
#include "runtime/kube/fields_v1.h"

namespace kube = mkq::kube;
using kube::Json;

namespace {

kube::ResourceType type_of(kube::FakeClient& fake, const std::string& api_version, const std::string& kind) {
  auto type = fake.resource_for(api_version, kind);
  REQUIRE(type.ok());
  return type.value();
}

Json cluster_queue(const std::string& name, const std::string& strategy) {
  return Json{{"apiVersion", "kueue.x-k8s.io/v1beta2"},
              {"kind", "ClusterQueue"},
              {"metadata", {{"name", name}, {"labels", {{"app.kubernetes.io/managed-by", "mkq"}}}}},
              {"spec", {{"queueingStrategy", strategy}, {"namespaceSelector", Json::object()}}}};
}

}  // namespace

TEST_CASE("fake serves the kinds mkq renders and nothing else", "[kube][fake]") {
  kube::FakeClient fake;
  auto cq = fake.resource_for("kueue.x-k8s.io/v1beta2", "ClusterQueue");
  REQUIRE(cq.ok());
  CHECK(cq.value().plural == "clusterqueues");
  CHECK_FALSE(cq.value().namespaced);
  auto ns = fake.resource_for("v1", "Secret");
  REQUIRE(ns.ok());
  CHECK(ns.value().group.empty());
  CHECK(ns.value().namespaced);
  CHECK(fake.resource_for("apps/v1", "Deployment").error().not_found());
  fake.stop_serving("kueue.x-k8s.io/v1beta2", "ClusterQueue");
  CHECK(fake.resource_for("kueue.x-k8s.io/v1beta2", "ClusterQueue").error().not_found());
  fake.serve(kube::ResourceType{"apps", "v1", "Deployment", "deployments", true});
  CHECK(fake.resource_for("apps/v1", "Deployment").ok());
}

TEST_CASE("fake apply creates, then updates with uid, resourceVersion, generation and managedFields", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  auto created = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {});
  REQUIRE(created.ok());
  const Json& meta = created.value()["metadata"];
  CHECK_FALSE(meta["uid"].get<std::string>().empty());
  CHECK(meta["generation"] == 1);
  CHECK_FALSE(meta["creationTimestamp"].get<std::string>().empty());
  const std::string rv1 = meta["resourceVersion"];
  REQUIRE(meta["managedFields"].size() == 1);
  CHECK(meta["managedFields"][0]["manager"] == "mkq");
  CHECK(meta["managedFields"][0]["operation"] == "Apply");
  CHECK(meta["managedFields"][0]["fieldsType"] == "FieldsV1");
  CHECK(kube::paths_owned_by(created.value(), "mkq") ==
        std::vector<std::string>{"metadata.labels.app.kubernetes.io/managed-by", "metadata.name",
                                 "spec.namespaceSelector", "spec.queueingStrategy"});

  // The same apply again changes nothing, not even the resourceVersion.
  auto again = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {});
  REQUIRE(again.ok());
  CHECK(again.value()["metadata"]["resourceVersion"] == rv1);
  CHECK(again.value()["metadata"]["generation"] == 1);

  auto updated = fake.apply(type, cluster_queue("cq", "StrictFIFO"), {});
  REQUIRE(updated.ok());
  CHECK(updated.value()["spec"]["queueingStrategy"] == "StrictFIFO");
  CHECK(updated.value()["metadata"]["generation"] == 2);
  CHECK(updated.value()["metadata"]["uid"] == meta["uid"]);
  CHECK(std::stoll(updated.value()["metadata"]["resourceVersion"].get<std::string>()) > std::stoll(rv1));
  CHECK(fake.size() == 1);
}

TEST_CASE("fake apply removes fields the manager stops sending unless another manager has them", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  Json first = cluster_queue("cq", "BestEffortFIFO");
  first["spec"]["cohortName"] = "all";
  first["spec"]["stopPolicy"] = "Hold";
  REQUIRE(fake.apply(type, first, {}).ok());
  // Another manager sends stopPolicy with the same value: shared ownership.
  Json other = Json{{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "ClusterQueue"},
                    {"metadata", {{"name", "cq"}}}, {"spec", {{"stopPolicy", "Hold"}}}};
  REQUIRE(fake.apply(type, other, kube::ApplyOptions{"helm", false, false}).ok());

  auto second = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {});
  REQUIRE(second.ok());
  CHECK_FALSE(second.value()["spec"].contains("cohortName"));
  CHECK(second.value()["spec"]["stopPolicy"] == "Hold");
}

TEST_CASE("fake apply reports a conflict with another manager, force takes the field", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  REQUIRE(fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {}).ok());
  Json edited = *fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
  edited["spec"]["queueingStrategy"] = "StrictFIFO";
  fake.put(edited, "kubectl");
  CHECK(kube::paths_owned_by(*fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq"), "kubectl") ==
        std::vector<std::string>{"spec.queueingStrategy"});

  auto conflict = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {});
  REQUIRE_FALSE(conflict.ok());
  CHECK(conflict.error().conflict());
  CHECK(conflict.error().reason == "Conflict");
  CHECK(conflict.error().message == "Apply failed with 1 conflict: conflict with \"kubectl\": .spec.queueingStrategy");

  auto forced = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), kube::ApplyOptions{"mkq", true, false});
  REQUIRE(forced.ok());
  CHECK(forced.value()["spec"]["queueingStrategy"] == "BestEffortFIFO");
  CHECK(kube::paths_owned_by(forced.value(), "kubectl").empty());
}

TEST_CASE("fake put keeps identity and bumps the resourceVersion, status does not bump generation", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  const Json created = fake.apply(type, cluster_queue("cq", "BestEffortFIFO"), {}).value();
  Json with_status = created;
  with_status["status"] = Json{{"conditions", Json::array({Json{{"type", "Active"}, {"status", "True"}}})}};
  fake.put(with_status, "kueue-controller");
  const Json stored = *fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
  CHECK(stored["metadata"]["uid"] == created["metadata"]["uid"]);
  CHECK(stored["metadata"]["generation"] == 1);
  CHECK(stored["metadata"]["resourceVersion"] != created["metadata"]["resourceVersion"]);
  CHECK(stored["status"]["conditions"][0]["status"] == "True");
  // A later apply by mkq does not conflict: the controller changed no field mkq sends.
  CHECK(fake.apply(type, cluster_queue("cq", "StrictFIFO"), {}).ok());
}

TEST_CASE("fake delete: finalizers set deletionTimestamp until finish_deletion", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  Json cq = cluster_queue("cq", "BestEffortFIFO");
  REQUIRE(fake.apply(type, cq, {}).ok());
  Json stored = *fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
  stored["metadata"]["finalizers"] = Json::array({"kueue.x-k8s.io/resource-in-use"});
  fake.put(stored, "kueue-controller");

  kube::DeleteOptions wrong_uid;
  wrong_uid.precondition_uid = "nope";
  CHECK(fake.remove(type, "", "cq", wrong_uid).error().conflict());

  auto deleting = fake.remove(type, "", "cq", {});
  REQUIRE(deleting.ok());
  CHECK(deleting.value()["metadata"].contains("deletionTimestamp"));
  CHECK(fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq").has_value());
  fake.finish_deletion();
  CHECK_FALSE(fake.object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq").has_value());
  CHECK(fake.remove(type, "", "cq", {}).error().not_found());

  REQUIRE(fake.apply(type, cq, {}).ok());
  REQUIRE(fake.remove(type, "", "cq", {}).ok());
  CHECK(fake.size() == 0);
}

TEST_CASE("fake list filters by namespace and label selector, calls are recorded", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "LocalQueue");
  for (const auto& [ns, name, team] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"a", "q1", "x"}, {"a", "q2", "y"}, {"b", "q3", "x"}}) {
    Json lq{{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", "LocalQueue"},
            {"metadata", {{"name", name}, {"namespace", ns}, {"labels", {{"team", team}, {"env", "prod"}}}}},
            {"spec", {{"clusterQueue", "cq"}}}};
    REQUIRE(fake.apply(type, lq, {}).ok());
  }
  CHECK(fake.list(type, {}).value().items.size() == 3);
  kube::ListOptions in_a;
  in_a.namespace_name = "a";
  CHECK(fake.list(type, in_a).value().items.size() == 2);
  kube::ListOptions team_x;
  team_x.label_selector = "team=x,env=prod";
  CHECK(fake.list(type, team_x).value().items.size() == 2);
  team_x.label_selector = "team!=x";
  CHECK(fake.list(type, team_x).value().items.size() == 1);
  CHECK(fake.get(type, "b", "q3").ok());
  CHECK(fake.get(type, "b", "q9").error().not_found());

  int events = 0;
  REQUIRE(fake.watch(type, kube::WatchOptions{}, [&](const kube::WatchEvent& e) {
                CHECK(e.type == "ADDED");
                return ++events < 2;
              }).ok());
  CHECK(events == 2);
  CHECK(fake.request("POST", "/api/v1/namespaces/a/serviceaccounts/s/token", nullptr, "application/json")
            .error()
            .not_found());

  const auto calls = fake.calls();
  REQUIRE(calls.size() == 11);
  CHECK(calls[0] == "PATCH /apis/kueue.x-k8s.io/v1beta2/namespaces/a/localqueues/q1");
  CHECK(calls[3] == "LIST /apis/kueue.x-k8s.io/v1beta2/localqueues");
  CHECK(calls[4] == "LIST /apis/kueue.x-k8s.io/v1beta2/namespaces/a/localqueues");
  CHECK(calls[7] == "GET /apis/kueue.x-k8s.io/v1beta2/namespaces/b/localqueues/q3");
  CHECK(calls[9] == "WATCH /apis/kueue.x-k8s.io/v1beta2/localqueues");
  CHECK(calls[10] == "POST /api/v1/namespaces/a/serviceaccounts/s/token");
  CHECK(fake.stats().lists == 4);
  CHECK(fake.stats().gets == 2);
  CHECK(fake.stats().requests == 11);
}

TEST_CASE("fake failure injection and unreachability", "[kube][fake]") {
  kube::FakeClient fake;
  const auto type = type_of(fake, "kueue.x-k8s.io/v1beta2", "ClusterQueue");
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call == "PATCH /apis/kueue.x-k8s.io/v1beta2/clusterqueues/bad") return kube::Error{500, "InternalError", "boom", Json()};
    return std::nullopt;
  });
  CHECK(fake.apply(type, cluster_queue("bad", "StrictFIFO"), {}).error().status == 500);
  CHECK(fake.apply(type, cluster_queue("good", "StrictFIFO"), {}).ok());
  fake.set_unreachable(true);
  const auto error = fake.list(type, {}).error();
  CHECK(error.transport());
  CHECK(error.reason == "ConnectionFailed");
  CHECK_FALSE(fake.resource_for("kueue.x-k8s.io/v1beta2", "ClusterQueue").ok());
  fake.set_unreachable(false);
  CHECK(fake.list(type, {}).value().items.size() == 1);
}
