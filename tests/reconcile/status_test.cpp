// `mkq status`'s library half: read_status over fake clusters (Active, not
// Active with a reason, missing condition, not found, unreachable), the text
// table and JSON exactly, --wait's polling, and one LIST per kind per cluster.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "compiler/kueue/schema.h"
#include "tests/support/fake_client.h"
#include "runtime/reconcile/active_condition.h"
#include "runtime/reconcile/status.h"

namespace mkq::reconcile {
namespace {

using namespace std::chrono_literals;  // NOLINT: tests only

constexpr const char* kManager = "manager-cluster";
constexpr const char* kWorker = "multikueue-test-worker1";

std::string api_version_of(const std::string& kind) {
  const kueue::schema::KindInfo* info = kueue::schema::find_kind(kind);
  return info == nullptr ? "example.com/v1" : std::string(info->api_version);
}

kueue::Object object_of(const std::string& kind, const std::string& namespace_name, const std::string& name) {
  kueue::Object object;
  object.api_version = api_version_of(kind);
  object.kind = kind;
  object.name = name;
  object.namespace_name = namespace_name;
  object.document = {{"apiVersion", object.api_version}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (!namespace_name.empty()) object.document["metadata"]["namespace"] = namespace_name;
  return object;
}

// The quickstart's shape: 5 objects with an Active condition on the manager
// (among others status must not read), 2 on the worker.
kueue::DesiredState quickstart() {
  kueue::DesiredState desired;
  kueue::ClusterObjects manager;
  manager.cluster = kManager;
  manager.role = kueue::ClusterRole::Manager;
  manager.objects = {object_of("Namespace", "", "default"),
                     object_of("Secret", "kueue-system", "worker1-secret"),
                     object_of("ResourceFlavor", "", "default-flavor"),
                     object_of("MultiKueueCluster", "", kWorker),
                     object_of("MultiKueueConfig", "", "multikueue-test"),
                     object_of("AdmissionCheck", "", "sample-multikueue"),
                     object_of("ClusterQueue", "", "cluster-queue"),
                     object_of("LocalQueue", "default", "user-queue")};
  manager.objects[1].holds_credential_placeholder = true;
  kueue::ClusterObjects worker;
  worker.cluster = kWorker;
  worker.role = kueue::ClusterRole::Worker;
  worker.objects = {object_of("ResourceFlavor", "", "default-flavor"),
                    object_of("ClusterQueue", "", "cluster-queue"),
                    object_of("LocalQueue", "default", "user-queue")};
  desired.clusters = {manager, worker};
  return desired;
}

// Stores the object as Kueue's controller would leave it; an empty status
// leaves it without an Active condition.
void put(kube::FakeClient& fake, const std::string& kind, const std::string& namespace_name,
         const std::string& name, const std::string& status = "", const std::string& reason = "",
         const std::string& message = "") {
  kube::Json document = object_of(kind, namespace_name, name).document;
  if (!status.empty()) {
    document["status"] = {
        {"conditions", kube::Json::array({{{"type", "Active"},
                                           {"status", status},
                                           {"reason", reason},
                                           {"message", message},
                                           {"lastTransitionTime", "2026-01-01T00:00:00Z"}}})}};
  }
  fake.put(document, "kueue");
}

void all_active(kube::FakeClient& manager, kube::FakeClient& worker) {
  put(manager, "MultiKueueCluster", "", kWorker, "True", "Active", "Connected");
  put(manager, "AdmissionCheck", "", "sample-multikueue", "True", "Active", "The admission check is active");
  put(manager, "ClusterQueue", "", "cluster-queue", "True", "Ready", "Can admit new workloads");
  put(manager, "LocalQueue", "default", "user-queue", "True", "Ready",
      "Can submit new workloads to localQueue");
  put(worker, "ClusterQueue", "", "cluster-queue", "True", "Ready", "Can admit new workloads");
  put(worker, "LocalQueue", "default", "user-queue", "True", "Ready",
      "Can submit new workloads to localQueue");
}

Target target_of(const std::string& cluster, kueue::ClusterRole role, kube::Client* client) {
  Target target;
  target.cluster = cluster;
  target.role = role;
  target.client = client;
  return target;
}

struct Clusters {
  kube::FakeClient manager{"https://manager.invalid"};
  kube::FakeClient worker{"https://worker.invalid"};
  std::vector<Target> targets{target_of(kManager, kueue::ClusterRole::Manager, &manager),
                              target_of(kWorker, kueue::ClusterRole::Worker, &worker)};
};

const ObjectStatus* find(const StatusReport& report, const std::string& address) {
  for (const ClusterStatus& cluster : report.clusters) {
    for (const ObjectStatus& object : cluster.objects) {
      if (object.address == address) return &object;
    }
  }
  return nullptr;
}

int lists(const kube::FakeClient& fake) {
  int count = 0;
  for (const std::string& call : fake.calls()) count += call.rfind("LIST ", 0) == 0 ? 1 : 0;
  return count;
}

TEST_CASE("active_condition_of reads the Active condition of a live object", "[reconcile][status]") {
  const kube::Json object = {{"status",
                              {{"conditions", kube::Json::array({{{"type", "Other"}, {"status", "True"}},
                                                                 {{"type", "Active"},
                                                                  {"status", "False"},
                                                                  {"reason", "ClientConnectionFailed"},
                                                                  {"message", "Unauthorized"}}})}}}};
  const ActiveCondition condition = active_condition_of(object);
  CHECK(condition.present);
  CHECK_FALSE(condition.active());
  CHECK(condition.status == "False");
  CHECK(condition.reason == "ClientConnectionFailed");
  CHECK(condition.message == "Unauthorized");
  CHECK_FALSE(active_condition_of(kube::Json::object()).present);
  CHECK_FALSE(active_condition_of(kube::Json("not an object")).present);
  CHECK_FALSE(active_condition_of(kube::Json{{"status", {{"conditions", "x"}}}}).present);
  CHECK(active_condition_of(kube::Json{{"status", {{"conditions", {{{"type", "Active"}}}}}}}).status ==
        "Unknown");
  CHECK(reports_active_condition("kueue.x-k8s.io/v1beta2", "MultiKueueCluster"));
  CHECK_FALSE(reports_active_condition("kueue.x-k8s.io/v1beta2", "ResourceFlavor"));
  CHECK_FALSE(reports_active_condition("v1", "Secret"));
}

TEST_CASE("status: every object Active, the table and one LIST per kind per cluster", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  const StatusReport report = read_status(quickstart(), clusters.targets, {});

  REQUIRE(report.clusters.size() == 2);
  CHECK(report.clusters[0].cluster == kManager);
  CHECK(report.clusters[0].role == kueue::ClusterRole::Manager);
  CHECK(report.clusters[0].objects.size() == 4);
  CHECK(report.clusters[1].objects.size() == 2);
  CHECK(report.total() == 6);
  CHECK(report.active() == 6);
  CHECK(report.all_active());
  CHECK(report.all_reachable());

  CHECK(
      render_status_text(report, false) ==
      "manager-cluster (manager)\n"
      "  KIND               NAME                     ACTIVE  REASON  MESSAGE\n"
      "  MultiKueueCluster  multikueue-test-worker1  True    Active  Connected\n"
      "  AdmissionCheck     sample-multikueue        True    Active  The admission check is active\n"
      "  ClusterQueue       cluster-queue            True    Ready   Can admit new workloads\n"
      "  LocalQueue         default/user-queue       True    Ready   Can submit new workloads to localQueue\n"
      "\n"
      "multikueue-test-worker1 (worker)\n"
      "  KIND          NAME                ACTIVE  REASON  MESSAGE\n"
      "  ClusterQueue  cluster-queue       True    Ready   Can admit new workloads\n"
      "  LocalQueue    default/user-queue  True    Ready   Can submit new workloads to localQueue\n"
      "\n"
      "6 of 6 objects Active.\n");

  // One LIST per kind per cluster, no GET, and never a Secret.
  CHECK(lists(clusters.manager) == 4);
  CHECK(lists(clusters.worker) == 2);
  for (const kube::FakeClient* fake : {&clusters.manager, &clusters.worker}) {
    CHECK(fake->stats().gets == 0);
    for (const std::string& call : fake->calls()) {
      CHECK(call.find("secrets") == std::string::npos);
      CHECK(call.rfind("LIST ", 0) == 0);
    }
  }
}

TEST_CASE("status: not Active with a reason, no condition yet, not found", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.manager, "MultiKueueCluster", "", kWorker, "False", "ClientConnectionFailed", "Unauthorized");
  put(clusters.manager, "AdmissionCheck", "", "sample-multikueue");  // no condition yet
  put(clusters.worker, "ClusterQueue", "", "cluster-queue", "Unknown", "", "");
  const auto local_queue = clusters.worker.resource_for("kueue.x-k8s.io/v1beta2", "LocalQueue");
  REQUIRE(local_queue.ok());
  REQUIRE(clusters.worker.remove(local_queue.value(), "default", "user-queue", {}).ok());
  const StatusReport report = read_status(quickstart(), clusters.targets, {});

  const ObjectStatus* mc = find(report, "manager-cluster/MultiKueueCluster/multikueue-test-worker1");
  REQUIRE(mc != nullptr);
  CHECK(mc->state == ActiveState::False);
  CHECK(mc->reason == "ClientConnectionFailed");
  CHECK(mc->message == "Unauthorized");
  const ObjectStatus* ac = find(report, "manager-cluster/AdmissionCheck/sample-multikueue");
  REQUIRE(ac != nullptr);
  CHECK(ac->state == ActiveState::Missing);
  const ObjectStatus* lq = find(report, "multikueue-test-worker1/LocalQueue/default/user-queue");
  REQUIRE(lq != nullptr);
  CHECK(lq->state == ActiveState::NotFound);
  CHECK(report.active() == 2);
  CHECK_FALSE(report.all_active());
  CHECK(report.all_reachable());

  CHECK(render_status_text(report, false) ==
        "manager-cluster (manager)\n"
        "  KIND               NAME                     ACTIVE   REASON                  MESSAGE\n"
        "  MultiKueueCluster  multikueue-test-worker1  False    ClientConnectionFailed  Unauthorized\n"
        "  AdmissionCheck     sample-multikueue        missing\n"
        "  ClusterQueue       cluster-queue            True     Ready                   Can admit new "
        "workloads\n"
        "  LocalQueue         default/user-queue       True     Ready                   Can submit new "
        "workloads to "
        "localQueue\n"
        "\n"
        "multikueue-test-worker1 (worker)\n"
        "  KIND          NAME                ACTIVE     REASON  MESSAGE\n"
        "  ClusterQueue  cluster-queue       Unknown\n"
        "  LocalQueue    default/user-queue  not found\n"
        "\n"
        "2 of 6 objects Active; not Active: manager-cluster/MultiKueueCluster/multikueue-test-worker1 "
        "(ClientConnectionFailed: Unauthorized), manager-cluster/AdmissionCheck/sample-multikueue (no Active "
        "condition yet), multikueue-test-worker1/ClusterQueue/cluster-queue (Active=Unknown), "
        "multikueue-test-worker1/LocalQueue/default/user-queue (not found)\n");
}

TEST_CASE("status: an unreachable cluster is reported with its error", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  clusters.worker.set_unreachable(true);
  StatusReport report = read_status(quickstart(), clusters.targets, {});
  REQUIRE(report.clusters.size() == 2);
  CHECK(report.clusters[0].reachable);
  CHECK_FALSE(report.clusters[1].reachable);
  CHECK(report.clusters[1].error == "connection refused: https://worker.invalid cannot be reached");
  REQUIRE(report.clusters[1].objects.size() == 2);
  CHECK(report.clusters[1].objects[0].state == ActiveState::Unreadable);
  CHECK(report.active() == 4);
  CHECK(report.total() == 6);
  CHECK_FALSE(report.all_reachable());
  const std::string text = render_status_text(report, false);
  CHECK(text.find("multikueue-test-worker1 (worker)\n"
                  "  cannot be read: connection refused: https://worker.invalid cannot be reached\n\n") !=
        std::string::npos);
  CHECK(status_summary(report) ==
        "4 of 6 objects Active; cannot read: multikueue-test-worker1 (connection refused: "
        "https://worker.invalid "
        "cannot be reached)");

  // No connection at all (a context that could not be resolved), and no target.
  std::vector<Target> targets = clusters.targets;
  targets[1].client = nullptr;
  targets[1].connect_error = "no context \"multikueue-test-worker1\" in the kubeconfig";
  report = read_status(quickstart(), targets, {});
  CHECK_FALSE(report.clusters[1].reachable);
  CHECK(report.clusters[1].error == "no context \"multikueue-test-worker1\" in the kubeconfig");
  report = read_status(quickstart(), {clusters.targets[0]}, {});
  REQUIRE(report.clusters.size() == 2);
  CHECK_FALSE(report.clusters[1].reachable);
  CHECK(report.clusters[1].error == "no connection to the cluster");
}

TEST_CASE("status: JSON", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.manager, "MultiKueueCluster", "", kWorker, "False", "ClientConnectionFailed", "Unauthorized");
  clusters.worker.set_unreachable(true);
  const kube::Json json = render_status_json(read_status(quickstart(), clusters.targets, {}));
  CHECK(
      json.dump() ==
      R"({"format_version":1,"clusters":[{"name":"manager-cluster","role":"manager","reachable":true,"error":"","objects":[)"
      R"({"address":"manager-cluster/MultiKueueCluster/multikueue-test-worker1","kind":"MultiKueueCluster","namespace":"","name":"multikueue-test-worker1","active":false,"condition":"False","reason":"ClientConnectionFailed","message":"Unauthorized"},)"
      R"({"address":"manager-cluster/AdmissionCheck/sample-multikueue","kind":"AdmissionCheck","namespace":"","name":"sample-multikueue","active":true,"condition":"True","reason":"Active","message":"The admission check is active"},)"
      R"({"address":"manager-cluster/ClusterQueue/cluster-queue","kind":"ClusterQueue","namespace":"","name":"cluster-queue","active":true,"condition":"True","reason":"Ready","message":"Can admit new workloads"},)"
      R"({"address":"manager-cluster/LocalQueue/default/user-queue","kind":"LocalQueue","namespace":"default","name":"user-queue","active":true,"condition":"True","reason":"Ready","message":"Can submit new workloads to localQueue"}]},)"
      R"({"name":"multikueue-test-worker1","role":"worker","reachable":false,"error":"connection refused: https://worker.invalid cannot be reached","objects":[)"
      R"({"address":"multikueue-test-worker1/ClusterQueue/cluster-queue","kind":"ClusterQueue","namespace":"","name":"cluster-queue","active":false,"condition":"unreadable","reason":"","message":""},)"
      R"({"address":"multikueue-test-worker1/LocalQueue/default/user-queue","kind":"LocalQueue","namespace":"default","name":"user-queue","active":false,"condition":"unreadable","reason":"","message":""}]}],)"
      R"("summary":{"active":3,"total":6}})");
}

TEST_CASE("status: colour marks ACTIVE green or red without shifting the columns", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.worker, "ClusterQueue", "", "cluster-queue", "False", "Stopped", "stopped");
  const std::string text = render_status_text(read_status(quickstart(), clusters.targets, {}), true);
  CHECK(text.find("  ClusterQueue       cluster-queue            \x1b[32mTrue\x1b[0m    Ready") !=
        std::string::npos);
  CHECK(text.find("  ClusterQueue  cluster-queue       \x1b[31mFalse\x1b[0m   Stopped") != std::string::npos);
}

TEST_CASE("status: a message with a newline stays on its row", "[reconcile][status]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.worker, "ClusterQueue", "", "cluster-queue", "False", "Bad", "line one\nline two");
  const std::string text = render_status_text(read_status(quickstart(), clusters.targets, {}), false);
  CHECK(text.find("False   Bad     line one line two\n") != std::string::npos);
}

TEST_CASE("status --wait polls until every object is Active", "[reconcile][status][wait]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.manager, "MultiKueueCluster", "", kWorker, "False", "ClientConnectionFailed", "Unauthorized");
  std::thread kueue([&] {
    std::this_thread::sleep_for(60ms);
    put(clusters.manager, "MultiKueueCluster", "", kWorker, "True", "Active", "Connected");
  });
  int polls = 0;
  const StatusReport report = wait_for_status(quickstart(), clusters.targets, {}, 5000ms, 10ms,
                                              [&](const StatusReport&) { ++polls; });
  kueue.join();
  CHECK(report.all_active());
  CHECK(polls >= 2);
  // Every poll: one LIST per kind per cluster.
  CHECK(lists(clusters.manager) == 4 * polls);
  CHECK(lists(clusters.worker) == 2 * polls);
}

TEST_CASE("status --wait gives up at the deadline with the last read", "[reconcile][status][wait]") {
  Clusters clusters;
  all_active(clusters.manager, clusters.worker);
  put(clusters.manager, "MultiKueueCluster", "", kWorker, "False", "ClientConnectionFailed", "Unauthorized");
  const auto started = std::chrono::steady_clock::now();
  const StatusReport report = wait_for_status(quickstart(), clusters.targets, {}, 100ms, 20ms);
  const auto took = std::chrono::steady_clock::now() - started;
  CHECK_FALSE(report.all_active());
  CHECK(took >= 100ms);
  CHECK(took < 3000ms);
  CHECK(status_summary(report) ==
        "5 of 6 objects Active; not Active: manager-cluster/MultiKueueCluster/multikueue-test-worker1 "
        "(ClientConnectionFailed: Unauthorized)");
}

TEST_CASE("status: a policy whose clusters hold no such object", "[reconcile][status]") {
  kueue::DesiredState desired;
  kueue::ClusterObjects manager;
  manager.cluster = kManager;
  manager.role = kueue::ClusterRole::Manager;
  manager.objects = {object_of("ResourceFlavor", "", "default-flavor")};
  desired.clusters = {manager};
  kube::FakeClient fake;
  const StatusReport report =
      read_status(desired, {target_of(kManager, kueue::ClusterRole::Manager, &fake)}, {});
  CHECK(report.total() == 0);
  CHECK(report.all_active());
  CHECK(fake.calls().empty());
  CHECK(render_status_text(report, false) ==
        "manager-cluster (manager)\n  no objects with an Active condition\n\n0 of 0 objects Active.\n");
}

}  // namespace
}  // namespace mkq::reconcile
