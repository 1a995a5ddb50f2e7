// Capacity-aware dispatch (capacity.h): free capacity read from the workers'
// Nodes and Pods, and the MultiKueueConfigs' clusters in that order.
#include "runtime/reconcile/capacity.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace mkq::reconcile {
namespace {

const kube::ResourceType kNodes{"", "v1", "Node", "nodes", false};
const kube::ResourceType kPods{"", "v1", "Pod", "pods", true};

// The value at `path`, or null when any step is missing or not an object:
// live objects are read as they come, never trusted to have a shape.
const Json& at(const Json& object, std::initializer_list<const char*> path) {
  static const Json kNull;
  const Json* here = &object;
  for (const char* key : path) {
    if (!here->is_object()) return kNull;
    const auto found = here->find(key);
    if (found == here->end()) return kNull;
    here = &*found;
  }
  return *here;
}

std::string text_of(const Json& object, std::initializer_list<const char*> path) {
  const Json& value = at(object, path);
  return value.is_string() ? value.get<std::string>() : "";
}

// Each item of the list at `path` (none when it is not a list).
const Json& items_at(const Json& object, std::initializer_list<const char*> path) {
  static const Json kEmpty = Json::array();
  const Json& value = at(object, path);
  return value.is_array() ? value : kEmpty;
}

// What the cluster holds that cannot be counted (a quantity that does not
// parse, a sum out of range): the worker's free amount is unknown.
base::Error uncountable(std::string message) { return base::Error(0, "", std::move(message)); }

// A quantity of a resource map (allocatable, requests, limits, overhead);
// zero when absent, an error when it does not parse.
base::Result<sema::Quantity> quantity_in(const Json& map, const std::string& resource, const std::string& where) {
  if (!map.is_object() || !map.contains(resource)) return sema::Quantity::from_int(0);
  const Json& value = map[resource];
  const std::string text = value.is_string() ? value.get<std::string>() : value.is_number() ? value.dump() : "";
  if (auto quantity = sema::Quantity::parse(text)) return *quantity;
  return uncountable(fmt::format("{} {} is not a quantity: {}", where, resource, value.dump()));
}

base::Result<sema::Quantity> sum(const sema::Quantity& a, const sema::Quantity& b) {
  sema::QuantityError why = sema::QuantityError::None;
  if (auto total = sema::Quantity::add(a, b, &why)) return *total;
  return uncountable(fmt::format("the sum of the quantities: {}", sema::describe(why)));
}

// A node counts when it is Ready and not cordoned.
bool counts(const Json& node) {
  if (at(node, {"spec", "unschedulable"}) == true) return false;
  const Json& conditions = items_at(node, {"status", "conditions"});
  return std::any_of(conditions.begin(), conditions.end(), [](const Json& c) {
    return text_of(c, {"type"}) == "Ready" && text_of(c, {"status"}) == "True";
  });
}

// A container's request of `resource`: its request, else its limit (which
// the API server copies into an unset request of an extended resource).
base::Result<sema::Quantity> container_request(const Json& container, const std::string& resource,
                                               const std::string& where) {
  const Json& requests = at(container, {"resources", "requests"});
  if (requests.is_object() && requests.contains(resource)) return quantity_in(requests, resource, where);
  return quantity_in(at(container, {"resources", "limits"}), resource, where);
}

// The pod's request as the scheduler counts it (capacity.h).
base::Result<sema::Quantity> pod_request(const Json& pod, const std::string& resource) {
  const std::string where =
      fmt::format("pod {}/{}:", text_of(pod, {"metadata", "namespace"}), text_of(pod, {"metadata", "name"}));
  sema::Quantity containers = sema::Quantity::from_int(0);
  sema::Quantity largest_init = sema::Quantity::from_int(0);
  for (const Json& init : items_at(pod, {"spec", "initContainers"})) {
    const base::Result<sema::Quantity> request = container_request(init, resource, where);
    if (!request) return request.error();
    if (text_of(init, {"restartPolicy"}) == "Always") {  // a sidecar runs beside the containers
      base::Result<sema::Quantity> total = sum(containers, *request);
      if (!total) return total.error();
      containers = *total;
    } else if (request->compare(largest_init) > 0) {
      largest_init = *request;
    }
  }
  for (const Json& container : items_at(pod, {"spec", "containers"})) {
    const base::Result<sema::Quantity> request = container_request(container, resource, where);
    if (!request) return request.error();
    base::Result<sema::Quantity> total = sum(containers, *request);
    if (!total) return total.error();
    containers = *total;
  }
  const sema::Quantity larger = containers.compare(largest_init) >= 0 ? containers : largest_init;
  const base::Result<sema::Quantity> overhead =
      quantity_in(at(pod, {"spec", "overhead"}), resource, fmt::format("{} overhead", where));
  if (!overhead) return overhead.error();
  return sum(larger, *overhead);
}

// What one worker's Nodes and Pods were read as.
struct WorkerRead {
  std::vector<Json> nodes, pods;
};

// Why a worker is not read at all, or nullopt when it is to be read.
std::optional<base::Error> not_read(const Target* target, const ClusterLive* live, bool excluded) {
  const auto because = [](std::string why) { return base::Error(0, "ConnectionFailed", std::move(why)); };
  if (excluded) return base::Error(0, "", "left out of this run (--exclude-cluster)");
  if (live != nullptr && !live->reachable) return because(live->error.empty() ? "unreachable" : live->error);
  if (target == nullptr) return because("not connected");
  if (target->client == nullptr) return because(target->connect_error.empty() ? "not connected" : target->connect_error);
  return std::nullopt;
}

base::Result<WorkerRead> read_worker(const Target* target, const ClusterLive* live, bool excluded) {
  if (std::optional<base::Error> why = not_read(target, live, excluded)) return std::move(*why);
  WorkerRead out;
  for (auto [type, into] : {std::pair{&kNodes, &out.nodes}, std::pair{&kPods, &out.pods}}) {
    kube::Result<kube::ObjectList> list = target->client->list(*type, kube::ListOptions{});
    if (!list.ok()) {
      kube::Error& e = list.error();
      e.message = fmt::format("cannot list {}: {}{}", type->plural, e.message,
                              e.status == 403 ? " (mkq needs list on nodes and pods, cluster-wide, on this worker)" : "");
      return std::move(e);
    }
    *into = std::move(list.value().items);
  }
  return out;
}

const Target* target_of(const std::vector<Target>& targets, const std::string& cluster) {
  for (const Target& target : targets) {
    if (target.cluster == cluster) return &target;
  }
  return nullptr;
}

kueue::Object* config_object(kueue::DesiredState& desired, const std::string& name) {
  for (kueue::ClusterObjects& cluster : desired.clusters) {
    if (cluster.role != kueue::ClusterRole::Manager) continue;
    for (kueue::Object& object : cluster.objects) {
      if (object.kind == "MultiKueueConfig" && object.name == name) return &object;
    }
  }
  return nullptr;
}

// The change only moves the same workers around: every differing field is
// under spec.clusters, and what they held is what they hold, in another order.
bool only_reorders(const Change& change) {
  if (change.action != Action::Update || change.repairs_drift || change.fields.empty()) return false;
  std::vector<std::string> before, after;
  const auto add = [](const Json& value, std::vector<std::string>& into) {
    if (value.is_array()) {
      for (const Json& item : value) into.push_back(item.dump());
    } else {
      into.push_back(value.dump());
    }
  };
  for (const FieldDiff& field : change.fields) {
    if (field.path.rfind("spec.clusters", 0) != 0 || !field.before || !field.after) return false;
    add(*field.before, before);
    add(*field.after, after);
  }
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  return before == after;
}

// One worker's free amount of `resource` from what was read, into `free`;
// nullopt (with free.error) when it is unknown.
std::optional<sema::Quantity> measure(const base::Result<WorkerRead>& read, const std::string& resource,
                                      WorkerFree& free) {
  if (!read) {
    free.error = read.error();
    return std::nullopt;
  }
  base::Result<FreeAmount> computed = free_amount(read->nodes, read->pods, resource);
  if (!computed) {
    free.error = std::move(computed.error());
    return std::nullopt;
  }
  free.nodes = computed->nodes;
  free.free = computed->free.to_string();
  return computed->free;
}

}  // namespace

bool DispatchOrder::known() const {
  return std::all_of(workers.begin(), workers.end(), [](const WorkerFree& w) { return !w.error; });
}

base::Result<FreeAmount> free_amount(const std::vector<Json>& nodes, const std::vector<Json>& pods,
                                     const std::string& resource) {
  FreeAmount out;
  out.free = sema::Quantity::from_int(0);
  std::set<std::string> counted;
  for (const Json& node : nodes) {
    if (!counts(node)) continue;
    const std::string name = text_of(node, {"metadata", "name"});
    const base::Result<sema::Quantity> allocatable =
        quantity_in(at(node, {"status", "allocatable"}), resource, fmt::format("node {}: allocatable", name));
    if (!allocatable) return allocatable.error();
    const base::Result<sema::Quantity> total = sum(out.free, *allocatable);
    if (!total) return total.error();
    out.free = *total;
    if (!name.empty()) counted.insert(name);  // an unbound pod's nodeName is "" too
    ++out.nodes;
  }
  for (const Json& pod : pods) {
    const std::string phase = text_of(pod, {"status", "phase"});
    if (phase == "Succeeded" || phase == "Failed") continue;
    if (counted.count(text_of(pod, {"spec", "nodeName"})) == 0) continue;  // unbound, or on a node not counted
    const base::Result<sema::Quantity> request = pod_request(pod, resource);
    if (!request) return request.error();
    sema::QuantityError why = sema::QuantityError::None;
    const auto left = sema::Quantity::subtract(out.free, *request, &why);
    if (!left) return base::Error(0, "", fmt::format("the free amount: {}", sema::describe(why)));
    out.free = *left;
  }
  return out;
}

std::vector<DispatchOrder> order_by_free_capacity(const sema::model::Policy& policy, kueue::DesiredState& desired,
                                                  const std::vector<Target>& targets, const LiveState& live,
                                                  const std::vector<std::string>& excluded) {
  std::vector<DispatchOrder> out;
  std::map<std::string, base::Result<WorkerRead>> read;  // each worker once, whatever the number of dispatches
  for (const sema::model::Dispatch& dispatch : policy.dispatches) {
    if (!dispatch.selector || dispatch.selector->order.value != sema::model::WorkerOrder::MostFree ||
        !dispatch.selector->resource) {
      continue;
    }
    DispatchOrder order;
    order.dispatch = dispatch.name;
    order.config = dispatch.config_name.value;
    order.resource = dispatch.selector->resource->value;
    std::vector<std::pair<std::optional<sema::Quantity>, WorkerFree>> ranked;
    for (const sema::model::Ref& worker : dispatch.workers) {
      auto found = read.find(worker.name);
      if (found == read.end()) {
        const bool left_out = std::find(excluded.begin(), excluded.end(), worker.name) != excluded.end();
        found = read.emplace(worker.name, read_worker(target_of(targets, worker.name), live.find(worker.name), left_out))
                    .first;
      }
      WorkerFree free{worker.name, "", 0, std::nullopt};
      std::optional<sema::Quantity> amount = measure(found->second, order.resource, free);
      ranked.emplace_back(std::move(amount), std::move(free));
    }
    if (std::all_of(ranked.begin(), ranked.end(), [](const auto& r) { return r.first.has_value(); })) {
      std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        const int by_free = a.first->compare(*b.first);
        return by_free != 0 ? by_free > 0 : a.second.worker < b.second.worker;
      });
      if (kueue::Object* config = config_object(desired, order.config)) {
        Json clusters = Json::array();
        for (const auto& [amount, worker] : ranked) clusters.push_back(worker.worker);
        config->document["spec"]["clusters"] = std::move(clusters);
      }
    }
    for (auto& [amount, worker] : ranked) order.workers.push_back(std::move(worker));
    out.push_back(std::move(order));
  }
  std::sort(out.begin(), out.end(),
            [](const DispatchOrder& a, const DispatchOrder& b) { return a.dispatch < b.dispatch; });
  return out;
}

void note_dispatch_orders(Plan& plan, std::vector<DispatchOrder> orders) {
  for (const DispatchOrder& order : orders) {
    for (ClusterPlan& cluster : plan.clusters) {
      if (cluster.role != kueue::ClusterRole::Manager) continue;
      for (Change& change : cluster.changes) {
        if (change.ref.kind != "MultiKueueConfig" || change.ref.name != order.config) continue;
        if (!order.known()) {
          change.fields.clear();
          if (change.action == Action::NoOp) change.action = Action::Update;
          change.error = "the workers of dispatch '" + order.dispatch + "' cannot be ordered by free " +
                         order.resource + ": not every worker could be read";
          continue;
        }
        if (only_reorders(change)) {
          change.reason = Reason::FreeCapacityOrder;
          change.reason_args.field = order.resource;
        }
      }
    }
  }
  plan.dispatch_orders = std::move(orders);
}

}  // namespace mkq::reconcile
