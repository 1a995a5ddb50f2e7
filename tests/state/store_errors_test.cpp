// StateStore's one error convention: every public call that can fail answers
// a base::Result whose Error names the state (reason kStateError, message
// "state PATH: ...") and, when it is about one object, that object's address.
// Each call's failure is provoked here: a damaged file, a directory that
// cannot be made, a table another program dropped under the store, a write
// that lost the race for a state in a cluster.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <chrono>

#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/fake_client.h"
#include "tests/support/fake_clock.h"

namespace mkq::state {
namespace {

using testing::TempDir;
using testing::write_bytes;

InventoryEntry entry(const std::string& name) {
  InventoryEntry e;
  e.ref.cluster = "manager";
  e.ref.api_version = "kueue.x-k8s.io/v1beta2";
  e.ref.kind = "ClusterQueue";
  e.ref.name = name;
  e.digest = "sha256:00";
  return e;
}

// Runs SQL on the file through a connection of its own, as another program would.
void raw_sql(const std::filesystem::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

// An Error of the store's own, about the state at `path`: "state PATH: ...".
void check_state_error(const base::Error& error, const std::filesystem::path& path, const std::string& says,
                       const std::string& address = "") {
  INFO(error.message);
  CHECK(error.reason == kStateError);
  CHECK(error.status == 0);
  CHECK(error.message.rfind("state " + path.string() + ": ", 0) == 0);
  CHECK(error.message.find(says) != std::string::npos);
  CHECK(error.address == address);
  CHECK(base::render(error) == (address.empty() ? "" : address + ": ") + error.message);
}

// A state with one entry and one finished run, whose table `table` another
// program then drops under the open store.
std::unique_ptr<StateStore> store_without(const std::filesystem::path& path, const std::string& table) {
  auto opened = StateStore::open(path);
  REQUIRE(opened);
  std::unique_ptr<StateStore> store = std::move(opened.value());
  REQUIRE(store->record_applied(entry("kept")));
  const base::Result<std::int64_t> run = store->begin_run("apply", "sha256:policy");
  REQUIRE(run);
  REQUIRE(store->finish_run(*run, "success"));
  raw_sql(path, "DROP TABLE " + table);
  return store;
}

TEST_CASE("state errors: open and open_existing refuse a damaged file with an Error naming it", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  write_bytes(path, "this is not sqlite\n" + std::string(400, 'x'));
  const base::Result<std::unique_ptr<StateStore>> opened = StateStore::open(path);
  REQUIRE_FALSE(opened);
  check_state_error(opened.error(), path, "file is not a database; there is no backup beside it");
  const base::Result<std::unique_ptr<StateStore>> existing = StateStore::open_existing(path);
  REQUIRE_FALSE(existing);
  CHECK(existing.error().message == opened.error().message);

  // Absent is no error: open_existing answers no store, open makes one.
  const base::Result<std::unique_ptr<StateStore>> absent = StateStore::open_existing(dir.path() / "none.db");
  REQUIRE(absent);
  CHECK(absent.value() == nullptr);
}

TEST_CASE("state errors: open cannot make the state's directory", "[state][errors]") {
  TempDir dir;
  write_bytes(dir.path() / "file", "a file where the directory would be");
  const auto path = dir.path() / "file" / ".mkq" / "state.db";
  const base::Result<std::unique_ptr<StateStore>> opened = StateStore::open(path);
  REQUIRE_FALSE(opened);
  check_state_error(opened.error(), path, "cannot create the directory " + (dir.path() / "file" / ".mkq").string());
}

TEST_CASE("state errors: inventory calls answer an Error, never an empty inventory", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  auto store = store_without(path, "inventory");

  const auto inventory = store->inventory();
  REQUIRE_FALSE(inventory);
  check_state_error(inventory.error(), path, "no such table: inventory");

  const auto found = store->find("manager/ClusterQueue/kept");
  REQUIRE_FALSE(found);
  check_state_error(found.error(), path, "no such table: inventory", "manager/ClusterQueue/kept");

  // A record is about its object.
  const auto applied = store->record_applied(entry("new"));
  REQUIRE_FALSE(applied);
  check_state_error(applied.error(), path, "no such table: inventory", "manager/ClusterQueue/new");
  const auto deleted = store->record_deleted("manager/ClusterQueue/kept");
  REQUIRE_FALSE(deleted);
  check_state_error(deleted.error(), path, "no such table: inventory", "manager/ClusterQueue/kept");
  // A batch fails as a whole, about the record that failed.
  StateWrite outcome{StateWrite::Kind::Outcome, {}, "", 1, {"manager/ClusterQueue/kept", "update", "ok", ""}};
  const auto batch = store->record_batch({outcome, StateWrite{StateWrite::Kind::Applied, entry("b"), "", 0, {}}});
  REQUIRE_FALSE(batch);
  check_state_error(batch.error(), path, "no such table: inventory", "manager/ClusterQueue/b");

  const auto forgot = store->forget({"manager/ClusterQueue/kept"});
  REQUIRE_FALSE(forgot);
  check_state_error(forgot.error(), path, "no such table: inventory");
  const auto forgot_clusters = store->forget_clusters({"manager"});
  REQUIRE_FALSE(forgot_clusters);
  check_state_error(forgot_clusters.error(), path, "no such table: inventory");
}

TEST_CASE("state errors: history calls answer an Error", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  auto store = store_without(path, "run_objects");

  const auto begun = store->begin_run("apply", "sha256:policy");
  REQUIRE(begun);  // runs is there; its objects are not
  const auto outcome = store->record_outcome(*begun, {"manager/ClusterQueue/kept", "update", "ok", ""});
  REQUIRE_FALSE(outcome);
  check_state_error(outcome.error(), path, "no such table: run_objects", "manager/ClusterQueue/kept");
  const auto history = store->history(10, true);
  REQUIRE_FALSE(history);
  check_state_error(history.error(), path, "no such table: run_objects");
  const auto run = store->find_run(*begun);
  REQUIRE_FALSE(run);
  check_state_error(run.error(), path, "no such table: run_objects");

  raw_sql(path, "DROP TABLE runs");
  const auto again = store->begin_run("apply", "sha256:policy");
  REQUIRE_FALSE(again);
  check_state_error(again.error(), path, "no such table: runs");
  const auto finished = store->finish_run(*begun, "success");
  REQUIRE_FALSE(finished);
  check_state_error(finished.error(), path, "no such table: runs");
}

TEST_CASE("state errors: lock calls answer an Error, never Held or NotLocked", "[state][errors][lock]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  auto store = store_without(path, "lock");
  LockHolder previous;
  const auto acquired = store->acquire_lock({"apply", "me", "", 0, ""}, &previous);
  REQUIRE_FALSE(acquired);
  check_state_error(acquired.error(), path, "no such table: lock");
  const auto holder = store->lock_holder();
  REQUIRE_FALSE(holder);
  check_state_error(holder.error(), path, "no such table: lock");
  const auto forced = store->force_unlock();
  REQUIRE_FALSE(forced);
  check_state_error(forced.error(), path, "no such table: lock");
  LockHolder held;
  const auto unlocked = store->unlock(true, &held);
  REQUIRE_FALSE(unlocked);
  check_state_error(unlocked.error(), path, "no such table: lock");
  CHECK(store->release_lock());  // not held: nothing to remove
}

TEST_CASE("state errors: meta and intent calls answer an Error", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  {
    auto store = store_without(path, "credential_intents");
    const auto intents = store->credential_intents();
    REQUIRE_FALSE(intents);
    check_state_error(intents.error(), path, "no such table: credential_intents");
    StateWrite begun{StateWrite::Kind::IntentBegun, {}, "", 0, {}};
    begun.intent.worker = "worker1";
    const auto recorded = store->record_batch({begun});
    REQUIRE_FALSE(recorded);
    check_state_error(recorded.error(), path, "no such table: credential_intents", "worker1");
  }
  TempDir other;
  const auto meta_path = other.path() / "state.db";
  auto store = store_without(meta_path, "meta");
  const auto serial = store->serial();
  REQUIRE_FALSE(serial);
  check_state_error(serial.error(), meta_path, "no such table: meta");
  const auto policy = store->set_policy("fleet");
  REQUIRE_FALSE(policy);
  check_state_error(policy.error(), meta_path, "no such table: meta");
  const auto snapshot = store->snapshot();
  REQUIRE_FALSE(snapshot);
  check_state_error(snapshot.error(), meta_path, "no such table: meta");
}

TEST_CASE("state errors: a write that lost the race for a state in a cluster is the cluster's Conflict",
          "[state][errors][cluster]") {
  kube::FakeClient fake;
  mkq::testing::FakeClock clock(std::chrono::system_clock::from_time_t(1790000000));
  const ClusterAddress address{"manager", "mkq-state", "fleet"};
  const auto open = [&] {
    ClusterStateOptions options;
    options.renew_in_background = false;
    options.clock = &clock;
    return StateStore::open_in_cluster(std::make_unique<ClusterState>(fake, address, options), true);
  };
  auto first = open();
  auto second = open();
  REQUIRE(first);
  REQUIRE(second);
  REQUIRE(first.value()->record_applied(entry("first")));
  const auto lost = second.value()->record_applied(entry("second"));
  REQUIRE_FALSE(lost);
  // As the cluster answered it (a commit is about no one object), and nothing was committed.
  CHECK(lost.error().conflict());
  CHECK(lost.error().reason == "Conflict");
  CHECK(lost.error().address.empty());
  CHECK(lost.error().message == changed_by_another_writer(address));
  const auto kept = second.value()->find("manager/ClusterQueue/second");
  REQUIRE(kept);
  CHECK_FALSE(kept.value());

  // Not there at all: no store, no error; a bad address: an Error.
  kube::FakeClient empty;
  const auto none =
      StateStore::open_in_cluster(std::make_unique<ClusterState>(empty, ClusterAddress{"m", "ns", "x"}), false);
  REQUIRE(none);
  CHECK(none.value() == nullptr);
  const auto bad = parse_cluster_address("kubernetes://manager/mkq-state");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().reason == "ConfigError");
  CHECK(bad.error().message ==
        "--state kubernetes://manager/mkq-state: it names no namespace and name (a state in a cluster is "
        "kubernetes://CONTEXT/NAMESPACE/NAME)");
}

}  // namespace
}  // namespace mkq::state
