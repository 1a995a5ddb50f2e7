// Simulated Kueue controllers (see controllers.h). Messages and reasons follow
// Kueue's (pkg/cache/scheduler/clusterqueue.go, localqueue_controller.go,
// admissionchecks/multikueue/{admissioncheck,multikueuecluster}.go) as
// recorded in ../shared/kueue/MULTIKUEUE.md and VALIDATION.md.
#include "sandbox/controllers.h"

#include "sandbox/pki.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "sandbox/kueue_install.h"
#include "sandbox/table.h"
#include "sandbox/yaml.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kClusterProfileGroup = "multicluster.x-k8s.io";
constexpr const char* kClusterProfileGate = "MultiKueueClusterProfile";
constexpr int kProbeTimeoutSeconds = 2;
constexpr int kReprobeSeconds = 5;
// A cluster with more Kueue objects than this, whose last reconcile took
// longer than kSlowReconcile, has the reconcile after a write coalesced with
// the writes that follow it (reconcile_after_write). Below either, every write
// is reconciled at once, so a client sees the status right away.
constexpr std::size_t kCoalesceAbove = 16;
constexpr std::chrono::microseconds kSlowReconcile{500};
constexpr std::chrono::milliseconds kCoalesceWindow{20};

// Go's %v of a []string: [a b c].
std::string go_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? " " : "") + items[i];
  return out + "]";
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
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

std::string name_of(const json& object) { return str(object, {"metadata", "name"}); }

struct Condition {
  bool status = false;
  std::string reason;
  std::string message;
};

// The Active condition's status ("True"/"False"/"") of a stored object.
bool is_active(const json& object) {
  const json conditions = field(object, {"status", "conditions"});
  if (!conditions.is_array()) return false;
  for (const auto& c : conditions) {
    if (c.is_object() && c.value("type", "") == "Active") return c.value("status", "") == "True";
  }
  return false;
}

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

// One Kueue resource's objects as of resourceVersion `rv` (-1: not read yet).
// Reconciling reads only what changed since (the event log), not every object
// again: a burst of writes to a large store would otherwise parse the whole
// store once per reconcile.
struct ResourceView {
  std::int64_t rv = -1;
  std::map<std::string, json> objects;
};

constexpr std::size_t kViewEventBatch = 1000;

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

}  // namespace

bool triggers_controllers(const std::string& group, const std::string& resource, const std::string& ns) {
  if (group == kKueueGroup) return true;
  if (group == kClusterProfileGroup && resource == "clusterprofiles") return ns == kKueueNamespace;
  return group.empty() && resource == "secrets" && ns == kKueueNamespace;
}

// ---- the controllers -----------------------------------------------------------

// What the simulated Kueue read from its configuration when its controller
// manager last started (Controllers::start_kueue).
struct KueueConfiguration {
  bool running = true;  // false: the configuration could not be read, Kueue does not run
  bool cluster_profile_gate = false;  // featureGates.MultiKueueClusterProfile (alpha, off by default)
  std::vector<json> access_providers;  // multiKueue.clusterProfile.accessProviders (or credentialsProviders)
};

// Kueue's reading of its configuration text: nullopt and *error when it cannot start with it.
std::optional<KueueConfiguration> read_configuration(const std::string& text, std::string* error) {
  const auto document = parse_yaml(text, error);
  if (!document) return std::nullopt;
  if (!document->is_object()) {
    *error = "the configuration is not a map of settings";
    return std::nullopt;
  }
  KueueConfiguration out;
  out.cluster_profile_gate = field(*document, {"featureGates", kClusterProfileGate}) == true;
  json providers = field(*document, {"multiKueue", "clusterProfile", "accessProviders"});
  if (!providers.is_array() || providers.empty()) providers = field(*document, {"multiKueue", "clusterProfile", "credentialsProviders"});
  if (providers.is_array()) {
    for (const json& provider : providers) {
      if (provider.is_object()) out.access_providers.push_back(provider);
    }
  }
  return out;
}

struct Controllers::Impl {
  KueueConfiguration kueue;  // under the cluster's lock
  std::function<void()> rerun;
  std::mutex mutex;  // guards the members below (never held with the cluster's lock taken after it)
  std::condition_variable wake;
  bool stopping = false;
  // Per MultiKueueCluster: the kubeconfig to connect with (its JSON text) and
  // the last result for that kubeconfig, if any.
  struct Probe {
    std::string kubeconfig;
    std::optional<ConnectionResult> result;
  };
  std::map<std::string, Probe> probes;
  // Under the cluster's lock: the Kueue objects as the last reconcile left
  // them, per resource, brought up to date from the store's event log.
  std::map<std::string, ResourceView> views;
  std::thread thread;
  bool deferred = false;  // a coalesced reconcile is due (reconcile_after_write)
  // Under the cluster's lock: how long the last reconcile took and when it ended.
  std::size_t last_objects = 0;  // Kueue objects the last reconcile read
  // Atomic: coalesce_delay() also reads it on the controllers' thread.
  std::atomic<std::chrono::steady_clock::rep> last_duration{0};
  std::chrono::steady_clock::time_point last_end{};

  // How long a deferred reconcile waits: at least kCoalesceWindow, and 16
  // times the last reconcile, so that reconciling takes at most a 17th of
  // the cluster's time during a burst of writes.
  std::chrono::steady_clock::duration coalesce_delay() const {
    return std::max<std::chrono::steady_clock::duration>(
        kCoalesceWindow, std::chrono::steady_clock::duration(last_duration.load()) * 16);
  }

  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      bool pending = std::any_of(probes.begin(), probes.end(), [](const auto& p) { return !p.second.result; });
      if (!pending && !deferred) wake.wait_for(lock, std::chrono::seconds(kReprobeSeconds));
      if (stopping) break;
      if (deferred) {
        // Let the burst of writes that asked for it finish, then reconcile once.
        lock.unlock();
        std::this_thread::sleep_for(coalesce_delay());
        lock.lock();
        deferred = false;
        if (stopping) break;
        lock.unlock();
        rerun();
        lock.lock();
        pending = std::any_of(probes.begin(), probes.end(), [](const auto& p) { return !p.second.result; });
        if (!pending) continue;
      }
      const auto snapshot = probes;
      lock.unlock();
      bool changed = false;
      std::map<std::string, ConnectionResult> results;
      for (const auto& [name, probe] : snapshot) {
        const json kubeconfig = json::parse(probe.kubeconfig, nullptr, false);
        results[name] = probe_connection(kubeconfig, kProbeTimeoutSeconds);
      }
      lock.lock();
      for (const auto& [name, result] : results) {
        auto it = probes.find(name);
        if (it == probes.end() || it->second.kubeconfig != snapshot.at(name).kubeconfig) continue;  // changed meanwhile
        if (!it->second.result || !(*it->second.result == result)) changed = true;
        it->second.result = result;
      }
      if (changed && !stopping) {
        lock.unlock();
        rerun();
        lock.lock();
      }
    }
  }

  // Under the cluster's lock: the connection result for a kubeconfig, or
  // nullopt while it is being probed.
  std::optional<ConnectionResult> connection(const std::string& name, const json& kubeconfig) {
    const std::string text = kubeconfig.dump();
    const std::lock_guard<std::mutex> lock(mutex);
    auto& probe = probes[name];
    if (probe.kubeconfig != text) {
      probe.kubeconfig = text;
      probe.result.reset();
      wake.notify_all();
    }
    return probe.result;
  }

  void forget_except(const std::map<std::string, json>& clusters) {
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto it = probes.begin(); it != probes.end();) {
      it = clusters.count(it->first) ? std::next(it) : probes.erase(it);
    }
  }

  // A MultiKueueCluster reached through a ClusterProfile, the gate on: what
  // Kueue's loadClientConfig and the Cluster Inventory API's access library
  // report, up to the exec plugin, which the sandbox never runs.
  Condition cluster_profile_condition(const Store& store, const std::string& name) const {
    const std::string failed = "load client config failed: ";
    const auto profile = store.get({kClusterProfileGroup, "clusterprofiles", kKueueNamespace, name});
    if (!profile) {
      return Condition{false, "BadClusterProfile",
                       failed + "clusterprofiles.multicluster.x-k8s.io \"" + name + "\" not found"};
    }
    if (kueue.access_providers.empty()) return Condition{false, "BadClusterProfile", failed + "no access provider configured"};
    // The profile's providers by name (the deprecated credentialProviders first, accessProviders win).
    std::map<std::string, json> offered;
    for (const char* list : {"credentialProviders", "accessProviders"}) {
      const json providers = field(*profile, {"status", list});
      if (!providers.is_array()) continue;
      for (const json& provider : providers) {
        if (provider.is_object()) offered[provider.value("name", "")] = provider;
      }
    }
    for (const json& provider : kueue.access_providers) {
      const auto match = offered.find(provider.value("name", ""));
      if (match == offered.end()) continue;
      if (!trusted_server(str(match->second, {"cluster", "server"}))) {
        return Condition{false, "BadRestConfig", failed + "untrusted server endpoint"};
      }
      return Condition{false, "ClientConnectionFailed",
                       "the sandbox does not run exec credential plugins: access provider \"" + match->first +
                           "\" (" + str(provider, {"execConfig", "command"}) + ") was not run"};
    }
    return Condition{false, "BadClusterProfile",
                     failed + "no matching cluster accessor found for cluster profile \"" + name + "\""};
  }

  // The MultiKueueCluster's condition; nullopt: unchanged (connection pending).
  std::optional<Condition> cluster_condition(const Store& store, const std::string& name, const json& mkc,
                                             bool* keep_probe) {
    *keep_probe = false;
    const json source = field(mkc, {"spec", "clusterSource"});
    const json legacy = field(mkc, {"spec", "kubeConfig"});  // v1beta1 shape
    json profile_ref = field(source, {"clusterProfileRef"});
    if (!profile_ref.is_object()) profile_ref = field(mkc, {"spec", "clusterProfileRef"});
    if (profile_ref.is_object()) {
      if (!kueue.cluster_profile_gate) {
        return Condition{false, "MultiKueueClusterProfileFeatureDisabled",
                         "load client config failed: MultiKueueClusterProfile feature gate is disabled"};
      }
      return cluster_profile_condition(store, profile_ref.value("name", ""));
    }
    const json kc = field(source, {"kubeConfig"}).is_object() ? field(source, {"kubeConfig"}) : legacy;
    if (!kc.is_object()) return Condition{false, "BadKubeConfig", "load client config failed: no kubeConfig source"};
    const std::string location = kc.value("location", "");
    std::string text;
    if (kc.value("locationType", "Secret") == "Path") {
      const std::string prefix = "/etc/multikueue/kubeconfigs/";
      if (location.rfind(prefix, 0) != 0 || location.find("..") != std::string::npos) {
        return Condition{false, "BadKubeConfig",
                         "load client config failed: kubeconfig path is not under the allowed prefix: " + location};
      }
      std::ifstream in(location);
      if (!in) return Condition{false, "BadKubeConfig", "load client config failed: open " + location + ": no such file or directory"};
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    } else {
      const auto secret = store.get({"", "secrets", kKueueNamespace, location});
      if (!secret) return Condition{false, "BadKubeConfig", "load client config failed: secrets \"" + location + "\" not found"};
      const json data = field(*secret, {"data", "kubeconfig"});
      if (!data.is_string()) {
        return Condition{false, "BadKubeConfig",
                         "load client config failed: key \"kubeconfig\" not found in secret \"" + location + "\""};
      }
      text = base64_decode(data.get<std::string>());
    }
    std::string error;
    const auto kubeconfig = parse_kubeconfig(text, &error);
    if (!kubeconfig) return Condition{false, "InsecureKubeConfig", error};
    const std::string violation = kubeconfig_violation(*kubeconfig);
    if (!violation.empty()) return Condition{false, "InsecureKubeConfig", violation};
    *keep_probe = true;
    const auto result = connection(name, *kubeconfig);
    if (!result) return std::nullopt;
    if (result->ok) return Condition{true, "Active", "Connected"};
    return Condition{false, "ClientConnectionFailed", result->message};
  }
};

Controllers::Controllers(std::function<void()> rerun) : impl_(std::make_unique<Impl>()) {
  impl_->rerun = std::move(rerun);
  impl_->thread = std::thread([this] { impl_->loop(); });
}

Controllers::~Controllers() {
  {
    const std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
}

namespace {

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

}  // namespace

bool Controllers::reconcile_after_write(Store& store) {
  const auto now = std::chrono::steady_clock::now();
  const auto last_duration = std::chrono::steady_clock::duration(impl_->last_duration.load());
  if (impl_->last_objects > kCoalesceAbove && last_duration > kSlowReconcile && now - impl_->last_end < impl_->coalesce_delay() * 2) {
    const std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->deferred = true;
    impl_->wake.notify_all();
    return false;
  }
  return reconcile(store);
}

std::string Controllers::start_kueue(const Store& store) {
  const std::string source = std::string(kKueueNamespace) + "/" + kKueueConfigMapName;
  const auto config_map = store.get({"", "configmaps", kKueueNamespace, kKueueConfigMapName});
  const json text = config_map ? field(*config_map, {"data", kKueueConfigKey}) : json();
  if (!text.is_string()) {
    impl_->kueue = KueueConfiguration{};
    return "Kueue's controller manager started with its default configuration (no " + source + " key " +
           kKueueConfigKey + ")";
  }
  std::string error;
  const std::optional<KueueConfiguration> read = read_configuration(text.get<std::string>(), &error);
  if (!read) {
    impl_->kueue = KueueConfiguration{};
    impl_->kueue.running = false;
    return "Kueue's controller manager cannot start: " + source + ": " + error;
  }
  impl_->kueue = *read;
  std::vector<std::string> providers;
  for (const json& provider : read->access_providers) providers.push_back(provider.value("name", ""));
  return "Kueue's controller manager started with the configuration " + source + " (resourceVersion " +
         str(*config_map, {"metadata", "resourceVersion"}) + "): feature gate " + kClusterProfileGate + "=" +
         (read->cluster_profile_gate ? "true" : "false") + ", ClusterProfile access providers " + go_list(providers);
}

bool Controllers::reconcile(Store& store) {
  if (!impl_->kueue.running) return false;  // its configuration could not be read: no controller runs
  const auto started = std::chrono::steady_clock::now();
  struct Timing {
    Impl& impl;
    std::chrono::steady_clock::time_point started;
    ~Timing() {
      impl.last_end = std::chrono::steady_clock::now();
      impl.last_duration = (impl.last_end - started).count();
    }
  } timing{*impl_, started};
  bool wrote = false;
  // Every write below is mirrored in the views (write_status and
  // reconcile_finalizer change the viewed object, which the store stamps with
  // its new resourceVersion); under the cluster's lock nothing else writes, so
  // at the end the views are current as of the store's resourceVersion.
  auto view = [&](const char* resource) -> std::map<std::string, json>& {
    return up_to_date(store, resource, impl_->views[resource]);
  };
  // Finalizers first: objects they delete are then missing for the others.
  for (const char* resource : {"clusterqueues", "resourceflavors"}) {
    auto& objects = view(resource);
    for (auto it = objects.begin(); it != objects.end();) {
      bool gone = false;
      wrote |= reconcile_finalizer(store, resource, it->second, &gone);
      it = gone ? objects.erase(it) : std::next(it);
    }
  }
  auto& clusters = view("multikueueclusters");
  impl_->forget_except(clusters);
  for (auto& [name, mkc] : clusters) {
    bool keep = false;
    const auto c = impl_->cluster_condition(store, name, mkc, &keep);
    if (!keep) {
      const std::lock_guard<std::mutex> lock(impl_->mutex);
      impl_->probes.erase(name);
    }
    if (c) wrote |= write_status(store, "multikueueclusters", "", mkc, *c);
  }
  const auto& configs = view("multikueueconfigs");
  auto& checks = view("admissionchecks");
  for (auto& [name, ac] : checks) {
    if (str(ac, {"spec", "controllerName"}) != kMultiKueueControllerName) continue;  // no other AC controller here
    wrote |= write_status(store, "admissionchecks", "", ac, admission_check_condition(ac, configs, clusters));
  }
  const auto& flavors = view("resourceflavors");
  const auto& topologies = view("topologies");
  auto& queues = view("clusterqueues");
  for (auto& [name, cq] : queues) {
    wrote |= write_status(store, "clusterqueues", "", cq, cluster_queue_condition(cq, flavors, checks, topologies));
  }
  auto& local_queues = view("localqueues");
  impl_->last_objects = clusters.size() + configs.size() + checks.size() + flavors.size() + topologies.size() +
                        queues.size() + local_queues.size();
  for (auto& [key, lq] : local_queues) {
    const auto it = queues.find(str(lq, {"spec", "clusterQueue"}));
    Condition c{true, "Ready", "Can submit new workloads to localQueue"};
    if (it == queues.end()) c = {false, "ClusterQueueDoesNotExist", "Can't submit new workloads to clusterQueue"};
    else if (!is_active(it->second)) c = {false, "ClusterQueueIsInactive", "Can't submit new workloads to clusterQueue"};
    wrote |= write_status(store, "localqueues", str(lq, {"metadata", "namespace"}), lq, c);
  }
  for (auto& [resource, resource_view] : impl_->views) resource_view.rv = store.current_rv();
  return wrote;
}

}  // namespace mkq::sandbox
