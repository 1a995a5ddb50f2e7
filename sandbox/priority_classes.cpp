// PriorityClasses (priority_classes.h). The rules and their words are
// kube-apiserver v1.33's: pkg/apis/scheduling/validation,
// pkg/apis/scheduling/v1 (helpers.go, defaults.go), the Priority admission
// plugin (plugin/pkg/admission/priority), the registry's Delete
// (pkg/registry/scheduling/priorityclass/storage) and printPriorityClass.
#include "sandbox/priority_classes.h"

#include <fmt/format.h>

#include "sandbox/prepare.h"
#include "sandbox/responses.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kSchedulingGroup = "scheduling.k8s.io";
constexpr long long kHighestUserDefinablePriority = 1000000000;

struct SystemClass {
  const char* name;
  long long value;
  const char* description;
};

constexpr SystemClass kSystemClasses[] = {
    {"system-node-critical", 2000001000, "Used for system critical pods that must not be moved from their current node."},
    {"system-cluster-critical", 2000000000,
     "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."}};

const SystemClass* system_class(const std::string& name) {
  for (const SystemClass& c : kSystemClasses) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

long long value_of(const json& object) {
  const auto it = object.find("value");
  return it != object.end() && it->is_number_integer() ? it->get<long long>() : 0;
}

bool global_default(const json& object) { return object.value("globalDefault", false); }

std::string name_of(const json& object) {
  const auto meta = object.find("metadata");
  return meta != object.end() && meta->is_object() ? meta->value("name", std::string()) : std::string();
}

// IsKnownSystemPriorityClass's refusal, "" when the class is one of them as it is.
std::string system_class_error(const std::string& name, long long value, bool is_default) {
  const SystemClass* known = system_class(name);
  if (known == nullptr) return fmt::format("{} is not a known system priority class", name);
  if (known->value != value) return fmt::format("value of {} PriorityClass must be {}", name, known->value);
  if (is_default) return fmt::format("globalDefault of {} PriorityClass must be false", name);
  return {};
}

}  // namespace

void default_priority_class(json& priority_class) {
  if (!priority_class.contains("preemptionPolicy") || priority_class["preemptionPolicy"].is_null()) {
    priority_class["preemptionPolicy"] = "PreemptLowerPriority";
  }
}

std::vector<FieldError> validate_priority_class(const json& priority_class, const json* existing) {
  std::vector<FieldError> errors;
  const std::string name = name_of(priority_class);
  const long long value = value_of(priority_class);
  if (name.rfind("system-", 0) == 0) {
    if (const std::string error = system_class_error(name, value, global_default(priority_class)); !error.empty()) {
      errors.push_back({"FieldValueForbidden", "metadata.name",
                        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: " + error});
    }
  } else if (value > kHighestUserDefinablePriority) {
    errors.push_back({"FieldValueForbidden", "value",
                      fmt::format("Forbidden: maximum allowed value of a user defined priority is {}", kHighestUserDefinablePriority)});
  }
  const json policy = priority_class.value("preemptionPolicy", json());
  if (policy.is_string() && policy != "Never" && policy != "PreemptLowerPriority") {
    errors.push_back({"FieldValueNotSupported", "preemptionPolicy",
                      fmt::format("Unsupported value: {}: supported values: \"Never\", \"PreemptLowerPriority\"", go_value(policy))});
  }
  if (existing == nullptr) return errors;
  if (value != value_of(*existing)) errors.push_back({"FieldValueForbidden", "value", "Forbidden: may not be changed in an update."});
  const json old_policy = existing->value("preemptionPolicy", json());
  if (policy != old_policy) {
    errors.push_back({"FieldValueInvalid", "preemptionPolicy", fmt::format("Invalid value: {}: field is immutable", go_value(policy))});
  }
  return errors;
}

std::optional<ApiResponse> admit_priority_class(const ClusterState& state, const json& priority_class, bool create) {
  if (!global_default(priority_class)) return std::nullopt;
  // In a race two defaults may exist: the one with the lowest value counts.
  const json* found = nullptr;
  const auto classes = state.store->list(kSchedulingGroup, "priorityclasses", std::nullopt, "", 0);
  for (const json& other : classes) {
    if (global_default(other) && (found == nullptr || value_of(*found) > value_of(other))) found = &other;
  }
  if (found == nullptr || (!create && name_of(*found) == name_of(priority_class))) return std::nullopt;
  const std::string name = name_of(priority_class);
  return status_error(403, "Forbidden",
                      fmt::format("priorityclasses.{} \"{}\" is forbidden: PriorityClass {} is already marked as default. "
                                  "Only one default can exist",
                                  kSchedulingGroup, name, name_of(*found)),
                      {{"name", name}, {"group", kSchedulingGroup}, {"kind", "priorityclasses"}});
}

std::optional<ApiResponse> refuse_priority_class_delete(const std::string& name) {
  if (system_class(name) == nullptr) return std::nullopt;
  return status_error(403, "Forbidden",
                      fmt::format("priorityclasses.{} \"{}\" is forbidden: this is a system priority class and cannot be deleted",
                                  kSchedulingGroup, name),
                      {{"name", name}, {"group", kSchedulingGroup}, {"kind", "priorityclasses"}});
}

void install_system_priority_classes(ClusterState& state) {
  const ResourceInfo* info = state.registry.find(kSchedulingGroup, "v1", "priorityclasses");
  if (info == nullptr) return;
  for (const SystemClass& c : kSystemClasses) {
    const ObjectKey key{kSchedulingGroup, "priorityclasses", "", c.name};
    if (state.store->exists(key)) continue;
    json object = {{"apiVersion", "scheduling.k8s.io/v1"},
                   {"kind", "PriorityClass"},
                   {"metadata", {{"name", c.name}}},
                   {"value", c.value},
                   {"description", c.description}};
    prepare_new(state, *info, object);
    normalise(*info, object);
    state.store->put(key, object, "ADDED");
  }
}

json priority_class_columns() {
  const auto column = [](const char* name, const char* type, const char* description, const char* format = "") {
    return json{{"name", name}, {"type", type}, {"format", format}, {"description", description}, {"priority", 0}};
  };
  return json::array(
      {column("Name", "string", "Name must be unique within a namespace.", "name"),
       column("Value", "integer", "value represents the integer value of this priority class."),
       column("Global-Default", "boolean", "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class."),
       column("Age", "string", "CreationTimestamp is a timestamp representing the server time when this object was created."),
       column("PreemptionPolicy", "string", "preemptionPolicy is the Policy for preempting pods with lower priority.")});
}

json priority_class_cells(const json& priority_class, std::time_t now) {
  const long long created = parse_timestamp(json_path_first(priority_class, ".metadata.creationTimestamp").is_string()
                                                ? json_path_first(priority_class, ".metadata.creationTimestamp").get<std::string>()
                                                : std::string());
  const json policy = priority_class.value("preemptionPolicy", json());
  return {name_of(priority_class), value_of(priority_class), global_default(priority_class),
          created < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - created),
          policy.is_string() ? policy.get<std::string>() : std::string("<unset>")};
}

}  // namespace mkq::sandbox
