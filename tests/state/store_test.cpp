// StateStore: opening, migrating, refusing what it must not read, meta,
// inventory, runs and history, digests.
#include <sqlite3.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <regex>

#include "runtime/state/schema.h"
#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/result.h"

using mkq::testing::take;

namespace mkq::state {
namespace {

using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;

InventoryEntry entry(const std::string& cluster, const std::string& kind, const std::string& name) {
  InventoryEntry e;
  e.ref.cluster = cluster;
  e.ref.api_version = "kueue.x-k8s.io/v1beta1";
  e.ref.kind = kind;
  e.ref.name = name;
  e.uid = "uid-" + name;
  e.resource_version = "17";
  e.digest = "sha256:00";
  e.run_id = 3;
  return e;
}

// Runs SQL on the file through a separate connection, as another program would.
void raw_sql(const std::filesystem::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  INFO((message != nullptr ? message : ""));
  sqlite3_free(message);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

TEST_CASE("state store creates its directory and file, and reopens with the same lineage", "[state]") {
  TempDir dir;
  const auto path = dir.path() / "policy" / ".mkq" / "state.db";
  std::string error;
  std::string lineage;
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    CHECK(error.empty());
    CHECK(store->path() == path);
    CHECK(store->schema_version() == 3);
    CHECK(store->serial().value() == 0);
    lineage = store->lineage();
    CHECK(std::regex_match(
        lineage, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
    CHECK(store->integrity_check().value() == "ok");
    CHECK(store->inventory().value().empty());
    CHECK(store->history(10, true).value().empty());
  }
  CHECK(std::filesystem::exists(path));
  auto again = take(StateStore::open(path), &error);
  REQUIRE(again != nullptr);
  CHECK(again->lineage() == lineage);
  auto existing = take(StateStore::open_existing(path), &error);
  REQUIRE(existing != nullptr);
  CHECK(existing->lineage() == lineage);

  TempDir other;
  auto second = take(StateStore::open(other.path() / "state.db"), &error);
  REQUIRE(second != nullptr);
  CHECK(second->lineage() != lineage);
}

TEST_CASE("state store uses WAL and records its schema version and application id", "[state]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  std::string error;
  { REQUIRE(take(StateStore::open(path), &error) != nullptr); }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
  const auto integer = [&](const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
    const std::string value = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    return value;
  };
  CHECK(integer("PRAGMA journal_mode") == "wal");
  CHECK(integer("PRAGMA user_version") == "3");
  CHECK(integer("PRAGMA application_id") == std::to_string(0x6d6b7121));
  sqlite3_close(db);
}

TEST_CASE("state store refuses a schema version newer than it knows, naming both", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  std::string error;
  { REQUIRE(take(StateStore::open(path), &error) != nullptr); }
  raw_sql(path, "PRAGMA user_version = 7");
  CHECK(take(StateStore::open(path), &error) == nullptr);
  CHECK(error == "state " + path.string() +
                     ": schema version 7 is newer than this mkq understands (3); use a newer mkq");
  error.clear();
  CHECK(take(StateStore::open_existing(path), &error) == nullptr);
  CHECK(error.find("schema version 7 is newer") != std::string::npos);
}

TEST_CASE("state store refuses a file that is not a database and leaves it untouched", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  const std::string text(400, 'x');
  write_bytes(path, "this is not sqlite\n" + text);
  std::string error;
  // A torn state reads so too: the message points to where a backup would be.
  const std::string expected = "state " + path.string() + ": file is not a database; there is no backup beside it (" +
                               path.string() + ".backup)";
  CHECK(take(StateStore::open(path), &error) == nullptr);
  CHECK(error == expected);
  error.clear();
  CHECK(take(StateStore::open_existing(path), &error) == nullptr);
  CHECK(error == expected);
  CHECK(read_bytes(path) == "this is not sqlite\n" + text);
}

TEST_CASE("state store refuses another program's SQLite database", "[state][errors]") {
  TempDir dir;
  const auto path = dir.path() / "app.db";
  raw_sql(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  std::string error;
  CHECK(take(StateStore::open(path), &error) == nullptr);
  CHECK(error == "state " + path.string() + ": not an mkq state database (another program's SQLite file)");
  raw_sql(path, "PRAGMA application_id = 42");
  CHECK(take(StateStore::open(path), &error) == nullptr);
  CHECK(error.find("not an mkq state database") != std::string::npos);
}

TEST_CASE("state store open_existing never creates a file", "[state]") {
  TempDir dir;
  const auto path = dir.path() / "missing" / "state.db";
  std::string error = "stale";
  CHECK(take(StateStore::open_existing(path), &error) == nullptr);
  CHECK(error.empty());
  CHECK(!std::filesystem::exists(path));
  CHECK(!std::filesystem::exists(dir.path() / "missing"));

  // An empty file is not a state either (and stays empty).
  write_bytes(dir.path() / "empty.db", "");
  CHECK(take(StateStore::open_existing(dir.path() / "empty.db"), &error) == nullptr);
  CHECK(error.find("not an mkq state: empty file") != std::string::npos);
}

TEST_CASE("state store reports a directory it cannot create", "[state][errors]") {
  TempDir dir;
  write_bytes(dir.path() / "file", "x");
  std::string error;
  CHECK(take(StateStore::open(dir.path() / "file" / "state.db"), &error) == nullptr);
  CHECK(error.rfind("state " + (dir.path() / "file" / "state.db").string() + ": cannot create the directory",
                    0) == 0);
}

TEST_CASE("state record_batch: in order, one serial per inventory change, all or nothing", "[state]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  const std::int64_t run = take(store->begin_run("apply", "sha256:p"), &error);
  REQUIRE(run > 0);

  std::vector<StateWrite> writes;
  writes.push_back({StateWrite::Kind::Applied, entry("manager", "Cohort", "a"), "", 0, {}});
  writes.push_back({StateWrite::Kind::Outcome, {}, "", run, {"manager/Cohort/a", "create", "ok", ""}});
  writes.push_back({StateWrite::Kind::Applied, entry("manager", "Cohort", "b"), "", 0, {}});
  writes.push_back({StateWrite::Kind::Deleted, {}, "manager/Cohort/b", 0, {}});  // after its apply: gone
  writes.push_back({StateWrite::Kind::Deleted, {}, "manager/Cohort/none", 0, {}});  // nothing to delete
  writes.push_back({StateWrite::Kind::Outcome, {}, "", run, {"manager/Cohort/b", "create", "failed", "boom"}});
  REQUIRE(take(store->record_batch(writes), &error));
  CHECK(store->serial().value() == 3);  // two applied, one deleted
  const auto all = store->inventory().value();
  REQUIRE(all.size() == 1);
  CHECK(all[0].ref.address() == "manager/Cohort/a");
  const auto recorded = store->find_run(run).value();
  REQUIRE(recorded);
  REQUIRE(recorded->objects.size() == 2);
  CHECK(recorded->objects[1].message == "boom");

  // An outcome for a run that does not exist fails the whole batch.
  std::vector<StateWrite> bad;
  bad.push_back({StateWrite::Kind::Applied, entry("manager", "Cohort", "c"), "", 0, {}});
  bad.push_back({StateWrite::Kind::Outcome, {}, "", run + 100, {"manager/Cohort/c", "create", "ok", ""}});
  CHECK_FALSE(take(store->record_batch(bad), &error));
  CHECK(error.find("no run") != std::string::npos);
  CHECK(!store->find("manager/Cohort/c").value());
  CHECK(store->serial().value() == 3);
  CHECK(take(store->record_batch({}), &error));
}

TEST_CASE("state inventory: insert, replace, find, delete, sorted, each change bumps the serial", "[state]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);

  InventoryEntry b = entry("manager", "ClusterQueue", "b");
  b.applied_at = "2026-01-02T03:04:05Z";
  REQUIRE(take(store->record_applied(b), &error));
  CHECK(store->serial().value() == 1);
  InventoryEntry a = entry("worker1", "LocalQueue", "a");
  a.ref.namespace_name = "team-a";
  REQUIRE(take(store->record_applied(a), &error));
  REQUIRE(take(store->record_applied(entry("manager", "Cohort", "c")), &error));
  CHECK(store->serial().value() == 3);

  const auto all = store->inventory().value();
  REQUIRE(all.size() == 3);
  CHECK(all[0].ref.address() == "manager/ClusterQueue/b");
  CHECK(all[1].ref.address() == "manager/Cohort/c");
  CHECK(all[2].ref.address() == "worker1/LocalQueue/team-a/a");
  CHECK(!all[1].applied_at.empty());  // filled in when not given

  const auto found = store->find("worker1/LocalQueue/team-a/a").value();
  REQUIRE(found);
  CHECK(found->ref.cluster == "worker1");
  CHECK(found->ref.api_version == "kueue.x-k8s.io/v1beta1");
  CHECK(found->ref.kind == "LocalQueue");
  CHECK(found->ref.namespace_name == "team-a");
  CHECK(found->ref.name == "a");
  CHECK(found->uid == "uid-a");
  CHECK(found->resource_version == "17");
  CHECK(found->digest == "sha256:00");
  CHECK(found->run_id == 3);
  CHECK(store->find("manager/ClusterQueue/b").value()->applied_at == "2026-01-02T03:04:05Z");
  CHECK(!store->find("manager/ClusterQueue/zzz").value());

  b.resource_version = "18";
  REQUIRE(take(store->record_applied(b), &error));
  CHECK(store->serial().value() == 4);
  CHECK(store->find("manager/ClusterQueue/b").value()->resource_version == "18");
  CHECK(store->inventory().value().size() == 3);

  REQUIRE(take(store->record_deleted("manager/Cohort/c"), &error));
  CHECK(store->serial().value() == 5);
  REQUIRE(take(store->record_deleted("manager/Cohort/c"), &error));  // already gone: no change, no new serial
  CHECK(store->serial().value() == 5);
  CHECK(store->inventory().value().size() == 2);

  // Another connection sees the committed serial.
  auto other = take(StateStore::open_existing(dir.path() / "state.db"), &error);
  REQUIRE(other != nullptr);
  CHECK(other->serial().value() == 5);
  CHECK(store->integrity_check().value() == "ok");
}

TEST_CASE("state history: runs newest first with their outcomes and serials", "[state]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  LockHolder me{"apply", "tester", "", 0, ""};
  LockHolder previous;
  REQUIRE(store->acquire_lock(me, &previous).value() == LockResult::Acquired);

  const std::int64_t first = take(store->begin_run("apply", "sha256:p1"), &error);
  REQUIRE(first > 0);
  REQUIRE(take(store->record_outcome(first, {"manager/Cohort/a", "create", "ok", ""}), &error));
  REQUIRE(take(store->record_applied(entry("manager", "Cohort", "a")), &error));
  REQUIRE(
      take(store->record_outcome(first, {"worker1/Cohort/a", "create", "failed", "connection refused"}), &error));
  REQUIRE(take(store->finish_run(first, "partial"), &error));

  const std::int64_t second = take(store->begin_run("destroy", "sha256:p2"), &error);
  REQUIRE(second > first);
  REQUIRE(take(store->record_deleted("manager/Cohort/a"), &error));
  REQUIRE(take(store->record_outcome(second, {"manager/Cohort/a", "delete", "ok", ""}), &error));
  REQUIRE(take(store->finish_run(second, "success"), &error));

  const std::int64_t third = take(store->begin_run("apply", "sha256:p3"), &error);
  REQUIRE(third > second);

  const auto runs = store->history(10, true).value();
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].id == third);
  CHECK(runs[0].result == "running");  // we hold the lock and run
  CHECK(runs[0].finished_at.empty());
  CHECK(runs[1].id == second);
  CHECK(runs[1].command == "destroy");
  CHECK(runs[1].result == "success");
  CHECK(runs[1].serial_before == 1);
  CHECK(runs[1].serial_after == 2);
  REQUIRE(runs[2].objects.size() == 2);
  CHECK(runs[2].policy_digest == "sha256:p1");
  CHECK(runs[2].serial_before == 0);
  CHECK(runs[2].serial_after == 1);
  CHECK(!runs[2].started_at.empty());
  CHECK(!runs[2].finished_at.empty());
  CHECK(runs[2].objects[0].address == "manager/Cohort/a");
  CHECK(runs[2].objects[1].result == "failed");
  CHECK(runs[2].objects[1].message == "connection refused");

  CHECK(store->history(1, false).value().size() == 1);
  CHECK(store->history(10, false).value()[2].objects.empty());
  CHECK(store->history(0, false).value().size() == 3);  // no limit

  const auto found = store->find_run(first).value();
  REQUIRE(found);
  CHECK(found->objects.size() == 2);
  CHECK(!store->find_run(999).value());

  CHECK(!take(store->finish_run(999, "success"), &error));
  CHECK(error == "state " + (dir.path() / "state.db").string() + ": no run 999");
  CHECK(!take(store->record_outcome(999, {"x", "create", "ok", ""}), &error));
  CHECK(error.find("no run 999") != std::string::npos);

  // Once our lock is gone the unfinished run reads as interrupted.
  store->release_lock();
  CHECK(store->history(1, false).value()[0].result == "interrupted");
  CHECK(store->find_run(third).value()->result == "interrupted");
}

TEST_CASE("state digests are salted with the lineage and stable", "[state]") {
  CHECK(digest_of("{\"a\":1}", "lineage-1") ==
        "sha256:e77ef0ef4098d132b53afd4e5179e5cf9550b33afa0b7f316ee4b9a8a566bf77");
  CHECK(digest_of("{\"a\":1}", "lineage-1") == digest_of("{\"a\":1}", "lineage-1"));
  CHECK(digest_of("{\"a\":1}", "lineage-2") != digest_of("{\"a\":1}", "lineage-1"));
  CHECK(digest_of("{\"a\":2}", "lineage-1") != digest_of("{\"a\":1}", "lineage-1"));
}

TEST_CASE("state file holds the digest of an applied document, never the document", "[state][secrets]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  const std::string marker = "MKQ-SECRET-MARKER-3f9a7c";
  const std::string document = R"({"apiVersion":"v1","data":{"token":")" + marker + R"("},"kind":"Secret"})";
  std::string digest;
  {
    std::string error;
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    InventoryEntry e = entry("worker1", "Secret", "creds");
    digest = digest_of(document, store->lineage());
    e.digest = digest;
    REQUIRE(take(store->record_applied(e), &error));
    // While open, the write sits in the WAL: search both files.
    const std::string wal = read_bytes(dir.path() / "state.db-wal");
    CHECK(wal.find(marker) == std::string::npos);
    CHECK((wal + read_bytes(path)).find(digest) != std::string::npos);
  }
  const std::string bytes = read_bytes(path);
  CHECK(bytes.find(marker) == std::string::npos);
  CHECK(bytes.find(digest) != std::string::npos);
}

TEST_CASE("state reads a v1 file as it is and migrates it when opened to write", "[state][migration]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  // A file as mkq wrote it at schema version 1: no identity, no ownership columns.
  raw_sql(path, std::string(migrations()[0].sql) + "PRAGMA user_version = 1; PRAGMA application_id = " +
                    std::to_string(kApplicationId) +
                    "; INSERT INTO meta (id, lineage, serial) VALUES (1, 'lineage-1', 4);"
                    " INSERT INTO inventory (address, cluster, kind, name, digest) VALUES"
                    " ('m/ResourceFlavor/f', 'm', 'ResourceFlavor', 'f', 'sha256:00');");
  std::string error;
  {
    auto store = take(StateStore::open_existing(path), &error);
    REQUIRE(store != nullptr);
    CHECK(store->schema_version() == 1);
    CHECK(store->policy().empty());
    const auto inventory = store->inventory().value();
    REQUIRE(inventory.size() == 1);
    CHECK(inventory[0].digest == "sha256:00");
    CHECK_FALSE(inventory[0].adopted);
    CHECK(inventory[0].prior.empty());
    REQUIRE(store->find("m/ResourceFlavor/f").value().has_value());
  }
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    CHECK(store->schema_version() == 3);
    CHECK(store->lineage() == "lineage-1");
    CHECK(store->serial().value() == 4);
    CHECK(store->policy().empty());
    const auto entry = store->find("m/ResourceFlavor/f").value();
    REQUIRE(entry.has_value());
    CHECK_FALSE(entry->adopted);
    CHECK(entry->prior.empty());
    REQUIRE(take(store->set_policy("fleet"), &error));
    CHECK(store->serial().value() == 4);  // the identity is no inventory change
    CHECK(store->integrity_check().value() == "ok");
  }
  auto store = take(StateStore::open_existing(path), &error);
  REQUIRE(store != nullptr);
  CHECK(store->schema_version() == 3);
  CHECK(store->policy() == "fleet");
}

TEST_CASE("state keeps an adopted object's prior and the policy's identity", "[state][ownership]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  std::string error;
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    CHECK(store->policy().empty());
    InventoryEntry adopted = entry("manager", "ConfigMap", "kueue-manager-config");
    adopted.adopted = true;
    adopted.prior = R"([{"path":["data","controller_manager_config.yaml"],"value":"apiVersion: v1\n"}])";
    REQUIRE(take(store->record_applied(adopted), &error));
    REQUIRE(take(store->record_applied(entry("manager", "ClusterQueue", "cq")), &error));
    REQUIRE(take(store->set_policy("fleet"), &error));
  }
  auto store = take(StateStore::open_existing(path), &error);
  REQUIRE(store != nullptr);
  CHECK(store->policy() == "fleet");
  const auto adopted = store->find("manager/ConfigMap/kueue-manager-config").value();
  REQUIRE(adopted.has_value());
  CHECK(adopted->adopted);
  CHECK(adopted->prior == R"([{"path":["data","controller_manager_config.yaml"],"value":"apiVersion: v1\n"}])");
  const auto created = store->find("manager/ClusterQueue/cq").value();
  REQUIRE(created.has_value());
  CHECK_FALSE(created->adopted);
  CHECK(created->prior.empty());
}

TEST_CASE("state default path: beside the policy, one per policy of a directory", "[state]") {
  const std::filesystem::path dir = "/policies/fleet";
  CHECK(default_state_path(dir, "") == dir / ".mkq" / "state.db");
  CHECK(default_state_path(dir, "gpu") == dir / ".mkq" / "gpu.state.db");
}

TEST_CASE("state reports a busy database as a clear message", "[state][errors][slow]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  std::string error;
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(path.string().c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
  CHECK(!take(store->record_applied(entry("manager", "Cohort", "a")), &error));
  CHECK(error == "state " + path.string() + ": database is locked");
  LockHolder previous;
  const base::Result<LockResult> locked = store->acquire_lock({"apply", "me", "", 0, ""}, &previous);
  REQUIRE_FALSE(locked);  // an Error, not an answer of Held: nobody holds it
  CHECK(locked.error().reason == kStateError);
  CHECK(locked.error().message == "state " + path.string() + ": database is locked");
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  CHECK(take(store->record_applied(entry("manager", "Cohort", "a")), &error));
  CHECK(store->serial().value() == 1);
}

// Three objects on two clusters, serial 3.
std::unique_ptr<StateStore> store_with_two_clusters(const std::filesystem::path& path) {
  std::string error;
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  REQUIRE(take(store->record_applied(entry("manager", "ClusterQueue", "cq")), &error));
  REQUIRE(take(store->record_applied(entry("worker2", "ClusterQueue", "cq")), &error));
  REQUIRE(take(store->record_applied(entry("worker2", "ResourceFlavor", "f")), &error));
  REQUIRE(store->serial().value() == 3);
  return store;
}

std::vector<std::string> addresses_of(const std::vector<InventoryEntry>& entries) {
  std::vector<std::string> out;
  for (const InventoryEntry& e : entries) out.push_back(e.ref.address());
  return out;
}

TEST_CASE("state forget: addresses, all or nothing, one serial per object", "[state]") {
  TempDir dir;
  auto store = store_with_two_clusters(dir.path() / "state.db");
  std::string error;
  ForgetResult result;

  // An unknown address: nothing is forgotten, the serial stays.
  REQUIRE(take(store->forget({"worker2/ClusterQueue/cq", "worker2/ClusterQueue/nope"}), &result, &error));
  CHECK(result.unknown == std::vector<std::string>{"worker2/ClusterQueue/nope"});
  CHECK(result.forgotten.empty());
  CHECK(store->inventory().value().size() == 3);
  CHECK(store->serial().value() == 3);

  // Known addresses (one given twice): forgotten, sorted, the serial grows by two.
  REQUIRE(take(store->forget({"worker2/ResourceFlavor/f", "manager/ClusterQueue/cq", "worker2/ResourceFlavor/f"}), &result, &error));
  CHECK(result.unknown.empty());
  CHECK(addresses_of(result.forgotten) ==
        std::vector<std::string>{"manager/ClusterQueue/cq", "worker2/ResourceFlavor/f"});
  CHECK(result.forgotten[0].uid == "uid-cq");
  CHECK(addresses_of(store->inventory().value()) == std::vector<std::string>{"worker2/ClusterQueue/cq"});
  CHECK(store->serial().value() == 5);
  // Another connection sees it.
  auto other = take(StateStore::open_existing(dir.path() / "state.db"), &error);
  REQUIRE(other != nullptr);
  CHECK(other->serial().value() == 5);
  CHECK(other->inventory().value().size() == 1);
}

TEST_CASE("state forget_clusters: every object of the clusters, or nothing", "[state]") {
  TempDir dir;
  auto store = store_with_two_clusters(dir.path() / "state.db");
  std::string error;
  ForgetResult result;

  REQUIRE(take(store->forget_clusters({"worker2", "worker3"}), &result, &error));
  CHECK(result.unknown == std::vector<std::string>{"worker3"});
  CHECK(result.forgotten.empty());
  CHECK(store->inventory().value().size() == 3);
  CHECK(store->serial().value() == 3);

  REQUIRE(take(store->forget_clusters({"worker2"}), &result, &error));
  CHECK(result.unknown.empty());
  CHECK(addresses_of(result.forgotten) ==
        std::vector<std::string>{"worker2/ClusterQueue/cq", "worker2/ResourceFlavor/f"});
  CHECK(addresses_of(store->inventory().value()) == std::vector<std::string>{"manager/ClusterQueue/cq"});
  CHECK(store->serial().value() == 5);
  CHECK(store->integrity_check().value() == "ok");
}

}  // namespace
}  // namespace mkq::state
