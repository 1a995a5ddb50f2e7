// Kueue's status conditions and finalizers, computed from the objects as
// Kueue's controllers compute them (kueue_status.h).
#include "sandbox/kueue_status.h"

#include <algorithm>
#include <ctime>

#include "sandbox/controllers.h"
#include "sandbox/table.h"

namespace mkq::sandbox {

using nlohmann::json;

std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? " " : "") + items[i];
  return out + "]";
}

json field(const json& object, std::initializer_list<const char*> path) {
  const json* at = &object;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return nullptr;
    at = &(*at)[key];
  }
  return *at;
}

std::string str(const json& object, std::initializer_list<const char*> path) {
  const json v = field(object, path);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// The Active condition's status ("True"/"False"/"") of a stored object.
bool is_active(const json& object) {
  const json conditions = field(object, {"status", "conditions"});
  if (!conditions.is_array()) return false;
  for (const auto& c : conditions) {
    if (c.is_object() && c.value("type", "") == "Active") return c.value("status", "") == "True";
  }
  return false;
}

namespace {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string name_of(const json& object) { return str(object, {"metadata", "name"}); }

// Sets the Active condition; false when it is already so (nothing to write).
bool set_active(json& object, const Condition& want) {
  json& conditions = object["status"]["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  const std::string status = want.status ? "True" : "False";
  const json generation = field(object, {"metadata", "generation"});
  for (auto& c : conditions) {
    if (!c.is_object() || c.value("type", "") != "Active") continue;
    if (c.value("status", "") == status && c.value("reason", "") == want.reason && c.value("message", "") == want.message &&
        (generation.is_null() || c.value("observedGeneration", json()) == generation)) {
      return false;
    }
    if (c.value("status", "") != status) c["lastTransitionTime"] = format_timestamp(std::time(nullptr));
    c["status"] = status;
    c["reason"] = want.reason;
    c["message"] = want.message;
    if (!generation.is_null()) c["observedGeneration"] = generation;
    return true;
  }
  json c = {{"type", "Active"}, {"status", status}, {"reason", want.reason}, {"message", want.message},
            {"lastTransitionTime", format_timestamp(std::time(nullptr))}};
  if (!generation.is_null()) c["observedGeneration"] = generation;
  conditions.push_back(c);
  return true;
}

// Objects keyed by name, or NAMESPACE/NAME for namespaced ones.
std::string view_key(const json& object) {
  const std::string ns = str(object, {"metadata", "namespace"});
  return ns.empty() ? name_of(object) : ns + "/" + name_of(object);
}

constexpr std::size_t kViewEventBatch = 1000;

}  // namespace

std::map<std::string, json>& up_to_date(const Store& store, const char* resource, ResourceView& view) {
  if (view.rv < 0 || view.rv < store.oldest_watchable_rv()) {  // first read, or the log no longer reaches back
    view.objects.clear();
    for (auto& object : store.list(kKueueGroup, resource, std::nullopt, "", 0)) {
      const std::string key = view_key(object);  // before the move: json's operator= takes its argument by value
      view.objects[key] = std::move(object);
    }
  } else {
    std::int64_t after = view.rv;
    while (after < store.current_rv()) {
      auto events = store.events_after(kKueueGroup, resource, after, kViewEventBatch);
      for (auto& event : events) {
        const std::string key = view_key(event.object);
        if (event.type == "DELETED") {
          view.objects.erase(key);
        } else {
          view.objects[key] = std::move(event.object);
        }
      }
      if (events.size() < kViewEventBatch) break;
      after = events.back().rv;
    }
  }
  view.rv = store.current_rv();
  return view.objects;
}

bool write_status(Store& store, const char* resource, const std::string& ns, json& object, const Condition& c) {
  if (!set_active(object, c)) return false;
  store.put({kKueueGroup, resource, ns, name_of(object)}, object, "MODIFIED");
  return true;
}

// Adds the resource-in-use finalizer; on an object being deleted removes it
// (and the object, when no finalizer is left). Returns true when it wrote.
bool reconcile_finalizer(Store& store, const char* resource, json& object, bool* gone) {
  *gone = false;
  auto& meta = object["metadata"];
  json finalizers = meta.value("finalizers", json::array());
  if (!finalizers.is_array()) finalizers = json::array();
  const auto it = std::find(finalizers.begin(), finalizers.end(), kResourceInUseFinalizer);
  const ObjectKey key{kKueueGroup, resource, "", name_of(object)};
  if (meta.contains("deletionTimestamp")) {
    if (it == finalizers.end()) return false;
    finalizers.erase(it);
    if (finalizers.empty()) {
      meta.erase("finalizers");
      store.remove(key, object);
      *gone = true;
      return true;
    }
    meta["finalizers"] = finalizers;
    store.put(key, object, "MODIFIED");
    return true;
  }
  if (it != finalizers.end()) return false;
  finalizers.push_back(kResourceInUseFinalizer);
  meta["finalizers"] = finalizers;
  store.put(key, object, "MODIFIED");
  return true;
}

namespace {

struct CheckRef {
  std::string name;
  bool per_flavor = false;
};

std::vector<CheckRef> admission_checks_of(const json& cq) {
  std::vector<CheckRef> out;
  const json strategy = field(cq, {"spec", "admissionChecksStrategy", "admissionChecks"});
  if (strategy.is_array()) {
    for (const auto& ac : strategy) {
      if (!ac.is_object()) continue;
      const json on = ac.value("onFlavors", json::array());
      out.push_back({ac.value("name", ""), on.is_array() && !on.empty()});
    }
  }
  const json flat = field(cq, {"spec", "admissionChecks"});  // v1beta1
  if (flat.is_array()) {
    for (const auto& ac : flat) {
      if (ac.is_string()) out.push_back({ac.get<std::string>(), false});
    }
  }
  return out;
}

}  // namespace

Condition cluster_queue_condition(const json& cq, const std::map<std::string, json>& flavors,
                                  const std::map<std::string, json>& checks, const std::map<std::string, json>& topologies) {
  if (field(cq, {"metadata", "deletionTimestamp"}).is_string()) {
    return {false, "Terminating", "Can't admit new workloads; clusterQueue is terminating"};
  }
  std::vector<std::string> reasons;
  std::vector<std::string> messages;
  const std::string stop = str(cq, {"spec", "stopPolicy"});
  if (!stop.empty() && stop != "None") {
    reasons.push_back("Stopped");
    messages.push_back("is stopped");
  }
  std::vector<std::string> missing_flavors;
  std::vector<std::string> used_flavors;
  for (const auto& group : field(cq, {"spec", "resourceGroups"}).is_array() ? field(cq, {"spec", "resourceGroups"}) : json::array()) {
    for (const auto& f : group.value("flavors", json::array())) {
      const std::string name = f.is_object() ? f.value("name", "") : "";
      if (name.empty()) continue;
      used_flavors.push_back(name);
      if (!flavors.count(name)) missing_flavors.push_back(name);
    }
  }
  if (!missing_flavors.empty()) {
    reasons.push_back("FlavorNotFound");
    messages.push_back("references missing ResourceFlavor(s): " + go_list(missing_flavors));
  }
  std::vector<std::string> missing_checks, inactive_checks, mk_checks, per_flavor_mk;
  for (const auto& ref : admission_checks_of(cq)) {
    const auto it = checks.find(ref.name);
    if (it == checks.end()) {
      missing_checks.push_back(ref.name);
      continue;
    }
    if (!is_active(it->second)) inactive_checks.push_back(ref.name);
    if (str(it->second, {"spec", "controllerName"}) == kMultiKueueControllerName) {
      mk_checks.push_back(ref.name);
      if (ref.per_flavor) per_flavor_mk.push_back(ref.name);
    }
  }
  if (!missing_checks.empty()) {
    reasons.push_back("AdmissionCheckNotFound");
    messages.push_back("references missing AdmissionCheck(s): " + go_list(missing_checks));
  }
  if (!inactive_checks.empty()) {
    reasons.push_back("AdmissionCheckInactive");
    messages.push_back("references inactive AdmissionCheck(s): " + go_list(inactive_checks));
  }
  if (mk_checks.size() > 1) {
    reasons.push_back("MultipleMultiKueueAdmissionChecks");
    messages.push_back("Cannot use multiple MultiKueue AdmissionChecks on the same ClusterQueue, found: " + join(mk_checks, ", "));
  }
  if (!per_flavor_mk.empty()) {
    reasons.push_back("MultiKueueAdmissionCheckAppliedPerFlavor");
    messages.push_back("Cannot specify MultiKueue AdmissionCheck per flavor, found: " + join(per_flavor_mk, ", "));
  }
  if (mk_checks.empty()) {  // isTASViolated skips MultiKueue ClusterQueues
    for (const auto& name : used_flavors) {
      const auto it = flavors.find(name);
      if (it == flavors.end()) continue;
      const std::string topology = str(it->second, {"spec", "topologyName"});
      if (!topology.empty() && !topologies.count(topology)) {
        reasons.push_back("TopologyNotFound");
        messages.push_back("there is no Topology \"" + topology + "\" for TAS flavor \"" + name + "\"");
        break;
      }
    }
  }
  if (reasons.empty()) return {true, "Ready", "Can admit new workloads"};
  return {false, reasons.front(), "Can't admit new workloads: " + join(messages, ", ") + "."};
}

Condition admission_check_condition(const json& ac, const std::map<std::string, json>& configs,
                                    const std::map<std::string, json>& clusters) {
  const json params = field(ac, {"spec", "parameters"});
  const std::string bad = "Cannot load the AdmissionChecks parameters: ";
  if (!params.is_object()) return {false, "BadConfig", bad + "missing parameters reference"};
  const std::string group = params.value("apiGroup", "");
  const std::string kind = params.value("kind", "");
  const std::string name = params.value("name", "");
  if (group != kKueueGroup) return {false, "BadConfig", bad + "wrong group \"" + group + "\", expecting \"kueue.x-k8s.io\": bad parameters reference"};
  if (kind != "MultiKueueConfig") {
    return {false, "BadConfig", bad + "wrong kind \"" + kind + "\", expecting \"MultiKueueConfig\": bad parameters reference"};
  }
  if (name.empty()) return {false, "BadConfig", bad + "empty name: bad parameters reference"};
  const auto config = configs.find(name);
  if (config == configs.end()) return {false, "BadConfig", bad + "multikueueconfigs.kueue.x-k8s.io \"" + name + "\" not found"};
  std::vector<std::string> missing, inactive;
  std::size_t total = 0;
  for (const auto& c : config->second.value("spec", json::object()).value("clusters", json::array())) {
    if (!c.is_string()) continue;
    ++total;
    const auto it = clusters.find(c.get<std::string>());
    if (it == clusters.end()) missing.push_back(c.get<std::string>());
    else if (!is_active(it->second)) inactive.push_back(c.get<std::string>());
  }
  const std::size_t unusable = missing.size() + inactive.size();
  if (unusable == 0) return {true, "Active", "The admission check is active"};
  std::vector<std::string> parts;
  if (!missing.empty()) parts.push_back("Missing clusters: " + go_list(missing));
  if (!inactive.empty()) parts.push_back("Inactive clusters: " + go_list(inactive));
  if (unusable < total) return {true, "SomeActiveClusters", join(parts, ", ")};
  return {false, "NoUsableClusters", join(parts, ", ")};
}

}  // namespace mkq::sandbox
