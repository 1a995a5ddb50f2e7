// Binder: the model it builds — the MultiKueue tutorial setup, defaults,
// sorting and lookups.
#include <fstream>
#include <sstream>
#include <string>

#include "tests/sema/bind_test_support.h"

namespace bindtest {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The MultiKueue tutorial's manager setup
// (shared/kueue/examples/multikueue/multikueue-setup.yaml) as a policy.
std::vector<Block> tutorial() {
  std::vector<Block> blocks;
  blocks.push_back(Block("manager", {"manager-cluster"}).set("context", str("manager-cluster")));
  blocks.push_back(Block("worker", {"multikueue-test-worker1"})
                       .set("context", str("worker1-cluster"))
                       .set("secret", str("worker1-secret"))
                       .add(Block("capacity", {"default-flavor"}).set("cpu", num("9")).set("memory", num("36Gi"))));
  blocks.push_back(Block("flavor", {"default-flavor"}));
  blocks.push_back(Block("clusterqueue", {"cluster-queue"})
                       .set("namespaces", all())
                       .add(quota("default-flavor", {{"cpu", num("9")}, {"memory", num("36Gi")}}))
                       .add(Block("localqueue", {"user-queue"}).in("default")));
  blocks.push_back(Block("dispatch", {"sample-multikueue"})
                       .set("config", str("multikueue-test"))
                       .set("queues", strings({"cluster-queue"}))
                       .set("workers", strings({"multikueue-test-worker1"})));
  return blocks;
}

}  // namespace

TEST_CASE("binder models the MultiKueue tutorial setup", "[sema][bind][model]") {
  const std::vector<Block> blocks = tutorial();
  const Result r = run(policy(blocks));
  INFO(r.summary());
  CHECK(r.diagnostics.items().empty());
  REQUIRE(r.model);
  const model::Policy& p = *r.model;

  // The names the tutorial's YAML uses.
  const std::string yaml = read_text(std::string(MKQ_SHARED_DIR) + "/kueue/examples/multikueue/multikueue-setup.yaml");
  REQUIRE_FALSE(yaml.empty());
  for (const char* name : {"name: \"default-flavor\"", "name: \"cluster-queue\"", "name: \"user-queue\"",
                           "namespace: \"default\"", "name: sample-multikueue", "name: multikueue-test",
                           "- multikueue-test-worker1", "location: worker1-secret", "nominalQuota: 9",
                           "nominalQuota: 36Gi", "coveredResources: [\"cpu\", \"memory\"]"}) {
    INFO(name);
    CHECK(yaml.find(name) != std::string::npos);
  }

  CHECK(p.manager.name == "manager-cluster");
  CHECK(p.manager.connection.context.value == "manager-cluster");
  CHECK(p.manager.range == blocks[0].block.range);

  REQUIRE(p.workers.size() == 1);
  const model::Worker& worker = p.workers[0];
  CHECK(worker.name == "multikueue-test-worker1");
  CHECK(worker.name_range == blocks[1].label());
  CHECK(worker.connection.context.value == "worker1-cluster");
  CHECK(worker.secret_name.value == "worker1-secret");
  CHECK(worker.secret_name.range == blocks[1].value_of(1));
  CHECK(worker.priority.value == 0);
  REQUIRE(worker.capacities.size() == 1);
  CHECK(worker.capacities[0].flavor.name == "default-flavor");
  CHECK(worker.capacities[0].resources[1].nominal.value.to_string() == "36Gi");
  CHECK(worker.credentials.mode.value == model::CredentialsMode::ServiceAccount);
  CHECK(worker.credentials.service_account.value == "multikueue-sa");
  CHECK(worker.credentials.lifetime.value.to_string() == "30d");
  CHECK(worker.credentials.rotate_before.value.to_string() == "7d");

  REQUIRE(p.flavors.size() == 1);
  CHECK(p.flavors[0].name == "default-flavor");
  CHECK(p.flavors[0].node_labels.empty());

  REQUIRE(p.cluster_queues.size() == 1);
  const model::ClusterQueue& cq = p.cluster_queues[0];
  CHECK(cq.name == "cluster-queue");
  CHECK(cq.namespaces.kind == model::NamespaceSelection::All);
  CHECK(cq.namespaces.range == blocks[3].value_of(0));
  CHECK_FALSE(cq.cohort);
  REQUIRE(cq.resource_groups.size() == 1);
  const model::ResourceGroup& group = cq.resource_groups[0];
  CHECK(group.covered_resources == std::vector<std::string>{"cpu", "memory"});
  REQUIRE(group.flavors.size() == 1);
  CHECK(group.flavors[0].flavor.name == "default-flavor");
  CHECK(group.flavors[0].flavor.range == blocks[3].nested(0).labels[0].range);
  CHECK(group.flavors[0].resources[0].nominal.value.to_string() == "9");
  CHECK(group.flavors[0].resources[0].nominal.range == blocks[3].nested(0).attributes[0].value.origin);
  CHECK(group.flavors[0].resources[1].nominal.value.to_string() == "36Gi");
  CHECK_FALSE(group.flavors[0].resources[0].borrowing_limit);
  CHECK(cq.worker_name.value == "cluster-queue");
  CHECK(cq.dispatch == std::optional<std::string>("sample-multikueue"));
  CHECK_FALSE(cq.preemption);
  CHECK_FALSE(cq.queueing_strategy);

  REQUIRE(p.local_queues.size() == 1);
  const model::LocalQueue& lq = p.local_queues[0];
  CHECK(lq.name == "user-queue");
  CHECK(lq.namespace_name.value == "default");
  CHECK(lq.cluster_queue.name == "cluster-queue");
  CHECK(lq.cluster_queue.range == blocks[3].label());
  CHECK_FALSE(lq.is_default);

  REQUIRE(p.dispatches.size() == 1);
  const model::Dispatch& dispatch = p.dispatches[0];
  CHECK(dispatch.name == "sample-multikueue");
  CHECK(dispatch.config_name.value == "multikueue-test");
  REQUIRE(dispatch.queues.size() == 1);
  CHECK(dispatch.queues[0].name == "cluster-queue");
  REQUIRE(dispatch.workers.size() == 1);
  CHECK(dispatch.workers[0].name == "multikueue-test-worker1");
  CHECK_FALSE(dispatch.selector);

  CHECK_FALSE(p.kueue.declared);
  CHECK(p.kueue.namespace_name.value == "kueue-system");
  REQUIRE(p.kueue.integrations.size() == 1);
  CHECK(p.kueue.integrations[0].value == "batch/job");
  CHECK(p.kueue.multikueue.dispatcher.value.kueue_name() == "kueue.x-k8s.io/multikueue-dispatcher-all-at-once");
  CHECK(p.kueue.multikueue.origin.value == "multikueue");
  CHECK(p.kueue.multikueue.step.value == 3);
  CHECK(p.implicit_cohorts.empty());
}

TEST_CASE("binder fills mkq's defaults from the declaration's name", "[sema][bind][model]") {
  const Block worker("worker", {"east"});
  const Block dispatch = Block("dispatch", {"to-east"}).set("queues", strings({"cq2"})).set("workers", strings({"east"}));
  const Block cq = Block("clusterqueue", {"cq2"}).add(quota("f", {{"cpu", num("1")}}));
  const Result r = run(with_base({worker, cq, dispatch}));
  INFO(r.summary());
  REQUIRE(r.model);
  const model::Worker& east = *r.model->find_worker("east");
  CHECK(east.connection.context.value == "east");
  CHECK(east.connection.context.range == worker.label());
  CHECK_FALSE(east.connection.kubeconfig);
  CHECK(east.secret_name.value == "east-kubeconfig");
  CHECK(east.credentials.cluster_profile.value == "east");
  CHECK(east.credentials.range == worker.label());
  const model::Dispatch& d = *r.model->find_dispatch("to-east");
  CHECK(d.config_name.value == "to-east");
  CHECK(d.config_name.range == dispatch.label());
  CHECK(r.model->find_cluster_queue("cq2")->worker_name.value == "cq2");
}

TEST_CASE("binder sorts every collection", "[sema][bind][model]") {
  std::vector<Block> blocks;
  blocks.push_back(Block("worker", {"zeta"}));
  blocks.push_back(Block("manager", {"hub"}));
  blocks.push_back(Block("worker", {"alpha"}));
  blocks.push_back(Block("flavor", {"z"}));
  blocks.push_back(Block("flavor", {"a"}));
  blocks.push_back(Block("clusterqueue", {"q2"})
                       .add(quota("a", {{"cpu", num("1")}}))
                       .add(Block("localqueue", {"b"}).in("ns2"))
                       .add(Block("localqueue", {"a"}).in("ns2")));
  blocks.push_back(Block("clusterqueue", {"q1"}).add(quota("z", {{"cpu", num("1")}})));
  blocks.push_back(Block("localqueue", {"z"}).in("ns1").set("clusterqueue", str("q1")));
  blocks.push_back(Block("access", {"b"}).in("ns1").set("role", str("batch-user")));
  blocks.push_back(Block("access", {"a"}).in("ns2").set("role", str("batch-user")));
  blocks.push_back(Block("access", {"c"}).set("role", str("batch-admin")));
  blocks.push_back(Block("priorityclass", {"low"}).set("value", num("1")));
  blocks.push_back(Block("priorityclass", {"high"}).set("value", num("100")));
  blocks.push_back(Block("namespace", {"ns2"}));
  blocks.push_back(Block("namespace", {"ns1"}));
  blocks.push_back(Block("dispatch", {"second"}).set("queues", strings({"q2"})).set("workers", strings({"zeta", "alpha"})));
  blocks.push_back(Block("dispatch", {"first"}).set("queues", strings({"q1"})).set("workers", strings({"alpha"})));
  const Result r = run(policy(blocks));
  INFO(r.summary());
  REQUIRE(r.model);
  const model::Policy& p = *r.model;
  const auto names = [](const auto& items) {
    std::vector<std::string> result;
    for (const auto& item : items) result.push_back(item.name);
    return result;
  };
  CHECK(names(p.workers) == std::vector<std::string>{"alpha", "zeta"});
  CHECK(names(p.flavors) == std::vector<std::string>{"a", "z"});
  CHECK(names(p.cluster_queues) == std::vector<std::string>{"q1", "q2"});
  CHECK(names(p.local_queues) == std::vector<std::string>{"z", "a", "b"});
  CHECK(names(p.access) == std::vector<std::string>{"c", "b", "a"});
  CHECK(names(p.priority_classes) == std::vector<std::string>{"high", "low"});
  CHECK(names(p.namespaces) == std::vector<std::string>{"ns1", "ns2"});
  CHECK(names(p.dispatches) == std::vector<std::string>{"first", "second"});
  // Dispatch order is the written order, not sorted.
  CHECK(p.find_dispatch("second")->workers[0].name == "zeta");
  CHECK(p.find_priority_class("high")->value.value == 100);
  CHECK(p.find_local_queue("ns2", "b") != nullptr);
  CHECK(p.find_local_queue("ns1", "b") == nullptr);
  CHECK(p.local_queues_of("q2").size() == 2);
  CHECK(p.find_worker("nope") == nullptr);
}

TEST_CASE("binder binds every clusterqueue and localqueue field", "[sema][bind][model]") {
  const Block cq = Block("clusterqueue", {"full"})
                       .set("namespaces", map({{"team", str("ml")}}))
                       .set("cohort", str("org"))
                       .set("queueing_strategy", str("StrictFIFO"))
                       .set("stop_policy", str("Hold"))
                       .set("worker_name", str("full-remote"))
                       .add(quota("f", {{"cpu", num("4")}}))
                       .add(Block("preemption")
                                .set("within_cluster_queue", str("LowerPriority"))
                                .set("reclaim_within_cohort", str("Any"))
                                .set("borrow_within_cohort", str("LowerPriority"))
                                .set("borrow_max_priority_threshold", num("100")))
                       .add(Block("fair_sharing").set("weight", num("2")))
                       .add(Block("flavor_fungibility")
                                .set("when_can_borrow", str("TryNextFlavor"))
                                .set("when_can_preempt", str("TryNextFlavor"))
                                .set("preference", str("PreemptionOverBorrowing")))
                       .add(Block("localqueue", {"lq"})
                                .in("ml")
                                .set("stop_policy", str("HoldAndDrain"))
                                .add(Block("fair_sharing").set("weight", num("500m"))));
  const Block listed = Block("clusterqueue", {"listed"}).set("namespaces", strings({"b", "a"}));
  const Result r = run(with_base({Block("cohort", {"org"}), cq, listed}));
  INFO(r.summary());
  REQUIRE(r.model);
  const model::ClusterQueue& q = *r.model->find_cluster_queue("full");
  CHECK(q.namespaces.kind == model::NamespaceSelection::MatchLabels);
  CHECK(q.namespaces.match_labels == model::Labels{{"team", "ml"}});
  CHECK(q.cohort->name == "org");
  CHECK(q.queueing_strategy->value == model::QueueingStrategy::StrictFIFO);
  CHECK(q.stop_policy->value == model::StopPolicy::Hold);
  CHECK(q.worker_name.value == "full-remote");
  REQUIRE(q.preemption);
  CHECK(q.preemption->within_cluster_queue->value == model::WithinClusterQueuePolicy::LowerPriority);
  CHECK(q.preemption->reclaim_within_cohort->value == model::ReclaimWithinCohortPolicy::Any);
  CHECK(q.preemption->borrow_within_cohort->value == model::BorrowWithinCohortPolicy::LowerPriority);
  CHECK(q.preemption->borrow_max_priority_threshold->value == 100);
  CHECK(q.preemption->range == cq.nested(1).range);
  CHECK(q.fair_sharing_weight->value.to_string() == "2");
  REQUIRE(q.flavor_fungibility);
  CHECK(q.flavor_fungibility->preference->value == model::FungibilityPreference::PreemptionOverBorrowing);
  const model::LocalQueue& lq = *r.model->find_local_queue("ml", "lq");
  CHECK(lq.stop_policy->value == model::StopPolicy::HoldAndDrain);
  CHECK(lq.fair_sharing_weight->value.to_string() == "500m");
  CHECK(lq.cluster_queue.name == "full");
  const model::ClusterQueue& l = *r.model->find_cluster_queue("listed");
  CHECK(l.namespaces.kind == model::NamespaceSelection::Names);
  REQUIRE(l.namespaces.names.size() == 2);
  CHECK(l.namespaces.names[0].value == "a");
  CHECK(r.model->find_cohort("org") != nullptr);
}

TEST_CASE("binder binds access, priority classes and namespaces", "[sema][bind][model]") {
  const Block access = Block("access", {"team-users"})
                           .in("team")
                           .set("role", str("batch-user"))
                           .set("users", strings({"alice", "bob"}))
                           .set("groups", strings({"ml"}));
  const Block pc = Block("priorityclass", {"high"}).set("value", num("1000")).set("description", str("urgent"));
  const Block ns = Block("namespace", {"team"}).set("labels", map({{"owner", str("ml")}}));
  const Result r = run(with_base({access, pc, ns}));
  INFO(r.summary());
  REQUIRE(r.model);
  const model::Access& a = r.model->access.at(0);
  CHECK(a.namespace_name->value == "team");
  CHECK(a.role.value == model::AccessRole::BatchUser);
  REQUIRE(a.users.size() == 2);
  CHECK(a.users[1].value == "bob");
  CHECK(a.groups[0].value == "ml");
  CHECK(r.model->find_priority_class("high")->description->value == "urgent");
  CHECK(r.model->find_namespace("team")->labels == model::Labels{{"owner", "ml"}});

  const Block long_description = Block("priorityclass", {"p"}).set("value", num("1")).set("description", str(std::string(2049, 'x')));
  CHECK(run(with_base({long_description})).only(codes::kValueOutOfRange).message ==
        "field 'description' must be no more than 2048 characters, found 2049");
  const Block negative_weight = Block("cohort", {"c"}).add(Block("fair_sharing").set("weight", num("-1")));
  CHECK(run(with_base({negative_weight})).only(codes::kValueOutOfRange).message ==
        "field 'weight' must not be negative, found -1");
}

TEST_CASE("model enums spell Kueue's values", "[sema][bind][model]") {
  CHECK(model::to_string(model::WithinClusterQueuePolicy::LowerOrNewerEqualPriority) == "LowerOrNewerEqualPriority");
  CHECK(model::to_string(model::QueueingStrategy::BestEffortFIFO) == "BestEffortFIFO");
  CHECK(model::to_string(model::TaintEffect::PreferNoSchedule) == "PreferNoSchedule");
  CHECK(model::to_string(model::CredentialsMode::ClusterProfile) == "clusterprofile");
  CHECK(model::from_string("Hold", model::kStopPolicies) == model::StopPolicy::Hold);
  CHECK_FALSE(model::from_string("hold", model::kStopPolicies));
  model::Dispatcher external{model::DispatchMode::External, "example.com/mine"};
  CHECK(external.kueue_name() == "example.com/mine");
  CHECK(external.spelling() == "example.com/mine");
}

}  // namespace bindtest
