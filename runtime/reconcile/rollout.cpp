// kubectl's rollout restart and rollout status for one Deployment (rollout.h).
#include "runtime/reconcile/rollout.h"

#include <ctime>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "base/time.h"
#include "compiler/kueue/schema.h"
#include "runtime/reconcile/apply_internal.h"
#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {
namespace {

namespace schema = kueue::schema;
using Clock = std::chrono::steady_clock;

std::int64_t integer_at(const Json& object, std::initializer_list<const char*> path, std::int64_t fallback) {
  const Json* node = &object;
  for (const char* key : path) {
    if (!node->is_object()) return fallback;
    const auto it = node->find(key);
    if (it == node->end()) return fallback;
    node = &*it;
  }
  return node->is_number_integer() ? node->get<std::int64_t>() : fallback;
}

std::string quoted(const std::string& text) { return Json(text).dump(); }  // Go's %q for a plain name

std::string format_duration(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms % 60000 == 0) return fmt::format("{}m", ms / 60000);
  if (ms % 1000 == 0) return fmt::format("{}s", ms / 1000);
  return fmt::format("{}ms", ms);
}

}  // namespace

base::ObjectRef Restart::deployment(const std::string& cluster) const {
  return base::ObjectRef{cluster, std::string(schema::kAppsApiVersion), std::string(schema::kDeploymentKind),
                         namespace_name, name};
}

RolloutStatus rollout_status(const Json& deployment) {
  RolloutStatus out;
  const std::string name =
      deployment.contains("metadata") ? deployment["metadata"].value("name", std::string()) : "";
  const std::int64_t generation = integer_at(deployment, {"metadata", "generation"}, 0);
  const std::int64_t observed = integer_at(deployment, {"status", "observedGeneration"}, 0);
  if (generation > observed) {
    out.message = "Waiting for deployment spec update to be observed...";
    return out;
  }
  const auto status = deployment.find("status");
  if (status != deployment.end() && status->is_object() && status->contains("conditions") &&
      (*status)["conditions"].is_array()) {
    for (const Json& condition : (*status)["conditions"]) {
      if (condition.is_object() && condition.value("type", "") == "Progressing" &&
          condition.value("reason", "") == "ProgressDeadlineExceeded") {
        out.error = "deployment " + quoted(name) + " exceeded its progress deadline";
        return out;
      }
    }
  }
  const std::int64_t updated = integer_at(deployment, {"status", "updatedReplicas"}, 0);
  const std::int64_t replicas = integer_at(deployment, {"status", "replicas"}, 0);
  const std::int64_t available = integer_at(deployment, {"status", "availableReplicas"}, 0);
  const std::int64_t wanted = integer_at(deployment, {"spec", "replicas"}, -1);
  const std::string shown = quoted(name);
  if (wanted >= 0 && updated < wanted) {
    out.message = fmt::format("Waiting for deployment {} rollout to finish: {} out of {} new replicas have been updated...",
                              shown, updated, wanted);
  } else if (replicas > updated) {
    out.message = fmt::format("Waiting for deployment {} rollout to finish: {} old replicas are pending termination...",
                              shown, replicas - updated);
  } else if (available < updated) {
    out.message = fmt::format("Waiting for deployment {} rollout to finish: {} of {} updated replicas are available...",
                              shown, available, updated);
  } else {
    out.done = true;
    out.message = "deployment " + quoted(name) + " successfully rolled out";
  }
  return out;
}

base::Result<void> restart_deployment(kube::Client& client, const std::string& namespace_name,
                                      const std::string& name, const RolloutOptions& options) {
  const std::string what = fmt::format("deployment {}/{}", namespace_name, name);
  // mkq's own words for a failure, the server's status and reason kept when it answered.
  const auto failed = [](std::string message, base::Error cause = {}) {
    cause.message = std::move(message);
    return cause;
  };
  kube::Result<kube::ResourceType> type =
      client.resource_for(std::string(schema::kAppsApiVersion), std::string(schema::kDeploymentKind));
  if (!type) {
    if (type.error().not_found()) {
      return failed(fmt::format("the cluster does not serve apps/v1 Deployments, so {} is not there", what),
                    std::move(type.error()));
    }
    return std::move(type.error());
  }
  kube::Result<Json> current = client.get(type.value(), namespace_name, name);
  if (!current) {
    if (current.error().not_found()) return failed(fmt::format("{} not found", what), std::move(current.error()));
    return std::move(current.error());
  }
  const Json& spec = current.value().contains("spec") ? current.value()["spec"] : Json();
  if (spec.is_object() && spec.value("paused", false)) {
    return failed("can't restart paused deployment (run rollout resume first)");
  }

  Json annotations = Json::object();
  annotations[std::string(schema::kRestartedAtAnnotation)] = base::format_rfc3339_local(options.clock->now());
  const Json patch = {{"spec", {{"template", {{"metadata", {{"annotations", annotations}}}}}}}};
  const std::string path =
      fmt::format("/apis/{}/namespaces/{}/{}/{}", type.value().api_version(), namespace_name, type.value().plural, name);
  kube::Result<Json> patched = client.request("PATCH", path, &patch, "application/strategic-merge-patch+json");
  if (!patched) {
    return failed(fmt::format("cannot patch {}: {}", what, detail::describe(patched.error())), std::move(patched.error()));
  }

  const Clock::time_point deadline = Clock::now() + options.timeout;
  std::string last = "the rollout was not observed";
  std::optional<Json> seen = patched.value();
  while (true) {
    if (seen) {
      const RolloutStatus status = rollout_status(*seen);
      if (!status.error.empty()) return failed(status.error);
      if (status.done) return {};
      if (status.message != last && options.progress) options.progress(status.message);
      last = status.message;
    }
    const Clock::time_point now_steady = Clock::now();
    if (now_steady >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(options.poll_interval, deadline - now_steady));
    kube::Result<Json> live = client.get(type.value(), namespace_name, name);
    if (live) {
      seen = live.value();
    } else if (live.error().not_found()) {
      return failed(fmt::format("{} was deleted during its rollout", what), std::move(live.error()));
    } else {
      seen.reset();
      last = fmt::format("cannot read {}: {}", what, detail::describe(live.error()));
    }
  }
  return failed(fmt::format("the rollout of {} did not complete within {}: {}", what, format_duration(options.timeout),
                            last),
                base::Error(0, "Timeout", ""));
}

}  // namespace mkq::reconcile
