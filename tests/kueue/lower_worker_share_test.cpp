// Workers keep the manager's rules at their own scale (issue 15.1): the queues
// a worker serves share its capacity in proportion to their quotas on the
// manager, with cohorts (hierarchical too), scaled limits, copied weights and
// preemption, and every priority class; overrides still win.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "compiler/sema/quantity.h"
#include "tests/kueue/kueue_test_support.h"

using kueuetest::ClusterObjects;
using kueuetest::count_kind;
using kueuetest::examples_dir;
using kueuetest::find_cluster;
using kueuetest::find_object;
using kueuetest::Json;
using kueuetest::Object;
using kueuetest::render_path;
using kueuetest::render_text;
using kueuetest::Rendered;

namespace {

const ClusterObjects& cluster_of(const Rendered& r, const std::string& name) {
  INFO(r.messages());
  REQUIRE(r.state.has_value());
  const ClusterObjects* cluster = find_cluster(*r.state, name);
  REQUIRE(cluster != nullptr);
  return *cluster;
}

const Json& spec_of(const ClusterObjects& cluster, const std::string& kind, const std::string& name) {
  const Object* object = find_object(cluster, kind, name);
  INFO(cluster.cluster << ": " << kind << " " << name);
  REQUIRE(object != nullptr);
  return object->document.at("spec");
}

// A resource's entry of a flavor in a ClusterQueue's or Cohort's spec.
const Json& resource_of(const Json& spec, const std::string& flavor, const std::string& resource) {
  for (const Json& group : spec.at("resourceGroups")) {
    for (const Json& f : group.at("flavors")) {
      if (f.at("name") != flavor) continue;
      for (const Json& r : f.at("resources")) {
        if (r.at("name") == resource) return r;
      }
    }
  }
  FAIL("no " << flavor << "/" << resource << " in " << spec.dump());
  static const Json kNone;
  return kNone;
}

mkq::sema::Quantity quantity(const Json& value) {
  return *mkq::sema::Quantity::parse(value.is_string() ? value.get<std::string>() : value.dump());
}

}  // namespace

TEST_CASE("worker shares: examples/teams on each 32-GPU worker is the hub's 24/16/24 of 64, halved",
          "[kueue][lower][worker][shares]") {
  const auto r = render_path(examples_dir() / "teams", "teams");
  for (const char* name : {"gpu-east", "gpu-west"}) {
    const ClusterObjects& worker = cluster_of(*r, name);
    INFO("worker " << name);
    const std::map<std::string, std::pair<int, int>> expected = {
        {"nlp", {12, 20}}, {"speech", {8, 24}}, {"vision", {12, 20}}};
    mkq::sema::Quantity gpus = mkq::sema::Quantity::from_int(0);
    mkq::sema::Quantity memory = mkq::sema::Quantity::from_int(0);
    for (const auto& [queue, numbers] : expected) {
      const Json& spec = spec_of(worker, "ClusterQueue", queue);
      const Json& gpu = resource_of(spec, "a100", "nvidia.com/gpu");
      CHECK(gpu.at("nominalQuota") == numbers.first);
      CHECK(gpu.at("borrowingLimit") == numbers.second);
      gpus = *mkq::sema::Quantity::add(gpus, quantity(gpu.at("nominalQuota")), nullptr);
      memory = *mkq::sema::Quantity::add(
          memory, quantity(resource_of(spec, "a100", "memory").at("nominalQuota")), nullptr);
      // Cohort and preemption as on the hub.
      CHECK(spec.at("cohortName") == "research");
      CHECK(spec.at("preemption").dump() ==
            R"({"withinClusterQueue":"LowerPriority","reclaimWithinCohort":"Any"})");
    }
    CHECK(gpus.to_string() == "32");
    CHECK(memory.to_string() == "2Ti");
    CHECK(resource_of(spec_of(worker, "ClusterQueue", "speech"), "a100", "cpu").at("nominalQuota") == 64);
    CHECK(resource_of(spec_of(worker, "ClusterQueue", "nlp"), "a100", "memory").at("nominalQuota") ==
          "768Gi");
    // The cohort with its fair-sharing weight, and the priority class a job may name.
    CHECK(spec_of(worker, "Cohort", "research").dump() == R"({"fairSharing":{"weight":1}})");
    const Object* priority = find_object(worker, "WorkloadPriorityClass", "research-high");
    REQUIRE(priority != nullptr);
    CHECK(priority->document.at("value") == 1000);
    // The ClusterQueue waits for its Cohort.
    const Object* nlp = find_object(worker, "ClusterQueue", "nlp");
    CHECK(std::find(nlp->depends_on.begin(), nlp->depends_on.end(), std::string(name) + "/Cohort/research") !=
          nlp->depends_on.end());
  }
  // The hub keeps its own numbers.
  const Json& hub_nlp = spec_of(cluster_of(*r, "hub"), "ClusterQueue", "nlp");
  CHECK(resource_of(hub_nlp, "a100", "nvidia.com/gpu").at("nominalQuota") == 24);
  CHECK(resource_of(hub_nlp, "a100", "nvidia.com/gpu").at("borrowingLimit") == 40);
}

constexpr const char* kHierarchy = R"(
manager "hub" {}

flavor "gpu" {}

worker "w" {
  capacity "gpu" { "nvidia.com/gpu" = 32 }
}

worker "fixed" {
  capacity "gpu" { "nvidia.com/gpu" = 32 }
  override "a" {
    quota "gpu" { "nvidia.com/gpu" = 20 }
  }
}

worker "idle" {
  capacity "gpu" { "nvidia.com/gpu" = 8 }
}

cohort "org" {
  quota "gpu" { "nvidia.com/gpu" = 1 }
}

cohort "team" {
  parent = "org"
  fair_sharing { weight = 2 }
}

clusterqueue "a" {
  cohort = "team"
  quota "gpu" { "nvidia.com/gpu" = { nominal: 1, lending_limit: 1 } }
  fair_sharing { weight = 3 }
}

clusterqueue "b" {
  cohort = "team"
  quota "gpu" { "nvidia.com/gpu" = 1 }
}

clusterqueue "c" {
  quota "gpu" { "nvidia.com/gpu" = 1 }
}

priorityclass "urgent" { value = 100 }

dispatch "d" { queues = ["a", "b", "c"], workers = ["w", "fixed"] }
)";

TEST_CASE("worker shares: hierarchical cohorts, their own quota, and rounding to the exact capacity",
          "[kueue][lower][worker][shares]") {
  const auto r = render_text(kHierarchy);
  const ClusterObjects& w = cluster_of(*r, "w");
  // Four holders of 1 GPU each (a, b, c, cohort org): 32 / 4 = 8 each.
  CHECK(resource_of(spec_of(w, "ClusterQueue", "a"), "gpu", "nvidia.com/gpu").dump() ==
        R"({"name":"nvidia.com/gpu","nominalQuota":8,"lendingLimit":8})");
  CHECK(resource_of(spec_of(w, "ClusterQueue", "b"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 8);
  CHECK(resource_of(spec_of(w, "ClusterQueue", "c"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 8);
  CHECK(
      spec_of(w, "Cohort", "org").dump() ==
      R"({"resourceGroups":[{"coveredResources":["nvidia.com/gpu"],"flavors":[{"name":"gpu","resources":[{"name":"nvidia.com/gpu","nominalQuota":8}]}]}]})");
  CHECK(spec_of(w, "Cohort", "team").dump() == R"({"parentName":"org","fairSharing":{"weight":2}})");
  CHECK(spec_of(w, "ClusterQueue", "a").at("fairSharing").dump() == R"({"weight":3})");
  CHECK(find_object(w, "WorkloadPriorityClass", "urgent") != nullptr);
}

TEST_CASE("worker shares: an override keeps its quota and the others share what is left",
          "[kueue][lower][worker][shares]") {
  const auto r = render_text(kHierarchy);
  const ClusterObjects& fixed = cluster_of(*r, "fixed");
  CHECK(resource_of(spec_of(fixed, "ClusterQueue", "a"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 20);
  // 32 - 20 = 12 among b, c and org (1 each): 4 each.
  CHECK(resource_of(spec_of(fixed, "ClusterQueue", "b"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 4);
  CHECK(resource_of(spec_of(fixed, "ClusterQueue", "c"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 4);
  CHECK(resource_of(spec_of(fixed, "Cohort", "org"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 4);
}

TEST_CASE("worker shares: a worker that serves no queue holds no cohort and no priority class",
          "[kueue][lower][worker][shares]") {
  const auto r = render_text(kHierarchy);
  const ClusterObjects& idle = cluster_of(*r, "idle");
  CHECK(count_kind(idle, "Cohort") == 0);
  CHECK(count_kind(idle, "WorkloadPriorityClass") == 0);
  CHECK(count_kind(idle, "ClusterQueue") == 0);
}

TEST_CASE("worker shares: the sum on a worker never exceeds its capacity (uneven shares)",
          "[kueue][lower][worker][shares]") {
  const auto r = render_text(R"(
manager "hub" {}
flavor "gpu" {}
worker "w" { capacity "gpu" { "nvidia.com/gpu" = 32 } }
clusterqueue "a" { quota "gpu" { "nvidia.com/gpu" = 1 } }
clusterqueue "b" { quota "gpu" { "nvidia.com/gpu" = 1 } }
clusterqueue "c" { quota "gpu" { "nvidia.com/gpu" = 1 } }
dispatch "d" { queues = ["a", "b", "c"], workers = ["w"] }
)");
  const ClusterObjects& w = cluster_of(*r, "w");
  CHECK(resource_of(spec_of(w, "ClusterQueue", "a"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 11);
  CHECK(resource_of(spec_of(w, "ClusterQueue", "b"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 11);
  CHECK(resource_of(spec_of(w, "ClusterQueue", "c"), "gpu", "nvidia.com/gpu").at("nominalQuota") == 10);
}
