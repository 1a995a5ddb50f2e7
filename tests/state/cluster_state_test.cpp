// runtime/state/cluster_state.h: the state kept in a cluster's Secrets and
// locked by a Lease -- round trip, chunks, two writers, the lock, damaged and
// foreign states, push and pull -- against the fake API.
#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <string>

#include "base/encoding.h"
#include "base/files.h"
#include "runtime/kube/lease.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/fake_client.h"
#include "tests/support/fake_clock.h"
#include "tests/support/result.h"

using mkq::testing::take;

using mkq::kube::FakeClient;
using mkq::kube::Json;
using mkq::state::ClusterAddress;
using mkq::state::ClusterState;
using mkq::state::ClusterStateOptions;
using mkq::state::InventoryEntry;
using mkq::state::LockHolder;
using mkq::state::LockResult;
using mkq::state::StateSnapshot;
using mkq::state::StateStore;
using mkq::state::testing::TempDir;
using std::chrono::seconds;

namespace {

const std::chrono::system_clock::time_point kStart = std::chrono::system_clock::from_time_t(1790000000);
const ClusterAddress kAddress{"manager", "mkq-state", "fleet"};

// One process's view of the state: its own ClusterState over the shared fake.
std::unique_ptr<ClusterState> cluster_state(FakeClient& fake, const mkq::testing::FakeClock& clock,
                                            std::size_t chunk_bytes = 900 * 1024) {
  ClusterStateOptions options;
  options.renew_in_background = false;
  options.lock_duration = seconds(60);
  options.chunk_bytes = chunk_bytes;
  options.clock = &clock;
  return std::make_unique<ClusterState>(fake, kAddress, options);
}

std::unique_ptr<StateStore> open_store(FakeClient& fake, const mkq::testing::FakeClock& clock, bool create,
                                       std::string* error) {
  return mkq::testing::take(StateStore::open_in_cluster(cluster_state(fake, clock), create), error);
}

InventoryEntry entry(const std::string& name) {
  InventoryEntry e;
  e.ref.cluster = "manager";
  e.ref.api_version = "kueue.x-k8s.io/v1beta2";
  e.ref.kind = "ClusterQueue";
  e.ref.name = name;
  e.digest = "sha256:00";
  return e;
}

LockHolder holder(const std::string& host, std::int64_t pid) {
  return LockHolder{"apply", "alice", host, pid, "2026-09-21T14:13:20Z"};
}

Json index_of(const FakeClient& fake) { return fake.object("v1", "Secret", "mkq-state", "fleet").value_or(Json()); }

std::size_t chunk_count(const FakeClient& fake, const Json& index) {
  const std::string chunks = index["metadata"]["annotations"]["mkq.dev/state-chunks"].get<std::string>();
  std::size_t count = 0;
  std::size_t start = 0;
  while (start < chunks.size()) {
    const std::size_t end = std::min(chunks.find(',', start), chunks.size());
    if (fake.object("v1", "Secret", "mkq-state", chunks.substr(start, end - start))) ++count;
    start = end + 1;
  }
  return count;
}

std::string random_bytes(std::size_t size) {
  std::mt19937 generator(42);
  std::string out(size, '\0');
  for (char& c : out) c = static_cast<char>(generator() & 0xff);
  return out;
}

}  // namespace

TEST_CASE("a state in a cluster reads back what was written: the same bytes, lineage and serial", "[state][cluster]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  auto writer = cluster_state(fake, clock);
  REQUIRE(writer->read().value() == std::nullopt);
  StateSnapshot snapshot{"SQLite format 3\0 pretend", "lineage-1", 7, "fleet"};
  REQUIRE(writer->write(snapshot).ok());

  auto reader = cluster_state(fake, clock);
  const auto read = reader->read();
  REQUIRE(read.ok());
  REQUIRE(read.value());
  CHECK(read.value()->database == snapshot.database);
  CHECK(read.value()->lineage == "lineage-1");
  CHECK(read.value()->serial == 7);
  CHECK(read.value()->policy == "fleet");
  // The namespace was made, labelled as mkq's.
  const auto ns = fake.object("v1", "Namespace", "", "mkq-state");
  REQUIRE(ns);
  CHECK((*ns)["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "mkq");
}

TEST_CASE("a state store in a cluster pushes every commit: another process reads the inventory and serial",
          "[state][cluster]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  {
    auto store = open_store(fake, clock, true, &error);
    REQUIRE(store != nullptr);
    CHECK(store->location() == "kubernetes://manager/mkq-state/fleet");
    REQUIRE(store->acquire_lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
    REQUIRE(take(store->record_applied(entry("team-a")), &error));
    REQUIRE(take(store->record_applied(entry("team-b")), &error));
    CHECK(store->serial().value() == 2);
  }
  CHECK(index_of(fake)["metadata"]["annotations"]["mkq.dev/state-serial"] == "2");
  auto again = open_store(fake, clock, false, &error);
  REQUIRE(again != nullptr);
  CHECK(again->serial().value() == 2);
  REQUIRE(again->inventory().value().size() == 2);
  CHECK(again->inventory().value()[1].ref.address() == "manager/ClusterQueue/team-b");
  // The lock was released with the first store: the Lease names nobody.
  CHECK(again->lock_holder().value() == std::nullopt);
}

TEST_CASE("an absent state in a cluster is no state for a reader and nothing is written", "[state][cluster]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error = "unset";
  CHECK(open_store(fake, clock, false, &error) == nullptr);
  CHECK(error.empty());
  CHECK(fake.size() == 0);
}

TEST_CASE("a state above one chunk is split across Secrets of at most the chunk size and read back whole",
          "[state][cluster]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  auto writer = cluster_state(fake, clock);  // the default: 900 KiB per chunk
  const std::string database = random_bytes(2 * 1024 * 1024);  // incompressible: three chunks
  REQUIRE(writer->write(StateSnapshot{database, "lineage-1", 1, ""}).ok());
  const Json index = index_of(fake);
  CHECK(chunk_count(fake, index) == 3);
  const std::string first = index["metadata"]["annotations"]["mkq.dev/state-chunks"].get<std::string>();
  const auto chunk = fake.object("v1", "Secret", "mkq-state", first.substr(0, first.find(',')));
  REQUIRE(chunk);
  CHECK(mkq::base::base64_decode((*chunk)["data"]["chunk"].get<std::string>())->size() == 900 * 1024);

  auto reader = cluster_state(fake, clock);
  const auto read = reader->read();
  REQUIRE(read.ok());
  CHECK(read.value()->database == database);

  // A second write replaces the chunks: the old ones are gone.
  REQUIRE(reader->write(StateSnapshot{"small", "lineage-1", 2, ""}).ok());
  CHECK(chunk_count(fake, index_of(fake)) == 1);
  CHECK_FALSE(fake.object("v1", "Secret", "mkq-state", first.substr(0, first.find(','))));
}

TEST_CASE("of two writers of a state in a cluster the second fails and the first's data stays", "[state][cluster]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  {
    auto seed = open_store(fake, clock, true, &error);
    REQUIRE(seed != nullptr);
    REQUIRE(take(seed->record_applied(entry("seed")), &error));
  }
  auto first = open_store(fake, clock, true, &error);
  auto second = open_store(fake, clock, true, &error);
  REQUIRE(first != nullptr);
  REQUIRE(second != nullptr);
  REQUIRE(take(first->record_applied(entry("first")), &error));
  CHECK_FALSE(take(second->record_applied(entry("second")), &error));
  CHECK(error ==
        "the state in kubernetes://manager/mkq-state/fleet was changed by another writer since it was read; nothing "
        "was recorded: run again to plan against what it holds now");
  // Not committed in the second's copy either.
  CHECK_FALSE(second->find("manager/ClusterQueue/second").value());

  auto reader = open_store(fake, clock, false, &error);
  REQUIRE(reader != nullptr);
  CHECK(reader->serial().value() == 2);
  CHECK(reader->find("manager/ClusterQueue/first").value());
  CHECK_FALSE(reader->find("manager/ClusterQueue/second").value());
}

TEST_CASE("the lock of a state in a cluster is a Lease: held names its holder, expired is taken over",
          "[state][cluster][lock]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  auto first = open_store(fake, clock, true, &error);
  auto second = open_store(fake, clock, true, &error);
  REQUIRE(first->acquire_lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
  const Json lease = fake.object("coordination.k8s.io/v1", "Lease", "mkq-state", "fleet-lock").value_or(Json());
  CHECK(lease["spec"]["holderIdentity"] == "alice@host-a (pid 1111)");
  CHECK(lease["spec"]["leaseDurationSeconds"] == 60);
  CHECK(lease["metadata"]["annotations"]["mkq.dev/lock-command"] == "apply");

  LockHolder previous;
  CHECK(second->acquire_lock(holder("host-b", 2222), &previous).value() == LockResult::Held);
  CHECK(previous.describe() == "apply by alice@host-a (pid 1111) since 2026-09-21T14:13:20Z");
  REQUIRE(second->lock_holder().value());
  CHECK(second->lock_holder().value()->host == "host-a");

  clock.advance(seconds(61));  // the first stopped renewing: its lease ran out
  CHECK(second->acquire_lock(holder("host-b", 2222), &previous).value() == LockResult::AcquiredStale);
  CHECK(previous.host == "host-a");
  CHECK(previous.why_stale() == "its lease expired at 2026-09-21T14:14:20Z");
}

TEST_CASE("the lock of a state in a cluster is kept alive by renewals", "[state][cluster][lock]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  auto mine = cluster_state(fake, clock);
  auto theirs = cluster_state(fake, clock);
  REQUIRE(mine->lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
  clock.advance(seconds(40));
  REQUIRE(mine->renew().ok());
  clock.advance(seconds(40));  // 80 s after taking it, 40 s after renewing
  LockHolder previous;
  CHECK(theirs->lock(holder("host-b", 2222), &previous).value() == LockResult::Held);
  mine->unlock();
  CHECK(theirs->lock(holder("host-b", 2222), &previous).value() == LockResult::Acquired);
}

TEST_CASE("a lock lost to another holder stops the writes of a state in a cluster", "[state][cluster][lock]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  auto mine = cluster_state(fake, clock);
  auto theirs = cluster_state(fake, clock);
  REQUIRE(mine->lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
  clock.advance(seconds(61));  // our renewals did not get through
  REQUIRE(theirs->lock(holder("host-b", 2222), nullptr).value() == LockResult::AcquiredStale);
  const auto renewed = mine->renew();
  REQUIRE_FALSE(renewed.ok());
  CHECK(renewed.error().conflict());
  const auto lost = mine->lock_lost();
  REQUIRE(lost);
  CHECK(lost->conflict());
  CHECK_THAT(lost->message, Catch::StartsWith("the lock was lost: lease mkq-state/fleet-lock is no longer held"));
  const auto written = mine->write(StateSnapshot{"bytes", "lineage-1", 1, ""});
  REQUIRE_FALSE(written.ok());
  CHECK_THAT(written.error().message, Catch::Contains("the lock was lost"));
  CHECK(fake.object("v1", "Secret", "mkq-state", "fleet") == std::nullopt);
}

TEST_CASE("a lock taken after another writer pushed reads the state again", "[state][cluster][lock]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  auto slow = open_store(fake, clock, true, &error);  // read before the other's write
  {
    auto fast = open_store(fake, clock, true, &error);
    REQUIRE(fast->acquire_lock(holder("host-b", 2222), nullptr).value() == LockResult::Acquired);
    REQUIRE(take(fast->record_applied(entry("fast")), &error));
  }
  REQUIRE(slow->acquire_lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
  CHECK(slow->find("manager/ClusterQueue/fast").value());
  REQUIRE(take(slow->record_applied(entry("slow")), &error));
  CHECK(slow->serial().value() == 2);
}

TEST_CASE("`mkq state unlock` on a state in a cluster removes the Lease and names its holder",
          "[state][cluster][lock]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  auto holder_store = open_store(fake, clock, true, &error);
  REQUIRE(holder_store->acquire_lock(holder("host-a", 1111), nullptr).value() == LockResult::Acquired);
  auto other = open_store(fake, clock, true, &error);
  LockHolder was;
  CHECK(other->unlock(false, &was).value() == mkq::state::UnlockResult::Released);
  CHECK(was.host == "host-a");
  CHECK_FALSE(fake.object("coordination.k8s.io/v1", "Lease", "mkq-state", "fleet-lock"));
  CHECK(other->unlock(false, &was).value() == mkq::state::UnlockResult::NotLocked);
}

TEST_CASE("a damaged state in a cluster is refused before anything is touched", "[state][cluster][errors]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  std::string error;
  {
    auto store = open_store(fake, clock, true, &error);
    REQUIRE(take(store->record_applied(entry("a")), &error));
  }
  const Json index = index_of(fake);
  const std::string chunk_name = index["metadata"]["annotations"]["mkq.dev/state-chunks"].get<std::string>();
  Json chunk = fake.object("v1", "Secret", "mkq-state", chunk_name).value();

  SECTION("a chunk whose bytes changed") {
    std::string bytes = *mkq::base::base64_decode(chunk["data"]["chunk"].get<std::string>());
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x55);
    chunk["data"]["chunk"] = mkq::base::base64_encode(bytes);
    fake.put(chunk);
    CHECK(open_store(fake, clock, true, &error) == nullptr);
    CHECK_THAT(error, Catch::StartsWith("state kubernetes://manager/mkq-state/fleet is damaged: its c"));
  }
  SECTION("an index whose checksum is another's") {
    Json changed = index;
    changed["metadata"]["annotations"]["mkq.dev/state-sha256"] = std::string(64, '0');
    fake.put(changed);
    CHECK(open_store(fake, clock, true, &error) == nullptr);
    CHECK_THAT(error, Catch::Contains("is damaged: its checksum does not match its chunks"));
  }
  SECTION("an index whose lineage is not its database's") {
    Json changed = index;
    changed["metadata"]["annotations"]["mkq.dev/state-lineage"] = "another-lineage";
    fake.put(changed);
    CHECK(open_store(fake, clock, true, &error) == nullptr);
    CHECK_THAT(error, Catch::Contains("is damaged: its index gives lineage another-lineage"));
  }
  SECTION("a chunk that is gone") {
    REQUIRE(fake.remove(mkq::kube::ResourceType{"", "v1", "Secret", "secrets", true}, "mkq-state", chunk_name, {}).ok());
    CHECK(open_store(fake, clock, true, &error) == nullptr);
    CHECK_THAT(error, Catch::Contains("is damaged: its chunk " + chunk_name + " is missing"));
  }
  SECTION("a format this mkq does not know") {
    Json changed = index;
    changed["metadata"]["annotations"]["mkq.dev/state-format"] = "sqlite3+zstd/v9";
    fake.put(changed);
    CHECK(open_store(fake, clock, true, &error) == nullptr);
    CHECK_THAT(error, Catch::Contains("is not a state this mkq can read (format \"sqlite3+zstd/v9\""));
  }
  // Nothing was written or locked.
  CHECK_FALSE(fake.object("coordination.k8s.io/v1", "Lease", "mkq-state", "fleet-lock"));
}

TEST_CASE("kubernetes:// addresses name a context, a namespace and a name", "[state][cluster][errors]") {
  const auto address = mkq::state::parse_cluster_address("kubernetes://kind-manager/mkq-state/fleet");
  REQUIRE(address);
  CHECK(address->context == "kind-manager");
  CHECK(address->namespace_name == "mkq-state");
  CHECK(address->name == "fleet");
  CHECK(address->uri() == "kubernetes://kind-manager/mkq-state/fleet");
  // A context may hold slashes (arn:aws:eks:.../cluster/x).
  CHECK(mkq::state::parse_cluster_address("kubernetes://arn:aws:eks:eu:1:cluster/prod/mkq/fleet")->context ==
        "arn:aws:eks:eu:1:cluster/prod");
  const auto no_name = mkq::state::parse_cluster_address("kubernetes://manager/fleet");
  REQUIRE_FALSE(no_name);
  CHECK(no_name.error().reason == "ConfigError");
  CHECK(no_name.error().message ==
        "--state kubernetes://manager/fleet: it names no namespace and name (a state in a cluster is "
        "kubernetes://CONTEXT/NAMESPACE/NAME)");
  const auto upper = mkq::state::parse_cluster_address("kubernetes://manager/Mkq/fleet");
  REQUIRE_FALSE(upper);
  CHECK_THAT(upper.error().message, Catch::Contains("the namespace \"Mkq\" is not a DNS label"));
  CHECK_FALSE(mkq::state::parse_cluster_address("kubernetes://m/ns/" + std::string(41, 'a')));
}

TEST_CASE("state push copies a file into a cluster and pull copies it back, refusing another lineage",
          "[state][cluster][transfer]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  TempDir dir;
  std::string error;
  {
    auto local = take(StateStore::open(dir / "state.db"), &error);
    REQUIRE(take(local->record_applied(entry("pushed")), &error));
  }
  auto cluster = cluster_state(fake, clock);
  const auto pushed = mkq::state::push_state(dir / "state.db", *cluster, holder("host-a", 1111), false);
  REQUIRE(pushed.ok());
  CHECK(pushed.value().serial == 1);
  CHECK_FALSE(pushed.value().replaced);
  CHECK_FALSE(cluster->locked());  // released when done

  const auto pulled = mkq::state::pull_state(*cluster, dir / "copy" / "state.db", false);
  REQUIRE(pulled.ok());
  // Written whole and owner-only (base/files.h), no temporary left beside it.
  const auto pulled_mode =
      std::filesystem::status(dir / "copy" / "state.db").permissions() & std::filesystem::perms::all;
  CHECK(pulled_mode == (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  for (const auto& file : std::filesystem::directory_iterator(dir / "copy")) {
    INFO(file.path().string());
    CHECK_FALSE(mkq::base::is_temporary_name(file.path().filename().string()));
  }
  auto copy = take(StateStore::open_existing(dir / "copy" / "state.db"), &error);
  REQUIRE(copy != nullptr);
  CHECK(copy->lineage() == pushed.value().lineage);
  CHECK(copy->find("manager/ClusterQueue/pushed").value());
  CHECK(copy->lock_holder().value() == std::nullopt);

  // Another state (a fresh file: another lineage) is not pushed over it...
  { auto other = take(StateStore::open(dir / "other.db"), &error); }
  const Json before = index_of(fake);
  const auto refused = mkq::state::push_state(dir / "other.db", *cluster, holder("host-a", 1111), false);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::StartsWith("the state in kubernetes://manager/mkq-state/fleet is another "
                                                        "state (lineage " + pushed.value().lineage));
  CHECK_THAT(refused.error().message, Catch::EndsWith("nothing was pushed; to replace it anyway: mkq state push --force"));
  CHECK(index_of(fake)["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"]);
  // ... nor pulled over that file.
  const auto refused_pull = mkq::state::pull_state(*cluster, dir / "other.db", false);
  REQUIRE_FALSE(refused_pull.ok());
  CHECK_THAT(refused_pull.error().message, Catch::Contains("is another state"));
  // With force, it is.
  REQUIRE(mkq::state::push_state(dir / "other.db", *cluster, holder("host-a", 1111), true).ok());
  CHECK(cluster_state(fake, clock)->read().value()->serial == 0);
}

TEST_CASE("state push refuses to replace a newer state in the cluster, and a held lock", "[state][cluster][transfer]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  TempDir dir;
  std::string error;
  { auto local = take(StateStore::open(dir / "state.db"), &error); }
  auto cluster = cluster_state(fake, clock);
  REQUIRE(mkq::state::push_state(dir / "state.db", *cluster, holder("host-a", 1111), false).ok());
  {
    auto remote = open_store(fake, clock, true, &error);
    REQUIRE(take(remote->record_applied(entry("newer")), &error));
  }
  const auto refused = mkq::state::push_state(dir / "state.db", *cluster, holder("host-a", 1111), false);
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.error().message, Catch::Contains("is newer (serial 1) than"));

  auto other = cluster_state(fake, clock);
  REQUIRE(other->lock(holder("host-b", 2222), nullptr).value() == LockResult::Acquired);
  const auto held = mkq::state::push_state(dir / "state.db", *cluster, holder("host-a", 1111), true);
  REQUIRE(held.ok());
  CHECK(held.value().outcome == mkq::state::Transfer::Outcome::LockHeld);
  CHECK(held.value().holder.host == "host-b");
}

namespace {

// A Secret in the state's namespace: `chunk_of` labels it as a chunk of that
// state (none: unlabelled), `type` and `serial` (none: no annotation) as given.
Json secret(const std::string& name, const std::string& chunk_of, const std::string& type, const std::string& serial) {
  Json metadata{{"name", name}, {"namespace", "mkq-state"}};
  if (!chunk_of.empty()) {
    metadata["labels"] = Json{{"app.kubernetes.io/managed-by", "mkq"},
                              {"mkq.dev/state", chunk_of},
                              {"mkq.dev/state-chunk-of", chunk_of}};
  }
  if (!serial.empty()) metadata["annotations"] = Json{{"mkq.dev/state-serial", serial}};
  return Json{{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", metadata}, {"type", type},
              {"data", {{"chunk", "AAAA"}}}};
}

bool exists(const FakeClient& fake, const std::string& name) {
  return fake.object("v1", "Secret", "mkq-state", name).has_value();
}

}  // namespace

TEST_CASE("a state in a cluster: the first write of a process removes orphaned chunks of older serials, and only them",
          "[state][cluster][orphans]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  {
    auto earlier = cluster_state(fake, clock);
    REQUIRE(earlier->write(StateSnapshot{"database at serial 2", "lineage-1", 2, "fleet"}).ok());
  }
  // What crashed writers left, and what is not theirs to lose.
  fake.put(secret("fleet-dead0001-0", "fleet", "mkq.dev/state-chunk", "1"));   // an older serial: orphaned
  fake.put(secret("fleet-dead0002-0", "fleet", "mkq.dev/state-chunk", ""));    // no serial (an older mkq's): orphaned
  fake.put(secret("fleet-beef0003-0", "fleet", "mkq.dev/state-chunk", "3"));   // the serial being written: kept
  fake.put(secret("other-dead0004-0", "other", "mkq.dev/state-chunk", "1"));   // another state's: kept
  fake.put(secret("fleet-notes", "fleet", "Opaque", "1"));                     // not a chunk: kept
  fake.put(secret("unrelated-0", "fleet", "mkq.dev/state-chunk", "1"));        // not named NAME-...: kept
  fake.put(secret("fleet-dead0005-0", "", "mkq.dev/state-chunk", "1"));        // not labelled: kept

  auto writer = cluster_state(fake, clock);
  REQUIRE(writer->read().ok());
  const auto orphans = writer->orphaned_chunks();
  REQUIRE(orphans.ok());
  CHECK(orphans.value() == std::vector<std::string>{"fleet-dead0001-0", "fleet-dead0002-0"});
  // A reader removes nothing.
  CHECK(exists(fake, "fleet-dead0001-0"));

  REQUIRE(writer->write(StateSnapshot{"database at serial 3", "lineage-1", 3, "fleet"}).ok());
  CHECK_FALSE(exists(fake, "fleet-dead0001-0"));
  CHECK_FALSE(exists(fake, "fleet-dead0002-0"));
  for (const char* kept : {"fleet-beef0003-0", "other-dead0004-0", "fleet-notes", "unrelated-0", "fleet-dead0005-0"}) {
    INFO(kept);
    CHECK(exists(fake, kept));
  }
  CHECK(chunk_count(fake, index_of(fake)) == 1);
  const auto after = writer->orphaned_chunks();
  REQUIRE(after.ok());
  CHECK(after.value().empty());
  // What the write left reads back whole.
  auto reader = cluster_state(fake, clock);
  const auto read = reader->read();
  REQUIRE(read.ok());
  REQUIRE(read.value());
  CHECK(read.value()->database == "database at serial 3");

  // Once per process: a chunk orphaned later waits for the next process's first write.
  fake.put(secret("fleet-dead0006-0", "fleet", "mkq.dev/state-chunk", "2"));
  REQUIRE(writer->write(StateSnapshot{"database at serial 4", "lineage-1", 4, "fleet"}).ok());
  CHECK(exists(fake, "fleet-dead0006-0"));
  auto next = cluster_state(fake, clock);
  REQUIRE(next->read().ok());
  REQUIRE(next->write(StateSnapshot{"database at serial 5", "lineage-1", 5, "fleet"}).ok());
  CHECK_FALSE(exists(fake, "fleet-dead0006-0"));
}

TEST_CASE("a state in a cluster: its chunks say the serial they were written for", "[state][cluster][orphans]") {
  FakeClient fake;
  mkq::testing::FakeClock clock(kStart);
  auto writer = cluster_state(fake, clock);
  REQUIRE(writer->write(StateSnapshot{"database", "lineage-1", 7, "fleet"}).ok());
  const Json index = index_of(fake);
  const std::string chunk = index["metadata"]["annotations"]["mkq.dev/state-chunks"].get<std::string>();
  const auto object = fake.object("v1", "Secret", "mkq-state", chunk);
  REQUIRE(object);
  CHECK((*object)["metadata"]["annotations"]["mkq.dev/state-serial"] == "7");
  CHECK((*object)["type"] == "mkq.dev/state-chunk");
}
