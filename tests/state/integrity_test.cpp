// The state is verified when opened (a damaged, truncated or empty file is an
// error, never an empty state) and kept as PATH.backup before each write run.
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "base/files.h"
#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/result.h"

using mkq::testing::take;

namespace mkq::state {
namespace {

using testing::read_bytes;
using testing::TempDir;
using testing::write_bytes;

constexpr std::size_t kRows = 100;

InventoryEntry row(std::size_t i) {
  InventoryEntry e;
  e.ref.name = "queue-" + std::to_string(i);
  e.ref.cluster = "worker1";
  e.ref.kind = "ClusterQueue";
  e.ref.api_version = "kueue.x-k8s.io/v1beta1";
  e.uid = "uid-" + std::to_string(i);
  e.resource_version = "17";
  e.digest = "sha256:00";
  e.run_id = 1;
  return e;
}

// A real state of kRows inventory rows, closed (its WAL checkpointed).
void make_state(const std::filesystem::path& path) {
  std::string error;
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  for (std::size_t i = 0; i < kRows; ++i) REQUIRE(take(store->record_applied(row(i)), &error));
}

// The first page of the inventory table (its root), as sqlite_master says.
std::int64_t inventory_root(const std::filesystem::path& path) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = 'inventory'", -1, &statement,
                             nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  const std::int64_t page = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return page;
}

// Zeros pages [first, last] (1-based; last 0: to the end of the file).
void zero_pages(const std::filesystem::path& path, std::size_t first, std::size_t last) {
  std::string bytes = read_bytes(path);
  constexpr std::size_t kPage = 4096;
  REQUIRE(bytes.size() >= first * kPage);
  const std::size_t end = last == 0 ? bytes.size() : std::min(bytes.size(), last * kPage);
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>((first - 1) * kPage),
            bytes.begin() + static_cast<std::ptrdiff_t>(end), '\0');
  write_bytes(path, bytes);
}

mode_t mode_of(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 0777;
}

// open() and open_existing() refuse alike, with the same message.
std::string refused_by_both(const std::filesystem::path& path) {
  std::string by_open, by_existing;
  CHECK(take(StateStore::open(path), &by_open) == nullptr);
  CHECK(take(StateStore::open_existing(path), &by_existing) == nullptr);
  CHECK(by_open == by_existing);
  return by_open;
}

TEST_CASE("state integrity: a zeroed page is an error, never an empty inventory", "[state][integrity]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  make_state(path);
  const std::string size_before = std::to_string(read_bytes(path).size());

  SECTION("the inventory's root") {
    const auto root = static_cast<std::size_t>(inventory_root(path));
    zero_pages(path, root, root);
  }
  SECTION("page 2 to the end") { zero_pages(path, 2, 0); }

  const std::string error = refused_by_both(path);
  INFO(error);
  CHECK(error.rfind("state " + path.string() + ": ", 0) == 0);
  CHECK(error.find(": damaged: ") != std::string::npos);
  CHECK(error.find("there is no backup beside it (" + path.string() + ".backup)") != std::string::npos);
  CHECK(std::to_string(read_bytes(path).size()) == size_before);  // left as it was
}

TEST_CASE("state integrity: a truncated file is refused", "[state][integrity]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  make_state(path);
  const std::string bytes = read_bytes(path);
  write_bytes(path, bytes.substr(0, bytes.size() / 2));
  const std::string error = refused_by_both(path);
  INFO(error);
  CHECK(error.rfind("state " + path.string() + ": ", 0) == 0);
  CHECK(error.find("there is no backup beside it") != std::string::npos);
}

TEST_CASE("state integrity: an empty file is refused alike by open and open_existing, and stays empty",
          "[state][integrity]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  write_bytes(path, "");
  CHECK(refused_by_both(path) == "state " + path.string() +
                                     ": not an mkq state: empty file; if no state is meant to be there, delete it "
                                     "to start afresh: rm " + path.string());
  CHECK(std::filesystem::file_size(path) == 0);
}

TEST_CASE("state backup: written when the lock is taken, readable, without the lock, owner-only",
          "[state][integrity][backup]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  const auto backup = dir.path() / "state.db.backup";
  std::string error;
  std::string lineage;
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    lineage = store->lineage();
    LockHolder previous;
    // A state never written to has nothing worth keeping.
    REQUIRE(store->acquire_lock(LockHolder{"apply", "", "", 0, ""}, &previous).value() == LockResult::Acquired);
    CHECK(!std::filesystem::exists(backup));
    store->release_lock();
  }
  make_state(path);
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    LockHolder previous;
    REQUIRE(store->acquire_lock(LockHolder{"apply", "", "", 0, ""}, &previous).value() == LockResult::Acquired);
    REQUIRE(std::filesystem::exists(backup));
    CHECK(mode_of(backup) == 0600);
    // Once per run: the run's own writes do not replace the backup.
    REQUIRE(take(store->record_deleted(row(0).ref.address()), &error));
    store->release_lock();
    REQUIRE(store->acquire_lock(LockHolder{"apply", "", "", 0, ""}, &previous).value() == LockResult::Acquired);
  }
  auto copy = take(StateStore::open_existing(backup), &error);
  REQUIRE(copy != nullptr);
  CHECK(copy->lineage() == lineage);
  CHECK(copy->inventory().value().size() == kRows);
  CHECK(!copy->lock_holder().value().has_value());
  CHECK(copy->integrity_check().value() == "ok");
  copy.reset();

  // Damaged, the state names its backup; copied back, it opens again.
  zero_pages(path, 2, 0);
  const std::string damaged = refused_by_both(path);
  CHECK(damaged.find("; the state before the last write is kept beside it: restore it with: cp " + backup.string() +
                     " " + path.string()) != std::string::npos);
  std::filesystem::copy_file(backup, path, std::filesystem::copy_options::overwrite_existing);
  auto restored = take(StateStore::open(path), &error);
  REQUIRE(restored != nullptr);
  CHECK(restored->inventory().value().size() == kRows);
}

TEST_CASE("state files and the directory mkq makes are owner-only under umask 000", "[state][integrity][backup]") {
  TempDir dir;
  const mode_t before = ::umask(0);
  const auto path = dir.path() / ".mkq" / "state.db";
  make_state(path);
  std::string error;
  {
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    LockHolder previous;
    REQUIRE(store->acquire_lock(LockHolder{"apply", "", "", 0, ""}, &previous).value() == LockResult::Acquired);
  }
  ::umask(before);
  CHECK(mode_of(dir.path() / ".mkq") == 0700);
  CHECK(mode_of(path) == 0600);
  CHECK(mode_of(dir.path() / ".mkq" / "state.db.backup") == 0600);
  for (const auto& file : std::filesystem::directory_iterator(dir.path() / ".mkq")) {
    INFO(file.path().string());  // no temporary left behind
    CHECK(file.path().filename().string().find(".new-") == std::string::npos);
    CHECK_FALSE(mkq::base::is_temporary_name(file.path().filename().string()));
  }
}

TEST_CASE("state backup that cannot be written: the run is refused, the lock released, nothing left behind",
          "[state][integrity][backup]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  make_state(path);
  // A directory where the backup goes: renaming the copy over it fails (as root too).
  std::filesystem::create_directory(dir.path() / "state.db.backup");
  std::string error;
  auto store = take(StateStore::open(path), &error);
  REQUIRE(store != nullptr);
  LockHolder previous;
  const auto refused = store->acquire_lock(LockHolder{"apply", "", "", 0, ""}, &previous);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "state " + path.string() + ": cannot keep a backup: cannot write " +
                                       (dir.path() / "state.db.backup").string() + ": Is a directory");
  CHECK(!store->lock_holder().value().has_value());
  CHECK(std::filesystem::is_directory(dir.path() / "state.db.backup"));
  for (const auto& file : std::filesystem::directory_iterator(dir.path())) {
    INFO(file.path().string());
    CHECK_FALSE(mkq::base::is_temporary_name(file.path().filename().string()));
  }
}

// open_existing's error, as a user who may read `path` but not write its
// directory: root (who writes anywhere) asks a child running as nobody.
std::string error_without_write_access(const std::filesystem::path& path) {
  if (::geteuid() != 0) {
    std::filesystem::permissions(path.parent_path(),
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    std::string error;
    CHECK(take(StateStore::open_existing(path), &error) == nullptr);
    std::filesystem::permissions(path.parent_path(), std::filesystem::perms::owner_all);
    return error;
  }
  std::filesystem::permissions(path.parent_path(), std::filesystem::perms::owner_all |
                                                       std::filesystem::perms::others_read |
                                                       std::filesystem::perms::others_exec);
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write |
                                         std::filesystem::perms::others_read | std::filesystem::perms::others_write);
  int answer[2];
  REQUIRE(::pipe(answer) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(answer[0]);
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(2);
    std::string error;
    const bool opened = take(StateStore::open_existing(path), &error) != nullptr;
    if (opened) error = "opened";
    const ssize_t written = ::write(answer[1], error.data(), error.size());
    ::_exit(written == static_cast<ssize_t>(error.size()) ? 0 : 3);
  }
  ::close(answer[1]);
  std::string error;
  char buffer[512];
  for (ssize_t n; (n = ::read(answer[0], buffer, sizeof buffer)) > 0;) error.append(buffer, static_cast<std::size_t>(n));
  ::close(answer[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return error;
}

TEST_CASE("state in a read-only directory: the message names the file and the reason", "[state][integrity]") {
  TempDir dir;
  const auto path = dir.path() / "state.db";
  make_state(path);
  const std::string error = error_without_write_access(path);
  INFO(error);
  CHECK(error.rfind("state " + path.string() + ": ", 0) == 0);
  CHECK(error.find("the directory " + dir.path().string() + " is not writable") != std::string::npos);
}

}  // namespace
}  // namespace mkq::state
