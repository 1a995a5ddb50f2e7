// runtime/kube/lease.h: a Lease as a lock -- create, renew, expiry and take
// over, release, and the race two processes run for it -- against the fake
// API with a clock the test moves.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "runtime/kube/lease.h"
#include "tests/support/fake_client.h"
#include "tests/support/fake_clock.h"

using mkq::kube::FakeClient;
using mkq::kube::Json;
using mkq::kube::Lease;
using mkq::kube::LeaseOptions;
using mkq::kube::LeaseOutcome;
using std::chrono::seconds;

namespace {

const std::chrono::system_clock::time_point kStart = std::chrono::system_clock::from_time_t(1790000000);

LeaseOptions options_for(const std::string& identity) {
  LeaseOptions options;
  options.namespace_name = "mkq-system";
  options.name = "mkq-state-lock";
  options.identity = identity;
  options.duration = seconds(15);
  options.annotations = {{"mkq.dev/lock-command", "apply"}};
  return options;
}

Json stored_lease(const FakeClient& fake) {
  return fake.object("coordination.k8s.io/v1", "Lease", "mkq-system", "mkq-state-lock").value_or(Json());
}

}  // namespace

TEST_CASE("a lease nobody holds is created and held by its identity", "[kube][lease]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  Lease lease(fake, options_for("alice"), clock);
  auto attempt = lease.try_acquire();
  REQUIRE(attempt.ok());
  CHECK(attempt.value().outcome == LeaseOutcome::Acquired);
  const Json stored = stored_lease(fake);
  CHECK(stored["spec"]["holderIdentity"] == "alice");
  CHECK(stored["spec"]["leaseDurationSeconds"] == 15);
  CHECK(stored["spec"]["renewTime"] == "2026-09-21T14:13:20.000000Z");
  CHECK(stored["spec"]["leaseTransitions"] == 0);
  CHECK(stored["metadata"]["annotations"]["mkq.dev/lock-command"] == "apply");
  CHECK(attempt.value().record.held_at(kStart + seconds(14)));
  CHECK_FALSE(attempt.value().record.held_at(kStart + seconds(15)));
}

TEST_CASE("a held lease is refused to another identity until it expires, then taken over", "[kube][lease]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  Lease alice(fake, options_for("alice"), clock);
  Lease bob(fake, options_for("bob"), clock);
  REQUIRE(alice.try_acquire().ok());

  clock.advance(seconds(10));
  auto refused = bob.try_acquire();
  REQUIRE(refused.ok());
  CHECK(refused.value().outcome == LeaseOutcome::HeldByOther);
  CHECK(refused.value().record.holder == "alice");
  CHECK(stored_lease(fake)["spec"]["holderIdentity"] == "alice");

  // alice renews: the expiry moves with her renewTime.
  REQUIRE(alice.renew().ok());
  clock.advance(seconds(10));
  CHECK(bob.try_acquire().value().outcome == LeaseOutcome::HeldByOther);

  // alice stops renewing (a crashed holder): once the duration passes, bob takes it.
  clock.advance(seconds(6));
  auto taken = bob.try_acquire();
  REQUIRE(taken.ok());
  CHECK(taken.value().outcome == LeaseOutcome::TookOver);
  CHECK(taken.value().record.holder == "alice");  // whose it was
  const Json stored = stored_lease(fake);
  CHECK(stored["spec"]["holderIdentity"] == "bob");
  CHECK(stored["spec"]["leaseTransitions"] == 1);

  // alice comes back: her renewal fails and names the holder.
  auto lost = alice.renew();
  REQUIRE_FALSE(lost.ok());
  CHECK(lost.error().conflict());
  CHECK(lost.error().message.find("bob") != std::string::npos);
}

TEST_CASE("acquiring a lease one holds renews it and keeps its acquire time", "[kube][lease]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  Lease alice(fake, options_for("alice"), clock);
  REQUIRE(alice.try_acquire().ok());
  clock.advance(seconds(5));
  auto again = alice.try_acquire();
  REQUIRE(again.ok());
  CHECK(again.value().outcome == LeaseOutcome::Renewed);
  const Json stored = stored_lease(fake);
  CHECK(stored["spec"]["acquireTime"] == "2026-09-21T14:13:20.000000Z");
  CHECK(stored["spec"]["renewTime"] == "2026-09-21T14:13:25.000000Z");
  CHECK(stored["spec"]["leaseTransitions"] == 0);
}

TEST_CASE("a released lease is free at once, releasing another's lease writes nothing", "[kube][lease]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  Lease alice(fake, options_for("alice"), clock);
  Lease bob(fake, options_for("bob"), clock);
  REQUIRE(alice.try_acquire().ok());
  const std::string version = stored_lease(fake)["metadata"]["resourceVersion"];
  REQUIRE(bob.release().ok());
  CHECK(stored_lease(fake)["metadata"]["resourceVersion"] == version);

  REQUIRE(alice.release().ok());
  CHECK(stored_lease(fake)["spec"]["holderIdentity"] == "");
  auto taken = bob.try_acquire();
  REQUIRE(taken.ok());
  CHECK(taken.value().outcome == LeaseOutcome::Acquired);
  CHECK(stored_lease(fake)["spec"]["holderIdentity"] == "bob");
}

TEST_CASE("of two identities racing for a free lease exactly one wins", "[kube][lease]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  Lease alice(fake, options_for("alice"), clock);
  Lease bob(fake, options_for("bob"), clock);
  REQUIRE(alice.try_acquire().ok());
  REQUIRE(alice.release().ok());
  // bob's write lands between alice's read and her write: her update carries
  // a stale resourceVersion and the server answers Conflict.
  bool raced = false;
  fake.fail_when([&](const std::string& call) -> std::optional<mkq::kube::Error> {
    if (!raced && call.rfind("PUT ", 0) == 0) {
      raced = true;
      fake.fail_when(nullptr);
      REQUIRE(bob.try_acquire().value().outcome == LeaseOutcome::Acquired);
    }
    return std::nullopt;
  });
  auto lost = alice.try_acquire();
  REQUIRE(lost.ok());
  CHECK(lost.value().outcome == LeaseOutcome::HeldByOther);
  CHECK(lost.value().record.holder == "bob");
  CHECK(stored_lease(fake)["spec"]["holderIdentity"] == "bob");
}

TEST_CASE("a server that cannot be reached is an error, not a lease held by nobody", "[kube][lease]") {
  FakeClient fake;
  fake.set_unreachable(true);
  mkq::testing::FakeClock clock(kStart);
  Lease alice(fake, options_for("alice"), clock);
  auto attempt = alice.try_acquire();
  REQUIRE_FALSE(attempt.ok());
  CHECK(attempt.error().transport());
}
