// Binder: references between declarations, duplicates, cohort cycles and the manager.
#include "tests/sema/bind_test_support.h"

namespace bindtest {

// ------------------------------------------------------------------ references

TEST_CASE("binder resolves quota flavors with suggestions", "[sema][bind][references][errors]") {
  const Block cq = Block("clusterqueue", {"cq2"}).add(quota("ff", {{"cpu", num("1")}}));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kUnknownFlavor);
  CHECK(d.message == "unknown flavor 'ff'");
  CHECK(d.range == cq.nested(0).labels[0].range);
  CHECK(suggestion(d) == "did you mean 'f'?");
}

TEST_CASE("binder resolves a localqueue's clusterqueue", "[sema][bind][references][errors]") {
  const Block lq = Block("localqueue", {"lq"}).in("ns").set("clusterqueue", str("cq1"));
  const Result r = run(with_base({lq}));
  const auto& d = r.only(codes::kUnknownClusterQueue);
  CHECK(d.message == "unknown clusterqueue 'cq1'");
  CHECK(d.range == lq.value_of(0));
  CHECK(suggestion(d) == "did you mean 'cq'?");
}

TEST_CASE("binder resolves dispatch queues and workers", "[sema][bind][references][errors]") {
  const Value queue = str("cqq");
  const Value worker = str("w3");
  const Block dispatch = Block("dispatch", {"d2"}).set("queues", list({queue})).set("workers", list({worker}));
  const Result r = run(with_base({dispatch}));
  REQUIRE(r.diagnostics.items().size() == 2);
  const auto& q = r.first(codes::kUnknownClusterQueue);
  CHECK(q.message == "unknown clusterqueue 'cqq'");
  CHECK(q.range == queue.origin);
  const auto& w = r.first(codes::kUnknownWorker);
  CHECK(w.message == "unknown worker 'w3'");
  CHECK(w.range == worker.origin);
  CHECK(suggestion(w) == "did you mean 'w1'?");
}

TEST_CASE("binder resolves a flavor's topology", "[sema][bind][references][errors]") {
  const Block topology = Block("topology", {"default"}).set("levels", strings({"kubernetes.io/hostname"}));
  const Block flavor =
      Block("flavor", {"tas"}).set("node_labels", map({{"pool", str("tas")}})).set("topology", str("defualt"));
  const Result r = run(with_base({topology, flavor}));
  const auto& d = r.only(codes::kUnknownTopology);
  CHECK(d.message == "unknown topology 'defualt'");
  CHECK(d.range == flavor.value_of(1));
  CHECK(suggestion(d) == "did you mean 'default'?");
}

TEST_CASE("binder resolves a worker's capacity flavors and overrides", "[sema][bind][references][errors]") {
  const Block worker = Block("worker", {"w3"})
                           .add(Block("capacity", {"gpu"}).set("cpu", num("8")))
                           .add(Block("override", {"missing"}).set("name", str("x")));
  const Result r = run(with_base({worker}));
  REQUIRE(r.diagnostics.items().size() == 2);
  const auto& flavor = r.first(codes::kUnknownFlavor);
  CHECK(flavor.message == "unknown flavor 'gpu'");
  CHECK(flavor.range == worker.nested(0).labels[0].range);
  const auto& queue = r.first(codes::kUnknownClusterQueue);
  CHECK(queue.message == "unknown clusterqueue 'missing'");
  CHECK(queue.range == worker.nested(1).labels[0].range);
}

TEST_CASE("binder allows implicit cohorts and warns about near misses", "[sema][bind][references]") {
  SECTION("an undeclared cohort is implicit") {
    const Block cq = Block("clusterqueue", {"cq2"}).set("cohort", str("team"));
    const Result r = run(with_base({cq}));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
    REQUIRE(r.model);
    REQUIRE(r.model->implicit_cohorts.size() == 1);
    CHECK(r.model->implicit_cohorts[0].name == "team");
    CHECK(r.model->implicit_cohorts[0].first_reference == cq.value_of(0));
    CHECK(r.model->cohorts.empty());
  }
  SECTION("a near miss of a declared cohort") {
    const Block cohort("cohort", {"research"});
    const Block cq = Block("clusterqueue", {"cq2"}).set("cohort", str("reserch"));
    const Result r = run(with_base({cohort, cq}));
    const auto& d = r.only(codes::kImplicitCohortTypo);
    CHECK(d.severity == mkq::diag::Severity::Warning);
    CHECK(d.message == "cohort 'reserch' is not declared, so it is an implicit cohort");
    CHECK(suggestion(d) == "did you mean 'research'?");
    CHECK(r.model);  // a warning does not stop binding
  }
}

TEST_CASE("binder reports cohort parent cycles", "[sema][bind][references][errors]") {
  SECTION("two cohorts") {
    const Block b = Block("cohort", {"b"}).set("parent", str("a"));
    const Block a = Block("cohort", {"a"}).set("parent", str("b"));
    const Result r = run(with_base({b, a}));
    const auto& d = r.only(codes::kCohortCycle);
    CHECK(d.message == "cohort parents form a cycle: a -> b -> a");
    CHECK(d.range == a.value_of(0));
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "cohort 'b' has parent 'a'");
    CHECK(d.notes[0].range == b.value_of(0));
  }
  SECTION("its own parent") {
    const Block a = Block("cohort", {"a"}).set("parent", str("a"));
    const Result r = run(with_base({a}));
    const auto& d = r.only(codes::kCohortCycle);
    CHECK(d.message == "cohort 'a' is its own parent");
  }
  SECTION("a chain into a cycle reports the cycle once") {
    const Block root = Block("cohort", {"root"}).set("parent", str("x"));
    const Block x = Block("cohort", {"x"}).set("parent", str("y"));
    const Block y = Block("cohort", {"y"}).set("parent", str("z"));
    const Block z = Block("cohort", {"z"}).set("parent", str("x"));
    const Result r = run(with_base({root, x, y, z}));
    CHECK(r.only(codes::kCohortCycle).message == "cohort parents form a cycle: x -> y -> z -> x");
  }
  SECTION("a chain ending in an implicit cohort is fine") {
    const Block a = Block("cohort", {"a"}).set("parent", str("b"));
    const Block b = Block("cohort", {"b"}).set("parent", str("org"));
    const Result r = run(with_base({a, b}));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
    REQUIRE(r.model);
    CHECK(r.model->implicit_cohorts.size() == 1);
  }
}

// ------------------------------------------------------------------ duplicates

TEST_CASE("binder reports duplicate declarations with a note at the first", "[sema][bind][duplicates][errors]") {
  SECTION("clusterqueues") {
    const Block again = Block("clusterqueue", {"cq"}).add(quota("f", {{"cpu", num("1")}}));
    std::vector<Block> blocks = base();
    const SourceRange first = blocks[4].label();
    blocks.push_back(again);
    const Result r = run(policy(blocks));
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.message == "clusterqueue 'cq' is declared twice");
    CHECK(d.range == again.label());
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "first declared here");
    CHECK(d.notes[0].range == first);
  }
  SECTION("a clusterqueue copied with its localqueues: one error, at the clusterqueue") {
    const Block lq = Block("localqueue", {"lq"}).in("ns");
    const Block first = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}})).add(lq);
    const Block copy = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("2")}})).add(lq);
    const Result r = run(with_base({first, copy}));
    INFO(r.summary());
    REQUIRE(r.diagnostics.items().size() == 1);
    CHECK(r.only(codes::kDuplicateDeclaration).message == "clusterqueue 'cq2' is declared twice");
  }
  SECTION("localqueues by namespace and name, nested or not") {
    const Block nested = Block("localqueue", {"lq"}).in("ns");
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}})).add(nested);
    const Block top = Block("localqueue", {"lq"}).in("ns").set("clusterqueue", str("cq"));
    const Block other_ns = Block("localqueue", {"lq"}).in("other").set("clusterqueue", str("cq"));
    const Result r = run(with_base({cq, top, other_ns}));
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.message == "localqueue 'lq' in namespace 'ns' is declared twice");
    CHECK(d.range == top.label());
    CHECK(d.notes[0].range == nested.label());
  }
  SECTION("kueue blocks") {
    const Block first("kueue");
    const Block second("kueue");
    const Result r = run(with_base({first, second}));
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.message == "the policy has two 'kueue' blocks");
    CHECK(d.range == second.block.kind_range);
    CHECK(d.notes[0].range == first.block.kind_range);
  }
  SECTION("access bindings by namespace and name") {
    const Block a = Block("access", {"x"}).in("ns").set("role", str("batch-user"));
    const Block b = Block("access", {"x"}).in("ns").set("role", str("batch-admin"));
    const Block cluster_wide = Block("access", {"x"}).set("role", str("batch-admin"));
    const Result r = run(with_base({a, b, cluster_wide}));
    CHECK(r.only(codes::kDuplicateDeclaration).message == "access 'x' in namespace 'ns' is declared twice");
  }
  SECTION("names listed twice") {
    const Value again = str("w1");
    const Block dispatch =
        Block("dispatch", {"d2"}).set("queues", strings({"cq2"})).set("workers", list({str("w1"), again}));
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
    const Result r = run(with_base({cq, dispatch}));
    const auto& d = r.only(codes::kDuplicateListItem);
    CHECK(d.message == "worker 'w1' is listed twice");
    CHECK(d.range == again.origin);
  }
  SECTION("config names") {
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
    const Block dispatch =
        Block("dispatch", {"d2"}).set("config", str("d")).set("queues", strings({"cq2"})).set("workers", strings({"w2"}));
    const Result r = run(with_base({cq, dispatch}));
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.message == "dispatch 'd2' uses config name 'd' of dispatch 'd'");
    CHECK(d.range == dispatch.value_of(0));
  }
  SECTION("capacity blocks of a worker") {
    const Block worker = Block("worker", {"w3"})
                             .add(Block("capacity", {"f"}).set("cpu", num("1")))
                             .add(Block("capacity", {"f"}).set("cpu", num("2")));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kDuplicateQuota);
    CHECK(d.message == "worker 'w3' has two capacity blocks for flavor 'f'");
    CHECK(d.range == worker.nested(1).labels[0].range);
  }
}

// ------------------------------------------------------------------ the manager

TEST_CASE("binder requires exactly one manager", "[sema][bind][manager][errors]") {
  SECTION("none") {
    std::vector<Block> blocks = base();
    blocks.erase(blocks.begin());
    blocks.front().block.range.file = 3;
    const Result r = run(policy(blocks));
    const auto& d = r.only(codes::kNoManager);
    CHECK(d.message == "the policy declares no manager");
    CHECK(d.range.file == 3);
    CHECK(d.range.begin.offset == 0);
    CHECK_FALSE(r.model);
  }
  SECTION("an empty policy") {
    const Result r = run(EvalPolicy{});
    CHECK(r.only(codes::kNoManager).message == "the policy declares no manager");
  }
  SECTION("two") {
    const Block second("manager", {"hub2"});
    const Result r = run(with_base({second}));
    const auto& d = r.only(codes::kTwoManagers);
    CHECK(d.message == "the policy declares a second manager 'hub2'");
    CHECK(d.range == second.label());
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "the first manager 'hub' is declared here");
  }
}

TEST_CASE("binder rejects a worker that is the manager", "[sema][bind][manager][errors]") {
  SECTION("by name") {
    const Block worker("worker", {"hub"});
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kManagerIsWorker);
    CHECK(d.message == "worker 'hub' has the manager's name: the manager cannot be its own worker");
    CHECK(d.range == worker.label());
  }
  SECTION("by context") {
    const Block worker = Block("worker", {"w3"}).set("context", str("hub"));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kManagerIsWorker);
    CHECK(d.message == "worker 'w3' uses the manager's context 'hub': the manager cannot be its own worker");
    CHECK(d.range == worker.value_of(0));
  }
  SECTION("the same context of another kubeconfig is another cluster") {
    const Block worker = Block("worker", {"w3"}).set("context", str("hub")).set("kubeconfig", str("/etc/other"));
    const Result r = run(with_base({worker}));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
  }
}

}  // namespace bindtest
