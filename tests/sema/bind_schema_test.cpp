// Binder: block kinds per position, fields, labels, required fields, field
// types, enum values, secrets and map keys — exact messages and ranges.
#include "tests/sema/bind_test_support.h"

namespace bindtest {

TEST_CASE("binder accepts the base policy", "[sema][bind]") {
  const Result r = run(policy(base()));
  INFO(r.summary());
  CHECK(r.diagnostics.items().empty());
  REQUIRE(r.model);
  CHECK(r.model->manager.name == "hub");
}

// ------------------------------------------------------------------ block kinds

TEST_CASE("binder rejects an unknown declaration with a suggestion", "[sema][bind][errors]") {
  const Block typo("clusterqeue", {"x"});
  const Result r = run(with_base({typo}));
  const auto& d = r.only(codes::kUnknownBlockKind);
  CHECK(d.message == "unknown declaration 'clusterqeue'");
  CHECK(d.range == typo.block.kind_range);
  CHECK(suggestion(d) == "did you mean 'clusterqueue'?");
  CHECK_FALSE(r.model);
}

TEST_CASE("binder says where a nested-only block belongs", "[sema][bind][errors]") {
  const Block stray = quota("f", {{"cpu", num("1")}});
  const Result r = run(with_base({stray}));
  const auto& d = r.only(codes::kUnknownBlockKind);
  CHECK(d.message ==
        "'quota' cannot be declared at the top level: it belongs in a clusterqueue, a cohort or a worker's override");
  CHECK(d.range == stray.block.kind_range);
}

TEST_CASE("binder rejects an unknown nested block with a suggestion", "[sema][bind][errors]") {
  const Block typo("preemtion");
  const Block cq = Block("clusterqueue", {"cq2"}).add(typo);
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kUnknownBlockKind);
  CHECK(d.message == "unknown block 'preemtion' in 'clusterqueue'");
  CHECK(d.range == typo.block.kind_range);
  CHECK(suggestion(d) == "did you mean 'preemption'?");
}

TEST_CASE("binder rejects a top-level kind nested where it does not belong", "[sema][bind][errors]") {
  const Block worker = Block("worker", {"w3"}).add(Block("clusterqueue", {"x"}));
  const Result r = run(with_base({worker}));
  const auto& d = r.only(codes::kUnknownBlockKind);
  CHECK(d.message == "unknown block 'clusterqueue' in 'worker'");
}

TEST_CASE("binder tells a field written as a block and a block written as a field", "[sema][bind][errors]") {
  SECTION("field as block") {
    const Block worker = Block("worker", {"w3"}).add(Block("labels"));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kUnknownBlockKind);
    CHECK(d.message == "'labels' is a field of 'worker', not a block: write 'labels = ...'");
    CHECK(d.range == worker.nested(0).kind_range);
  }
  SECTION("block as field") {
    const Block cq = Block("clusterqueue", {"cq2"}).set("preemption", map({}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kUnknownField);
    CHECK(d.message == "'preemption' is a block in 'clusterqueue', not a field: write 'preemption { ... }'");
    CHECK(d.range == cq.name_of(0));
  }
}

// ------------------------------------------------------------------ fields

TEST_CASE("binder rejects an unknown field with a suggestion", "[sema][bind][errors]") {
  const Block cq = Block("clusterqueue", {"cq2"}).set("cohrot", str("team"));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kUnknownField);
  CHECK(d.message == "unknown field 'cohrot' in 'clusterqueue'");
  CHECK(d.range == cq.name_of(0));
  CHECK(suggestion(d) == "did you mean 'cohort'?");
}

TEST_CASE("binder rejects a field set twice with a note at the first", "[sema][bind][errors]") {
  const Block worker = Block("worker", {"w3"}).set("context", str("a")).set("context", str("b"));
  const Result r = run(with_base({worker}));
  const auto& d = r.only(codes::kDuplicateField);
  CHECK(d.message == "field 'context' is set twice");
  CHECK(d.range == worker.name_of(1));
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "first set here");
  CHECK(d.notes[0].range == worker.name_of(0));
}

TEST_CASE("binder rejects a single nested block written twice", "[sema][bind][errors]") {
  const Block cq = Block("clusterqueue", {"cq2"}).add(Block("preemption")).add(Block("preemption"));
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kDuplicateBlock);
  CHECK(d.message == "'preemption' may appear only once in 'clusterqueue'");
  CHECK(d.range == cq.nested(1).kind_range);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].range == cq.nested(0).kind_range);
}

TEST_CASE("binder treats a null field as not set", "[sema][bind]") {
  const Block cq = Block("clusterqueue", {"cq2"}).set("cohort", null()).set("stop_policy", null());
  const Result r = run(with_base({cq}));
  INFO(r.summary());
  CHECK(r.diagnostics.items().empty());
  REQUIRE(r.model);
  CHECK_FALSE(r.model->find_cluster_queue("cq2")->cohort);
}

// ------------------------------------------------------------------ labels

TEST_CASE("binder checks the labels of each block kind", "[sema][bind][errors]") {
  SECTION("a name is required") {
    const Block cq("clusterqueue");
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kBadLabels);
    CHECK(d.message == "'clusterqueue' needs a name: clusterqueue \"NAME\" { ... }");
    CHECK(d.range == cq.block.kind_range);
  }
  SECTION("one label only") {
    const Block cq("clusterqueue", {"a", "b"});
    const Result r = run(with_base({cq}));
    const auto& d = r.first(codes::kBadLabels);
    CHECK(d.message == "'clusterqueue' takes one label (a name), found 2");
    CHECK(d.range == cq.label(1));
  }
  SECTION("kueue takes no label") {
    const Block kueue("kueue", {"main"});
    const Result r = run(with_base({kueue}));
    const auto& d = r.only(codes::kBadLabels);
    CHECK(d.message == "'kueue' takes no label");
    CHECK(d.range == kueue.label());
  }
  SECTION("a localqueue needs a namespace") {
    const Block lq = Block("localqueue", {"lq"}).set("clusterqueue", str("cq"));
    const Result r = run(with_base({lq}));
    const auto& d = r.only(codes::kBadLabels);
    CHECK(d.message == "'localqueue' needs a namespace: localqueue \"NAME\" in \"NAMESPACE\" { ... }");
    CHECK(d.range == lq.block.kind_range);
  }
  SECTION("a clusterqueue takes no namespace") {
    const Block cq = Block("clusterqueue", {"cq2"}).in("ns");
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kBadLabels);
    CHECK(d.message == "'clusterqueue' takes no 'in' label");
    CHECK(d.range == cq.block.in_label->range);
  }
  SECTION("a quota needs its flavor") {
    const Block cq = Block("clusterqueue", {"cq2"}).add(Block("quota").set("cpu", num("1")));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kBadLabels);
    CHECK(d.message == "'quota' needs a flavor: quota \"FLAVOR\" { cpu = 8, memory = 32Gi }");
  }
  SECTION("access takes an optional namespace") {
    const Block cluster_wide = Block("access", {"admins"}).set("role", str("batch-admin"));
    const Block namespaced = Block("access", {"users"}).in("team").set("role", str("batch-user"));
    const Result r = run(with_base({cluster_wide, namespaced}));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
  }
}

// ------------------------------------------------------------------ required fields

TEST_CASE("binder reports required fields", "[sema][bind][errors]") {
  SECTION("priorityclass value") {
    const Block pc("priorityclass", {"high"});
    const Result r = run(with_base({pc}));
    const auto& d = r.only(codes::kMissingField);
    CHECK(d.message == "priorityclass 'high' needs field 'value'");
    CHECK(d.range == pc.label());
  }
  SECTION("top-level localqueue clusterqueue") {
    const Block lq = Block("localqueue", {"lq"}).in("ns");
    const Result r = run(with_base({lq}));
    const auto& d = r.only(codes::kMissingField);
    CHECK(d.message == "localqueue 'lq' needs field 'clusterqueue'");
    CHECK(d.range == lq.label());
  }
  SECTION("dispatch queues") {
    const Block dispatch = Block("dispatch", {"d2"}).set("workers", strings({"w2"}));
    const Result r = run(with_base({dispatch}));
    const auto& d = r.only(codes::kMissingField);
    CHECK(d.message == "dispatch 'd2' needs field 'queues'");
  }
  SECTION("topology levels") {
    const Result r = run(with_base({Block("topology", {"t"})}));
    CHECK(r.only(codes::kMissingField).message == "topology 't' needs field 'levels'");
  }
  SECTION("access role") {
    const Result r = run(with_base({Block("access", {"a"})}));
    CHECK(r.only(codes::kMissingField).message ==
          "access 'a' needs field 'role' (\"batch-user\" or \"batch-admin\")");
  }
  SECTION("nominal quota of a resource with limits") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .set("cohort", str("team"))
                         .add(quota("f", {{"cpu", map({{"borrowing_limit", num("1")}})}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kMissingField);
    CHECK(d.message == "resource 'cpu' needs a 'nominal' quota");
    CHECK(d.range == cq.nested(0).attributes[0].value.origin);
  }
}

// ------------------------------------------------------------------ types

TEST_CASE("binder reports field types with exact messages", "[sema][bind][errors]") {
  SECTION("a quantity") {
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", str("9")}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "field 'cpu' expects a quantity, found a string");
    CHECK(d.range == cq.nested(0).attributes[0].value.origin);
  }
  SECTION("a string") {
    const Block worker = Block("worker", {"w3"}).set("context", num("1"));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "field 'context' expects a string, found a number");
    CHECK(d.range == worker.value_of(0));
  }
  SECTION("an integer") {
    const Block worker = Block("worker", {"w3"}).set("priority", str("high"));
    CHECK(run(with_base({worker})).only(codes::kTypeMismatch).message ==
          "field 'priority' expects an integer, found a string");
  }
  SECTION("a whole number") {
    const Block worker = Block("worker", {"w3"}).set("priority", num("1.5"));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kNotAnInteger);
    CHECK(d.message == "field 'priority' expects an integer, found 1500m");
    CHECK(d.range == worker.value_of(0));
  }
  SECTION("an int32") {
    const Block pc = Block("priorityclass", {"p"}).set("value", num("3000000000"));
    const Result r = run(with_base({pc}));
    CHECK(r.only(codes::kValueOutOfRange).message ==
          "field 'value' must be between -2147483648 and 2147483647, found 3G");
  }
  SECTION("a duration") {
    const Block worker = Block("worker", {"w3"}).add(Block("credentials").set("lifetime", num("30")));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "field 'lifetime' expects a duration, found a number");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "a duration takes a unit: ms, s, min, h or d, as in '30min' or '7d'");
  }
  SECTION("a duration written in minutes as a quantity: 30m") {
    const Block worker = Block("worker", {"w3"}).add(Block("credentials").set("rotate_before", num("30m")));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "field 'rotate_before' expects a duration, found a number");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "'30m' is a quantity (m: thousandths); minutes are written '30min'");
  }
  SECTION("a bool") {
    const Block lq = Block("localqueue", {"default"}).in("ns").set("clusterqueue", str("cq")).set("default", str("yes"));
    CHECK(run(with_base({lq})).only(codes::kTypeMismatch).message == "field 'default' expects a bool, found a string");
  }
  SECTION("a map of labels") {
    const Block worker = Block("worker", {"w3"}).set("labels", strings({"a"}));
    CHECK(run(with_base({worker})).only(codes::kTypeMismatch).message ==
          "field 'labels' expects a map of labels, found a list");
  }
  SECTION("label values are strings") {
    const Value count = num("8");
    const Block worker = Block("worker", {"w3"}).set("labels", map({{"gpus", count}}));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "each value of 'labels' must be a string, found a number for 'gpus'");
    CHECK(d.range == count.origin);
  }
  SECTION("list elements") {
    const Value bad = num("1");
    const Block dispatch = Block("dispatch", {"d2"}).set("queues", list({str("cq"), bad})).set("workers", strings({"w2"}));
    const Result r = run(with_base({dispatch}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "each element of 'queues' must be a string, found a number");
    CHECK(d.range == bad.origin);
  }
  SECTION("namespaces") {
    const Block cq = Block("clusterqueue", {"cq2"}).set("namespaces", str("all"));
    CHECK(run(with_base({cq})).only(codes::kTypeMismatch).message ==
          "field 'namespaces' expects all, a list of namespace names or a map of labels, found a string");
  }
  SECTION("every error of a run is reported") {
    const Block worker = Block("worker", {"w3"}).set("context", num("1")).set("priority", str("x"));
    const Block cq = Block("clusterqueue", {"cq2"}).set("stop_policy", num("1"));
    const Result r = run(with_base({worker, cq}));
    CHECK(r.with_code(codes::kTypeMismatch).size() == 3);
  }
}

// ------------------------------------------------------------------ enums

TEST_CASE("binder checks enum values with suggestions", "[sema][bind][errors]") {
  SECTION("close to a valid value") {
    const Block cq = Block("clusterqueue", {"cq2"})
                         .add(Block("preemption").set("within_cluster_queue", str("LowerPrioirty")));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kInvalidEnumValue);
    CHECK(d.message == "'LowerPrioirty' is not a valid value for 'within_cluster_queue'");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "expected 'Never', 'LowerPriority' or 'LowerOrNewerEqualPriority'");
    REQUIRE(d.suggestions.size() == 1);
    CHECK(d.suggestions[0].replacement == "LowerPriority");
    CHECK(d.range == cq.nested(0).attributes[0].value.origin);
  }
  SECTION("far from every value") {
    const Block cq = Block("clusterqueue", {"cq2"}).set("stop_policy", str("Paused"));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kInvalidEnumValue);
    CHECK(d.message == "'Paused' is not a valid value for 'stop_policy'");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "expected 'None', 'Hold' or 'HoldAndDrain'");
    CHECK(d.suggestions.empty());
  }
  SECTION("case matters") {
    const Block cq = Block("clusterqueue", {"cq2"}).set("queueing_strategy", str("strictfifo"));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kInvalidEnumValue);
    CHECK(d.message == "'strictfifo' is not a valid value for 'queueing_strategy'");
    REQUIRE(d.suggestions.size() == 1);
    CHECK(d.suggestions[0].message == "did you mean 'StrictFIFO'?");
  }
  SECTION("taint effect inside a map") {
    const Value effect = str("NoSchedul");
    const Block flavor = Block("flavor", {"g"}).set("taints", list({map({{"key", str("gpu")}, {"effect", effect}})}));
    const Result r = run(with_base({flavor}));
    const auto& d = r.only(codes::kInvalidEnumValue);
    CHECK(d.message == "'NoSchedul' is not a valid value for 'effect'");
    REQUIRE(d.suggestions.size() == 1);
    CHECK(d.suggestions[0].replacement == "NoSchedule");
    CHECK(d.range == effect.origin);
  }
  SECTION("dispatch mode typo is not taken for an external dispatcher") {
    const Block dispatch = Block("dispatch", {"d2"})
                               .set("queues", strings({"cq2"}))
                               .set("workers", strings({"w2"}))
                               .set("mode", str("incremetal"));
    const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
    const Result r = run(with_base({cq, dispatch}));
    const auto& d = r.only(codes::kInvalidEnumValue);
    CHECK(d.message == "'incremetal' is not a valid value for 'mode'");
    REQUIRE(d.suggestions.size() == 1);
    CHECK(d.suggestions[0].replacement == "incremental");
  }
}

// ------------------------------------------------------------------ secrets and map keys

TEST_CASE("binder accepts secrets only in credentials", "[sema][bind][errors]") {
  SECTION("a field that would print it") {
    const Block worker = Block("worker", {"w3"}).set("context", secret("env:CTX"));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kSecretNotAllowed);
    CHECK(d.message == "field 'context' cannot hold a secret: its value would be printed");
    CHECK(d.range == worker.value_of(0));
  }
  SECTION("inside a map") {
    const Value hidden = secret("env:X");
    const Block ns = Block("namespace", {"team"}).set("labels", map({{"owner", hidden}}));
    const Result r = run(with_base({ns}));
    const auto& d = r.only(codes::kSecretNotAllowed);
    CHECK(d.message == "field 'labels' cannot hold a secret: its value would be printed");
    CHECK(d.range == hidden.origin);
  }
  SECTION("credentials take them") {
    const Block worker = Block("worker", {"w3"})
                             .add(Block("credentials").set("mode", str("kubeconfig")).set("kubeconfig", secret("file:/k")));
    const Result r = run(with_base({worker}));
    INFO(r.summary());
    CHECK(r.diagnostics.items().empty());
    REQUIRE(r.model);
    const auto& credentials = r.model->find_worker("w3")->credentials;
    CHECK(credentials.mode.value == model::CredentialsMode::Kubeconfig);
    REQUIRE(credentials.kubeconfig);
    CHECK(credentials.kubeconfig->value.source == "file:/k");
  }
  SECTION("credentials want a secret, not a string") {
    const Block worker = Block("worker", {"w3"}).add(Block("credentials").set("token", str("abc")));
    const Result r = run(with_base({worker}));
    const auto& d = r.only(codes::kTypeMismatch);
    CHECK(d.message == "field 'token' expects a secret, found a string");
  }
}

TEST_CASE("binder checks map keys like fields", "[sema][bind][errors]") {
  SECTION("quota limits") {
    const Value limit = num("2");
    const Block cq = Block("clusterqueue", {"cq2"})
                         .set("cohort", str("team"))
                         .add(quota("f", {{"cpu", map({{"nominal", num("4")}, {"borowing_limit", limit}})}}));
    const Result r = run(with_base({cq}));
    const auto& d = r.only(codes::kUnknownKey);
    CHECK(d.message == "unknown key 'borowing_limit' in 'cpu'");
    CHECK(d.range == limit.origin);
    CHECK(suggestion(d) == "did you mean 'borrowing_limit'?");
  }
  SECTION("tolerations") {
    const Block flavor =
        Block("flavor", {"g"}).set("tolerations", list({map({{"key", str("gpu")}, {"operater", str("Exists")}})}));
    const Result r = run(with_base({flavor}));
    const auto& d = r.first(codes::kUnknownKey);
    CHECK(d.message == "unknown key 'operater' in 'tolerations'");
    CHECK(suggestion(d) == "did you mean 'operator'?");
  }
}

TEST_CASE("binder notes where a template was instantiated", "[sema][bind][errors]") {
  const SourceRange site = fresh();
  const Block cq = Block("clusterqueue", {"cq2"}).set("cohrot", str("x")).from_use(site);
  const Result r = run(with_base({cq}));
  const auto& d = r.only(codes::kUnknownField);
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "instantiated from here");
  CHECK(d.notes[0].range == site);
}

}  // namespace bindtest
