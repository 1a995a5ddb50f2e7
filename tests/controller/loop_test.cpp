// runtime/controller's loop through the operations with fake clusters, a
// fake clock and a fake policy watch: what each sync mode carries out, drift
// with self-heal on and off, when a run is due, and a leader that loses the
// lease stopping at once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>

#include "runtime/controller/leader.h"
#include "runtime/controller/loop.h"
#include "runtime/controller/ui.h"
#include "tests/controller/controller_test_support.h"

namespace {

using namespace mkq;
using namespace mkq::controller::testing;
using mkq::operation::testing::Fleet;
using mkq::operation::testing::fleet_policy;
using std::chrono::seconds;

const std::chrono::system_clock::time_point kStart = std::chrono::system_clock::from_time_t(1790000000);

bool any_starts_with(const std::vector<std::string>& lines, const std::string& prefix) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
}

// A fleet applied once with everything, as `mkq apply` leaves it.
struct Controlled {
  Fleet fleet;
  mkq::testing::FakeClock clock{kStart};
  FakeWatch watch;
  FakeLog log;
  controller::Metrics metrics;
  controller::Options options;

  Controlled() {
    const operation::ApplyResult first = operation::apply(fleet.apply_request(), fleet.resolver, fleet.ui);
    INFO(fleet.ui.all_errors());
    REQUIRE(first.report.has_value());
    REQUIRE(first.report->success());
    manager().serve(controller::EventRecorder::event_type());
    options.run = fleet.request<operation::RunOptions>();
    options.interval = std::chrono::minutes(5);
  }
  kube::FakeClient& manager() { return fleet.resolver.cluster("m"); }
  // The worker's kubeconfig Secret on the manager, as stored.
  kube::Json worker_secret() {
    kube::ListOptions list;
    list.namespace_name = "kueue-system";
    const auto secrets = manager().list({"", "v1", "Secret", "secrets", true}, list);
    REQUIRE(secrets.ok());
    REQUIRE(secrets.value().items.size() == 1);
    return secrets.value().items.front();
  }
  std::string metrics_text() {
    return metrics.render(std::chrono::duration<double>(kStart.time_since_epoch()).count());
  }
};

}  // namespace

TEST_CASE("controller: sync manual leaves the policy's changes and still rotates credentials",
          "[controller][sync]") {
  Controlled c;
  const kube::Json before = c.worker_secret();
  // The policy doubles the quota, and the worker's kubeconfig (a credential) changes.
  std::string kubeconfig = operation::testing::kWorkerKubeconfig;
  kubeconfig.replace(kubeconfig.find("not-a-real-token"), 16, "another-token-00");
  c.fleet.write("w1.kubeconfig", kubeconfig);
  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 8));
  c.options.sync = controller::Sync::Manual;
  controller::EventRecorder events(&c.manager(), c.options.leader, "test-1", c.clock, c.log);
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, &events);

  REQUIRE(loop.tick());
  INFO((c.log.errors.empty() ? std::string() : c.log.errors.front()));
  CHECK(c.fleet.cpu_quota() == "4");                   // the policy's change is left
  CHECK(c.worker_secret()["data"] != before["data"]);  // the credential is issued anew
  const std::string text = c.metrics_text();
  CHECK_THAT(text, Catch::Contains("mkq_controller_changes_applied_total{kind=\"credential\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("mkq_controller_changes_applied_total{kind=\"policy\"} 0\n"));
  CHECK_THAT(text, Catch::Contains("mkq_controller_last_run_result{result=\"success\"} 1\n"));
  const auto recorded = events_on(c.manager(), "mkq-system");
  CHECK(any_starts_with(recorded, "OutOfSync: "));
  CHECK(any_starts_with(recorded, "CredentialRotated: "));
  CHECK(loop.ready().ok);

  // The next run, an interval later, still leaves the quota; OutOfSync is not said again.
  CHECK_FALSE(loop.tick());  // nothing is due yet
  c.clock.advance(std::chrono::minutes(5));
  REQUIRE(loop.tick());
  CHECK(c.fleet.cpu_quota() == "4");
  const auto again = events_on(c.manager(), "mkq-system");
  CHECK(std::count_if(again.begin(), again.end(),
                      [](const std::string& e) { return e.rfind("OutOfSync", 0) == 0; }) == 1);
}

TEST_CASE("controller: sync auto applies a change of the policy's content at once", "[controller][sync]") {
  Controlled c;
  c.options.sync = controller::Sync::Auto;
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, nullptr);
  REQUIRE(loop.tick());  // start
  CHECK_FALSE(loop.tick());
  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 8));
  c.watch.value = "v2";
  c.clock.advance(seconds(1));
  REQUIRE(loop.tick());
  CHECK(c.fleet.cpu_quota() == "8");
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_changes_applied_total{kind=\"policy\"} "));
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_pending_changes 0\n"));
  // The run is in the state's history under the controller's name.
  const auto history = c.fleet.state()->history(1, false).value();
  REQUIRE(history.size() == 1);
  CHECK(history.front().command == "controller test-1");
}

TEST_CASE("controller: drift is reported and left without self-heal, repaired with it",
          "[controller][drift]") {
  Controlled c;
  c.options.sync = controller::Sync::Auto;
  kube::Json drifted = *c.fleet.cluster_queue();
  for (kube::Json& resource : drifted["spec"]["resourceGroups"][0]["flavors"][0]["resources"]) {
    if (resource["name"] == "cpu") resource["nominalQuota"] = "2";
  }
  c.manager().put(drifted, "kubectl");
  REQUIRE(c.fleet.cpu_quota() == "2");

  controller::EventRecorder events(&c.manager(), c.options.leader, "test-1", c.clock, c.log);
  controller::Reconciler left(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, &events);
  REQUIRE(left.tick());
  CHECK(c.fleet.cpu_quota() == "2");
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_drift_objects 1\n"));
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_pending_changes 1\n"));
  CHECK(any_starts_with(events_on(c.manager(), "mkq-system"), "DriftDetected: 1 object changed outside mkq"));

  c.options.self_heal = true;
  controller::Reconciler healing(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                                 nullptr, &events);
  REQUIRE(healing.tick());
  CHECK(c.fleet.cpu_quota() == "4");
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_changes_applied_total{kind=\"drift\"} 1\n"));
  CHECK(any_starts_with(events_on(c.manager(), "mkq-system"),
                        "Applied: applied 1 change (0 policy, 1 drift repairs"));
}

TEST_CASE("controller: an object mkq applied and someone deleted is drift, not a policy change",
          "[controller][drift]") {
  Controlled c;
  c.options.sync = controller::Sync::Manual;
  const auto type = c.manager().resource_for("kueue.x-k8s.io/v1beta2", "ClusterQueue").value();
  REQUIRE(c.manager().remove(type, "", "cq", {}).ok());
  REQUIRE_FALSE(c.fleet.cluster_queue().has_value());

  // The plan's change is a create, typed as a drift repair (not by its reason's words).
  controller::EventRecorder events(&c.manager(), c.options.leader, "test-1", c.clock, c.log);
  controller::Reconciler left(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, &events);
  REQUIRE(left.tick());
  CHECK_FALSE(c.fleet.cluster_queue().has_value());  // self-heal off: reported, not applied
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_drift_objects 1\n"));
  CHECK(any_starts_with(events_on(c.manager(), "mkq-system"),
                        "DriftDetected: 1 object changed outside mkq, left as they are (self-heal is off): "
                        "m/ClusterQueue/cq"));
  CHECK_FALSE(any_starts_with(events_on(c.manager(), "mkq-system"), "OutOfSync: "));

  c.options.self_heal = true;  // sync manual still: a repair is not a policy change
  controller::Reconciler healing(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                                 nullptr, &events);
  REQUIRE(healing.tick());
  CHECK(c.fleet.cpu_quota() == "4");
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_changes_applied_total{kind=\"drift\"} 1\n"));
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_changes_applied_total{kind=\"policy\"} 0\n"));
}

TEST_CASE("controller: an object deleted outside mkq whose policy changed since is a policy change",
          "[controller][drift]") {
  Controlled c;
  c.options.sync = controller::Sync::Manual;
  c.options.self_heal = true;
  const auto type = c.manager().resource_for("kueue.x-k8s.io/v1beta2", "ClusterQueue").value();
  REQUIRE(c.manager().remove(type, "", "cq", {}).ok());
  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 8));
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, nullptr);
  REQUIRE(loop.tick());
  CHECK_FALSE(c.fleet.cluster_queue().has_value());  // sync manual: what the policy now asks waits
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_drift_objects 0\n"));
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_pending_changes "));
}

TEST_CASE("controller: a leader that loses the lease stops reconciling at once", "[controller][leader]") {
  Controlled c;
  c.options.sync = controller::Sync::Auto;
  controller::LeaderOptions lease = c.options.leader;
  lease.identity = "replica-a";
  controller::LeaderElector a(c.manager(), lease, c.clock);
  lease.identity = "replica-b";
  controller::LeaderElector b(c.manager(), lease, c.clock);
  a.step();
  b.step();
  REQUIRE(a.leading());
  REQUIRE_FALSE(b.leading());
  CHECK_FALSE(a.lost()->load());
  CHECK(b.lost()->load());

  controller::Reconciler on_a(c.options, "replica-a", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              &a, nullptr);
  controller::Reconciler on_b(c.options, "replica-b", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              &b, nullptr);
  CHECK(on_a.tick());
  CHECK_FALSE(on_b.tick());  // standing by
  CHECK(on_b.ready().ok);
  CHECK(on_b.ready().text == "standing by: this replica does not hold the lease");

  // a stops renewing (a pause, a partition): past the renew deadline it no
  // longer leads, even before it hears of it; past the lease's duration b takes over.
  c.clock.advance(seconds(11));
  CHECK_FALSE(a.leading());
  c.clock.advance(seconds(5));
  b.step();
  REQUIRE(b.leading());
  a.step();  // its renewal is refused: the lease is b's
  CHECK_FALSE(a.leading());
  CHECK(a.lost()->load());  // an apply in flight on a starts no new change

  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 8));
  c.watch.value = "v2";
  CHECK_FALSE(on_a.tick());
  CHECK(c.fleet.cpu_quota() == "4");
  CHECK(on_b.tick());
  CHECK(c.fleet.cpu_quota() == "8");
}

TEST_CASE("controller: an unreachable worker fails the run, its gauge says so, an Event names it",
          "[controller][report]") {
  Controlled c;
  c.options.sync = controller::Sync::Auto;
  c.fleet.resolver.cluster("w1").set_unreachable(true);
  controller::EventRecorder events(&c.manager(), c.options.leader, "test-1", c.clock, c.log);
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, &events);
  REQUIRE(loop.tick());
  const std::string text = c.metrics_text();
  CHECK_THAT(text, Catch::Contains("mkq_controller_cluster_reachable{cluster=\"m\"} 1\n"));
  CHECK_THAT(text, Catch::Contains("mkq_controller_cluster_reachable{cluster=\"w1\"} 0\n"));
  CHECK_THAT(text, Catch::Contains("mkq_controller_last_run_result{result=\"success\"} 0\n"));
  CHECK(
      any_starts_with(events_on(c.manager(), "mkq-system"), "ApplyFailed: run failed: w1 is unreachable: "));
  CHECK(loop.ready().ok);  // a plan was made: ready, and the metrics say the rest
}

TEST_CASE("controller: a stop (SIGTERM) during a run starts no change, the run is interrupted, the state kept",
          "[controller][stop]") {
  Controlled c;
  c.options.sync = controller::Sync::Auto;
  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 8));
  std::atomic<bool> stop{false};
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, nullptr, &stop);
  // Between runs: the run carries out the policy's change and is not interrupted.
  REQUIRE(loop.tick());
  CHECK(c.fleet.cpu_quota() == "8");
  CHECK_FALSE(loop.interrupted());

  // The signal comes while the run refreshes and plans: its apply starts nothing.
  c.fleet.write("policy.mkq", fleet_policy(c.fleet.kubeconfig(), 12));
  c.watch.value = "v2";
  stop.store(true);
  REQUIRE(loop.tick());
  CHECK(c.fleet.cpu_quota() == "8");
  CHECK(loop.interrupted());
  CHECK_THAT(c.metrics_text(), Catch::Contains("mkq_controller_last_run_result{result=\"interrupted\"} 1\n"));
  // The state was written and let go: the run is in the history, and the next apply takes the lock.
  const auto history = c.fleet.state()->history(1, false).value();
  REQUIRE(history.size() == 1);
  CHECK(history.front().result == "interrupted");
  const operation::ApplyResult next = operation::apply(c.fleet.apply_request(), c.fleet.resolver, c.fleet.ui);
  REQUIRE(next.report.has_value());
  CHECK(next.report->success());
  CHECK(c.fleet.cpu_quota() == "12");
}

TEST_CASE("controller: an apply's cancellation turns true when the stop or the lease's loss does",
          "[controller][stop]") {
  FakeLog log;
  const reconcile::Plan plan;
  for (const bool by_stop : {true, false}) {
    std::atomic<bool> lost{false}, stop{false};
    controller::ControllerUi ui(log, &lost, &stop);
    const std::unique_ptr<operation::Cancellation> cancel = ui.begin_apply(plan);
    REQUIRE(cancel != nullptr);
    CHECK_FALSE(cancel->token()->load());
    (by_stop ? stop : lost).store(true);
    const auto deadline = std::chrono::steady_clock::now() + seconds(5);
    while (!cancel->token()->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    CHECK(cancel->token()->load());
  }
  // Already stopped when the apply begins: cancelled from the start.
  std::atomic<bool> stopped{true};
  controller::ControllerUi ui(log, nullptr, &stopped);
  CHECK(ui.begin_apply(plan)->token()->load());
  CHECK(controller::ControllerUi(log, nullptr, nullptr).begin_apply(plan) == nullptr);
}

TEST_CASE("controller: each flag set overrides the policy's sync block, which overrides the default",
          "[controller][settings]") {
  sema::model::SyncSettings policy;
  policy.mode = sema::model::Located<sema::model::SyncMode>{sema::model::SyncMode::Auto, {}};
  policy.self_heal = sema::model::Located<bool>{true, {}};
  policy.interval = sema::model::Located<sema::Duration>{sema::Duration::from_millis(90000), {}};
  controller::Options flags;
  const controller::Settings defaults = controller::settings_of(flags, nullptr);
  CHECK(defaults.sync == controller::Sync::Manual);
  CHECK_FALSE(defaults.self_heal);
  CHECK_FALSE(defaults.prune);
  CHECK(defaults.interval == std::chrono::minutes(5));

  const controller::Settings from_policy = controller::settings_of(flags, &policy);
  CHECK(from_policy.sync == controller::Sync::Auto);
  CHECK(from_policy.self_heal);
  CHECK_FALSE(from_policy.prune);  // not in the block: the default
  CHECK(from_policy.interval == seconds(90));

  flags.sync = controller::Sync::Manual;
  flags.self_heal = false;
  flags.prune = true;
  flags.interval = seconds(10);
  const controller::Settings overridden = controller::settings_of(flags, &policy);
  CHECK(overridden.sync == controller::Sync::Manual);
  CHECK_FALSE(overridden.self_heal);
  CHECK(overridden.prune);
  CHECK(overridden.interval == seconds(10));
}

TEST_CASE("controller: the policy's sync block decides what a run carries out, read again when it changes",
          "[controller][settings]") {
  Controlled c;
  c.options.interval.reset();  // no flag set
  const auto with_sync = [&](const std::string& sync, int cpu) {
    std::string text = fleet_policy(c.fleet.kubeconfig(), cpu);
    text.replace(text.find("manager \"m\" {}"), 14, "manager \"m\" {\n  sync { " + sync + " }\n}");
    c.fleet.write("policy.mkq", text);
  };
  with_sync("mode = \"manual\", interval = 1min", 8);
  controller::Reconciler loop(c.options, "test-1", c.fleet.resolver, c.watch, c.clock, c.log, c.metrics,
                              nullptr, nullptr);
  REQUIRE(loop.tick());
  CHECK(c.fleet.cpu_quota() == "4");  // manual: the change is left
  CHECK(loop.settings().interval == std::chrono::minutes(1));
  c.clock.advance(std::chrono::minutes(1));
  CHECK(loop.tick());  // due by the policy's interval, not the default 5 minutes

  with_sync("mode = \"auto\"", 8);
  c.watch.value = "v2";
  REQUIRE(loop.tick());
  CHECK(loop.settings().sync == controller::Sync::Auto);
  CHECK(c.fleet.cpu_quota() == "8");
}
