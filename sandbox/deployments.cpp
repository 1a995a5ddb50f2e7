// Deployments: defaults, checks and the simulated controller (deployments.h).
// Status fields, condition reasons and messages are the deployment
// controller's (k8s.io/kubernetes pkg/controller/deployment, util/deployment).
#include "sandbox/deployments.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kRevisionAnnotation = "deployment.kubernetes.io/revision";

json at(const json& object, std::initializer_list<const char*> path) {
  const json* node = &object;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &(*node)[key];
  }
  return *node;
}

std::int64_t integer(const json& value, std::int64_t fallback) {
  return value.is_number_integer() ? value.get<std::int64_t>() : fallback;
}

void set_default(json& object, const char* key, const json& value) {
  if (!object.contains(key) || object[key].is_null()) object[key] = value;
}

// The pod-template-hash of a template: FNV-1a (32 bits) of its JSON, its
// decimal digits spelled in Kubernetes' safe alphabet (rand.SafeEncodeString).
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

// A percentage or count of `replicas` (intstr), rounded up (maxSurge) or down (maxUnavailable).
std::int64_t scaled(const json& value, std::int64_t replicas, bool round_up) {
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (!text.empty() && text.back() == '%') {
      const std::int64_t percent = std::stoll(text.substr(0, text.size() - 1));
      return round_up ? (replicas * percent + 99) / 100 : replicas * percent / 100;
    }
  }
  return round_up ? 1 : 0;
}

struct Counts {
  std::int64_t replicas = 0, updated = 0, ready = 0, available = 0;
};

// Sets (or keeps) one condition; lastTransitionTime changes with the status only.
void set_condition(json& conditions, const std::string& type, const std::string& status,
                   const std::string& reason, const std::string& message, const std::string& now) {
  for (json& condition : conditions) {
    if (condition.value("type", "") != type) continue;
    if (condition.value("status", "") != status) condition["lastTransitionTime"] = now;
    if (condition.value("reason", "") != reason || condition.value("message", "") != message) {
      condition["lastUpdateTime"] = now;
    }
    condition["status"] = status;
    condition["reason"] = reason;
    condition["message"] = message;
    return;
  }
  conditions.push_back({{"type", type},
                        {"status", status},
                        {"lastUpdateTime", now},
                        {"lastTransitionTime", now},
                        {"reason", reason},
                        {"message", message}});
}

// The status the controller writes for `counts` (zero counts omitted, as Go's omitempty does).
json status_of(const json& deployment, std::int64_t generation, const Counts& counts,
               const std::string& progressing_reason, const std::string& progressing_message,
               const std::string& progressing_status) {
  const std::int64_t wanted = integer(at(deployment, {"spec", "replicas"}), 1);
  const std::int64_t max_unavailable =
      scaled(at(deployment, {"spec", "strategy", "rollingUpdate", "maxUnavailable"}), wanted, false);
  json status = json::object();
  status["observedGeneration"] = generation;
  if (counts.replicas > 0) status["replicas"] = counts.replicas;
  if (counts.updated > 0) status["updatedReplicas"] = counts.updated;
  if (counts.ready > 0) status["readyReplicas"] = counts.ready;
  if (counts.available > 0) status["availableReplicas"] = counts.available;
  if (counts.replicas - counts.available > 0)
    status["unavailableReplicas"] = counts.replicas - counts.available;
  json conditions = at(deployment, {"status", "conditions"});
  if (!conditions.is_array()) conditions = json::array();
  const std::string now = format_timestamp(std::time(nullptr));
  if (counts.available >= wanted - max_unavailable) {
    set_condition(conditions, "Available", "True", "MinimumReplicasAvailable",
                  "Deployment has minimum availability.", now);
  } else {
    set_condition(conditions, "Available", "False", "MinimumReplicasUnavailable",
                  "Deployment does not have minimum availability.", now);
  }
  set_condition(conditions, "Progressing", progressing_status, progressing_reason, progressing_message, now);
  status["conditions"] = conditions;
  return status;
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

// Go's %#v of a metav1.LabelSelector, as kube-apiserver's immutability message prints it.
std::string go_label_selector(const json& selector) {
  const json expressions = selector.value("matchExpressions", json());
  return "v1.LabelSelector{MatchLabels:" + go_string_map(selector.value("matchLabels", json::object())) +
         ", MatchExpressions:" +
         (expressions.is_array() && !expressions.empty() ? expressions.dump()
                                                         : "[]v1.LabelSelectorRequirement(nil)") +
         "}";
}

}  // namespace

void default_deployment(json& deployment) {
  json& spec = deployment["spec"];
  if (!spec.is_object()) spec = json::object();
  set_default(spec, "replicas", 1);
  json& strategy = spec["strategy"];
  if (!strategy.is_object()) strategy = json::object();
  set_default(strategy, "type", "RollingUpdate");
  if (strategy["type"] == "RollingUpdate") {
    json& rolling = strategy["rollingUpdate"];
    if (!rolling.is_object()) rolling = json::object();
    set_default(rolling, "maxUnavailable", "25%");
    set_default(rolling, "maxSurge", "25%");
  }
  set_default(spec, "revisionHistoryLimit", 10);
  set_default(spec, "progressDeadlineSeconds", 600);
  json& pod_template = spec["template"];
  if (!pod_template.is_object()) pod_template = json::object();
  json& pod_spec = pod_template["spec"];
  if (!pod_spec.is_object()) pod_spec = json::object();
  set_default(pod_spec, "restartPolicy", "Always");
  set_default(pod_spec, "terminationGracePeriodSeconds", 30);
  set_default(pod_spec, "dnsPolicy", "ClusterFirst");
  set_default(pod_spec, "schedulerName", "default-scheduler");
  set_default(pod_spec, "securityContext", json::object());
}

std::vector<FieldError> validate_deployment(const json& deployment, const json* existing) {
  std::vector<FieldError> errors;
  const json selector = at(deployment, {"spec", "selector"});
  if (!selector.is_object() || selector.empty()) {
    errors.push_back({"FieldValueRequired", "spec.selector", "Required value"});
  } else {
    json match = selector.value("matchLabels", json::object());
    if (!match.is_object()) match = json::object();
    const json labels = at(deployment, {"spec", "template", "metadata", "labels"});
    bool matches = !match.empty();
    for (const auto& [key, value] : match.items()) {
      if (!labels.is_object() || !labels.contains(key) || labels[key] != value) matches = false;
    }
    if (!matches) {
      errors.push_back(
          {"FieldValueInvalid", "spec.template.metadata.labels",
           "Invalid value: " + go_string_map(labels) + ": `selector` does not match template `labels`"});
    }
    if (existing != nullptr) {
      const json before = at(*existing, {"spec", "selector"});
      if (before.is_object() && before != selector) {
        errors.push_back({"FieldValueInvalid", "spec.selector",
                          "Invalid value: " + go_label_selector(selector) + ": field is immutable"});
      }
    }
  }
  const json containers = at(deployment, {"spec", "template", "spec", "containers"});
  if (!containers.is_array() || containers.empty()) {
    errors.push_back({"FieldValueRequired", "spec.template.spec.containers", "Required value"});
  }
  return errors;
}

struct DeploymentController::Impl {
  // What the controller knows of one Deployment's pods.
  struct Rollout {
    std::string template_hash;  // of the template its newest pods run
    bool in_progress = false;   // the new pods are not available yet
    Clock::time_point due{};    // when they will be
  };

  std::function<void()> rerun;
  std::chrono::milliseconds delay;
  std::mutex mutex;  // guards rollouts and stopping (never held while taking the cluster's lock)
  std::condition_variable wake;
  std::map<std::string, Rollout> rollouts;  // NAMESPACE/NAME
  bool stopping = false;
  std::thread thread;

  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      std::optional<Clock::time_point> next;
      for (const auto& [key, rollout] : rollouts) {
        if (rollout.in_progress && (!next || rollout.due < *next)) next = rollout.due;
      }
      if (!next) {
        wake.wait(lock);
        continue;
      }
      if (Clock::now() < *next) {
        wake.wait_until(lock, *next);
        continue;
      }
      lock.unlock();
      rerun();
      lock.lock();
      // A rerun that found nothing due (a Deployment deleted meanwhile) must not spin.
      for (auto& [key, rollout] : rollouts) {
        if (rollout.in_progress && rollout.due <= Clock::now()) rollout.due = Clock::now() + delay;
      }
    }
  }
};

DeploymentController::DeploymentController(std::function<void()> rerun, std::chrono::milliseconds delay)
    : impl_(std::make_unique<Impl>()) {
  impl_->rerun = std::move(rerun);
  impl_->delay = delay;
  impl_->thread = std::thread([this] { impl_->loop(); });
}

DeploymentController::~DeploymentController() {
  {
    const std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::vector<std::string> DeploymentController::reconcile(Store& store, bool* wrote) {
  std::vector<std::string> completed;
  *wrote = false;
  const std::lock_guard<std::mutex> lock(impl_->mutex);
  std::map<std::string, Impl::Rollout> seen;
  for (json deployment : store.list(kAppsGroup, "deployments", std::nullopt, "", 0)) {
    json& meta = deployment["metadata"];
    const std::string ns = meta.value("namespace", "");
    const std::string name = meta.value("name", "");
    const std::string key = ns + "/" + name;
    if (meta.contains("deletionTimestamp")) continue;
    const std::int64_t generation = integer(meta.value("generation", json()), 1);
    const std::int64_t observed = integer(at(deployment, {"status", "observedGeneration"}), 0);
    const std::int64_t wanted = integer(at(deployment, {"spec", "replicas"}), 1);
    const std::string hash = template_hash(at(deployment, {"spec", "template"}));
    const std::string replica_set = "ReplicaSet \"" + name + "-" + hash + "\"";
    const bool paused = at(deployment, {"spec", "paused"}) == true;
    const auto known = impl_->rollouts.find(key);
    Impl::Rollout rollout = known != impl_->rollouts.end() ? known->second : Impl::Rollout{};
    const Counts done{wanted, wanted, wanted, wanted};
    std::optional<json> status;
    if (observed < generation) {
      // A spec change to observe: a new template rolls out, anything else is taken at once.
      const bool new_template = known == impl_->rollouts.end() || rollout.template_hash != hash;
      if (paused) {
        status = status_of(deployment, generation, Counts{}, "DeploymentPaused", "Deployment is paused",
                           "Unknown");
        if (const json old = at(deployment, {"status"}); old.is_object()) {
          for (const char* field : {"replicas", "updatedReplicas", "readyReplicas", "availableReplicas"}) {
            if (old.contains(field)) (*status)[field] = old[field];
          }
        }
      } else if ((new_template || rollout.in_progress) && wanted > 0) {
        const std::int64_t old_available = integer(at(deployment, {"status", "availableReplicas"}), 0);
        const std::int64_t surge =
            scaled(at(deployment, {"spec", "strategy", "rollingUpdate", "maxSurge"}), wanted, true);
        const std::int64_t fresh =
            old_available > 0 ? std::min(wanted, std::max<std::int64_t>(surge, 1)) : wanted;
        const Counts progressing{old_available + fresh, fresh, old_available, old_available};
        status = status_of(deployment, generation, progressing, "ReplicaSetUpdated",
                           replica_set + " is progressing.", "True");
        if (new_template) {
          const json annotations = meta.value("annotations", json::object());
          std::int64_t revision = 0;
          try {
            revision =
                std::stoll(annotations.is_object() ? annotations.value(kRevisionAnnotation, "0") : "0");
          } catch (const std::exception&) {
            revision = 0;
          }
          if (!meta["annotations"].is_object()) meta["annotations"] = json::object();
          meta["annotations"][kRevisionAnnotation] = std::to_string(revision + 1);
          rollout = Impl::Rollout{hash, true, Clock::now() + impl_->delay};
        }
      } else {
        status = status_of(deployment, generation, done, "NewReplicaSetAvailable",
                           replica_set + " has successfully progressed.", "True");
        rollout = Impl::Rollout{hash, false, {}};
      }
    } else if (rollout.in_progress && Clock::now() >= rollout.due) {
      status = status_of(deployment, generation, done, "NewReplicaSetAvailable",
                         replica_set + " has successfully progressed.", "True");
      rollout.in_progress = false;
      completed.push_back(key);
    } else if (known == impl_->rollouts.end()) {
      // Seen for the first time (a reopened store): its pods run its template;
      // a rollout cut short by a stop is complete now.
      rollout = Impl::Rollout{hash, false, {}};
      if (!paused && integer(at(deployment, {"status", "availableReplicas"}), 0) != wanted) {
        status = status_of(deployment, generation, done, "NewReplicaSetAvailable",
                           replica_set + " has successfully progressed.", "True");
      }
    }
    seen[key] = rollout;
    if (!status || deployment.value("status", json()) == *status) continue;
    deployment["status"] = *status;
    store.put({kAppsGroup, "deployments", ns, name}, deployment, "MODIFIED");
    *wrote = true;
  }
  impl_->rollouts = std::move(seen);
  impl_->wake.notify_all();
  return completed;
}

}  // namespace mkq::sandbox
