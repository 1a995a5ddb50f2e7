// Binder: the rules of the policy model — dispatch, resource groups, quota
// limits, topology levels, credentials, flavors, Kueue settings.
#include <string>

#include "tests/sema/bind_test_support.h"

namespace bindtest {

namespace {

Block queue_with(const std::string& name, const std::string& flavor) {
  return Block("clusterqueue", {name}).add(quota(flavor, {{"cpu", num("1")}}));
}

// base() plus `count` more workers labelled pool=big, named big-00, big-01, ...
std::vector<Block> with_pool(std::size_t count) {
  std::vector<Block> blocks = base();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = std::string("big-") + (i < 10 ? "0" : "") + std::to_string(i);
    blocks.push_back(Block("worker", {name}).set("labels", map({{"pool", str("big")}})));
  }
  return blocks;
}

}  // namespace

// ------------------------------------------------------------------ dispatch

TEST_CASE("binder requires exactly one of workers and select", "[sema][bind][dispatch][errors]") {
  SECTION("both") {
    const Block dispatch = Block("dispatch", {"d2"})
                               .set("queues", strings({"cq2"}))
                               .set("workers", strings({"w2"}))
                               .add(Block("select").set("labels", map({})));
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kDispatchWorkers);
    CHECK(d.message == "dispatch 'd2' has both 'workers' and 'select': choose one");
    CHECK(d.range == dispatch.nested(0).kind_range);
    CHECK(d.notes[0].range == dispatch.name_of(1));
  }
  SECTION("neither") {
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"}));
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kDispatchWorkers);
    CHECK(d.message == "dispatch 'd2' needs 'workers' (a list) or a 'select' block");
    CHECK(d.range == dispatch.label());
  }
}

TEST_CASE("binder selects workers by labels, order and limit", "[sema][bind][dispatch]") {
  std::vector<Block> blocks = base();
  blocks.push_back(Block("worker", {"east"}).set("labels", map({{"gpu", str("a100")}})).set("priority", num("10")));
  blocks.push_back(Block("worker", {"west"}).set("labels", map({{"gpu", str("a100")}})).set("priority", num("30")));
  blocks.push_back(Block("worker", {"eu"}).set("labels", map({{"gpu", str("a100")}})).set("priority", num("10")));
  blocks.push_back(Block("worker", {"t4"}).set("labels", map({{"gpu", str("t4")}})).set("priority", num("99")));
  blocks.push_back(queue_with("by-priority", "f"));
  blocks.push_back(queue_with("by-name", "f"));
  blocks.push_back(queue_with("limited", "f"));
  const Block by_priority = Block("dispatch", {"p"})
                                .set("queues", strings({"by-priority"}))
                                .add(Block("select").set("labels", map({{"gpu", str("a100")}})));
  blocks.push_back(by_priority);
  blocks.push_back(Block("dispatch", {"n"})
                       .set("queues", strings({"by-name"}))
                       .add(Block("select").set("labels", map({{"gpu", str("a100")}})).set("order", str("name"))));
  blocks.push_back(Block("dispatch", {"l"})
                       .set("queues", strings({"limited"}))
                       .add(Block("select").set("labels", map({{"gpu", str("a100")}})).set("limit", num("1"))));
  const Result r = run(policy(blocks));
  INFO(r.summary());
  REQUIRE(r.model);
  const auto names = [&](const char* dispatch) {
    std::vector<std::string> result;
    for (const auto& worker : r.model->find_dispatch(dispatch)->workers) result.push_back(worker.name);
    return result;
  };
  CHECK(names("p") == std::vector<std::string>{"west", "east", "eu"});
  CHECK(names("n") == std::vector<std::string>{"east", "eu", "west"});
  CHECK(names("l") == std::vector<std::string>{"west"});
  const model::Dispatch& p = *r.model->find_dispatch("p");
  REQUIRE(p.selector);
  CHECK(p.selector->order.value == model::WorkerOrder::Priority);
  CHECK(p.workers[0].range == by_priority.nested(0).range);
}

TEST_CASE("binder orders a selection by free capacity: by name until plan time", "[sema][bind][dispatch]") {
  std::vector<Block> blocks = base();
  blocks.push_back(Block("worker", {"west"}).set("labels", map({{"gpu", str("a100")}})).set("priority", num("30")));
  blocks.push_back(Block("worker", {"east"}).set("labels", map({{"gpu", str("a100")}})).set("priority", num("10")));
  blocks.push_back(queue_with("free", "f"));
  const Block select =
      Block("select").set("labels", map({{"gpu", str("a100")}})).set("order", str("most-free")).set("resource", str("nvidia.com/gpu"));
  blocks.push_back(Block("dispatch", {"d2"}).set("queues", strings({"free"})).add(select));
  const Result r = run(policy(blocks));
  INFO(r.summary());
  REQUIRE(r.model);
  const model::Dispatch& d = *r.model->find_dispatch("d2");
  REQUIRE(d.selector);
  CHECK(d.selector->order.value == model::WorkerOrder::MostFree);
  REQUIRE(d.selector->resource);
  CHECK(d.selector->resource->value == "nvidia.com/gpu");
  CHECK(d.selector->resource->range == select.value_of(2));
  // Priorities do not order it: the compiled order is by name (the live order is written at plan time).
  REQUIRE(d.workers.size() == 2);
  CHECK(d.workers[0].name == "east");
  CHECK(d.workers[1].name == "west");
}

TEST_CASE("binder requires order = most-free and resource together, and no limit", "[sema][bind][dispatch][errors]") {
  SECTION("most-free without a resource") {
    const Block select = Block("select").set("order", str("most-free"));
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).add(select);
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kSelectOrderResource);
    CHECK(d.message ==
          "order = \"most-free\" needs 'resource': the resource whose free amount orders the workers, e.g. "
          "resource = \"nvidia.com/gpu\"");
    CHECK(d.range == select.value_of(0));
  }
  SECTION("a resource with another order") {
    const Block select = Block("select").set("order", str("name")).set("resource", str("nvidia.com/gpu"));
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).add(select);
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kSelectOrderResource);
    CHECK(d.message == "'resource' orders workers only with order = \"most-free\"");
    CHECK(d.range == select.name_of(1));
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "the order is 'name'");
    CHECK(d.notes[0].range == select.value_of(0));
  }
  SECTION("a resource without an order") {
    const Block select = Block("select").set("resource", str("nvidia.com/gpu"));
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).add(select);
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    CHECK(r.only(codes::kSelectOrderResource).notes[0].message == "the order is 'priority'");
  }
  SECTION("a limit") {
    const Block select =
        Block("select").set("order", str("most-free")).set("resource", str("cpu")).set("limit", num("1"));
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).add(select);
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kSelectOrderResource);
    CHECK(d.message.rfind("'limit' cannot be used with order = \"most-free\"", 0) == 0);
    CHECK(d.range == select.value_of(2));
  }
  SECTION("a resource name that is not one") {
    const Block select = Block("select").set("order", str("most-free")).set("resource", str("nvidia.com/gpu count"));
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).add(select);
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kInvalidResourceName);
    CHECK(d.range == select.value_of(1));  // the only diagnostic: the resource is there, only misspelt
  }
}

TEST_CASE("binder requires 1 to 20 workers per dispatch", "[sema][bind][dispatch][errors]") {
  SECTION("a selection that matches nothing") {
    const Block dispatch = Block("dispatch", {"d2"})
                               .set("queues", strings({"cq2"}))
                               .add(Block("select").set("labels", map({{"gpu", str("h100")}})));
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    const auto& d = r.only(codes::kDispatchWorkerCount);
    CHECK(d.message == "the selection of dispatch 'd2' matches no worker");
    CHECK(d.range == dispatch.nested(0).range);
  }
  SECTION("a selection of 21") {
    std::vector<Block> blocks = with_pool(21);
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(Block("dispatch", {"d2"})
                         .set("queues", strings({"cq2"}))
                         .add(Block("select").set("labels", map({{"pool", str("big")}}))));
    const Result r = run(policy(blocks));
    CHECK(r.only(codes::kDispatchWorkerCount).message ==
          "the selection of dispatch 'd2' yields 21 workers; a MultiKueueConfig takes at most 20 (set 'limit')");
  }
  SECTION("a limit brings it down") {
    std::vector<Block> blocks = with_pool(21);
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(Block("dispatch", {"d2"})
                         .set("queues", strings({"cq2"}))
                         .add(Block("select").set("labels", map({{"pool", str("big")}})).set("limit", num("20"))));
    const Result r = run(policy(blocks));
    INFO(r.summary());
    REQUIRE(r.model);
    CHECK(r.model->find_dispatch("d2")->workers.size() == 20);
  }
  SECTION("a list of 21") {
    std::vector<Block> blocks = with_pool(21);
    std::vector<Value> names;
    for (std::size_t i = 0; i < 21; ++i) names.push_back(str(std::string("big-") + (i < 10 ? "0" : "") + std::to_string(i)));
    const Value workers = list(names);
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).set("workers", workers));
    const Result r = run(policy(blocks));
    const auto& d = r.only(codes::kDispatchWorkerCount);
    CHECK(d.message == "dispatch 'd2' lists 21 workers; a MultiKueueConfig takes at most 20");
    CHECK(d.range == workers.as_list()[20].origin);
  }
  SECTION("an empty list") {
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).set("workers", list({}));
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    CHECK(r.only(codes::kDispatchWorkerCount).message == "dispatch 'd2' lists no worker");
  }
  SECTION("a limit below 1") {
    const Block dispatch = Block("dispatch", {"d2"})
                               .set("queues", strings({"cq2"}))
                               .add(Block("select").set("limit", num("0")));
    const Result r = run(with_base({queue_with("cq2", "f"), dispatch}));
    CHECK(r.first(codes::kValueOutOfRange).message == "field 'limit' must be at least 1, found 0");
  }
}

TEST_CASE("binder requires dispatch queues", "[sema][bind][dispatch][errors]") {
  SECTION("an empty list") {
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", list({})).set("workers", strings({"w2"}));
    const Result r = run(with_base({dispatch}));
    const auto& d = r.only(codes::kEmptyDispatchQueues);
    CHECK(d.message == "dispatch 'd2' lists no cluster queue");
    CHECK(d.range == dispatch.value_of(0));
  }
  SECTION("a queue in two dispatches") {
    const Value again = str("cq");
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", list({again})).set("workers", strings({"w2"}));
    const Result r = run(with_base({dispatch}));
    const auto& d = r.only(codes::kQueueDispatchedTwice);
    CHECK(d.message ==
          "clusterqueue 'cq' is already dispatched by dispatch 'd': a queue takes one MultiKueue admission check");
    CHECK(d.range == again.origin);
  }
}

TEST_CASE("binder requires mode, step and origin to agree Kueue-wide", "[sema][bind][dispatch][errors]") {
  const auto dispatch = [](const char* name, const char* queue) {
    return Block("dispatch", {name}).set("queues", strings({queue})).set("workers", strings({"w2"}));
  };
  SECTION("modes of two dispatches") {
    std::vector<Block> blocks = base();
    blocks[5].set("mode", str("incremental"));
    const Value other = str("all-at-once");
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(dispatch("d2", "cq2").set("mode", other));
    const Result r = run(policy(blocks));
    const auto& d = r.only(codes::kDispatcherDisagrees);
    CHECK(d.message == "mode 'all-at-once' of dispatch 'd2' disagrees with 'incremental' of dispatch 'd': the "
                       "MultiKueue dispatcher is one Kueue-wide setting");
    CHECK(d.range == other.origin);
    CHECK(d.notes[0].range == blocks[5].value_of(2));
  }
  SECTION("a dispatch and the kueue block") {
    std::vector<Block> blocks = base();
    blocks[5].set("mode", str("incremental"));
    blocks.push_back(Block("kueue").add(Block("multikueue").set("dispatcher", str("example.com/dispatcher"))));
    const Result r = run(policy(blocks));
    CHECK(r.only(codes::kDispatcherDisagrees).message ==
          "mode 'incremental' of dispatch 'd' disagrees with 'example.com/dispatcher' of the kueue block: the "
          "MultiKueue dispatcher is one Kueue-wide setting");
  }
  SECTION("steps") {
    std::vector<Block> blocks = base();
    blocks[5].set("mode", str("incremental")).set("step", num("2"));
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(dispatch("d2", "cq2").set("step", num("3")));
    CHECK(run(policy(blocks)).only(codes::kDispatcherDisagrees).message ==
          "step 3 of dispatch 'd2' disagrees with 2 of dispatch 'd': the incremental step is one Kueue-wide setting");
  }
  SECTION("origins") {
    std::vector<Block> blocks = base();
    blocks[5].set("origin", str("mgr-a"));
    blocks.push_back(Block("kueue").add(Block("multikueue").set("origin", str("mgr-b"))));
    CHECK(run(policy(blocks)).only(codes::kDispatcherDisagrees).message ==
          "origin 'mgr-a' of dispatch 'd' disagrees with 'mgr-b' of the kueue block: the MultiKueue origin is one "
          "Kueue-wide setting");
  }
  SECTION("agreeing settings are the effective ones") {
    std::vector<Block> blocks = base();
    blocks[5].set("mode", str("incremental")).set("step", num("2"));
    blocks.push_back(queue_with("cq2", "f"));
    blocks.push_back(dispatch("d2", "cq2").set("mode", str("kueue.x-k8s.io/multikueue-dispatcher-incremental")));
    const Result r = run(policy(blocks));
    INFO(r.summary());
    REQUIRE(r.model);
    const auto& mk = r.model->kueue.multikueue;
    CHECK(mk.dispatcher.value.mode == model::DispatchMode::Incremental);
    CHECK(mk.dispatcher.value.kueue_name() == "kueue.x-k8s.io/multikueue-dispatcher-incremental");
    CHECK(mk.step.value == 2);
    CHECK(mk.origin.value == "multikueue");
    CHECK_FALSE(r.model->find_dispatch("d2")->step);
  }
}

TEST_CASE("binder allows step only with the incremental mode", "[sema][bind][dispatch][errors]") {
  std::vector<Block> blocks = base();
  blocks[5].set("step", num("2"));
  const Result r = run(policy(blocks));
  const auto& d = r.only(codes::kStepWithoutIncremental);
  CHECK(d.message == "'step' of dispatch 'd' applies only to the incremental mode (the mode is 'all-at-once', the "
                     "default)");
  CHECK(d.range == blocks[5].value_of(2));
}

// ------------------------------------------------------------------ local queues

TEST_CASE("binder requires a default LocalQueue to be named default", "[sema][bind][errors]") {
  const Block lq = Block("localqueue", {"main"}).in("team").set("clusterqueue", str("cq")).set("default", boolean(true));
  const Result r = run(with_base({lq}));
  const auto& d = r.only(codes::kDefaultQueueName);
  CHECK(d.message == "a default LocalQueue must be named 'default', not 'main'");
  CHECK(d.range == lq.label());
  CHECK(d.notes[0].range == lq.value_of(1));
}

TEST_CASE("binder says that a nested localqueue implies its clusterqueue", "[sema][bind][errors]") {
  const Block nested = Block("localqueue", {"lq"}).in("ns").set("clusterqueue", str("cq"));
  const Block cq = queue_with("cq2", "f").add(nested);
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kUnknownField);
  CHECK(d.message == "'clusterqueue' is implied by the enclosing clusterqueue 'cq2'");
}

TEST_CASE("binder warns about a localqueue its clusterqueue does not admit", "[sema][bind]") {
  const Block cq = queue_with("cq2", "f").set("namespaces", strings({"team-a"})).add(Block("localqueue", {"lq"}).in("team-b"));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kNamespaceNotAdmitted);
  CHECK(d.severity == mkq::diag::Severity::Warning);
  CHECK(d.message ==
        "clusterqueue 'cq2' does not admit namespace 'team-b': workloads of localqueue 'lq' will not be admitted");
}

// ------------------------------------------------------------------ resource groups

TEST_CASE("binder groups quota blocks by identical resource sets", "[sema][bind][groups]") {
  const Block cq = Block("clusterqueue", {"cq2"})
                       .add(quota("f", {{"cpu", num("9")}, {"memory", num("36Gi")}}))
                       .add(quota("g", {{"memory", num("1Gi")}, {"cpu", num("1")}}))
                       .add(quota("h", {{"nvidia.com/gpu", num("8")}}));
  const Result r = run(with_base({Block("flavor", {"g"}), Block("flavor", {"h"}), cq}));
  INFO(r.summary());
  REQUIRE(r.model);
  const auto& groups = r.model->find_cluster_queue("cq2")->resource_groups;
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].covered_resources == std::vector<std::string>{"cpu", "memory"});
  REQUIRE(groups[0].flavors.size() == 2);
  CHECK(groups[0].flavors[1].flavor.name == "g");
  // Reordered to the group's order.
  CHECK(groups[0].flavors[1].resources[0].resource == "cpu");
  CHECK(groups[0].flavors[1].resources[0].nominal.value.to_string() == "1");
  CHECK(groups[0].flavors[1].resources[1].resource == "memory");
  CHECK(groups[1].covered_resources == std::vector<std::string>{"nvidia.com/gpu"});
}

TEST_CASE("binder rejects a resource in two resource groups", "[sema][bind][groups][errors]") {
  const Block cq = Block("clusterqueue", {"cq2"})
                       .add(quota("f", {{"cpu", num("9")}, {"memory", num("36Gi")}}))
                       .add(quota("g", {{"cpu", num("1")}}));
  const Result r = run(with_base({Block("flavor", {"g"}), cq}));
  const auto& d = r.only(codes::kResourceInTwoGroups);
  CHECK(d.message == "resource 'cpu' is in two resource groups");
  CHECK(d.range == cq.nested(1).attributes[0].name_range);
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[0].range == cq.nested(0).attributes[0].name_range);
}

TEST_CASE("binder checks explicit groups", "[sema][bind][groups][errors]") {
  SECTION("every flavor lists exactly the group's resources") {
    const Block group = Block("group")
                            .add(quota("f", {{"cpu", num("9")}, {"memory", num("36Gi")}}))
                            .add(quota("g", {{"cpu", num("1")}, {"pods", num("10")}}));
    const Block cq = Block("clusterqueue", {"cq2"}).add(group);
    const Result r = run(with_base({Block("flavor", {"g"}), cq}));
    const auto& d = r.only(codes::kGroupResourceMismatch);
    CHECK(d.message == "quota 'g' must list the same resources as the rest of its group (cpu, memory): missing "
                       "'memory'; not in the group 'pods'");
    CHECK(d.range == group.nested(1).labels[0].range);
    CHECK(d.notes[0].range == group.nested(0).labels[0].range);
  }
  SECTION("a flavor in two groups") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .add(Block("group").add(quota("f", {{"cpu", num("1")}})))
                         .add(Block("group").add(quota("f", {{"memory", num("1")}})));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kFlavorInTwoGroups);
    CHECK(d.message == "flavor 'f' is in two resource groups");
    CHECK(d.range == cq.nested(1).blocks[0].labels[0].range);
  }
  SECTION("a flavor twice in one group") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .add(quota("f", {{"cpu", num("1")}}))
                         .add(quota("f", {{"cpu", num("2")}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kDuplicateQuota);
    CHECK(d.message == "flavor 'f' has two quota blocks");
  }
  SECTION("an explicit group keeps its order") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .add(quota("f", {{"cpu", num("1")}}))
                         .add(Block("group").add(quota("g", {{"memory", num("1")}})).add(quota("h", {{"memory", num("2")}})));
    const Result r = run(with_base({Block("flavor", {"g"}), Block("flavor", {"h"}), cq}));
    INFO(r.summary());
    REQUIRE(r.model);
    const auto& groups = r.model->find_cluster_queue("cq2")->resource_groups;
    REQUIRE(groups.size() == 2);
    CHECK(groups[1].flavors.size() == 2);
    CHECK(groups[1].range == cq.nested(1).range);
  }
  SECTION("a quota block without resources") {
    const Block cq = Block("clusterqueue", {"cq2"}).add(Block("quota", {"f"}));
    CHECK(run(with_base({cq})).only(codes::kGroupResourceMismatch).message == "quota 'f' lists no resource");
  }
}

// ------------------------------------------------------------------ quotas and limits

TEST_CASE("binder requires a cohort or parent for borrowing and lending limits", "[sema][bind][quota][errors]") {
  SECTION("a clusterqueue") {
    const Value limit = num("2");
    const Block cq = Block("clusterqueue", {"cq2"})
                         .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"borrowing_limit", limit}})}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kLimitWithoutCohort);
    CHECK(d.message == "'borrowing_limit' of 'cpu' needs a cohort: clusterqueue 'cq2' has none");
    CHECK(d.range == limit.origin);
  }
  SECTION("a cohort") {
    const Block cohort = Block("cohort", {"org"})
                             .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"lending_limit", num("1")}})}}));
    CHECK(run(with_base({cohort})).only(codes::kLimitWithoutCohort).message ==
          "'lending_limit' of 'cpu' needs a parent: cohort 'org' has none");
  }
  SECTION("with a cohort they bind") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .set("cohort", str("team"))
                         .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"borrowing_limit", num("2")},
                                                       {"lending_limit", num("1")}})}}));
    const Result r = run(with_base({cq}));
    INFO(r.summary());
    REQUIRE(r.model);
    const auto& q = r.model->find_cluster_queue("cq2")->resource_groups[0].flavors[0].resources[0];
    CHECK(q.nominal.value.to_string() == "4");
    REQUIRE(q.borrowing_limit);
    CHECK(q.borrowing_limit->value.to_string() == "2");
    REQUIRE(q.lending_limit);
    CHECK(q.lending_limit->value.to_string() == "1");
  }
}

TEST_CASE("binder keeps lending limits within nominal quota for clusterqueues", "[sema][bind][quota][errors]") {
  const Value lending = num("5");
  const Block cq = Block("clusterqueue", {"cq2"})
                       .set("cohort", str("team"))
                       .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"lending_limit", lending}})}}));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kLendingAboveNominal);
  CHECK(d.message == "'lending_limit' of 'cpu' must be less than or equal to its nominal quota (4), found 5");
  CHECK(d.range == lending.origin);

  const Block cohort = Block("cohort", {"org"})
                           .set("parent", str("top"))
                           .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"lending_limit", num("5")}})}}));
  const Result cohorts = run(with_base({cohort}));
  INFO(cohorts.summary());
  CHECK(cohorts.diagnostics.items().empty());
}

TEST_CASE("binder rejects negative quotas", "[sema][bind][quota][errors]") {
  const Value negative = num("-1");
  const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", negative}}));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kNegativeQuota);
  CHECK(d.message == "the quota of 'cpu' must not be negative, found -1");
  CHECK(d.range == negative.origin);

  const Block worker = Block("worker", {"w3"}).add(Block("capacity", {"f"}).set("memory", num("-1Gi")));
  CHECK(run(with_base({worker})).only(codes::kNegativeQuota).message ==
        "the quota of 'memory' must not be negative, found -1Gi");
}

TEST_CASE("binder takes only quantities in a capacity", "[sema][bind][quota][errors]") {
  const Block worker =
      Block("worker", {"w3"}).add(Block("capacity", {"f"}).set("cpu", map({{"nominal", num("1")}})));
  const Result r = run(with_base({worker}));
  const auto& d = r.only(codes::kTypeMismatch);
  CHECK(d.message == "field 'cpu' expects a quantity, found a map");
  CHECK(d.notes.empty());
}

// ------------------------------------------------------------------ topologies and flavors

TEST_CASE("binder checks topology levels", "[sema][bind][topology][errors]") {
  SECTION("none") {
    const Block topology = Block("topology", {"t"}).set("levels", list({}));
    const Result r = run(with_base({topology}));
    const auto& d = r.only(codes::kTopologyLevels);
    CHECK(d.message == "a topology needs 1 to 16 levels, found 0");
    CHECK(d.range == topology.value_of(0));
  }
  SECTION("seventeen") {
    std::vector<Value> levels;
    for (int i = 0; i < 17; ++i) levels.push_back(str("example.com/level-" + std::to_string(i)));
    const Block topology = Block("topology", {"t"}).set("levels", list(levels));
    CHECK(run(with_base({topology})).only(codes::kTopologyLevels).message ==
          "a topology needs 1 to 16 levels, found 17");
  }
  SECTION("unique") {
    const Value again = str("rack");
    const Block topology = Block("topology", {"t"}).set("levels", list({str("rack"), again}));
    const Result r = run(with_base({topology}));
    const auto& d = r.only(codes::kTopologyLevels);
    CHECK(d.message == "level 'rack' is listed twice: levels must be unique");
    CHECK(d.range == again.origin);
  }
  SECTION("hostname only last") {
    const Value hostname = str("kubernetes.io/hostname");
    const Block topology = Block("topology", {"t"}).set("levels", list({hostname, str("rack")}));
    const Result r = run(with_base({topology}));
    const auto& d = r.only(codes::kTopologyLevels);
    CHECK(d.message == "'kubernetes.io/hostname' can only be the last (lowest) level of a topology");
    CHECK(d.range == hostname.origin);
  }
}

TEST_CASE("binder checks flavors", "[sema][bind][flavor][errors]") {
  SECTION("a topology needs node labels") {
    const Block topology = Block("topology", {"t"}).set("levels", strings({"kubernetes.io/hostname"}));
    const Block flavor = Block("flavor", {"tas"}).set("topology", str("t"));
    const Result r = run(with_base({topology, flavor}));
    const auto& d = r.only(codes::kTopologyWithoutNodeLabels);
    CHECK(d.message == "a flavor with a topology needs at least one node label");
    CHECK(d.range == flavor.value_of(0));
  }
  SECTION("at most 8 node labels") {
    std::vector<std::pair<std::string, Value>> labels;
    for (int i = 0; i < 9; ++i) labels.emplace_back("k" + std::to_string(i), str("v"));
    const Block flavor = Block("flavor", {"g"}).set("node_labels", map(labels));
    CHECK(run(with_base({flavor})).only(codes::kTooMany).message ==
          "field 'node_labels' has 9 labels; a flavor takes at most 8");
  }
  SECTION("taints unique by key and effect") {
    const Value second = map({{"key", str("gpu")}, {"value", str("b")}, {"effect", str("NoSchedule")}});
    const Block flavor = Block("flavor", {"g"}).set(
        "taints", list({map({{"key", str("gpu")}, {"value", str("a")}, {"effect", str("NoSchedule")}}), second,
                        map({{"key", str("gpu")}, {"effect", str("NoExecute")}})}));
    const Result r = run(with_base({flavor}));
    const auto& d = r.only(codes::kDuplicateTaint);
    CHECK(d.message == "two taints with key 'gpu' and effect 'NoSchedule': taints must be unique by key and effect");
    CHECK(d.range == second.origin);
  }
  SECTION("a taint needs key and effect") {
    const Block flavor = Block("flavor", {"g"}).set("taints", list({map({{"key", str("gpu")}})}));
    CHECK(run(with_base({flavor})).only(codes::kMissingField).message == "a taint needs an 'effect'");
  }
  SECTION("toleration rules") {
    const Block flavor = Block("flavor", {"g"}).set(
        "tolerations",
        list({map({{"operator", str("Equal")}, {"value", str("x")}}),
              map({{"key", str("gpu")}, {"operator", str("Exists")}, {"value", str("x")}}),
              map({{"key", str("gpu")}, {"effect", str("NoSchedule")}, {"toleration_seconds", num("30")}})}));
    const Result r = run(with_base({flavor}));
    const auto found = r.with_code(codes::kTolerationRule);
    REQUIRE(found.size() == 3);
    CHECK(found[0]->message ==
          "a toleration without a 'key' must have operator 'Exists' (it matches every key and value)");
    CHECK(found[1]->message == "a toleration with operator 'Exists' must not have a 'value'");
    CHECK(found[2]->message == "'toleration_seconds' needs effect 'NoExecute'");
  }
  SECTION("a good flavor binds") {
    const Block flavor =
        Block("flavor", {"spot"})
            .set("node_labels", map({{"instance-type", str("spot")}}))
            .set("taints", list({map({{"key", str("spot")}, {"value", str("true")}, {"effect", str("NoSchedule")}})}))
            .set("tolerations",
                 list({map({{"key", str("spot-taint")}, {"operator", str("Exists")}, {"effect", str("NoSchedule")}})}));
    const Result r = run(with_base({flavor}));
    INFO(r.summary());
    REQUIRE(r.model);
    const model::Flavor& spot = *r.model->find_flavor("spot");
    CHECK(spot.node_labels == model::Labels{{"instance-type", "spot"}});
    REQUIRE(spot.taints.size() == 1);
    CHECK(spot.taints[0].key.value == "spot");
    CHECK(spot.taints[0].value->value == "true");
    CHECK(spot.taints[0].effect.value == model::TaintEffect::NoSchedule);
    REQUIRE(spot.tolerations.size() == 1);
    CHECK(spot.tolerations[0].op.value == model::TolerationOperator::Exists);
    CHECK_FALSE(spot.tolerations[0].value);
  }
}

// ------------------------------------------------------------------ credentials

TEST_CASE("binder keeps the rotation window inside the token lifetime", "[sema][bind][credentials][errors]") {
  SECTION("both written") {
    const Block credentials = Block("credentials").set("lifetime", dur("7d")).set("rotate_before", dur("7d"));
    const Result r = run(with_base({Block("worker", {"w3"}).add(credentials)}));
    const auto& d = r.only(codes::kRotationWindow);
    CHECK(d.message == "'rotate_before' (7d) must be shorter than 'lifetime' (7d)");
    CHECK(d.range == credentials.value_of(1));
  }
  SECTION("a short lifetime against the default window") {
    const Block credentials = Block("credentials").set("lifetime", dur("5d"));
    const Result r = run(with_base({Block("worker", {"w3"}).add(credentials)}));
    const auto& d = r.only(codes::kRotationWindow);
    CHECK(d.message == "'lifetime' (5d) must be longer than 'rotate_before' (7d, the default)");
    CHECK(d.range == credentials.value_of(0));
  }
  SECTION("durations are positive") {
    const Block credentials = Block("credentials").set("lifetime", dur("0s"));
    CHECK(run(with_base({Block("worker", {"w3"}).add(credentials)})).only(codes::kValueOutOfRange).message ==
          "field 'lifetime' must be positive, found 0s");
  }
}

TEST_CASE("binder checks credential fields against the mode", "[sema][bind][credentials][errors]") {
  SECTION("a field of another mode") {
    const Block credentials = Block("credentials").set("cluster_profile", str("p"));
    const Result r = run(with_base({Block("worker", {"w3"}).add(credentials)}));
    const auto& d = r.only(codes::kCredentialsMode);
    CHECK(d.message == "field 'cluster_profile' applies only to credentials mode 'clusterprofile'");
    CHECK(d.range == credentials.name_of(0));
    CHECK(d.notes[0].message == "the mode is 'serviceaccount' (the default)");
  }
  SECTION("kubeconfig mode needs a kubeconfig") {
    const Block credentials = Block("credentials").set("mode", str("kubeconfig"));
    const Result r = run(with_base({Block("worker", {"w3"}).add(credentials)}));
    const auto& d = r.only(codes::kMissingField);
    CHECK(d.message == "credentials mode 'kubeconfig' needs field 'kubeconfig' (a secret)");
    CHECK(d.range == credentials.value_of(0));
  }
  SECTION("cluster profile mode") {
    const Block credentials = Block("credentials").set("mode", str("clusterprofile"));
    const Block kueue =
        Block("kueue").add(Block("multikueue").add(Block("access_provider", {"p"}).set("command", str("/p"))));
    const Result r = run(with_base({Block("worker", {"w3"}).add(credentials), kueue}));
    INFO(r.summary());
    REQUIRE(r.model);
    const auto& c = r.model->find_worker("w3")->credentials;
    CHECK(c.mode.value == model::CredentialsMode::ClusterProfile);
    CHECK(c.cluster_profile.value == "w3");
  }
}

// ------------------------------------------------------------------ overrides and kueue settings

TEST_CASE("binder binds overrides and warns when the queue is not dispatched to the worker",
          "[sema][bind][override]") {
  SECTION("served") {
    std::vector<Block> blocks = base();
    blocks[1].add(Block("override", {"cq"}).set("name", str("cq-small")).add(quota("f", {{"cpu", num("2")}})));
    const Result r = run(policy(blocks));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
    REQUIRE(r.model);
    const model::ClusterQueueOverride* o = r.model->find_worker("w1")->find_override("cq");
    REQUIRE(o);
    CHECK(o->name->value == "cq-small");
    CHECK(o->resource_groups[0].flavors[0].resources[0].nominal.value.to_string() == "2");
  }
  SECTION("not served") {
    std::vector<Block> blocks = base();
    blocks[2].add(Block("override", {"cq"}).set("name", str("cq-small")));
    const Result r = run(policy(blocks));
    const auto& d = r.only(codes::kOverrideNotServed);
    CHECK(d.message == "worker 'w2' overrides clusterqueue 'cq', which is not dispatched to it");
    CHECK(r.model);
  }
  SECTION("limits need the queue's cohort") {
    std::vector<Block> blocks = base();
    blocks[1].add(Block("override", {"cq"}).add(
        quota("f", {{"cpu", map({{"nominal", num("2")}, {"borrowing_limit", num("1")}})}})));
    CHECK(run(policy(blocks)).only(codes::kLimitWithoutCohort).message ==
          "'borrowing_limit' of 'cpu' needs a cohort: clusterqueue 'cq' has none");
  }
}

TEST_CASE("binder checks the kueue block", "[sema][bind][kueue][errors]") {
  SECTION("unknown integration") {
    const Value typo = str("batch/jobs");
    const Block kueue = Block("kueue").set("integrations", list({typo}));
    std::vector<Block> blocks = base();
    blocks.push_back(kueue);
    const Result r = run(with_catalogue(blocks));
    const auto& d = r.only(codes::kUnknownIntegration);
    CHECK(d.message == "unknown Kueue integration 'batch/jobs'");
    CHECK(d.range == typo.origin);
    CHECK(suggestion(d) == "did you mean 'batch/job'?");
  }
  SECTION("external framework format") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"RayJob"}));
    CHECK(run(with_base({kueue})).only(codes::kBadFrameworkName).message ==
          "'RayJob' is not a valid external framework: an external framework must be in 'Kind.version.group' "
          "format, e.g. 'RayJob.v1.ray.io'");
  }
  SECTION("a full block binds") {
    const Block kueue =
        Block("kueue")
            .set("namespace", str("kueue"))
            .set("integrations", strings({"batch/job", "jobset.x-k8s.io/jobset"}))
            .set("manage_jobs_without_queue_name", boolean(true))
            .set("managed_namespaces", map({{"kueue-managed", str("true")}}))
            .set("external_frameworks", strings({"Foo.v1.example.com"}))
            .add(Block("gang_scheduling").set("timeout", dur("5min")).set("block_admission", boolean(true)))
            .add(Block("fair_sharing").set("preemption_strategies", strings({"LessThanOrEqualToFinalShare"})))
            .add(Block("multikueue").set("gc_interval", dur("1min")).set("worker_lost_timeout", dur("15min")));
    std::vector<Block> blocks = base();
    blocks.push_back(kueue);
    blocks.push_back(Block("integration", {"Foo.v1.example.com"})
                         .set("rules", list({map({{"group", str("example.com")}, {"resources", strings({"foos"})}})})));
    const Result r = run(with_catalogue(blocks));
    INFO(r.summary());
    REQUIRE(r.model);
    const model::KueueSettings& k = r.model->kueue;
    CHECK(k.declared);
    CHECK(k.namespace_name.value == "kueue");
    REQUIRE(k.integrations.size() == 2);
    CHECK(k.integrations[1].value == "jobset.x-k8s.io/jobset");
    CHECK(k.manage_jobs_without_queue_name->value);
    CHECK(k.managed_namespaces->value == model::Labels{{"kueue-managed", "true"}});
    REQUIRE(k.gang_scheduling);
    CHECK(k.gang_scheduling->enable.value);
    CHECK(k.gang_scheduling->timeout->value.to_go_string() == "5m0s");
    REQUIRE(k.fair_sharing);
    CHECK(k.fair_sharing->preemption_strategies[0].value ==
          model::FairSharingPreemptionStrategy::LessThanOrEqualToFinalShare);
    CHECK(k.multikueue.gc_interval->value.millis() == 60'000);
    CHECK(k.external_frameworks[0].value == "Foo.v1.example.com");
  }
}

}  // namespace bindtest

// ------------------------------------------------------------------ ClusterProfile access providers

namespace bindtest {
namespace {

Block kueue_with(std::vector<Block> providers) {
  Block multikueue("multikueue");
  for (const Block& provider : providers) multikueue.add(provider);
  return Block("kueue").add(multikueue);
}

Block profile_worker(const std::string& name, const std::string& profile = "") {
  Block credentials("credentials");
  credentials.set("mode", str("clusterprofile"));
  if (!profile.empty()) credentials.set("cluster_profile", str(profile));
  return Block("worker", {name}).add(credentials);
}

}  // namespace

TEST_CASE("binder reads access providers in written order", "[sema][bind][clusterprofile]") {
  Block google("access_provider", {"google"});
  google.set("command", str("/plugins/gke"))
      .set("args", strings({"--a", "b"}))
      .set("env", map({{"Z", str("1")}, {"A", str("2")}}))
      .set("api_version", str("client.authentication.k8s.io/v1beta1"))
      .set("provide_cluster_info", boolean(true));
  Block reader("access_provider", {"another"});
  reader.set("command", str("/plugins/reader"));
  const Result r = run(with_base({kueue_with({google, reader}), profile_worker("w3")}));
  INFO(r.summary());
  REQUIRE(r.model);
  const auto& providers = r.model->kueue.multikueue.access_providers;
  REQUIRE(providers.size() == 2);
  CHECK(providers[0].name == "google");  // written order, not sorted
  CHECK(providers[0].command.value == "/plugins/gke");
  REQUIRE(providers[0].args.size() == 2);
  CHECK(providers[0].args[1].value == "b");
  REQUIRE(providers[0].env.size() == 2);
  CHECK(providers[0].env[0].name.value == "A");
  CHECK(providers[0].env[0].value.value == "2");
  CHECK(providers[0].api_version.value == "client.authentication.k8s.io/v1beta1");
  REQUIRE(providers[0].provide_cluster_info);
  CHECK(providers[0].provide_cluster_info->value);
  CHECK(providers[1].name == "another");
  CHECK(providers[1].api_version.value == "client.authentication.k8s.io/v1");
  CHECK_FALSE(providers[1].provide_cluster_info);
  CHECK(r.model->kueue.multikueue.find_access_provider("another") == &providers[1]);
  CHECK(r.model->uses_cluster_profiles());
}

TEST_CASE("binder checks access providers and ClusterProfile workers", "[sema][bind][clusterprofile][errors]") {
  SECTION("a clusterprofile worker without any access provider") {
    const Block worker = profile_worker("w3", "w3-profile");
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kClusterProfileWithoutProvider);
    CHECK(d.message ==
          "worker 'w3' uses ClusterProfile 'w3-profile', but the policy names no access provider for Kueue to reach "
          "it with");
    CHECK(d.range == Block(worker).block.blocks.at(0).attributes.at(0).value.origin);
  }
  SECTION("an empty command") {
    Block provider("access_provider", {"p"});
    provider.set("command", str(""));
    const Result r = run(with_base({kueue_with({provider}), profile_worker("w3")}));
    const auto& d = r.only(codes::kEmptyExecField);
    CHECK(d.range == provider.value_of(0));
  }
  SECTION("a missing command") {
    const Result r = run(with_base({kueue_with({Block("access_provider", {"p"})}), profile_worker("w3")}));
    CHECK(r.only(codes::kMissingField).message ==
          "access provider 'p' needs field 'command' (the exec plugin to run)");
  }
  SECTION("an exec api version client-go does not speak") {
    Block provider("access_provider", {"p"});
    provider.set("command", str("/p")).set("api_version", str("v1"));
    const Result r = run(with_base({kueue_with({provider}), profile_worker("w3")}));
    CHECK(r.only(codes::kInvalidEnumValue).range == provider.value_of(1));
  }
  SECTION("a secret in env") {
    Block provider("access_provider", {"p"});
    provider.set("command", str("/p")).set("env", map({{"TOKEN", secret("env:T")}}));
    const Result r = run(with_base({kueue_with({provider}), profile_worker("w3")}));
    CHECK(r.only(codes::kSecretNotAllowed).code == "E3013");
  }
  SECTION("two providers with one name") {
    Block first("access_provider", {"p"});
    first.set("command", str("/p"));
    Block second("access_provider", {"p"});
    second.set("command", str("/q"));
    const Result r = run(with_base({kueue_with({first, second}), profile_worker("w3")}));
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.range == second.label());
    CHECK(d.notes.at(0).range == first.label());
  }
  SECTION("two workers on one ClusterProfile") {
    Block provider("access_provider", {"p"});
    provider.set("command", str("/p"));
    const Result r = run(with_base({kueue_with({provider}), profile_worker("w3", "gpu"), profile_worker("w4", "gpu")}));
    CHECK(r.only(codes::kSharedClusterProfile).message ==
          "workers 'w3' and 'w4' use one ClusterProfile 'gpu': one cluster cannot be two MultiKueue clusters");
  }
  SECTION("access_provider outside multikueue") {
    const Result r = run(with_base({Block("access_provider", {"p"})}));
    CHECK(r.only(codes::kUnknownBlockKind).message ==
          "'access_provider' cannot be declared at the top level: it belongs in the kueue block's multikueue block");
  }
}

}  // namespace bindtest
