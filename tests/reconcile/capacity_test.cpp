// Capacity-aware dispatch (runtime/reconcile/capacity.h): the free amount of a
// resource from Nodes and Pods, the MultiKueueConfig's clusters in that order,
// and a worker that cannot be read failing its dispatch, never ignored.
#include <catch2/catch.hpp>

#include "runtime/reconcile/capacity.h"
#include "tests/reconcile/plan_test_support.h"

namespace {

namespace kube = mkq::kube;
namespace kueue = mkq::kueue;
namespace reconcile = mkq::reconcile;
namespace model = mkq::sema::model;
using kube::Json;

const kube::ResourceType kNodeType{"", "v1", "Node", "nodes", false};
const kube::ResourceType kPodType{"", "v1", "Pod", "pods", true};

Json node(const std::string& name, const std::string& gpus, bool ready = true, bool cordoned = false) {
  Json n{{"apiVersion", "v1"},
         {"kind", "Node"},
         {"metadata", {{"name", name}}},
         {"status",
          {{"allocatable", {{"cpu", "8"}, {"nvidia.com/gpu", gpus}}},
           {"conditions", Json::array({{{"type", "Ready"}, {"status", ready ? "True" : "False"}}})}}}};
  if (cordoned) n["spec"] = {{"unschedulable", true}};
  return n;
}

Json container(const char* requests, const char* limits = nullptr) {
  Json resources = Json::object();
  if (requests != nullptr) resources["requests"] = {{"nvidia.com/gpu", requests}};
  if (limits != nullptr) resources["limits"] = {{"nvidia.com/gpu", limits}};
  return {{"name", "c"}, {"image", "i"}, {"resources", resources}};
}

Json pod(const std::string& name, const std::string& node_name, const std::string& phase, Json containers,
         Json init = Json::array()) {
  Json spec{{"nodeName", node_name}, {"containers", std::move(containers)}};
  if (!init.empty()) spec["initContainers"] = std::move(init);
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)},
          {"status", {{"phase", phase}}}};
}

std::string free_of(const std::vector<Json>& nodes, const std::vector<Json>& pods) {
  const mkq::base::Result<reconcile::FreeAmount> amount = reconcile::free_amount(nodes, pods, "nvidia.com/gpu");
  return amount ? amount->free.to_string() : "error: " + amount.error().message;
}

// A manager with one MultiKueueConfig "cfg" listing `workers` in name order, and a
// policy whose dispatch "d" orders them by free nvidia.com/gpu.
struct Fleet {
  model::Policy policy;
  kueue::DesiredState desired;
  std::map<std::string, std::unique_ptr<kube::FakeClient>> clients;
  std::vector<reconcile::Target> targets;

  explicit Fleet(const std::vector<std::string>& workers) {
    model::Dispatch dispatch;
    dispatch.name = "d";
    dispatch.config_name = {"cfg", {}};
    model::WorkerSelector selector;
    selector.order = {model::WorkerOrder::MostFree, {}};
    selector.resource = model::Located<std::string>{"nvidia.com/gpu", {}};
    dispatch.selector = selector;
    Json clusters = Json::array();
    for (const std::string& w : workers) {
      dispatch.workers.push_back({w, {}});
      clusters.push_back(w);
      auto client = std::make_unique<kube::FakeClient>();
      client->serve(kNodeType);
      client->serve(kPodType);
      targets.push_back({w, kueue::ClusterRole::Worker, client.get(), ""});
      clients[w] = std::move(client);
    }
    policy.dispatches.push_back(dispatch);
    kueue::ClusterObjects manager;
    manager.cluster = "manager";
    manager.role = kueue::ClusterRole::Manager;
    manager.objects.push_back(plantest::make("kueue.x-k8s.io/v1beta2", "MultiKueueConfig", "cfg", "",
                                             Json{{"spec", {{"clusters", clusters}}}}));
    desired.clusters.push_back(std::move(manager));
  }

  Json clusters() const { return desired.clusters[0].objects[0].document["spec"]["clusters"]; }
};

}  // namespace

TEST_CASE("free capacity: allocatable of Ready schedulable nodes minus requests of unfinished pods", "[reconcile][capacity]") {
  const std::vector<Json> nodes = {node("a", "8"), node("b", "4"), node("down", "8", false),
                                   node("cordoned", "8", true, true)};
  CHECK(free_of(nodes, {}) == "12");
  const std::vector<Json> pods = {
      pod("running", "a", "Running", Json::array({container("2"), container("1")})),
      pod("pending-bound", "b", "Pending", Json::array({container("1")})),
      pod("done", "a", "Succeeded", Json::array({container("4")})),
      pod("failed", "a", "Failed", Json::array({container("4")})),
      pod("unbound", "", "Pending", Json::array({container("4")})),
      pod("on-a-down-node", "down", "Running", Json::array({container("4")})),
      pod("limit-only", "a", "Running", Json::array({container(nullptr, "2")})),
  };
  CHECK(free_of(nodes, pods) == "6");  // 12 - 3 - 1 - 2
}

TEST_CASE("free capacity: init containers count as the scheduler counts them", "[reconcile][capacity]") {
  Json sidecar = container("1");
  sidecar["restartPolicy"] = "Always";
  const std::vector<Json> nodes = {node("a", "8")};
  // An init container asking more than the containers sets the pod's request.
  CHECK(free_of(nodes, {pod("p", "a", "Running", Json::array({container("1")}), Json::array({container("5")}))}) == "3");
  // A sidecar adds to the containers.
  CHECK(free_of(nodes, {pod("p", "a", "Running", Json::array({container("2")}), Json::array({sidecar}))}) == "5");
  // Overcommitted: free goes below zero, as it is.
  CHECK(free_of(nodes, {pod("p", "a", "Running", Json::array({container("9")}))}) == "-1");
}

TEST_CASE("free capacity: a value that is not a quantity is an error, not zero", "[reconcile][capacity][errors]") {
  CHECK(free_of({node("a", "lots")}, {}) == "error: node a: allocatable nvidia.com/gpu is not a quantity: \"lots\"");
  CHECK(free_of({node("a", "8")}, {pod("p", "a", "Running", Json::array({container("two")}))}) ==
        "error: pod default/p: nvidia.com/gpu is not a quantity: \"two\"");
  // Objects of an odd shape are read as far as they go, never trusted.
  CHECK(free_of({Json{{"metadata", {{"name", "odd"}}}, {"status", "x"}}, Json::array({1})}, {Json{{"spec", 3}}}) == "0");
}

TEST_CASE("capacity order: most free first, ties by name, written into the MultiKueueConfig", "[reconcile][capacity]") {
  Fleet fleet({"w0", "w4", "w8", "x4"});
  fleet.clients["w8"]->put(node("n", "8"));
  fleet.clients["w4"]->put(node("n", "8"));
  fleet.clients["w4"]->put(pod("p", "n", "Running", Json::array({container("4")})));
  fleet.clients["x4"]->put(node("n", "4"));
  fleet.clients["w0"]->put(node("n", "2"));
  fleet.clients["w0"]->put(pod("p", "n", "Running", Json::array({container("2")})));
  const auto orders = reconcile::order_by_free_capacity(fleet.policy, fleet.desired, fleet.targets, {}, {});
  REQUIRE(orders.size() == 1);
  const reconcile::DispatchOrder& order = orders[0];
  CHECK(order.known());
  CHECK(order.config == "cfg");
  CHECK(order.resource == "nvidia.com/gpu");
  std::vector<std::string> listed;
  for (const auto& w : order.workers) listed.push_back(w.worker + "=" + w.free);
  CHECK(listed == std::vector<std::string>{"w8=8", "w4=4", "x4=4", "w0=0"});
  CHECK(fleet.clusters() == Json::array({"w8", "w4", "x4", "w0"}));
  // One LIST of nodes and one of pods per worker.
  CHECK(fleet.clients["w8"]->calls().size() == 2);
}

TEST_CASE("capacity order: a worker that cannot be read leaves the order unknown", "[reconcile][capacity][errors]") {
  Fleet fleet({"a", "b", "c"});
  fleet.clients["a"]->put(node("n", "1"));
  fleet.clients["c"]->put(node("n", "9"));
  fleet.clients["b"]->fail_when([](const std::string& call) -> std::optional<kube::Error> {
    if (call.find("/pods") == std::string::npos) return std::nullopt;
    return kube::Error{403, "Forbidden", "pods is forbidden: User \"x\" cannot list resource \"pods\"", nullptr};
  });
  reconcile::LiveState live;
  live.clusters.push_back({"d-unreachable", false, "connection refused", {}, {}, {}, {}});
  fleet.policy.dispatches[0].workers.push_back({"d-unreachable", {}});
  auto orders = reconcile::order_by_free_capacity(fleet.policy, fleet.desired, fleet.targets, live, {"c"});
  REQUIRE(orders.size() == 1);
  CHECK_FALSE(orders[0].known());
  CHECK(orders[0].workers[0].free == "1");
  REQUIRE(orders[0].workers[1].error);
  CHECK(orders[0].workers[1].error->status == 403);
  CHECK(orders[0].workers[1].error->message ==
        "cannot list pods: pods is forbidden: User \"x\" cannot list resource \"pods\" (mkq needs list on nodes and "
        "pods, cluster-wide, on this worker)");
  REQUIRE(orders[0].workers[2].error);
  CHECK(orders[0].workers[2].error->message == "left out of this run (--exclude-cluster)");
  REQUIRE(orders[0].workers[3].error);
  CHECK(orders[0].workers[3].error->message == "connection refused");  // refresh found it unreachable: not tried again
  CHECK(fleet.clusters() == Json::array({"a", "b", "c"}));  // left as compiled

  // The plan: the MultiKueueConfig's change fails, even where nothing else differs.
  reconcile::Plan plan;
  reconcile::ClusterPlan manager;
  manager.cluster = "manager";
  manager.role = kueue::ClusterRole::Manager;
  reconcile::Change config;
  config.ref = kueue::ref("manager", fleet.desired.clusters[0].objects[0]);
  config.action = reconcile::Action::NoOp;
  manager.changes.push_back(config);
  plan.clusters.push_back(manager);
  reconcile::note_dispatch_orders(plan, std::move(orders));
  const reconcile::Change& noted = plan.clusters[0].changes[0];
  CHECK(noted.action == reconcile::Action::Update);
  CHECK(noted.error == "the workers of dispatch 'd' cannot be ordered by free nvidia.com/gpu: not every worker could be read");
  CHECK(plan.dispatch_orders.size() == 1);
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("# dispatch d: workers by free nvidia.com/gpu, most first (order unknown)\n"
                  "  a: 1 nvidia.com/gpu free (1 node)\n"
                  "  b: cannot be read: cannot list pods: ") != std::string::npos);
}

TEST_CASE("capacity order: a change that only reorders says why", "[reconcile][capacity]") {
  reconcile::Plan plan;
  reconcile::ClusterPlan manager;
  manager.cluster = "manager";
  manager.role = kueue::ClusterRole::Manager;
  reconcile::Change reorder;
  reorder.ref = {"manager", "kueue.x-k8s.io/v1beta2", "MultiKueueConfig", "", "cfg"};
  reorder.action = reconcile::Action::Update;
  reorder.reason = reconcile::Reason::PolicyChanged;
  reorder.fields.push_back({"spec.clusters[0]", Json("a"), Json("b")});
  reorder.fields.push_back({"spec.clusters[1]", Json("b"), Json("a")});
  reconcile::Change grown = reorder;
  grown.ref.name = "other";
  grown.fields.push_back({"spec.clusters[2]", std::nullopt, Json("c")});
  manager.changes = {reorder, grown};
  plan.clusters.push_back(manager);
  reconcile::DispatchOrder known{"d", "cfg", "nvidia.com/gpu", {{"b", "3", 1, std::nullopt}, {"a", "1", 1, std::nullopt}}};
  reconcile::DispatchOrder other{"e", "other", "nvidia.com/gpu", {{"a", "1", 1, std::nullopt}}};
  reconcile::note_dispatch_orders(plan, {known, other});
  CHECK(reconcile::reason_text(plan.clusters[0].changes[0]) == "workers reordered by free nvidia.com/gpu");
  CHECK(plan.clusters[0].changes[0].error.empty());
  CHECK(plan.clusters[0].changes[1].reason == reconcile::Reason::PolicyChanged);  // a worker added: the policy's doing
  const std::string text = reconcile::render_text(plan, false);
  CHECK(text.find("# dispatch d: workers by free nvidia.com/gpu, most first\n"
                  "  b: 3 nvidia.com/gpu free (1 node)\n"
                  "  a: 1 nvidia.com/gpu free (1 node)\n") != std::string::npos);
  // --format json carries the orders, and reads them back.
  const Json json = reconcile::render_json(plan);
  CHECK(json["dispatch_orders"][0]["workers"][0] == Json{{"name", "b"}, {"free", "3"}, {"nodes", 1}, {"error", ""}});
  CHECK(reconcile::render_json(*reconcile::plan_from_json(json)) == json);
}
