// Test support for refresh and make_plan: a small desired state built by hand
// (a manager and one worker), FakeClients as their clusters, and "apply it"
// helpers that write through the fake and record the inventory the way the
// executor does.
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "tests/support/fake_client.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/refresh.h"

namespace plantest {

namespace kube = mkq::kube;
namespace kueue = mkq::kueue;
namespace reconcile = mkq::reconcile;
namespace state = mkq::state;
using kube::Json;

inline const std::string kLineage = "11111111-2222-3333-4444-555555555555";

inline Json labels() {
  return Json{{"app.kubernetes.io/managed-by", "mkq"}, {"mkq.dev/policy", "test"}};
}

inline kueue::Object make(const std::string& api_version, const std::string& kind, const std::string& name,
                          const std::string& namespace_name, Json rest) {
  kueue::Object o;
  o.api_version = api_version;
  o.kind = kind;
  o.name = name;
  o.namespace_name = namespace_name;
  Json meta{{"name", name}};
  if (!namespace_name.empty()) meta["namespace"] = namespace_name;
  meta["labels"] = labels();
  o.document = Json{{"apiVersion", api_version}, {"kind", kind}, {"metadata", meta}};
  for (auto& [key, value] : rest.items()) o.document[key] = value;
  return o;
}

inline kueue::Object flavor(const std::string& name) {
  return make("kueue.x-k8s.io/v1beta2", "ResourceFlavor", name, "", Json{{"spec", Json::object()}});
}

inline kueue::Object cluster_queue(const std::string& name, const std::string& cpu, const std::string& memory) {
  Json spec = Json::parse(R"({"namespaceSelector": {}, "resourceGroups": [{"coveredResources": ["cpu", "memory"],
    "flavors": [{"name": "default-flavor", "resources": [{"name": "cpu", "nominalQuota": "0"},
                                                         {"name": "memory", "nominalQuota": "0"}]}]}]})");
  spec["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] = cpu;
  spec["resourceGroups"][0]["flavors"][0]["resources"][1]["nominalQuota"] = memory;
  kueue::Object o = make("kueue.x-k8s.io/v1beta2", "ClusterQueue", name, "", Json{{"spec", spec}});
  o.depends_on.push_back("?/ResourceFlavor/default-flavor");
  return o;
}

inline kueue::Object local_queue(const std::string& namespace_name, const std::string& name, const std::string& cq) {
  return make("kueue.x-k8s.io/v1beta2", "LocalQueue", name, namespace_name, Json{{"spec", {{"clusterQueue", cq}}}});
}

inline kueue::Object placeholder_secret() {
  kueue::Object o = make("v1", "Secret", "worker1-secret", "kueue-system",
                         Json{{"type", "Opaque"}, {"stringData", {{"kubeconfig", "placeholder (mkq apply writes it)"}}}});
  o.document["metadata"]["annotations"] = Json{{"mkq.dev/credential", "placeholder"}};
  o.holds_credential_placeholder = true;
  return o;
}

// The policy: a manager and the worker "worker1", each with a flavor, a ClusterQueue and a LocalQueue.
inline kueue::DesiredState policy(const std::string& cpu = "9") {
  kueue::DesiredState d;
  kueue::ClusterObjects manager{"manager", kueue::ClusterRole::Manager, {}};
  manager.objects = {flavor("default-flavor"), cluster_queue("cluster-queue", cpu, "36Gi"),
                     local_queue("default", "user-queue", "cluster-queue")};
  kueue::ClusterObjects worker{"worker1", kueue::ClusterRole::Worker, {}};
  worker.objects = {flavor("default-flavor"), cluster_queue("cluster-queue", "9", "36Gi"),
                    local_queue("default", "user-queue", "cluster-queue")};
  d.policy = "test";
  d.clusters = {manager, worker};
  return d;
}

inline kueue::Object* find(kueue::DesiredState& d, const std::string& cluster, const std::string& kind,
                           const std::string& name) {
  for (kueue::ClusterObjects& c : d.clusters) {
    if (c.cluster != cluster) continue;
    for (kueue::Object& o : c.objects) {
      if (o.kind == kind && o.name == name) return &o;
    }
  }
  return nullptr;
}

// Two fake clusters, the inventory and the refresh/plan steps.
struct World {
  kube::FakeClient manager{"https://manager.invalid"};
  kube::FakeClient worker{"https://worker1.invalid"};
  std::vector<state::InventoryEntry> inventory;

  kube::FakeClient& client(const std::string& cluster) { return cluster == "manager" ? manager : worker; }

  std::vector<reconcile::Target> targets() {
    return {reconcile::Target{"manager", kueue::ClusterRole::Manager, &manager, ""},
            reconcile::Target{"worker1", kueue::ClusterRole::Worker, &worker, ""}};
  }

  // Applies every object of the desired state as mkq would, and records it.
  void apply(const kueue::DesiredState& desired) {
    for (const kueue::ClusterObjects& c : desired.clusters) {
      for (const kueue::Object& o : c.objects) apply_one(c.cluster, o);
    }
  }

  void apply_one(const std::string& cluster, const kueue::Object& o) {
    kube::FakeClient& fake = client(cluster);
    auto type = fake.resource_for(o.api_version, o.kind);
    REQUIRE(type.ok());
    auto applied = fake.apply(type.value(), o.document, kube::ApplyOptions{"mkq", true, false});
    REQUIRE(applied.ok());
    state::InventoryEntry e;
    e.ref.cluster = cluster;
    e.ref.api_version = o.api_version;
    e.ref.kind = o.kind;
    e.ref.namespace_name = o.namespace_name;
    e.ref.name = o.name;
    e.uid = applied.value()["metadata"]["uid"];
    e.resource_version = applied.value()["metadata"]["resourceVersion"];
    e.digest = reconcile::document_digest(o.document, kLineage);
    for (auto& existing : inventory) {
      if (existing.ref.address() == e.ref.address()) {
        existing = e;
        return;
      }
    }
    inventory.push_back(e);
  }

  reconcile::LiveState refresh(const kueue::DesiredState& desired) {
    return reconcile::refresh(desired, inventory, targets(), reconcile::RefreshOptions{});
  }

  // The plan, made one cluster at a time -- and, when no credential
  // provider (which counts its calls) is asked, made again with the clusters
  // planned by four threads, which must give the same plan.
  reconcile::Plan plan(const kueue::DesiredState& desired, reconcile::CredentialProvider* credentials = nullptr,
                       reconcile::PlanOptions options = {}) {
    const reconcile::LiveState live = refresh(desired);
    reconcile::Plan plan = reconcile::make_plan(desired, inventory, kLineage, live, credentials, options);
    if (credentials == nullptr) {
      reconcile::PlanWork parallel;
      parallel.parallelism = 4;
      const reconcile::Plan again = reconcile::make_plan(desired, inventory, kLineage, live, credentials, options, parallel);
      CHECK(reconcile::render_json(again) == reconcile::render_json(plan));
      CHECK(reconcile::first_difference(plan, again).empty());
    }
    return plan;
  }
};

inline const reconcile::ClusterPlan& cluster_of(const reconcile::Plan& plan, const std::string& name) {
  for (const auto& c : plan.clusters) {
    if (c.cluster == name) return c;
  }
  FAIL("no cluster " << name << " in the plan");
  return plan.clusters.front();
}

inline const reconcile::Change* change_of(const reconcile::Plan& plan, const std::string& address) {
  for (const auto& c : plan.clusters) {
    for (const auto& change : c.changes) {
      if (change.ref.address() == address) return &change;
    }
  }
  return nullptr;
}

// Every non-no-op change as "action address (reason)", in plan order.
inline std::vector<std::string> actions(const reconcile::Plan& plan) {
  std::vector<std::string> out;
  for (const auto& c : plan.clusters) {
    for (const auto& change : c.changes) {
      if (change.action == reconcile::Action::NoOp) continue;
      out.push_back(std::string(reconcile::action_name(change.action)) + " " + change.ref.address() + " (" + reconcile::reason_text(change) + ")");
    }
  }
  return out;
}

}  // namespace plantest
