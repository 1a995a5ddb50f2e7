// The tables of schema.h, written from ../shared/kueue/VALIDATION.md and
// MULTIKUEUE.md (rule numbers in comments refer to VALIDATION.md).
#include "compiler/kueue/schema.h"

#include <algorithm>

namespace mkq::kueue::schema {

namespace {

using enum FieldType;

constexpr std::array kFieldTable = std::to_array<Field>({
    // ResourceFlavor (rules 42-46)
    {Kind::ResourceFlavor, "spec", Object, false},
    {Kind::ResourceFlavor, "spec.nodeLabels", Map, false},
    {Kind::ResourceFlavor, "spec.nodeTaints", List, false},
    {Kind::ResourceFlavor, "spec.nodeTaints[].key", String, true},
    {Kind::ResourceFlavor, "spec.nodeTaints[].value", String, false},
    {Kind::ResourceFlavor, "spec.nodeTaints[].effect", String, true},
    {Kind::ResourceFlavor, "spec.tolerations", List, false},
    {Kind::ResourceFlavor, "spec.tolerations[].key", String, false},
    {Kind::ResourceFlavor, "spec.tolerations[].operator", String, false},
    {Kind::ResourceFlavor, "spec.tolerations[].value", String, false},
    {Kind::ResourceFlavor, "spec.tolerations[].effect", String, false},
    {Kind::ResourceFlavor, "spec.tolerations[].tolerationSeconds", Integer, false},
    {Kind::ResourceFlavor, "spec.topologyName", String, false},
    // Topology (rules 47-50)
    {Kind::Topology, "spec", Object, true},
    {Kind::Topology, "spec.levels", List, true},
    {Kind::Topology, "spec.levels[].nodeLabel", String, true},
    // Cohort (rules 31-37)
    {Kind::Cohort, "spec", Object, false},
    {Kind::Cohort, "spec.parentName", String, false},
    {Kind::Cohort, "spec.resourceGroups", List, false},
    {Kind::Cohort, "spec.resourceGroups[].coveredResources", List, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors", List, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].name", String, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources", List, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources[].name", String, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources[].nominalQuota", Quantity, true},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources[].borrowingLimit", Quantity, false},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources[].lendingLimit", Quantity, false},
    {Kind::Cohort, "spec.fairSharing", Object, false},
    {Kind::Cohort, "spec.fairSharing.weight", Quantity, false},
    // ClusterQueue (rules 1-30)
    {Kind::ClusterQueue, "spec", Object, false},
    {Kind::ClusterQueue, "spec.namespaceSelector", Object, false},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchLabels", Map, false},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions", List, false},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions[].key", String, true},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions[].operator", String, true},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions[].values", List, false},
    {Kind::ClusterQueue, "spec.resourceGroups", List, false},
    {Kind::ClusterQueue, "spec.resourceGroups[].coveredResources", List, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors", List, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].name", String, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources", List, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources[].name", String, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources[].nominalQuota", Quantity, true},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources[].borrowingLimit", Quantity, false},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources[].lendingLimit", Quantity, false},
    {Kind::ClusterQueue, "spec.cohortName", String, false},
    {Kind::ClusterQueue, "spec.preemption", Object, false},
    {Kind::ClusterQueue, "spec.preemption.withinClusterQueue", String, false},
    {Kind::ClusterQueue, "spec.preemption.reclaimWithinCohort", String, false},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort", Object, false},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort.policy", String, false},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort.maxPriorityThreshold", Integer, false},
    {Kind::ClusterQueue, "spec.fairSharing", Object, false},
    {Kind::ClusterQueue, "spec.fairSharing.weight", Quantity, false},
    {Kind::ClusterQueue, "spec.flavorFungibility", Object, false},
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanBorrow", String, false},
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanPreempt", String, false},
    {Kind::ClusterQueue, "spec.flavorFungibility.preference", String, false},
    {Kind::ClusterQueue, "spec.queueingStrategy", String, false},
    {Kind::ClusterQueue, "spec.stopPolicy", String, false},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy", Object, false},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks", List, true},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks[].name", String, true},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks[].onFlavors", List, false},
    // LocalQueue (rules 38-41)
    {Kind::LocalQueue, "spec", Object, false},
    {Kind::LocalQueue, "spec.clusterQueue", String, false},
    {Kind::LocalQueue, "spec.stopPolicy", String, false},
    {Kind::LocalQueue, "spec.fairSharing", Object, false},
    {Kind::LocalQueue, "spec.fairSharing.weight", Quantity, false},
    // WorkloadPriorityClass (rule 74): no spec, top-level fields.
    {Kind::WorkloadPriorityClass, "value", Integer, true},
    {Kind::WorkloadPriorityClass, "description", String, false},
    // AdmissionCheck (rules 52-55)
    {Kind::AdmissionCheck, "spec", Object, true},
    {Kind::AdmissionCheck, "spec.controllerName", String, true},
    {Kind::AdmissionCheck, "spec.parameters", Object, false},
    {Kind::AdmissionCheck, "spec.parameters.apiGroup", String, true},
    {Kind::AdmissionCheck, "spec.parameters.kind", String, true},
    {Kind::AdmissionCheck, "spec.parameters.name", String, true},
    // MultiKueueConfig (rules 56-59)
    {Kind::MultiKueueConfig, "spec", Object, true},
    {Kind::MultiKueueConfig, "spec.clusters", List, true},
    {Kind::MultiKueueConfig, "spec.quotaManagement", String, false},
    // MultiKueueCluster (rules 60-66)
    {Kind::MultiKueueCluster, "spec", Object, true},
    {Kind::MultiKueueCluster, "spec.clusterSource", Object, true},
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig", Object, false},
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig.locationType", String, false},
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig.location", String, true},
    {Kind::MultiKueueCluster, "spec.clusterSource.clusterProfileRef", Object, false},
    {Kind::MultiKueueCluster, "spec.clusterSource.clusterProfileRef.name", String, true},
});

constexpr std::array<std::string_view, 2> kQueueingStrategyValues = {"StrictFIFO", "BestEffortFIFO"};
constexpr std::array<std::string_view, 3> kStopPolicyValues = {"None", "Hold", "HoldAndDrain"};
constexpr std::array<std::string_view, 3> kWithinClusterQueueValues = {"Never", "LowerPriority",
                                                                       "LowerOrNewerEqualPriority"};
constexpr std::array<std::string_view, 3> kReclaimWithinCohortValues = {"Never", "LowerPriority", "Any"};
constexpr std::array<std::string_view, 2> kBorrowWithinCohortValues = {"Never", "LowerPriority"};
constexpr std::array<std::string_view, 2> kFungibilityValues = {"MayStopSearch", "TryNextFlavor"};
constexpr std::array<std::string_view, 2> kPreferenceValues = {"BorrowingOverPreemption", "PreemptionOverBorrowing"};
constexpr std::array<std::string_view, 3> kTaintEffectValues = {"NoSchedule", "PreferNoSchedule", "NoExecute"};
constexpr std::array<std::string_view, 2> kTolerationOperatorValues = {"Equal", "Exists"};
constexpr std::array<std::string_view, 2> kLocationTypeValues = {"Secret", "Path"};
constexpr std::array<std::string_view, 2> kQuotaManagementValues = {"Manual", "Automated"};
constexpr std::array<std::string_view, 4> kSelectorOperatorValues = {"In", "NotIn", "Exists", "DoesNotExist"};

constexpr std::array kEnumTable = std::to_array<EnumField>({
    {Kind::ClusterQueue, "spec.queueingStrategy", kQueueingStrategyValues},  // rule 20
    {Kind::ClusterQueue, "spec.stopPolicy", kStopPolicyValues},                // rule 21
    {Kind::ClusterQueue, "spec.preemption.withinClusterQueue", kWithinClusterQueueValues},  // rule 22
    {Kind::ClusterQueue, "spec.preemption.reclaimWithinCohort", kReclaimWithinCohortValues},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort.policy", kBorrowWithinCohortValues},
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanBorrow", kFungibilityValues},  // rule 23
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanPreempt", kFungibilityValues},
    {Kind::ClusterQueue, "spec.flavorFungibility.preference", kPreferenceValues},
    {Kind::ClusterQueue, "spec.namespaceSelector.matchExpressions[].operator", kSelectorOperatorValues},
    {Kind::LocalQueue, "spec.stopPolicy", kStopPolicyValues},  // rule 39
    {Kind::ResourceFlavor, "spec.nodeTaints[].effect", kTaintEffectValues},  // rule 43
    {Kind::ResourceFlavor, "spec.tolerations[].effect", kTaintEffectValues},  // rule 44
    {Kind::ResourceFlavor, "spec.tolerations[].operator", kTolerationOperatorValues},
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig.locationType", kLocationTypeValues},  // rule 61
    {Kind::MultiKueueConfig, "spec.quotaManagement", kQuotaManagementValues},  // rule 58
});

using enum LimitType;

constexpr std::array kLimitTable = std::to_array<FieldLimit>({
    // ClusterQueue (rules 1-4, 10, 18, 26)
    {Kind::ClusterQueue, "spec.resourceGroups", MaxItems, kMaxResourceGroups},
    {Kind::ClusterQueue, "spec.resourceGroups[].coveredResources", MinItems, 1},
    {Kind::ClusterQueue, "spec.resourceGroups[].coveredResources", MaxItems, kMaxCoveredResources},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors", MinItems, 1},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors", MaxItems, kMaxFlavorsPerGroup},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].name", MaxLength, kMaxDns1123SubdomainLength},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources", MinItems, 1},
    {Kind::ClusterQueue, "spec.resourceGroups[].flavors[].resources", MaxItems, kMaxResourcesPerFlavor},
    {Kind::ClusterQueue, "spec.cohortName", MaxLength, kMaxDns1123SubdomainLength},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks", MinItems, 1},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks", MaxItems, kMaxAdmissionChecks},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks[].name", MaxLength,
     kMaxAdmissionCheckNameLength},
    {Kind::ClusterQueue, "spec.admissionChecksStrategy.admissionChecks[].onFlavors", MaxItems, kMaxOnFlavors},
    // Cohort (rules 31-32)
    {Kind::Cohort, "spec.parentName", MaxLength, kMaxDns1123SubdomainLength},
    {Kind::Cohort, "spec.resourceGroups", MaxItems, kMaxResourceGroups},
    {Kind::Cohort, "spec.resourceGroups[].coveredResources", MinItems, 1},
    {Kind::Cohort, "spec.resourceGroups[].coveredResources", MaxItems, kMaxCoveredResources},
    {Kind::Cohort, "spec.resourceGroups[].flavors", MinItems, 1},
    {Kind::Cohort, "spec.resourceGroups[].flavors", MaxItems, kMaxFlavorsPerGroup},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].name", MaxLength, kMaxDns1123SubdomainLength},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources", MinItems, 1},
    {Kind::Cohort, "spec.resourceGroups[].flavors[].resources", MaxItems, kMaxResourcesPerFlavor},
    // LocalQueue (rule 38)
    {Kind::LocalQueue, "spec.clusterQueue", MaxLength, kMaxDns1123SubdomainLength},
    // ResourceFlavor (rules 42-45)
    {Kind::ResourceFlavor, "spec.nodeLabels", MaxProperties, kMaxNodeLabels},
    {Kind::ResourceFlavor, "spec.nodeTaints", MaxItems, kMaxNodeTaints},
    {Kind::ResourceFlavor, "spec.tolerations", MaxItems, kMaxTolerations},
    {Kind::ResourceFlavor, "spec.topologyName", MaxLength, kMaxDns1123SubdomainLength},
    // Topology (rule 47)
    {Kind::Topology, "spec.levels", MinItems, 1},
    {Kind::Topology, "spec.levels", MaxItems, kMaxTopologyLevels},
    {Kind::Topology, "spec.levels[].nodeLabel", MaxLength, kMaxTopologyLevelLength},
    // AdmissionCheck (rules 52-53)
    {Kind::AdmissionCheck, "spec.controllerName", MaxLength, kMaxControllerNameLength},
    {Kind::AdmissionCheck, "spec.parameters.apiGroup", MaxLength, kMaxDns1123SubdomainLength},
    {Kind::AdmissionCheck, "spec.parameters.kind", MaxLength, kMaxParametersKindLength},
    {Kind::AdmissionCheck, "spec.parameters.name", MaxLength, kMaxParametersNameLength},
    // MultiKueueConfig (rule 56)
    {Kind::MultiKueueConfig, "spec.clusters", MinItems, kMinMultiKueueClusters},
    {Kind::MultiKueueConfig, "spec.clusters", MaxItems, kMaxMultiKueueClusters},
    {Kind::MultiKueueConfig, "spec.clusters[]", MaxLength, kMaxMultiKueueClusterNameLength},
    // MultiKueueCluster (rules 61-62)
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig.location", MaxLength, kMaxKubeConfigLocationLength},
    {Kind::MultiKueueCluster, "spec.clusterSource.clusterProfileRef.name", MaxLength, kMaxClusterProfileNameLength},
    // WorkloadPriorityClass (rule 74)
    {Kind::WorkloadPriorityClass, "description", MaxLength, kMaxPriorityClassDescriptionLength},
});

// Every default of the kinds mkq writes (tests/kueue/crd_defaults_test.cpp
// checks the Server ones against every `default:` of Kueue's released CRDs).
// Topology, WorkloadPriorityClass and AdmissionCheck have none. The built-in
// kinds have none listed, on purpose: what Kubernetes defaults there is set by
// the server on its own (a Namespace's spec.finalizers) or cannot drift in
// place (a Secret's type and a binding's roleRef are immutable; a
// binding subject's apiGroup has one valid value per kind), and ConfigMap,
// ServiceAccount and ClusterRole have no defaulted field mkq writes. What
// Kueue sets on its own -- metadata.finalizers (its webhook adds
// kueue.x-k8s.io/resource-in-use) and status (its controllers) -- is no
// default either: the diff never compares it.
using enum DefaultSource;
constexpr std::array kDefaultTable = std::to_array<FieldDefault>({
    {Kind::ClusterQueue, "spec.queueingStrategy", "\"BestEffortFIFO\"", Server},  // rule 20
    {Kind::ClusterQueue, "spec.stopPolicy", "\"None\"", Server},                  // rule 21
    {Kind::ClusterQueue, "spec.preemption", "{}", Server},                        // rule 22
    {Kind::ClusterQueue, "spec.preemption.withinClusterQueue", "\"Never\"", Server},
    {Kind::ClusterQueue, "spec.preemption.reclaimWithinCohort", "\"Never\"", Server},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort", "{}", Server},
    {Kind::ClusterQueue, "spec.preemption.borrowWithinCohort.policy", "\"Never\"", Server},
    {Kind::ClusterQueue, "spec.flavorFungibility", "{}", Server},  // rule 23
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanBorrow", "\"MayStopSearch\"", Server},
    {Kind::ClusterQueue, "spec.flavorFungibility.whenCanPreempt", "\"TryNextFlavor\"", Server},
    {Kind::ClusterQueue, "spec.fairSharing.weight", "1", Server},  // rule 24 (when fairSharing is set)
    {Kind::Cohort, "spec.fairSharing.weight", "1", Server},        // rule 36
    {Kind::LocalQueue, "spec.stopPolicy", "\"None\"", Server},      // rule 39
    {Kind::LocalQueue, "spec.fairSharing.weight", "1", Server},    // rule 40
    {Kind::ResourceFlavor, "spec.tolerations[].operator", "\"Equal\"", Unset},  // rule 44
    {Kind::MultiKueueCluster, "spec.clusterSource.kubeConfig.locationType", "\"Secret\"", Server},  // rule 61
    {Kind::MultiKueueConfig, "spec.quotaManagement", "\"Manual\"", Unset},  // rule 58
});

constexpr std::array kImmutableTable = std::to_array<ImmutableField>({
    {Kind::LocalQueue, "spec.clusterQueue", Mutability::Immutable, "field is immutable"},  // rule 38
    {Kind::AdmissionCheck, "spec.controllerName", Mutability::Immutable, "field is immutable"},  // rule 52
    {Kind::ResourceFlavor, "spec.topologyName", Mutability::SetOnce,
     "topologyName is immutable when topologyName is set"},  // rule 45
    {Kind::Topology, "spec.levels", Mutability::Conditional,
     "levels are mutable only when kubernetes.io/hostname is the lowest level both before and after the change"},  // rule 50
});

constexpr int kind_index(Kind kind) { return static_cast<int>(kind); }

}  // namespace

const std::span<const Field> kFields = kFieldTable;
const std::span<const EnumField> kEnums = kEnumTable;
const std::span<const FieldLimit> kLimits = kLimitTable;
const std::span<const FieldDefault> kDefaults = kDefaultTable;
const std::span<const ImmutableField> kImmutableFields = kImmutableTable;

const KindInfo& info(Kind kind) { return kKinds[static_cast<std::size_t>(kind_index(kind))]; }

const KindInfo* find_kind(std::string_view name) {
  for (const KindInfo& k : kKinds) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

int apply_rank(std::string_view kind_name) {
  const KindInfo* k = find_kind(kind_name);
  return k == nullptr ? static_cast<int>(kKinds.size()) : kind_index(k->kind);
}

bool is_kueue_configuration(std::string_view kind, std::string_view name) {
  return kind == info(Kind::ConfigMap).name && name == kKueueConfigMapName;
}

std::span<const Field> fields_of(Kind kind) {
  const auto first = std::find_if(kFieldTable.begin(), kFieldTable.end(), [&](const Field& f) { return f.kind == kind; });
  const auto last = std::find_if(first, kFieldTable.end(), [&](const Field& f) { return f.kind != kind; });
  return {first, last};
}

const Field* find_field(Kind kind, std::string_view path) {
  for (const Field& f : kFieldTable) {
    if (f.kind == kind && f.path == path) return &f;
  }
  return nullptr;
}

const EnumField* find_enum(Kind kind, std::string_view path) {
  for (const EnumField& e : kEnumTable) {
    if (e.kind == kind && e.path == path) return &e;
  }
  return nullptr;
}

std::optional<std::int64_t> find_limit(Kind kind, std::string_view path, LimitType type) {
  for (const FieldLimit& l : kLimitTable) {
    if (l.kind == kind && l.path == path && l.type == type) return l.value;
  }
  return std::nullopt;
}

const FieldDefault* find_default(Kind kind, std::string_view path) {
  for (const FieldDefault& d : kDefaultTable) {
    if (d.kind == kind && d.path == path) return &d;
  }
  return nullptr;
}

const ImmutableField* find_immutable(Kind kind, std::string_view path) {
  for (const ImmutableField& i : kImmutableTable) {
    if (i.kind == kind && i.path == path) return &i;
  }
  return nullptr;
}

}  // namespace mkq::kueue::schema
