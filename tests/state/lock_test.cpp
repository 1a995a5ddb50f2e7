// The apply lock: held by someone else, stale takeover, force unlock, and two
// processes racing for it.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "runtime/state/state.h"
#include "tests/state/state_test_support.h"
#include "tests/support/result.h"

using mkq::testing::take;

namespace mkq::state {
namespace {

using testing::TempDir;

std::string hostname() {
  char buffer[256] = {};
  gethostname(buffer, sizeof buffer - 1);
  return buffer[0] == '\0' ? std::string("localhost") : std::string(buffer);
}

LockHolder holder(std::int64_t pid, const std::string& host = hostname()) {
  return LockHolder{"apply", "tester", host, pid, "2026-11-21T10:00:00Z"};
}

// A pid that certainly does not run: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

TEST_CASE("lock holder describes itself", "[state][lock]") {
  CHECK(LockHolder{"apply", "alice", "host1", 4242, "2026-11-21T10:00:00Z"}.describe() ==
        "apply by alice@host1 (pid 4242) since 2026-11-21T10:00:00Z");
  CHECK(LockHolder{"destroy", "", "host1", 7, ""}.describe() == "destroy by host1 (pid 7)");
}

TEST_CASE("lock: acquire, held by a live process, release, force unlock", "[state][lock]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  CHECK(!store->lock_holder().value());

  // Another live process on this host (our parent) holds it.
  LockHolder previous;
  REQUIRE(store->acquire_lock(holder(getppid()), &previous).value() == LockResult::Acquired);
  auto mine = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(mine != nullptr);
  CHECK(mine->acquire_lock(holder(getpid()), &previous).value() == LockResult::Held);
  CHECK(previous.pid == getppid());
  CHECK(previous.user == "tester");
  CHECK(previous.describe().find("(pid " + std::to_string(getppid()) + ")") != std::string::npos);
  CHECK(mine->lock_holder().value()->pid == getppid());

  // A holder on another host is never taken for stale, even with a dead pid.
  REQUIRE(store->force_unlock().value());
  REQUIRE(store->acquire_lock(holder(dead_pid(), "elsewhere.example"), &previous).value() == LockResult::Acquired);
  CHECK(mine->acquire_lock(holder(getpid()), &previous).value() == LockResult::Held);
  CHECK(previous.host == "elsewhere.example");

  // Releasing a lock that is not ours changes nothing.
  mine->release_lock();
  CHECK(mine->lock_holder().value()->host == "elsewhere.example");

  const auto released = mine->force_unlock().value();
  REQUIRE(released);
  CHECK(released->host == "elsewhere.example");
  CHECK(!mine->lock_holder().value());
  CHECK(!mine->force_unlock().value());

  // Acquire, acquire again (ours: still Acquired), release.
  CHECK(mine->acquire_lock(holder(getpid()), &previous).value() == LockResult::Acquired);
  CHECK(mine->acquire_lock(holder(getpid()), &previous).value() == LockResult::Acquired);
  CHECK(store->lock_holder().value()->pid == getpid());
  mine->release_lock();
  CHECK(!store->lock_holder().value());
}

TEST_CASE("lock: defaults the holder's user, host, pid and time", "[state][lock]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  LockHolder previous;
  REQUIRE(store->acquire_lock(LockHolder{"state rm", "", "", 0, ""}, &previous).value() == LockResult::Acquired);
  const auto held = store->lock_holder().value();
  REQUIRE(held);
  CHECK(held->command == "state rm");
  CHECK_FALSE(held->user.empty());
  CHECK(held->host == hostname());
  CHECK(held->pid == getpid());
  CHECK(held->since.size() == 20);
  CHECK(held->since.back() == 'Z');
}

TEST_CASE("lock: a holder on this host whose process is gone is taken over", "[state][lock]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  const pid_t gone = dead_pid();
  LockHolder previous;
  REQUIRE(store->acquire_lock(holder(gone), &previous).value() == LockResult::Acquired);
  const std::int64_t run = take(store->begin_run("apply", ""), &error);  // belongs to the dead holder
  REQUIRE(run > 0);

  auto mine = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(mine != nullptr);
  CHECK(mine->history(1, false).value()[0].result == "interrupted");
  CHECK(mine->acquire_lock(holder(getpid()), &previous).value() == LockResult::AcquiredStale);
  CHECK(previous.pid == gone);
  CHECK(mine->lock_holder().value()->pid == getpid());
  CHECK(mine->history(1, false).value()[0].result == "interrupted");

  // The old store's release must not remove the new holder's lock.
  store->release_lock();
  CHECK(mine->lock_holder().value()->pid == getpid());
}

TEST_CASE("lock: a store releases its lock when it closes", "[state][lock]") {
  TempDir dir;
  std::string error;
  {
    auto store = take(StateStore::open(dir.path() / "state.db"), &error);
    REQUIRE(store != nullptr);
    LockHolder previous;
    REQUIRE(store->acquire_lock(holder(getpid()), &previous).value() == LockResult::Acquired);
  }
  auto store = take(StateStore::open_existing(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  CHECK(!store->lock_holder().value());
}

// Child: open (maybe creating) the state, wait for the go signal, try the lock,
// report 'A' (acquired), 'S' (stale), 'H' (held) or 'E' (error) and the lineage,
// then stay alive until the parent closes `hold`, and exit without releasing.
[[noreturn]] void race_child(const std::filesystem::path& path, int go, int report, int hold) {
  std::string error;
  auto store = take(StateStore::open(path), &error);
  char signal = 0;
  if (read(go, &signal, 1) != 1) _exit(3);
  std::string message = "E";
  if (store != nullptr) {
    LockHolder previous;
    const base::Result<LockResult> result = store->acquire_lock(holder(getpid()), &previous);
    message = !result                                ? "E"
              : *result == LockResult::Acquired      ? "A"
              : *result == LockResult::AcquiredStale ? "S"
                                                     : "H";
    message += store->lineage();
  }
  message.resize(64, ' ');
  if (write(report, message.data(), message.size()) != static_cast<ssize_t>(message.size())) _exit(4);
  while (read(hold, &signal, 1) > 0) {
  }
  _exit(0);
}

TEST_CASE("lock: of two processes racing for a new state, exactly one wins", "[state][lock]") {
  for (int round = 0; round < 5; ++round) {
    TempDir dir;
    const auto path = dir.path() / ".mkq" / "state.db";
    int go[2], report[2], hold[2];
    REQUIRE(pipe(go) == 0);
    REQUIRE(pipe(report) == 0);
    REQUIRE(pipe(hold) == 0);
    std::vector<pid_t> children;
    for (int i = 0; i < 2; ++i) {
      const pid_t child = fork();
      REQUIRE(child >= 0);
      if (child == 0) {
        close(go[1]);
        close(report[0]);
        close(hold[1]);
        race_child(path, go[0], report[1], hold[0]);
      }
      children.push_back(child);
    }
    close(go[0]);
    close(report[1]);
    close(hold[0]);
    REQUIRE(write(go[1], "gg", 2) == 2);
    std::vector<std::string> answers;
    for (int i = 0; i < 2; ++i) {
      std::string answer(64, '\0');
      std::size_t got = 0;
      while (got < answer.size()) {
        const ssize_t n = read(report[0], answer.data() + got, answer.size() - got);
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
      }
      answers.push_back(answer.substr(0, got));
    }
    close(hold[1]);  // both children may exit now
    for (const pid_t child : children) {
      int status = 0;
      waitpid(child, &status, 0);
      CHECK(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 0);
    }
    close(go[1]);
    close(report[0]);
    REQUIRE(answers.size() == 2);
    REQUIRE(answers[0].size() == 64);
    REQUIRE(answers[1].size() == 64);
    const std::string results = std::string(1, answers[0][0]) + answers[1][0];
    INFO("round " << round << ": " << results);
    CHECK((results == "AH" || results == "HA"));
    CHECK(answers[0].substr(1) == answers[1].substr(1));  // one lineage: the file was created once

    // Both children are gone: the next applier takes the lock over as stale.
    std::string error;
    auto store = take(StateStore::open(path), &error);
    REQUIRE(store != nullptr);
    LockHolder previous;
    CHECK(store->acquire_lock(holder(getpid()), &previous).value() == LockResult::AcquiredStale);
    CHECK((previous.pid == children[0] || previous.pid == children[1]));
    CHECK(store->integrity_check().value() == "ok");
  }
}

TEST_CASE("lock holder runs_here: a live pid on this host only", "[state][lock]") {
  CHECK(holder(getpid()).runs_here());
  CHECK_FALSE(holder(dead_pid()).runs_here());
  CHECK_FALSE(holder(getpid(), "elsewhere.example").runs_here());
  CHECK_FALSE(holder(0).runs_here());
}

TEST_CASE("lock: unlock refuses while the holder still runs on this host, unless forced", "[state][lock]") {
  TempDir dir;
  std::string error;
  auto store = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(store != nullptr);
  LockHolder previous;
  LockHolder held;
  CHECK(store->unlock(false, &held).value() == UnlockResult::NotLocked);

  // Our parent, alive on this host: refused, the lock stays.
  REQUIRE(store->acquire_lock(holder(getppid()), &previous).value() == LockResult::Acquired);
  auto other = take(StateStore::open(dir.path() / "state.db"), &error);
  REQUIRE(other != nullptr);
  CHECK(other->unlock(false, &held).value() == UnlockResult::HolderRuns);
  CHECK(held.pid == getppid());
  CHECK(other->lock_holder().value()->pid == getppid());
  // Forced: released, and the holder is named.
  held = LockHolder{};
  CHECK(other->unlock(true, &held).value() == UnlockResult::Released);
  CHECK(held.pid == getppid());
  CHECK(!other->lock_holder().value());

  // A dead holder on this host, or one on another host (mkq cannot tell): released without force.
  REQUIRE(store->acquire_lock(holder(dead_pid()), &previous).value() == LockResult::Acquired);
  CHECK(other->unlock(false, &held).value() == UnlockResult::Released);
  REQUIRE(store->acquire_lock(holder(getpid(), "elsewhere.example"), &previous).value() == LockResult::Acquired);
  CHECK(other->unlock(false, &held).value() == UnlockResult::Released);
  CHECK(held.host == "elsewhere.example");
  CHECK(!other->lock_holder().value());
}

}  // namespace
}  // namespace mkq::state
