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
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "sandbox/daemon_files.h"
#include "sandbox/kueue_install.h"
#include "sandbox/kueue_status.h"
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
      if (!read_text(location, &text)) {
        return Condition{false, "BadKubeConfig",
                         "load client config failed: open " + location + ": no such file or directory"};
      }
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
