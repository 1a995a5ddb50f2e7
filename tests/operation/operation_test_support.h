// Test support for runtime/operation: a policy in a temporary directory (its
// state beside it), fake clusters handed out by a fake target resolver, and a
// fake UI that records what a run says and answers the confirmation.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/credentials/provider.h"
#include "tests/support/fake_client.h"
#include "runtime/operation/operation.h"
#include "runtime/state/state.h"
#include "tests/support/temp_dir.h"
#include "tests/support/result.h"

namespace mkq::operation::testing {

using Json = kube::Json;

// Records every call; confirms with `answer`.
class FakeUi : public Ui {
 public:
  bool answer = true;
  int confirmations = 0, plans_shown = 0, targets = 0, applies = 0;
  std::vector<std::string> errors, notices;
  std::vector<reconcile::ProgressEvent> events;

  void compiled(const Compilation& compilation) override {
    for (const diag::Diagnostic& d : compilation.diagnostics.sorted(compilation.sources)) errors.push_back(d.message);
  }
  void target(const TargetChoice&) override { ++targets; }
  void notice(const std::string& text) override { notices.push_back(text); }
  void error(const std::string& text) override { errors.push_back(text); }
  void output(const std::string& text) override { notices.push_back(text); }
  void timing(const Timing&) override {}
  void show_plan(const reconcile::Plan&) override { ++plans_shown; }
  bool confirm(const reconcile::Plan&) override {
    ++confirmations;
    return answer;
  }
  std::unique_ptr<Cancellation> begin_apply(const reconcile::Plan&) override {
    ++applies;
    return nullptr;
  }
  void progress(const reconcile::ProgressEvent& event) override { events.push_back(event); }
  void end_apply(const reconcile::ApplyReport&) override {}
  void status_poll(std::size_t, std::size_t) override {}

  // Every error, one per line (for failure messages).
  std::string all_errors() const {
    std::string text;
    for (const std::string& e : errors) text += e + "\n";
    return text;
  }
};

// One fake cluster per name, kept across runs; every run reaches all of them.
class FakeResolver : public TargetResolver {
 public:
  std::map<std::string, std::unique_ptr<kube::FakeClient>> clusters;
  int opened = 0;

  kube::FakeClient& cluster(const std::string& name) {
    auto& client = clusters[name];
    if (!client) client = std::make_unique<kube::FakeClient>("https://" + name + ".invalid");
    return *client;
  }

  bool open(const TargetRequest& request, Ui& ui, Session* session) override {
    ++opened;
    TargetChoice choice;
    choice.sandbox = true;
    ui.target(choice);
    const auto excluded = [&](const std::string& name) {
      const auto& names = request.options.exclude_clusters;
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    const auto add = [&](const std::string& name, kueue::ClusterRole role) {
      if (excluded(name)) return;
      session->targets.push_back({name, role, &cluster(name), ""});
    };
    add(request.policy->manager.name, kueue::ClusterRole::Manager);
    std::map<std::string, credentials::WorkerAccess> workers;
    for (const sema::model::Worker& worker : request.policy->workers) {
      add(worker.name, kueue::ClusterRole::Worker);
      kube::Endpoint endpoint;
      endpoint.cluster.server = cluster(worker.name).server();
      workers[worker.name] = credentials::WorkerAccess{endpoint, &cluster(worker.name)};
    }
    for (const std::string& name : request.extra_clusters) add(name, kueue::ClusterRole::Worker);
    session->credentials = credentials::make_provider(*request.policy, std::move(workers), request.provider);
    return true;
  }
};

// The worker's kubeconfig, given to the policy as a secret (credentials mode "kubeconfig").
inline const char* const kWorkerKubeconfig = R"(apiVersion: v1
kind: Config
clusters:
- name: w1
  cluster:
    server: https://w1.invalid
contexts:
- name: w1
  context:
    cluster: w1
    user: w1
current-context: w1
users:
- name: w1
  user:
    token: not-a-real-token
)";

// A manager "m" and a worker "w1": one flavor, one ClusterQueue with a
// LocalQueue, dispatched to w1. `cpu` sets the quota (a change of policy).
inline std::string fleet_policy(const std::string& kubeconfig, int cpu = 4) {
  const std::string quota = "{ cpu = " + std::to_string(cpu) + ", memory = 8Gi }";
  return R"(manager "m" {}

worker "w1" {
  credentials { mode = "kubeconfig", kubeconfig = secret("file:)" + kubeconfig + R"(") }
  capacity "default-flavor" )" + quota + R"(
}

flavor "default-flavor" {}

clusterqueue "cq" {
  namespaces = all
  quota "default-flavor" )" + quota + R"(
  localqueue "lq" in "default" {}
}

dispatch "to-workers" {
  config = "fleet"
  queues = ["cq"]
  workers = ["w1"]
}
)";
}

// A policy directory with its own state (.mkq/ beside the policy).
struct Fleet {
  mkq::testing::TempDir dir;
  FakeResolver resolver;
  FakeUi ui;

  Fleet() {
    write("w1.kubeconfig", kWorkerKubeconfig);
    write("policy.mkq", fleet_policy(kubeconfig()));
  }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir / name) << text; }
  std::string kubeconfig() const { return (dir / "w1.kubeconfig").string(); }
  std::string policy() const { return (dir / "policy.mkq").string(); }
  std::filesystem::path state_path() const { return dir / ".mkq" / "state.db"; }

  template <typename Request>
  Request request() {
    Request r;
    r.path = policy();
    r.compile.import_roots = {dir.path().string()};
    return r;
  }
  ApplyRequest apply_request() {
    ApplyRequest r = request<ApplyRequest>();
    r.auto_approve = true;
    return r;
  }
  std::unique_ptr<state::StateStore> state() const {
    std::string error;
    return mkq::testing::take(state::StateStore::open_existing(state_path()), &error);
  }
  // The ClusterQueue "cq" on the manager, if any.
  std::optional<Json> cluster_queue() {
    return resolver.cluster("m").object("kueue.x-k8s.io/v1beta2", "ClusterQueue", "", "cq");
  }
  // Its cpu quota as the cluster holds it ("" when there is none).
  std::string cpu_quota() {
    const std::optional<Json> cq = cluster_queue();
    if (!cq) return "";
    for (const Json& resource : cq->at("spec").at("resourceGroups").at(0).at("flavors").at(0).at("resources")) {
      if (resource.value("name", "") == "cpu") {
        const Json& quota = resource.at("nominalQuota");
        return quota.is_string() ? quota.get<std::string>() : quota.dump();
      }
    }
    return "";
  }
};

}  // namespace mkq::operation::testing
