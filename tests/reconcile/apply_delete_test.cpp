// The apply executor's deletions and replaces: preconditions, finalizers, 404s.
#include <catch2/catch.hpp>
#include <thread>

#include "apply_test_support.h"
#include "tests/support/result.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kWorker = kueue::ClusterRole::Worker;
const std::string kKueue = "kueue.x-k8s.io/v1beta2";

// Records `address` in the inventory as a previous apply would have.
void remember(state::StateStore& store, const std::string& cluster, const std::string& kind,
              const std::string& namespace_name, const std::string& name, const std::string& uid) {
  state::InventoryEntry entry;
  entry.ref.cluster = cluster;
  entry.ref.api_version = api_version_of(kind);
  entry.ref.kind = kind;
  entry.ref.namespace_name = namespace_name;
  entry.ref.name = name;
  entry.uid = uid;
  entry.resource_version = "1";
  entry.digest = "sha256:old";
  entry.applied_at = "2026-01-01T00:00:00Z";
  std::string error;
  REQUIRE(mkq::testing::take(store.record_applied(entry), &error));
}

std::string uid_of(const kube::FakeClient& fake, const std::string& kind, const std::string& namespace_name,
                   const std::string& name) {
  const auto object = fake.object(api_version_of(kind), kind, namespace_name, name);
  REQUIRE(object);
  return (*object)["metadata"]["uid"].get<std::string>();
}

Json held(Json document) {
  document["metadata"]["finalizers"] = Json::array({"test.mkq.dev/hold"});
  return document;
}

TEST_CASE("apply replaces an object: delete, wait until gone, create", "[reconcile][apply][replace]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(held(document_of("LocalQueue", "team", "lq", {{"clusterQueue", "old"}})), "mkq");
  const std::string old_uid = uid_of(fake, "LocalQueue", "team", "lq");
  remember(*state.store, "w1", "LocalQueue", "team", "lq", old_uid);

  Change replace = change_of("w1", Action::Replace, "LocalQueue", "team", "lq", {{"clusterQueue", "new"}});
  replace.live_uid = old_uid;
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {replace}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};

  // A controller removes the finalizer a little later.
  std::thread controller([&fake] {
    std::this_thread::sleep_for(60ms);
    fake.finish_deletion();
  });
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  controller.join();

  REQUIRE(report.success());
  const auto object = fake.object(kKueue, "LocalQueue", "team", "lq");
  REQUIRE(object);
  CHECK((*object)["spec"]["clusterQueue"] == "new");
  const std::string new_uid = (*object)["metadata"]["uid"].get<std::string>();
  CHECK(new_uid != old_uid);
  CHECK_FALSE((*object)["metadata"].contains("deletionTimestamp"));

  // DELETE, at least one GET while it was terminating, then the PATCH.
  const std::vector<std::string> calls = fake.calls();
  std::vector<std::string> verbs;
  for (const std::string& call : calls) verbs.push_back(call.substr(0, call.find(' ')));
  REQUIRE(verbs.size() >= 3);
  CHECK(verbs.front() == "DELETE");
  CHECK(verbs[1] == "GET");
  CHECK(verbs.back() == "PATCH");

  const auto entry = state.store->find("w1/LocalQueue/team/lq").value();
  REQUIRE(entry);
  CHECK(entry->uid == new_uid);
}

TEST_CASE("apply refuses to replace an object recreated by someone else", "[reconcile][apply][replace]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(document_of("LocalQueue", "team", "lq", {{"clusterQueue", "old"}}), "kubectl");
  Change replace = change_of("w1", Action::Replace, "LocalQueue", "team", "lq", {{"clusterQueue", "new"}});
  replace.live_uid = "uid-the-plan-saw";
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {replace}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};

  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.failed == 1);
  CHECK(report.results[0].error.message.rfind("cannot delete for the replace: Precondition failed", 0) == 0);
  CHECK(report.results[0].error.address == "w1/LocalQueue/team/lq");
  CHECK(report.results[0].error.status != 0);  // the server's refusal, reworded
  CHECK((*fake.object(kKueue, "LocalQueue", "team", "lq"))["spec"]["clusterQueue"] == "old");
}

TEST_CASE("apply waits for a deletion's finalizers", "[reconcile][apply][delete]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(held(document_of("ClusterQueue", "", "cq")), "mkq");
  const std::string uid = uid_of(fake, "ClusterQueue", "", "cq");
  remember(*state.store, "w1", "ClusterQueue", "", "cq", uid);
  Change deletion = change_of("w1", Action::Delete, "ClusterQueue", "", "cq");
  deletion.live_uid = uid;
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {deletion}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};

  SECTION("until the controller lets go") {
    std::thread controller([&fake] {
      std::this_thread::sleep_for(50ms);
      fake.finish_deletion();
    });
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
    controller.join();
    REQUIRE(report.success());
    CHECK(fake.size() == 0);
    CHECK_FALSE(state.store->find("w1/ClusterQueue/cq").value());
  }
  SECTION("and fails at the deletion timeout naming the finalizers") {
    ApplyOptions options = fast_options();
    options.deletion_timeout = 80ms;
    const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
    REQUIRE(report.failed == 1);
    CHECK(report.results[0].error.message == "still present after 80ms: finalizers [test.mkq.dev/hold]");
    CHECK(base::render(report.results[0].error) ==
          "w1/ClusterQueue/cq: still present after 80ms: finalizers [test.mkq.dev/hold]");
    // Still in the inventory: the next plan deletes it again.
    CHECK(state.store->find("w1/ClusterQueue/cq").value());
  }
}

TEST_CASE("apply counts a deletion of an object already gone as done", "[reconcile][apply][delete]") {
  StateFixture state;
  kube::FakeClient fake;
  remember(*state.store, "w1", "ClusterQueue", "", "cq", "uid-1");
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {change_of("w1", Action::Delete, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  REQUIRE(report.success());
  CHECK(calls_of(fake, "DELETE").size() == 1);
  CHECK_FALSE(state.store->find("w1/ClusterQueue/cq").value());
}

TEST_CASE("apply forgets an inventory object that is already gone without a request", "[reconcile][apply][delete]") {
  StateFixture state;
  kube::FakeClient fake;
  remember(*state.store, "w1", "ClusterQueue", "", "gone", "uid-1");
  Change gone = change_of("w1", Action::NoOp, "ClusterQueue", "", "gone");
  gone.reason = reconcile::Reason::AlreadyGone;
  Plan plan;
  plan.clusters.push_back(cluster_plan("w1", kWorker, {gone}));
  const std::vector<Target> targets{target_of("w1", kWorker, &fake)};
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, fast_options());
  CHECK(report.success());
  CHECK(report.results.empty());
  CHECK(fake.calls().empty());
  CHECK_FALSE(state.store->find("w1/ClusterQueue/gone").value());
}

}  // namespace
}  // namespace mkq::reconcile::testing
