// Helpers for the apply executor's tests: hand-built plans, fake clusters, a
// real StateStore in a temporary directory, recorded progress events.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/kueue/schema.h"
#include "tests/support/fake_client.h"
#include "runtime/reconcile/apply.h"
#include "runtime/state/state.h"
#include "tests/support/temp_dir.h"
#include "tests/support/result.h"

namespace mkq::reconcile::testing {

using Json = kube::Json;
using namespace std::chrono_literals;  // NOLINT: tests only

// A fresh directory removed with everything in it at the end of the test.
using mkq::testing::TempDir;

// A state file and an open run.
struct StateFixture {
  TempDir dir;
  std::unique_ptr<state::StateStore> store;
  std::int64_t run_id = 0;

  StateFixture() {
    std::string error;
    store = mkq::testing::take(state::StateStore::open(dir.path() / "state.db"), &error);
    if (store == nullptr) throw std::runtime_error("cannot open the state: " + error);
    run_id = mkq::testing::take(store->begin_run("apply", "sha256:policy"), &error);
    if (run_id == 0) throw std::runtime_error("cannot begin a run: " + error);
  }
};

inline std::string api_version_of(const std::string& kind) {
  const kueue::schema::KindInfo* info = kueue::schema::find_kind(kind);
  return info == nullptr ? "example.com/v1" : std::string(info->api_version);
}

inline Json document_of(const std::string& kind, const std::string& namespace_name, const std::string& name,
                        Json spec = Json::object()) {
  Json document = {{"apiVersion", api_version_of(kind)}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (!namespace_name.empty()) document["metadata"]["namespace"] = namespace_name;
  document["metadata"]["labels"] = {{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/policy", "test"}};
  if (kind != "Namespace" && !spec.empty()) document["spec"] = std::move(spec);
  return document;
}

// `object` with the Active condition Kueue's controller sets.
inline Json with_active_condition(Json object, const std::string& status, const std::string& reason,
                                  const std::string& message) {
  object["status"] = {{"conditions", Json::array({{{"type", "Active"},
                                                   {"status", status},
                                                   {"reason", reason},
                                                   {"message", message},
                                                   {"lastTransitionTime", "2026-01-01T00:00:00Z"}}})}};
  return object;
}

// A create/update/replace (with its document) or a delete (without).
inline Change change_of(const std::string& cluster, Action action, const std::string& kind,
                        const std::string& namespace_name, const std::string& name, Json spec = Json::object(),
                        std::vector<std::string> depends_on = {}) {
  Change change;
  change.ref.cluster = cluster;
  change.ref.api_version = api_version_of(kind);
  change.ref.kind = kind;
  change.ref.namespace_name = namespace_name;
  change.ref.name = name;
  change.action = action;
  change.reason = reconcile::Reason::PolicyChanged;
  if (action != Action::Delete && action != Action::NoOp) change.desired = document_of(kind, namespace_name, name, spec);
  change.depends_on = std::move(depends_on);
  return change;
}

inline ClusterPlan cluster_plan(const std::string& cluster, kueue::ClusterRole role, std::vector<Change> changes) {
  ClusterPlan plan;
  plan.cluster = cluster;
  plan.role = role;
  plan.changes = std::move(changes);
  return plan;
}

inline Target target_of(const std::string& cluster, kueue::ClusterRole role, kube::Client* client) {
  Target target;
  target.cluster = cluster;
  target.role = role;
  target.client = client;
  return target;
}

// Progress events in the order the executor emitted them.
class EventLog {
 public:
  std::function<void(const ProgressEvent&)> callback() {
    return [this](const ProgressEvent& event) {
      std::lock_guard<std::mutex> lock(mutex_);
      events_.push_back(event);
    };
  }
  std::vector<ProgressEvent> events() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }
  // Index of the first event with this phase and address; -1 when none.
  int index_of(ProgressEvent::Phase phase, const std::string& address) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t index = 0; index < events_.size(); ++index) {
      if (events_[index].phase == phase && events_[index].ref.address() == address) return static_cast<int>(index);
    }
    return -1;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<ProgressEvent> events_;
};

// Fast timings for tests.
inline ApplyOptions fast_options() {
  ApplyOptions options;
  options.parallelism = 4;
  options.poll_interval = 5ms;
  options.deletion_timeout = 2000ms;
  return options;
}

// The calls of `fake` that start with `verb` ("PATCH", "DELETE").
inline std::vector<std::string> calls_of(const kube::FakeClient& fake, const std::string& verb) {
  std::vector<std::string> out;
  for (const std::string& call : fake.calls()) {
    if (call.rfind(verb + " ", 0) == 0) out.push_back(call);
  }
  return out;
}

// Errors as the reader sees them: "ADDRESS: what" (base::render).
inline std::vector<std::string> rendered(const std::vector<base::Error>& errors) {
  std::vector<std::string> out;
  for (const base::Error& error : errors) out.push_back(base::render(error));
  return out;
}

inline const ObjectResult* result_for(const ApplyReport& report, const std::string& address) {
  for (const ObjectResult& result : report.results) {
    if (result.ref.address() == address) return &result;
  }
  return nullptr;
}

// Kueue's controller manager on a fake cluster (tests of the restart after a
// change of Kueue's configuration).
inline const kube::ResourceType kDeployments{"apps", "v1", "Deployment", "deployments", true};
inline const std::string kDeploymentPath =
    "/apis/apps/v1/namespaces/kueue-system/deployments/kueue-controller-manager";
inline const std::string kDeploymentAddress = "manager/Deployment/kueue-system/kueue-controller-manager";

inline Json deployment(std::int64_t generation, Json status) {
  Json d = {
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata",
       {{"name", "kueue-controller-manager"}, {"namespace", "kueue-system"}, {"generation", generation}}},
      {"spec", {{"replicas", 1}, {"template", {{"metadata", {{"labels", {{"app", "kueue"}}}}}}}}}};
  if (!status.is_null()) d["status"] = std::move(status);
  return d;
}

// Kueue's Deployment on `fake`, whose controller completes every rollout the
// moment its status is read (a GET), as a fast real one would; each rollout
// it completes is counted in *rollouts_seen.
inline void serve_kueue_deployment(kube::FakeClient& fake, bool with_deployment, bool complete, int* rollouts_seen) {
  fake.serve(kDeployments);
  if (with_deployment) fake.put(deployment(1, Json{{"observedGeneration", 1}}), "kube-controller-manager");
  if (!complete) return;
  fake.fail_when([&fake, rollouts_seen](const std::string& call) -> std::optional<kube::Error> {
    if (call != "GET " + kDeploymentPath) return std::nullopt;
    auto current = fake.object("apps/v1", "Deployment", "kueue-system", "kueue-controller-manager");
    if (!current) return std::nullopt;
    const std::int64_t generation = (*current)["metadata"]["generation"].get<std::int64_t>();
    if ((*current)["status"].value("observedGeneration", 0) < generation) {
      if (rollouts_seen != nullptr) ++*rollouts_seen;
      (*current)["status"] = {{"observedGeneration", generation},
                              {"replicas", 1},
                              {"updatedReplicas", 1},
                              {"readyReplicas", 1},
                              {"availableReplicas", 1}};
      fake.put(*current, "kube-controller-manager");
    }
    return std::nullopt;
  });
}

// A fake cluster with Kueue's Deployment (serve_kueue_deployment).
struct KueueCluster {
  kube::FakeClient fake{"https://manager.invalid"};
  int rollouts_seen = 0;

  explicit KueueCluster(bool with_deployment = true, bool complete = true) {
    serve_kueue_deployment(fake, with_deployment, complete, &rollouts_seen);
  }

  std::string restarted_at() const {
    const auto current = fake.object("apps/v1", "Deployment", "kueue-system", "kueue-controller-manager");
    const Json annotations = (*current)["spec"]["template"]["metadata"].value("annotations", Json::object());
    return annotations.value("kubectl.kubernetes.io/restartedAt", "");
  }
};

}  // namespace mkq::reconcile::testing
