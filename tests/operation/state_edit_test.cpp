// `mkq state rm` and `mkq state unlock` as library calls (state_edit.h), over
// a temporary state: nothing forgotten while a live run holds the lock or when
// a key is unknown (each named, with its closest known key), a stale lock
// taken over, one history row per forget; unlock refuses a holder that still
// runs here unless forced; push and pull refuse a location that is no cluster.
#include "runtime/operation/state_edit.h"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/host.h"
#include "tests/support/temp_dir.h"

namespace mkq::operation {
namespace {

using Outcome = ForgetResult::Outcome;

state::InventoryEntry entry(const std::string& cluster, const std::string& kind, const std::string& name) {
  state::InventoryEntry e;
  e.ref = base::ObjectRef{cluster, "kueue.x-k8s.io/v1beta2", kind, "", name};
  e.uid = "uid-" + name;
  e.applied_at = "2026-01-01T00:00:00Z";
  return e;
}

// A state holding three objects of two clusters.
struct StateFixture {
  mkq::testing::TempDir dir;
  std::unique_ptr<state::StateStore> store = open();

  StateFixture() {
    for (const state::InventoryEntry& e :
         {entry("manager", "ClusterQueue", "team-a"), entry("worker1", "ClusterQueue", "team-a"),
          entry("worker1", "ResourceFlavor", "default")}) {
      REQUIRE(store->record_applied(e));
    }
  }
  std::unique_ptr<state::StateStore> open() const {
    base::Result<std::unique_ptr<state::StateStore>> opened = state::StateStore::open(dir / "state.db");
    REQUIRE(opened);
    return std::move(opened).value();
  }
  std::vector<std::string> addresses() const {
    std::vector<std::string> out;
    for (const state::InventoryEntry& e : store->inventory().value()) out.push_back(e.ref.address());
    return out;
  }
  std::vector<state::RunRecord> runs() const { return store->history(10, true).value(); }
};

state::LockHolder holder(const std::string& host, std::int64_t pid) {
  return state::LockHolder{"apply", "alice", host, pid, "2026-01-01T00:00:00Z"};
}

// A pid that certainly does not run: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

TEST_CASE("state rm forgets the objects named, records one run, and gives the lock back",
          "[operation][state_edit]") {
  StateFixture state;
  const ForgetResult result = forget_objects(*state.store, {{"worker1/ClusterQueue/team-a"}, {}});
  REQUIRE(result.outcome == Outcome::Forgotten);
  REQUIRE(result.forgotten.size() == 1);
  CHECK(result.forgotten[0].ref.address() == "worker1/ClusterQueue/team-a");
  CHECK_FALSE(result.took_over_stale);
  CHECK_FALSE(result.unrecorded);
  CHECK(state.addresses() ==
        std::vector<std::string>{"manager/ClusterQueue/team-a", "worker1/ResourceFlavor/default"});
  const std::vector<state::RunRecord> runs = state.runs();
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].command == "state rm");
  CHECK(runs[0].result == "success");
  REQUIRE(runs[0].objects.size() == 1);
  CHECK(runs[0].objects[0].address == "worker1/ClusterQueue/team-a");
  CHECK(runs[0].objects[0].action == "forget");
  CHECK(runs[0].objects[0].result == "ok");
  CHECK_FALSE(state.store->lock_holder().value().has_value());
}

TEST_CASE("state rm --cluster forgets every object of the cluster", "[operation][state_edit]") {
  StateFixture state;
  const ForgetResult result = forget_objects(*state.store, {{}, {"worker1"}});
  REQUIRE(result.outcome == Outcome::Forgotten);
  CHECK(result.forgotten.size() == 2);
  CHECK(state.addresses() == std::vector<std::string>{"manager/ClusterQueue/team-a"});
  CHECK(state.runs().at(0).objects.size() == 2);
}

TEST_CASE("state rm forgets nothing when a key is unknown, and names each with its closest",
          "[operation][state_edit]") {
  StateFixture state;
  SECTION("addresses") {
    const ForgetResult result = forget_objects(
        *state.store,
        {{"worker1/ClusterQueue/team-a", "worker1/ClusterQueue/team-b", "nowhere/Thing/zzz"}, {}});
    REQUIRE(result.outcome == Outcome::Unknown);
    REQUIRE(result.unknown.size() == 2);
    CHECK(result.unknown[0].key == "worker1/ClusterQueue/team-b");
    CHECK(result.unknown[0].closest == std::optional<std::string>("worker1/ClusterQueue/team-a"));
    CHECK(result.unknown[1].key == "nowhere/Thing/zzz");
    CHECK_FALSE(result.unknown[1].closest.has_value());
  }
  SECTION("clusters") {
    const ForgetResult result = forget_objects(*state.store, {{}, {"worker1", "worker2"}});
    REQUIRE(result.outcome == Outcome::Unknown);
    REQUIRE(result.unknown.size() == 1);
    CHECK(result.unknown[0].key == "worker2");
    CHECK(result.unknown[0].closest == std::optional<std::string>("worker1"));
  }
  CHECK(state.addresses().size() == 3);
  CHECK(state.runs().empty());
  CHECK_FALSE(state.store->lock_holder().value().has_value());
}

TEST_CASE("state rm refuses while a live run holds the lock, and leaves its lock",
          "[operation][state_edit][lock]") {
  StateFixture state;
  // A run on another host is never known to be gone.
  const std::unique_ptr<state::StateStore> other = state.open();
  state::LockHolder previous;
  REQUIRE(other->acquire_lock(holder("another-host.invalid", 4242), &previous).value() ==
          state::LockResult::Acquired);

  const ForgetResult result = forget_objects(*state.store, {{"worker1/ClusterQueue/team-a"}, {}});
  CHECK(result.outcome == Outcome::LockHeld);
  CHECK(result.holder.host == "another-host.invalid");
  CHECK(result.holder.pid == 4242);
  CHECK(result.forgotten.empty());
  CHECK(state.addresses().size() == 3);
  CHECK(state.runs().empty());
  const std::optional<state::LockHolder> still = state.store->lock_holder().value();
  REQUIRE(still.has_value());
  CHECK(still->host == "another-host.invalid");
}

TEST_CASE("state rm takes over the lock of a run that is gone, and says whose",
          "[operation][state_edit][lock]") {
  StateFixture state;
  const pid_t gone = dead_pid();
  // The dead run's store stays open: a store that closes gives its lock back.
  const std::unique_ptr<state::StateStore> dead = state.open();
  state::LockHolder previous;
  REQUIRE(dead->acquire_lock(holder(base::host_name(), gone), &previous).value() ==
          state::LockResult::Acquired);
  const ForgetResult result = forget_objects(*state.store, {{}, {"manager"}});
  REQUIRE(result.outcome == Outcome::Forgotten);
  CHECK(result.took_over_stale);
  CHECK(result.holder.pid == gone);
  CHECK(state.addresses().size() == 2);
  CHECK_FALSE(state.store->lock_holder().value().has_value());
}

TEST_CASE("state rm needs addresses or clusters, not both", "[operation][state_edit]") {
  StateFixture state;
  CHECK(forget_objects(*state.store, {}).outcome == Outcome::BadRequest);
  CHECK(forget_objects(*state.store, {{"worker1/ClusterQueue/team-a"}, {"worker1"}}).outcome ==
        Outcome::BadRequest);
  CHECK(state.addresses().size() == 3);
  CHECK(state.runs().empty());
}

TEST_CASE("state unlock: none held, a holder gone, a holder that still runs here",
          "[operation][state_edit][lock]") {
  using Unlock = UnlockResult::Outcome;
  StateFixture state;
  CHECK(unlock_state(*state.store, false).outcome == Unlock::NotLocked);

  const std::unique_ptr<state::StateStore> other = state.open();
  state::LockHolder previous;
  // Our parent: a process that runs on this host.
  REQUIRE(other->acquire_lock(holder(base::host_name(), getppid()), &previous).value() ==
          state::LockResult::Acquired);
  const UnlockResult refused = unlock_state(*state.store, false);
  CHECK(refused.outcome == Unlock::HolderRuns);
  CHECK(refused.holder.pid == getppid());
  CHECK(state.store->lock_holder().value().has_value());

  const UnlockResult forced = unlock_state(*state.store, true);
  CHECK(forced.outcome == Unlock::Released);
  CHECK(forced.holder.pid == getppid());
  CHECK(forced.holder_still_runs);
  CHECK_FALSE(state.store->lock_holder().value().has_value());

  REQUIRE(other->acquire_lock(holder("another-host.invalid", 7), &previous).value() ==
          state::LockResult::Acquired);
  const UnlockResult elsewhere = unlock_state(*state.store, false);
  CHECK(elsewhere.outcome == Unlock::Released);  // another host's process cannot be seen: the user's call
  CHECK_FALSE(elsewhere.holder_still_runs);
}

TEST_CASE("state push and pull need a state kept in a cluster", "[operation][state_edit]") {
  mkq::testing::TempDir dir;
  TransferRequest request;
  request.file = (dir / "state.db").string();
  request.location = (dir / "other.db").string();
  const base::Result<state::Transfer> pushed = transfer_state(request);
  REQUIRE_FALSE(pushed);
  CHECK(pushed.error().message ==
        "state push copies a state into a cluster: name it with --state kubernetes://CONTEXT/NAMESPACE/NAME "
        "(or "
        "MKQ_STATE)");
  request.push = false;
  const base::Result<state::Transfer> pulled = transfer_state(request);
  REQUIRE_FALSE(pulled);
  CHECK(pulled.error().message.starts_with("state pull copies a state out of a cluster"));
  CHECK_FALSE(std::filesystem::exists(dir / "state.db"));
}

}  // namespace
}  // namespace mkq::operation
