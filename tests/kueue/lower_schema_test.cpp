// mkq's description of the kinds it renders (compiler/kueue/schema.h).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "compiler/kueue/schema.h"

namespace schema = mkq::kueue::schema;
using Json = nlohmann::json;

TEST_CASE("schema: kinds are listed in apply order, one entry per enum value", "[kueue][schema]") {
  int last_tier = -1;
  for (std::size_t i = 0; i < schema::kKinds.size(); ++i) {
    const schema::KindInfo& kind = schema::kKinds[i];
    CHECK(static_cast<std::size_t>(kind.kind) == i);
    CHECK(&schema::info(kind.kind) == &kind);
    CHECK(schema::find_kind(kind.name) == &kind);
    CHECK(schema::apply_rank(kind.name) == static_cast<int>(i));
    CHECK(kind.apply_tier >= last_tier);
    last_tier = kind.apply_tier;
  }
  CHECK(schema::find_kind("Workload") == nullptr);
  CHECK(schema::apply_rank("Workload") == static_cast<int>(schema::kKinds.size()));
}

TEST_CASE("schema: Kueue's dependency order", "[kueue][schema]") {
  auto tier = [](schema::Kind kind) { return schema::info(kind).apply_tier; };
  using K = schema::Kind;
  CHECK(tier(K::Namespace) < tier(K::Secret));
  CHECK(tier(K::Secret) < tier(K::ServiceAccount));
  CHECK(tier(K::ServiceAccount) < tier(K::ClusterRoleBinding));
  CHECK(tier(K::ClusterRoleBinding) < tier(K::ResourceFlavor));
  CHECK(tier(K::ResourceFlavor) == tier(K::Topology));
  CHECK(tier(K::ResourceFlavor) == tier(K::Cohort));
  CHECK(tier(K::ResourceFlavor) == tier(K::WorkloadPriorityClass));
  CHECK(tier(K::WorkloadPriorityClass) < tier(K::MultiKueueCluster));
  CHECK(tier(K::MultiKueueCluster) < tier(K::MultiKueueConfig));
  CHECK(tier(K::MultiKueueConfig) < tier(K::AdmissionCheck));
  CHECK(tier(K::AdmissionCheck) < tier(K::ClusterQueue));
  CHECK(tier(K::ClusterQueue) < tier(K::LocalQueue));
}

TEST_CASE("schema: Kueue kinds are kueue.x-k8s.io/v1beta2 with their REST names and scope", "[kueue][schema]") {
  const auto& cq = schema::info(schema::Kind::ClusterQueue);
  CHECK(cq.api_version == "kueue.x-k8s.io/v1beta2");
  CHECK(cq.plural == "clusterqueues");
  CHECK_FALSE(cq.namespaced);
  CHECK(schema::info(schema::Kind::LocalQueue).namespaced);
  CHECK(schema::info(schema::Kind::LocalQueue).short_names == "queue queues lq");
  CHECK(schema::info(schema::Kind::Topology).plural == "topologies");
  CHECK(schema::info(schema::Kind::WorkloadPriorityClass).plural == "workloadpriorityclasses");
  CHECK(schema::info(schema::Kind::RoleBinding).api_version == "rbac.authorization.k8s.io/v1");
  CHECK(schema::info(schema::Kind::Secret).api_version == "v1");
}

TEST_CASE("schema: limits, enums, defaults and immutable fields", "[kueue][schema]") {
  using K = schema::Kind;
  using L = schema::LimitType;
  CHECK(schema::find_limit(K::ClusterQueue, "spec.resourceGroups", L::MaxItems) == 16);
  CHECK(schema::find_limit(K::ClusterQueue, "spec.resourceGroups[].flavors", L::MaxItems) == 64);
  CHECK(schema::find_limit(K::MultiKueueConfig, "spec.clusters", L::MaxItems) == 20);
  CHECK(schema::find_limit(K::MultiKueueConfig, "spec.clusters", L::MinItems) == 1);
  CHECK(schema::find_limit(K::ResourceFlavor, "spec.nodeLabels", L::MaxProperties) == 8);
  CHECK(schema::find_limit(K::Topology, "spec.levels", L::MaxItems) == 16);
  CHECK(schema::find_limit(K::AdmissionCheck, "spec.parameters.name", L::MaxLength) == 63);
  CHECK_FALSE(schema::find_limit(K::LocalQueue, "spec.resourceGroups", L::MaxItems).has_value());

  const auto* strategy = schema::find_enum(K::ClusterQueue, "spec.queueingStrategy");
  REQUIRE(strategy != nullptr);
  CHECK(strategy->values.size() == 2);
  const auto* strategy_default = schema::find_default(K::ClusterQueue, "spec.queueingStrategy");
  REQUIRE(strategy_default != nullptr);
  CHECK(strategy_default->json_value == "\"BestEffortFIFO\"");
  const auto* preempt = schema::find_default(K::ClusterQueue, "spec.flavorFungibility.whenCanPreempt");
  REQUIRE(preempt != nullptr);
  CHECK(preempt->json_value == "\"TryNextFlavor\"");
  CHECK(preempt->source == schema::DefaultSource::Server);
  const auto* quota_management = schema::find_default(K::MultiKueueConfig, "spec.quotaManagement");
  REQUIRE(quota_management != nullptr);
  CHECK(quota_management->source == schema::DefaultSource::Unset);

  const auto* lq = schema::find_immutable(K::LocalQueue, "spec.clusterQueue");
  REQUIRE(lq != nullptr);
  CHECK(lq->mutability == schema::Mutability::Immutable);
  CHECK(schema::find_immutable(K::AdmissionCheck, "spec.controllerName") != nullptr);
  const auto* topology = schema::find_immutable(K::ResourceFlavor, "spec.topologyName");
  REQUIRE(topology != nullptr);
  CHECK(topology->mutability == schema::Mutability::SetOnce);
  CHECK(schema::find_immutable(K::ClusterQueue, "spec.cohortName") == nullptr);

  const auto* location = schema::find_default(K::MultiKueueCluster, "spec.clusterSource.kubeConfig.locationType");
  REQUIRE(location != nullptr);
  CHECK(location->json_value == "\"Secret\"");
}

TEST_CASE("schema: every enum, limit, default and immutable path is a known field", "[kueue][schema]") {
  for (const auto& e : schema::kEnums) {
    INFO(e.path);
    CHECK(schema::find_field(e.kind, e.path) != nullptr);
  }
  for (const auto& l : schema::kLimits) {
    INFO(l.path);
    // "spec.clusters[]" names the items of a known list.
    const std::string path(l.path);
    const bool items = path.ends_with("[]");
    CHECK(schema::find_field(l.kind, items ? path.substr(0, path.size() - 2) : path) != nullptr);
  }
  for (const auto& d : schema::kDefaults) {
    INFO(d.path);
    CHECK(schema::find_field(d.kind, d.path) != nullptr);
    const Json value = Json::parse(d.json_value, nullptr, false);
    REQUIRE_FALSE(value.is_discarded());
    // An enum's default is one of its values.
    if (const auto* e = schema::find_enum(d.kind, d.path)) {
      REQUIRE(value.is_string());
      CHECK(std::find(e->values.begin(), e->values.end(), value.get<std::string>()) != e->values.end());
    }
  }
  for (const auto& i : schema::kImmutableFields) {
    INFO(i.path);
    CHECK(schema::find_field(i.kind, i.path) != nullptr);
  }
}

TEST_CASE("schema: fields are grouped by kind and parents come first", "[kueue][schema]") {
  std::set<std::string> seen;
  for (const schema::KindInfo& kind : schema::kKinds) {
    for (const schema::Field& field : schema::fields_of(kind.kind)) {
      CHECK(field.kind == kind.kind);
      const std::string path(field.path);
      const auto dot = path.rfind('.');
      if (dot != std::string::npos) {
        std::string parent = path.substr(0, dot);
        if (parent.ends_with("[]")) parent.resize(parent.size() - 2);
        INFO(path);
        CHECK(seen.contains(std::string(kind.name) + ":" + parent));
      }
      seen.insert(std::string(kind.name) + ":" + path);
    }
  }
  std::size_t total = 0;
  for (const schema::KindInfo& kind : schema::kKinds) total += schema::fields_of(kind.kind).size();
  CHECK(total == schema::kFields.size());
}
