// The sandbox's store: group commit (Store::set_commit_listener) and a
// cluster's flush() on a database file, read back through a second connection.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "sandbox/api.h"
#include "sandbox/store.h"
#include "tests/sandbox/api_test_support.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using mkq::sandbox::Store;
using nlohmann::json;

// Objects another connection (another process, say) sees committed.
int committed_objects(const fs::path& database) {
  sqlite3* db = nullptr;
  int count = -1;
  if (sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM objects", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      count = sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return count;
}

json config_map(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

}  // namespace

TEST_CASE("sandbox store: without a listener every write is committed at once", "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  auto store = Store::open(dir.path() / "c.db", &error);
  REQUIRE(store);
  json object = config_map("a");
  store->put({"", "configmaps", "default", "a"}, object, "ADDED");
  CHECK(committed_objects(dir.path() / "c.db") == 1);
}

TEST_CASE("sandbox store: with a listener writes share one commit", "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  auto store = Store::open(dir.path() / "c.db", &error);
  REQUIRE(store);
  int opened = 0;
  store->set_commit_listener([&opened] { ++opened; });
  for (const char* name : {"a", "b", "c"}) {
    json object = config_map(name);
    store->put({"", "configmaps", "default", name}, object, "ADDED");
  }
  CHECK(opened == 1);                                      // the first write opened the transaction
  CHECK(store->get({"", "configmaps", "default", "c"}));  // this store reads its pending writes
  CHECK(store->events_after("", "configmaps", 0, 100).size() == 3);
  CHECK(committed_objects(dir.path() / "c.db") == 0);  // others do not, yet
  store->commit_pending();
  CHECK(committed_objects(dir.path() / "c.db") == 3);
  json gone = config_map("a");
  store->remove({"", "configmaps", "default", "a"}, gone);
  CHECK(opened == 2);
  CHECK(committed_objects(dir.path() / "c.db") == 3);
  store.reset();  // closing commits what is pending
  CHECK(committed_objects(dir.path() / "c.db") == 2);
}

TEST_CASE("sandbox store: a cluster commits its writes within milliseconds, and on flush", "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  const fs::path database = dir.path() / "c.db";
  auto cluster = mkq::sandbox::Cluster::open("c", database, &error);
  REQUIRE(cluster);
  const int before = committed_objects(database);
  REQUIRE(before > 0);  // the default namespaces
  const auto created = cluster->handle(mkq::sandbox::testing::request(
      "POST", "/api/v1/namespaces/default/configmaps", config_map("a").dump()));
  REQUIRE(created.status == 201);
  cluster->flush();
  CHECK(committed_objects(database) == before + 1);
  REQUIRE(cluster->handle(mkq::sandbox::testing::request("POST", "/api/v1/namespaces/default/configmaps",
                                                         config_map("b").dump()))
              .status == 201);
  // The committer's delay is 10 ms; allow a loaded machine far longer.
  int seen = 0;
  for (int attempt = 0; attempt < 200 && seen != before + 2; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    seen = committed_objects(database);
  }
  CHECK(seen == before + 2);
}

TEST_CASE("sandbox store: the resourceVersion counter is saved with each commit and keeps growing", "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  {
    auto store = Store::open(dir.path() / "c.db", &error);
    REQUIRE(store);
    json a = config_map("a");
    CHECK(store->put({"", "configmaps", "default", "a"}, a, "ADDED") == 1);  // committed at once
    store->set_commit_listener([] {});
    json b = config_map("b");
    json c = config_map("c");
    store->put({"", "configmaps", "default", "b"}, b, "ADDED");
    CHECK(store->put({"", "configmaps", "default", "c"}, c, "ADDED") == 3);
    store->commit_pending();
    json last;
    CHECK(store->remove({"", "configmaps", "default", "c"}, last) == 4);
    // Not committed: the destructor commits what is pending, the counter with it.
  }
  auto reopened = Store::open(dir.path() / "c.db", &error);
  REQUIRE(reopened);
  CHECK(reopened->current_rv() == 4);
  json d = config_map("d");
  CHECK(reopened->put({"", "configmaps", "default", "d"}, d, "ADDED") == 5);
  CHECK(committed_objects(dir.path() / "c.db") == 3);
}

TEST_CASE("sandbox store: find_and_keep() parses an object once and shares it until it is written or removed",
          "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  auto store = Store::open(dir.path() / "c.db", &error);
  REQUIRE(store);
  const mkq::sandbox::ObjectKey key{"", "configmaps", "default", "a"};
  CHECK(store->find_and_keep(key) == nullptr);
  CHECK_FALSE(store->exists(key));

  json object = config_map("a");
  object["data"] = {{"k", "1"}};
  store->put(key, object, "ADDED");
  const auto unkept = store->find(key);
  REQUIRE(unkept != nullptr);
  CHECK(store->parsed_objects() == 0);  // find() alone keeps nothing
  const auto first = store->find_and_keep(key);
  REQUIRE(first != nullptr);
  CHECK(first != unkept);
  CHECK(*first == *unkept);
  CHECK((*first)["data"]["k"] == "1");
  CHECK(store->find_and_keep(key) == first);  // the same parsed object, not parsed again
  CHECK(store->find(key) == first);
  CHECK(store->exists(key));
  CHECK(store->get(key) == *first);
  // Another key of the same parts, split differently, is another object.
  CHECK(store->find_and_keep({"", "configmaps", "defaulta", ""}) == nullptr);

  object["data"]["k"] = "2";
  store->put(key, object, "MODIFIED");
  const auto second = store->find_and_keep(key);
  REQUIRE(second != nullptr);
  CHECK(second != first);
  CHECK((*second)["data"]["k"] == "2");
  CHECK((*second)["metadata"]["resourceVersion"] == object["metadata"]["resourceVersion"]);
  CHECK((*first)["data"]["k"] == "1");  // a reader's object stays as it was read

  json gone = *second;
  store->remove(key, gone);
  CHECK(store->find_and_keep(key) == nullptr);
  CHECK(store->find(key) == nullptr);
  CHECK_FALSE(store->exists(key));
  CHECK_FALSE(store->get(key));
}

TEST_CASE("sandbox store: the parsed objects are bounded, the least recently used dropped first", "[sandbox][store]") {
  mkq::testing::TempDir dir;
  std::string error;
  auto store = Store::open(dir.path() / "c.db", &error);
  REQUIRE(store);
  const std::size_t count = Store::kParsedCacheEntries + 10;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = "cm-" + std::to_string(i);
    json object = config_map(name);
    store->put({"", "configmaps", "default", name}, object, "ADDED");
  }
  const auto kept = store->find_and_keep({"", "configmaps", "default", "cm-0"});
  for (std::size_t i = 1; i < count; ++i) {
    const auto found = store->find_and_keep({"", "configmaps", "default", "cm-" + std::to_string(i)});
    REQUIRE(found != nullptr);
    CHECK((*found)["metadata"]["name"] == "cm-" + std::to_string(i));
  }
  CHECK(store->parsed_objects() == Store::kParsedCacheEntries);
  // cm-0 was dropped (the least recently used): found again, it is parsed anew.
  const auto again = store->find_and_keep({"", "configmaps", "default", "cm-0"});
  REQUIRE(again != nullptr);
  CHECK(again != kept);
  CHECK(*again == *kept);
}
