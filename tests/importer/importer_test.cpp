// runtime/importer without ../shared: live reading through a fake client,
// how workers are written (a loop when alike, an override where one differs),
// what is reported, bad input, and what --adopt lets apply do.
#include <catch2/catch.hpp>

#include <fstream>

#include "runtime/importer/adopt.h"
#include "runtime/importer/importer.h"
#include "tests/support/fake_client.h"
#include "tests/support/temp_dir.h"

namespace {

using mkq::importer::Finding;
using mkq::importer::Json;

Json object(const std::string& kind, const std::string& name, Json spec, const std::string& ns = "") {
  Json o = {{"apiVersion", "kueue.x-k8s.io/v1beta2"}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (!ns.empty()) o["metadata"]["namespace"] = ns;
  if (!spec.is_null()) o["spec"] = std::move(spec);
  return o;
}

Json queue(const std::string& name, int cpu, const std::string& check = "") {
  Json spec = Json::parse(R"({"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu"],
      "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 0}]}]}]})");
  spec["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = cpu;
  if (!check.empty()) spec["admissionChecksStrategy"]["admissionChecks"] = Json::array({{{"name", check}}});
  return object("ClusterQueue", name, spec);
}

// A manager dispatching "batch" to w1 and w2, and each worker's objects.
mkq::importer::Snapshot fleet(int w1_cpu, int w2_cpu) {
  mkq::importer::Snapshot s;
  s.clusters.reserve(3);  // `hub` stays valid while the workers are added
  auto& hub = s.clusters.emplace_back();
  hub.name = "hub";
  hub.objects = {object("ResourceFlavor", "f", nullptr), queue("batch", 16, "mk"),
                 object("LocalQueue", "lq", {{"clusterQueue", "batch"}}, "team"),
                 object("AdmissionCheck", "mk",
                        {{"controllerName", "kueue.x-k8s.io/multikueue"},
                         {"parameters",
                          {{"apiGroup", "kueue.x-k8s.io"}, {"kind", "MultiKueueConfig"}, {"name", "mk"}}}}),
                 object("MultiKueueConfig", "mk", {{"clusters", {"w1", "w2"}}})};
  for (const std::string w : {"w1", "w2"}) {
    hub.objects.push_back(object(
        "MultiKueueCluster", w,
        {{"clusterSource", {{"kubeConfig", {{"locationType", "Secret"}, {"location", w + "-secret"}}}}}}));
    auto& worker = s.clusters.emplace_back();
    worker.name = w;
    worker.role = mkq::kueue::ClusterRole::Worker;
    worker.objects = {object("ResourceFlavor", "f", nullptr), queue("batch-w", w == "w1" ? w1_cpu : w2_cpu),
                      object("LocalQueue", "lq", {{"clusterQueue", "batch-w"}}, "team")};
  }
  return s;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> unsaid(const mkq::importer::Imported& imported) {
  std::vector<std::string> out;
  for (const Finding& f : imported.findings) {
    if (f.kind != Finding::Kind::Note) out.push_back(mkq::importer::describe(f));
  }
  return out;
}

}  // namespace

TEST_CASE("import writes workers that differ only in their name as one loop", "[import]") {
  auto imported = mkq::importer::import_policy(fleet(8, 8), {"hub"});
  if (!imported) FAIL(mkq::base::render(imported.error()));
  const std::string& policy = imported.value().policy;
  CHECK(contains(
      policy, "for name in [\"w1\", \"w2\"] {\n  worker \"${name}\" {\n    secret = \"${name}-secret\"\n"));
  CHECK(contains(policy, "worker_name = \"batch-w\""));
  CHECK(contains(policy, "override \"batch\" {\n      quota \"f\" { cpu = 8 }\n    }"));
  CHECK(unsaid(imported.value()).empty());
}

TEST_CASE("import writes a worker that differs as a block of its own with its override", "[import]") {
  auto imported = mkq::importer::import_policy(fleet(8, 4), {"hub"});
  if (!imported) FAIL(mkq::base::render(imported.error()));
  const std::string& policy = imported.value().policy;
  CHECK_FALSE(contains(policy, "for name in"));
  CHECK(contains(policy, "worker \"w1\" {"));
  CHECK(contains(policy, "worker \"w2\" {"));
  CHECK(contains(policy, "quota \"f\" { cpu = 4 }"));
  CHECK(contains(policy, "quota \"f\" { cpu = 8 }"));
  CHECK(unsaid(imported.value()).empty());
}

TEST_CASE("import reports each field the language cannot say with the object's address", "[import]") {
  mkq::importer::Snapshot s;
  auto& hub = s.clusters.emplace_back();
  hub.name = "hub";
  Json flavor = object("ResourceFlavor", "f", nullptr);
  flavor["metadata"]["labels"] = {{"team", "a"}};
  flavor["metadata"]["annotations"] = {{"kubectl.kubernetes.io/last-applied-configuration", "{}"}};
  Json q = queue("batch", 4);
  q["spec"]["admissionScope"] = {{"admissionMode", "UsageBasedAdmissionFairSharing"}};
  q["spec"]["queueingStrategy"] = "BestEffortFIFO";  // Kueue's default: no finding
  hub.objects = {flavor, q, object("LocalQueue", "orphan", {{"clusterQueue", "gone"}}, "team")};
  auto imported = mkq::importer::import_policy(s, {"hub"});
  if (!imported) FAIL(mkq::base::render(imported.error()));
  CHECK(unsaid(imported.value()) ==
        std::vector<std::string>{
            "dropped: hub/ResourceFlavor/f: metadata.labels.team = \"a\": the policy cannot say it",
            "dropped: hub/ClusterQueue/batch: spec.admissionScope.admissionMode = "
            "\"UsageBasedAdmissionFairSharing\": "
            "the policy cannot say it",
            "not imported: hub/LocalQueue/team/orphan: the policy does not declare it"});
  CHECK_FALSE(contains(imported.value().policy, "queueing_strategy"));
}

TEST_CASE("import reads live clusters through their clients and never a Secret", "[import]") {
  mkq::kube::FakeClient hub;
  mkq::kube::FakeClient worker;
  Json cq = queue("batch", 4);
  cq["metadata"]["uid"] = "u-1";
  cq["metadata"]["resourceVersion"] = "7";
  cq["status"] = {{"pendingWorkloads", 0}};
  hub.put(cq);
  hub.put(object("ResourceFlavor", "f", nullptr));
  Json theirs = queue("other", 2);
  theirs["metadata"]["labels"] = {{"mkq.dev/policy", "tas"}};
  hub.put(theirs);
  hub.put(Json{{"apiVersion", "v1"},
               {"kind", "Secret"},
               {"metadata", {{"name", "s"}, {"namespace", "kueue-system"}}},
               {"data", {{"kubeconfig", "c2VjcmV0"}}}});
  auto snapshot = mkq::importer::read_live({"hub", "ctx-hub", &hub}, {});
  REQUIRE(snapshot);
  const auto& objects = snapshot.value().clusters.front().objects;
  REQUIRE(objects.size() == 2);  // the flavor and batch: not tas's queue, not the Secret
  for (const Json& o : objects) {
    CHECK_FALSE(o.contains("status"));
    CHECK_FALSE(o["metadata"].contains("uid"));
    CHECK(o.value("kind", std::string()) != "Secret");
  }
  CHECK(snapshot.value().skipped ==
        std::vector<std::string>{"hub/ClusterQueue/other: applied by mkq policy 'tas'"});

  mkq::importer::WriteOptions options{"hub", mkq::importer::Credentials::Kubeconfig, ""};
  auto imported = mkq::importer::import_policy(snapshot.value(), options);
  if (!imported) FAIL(mkq::base::render(imported.error()));
  CHECK(contains(imported.value().policy, "manager \"hub\" { context = \"ctx-hub\" }"));

  worker.set_unreachable(true);
  auto failed = mkq::importer::read_live({"hub", "ctx-hub", &hub}, {{"w1", "ctx-w1", &worker}});
  REQUIRE_FALSE(failed);
  CHECK(contains(failed.error().message, "cluster w1 (context ctx-w1)"));
}

TEST_CASE("import's kubeconfig credentials name an environment variable and never a value", "[import]") {
  auto s = fleet(8, 8);
  auto imported = mkq::importer::import_policy(s, {"hub", mkq::importer::Credentials::Kubeconfig, ""});
  if (!imported) FAIL(mkq::base::render(imported.error()));
  CHECK(contains(imported.value().policy, "\"w1\": secret(\"env:MKQ_KUBECONFIG_W1\")"));
  CHECK(contains(imported.value().policy, "kubeconfig = kubeconfigs[name]"));
  CHECK(mkq::importer::kubeconfig_variable("multikueue-test.worker1") ==
        "MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1");
}

TEST_CASE("import refuses files it cannot read and names them", "[import][errors]") {
  mkq::testing::TempDir dir;
  const auto missing = mkq::importer::read_files("m", {(dir.path() / "none.yaml").string()}, {});
  REQUIRE_FALSE(missing);
  CHECK(contains(missing.error().message, "none.yaml"));
  const auto bad = dir.path() / "bad.yaml";
  std::ofstream(bad) << "kind: [unclosed\n";
  const auto broken = mkq::importer::read_files("m", {bad.string()}, {});
  REQUIRE_FALSE(broken);
  CHECK(contains(broken.error().message, "bad.yaml: not YAML"));
}

TEST_CASE("import --adopt lets a plan through only when it adds mkq's labels to existing objects",
          "[import][adopt]") {
  using mkq::reconcile::Action;
  mkq::reconcile::Plan plan;
  auto& cluster = plan.clusters.emplace_back();
  cluster.cluster = "hub";
  mkq::reconcile::Change labels;
  labels.ref = {"hub", "kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "batch"};
  labels.action = Action::Update;
  labels.adopted = true;
  labels.fields = {{"metadata.labels.app.kubernetes.io/managed-by", std::nullopt, Json("mkq")},
                   {"metadata.labels.mkq.dev/policy", std::nullopt, Json("p")}};
  mkq::reconcile::Change same;
  same.ref = {"hub", "kueue.x-k8s.io/v1beta2", "ResourceFlavor", "", "f"};
  same.action = Action::NoOp;
  cluster.changes = {labels, same};
  CHECK(mkq::importer::beyond_adoption(plan).empty());

  mkq::reconcile::Change field = labels;
  field.fields.push_back({"spec.stopPolicy", Json("Hold"), Json("None")});
  mkq::reconcile::Change create;
  create.ref = {"hub", "kueue.x-k8s.io/v1beta2", "LocalQueue", "team", "lq"};
  create.action = Action::Create;
  cluster.changes = {field, create};
  const std::vector<std::string> refused = mkq::importer::beyond_adoption(plan);
  REQUIRE(refused.size() == 2);
  CHECK(refused[0] == "hub/ClusterQueue/batch: spec.stopPolicy would change");
  CHECK(contains(refused[1], "hub/LocalQueue/team/lq: "));
}
