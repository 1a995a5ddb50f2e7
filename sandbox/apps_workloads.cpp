// ReplicaSets, StatefulSets and DaemonSets: defaults, checks and simulated
// statuses (apps_workloads.h). Defaults are apps/v1's SetDefaults_*, checks
// pkg/apis/apps/validation's, status fields the controllers' (ReplicaSet,
// StatefulSet and DaemonSet controllers of kube-controller-manager).
#include "sandbox/apps_workloads.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <set>

#include <fmt/format.h>

#include "sandbox/json_access.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kApps = "apps";

std::int64_t count_at(const json& object, const char* path, std::int64_t fallback) {
  const json value = json_path_first(object, path);
  return value.is_number_integer() ? value.get<std::int64_t>() : fallback;
}

bool selector_is_empty(const json& selector) {
  const json labels = selector.value("matchLabels", json::object());
  const json expressions = selector.value("matchExpressions", json::array());
  return (!labels.is_object() || labels.empty()) && (!expressions.is_array() || expressions.empty());
}

// kube's FieldValueNotSupported text: `Unsupported value: "x": supported values: "a", "b"`.
FieldError not_supported(const std::string& field, const json& value, std::initializer_list<const char*> supported) {
  std::string list;
  for (const char* item : supported) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", item);
  return {"FieldValueNotSupported", field,
          fmt::format("Unsupported value: {}: supported values: {}", value.is_string() ? value.dump() : value.dump(),
                      list)};
}

bool is_apps(const ResourceInfo& info, const char* resource) {
  return !info.custom && info.group == kApps && info.resource == resource;
}

std::vector<FieldError> validate_stateful_set(const json& object, const json* existing) {
  std::vector<FieldError> errors;
  const json policy = json_path_first(object, ".spec.podManagementPolicy");
  if (policy.is_string() && policy != "OrderedReady" && policy != "Parallel") {
    errors.push_back(not_supported("spec.podManagementPolicy", policy, {"OrderedReady", "Parallel"}));
  }
  const json strategy = json_path_first(object, ".spec.updateStrategy.type");
  if (strategy.is_string() && strategy != "RollingUpdate" && strategy != "OnDelete") {
    errors.push_back(not_supported("spec.updateStrategy.type", strategy, {"RollingUpdate", "OnDelete"}));
  }
  const std::int64_t partition = count_at(object, ".spec.updateStrategy.rollingUpdate.partition", 0);
  if (partition < 0) {
    errors.push_back({"FieldValueInvalid", "spec.updateStrategy.rollingUpdate.partition",
                      fmt::format("Invalid value: {}: must be greater than or equal to 0", partition)});
  }
  if (existing != nullptr) {
    // Only these fields of a StatefulSet's spec may change.
    json before = existing->value("spec", json::object());
    json after = object.value("spec", json::object());
    for (const char* mutable_field : {"replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit",
                                      "persistentVolumeClaimRetentionPolicy", "minReadySeconds"}) {
      if (before.is_object()) before.erase(mutable_field);
      if (after.is_object()) after.erase(mutable_field);
    }
    if (before != after) {
      errors.push_back({"FieldValueForbidden", "spec",
                        "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
                        "'template', 'updateStrategy', 'revisionHistoryLimit', "
                        "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"});
    }
  }
  return errors;
}

std::vector<FieldError> validate_daemon_set(const json& object) {
  std::vector<FieldError> errors;
  const json strategy = json_path_first(object, ".spec.updateStrategy.type");
  if (strategy.is_string() && strategy != "RollingUpdate" && strategy != "OnDelete") {
    errors.push_back(not_supported("spec.updateStrategy.type", strategy, {"RollingUpdate", "OnDelete"}));
  }
  const json unavailable = json_path_first(object, ".spec.updateStrategy.rollingUpdate.maxUnavailable");
  const json surge = json_path_first(object, ".spec.updateStrategy.rollingUpdate.maxSurge");
  const auto zero = [](const json& value) { return value == 0 || value == "0%"; };
  if (strategy == "RollingUpdate" && zero(unavailable) && zero(surge)) {
    errors.push_back({"FieldValueInvalid", "spec.updateStrategy.rollingUpdate.maxUnavailable",
                      fmt::format("Invalid value: {}: may not be 0 when `maxSurge` is 0",
                                  unavailable.is_string() ? unavailable.dump() : unavailable.dump())});
  }
  return errors;
}

// One requirement of a selector's matchExpressions.
bool requirement_matches(const json& requirement, const json& labels) {
  if (!requirement.is_object()) return false;
  const std::string key = requirement.value("key", "");
  const std::string op = requirement.value("operator", "");
  const json values = requirement.value("values", json::array());
  const bool has = labels.is_object() && labels.contains(key);
  const auto listed = [&] {
    return has && values.is_array() && std::find(values.begin(), values.end(), labels[key]) != values.end();
  };
  if (op == "In") return listed();
  if (op == "NotIn") return !listed();
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  return false;
}

// A status with Go's omitempty applied: zero counts left out, except `always`.
json counts(std::initializer_list<std::pair<const char*, std::int64_t>> fields,
            std::initializer_list<const char*> always) {
  json status = json::object();
  for (const auto& [name, value] : fields) {
    const bool kept = std::find_if(always.begin(), always.end(),
                                   [&](const char* a) { return std::string_view(a) == name; }) != always.end();
    if (value != 0 || kept) status[name] = value;
  }
  return status;
}

json replica_set_status(const json& object) {
  const std::int64_t replicas = count_at(object, ".spec.replicas", 1);
  return counts({{"replicas", replicas},
                 {"fullyLabeledReplicas", replicas},
                 {"readyReplicas", replicas},
                 {"availableReplicas", replicas},
                 {"observedGeneration", count_at(object, ".metadata.generation", 1)}},
                {"replicas"});
}

json stateful_set_status(const json& object) {
  const std::int64_t replicas = count_at(object, ".spec.replicas", 1);
  json status = counts({{"observedGeneration", count_at(object, ".metadata.generation", 1)},
                        {"replicas", replicas},
                        {"readyReplicas", replicas},
                        {"currentReplicas", replicas},
                        {"updatedReplicas", replicas},
                        {"availableReplicas", replicas},
                        {"collisionCount", 0}},
                       {"replicas", "availableReplicas", "collisionCount"});
  const std::string revision = fmt::format("{}-{}", text_at_path(object, ".metadata.name"),
                                           template_hash(json_path_first(object, ".spec.template")));
  status["currentRevision"] = revision;
  status["updateRevision"] = revision;
  return status;
}

json daemon_set_status(const json& object, const std::vector<json>& nodes) {
  json node_selector = json_path_first(object, ".spec.template.spec.nodeSelector");
  std::int64_t desired = 0;
  for (const json& node : nodes) {
    const json labels = json_path_first(node, ".metadata.labels");
    bool matches = true;
    if (node_selector.is_object()) {
      for (const auto& [key, value] : node_selector.items()) {
        if (!labels.is_object() || !labels.contains(key) || labels[key] != value) matches = false;
      }
    }
    if (matches) ++desired;
  }
  return counts({{"currentNumberScheduled", desired},
                 {"numberMisscheduled", 0},
                 {"desiredNumberScheduled", desired},
                 {"numberReady", desired},
                 {"observedGeneration", count_at(object, ".metadata.generation", 1)},
                 {"updatedNumberScheduled", desired},
                 {"numberAvailable", desired}},
                {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"});
}

// Whether a Deployment controls this ReplicaSet (its status is the Deployment controller's).
bool controlled_by_deployment(const json& object) {
  const json owners = json_path_first(object, ".metadata.ownerReferences");
  if (!owners.is_array()) return false;
  return std::any_of(owners.begin(), owners.end(), [](const json& owner) {
    return owner.is_object() && owner.value("controller", false) && owner.value("kind", "") == "Deployment";
  });
}

}  // namespace

bool is_apps_workload(const ResourceInfo& info) {
  return is_apps(info, "replicasets") || is_apps(info, "statefulsets") || is_apps(info, "daemonsets");
}

void default_pod_template(json& pod_template) {
  json& pod_spec = child_object(pod_template, "spec");
  set_default(pod_spec, "restartPolicy", "Always");
  set_default(pod_spec, "terminationGracePeriodSeconds", 30);
  set_default(pod_spec, "dnsPolicy", "ClusterFirst");
  set_default(pod_spec, "schedulerName", "default-scheduler");
  set_default(pod_spec, "securityContext", json::object());
}

void default_apps_workload(const ResourceInfo& info, json& object) {
  json& spec = child_object(object, "spec");
  if (is_apps(info, "replicasets")) {
    set_default(spec, "replicas", 1);
  } else if (is_apps(info, "statefulsets")) {
    set_default(spec, "podManagementPolicy", "OrderedReady");
    json& strategy = child_object(spec, "updateStrategy");
    if (!strategy.contains("type") || strategy["type"].is_null() || strategy["type"] == "") {
      strategy["type"] = "RollingUpdate";
      if (!strategy.contains("rollingUpdate") || strategy["rollingUpdate"].is_null()) {
        strategy["rollingUpdate"] = json::object();
      }
    }
    if (strategy["type"] == "RollingUpdate" && strategy.contains("rollingUpdate") &&
        strategy["rollingUpdate"].is_object()) {
      set_default(strategy["rollingUpdate"], "partition", 0);
    }
    json& retention = child_object(spec, "persistentVolumeClaimRetentionPolicy");
    set_default(retention, "whenDeleted", "Retain");
    set_default(retention, "whenScaled", "Retain");
    set_default(spec, "replicas", 1);
    set_default(spec, "revisionHistoryLimit", 10);
  } else if (is_apps(info, "daemonsets")) {
    json& strategy = child_object(spec, "updateStrategy");
    set_default(strategy, "type", "RollingUpdate");
    if (strategy["type"] == "RollingUpdate") {
      json& rolling = child_object(strategy, "rollingUpdate");
      set_default(rolling, "maxUnavailable", 1);
      set_default(rolling, "maxSurge", 0);
    }
    set_default(spec, "revisionHistoryLimit", 10);
  } else {
    return;
  }
  default_pod_template(child_object(spec, "template"));
}

std::vector<FieldError> validate_workload_spec(const json& object, const json* existing, std::string_view kind_word,
                                               bool check_restart_policy) {
  std::vector<FieldError> errors;
  const json replicas = json_path_first(object, ".spec.replicas");
  if (replicas.is_number_integer() && replicas.get<std::int64_t>() < 0) {
    errors.push_back({"FieldValueInvalid", "spec.replicas",
                      fmt::format("Invalid value: {}: must be greater than or equal to 0", replicas.get<std::int64_t>())});
  }
  const json selector = json_path_first(object, ".spec.selector");
  if (!selector.is_object()) {
    errors.push_back({"FieldValueRequired", "spec.selector", "Required value"});
  } else if (selector_is_empty(selector)) {
    errors.push_back({"FieldValueInvalid", "spec.selector",
                      fmt::format("Invalid value: {}: empty selector is invalid for {}", go_label_selector(selector),
                                  kind_word)});
  } else {
    const json labels = json_path_first(object, ".spec.template.metadata.labels");
    if (!label_selector_matches(selector, labels)) {
      errors.push_back({"FieldValueInvalid", "spec.template.metadata.labels",
                        "Invalid value: " + go_string_map(labels) + ": `selector` does not match template `labels`"});
    }
    if (existing != nullptr && kind_word != "statefulset") {  // a StatefulSet's whole spec is checked on its own
      const json before = json_path_first(*existing, ".spec.selector");
      if (before.is_object() && before != selector) {
        errors.push_back({"FieldValueInvalid", "spec.selector",
                          "Invalid value: " + go_label_selector(selector) + ": field is immutable"});
      }
    }
  }
  const json containers = json_path_first(object, ".spec.template.spec.containers");
  if (!containers.is_array() || containers.empty()) {
    errors.push_back({"FieldValueRequired", "spec.template.spec.containers", "Required value"});
  }
  const json restart = json_path_first(object, ".spec.template.spec.restartPolicy");
  if (check_restart_policy && restart.is_string() && restart != "Always") {
    errors.push_back(not_supported("spec.template.spec.restartPolicy", restart, {"Always"}));
  }
  return errors;
}

std::vector<FieldError> validate_apps_workload(const ResourceInfo& info, const json& object, const json* existing) {
  const char* word = is_apps(info, "statefulsets") ? "statefulset" : is_apps(info, "daemonsets") ? "daemonset" : "deployment";
  std::vector<FieldError> errors = validate_workload_spec(object, existing, word, true);
  std::vector<FieldError> own;
  if (is_apps(info, "statefulsets")) own = validate_stateful_set(object, existing);
  if (is_apps(info, "daemonsets")) own = validate_daemon_set(object);
  errors.insert(errors.end(), own.begin(), own.end());
  return errors;
}

bool label_selector_matches(const json& selector, const json& labels) {
  if (!selector.is_object()) return false;
  const json match = selector.value("matchLabels", json::object());
  if (match.is_object()) {
    for (const auto& [key, value] : match.items()) {
      if (!labels.is_object() || !labels.contains(key) || labels[key] != value) return false;
    }
  }
  const json expressions = selector.value("matchExpressions", json::array());
  if (!expressions.is_array()) return false;
  return std::all_of(expressions.begin(), expressions.end(),
                     [&](const json& requirement) { return requirement_matches(requirement, labels); });
}

std::string format_label_selector(const json& selector) {
  if (!selector.is_object()) return "<none>";
  std::vector<std::pair<std::string, std::string>> requirements;  // key, text: selector.String() sorts by key
  const json match = selector.value("matchLabels", json::object());
  if (match.is_object()) {
    for (const auto& [key, value] : match.items()) {
      requirements.emplace_back(key, key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    }
  }
  const json expressions = selector.value("matchExpressions", json::array());
  if (expressions.is_array()) {
    for (const json& requirement : expressions) {
      if (!requirement.is_object()) continue;
      const std::string key = requirement.value("key", "");
      const std::string op = requirement.value("operator", "");
      std::string values;
      for (const json& value : requirement.value("values", json::array())) {
        if (value.is_string()) values += (values.empty() ? "" : ",") + value.get<std::string>();
      }
      if (op == "In") requirements.emplace_back(key, fmt::format("{} in ({})", key, values));
      else if (op == "NotIn") requirements.emplace_back(key, fmt::format("{} notin ({})", key, values));
      else if (op == "Exists") requirements.emplace_back(key, key);
      else if (op == "DoesNotExist") requirements.emplace_back(key, "!" + key);
    }
  }
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [key, text] : requirements) out += (out.empty() ? "" : ",") + text;
  return out.empty() ? "<none>" : out;
}

// Go's %#v of a map[string]string: map[string]string{"a":"b", "c":"d"} (keys sorted).
std::string go_string_map(const json& map) {
  std::string out = "map[string]string{";
  bool first = true;
  if (map.is_object()) {
    for (const auto& [key, value] : map.items()) {  // nlohmann::json keeps keys sorted
      out += (first ? "" : ", ") + json(key).dump() + ":" +
             (value.is_string() ? value.dump() : json(value.dump()).dump());
      first = false;
    }
  }
  return out + "}";
}

// Go's %#v of a metav1.LabelSelector, as kube-apiserver's messages print it.
std::string go_label_selector(const json& selector) {
  const json expressions = selector.value("matchExpressions", json());
  return "v1.LabelSelector{MatchLabels:" + go_string_map(selector.value("matchLabels", json::object())) +
         ", MatchExpressions:" +
         (expressions.is_array() && !expressions.empty() ? expressions.dump()
                                                         : "[]v1.LabelSelectorRequirement(nil)") +
         "}";
}

std::string template_hash(const json& pod_template) {
  std::uint32_t hash = 2166136261U;
  for (const char c : pod_template.dump()) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  static const std::string alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (const char digit : std::to_string(hash))
    out += alphabet[static_cast<std::size_t>(digit) % alphabet.size()];
  return out;
}

bool reconcile_workload_status(Store& store, const std::string& resource) {
  std::vector<json> nodes;
  if (resource == "daemonsets") nodes = store.list("", "nodes", std::nullopt, "", 0);
  bool wrote = false;
  for (json object : store.list(kApps, resource, std::nullopt, "", 0)) {
    const json& meta = object["metadata"];
    if (meta.contains("deletionTimestamp")) continue;
    json status;
    if (resource == "replicasets") {
      if (controlled_by_deployment(object)) continue;
      status = replica_set_status(object);
    } else if (resource == "statefulsets") {
      status = stateful_set_status(object);
    } else if (resource == "daemonsets") {
      status = daemon_set_status(object, nodes);
    } else {
      return false;
    }
    if (object.value("status", json()) == status) continue;
    object["status"] = std::move(status);
    const std::string ns = object["metadata"].value("namespace", "");
    const std::string name = object["metadata"].value("name", "");
    store.put({kApps, resource, ns, name}, object, "MODIFIED");
    wrote = true;
  }
  return wrote;
}

}  // namespace mkq::sandbox
