// Nodes' and Pods' printers and field labels (nodes_pods.h), after
// kube-apiserver's pkg/printers/internalversion and the pod and node
// registries' selectable fields.
#include "sandbox/nodes_pods.h"

#include <algorithm>
#include <array>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

bool is_core(const ResourceInfo& info, std::string_view resource) {
  return info.group.empty() && info.resource == resource;
}

json column(const char* name, const char* description, int priority = 0, const char* format = "") {
  return {{"name", name}, {"type", "string"}, {"format", format}, {"description", description}, {"priority", priority}};
}

std::string age_of(const json& object, std::time_t now) {
  const long long created = parse_timestamp(text_at_path(object, ".metadata.creationTimestamp"));
  return created < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - created);
}

std::string or_none(const std::string& text) { return text.empty() ? "<none>" : text; }

// "Ready", "NotReady" or "Unknown" by the Ready condition, ",SchedulingDisabled" when cordoned.
std::string node_status(const json& node) {
  std::string status;
  const json conditions = json_path_first(node, ".status.conditions");
  if (conditions.is_array()) {
    for (const json& condition : conditions) {
      if (!condition.is_object() || condition.value("type", "") != "Ready") continue;
      const std::string value = condition.value("status", "");
      status = value == "True" ? "Ready" : value == "False" ? "NotReady" : "Unknown";
    }
  }
  if (status.empty()) status = "Unknown";
  if (json_path_first(node, ".spec.unschedulable") == true) status += ",SchedulingDisabled";
  return status;
}

// The node-role.kubernetes.io/ROLE labels and kubernetes.io/role, sorted.
std::string node_roles(const json& node) {
  std::set<std::string> roles;
  const json labels = json_path_first(node, ".metadata.labels");
  if (labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {
      constexpr std::string_view prefix = "node-role.kubernetes.io/";
      if (key.rfind(prefix, 0) == 0 && key.size() > prefix.size()) roles.insert(key.substr(prefix.size()));
      if (key == "kubernetes.io/role" && value.is_string() && !value.get<std::string>().empty()) {
        roles.insert(value.get<std::string>());
      }
    }
  }
  std::string out;
  for (const std::string& role : roles) out += (out.empty() ? "" : ",") + role;
  return or_none(out);
}

std::string node_address(const json& node, const char* type) {
  const json addresses = json_path_first(node, ".status.addresses");
  if (addresses.is_array()) {
    for (const json& address : addresses) {
      if (address.is_object() && address.value("type", "") == type) return address.value("address", "");
    }
  }
  return "<none>";
}

json node_cells(const json& node, std::time_t now) {
  return {text_at_path(node, ".metadata.name"),
          node_status(node),
          node_roles(node),
          age_of(node, now),
          text_at_path(node, ".status.nodeInfo.kubeletVersion"),
          node_address(node, "InternalIP"),
          node_address(node, "ExternalIP"),
          or_none(text_at_path(node, ".status.nodeInfo.osImage")),
          or_none(text_at_path(node, ".status.nodeInfo.kernelVersion")),
          or_none(text_at_path(node, ".status.nodeInfo.containerRuntimeVersion"))};
}

// The pod's STATUS: its reason or phase, a container's waiting or terminated
// reason over it, "Terminating" once it is being deleted.
std::string pod_status(const json& pod) {
  std::string status = text_at_path(pod, ".status.reason");
  if (status.empty()) status = text_at_path(pod, ".status.phase");
  const json containers = json_path_first(pod, ".status.containerStatuses");
  if (containers.is_array()) {
    for (const json& container : containers) {
      const std::string waiting = text_at_path(container, ".state.waiting.reason");
      const std::string terminated = text_at_path(container, ".state.terminated.reason");
      if (!waiting.empty()) status = waiting;
      else if (!terminated.empty()) status = terminated;
    }
  }
  if (!text_at_path(pod, ".metadata.deletionTimestamp").empty()) status = "Terminating";
  return status;
}

json pod_cells(const json& pod, std::time_t now) {
  const json containers = json_path_first(pod, ".spec.containers");
  const json statuses = json_path_first(pod, ".status.containerStatuses");
  long long ready = 0;
  long long restarts = 0;
  if (statuses.is_array()) {
    for (const json& status : statuses) {
      if (!status.is_object()) continue;
      if (status.value("ready", false)) ++ready;
      const auto count = status.find("restartCount");
      if (count != status.end() && count->is_number_integer()) restarts += count->get<long long>();
    }
  }
  const std::size_t total = containers.is_array() ? containers.size() : 0;
  std::string gates = "<none>";
  const json readiness = json_path_first(pod, ".spec.readinessGates");
  if (readiness.is_array() && !readiness.empty()) gates = fmt::format("0/{}", readiness.size());
  return {text_at_path(pod, ".metadata.name"),
          fmt::format("{}/{}", ready, total),
          pod_status(pod),
          std::to_string(restarts),
          age_of(pod, now),
          or_none(text_at_path(pod, ".status.podIP")),
          or_none(text_at_path(pod, ".spec.nodeName")),
          or_none(text_at_path(pod, ".status.nominatedNodeName")),
          gates};
}

// A field label: where it lives in the object, and whether it is a boolean
// (absent: "false") or an integer (absent: "0").
struct FieldLabel {
  std::string_view key;
  std::string_view path;
  bool boolean = false;
  bool integer = false;
};

constexpr std::array kPodFields = {
    FieldLabel{"spec.nodeName", ".spec.nodeName"},
    FieldLabel{"spec.restartPolicy", ".spec.restartPolicy"},
    FieldLabel{"spec.schedulerName", ".spec.schedulerName"},
    FieldLabel{"spec.serviceAccountName", ".spec.serviceAccountName"},
    FieldLabel{"spec.hostNetwork", ".spec.hostNetwork", true},
    FieldLabel{"status.phase", ".status.phase"},
    FieldLabel{"status.podIP", ".status.podIP"},
    FieldLabel{"status.nominatedNodeName", ".status.nominatedNodeName"},
};
constexpr std::array kNodeFields = {FieldLabel{"spec.unschedulable", ".spec.unschedulable", true}};
// The other kinds' field labels kube-apiserver serves (its GetAttrs).
constexpr std::array kSecretFields = {FieldLabel{"type", ".type"}};
constexpr std::array kNamespaceFields = {FieldLabel{"status.phase", ".status.phase"}};
// batch/v1 Jobs: the count of succeeded pods (the Job registry's JobToSelectableFields).
constexpr std::array kJobFields = {FieldLabel{"status.successful", ".status.succeeded", false, true}};
constexpr std::array kEventFields = {
    FieldLabel{"involvedObject.kind", ".involvedObject.kind"},
    FieldLabel{"involvedObject.namespace", ".involvedObject.namespace"},
    FieldLabel{"involvedObject.name", ".involvedObject.name"},
    FieldLabel{"involvedObject.uid", ".involvedObject.uid"},
    FieldLabel{"involvedObject.apiVersion", ".involvedObject.apiVersion"},
    FieldLabel{"involvedObject.resourceVersion", ".involvedObject.resourceVersion"},
    FieldLabel{"involvedObject.fieldPath", ".involvedObject.fieldPath"},
    FieldLabel{"reason", ".reason"},
    FieldLabel{"reportingComponent", ".reportingComponent"},
    FieldLabel{"source", ".source.component"},
    FieldLabel{"type", ".type"},
};

template <std::size_t N>
const FieldLabel* find_label(const std::array<FieldLabel, N>& labels, const std::string& key) {
  const auto it = std::find_if(labels.begin(), labels.end(), [&](const FieldLabel& l) { return l.key == key; });
  return it == labels.end() ? nullptr : &*it;
}

}  // namespace

bool has_workload_printer(const ResourceInfo& info) { return is_core(info, "nodes") || is_core(info, "pods"); }

json workload_columns(const ResourceInfo& info) {
  const char* name = "Name must be unique within a namespace.";
  const char* age = "CreationTimestamp is a timestamp representing the server time when this object was created.";
  if (is_core(info, "nodes")) {
    return json::array({column("Name", name, 0, "name"), column("Status", "The status of the node"),
                        column("Roles", "The roles of the node"), column("Age", age),
                        column("Version", "Kubelet Version reported by the node."),
                        column("Internal-IP", "List of addresses reachable to the node.", 1),
                        column("External-IP", "List of addresses reachable to the node.", 1),
                        column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1),
                        column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
                        column("Container-Runtime", "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", 1)});
  }
  return json::array(
      {column("Name", name, 0, "name"),
       column("Ready", "The aggregate readiness state of this pod for accepting traffic."),
       column("Status", "The aggregate status of the containers in this pod."),
       column("Restarts", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted."),
       column("Age", age),
       column("IP", "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.", 1),
       column("Node", "NodeName indicates in which node this pod is scheduled.", 1),
       column("Nominated Node", "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.", 1),
       column("Readiness Gates", "If specified, all readiness gates will be evaluated for pod readiness.", 1)});
}

json workload_cells(const ResourceInfo& info, const json& object, std::time_t now) {
  return is_core(info, "nodes") ? node_cells(object, now) : pod_cells(object, now);
}

bool is_field_label(const ResourceInfo& info, const std::string& key) {
  if (is_core(info, "pods")) return find_label(kPodFields, key) != nullptr;
  if (is_core(info, "nodes")) return find_label(kNodeFields, key) != nullptr;
  if (is_core(info, "secrets")) return find_label(kSecretFields, key) != nullptr;
  if (is_core(info, "namespaces")) return find_label(kNamespaceFields, key) != nullptr;
  if (is_core(info, "events")) return find_label(kEventFields, key) != nullptr;
  if (info.group == "batch" && info.resource == "jobs") return find_label(kJobFields, key) != nullptr;
  return false;
}

std::optional<std::string> field_label_value(const std::string& key, const json& object) {
  const FieldLabel* label = find_label(kPodFields, key);
  if (label == nullptr) label = find_label(kNodeFields, key);
  if (label == nullptr) label = find_label(kSecretFields, key);
  if (label == nullptr) label = find_label(kEventFields, key);
  if (label == nullptr) label = find_label(kJobFields, key);
  if (label == nullptr) return std::nullopt;
  const json value = json_path_first(object, std::string(label->path));
  if (label->boolean) return value == true ? "true" : "false";
  if (label->integer) return value.is_number_integer() ? std::to_string(value.get<std::int64_t>()) : "0";
  return value.is_string() ? value.get<std::string>() : std::string();
}

}  // namespace mkq::sandbox
