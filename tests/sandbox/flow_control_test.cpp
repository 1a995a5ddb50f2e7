// The sandbox's API Priority and Fairness (sandbox/flow_control.h): how
// requests are classified, the headers that name the classification, and the
// per-user limit with its queue. Over HTTPS: tests/kube/http_client_test.cpp.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <optional>
#include <regex>
#include <set>
#include <thread>

#include "sandbox/flow_control.h"

namespace {

using mkq::sandbox::classify_flow;
using mkq::sandbox::Flow;
using mkq::sandbox::flow_headers;
using mkq::sandbox::FlowControl;
using mkq::sandbox::FlowControlOptions;
using std::chrono::milliseconds;

const std::vector<std::string> kUser = {"system:authenticated"};
const std::vector<std::string> kServiceAccount = {"system:serviceaccounts", "system:serviceaccounts:team-a",
                                                  "system:authenticated"};

FlowControlOptions tight(milliseconds queue_wait, int queue_length) {
  FlowControlOptions options;
  options.concurrency = 1;  // one seat per user and level
  options.queue_wait = queue_wait;
  options.queue_length = queue_length;
  return options;
}

}  // namespace

TEST_CASE("flow control: requests are classified as kube-apiserver's default flow schemas do", "[sandbox][apf]") {
  const Flow admin = classify_flow("mkq-admin", {"system:masters", "system:authenticated"}, "/api/v1/namespaces");
  CHECK(admin.flow_schema == "exempt");
  CHECK(admin.priority_level == "exempt");
  CHECK(admin.exempt);
  const Flow probe = classify_flow("alice", kUser, "/readyz");
  CHECK(probe.flow_schema == "probes");
  CHECK(probe.priority_level == "exempt");
  CHECK(probe.exempt);
  const Flow alice = classify_flow("alice", kUser, "/api/v1/namespaces/default/configmaps");
  CHECK(alice.flow_schema == "global-default");
  CHECK(alice.priority_level == "global-default");
  CHECK_FALSE(alice.exempt);
  CHECK(alice.user == "alice");
  const Flow robot = classify_flow("system:serviceaccount:team-a:robot", kServiceAccount, "/apis");
  CHECK(robot.flow_schema == "service-accounts");
  CHECK(robot.priority_level == "workload-low");
  const Flow system_sa = classify_flow("system:serviceaccount:kube-system:job-controller",
                                       {"system:serviceaccounts", "system:serviceaccounts:kube-system",
                                        "system:authenticated"},
                                       "/apis");
  CHECK(system_sa.flow_schema == "kube-system-service-accounts");
  CHECK(system_sa.priority_level == "workload-high");
  CHECK(classify_flow("system:kube-controller-manager", kUser, "/api").priority_level == "workload-high");
  CHECK(classify_flow("system:node:n1", {"system:nodes", "system:authenticated"}, "/api").priority_level == "system");
  const Flow stranger = classify_flow("x", {}, "/api");
  CHECK(stranger.flow_schema == "catch-all");
  CHECK(stranger.rejects);
}

TEST_CASE("flow control: the headers name the flow schema and priority level by stable UIDs", "[sandbox][apf]") {
  const auto headers = flow_headers(classify_flow("alice", kUser, "/api"));
  REQUIRE(headers.size() == 2);
  CHECK(headers[0].first == "X-Kubernetes-Pf-Flowschema-Uid");
  CHECK(headers[1].first == "X-Kubernetes-Pf-Prioritylevel-Uid");
  const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  CHECK(std::regex_match(headers[0].second, uuid));
  CHECK(std::regex_match(headers[1].second, uuid));
  // The same names give the same UIDs (another user, another sandbox process).
  CHECK(flow_headers(classify_flow("bob", kUser, "/apis")) == headers);
  // Every flow schema and priority level has its own.
  std::set<std::string> uids;
  for (const Flow& flow : {classify_flow("a", {"system:masters"}, "/api"), classify_flow("a", kUser, "/livez"),
                           classify_flow("a", kUser, "/api"), classify_flow("s", kServiceAccount, "/api")}) {
    for (const auto& [name, value] : flow_headers(flow)) uids.insert(name + value);
  }
  // exempt and probes share the exempt priority level: 4 flow schemas, 3 levels.
  CHECK(uids.size() == 7);
}

TEST_CASE("flow control: each priority level's share of the server's concurrency, per user", "[sandbox][apf]") {
  const FlowControl defaults{FlowControlOptions{}};
  CHECK(defaults.seats(20) == 49);    // global-default: 600 * 20 / 245
  CHECK(defaults.seats(100) == 245);  // workload-low
  CHECK(defaults.seats(40) == 98);    // workload-high
  CHECK(defaults.seats(5) == 13);     // catch-all
  const FlowControl one{tight(milliseconds(0), 0)};
  CHECK(one.seats(5) == 1);
  CHECK(one.seats(100) == 1);
}

TEST_CASE("flow control: a user beyond its seats is rejected, other users and exempt requests are not",
          "[sandbox][apf]") {
  FlowControl control(tight(milliseconds(0), 50));
  const Flow alice = classify_flow("alice", kUser, "/api");
  const Flow bob = classify_flow("bob", kUser, "/api");
  const Flow admin = classify_flow("mkq-admin", {"system:masters"}, "/api");
  {
    const FlowControl::Seat first = control.admit(alice);
    CHECK_FALSE(first.rejected());
    CHECK(control.admit(alice).rejected());            // no wait allowed: rejected at once
    CHECK_FALSE(control.admit(bob).rejected());        // bob's flow is his own
    CHECK_FALSE(control.admit(admin).rejected());      // exempt
    const FlowControl::Seat second = control.admit(admin);
    CHECK_FALSE(second.rejected());
    // Another priority level of the same user is another queue.
    CHECK_FALSE(control.admit(classify_flow("alice", {"system:nodes"}, "/api")).rejected());
  }
  CHECK_FALSE(control.admit(alice).rejected());  // the seat came back
  FlowControlOptions none;
  none.concurrency = 0;
  FlowControl off(none);
  const FlowControl::Seat held = off.admit(alice);
  CHECK_FALSE(off.admit(alice).rejected());
}

TEST_CASE("flow control: a request waits in its user's queue for a seat, up to the queue's length and wait",
          "[sandbox][apf]") {
  FlowControl control(tight(milliseconds(5000), 1));
  const Flow alice = classify_flow("alice", kUser, "/api");
  std::optional<FlowControl::Seat> held;
  held.emplace(control.admit(alice));
  REQUIRE_FALSE(held->rejected());
  std::atomic<int> outcome{0};  // 0: waiting, 1: admitted, 2: rejected
  std::thread waiter([&] {
    const FlowControl::Seat seat = control.admit(alice);
    outcome = seat.rejected() ? 2 : 1;
  });
  // Once the waiter has the queue's one place, a third request finds it full
  // and is rejected at once (had it queued instead, it would wait 5 s).
  std::this_thread::sleep_for(milliseconds(500));
  const auto third = std::chrono::steady_clock::now();
  CHECK(control.admit(alice).rejected());
  CHECK(std::chrono::steady_clock::now() - third < milliseconds(2500));
  CHECK(outcome == 0);
  held.reset();  // the seat comes back: the waiter gets it
  waiter.join();
  CHECK(outcome == 1);

  // A wait that runs out is a rejection.
  FlowControl impatient(tight(milliseconds(50), 5));
  const FlowControl::Seat seat = impatient.admit(alice);
  const auto started = std::chrono::steady_clock::now();
  CHECK(impatient.admit(alice).rejected());
  CHECK(std::chrono::steady_clock::now() - started >= milliseconds(50));
  // catch-all never queues.
  const Flow stranger = classify_flow("x", {}, "/api");
  const FlowControl::Seat taken = impatient.admit(stranger);
  const auto at = std::chrono::steady_clock::now();
  CHECK(impatient.admit(stranger).rejected());
  CHECK(std::chrono::steady_clock::now() - at < milliseconds(50));
}
