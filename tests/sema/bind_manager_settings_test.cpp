// Binder: the manager's `state` and `sync` blocks (issue 14): where the
// policy's state is kept and what `mkq controller` carries out.
#include <string>

#include "tests/sema/bind_test_support.h"

namespace bindtest {

namespace {

// base() with the manager `hub` replaced by `manager`.
EvalPolicy with_manager(Block manager) {
  std::vector<Block> blocks = base();
  blocks.front() = std::move(manager);
  return policy(blocks);
}

}  // namespace

TEST_CASE("binder: a manager without state or sync blocks has neither", "[sema][bind][manager]") {
  const Result r = run(policy(base()));
  INFO(r.summary());
  REQUIRE(r.model);
  CHECK_FALSE(r.model->manager.state.has_value());
  CHECK_FALSE(r.model->manager.sync.has_value());
}

TEST_CASE("binder: the manager's state block, with its defaults", "[sema][bind][manager]") {
  const Result empty = run(with_manager(Block("manager", {"hub"}).add(Block("state", {}))));
  INFO(empty.summary());
  REQUIRE(empty.model);
  REQUIRE(empty.model->manager.state.has_value());
  CHECK(empty.model->manager.state->namespace_name.value == "mkq-system");
  CHECK_FALSE(empty.model->manager.state->name.has_value());

  const Result set = run(with_manager(
      Block("manager", {"hub"}).add(Block("state", {}).set("namespace", str("fleet-ops")).set("name", str("fleet")))));
  INFO(set.summary());
  REQUIRE(set.model);
  CHECK(set.model->manager.state->namespace_name.value == "fleet-ops");
  CHECK(set.model->manager.state->name->value == "fleet");
}

TEST_CASE("binder: the manager's sync block", "[sema][bind][manager]") {
  const Result r = run(with_manager(Block("manager", {"hub"}).add(Block("sync", {})
                                                                      .set("mode", str("auto"))
                                                                      .set("self_heal", boolean(true))
                                                                      .set("prune", boolean(false))
                                                                      .set("interval", dur("90s")))));
  INFO(r.summary());
  REQUIRE(r.model);
  const auto& sync = r.model->manager.sync;
  REQUIRE(sync.has_value());
  CHECK(sync->mode->value == model::SyncMode::Auto);
  CHECK(sync->self_heal->value);
  CHECK_FALSE(sync->prune->value);
  CHECK(sync->interval->value.to_string() == "1min30s");

  const Result partial = run(with_manager(Block("manager", {"hub"}).add(Block("sync", {}).set("prune", boolean(true)))));
  REQUIRE(partial.model);
  CHECK_FALSE(partial.model->manager.sync->mode.has_value());
  CHECK_FALSE(partial.model->manager.sync->interval.has_value());
  CHECK(partial.model->manager.sync->prune->value);
}

TEST_CASE("binder: bad state and sync settings are located errors", "[sema][bind][manager][errors]") {
  CHECK(run(with_manager(Block("manager", {"hub"}).add(Block("sync", {}).set("mode", str("automatic")))))
            .only("E3012")
            .message.find("automatic") != std::string::npos);
  CHECK(run(with_manager(Block("manager", {"hub"}).add(Block("sync", {}).set("interval", dur("0s")))))
            .only("E3011")
            .message.find("interval") != std::string::npos);
  run(with_manager(Block("manager", {"hub"}).add(Block("sync", {}).set("self_heal", str("yes"))))).only("E3010");
  run(with_manager(Block("manager", {"hub"}).add(Block("sync", {}).set("selfheal", boolean(true))))).only("E3002");
  run(with_manager(Block("manager", {"hub"}).add(Block("state", {}).set("namespace", str("Fleet_Ops"))))).only("E3021");
  const std::string long_name(41, 'a');
  const Result too_long =
      run(with_manager(Block("manager", {"hub"}).add(Block("state", {}).set("name", str(long_name)))));
  CHECK(too_long.only("E3099").message == "the state's name '" + long_name +
                                "' has 41 characters; at most 40 (its Secrets and lock are named after it)");
  run(with_manager(Block("manager", {"hub"}).add(Block("state", {})).add(Block("state", {})))).only("E3007");
  run(with_manager(Block("manager", {"hub"}).add(Block("state", {"x"})))).only("E3004");
}

}  // namespace bindtest
