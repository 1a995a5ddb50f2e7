// --wait: until the plan's Kueue objects report Active=True, with one LIST per
// kind per cluster per poll.
#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "apply_test_support.h"

namespace mkq::reconcile::testing {
namespace {

constexpr auto kManager = kueue::ClusterRole::Manager;
const std::string kKueue = "kueue.x-k8s.io/v1beta2";

// Plays Kueue's controller: sets the Active condition of an object once it exists.
void set_active(kube::FakeClient& fake, const std::string& kind, const std::string& namespace_name,
                const std::string& name, const std::string& status, const std::string& reason,
                const std::string& message) {
  // Wait (bounded) until apply created it.
  auto object = fake.object(kKueue, kind, namespace_name, name);
  for (int attempt = 0; !object && attempt < 400; ++attempt) {
    std::this_thread::sleep_for(5ms);
    object = fake.object(kKueue, kind, namespace_name, name);
  }
  if (!object) return;
  fake.put(with_active_condition(*object, status, reason, message), "kueue");
}

Plan queue_plan() {
  Plan plan;
  Change unchanged = change_of("manager", Action::NoOp, "AdmissionCheck", "", "multikueue");
  unchanged.live_uid = "uid-ac";
  plan.clusters.push_back(cluster_plan(
      "manager", kManager,
      {change_of("manager", Action::Create, "Namespace", "", "team"),
       change_of("manager", Action::Create, "ResourceFlavor", "", "default"), unchanged,
       change_of("manager", Action::Create, "ClusterQueue", "", "cq"),
       change_of("manager", Action::Create, "LocalQueue", "team", "lq", {{"clusterQueue", "cq"}})}));
  return plan;
}

TEST_CASE("apply --wait returns once every Kueue object is Active", "[reconcile][apply][wait]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(document_of("AdmissionCheck", "", "multikueue"), "mkq");
  const Plan plan = queue_plan();
  const std::vector<Target> targets{target_of("manager", kManager, &fake)};
  EventLog log;
  ApplyOptions options = fast_options();
  options.wait = 3000ms;
  options.poll_interval = 10ms;
  options.progress = log.callback();

  std::thread kueue([&] {
    std::this_thread::sleep_for(40ms);
    set_active(fake, "AdmissionCheck", "", "multikueue", "True", "Active", "The admission check is active");
    set_active(fake, "ClusterQueue", "", "cq", "True", "Ready", "Can admit new workloads");
    std::this_thread::sleep_for(30ms);
    set_active(fake, "LocalQueue", "team", "lq", "True", "Ready", "Can submit new workloads to localQueue");
  });
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  kueue.join();

  CHECK(report.success());
  CHECK(report.wait_failures.empty());
  using Phase = ProgressEvent::Phase;
  CHECK(log.index_of(Phase::Ready, "manager/ClusterQueue/cq") >= 0);
  CHECK(log.index_of(Phase::Ready, "manager/LocalQueue/team/lq") >= 0);
  CHECK(log.index_of(Phase::Ready, "manager/AdmissionCheck/multikueue") >= 0);
  CHECK(log.index_of(Phase::Ready, "manager/ResourceFlavor/default") < 0);  // no Active condition in Kueue
  const int waiting = log.index_of(Phase::Waiting, "manager/LocalQueue/team/lq");
  REQUIRE(waiting >= 0);
  CHECK(log.events()[static_cast<std::size_t>(waiting)].message == "no Active condition yet");

  // Polls list: never a GET per object.
  const std::vector<std::string> calls = fake.calls();
  int lists = 0;
  for (const std::string& call : calls) {
    CHECK(call.rfind("GET ", 0) != 0);
    lists += call.rfind("LIST ", 0) == 0 ? 1 : 0;
  }
  CHECK(lists >= 3);  // the first poll: one per kind
}

TEST_CASE("apply --wait names each object still not Active at the deadline", "[reconcile][apply][wait]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.put(document_of("AdmissionCheck", "", "multikueue"), "mkq");
  const Plan plan = queue_plan();
  const std::vector<Target> targets{target_of("manager", kManager, &fake)};
  ApplyOptions options = fast_options();
  options.wait = 120ms;
  options.poll_interval = 10ms;

  std::thread kueue([&] {
    std::this_thread::sleep_for(20ms);
    set_active(fake, "ClusterQueue", "", "cq", "False", "FlavorNotFound",
               "Can't admit new workloads: references missing ResourceFlavor(s): default-flavor");
    set_active(fake, "AdmissionCheck", "", "multikueue", "True", "Active", "The admission check is active");
  });
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  kueue.join();

  CHECK(report.failed == 0);
  CHECK_FALSE(report.success());
  CHECK(rendered(report.wait_failures) == std::vector<std::string>{
                                    "manager/ClusterQueue/cq: Active=False (FlavorNotFound): Can't admit new workloads: "
                                    "references missing ResourceFlavor(s): default-flavor",
                                    "manager/LocalQueue/team/lq: no Active condition yet"});
  // Each is an Error about its object, the address beside the words, not in them.
  REQUIRE(report.wait_failures.size() == 2);
  CHECK(report.wait_failures[1].address == "manager/LocalQueue/team/lq");
  CHECK(report.wait_failures[1].message == "no Active condition yet");
  CHECK(report.wait_failures[0].reason == "Timeout");
  CHECK(report.wait_failures[1].reason == "Timeout");
}

TEST_CASE("apply --wait does not wait for objects that failed", "[reconcile][apply][wait]") {
  StateFixture state;
  kube::FakeClient fake;
  fake.fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.rfind("PATCH", 0) == 0 && call.find("clusterqueues/cq") != std::string::npos) {
      return kube::Error{422, "Invalid", "invalid", Json()};
    }
    return std::nullopt;
  });
  Plan plan;
  plan.clusters.push_back(cluster_plan("manager", kManager, {change_of("manager", Action::Create, "ClusterQueue", "", "cq")}));
  const std::vector<Target> targets{target_of("manager", kManager, &fake)};
  ApplyOptions options = fast_options();
  options.wait = 50ms;
  const ApplyReport report = apply_plan(plan, targets, *state.store, state.run_id, nullptr, options);
  CHECK(report.failed == 1);
  CHECK(report.wait_failures.empty());
  CHECK(calls_of(fake, "LIST").empty());
}

}  // namespace
}  // namespace mkq::reconcile::testing
