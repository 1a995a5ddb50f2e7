// StateStore: credential intents (state.h, CredentialIntent) -- recorded,
// replaced per worker, finished; no inventory change; schema version 3 and
// the migration from version 2.
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "runtime/state/schema.h"
#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/result.h"

using mkq::testing::take;

namespace mkq::state {
namespace {

using testing::TempDir;

CredentialIntent intent(const std::string& worker, std::vector<std::string> revokes, const std::string& issues) {
  CredentialIntent out;
  out.worker = worker;
  out.secret = "kueue-system/" + worker + "-secret";
  out.account = "kueue-system/multikueue-sa";
  out.revokes = std::move(revokes);
  out.issues = issues;
  return out;
}

StateWrite begun(const CredentialIntent& intent) {
  StateWrite write;
  write.kind = StateWrite::Kind::IntentBegun;
  write.intent = intent;
  return write;
}

StateWrite finished(const std::string& worker) {
  StateWrite write;
  write.kind = StateWrite::Kind::IntentFinished;
  write.address = worker;
  return write;
}

TEST_CASE("state records a credential intent, one per worker, until it is finished", "[state][credentials]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  std::string error;
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    CHECK(store->credential_intents().value().empty());
    REQUIRE(take(store->record_batch({begun(intent("worker1", {"sa-token-a", "sa-token-b"}, "sa-token-c")),
                                 begun(intent("worker2", {}, "sa-token-x"))}), &error));
    CHECK(store->serial().value() == 0);  // no inventory change
  }
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  auto intents = store->credential_intents().value();
  REQUIRE(intents.size() == 2);
  CHECK(intents[0].worker == "worker1");
  CHECK(intents[0].secret == "kueue-system/worker1-secret");
  CHECK(intents[0].account == "kueue-system/multikueue-sa");
  CHECK(intents[0].revokes == std::vector<std::string>{"sa-token-a", "sa-token-b"});
  CHECK(intents[0].issues == "sa-token-c");
  CHECK_FALSE(intents[0].started_at.empty());
  CHECK(intents[1].worker == "worker2");
  CHECK(intents[1].revokes.empty());

  // A new transaction for a worker replaces its earlier intent.
  REQUIRE(take(store->record_batch({begun(intent("worker1", {"sa-token-c"}, "sa-token-d"))}), &error));
  intents = store->credential_intents().value();
  REQUIRE(intents.size() == 2);
  CHECK(intents[0].revokes == std::vector<std::string>{"sa-token-c"});
  CHECK(intents[0].issues == "sa-token-d");

  REQUIRE(take(store->record_batch({finished("worker1"), finished("no-such-worker")}), &error));
  intents = store->credential_intents().value();
  REQUIRE(intents.size() == 1);
  CHECK(intents[0].worker == "worker2");
  CHECK(store->serial().value() == 0);
}

TEST_CASE("state migrates a v2 file to v3: it opens read-only without intents, then records them",
          "[state][migration][credentials]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  {
    // A file as mkq wrote it at schema version 2.
    std::string sql = std::string(migrations()[0].sql) + migrations()[1].sql +
                      "PRAGMA user_version = 2; PRAGMA application_id = " + std::to_string(kApplicationId) +
                      "; INSERT INTO meta (id, lineage, serial, policy) VALUES (1, 'lineage-2', 6, 'fleet');";
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
  }
  std::string error;
  {
    auto store = take(StateStore::open_existing(path), &error);
    REQUIRE(store != nullptr);
    CHECK(store->schema_version() == 2);
    CHECK(store->credential_intents().value().empty());
  }
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  CHECK(store->schema_version() == 3);
  CHECK(store->lineage() == "lineage-2");
  CHECK(store->serial().value() == 6);
  CHECK(store->policy() == "fleet");
  REQUIRE(take(store->record_batch({begun(intent("worker1", {"a"}, "b"))}), &error));
  CHECK(store->credential_intents().value().size() == 1);
  CHECK(store->integrity_check().value() == "ok");
}

}  // namespace
}  // namespace mkq::state
