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

#include "sandbox/apps_workloads.h"
#include "sandbox/json_access.h"
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

// The ReplicaSets the Deployment controller keeps, as kube's does: one per
// pod template, named NAME-HASH, controlled by the Deployment (an
// ownerReference with controller: true), its selector, template and labels
// carrying the pod-template-hash label, its revision in
// deployment.kubernetes.io/revision. Their counts follow the Deployment's
// status: the new ReplicaSet has the updated replicas (available once the
// rollout is complete), the newest old one the rest while the rollout runs,
// then none. Old ReplicaSets beyond revisionHistoryLimit are deleted.
class ReplicaSets {
 public:
  ReplicaSets(Store& store, const std::function<std::string()>& new_uid) : store_(store), new_uid_(new_uid) {}

  // Brings the ReplicaSets of one (stored, not paused) Deployment up to date.
  // True when anything was written.
  bool sync(const json& deployment, const std::string& hash, bool in_progress) {
    const json& meta = deployment["metadata"];
    const std::string ns = meta.value("namespace", "");
    const std::string name = meta.value("name", "");
    const std::string uid = meta.value("uid", "");
    const std::string fresh_name = name + "-" + hash;
    const std::int64_t wanted = integer(at(deployment, {"spec", "replicas"}), 1);
    const std::int64_t updated = integer(at(deployment, {"status", "updatedReplicas"}), 0);
    const std::int64_t total = integer(at(deployment, {"status", "replicas"}), 0);
    const std::int64_t surge =
        scaled(at(deployment, {"spec", "strategy", "rollingUpdate", "maxSurge"}), wanted, true);
    const json annotations = meta.value("annotations", json::object());
    const std::string revision =
        annotations.is_object() ? annotations.value(kRevisionAnnotation, "1") : std::string("1");

    std::vector<json> old;  // this Deployment's other ReplicaSets, newest revision first
    std::optional<json> current;
    for (json& replica_set : store_.list(kAppsGroup, "replicasets", ns, "", 0)) {
      if (controller_uid(replica_set) != uid) continue;
      if (replica_set["metadata"].value("name", "") == fresh_name) current = std::move(replica_set);
      else old.push_back(std::move(replica_set));
    }
    std::sort(old.begin(), old.end(), [](const json& a, const json& b) { return revision_of(a) > revision_of(b); });

    bool wrote = false;
    json fresh = current ? *current : new_replica_set(deployment, fresh_name, hash);
    json& fresh_meta = fresh["metadata"];
    if (!fresh_meta["annotations"].is_object()) fresh_meta["annotations"] = json::object();
    fresh_meta["annotations"]["deployment.kubernetes.io/desired-replicas"] = std::to_string(wanted);
    fresh_meta["annotations"]["deployment.kubernetes.io/max-replicas"] = std::to_string(wanted + surge);
    fresh_meta["annotations"][kRevisionAnnotation] = revision;
    fresh["spec"]["replicas"] = wanted;
    const std::int64_t running = in_progress ? updated : wanted;
    fresh["status"] = replica_set_status(fresh, running, in_progress ? 0 : running);
    wrote = put_if_changed(current ? &*current : nullptr, fresh) || wrote;

    std::int64_t old_running = in_progress ? std::max<std::int64_t>(total - updated, 0) : 0;
    std::int64_t kept = 0;
    const std::int64_t history = integer(at(deployment, {"spec", "revisionHistoryLimit"}), 10);
    for (const json& stored : old) {
      json replica_set = stored;
      replica_set["spec"]["replicas"] = old_running;
      replica_set["status"] = replica_set_status(replica_set, old_running, old_running);
      if (old_running == 0 && kept++ >= history) {
        json last;
        store_.remove(key_of(replica_set), last);
        wrote = true;
        continue;
      }
      old_running = 0;  // only the newest old ReplicaSet still runs pods
      wrote = put_if_changed(&stored, replica_set) || wrote;
    }
    return wrote;
  }

 private:
  // The uid of the Deployment controlling a ReplicaSet, "" none.
  static std::string controller_uid(const json& replica_set) {
    const json owners = at(replica_set, {"metadata", "ownerReferences"});
    if (!owners.is_array()) return "";
    for (const json& owner : owners) {
      if (owner.is_object() && owner.value("controller", false) && owner.value("kind", "") == "Deployment" &&
          owner.value("apiVersion", "") == "apps/v1") {
        return owner.value("uid", "");
      }
    }
    return "";
  }

  static std::int64_t revision_of(const json& replica_set) {
    const json revision = at(replica_set, {"metadata", "annotations", kRevisionAnnotation});
    try {
      return revision.is_string() ? std::stoll(revision.get<std::string>()) : 0;
    } catch (const std::exception&) {
      return 0;
    }
  }

  static ObjectKey key_of(const json& replica_set) {
    return {kAppsGroup, "replicasets", replica_set["metadata"].value("namespace", ""),
            replica_set["metadata"].value("name", "")};
  }

  // The status the ReplicaSet controller writes (omitempty applied; replicas always).
  static json replica_set_status(const json& replica_set, std::int64_t replicas, std::int64_t available) {
    json status = {{"replicas", replicas}};
    if (replicas > 0) status["fullyLabeledReplicas"] = replicas;
    if (available > 0) {
      status["readyReplicas"] = available;
      status["availableReplicas"] = available;
    }
    status["observedGeneration"] = integer(at(replica_set, {"metadata", "generation"}), 1);
    return status;
  }

  json new_replica_set(const json& deployment, const std::string& name, const std::string& hash) {
    const json& meta = deployment["metadata"];
    json pod_template = at(deployment, {"spec", "template"});
    if (!pod_template.is_object()) pod_template = json::object();
    json& template_meta = pod_template["metadata"];
    if (!template_meta.is_object()) template_meta = json::object();
    if (!template_meta["labels"].is_object()) template_meta["labels"] = json::object();
    template_meta["labels"]["pod-template-hash"] = hash;
    json selector = at(deployment, {"spec", "selector"});
    if (!selector.is_object()) selector = json::object();
    if (!selector["matchLabels"].is_object()) selector["matchLabels"] = json::object();
    selector["matchLabels"]["pod-template-hash"] = hash;
    json spec = {{"replicas", 0}, {"selector", selector}, {"template", pod_template}};
    if (const json ready = at(deployment, {"spec", "minReadySeconds"}); ready.is_number_integer() && ready != 0) {
      spec["minReadySeconds"] = ready;
    }
    return {{"apiVersion", "apps/v1"},
            {"kind", "ReplicaSet"},
            {"metadata",
             {{"name", name},
              {"namespace", meta.value("namespace", "")},
              {"uid", new_uid_()},
              {"generation", 1},
              {"creationTimestamp", format_timestamp(std::time(nullptr))},
              {"labels", template_meta["labels"]},
              {"ownerReferences", json::array({{{"apiVersion", "apps/v1"},
                                                {"kind", "Deployment"},
                                                {"name", meta.value("name", "")},
                                                {"uid", meta.value("uid", "")},
                                                {"controller", true},
                                                {"blockOwnerDeletion", true}}})}}},
            {"spec", spec}};
  }

  // Writes `wanted` when it differs from `stored` (null: a new ReplicaSet);
  // a changed spec bumps the generation, which the status then observes.
  bool put_if_changed(const json* stored, json& wanted) {
    if (stored != nullptr && *stored == wanted) return false;
    if (stored != nullptr && stored->value("spec", json()) != wanted["spec"]) {
      const std::int64_t generation = integer(at(*stored, {"metadata", "generation"}), 1) + 1;
      wanted["metadata"]["generation"] = generation;
      wanted["status"]["observedGeneration"] = generation;
      if (*stored == wanted) return false;
    }
    store_.put(key_of(wanted), wanted, stored != nullptr ? "MODIFIED" : "ADDED");
    return true;
  }

  Store& store_;
  const std::function<std::string()>& new_uid_;
};

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
  default_pod_template(pod_template);
}

std::vector<FieldError> validate_deployment(const json& deployment, const json* existing) {
  return validate_workload_spec(deployment, existing, "deployment", true);
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

std::vector<std::string> DeploymentController::reconcile(Store& store, const std::function<std::string()>& new_uid,
                                                         bool* wrote) {
  std::vector<std::string> completed;
  *wrote = false;
  const std::lock_guard<std::mutex> lock(impl_->mutex);
  std::map<std::string, Impl::Rollout> seen;
  ReplicaSets replica_sets(store, new_uid);
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
    if (status && deployment.value("status", json()) != *status) {
      deployment["status"] = *status;
      store.put({kAppsGroup, "deployments", ns, name}, deployment, "MODIFIED");
      *wrote = true;
    }
    if (!paused && replica_sets.sync(deployment, hash, rollout.in_progress)) *wrote = true;
  }
  impl_->rollouts = std::move(seen);
  impl_->wake.notify_all();
  return completed;
}

}  // namespace mkq::sandbox
