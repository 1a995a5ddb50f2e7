// StateWriter: the group commit of an apply's records.
#include "runtime/reconcile/state_writer.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "apply_test_support.h"
#include "tests/support/result.h"

namespace mkq::reconcile::testing {
namespace {

using namespace std::chrono_literals;

state::StateWrite applied(const std::string& name) {
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::Applied;
  write.entry.ref.cluster = "w1";
  write.entry.ref.api_version = "kueue.x-k8s.io/v1beta2";
  write.entry.ref.kind = "Cohort";
  write.entry.ref.name = name;
  write.entry.digest = "sha256:00";
  return write;
}

state::StateWrite outcome(std::int64_t run_id, const std::string& name) {
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::Outcome;
  write.run_id = run_id;
  write.outcome = {"w1/Cohort/" + name, "create", "ok", ""};
  return write;
}

TEST_CASE("state writer: a burst is written in one commit, soon and without a flush", "[reconcile][state]") {
  StateFixture state;
  StateWriter writer(*state.store, 20ms);
  for (int index = 0; index < 50; ++index) writer.add(applied("c" + std::to_string(index)));
  // Another connection sees the burst appear all at once (one transaction).
  std::string error;
  auto reader = mkq::testing::take(state::StateStore::open_existing(state.dir.path() / "state.db"), &error);
  REQUIRE(reader);
  std::size_t seen = 0;
  for (int attempt = 0; attempt < 500 && seen == 0; ++attempt) {
    std::this_thread::sleep_for(5ms);
    seen = reader->inventory().value().size();
  }
  CHECK(seen == 50);
  CHECK(reader->serial().value() == 50);
  CHECK(writer.flush().ok());
}

TEST_CASE("state writer: find and flush see what is queued, the destructor writes the rest", "[reconcile][state]") {
  StateFixture state;
  {
    StateWriter writer(*state.store, std::chrono::hours(1));  // never on its own within the test
    writer.add(applied("a"));
    CHECK(writer.find("w1/Cohort/a"));
    writer.add(applied("b"));
    writer.add(outcome(state.run_id, "b"));
  }
  CHECK(state.store->inventory().value().size() == 2);
  const auto run = state.store->find_run(state.run_id).value();
  REQUIRE(run);
  CHECK(run->objects.size() == 1);
}

TEST_CASE("state writer: a record that cannot be written does not cost the others, and is reported",
          "[reconcile][state]") {
  StateFixture state;
  StateWriter writer(*state.store, 0ms);
  writer.add(applied("a"));
  writer.add(outcome(state.run_id + 100, "a"));  // no such run
  writer.add(applied("b"));
  CHECK(state.store->inventory().value().size() == 2);
  // The record's object first (base::render), then the store's message.
  const base::Result<void> flushed = writer.flush();
  REQUIRE_FALSE(flushed);
  CHECK(flushed.error().reason == state::kStateError);
  CHECK(flushed.error().message == "the state could not record 1 change: w1/Cohort/a: state " +
                                       (state.dir.path() / "state.db").string() + ": no run " +
                                       std::to_string(state.run_id + 100));
  CHECK(writer.flush().ok());  // reported once
}

}  // namespace
}  // namespace mkq::reconcile::testing
