// Every x-kubernetes-validations rule of the CRDs the sandbox installs --
// Kueue's (../shared/kueue/crds, with ClusterProfile's) and OpenShift's
// Kueue operator's (../shared/kueue/openshift) -- run by the sandbox's CEL
// evaluator on an object that satisfies it and one that breaks it, with
// kube-apiserver's field path and message. A last check proves that no
// rule of those files is left without a failing case.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "sandbox/crd_rules.h"
#include "sandbox/daemon_files.h"
#include "sandbox/schema.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

const std::map<std::string, json>& crds() {
  static const auto* table = [] {
    auto* out = new std::map<std::string, json>();  // NOLINT: lives as long as the test
    for (const char* dir : {"/kueue/crds", "/kueue/openshift"}) {
      std::vector<json> found;
      std::string error;
      const std::filesystem::path path = std::string(MKQ_SHARED_DIR) + dir;
      if (!read_crds(path, &found, &error)) FAIL("cannot read " << path << ": " << error);
      for (json& crd : found) {
        const std::string plural = crd["spec"]["names"]["plural"].get<std::string>();
        (*out)[plural] = std::move(crd);
      }
    }
    return out;
  }();
  return *table;
}

const json& schema_of(const std::string& plural, const std::string& version) {
  const auto it = crds().find(plural);
  REQUIRE(it != crds().end());
  for (const json& v : it->second["spec"]["versions"]) {
    if (v["name"] == version) return v["schema"]["openAPIV3Schema"];
  }
  FAIL("no version " << version << " in " << plural);
  static const json none;
  return none;
}

// A rule seen failing: CRD, version, field path with indices and keys as [*], message.
using RuleKey = std::tuple<std::string, std::string, std::string, std::string>;
std::set<RuleKey>& covered() {
  static std::set<RuleKey> keys;
  return keys;
}

std::string generic_path(const std::string& field) {
  static const std::regex index(R"(\[[^\]]*\])");
  return std::regex_replace(field, index, "[*]");
}

struct Case {
  const char* crd;       // the CRD's plural
  const char* versions;  // space-separated versions to run on
  const char* passing;   // the object (apiVersion/kind added; metadata.name "cluster" unless given)
  const char* failing;
  const char* error;     // "<field>: <message>" of the failing object
  const char* old = nullptr;  // transition rules: the stored object of the update
};

json object_of(const char* text, const std::string& plural, const std::string& version) {
  json o = json::parse(text);
  const json& crd = crds().at(plural);
  o["apiVersion"] = crd["spec"]["group"].get<std::string>() + "/" + version;
  o["kind"] = crd["spec"]["names"]["kind"];
  if (!o.contains("metadata")) o["metadata"] = {{"name", "cluster"}};
  return o;
}

// The rule errors of `text` as kube-apiserver runs them: pruned and defaulted first.
std::vector<FieldError> run(const json& schema, const std::string& plural, const std::string& version,
                            const char* text, const char* old_text) {
  std::vector<FieldError> compile_errors;
  const auto rules = CrdRules::compile(schema, "schema", &compile_errors);
  REQUIRE(compile_errors.empty());
  json object = object_of(text, plural, version);
  apply_schema(schema, object);
  if (old_text == nullptr) return rules->validate(object, nullptr);
  json old = object_of(old_text, plural, version);
  apply_schema(schema, old);
  return rules->validate(object, &old);
}

void check(const Case& c) {
  std::istringstream versions(c.versions);
  std::string version;
  while (versions >> version) {
    INFO(c.crd << " " << version << ": " << c.error);
    const json& schema = schema_of(c.crd, version);
    const auto passed = run(schema, c.crd, version, c.passing, c.old);
    for (const auto& e : passed) INFO("unexpected: " << e.field << ": " << e.message);
    CHECK(passed.empty());
    const auto failed = run(schema, c.crd, version, c.failing, c.old);
    REQUIRE(failed.size() == 1);
    CHECK(failed[0].reason == "FieldValueInvalid");
    CHECK(failed[0].field + ": " + failed[0].message == c.error);
    const std::string prefix = "Invalid value: \"";
    const std::size_t message_at = failed[0].message.find("\": ");
    covered().insert({c.crd, version, generic_path(failed[0].field), failed[0].message.substr(message_at + 3)});
  }
}

#define QR R"("conditions": [{"type": "QuotaReserved", "status": "True", "reason": "r", "message": "m", "lastTransitionTime": "2025-01-01T00:00:00Z"}])"
#define ADMITTED R"("conditions": [{"type": "Admitted", "status": "True", "reason": "r", "message": "m", "lastTransitionTime": "2025-01-01T00:00:00Z"}])"
#define POD_SETS R"("podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": []}}}])"

// crd rules: ClusterQueue
void cluster_queue_cases() {
  check({"clusterqueues", "v1beta1",
         R"({"spec": {"cohort": "c", "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
         R"(spec: Invalid value: "object": borrowingLimit must be nil when cohort is empty)"});
  check({"clusterqueues", "v1beta2",
         R"({"spec": {"cohortName": "c", "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})",
         R"(spec: Invalid value: "object": borrowingLimit must be nil when cohort is empty)"});
  check({"clusterqueues", "v1beta1 v1beta2",
         R"({"spec": {"flavorFungibility": {"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "TryNextFlavor", "preference": "BorrowingOverPreemption"}}})",
         R"({"spec": {"flavorFungibility": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor", "preference": "BorrowingOverPreemption"}}})",
         R"(spec.flavorFungibility: Invalid value: "object": preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor)"});
  check({"clusterqueues", "v1beta1 v1beta2",
         R"({"spec": {"preemption": {"reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "Never"}}}})",
         R"({"spec": {"preemption": {"reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "LowerPriority"}}}})",
         R"(spec.preemption: Invalid value: "object": reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never)"});
  check({"clusterqueues", "v1beta1 v1beta2",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1}, {"name": "memory", "nominalQuota": 1}]}]}]}})",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu", "memory"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1}]}]}]}})",
         R"(spec.resourceGroups[0]: Invalid value: "object": flavors must have the same number of resources as the coveredResources)"});
}

// crd rules: Cohort, LocalQueue, AdmissionCheck, ClusterProfile
void cohort_local_queue_admission_check_profile_cases() {
  check({"cohorts", "v1beta1 v1beta2",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 1}]}]}]}})",
         R"({"spec": {"resourceGroups": [{"coveredResources": ["cpu"], "flavors": [{"name": "f", "resources": []}]}]}})",
         R"(spec.resourceGroups[0]: Invalid value: "object": flavors must have the same number of resources as the coveredResources)"});
  check({"localqueues", "v1beta1 v1beta2", R"({"spec": {"clusterQueue": "a"}})", R"({"spec": {"clusterQueue": "b"}})",
         R"(spec.clusterQueue: Invalid value: "string": field is immutable)", R"({"spec": {"clusterQueue": "a"}})"});
  check({"admissionchecks", "v1beta1 v1beta2", R"({"spec": {"controllerName": "a"}})",
         R"({"spec": {"controllerName": "b"}})", R"(spec.controllerName: Invalid value: "string": field is immutable)",
         R"({"spec": {"controllerName": "a"}})"});
  check({"clusterprofiles", "v1alpha1", R"({"spec": {"clusterManager": {"name": "ocm"}}})",
         R"({"spec": {"clusterManager": {"name": "other"}}})",
         R"(spec.clusterManager: Invalid value: "object": ClusterManager is immutable)",
         R"({"spec": {"clusterManager": {"name": "ocm"}}})"});
}

// crd rules: MultiKueueCluster, MultiKueueConfig, Topology
void multikueue_topology_cases() {
  check({"multikueueclusters", "v1beta2", R"({"spec": {"clusterSource": {"kubeConfig": {"location": "s"}}}})",
         R"({"spec": {"clusterSource": {"kubeConfig": {"location": "s"}, "clusterProfileRef": {"name": "p"}}}})",
         R"(spec.clusterSource: Invalid value: "object": exactly one of the fields in [kubeConfig clusterProfileRef] must be set)"});
  check({"multikueueconfigs", "v1beta2", R"({"spec": {"clusters": ["a", "b"]}})", R"({"spec": {"clusters": ["a", "b", "a"]}})",
         R"(spec.clusters: Invalid value: "array": must be unique)"});
  check({"topologies", "v1beta1 v1beta2", R"({"spec": {"levels": [{"nodeLabel": "rack"}, {"nodeLabel": "block"}]}})",
         R"({"spec": {"levels": [{"nodeLabel": "rack"}, {"nodeLabel": "rack"}]}})",
         R"(spec.levels: Invalid value: "array": must be unique)"});
  check({"topologies", "v1beta1 v1beta2",
         R"({"spec": {"levels": [{"nodeLabel": "rack"}, {"nodeLabel": "kubernetes.io/hostname"}]}})",
         R"({"spec": {"levels": [{"nodeLabel": "kubernetes.io/hostname"}, {"nodeLabel": "rack"}]}})",
         R"(spec.levels: Invalid value: "array": the kubernetes.io/hostname label can only be used at the lowest level of topology)"});
  check({"topologies", "v1beta1", R"({"spec": {"levels": [{"nodeLabel": "rack"}]}})",
         R"({"spec": {"levels": [{"nodeLabel": "block"}]}})", R"(spec.levels: Invalid value: "array": field is immutable)",
         R"({"spec": {"levels": [{"nodeLabel": "rack"}]}})"});
  check({"topologies", "v1beta2",
         R"({"spec": {"levels": [{"nodeLabel": "block"}, {"nodeLabel": "kubernetes.io/hostname"}]}})",
         R"({"spec": {"levels": [{"nodeLabel": "block"}]}})",
         R"(spec.levels: Invalid value: "array": levels are mutable only when kubernetes.io/hostname is the lowest level both before and after the change)",
         R"({"spec": {"levels": [{"nodeLabel": "rack"}, {"nodeLabel": "kubernetes.io/hostname"}]}})"});
}

// crd rules: ResourceFlavor
void resource_flavor_cases() {
  const char* both = "v1beta1 v1beta2";
  check({"resourceflavors", both, R"({"spec": {"topologyName": "t", "nodeLabels": {"pool": "a"}}})",
         R"({"spec": {"topologyName": "t", "nodeLabels": {}}})",
         R"(spec: Invalid value: "object": at least one nodeLabel is required when topology is set)"});
  check({"resourceflavors", both, R"({"spec": {"topologyName": "t", "nodeLabels": {"pool": "a"}}})",
         R"({"spec": {"topologyName": "u", "nodeLabels": {"pool": "a"}}})",
         R"(spec: Invalid value: "object": topologyName is immutable when topologyName is set)",
         R"({"spec": {"topologyName": "t", "nodeLabels": {"pool": "a"}}})"});
  check({"resourceflavors", both, R"({"spec": {"nodeTaints": [{"key": "k", "effect": "NoSchedule"}]}})",
         R"({"spec": {"nodeTaints": [{"key": "k", "effect": "Sometimes"}]}})",
         R"(spec.nodeTaints: Invalid value: "array": supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute')"});
  check({"resourceflavors", both, R"({"spec": {"tolerations": [{"operator": "Exists"}]}})",
         R"({"spec": {"tolerations": [{"operator": "Equal"}]}})",
         R"(spec.tolerations: Invalid value: "array": operator must be Exists when 'key' is empty, which means 'match all values and all keys')"});
  check({"resourceflavors", both, R"({"spec": {"tolerations": [{"key": "k", "effect": "NoExecute", "tolerationSeconds": 5}]}})",
         R"({"spec": {"tolerations": [{"key": "k", "effect": "NoSchedule", "tolerationSeconds": 5}]}})",
         R"(spec.tolerations: Invalid value: "array": effect must be 'NoExecute' when 'tolerationSeconds' is set)"});
  check({"resourceflavors", both, R"({"spec": {"tolerations": [{"key": "k", "operator": "Equal", "value": "v"}]}})",
         R"({"spec": {"tolerations": [{"key": "k", "operator": "Matches", "value": "v"}]}})",
         R"(spec.tolerations: Invalid value: "array": supported toleration values: 'Equal'(default), 'Exists')"});
  check({"resourceflavors", both, R"({"spec": {"tolerations": [{"key": "k", "operator": "Exists"}]}})",
         R"({"spec": {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}})",
         R"(spec.tolerations: Invalid value: "array": a value must be empty when 'operator' is 'Exists')"});
  check({"resourceflavors", both, R"({"spec": {"tolerations": [{"key": "k", "effect": "PreferNoSchedule"}]}})",
         R"({"spec": {"tolerations": [{"key": "k", "effect": "Often"}]}})",
         R"(spec.tolerations: Invalid value: "array": supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute')"});
}

// crd rules: Workload, both versions
void workload_cases() {
  const char* both = "v1beta1 v1beta2";
  check({"workloads", both,
         R"({"spec": {)" POD_SETS R"(}, "status": {)" QR R"(, "admission": {"clusterQueue": "cq", "podSetAssignments": [{"name": "main"}]}}})",
         R"({"spec": {)" POD_SETS R"(}, "status": {)" QR R"(, "admission": {"clusterQueue": "cq", "podSetAssignments": []}}})",
         R"(<nil>: Invalid value: "object": podSetAssignments must have the same number of podSets as the spec)"});
  check({"workloads", both, R"({"spec": {"queueName": "a", )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"({"spec": {"queueName": "b", )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"(<nil>: Invalid value: "object": queueName is immutable while workload quota reserved)",
         R"({"spec": {"queueName": "a", )" POD_SETS R"(}, "status": {)" QR R"(}})"});
  check({"workloads", both, R"({"spec": {"maximumExecutionTimeSeconds": 60, )" POD_SETS R"(}, "status": {)" ADMITTED R"(}})",
         R"({"spec": {"maximumExecutionTimeSeconds": 90, )" POD_SETS R"(}, "status": {)" ADMITTED R"(}})",
         R"(<nil>: Invalid value: "object": maximumExecutionTimeSeconds is immutable while workload quota reserved)",
         R"({"spec": {"maximumExecutionTimeSeconds": 60, )" POD_SETS R"(}, "status": {)" ADMITTED R"(}})"});
  check({"workloads", both, R"({"spec": {"podSets": [{"name": "main", "count": 4, "minCount": 2, "template": {"spec": {"containers": []}}}]}})",
         R"({"spec": {"podSets": [{"name": "main", "count": 1, "minCount": 2, "template": {"spec": {"containers": []}}}]}})",
         R"(spec.podSets[0]: Invalid value: "object": minCount should be positive and less or equal to count)"});
  check({"workloads", both, R"({"spec": {)" POD_SETS R"(}, "status": {"clusterName": "east"}})",
         R"({"spec": {)" POD_SETS R"(}, "status": {"clusterName": "west"}})",
         R"(status: Invalid value: "object": clusterName is immutable once set)",
         R"({"spec": {)" POD_SETS R"(}, "status": {"clusterName": "east"}})"});
  check({"workloads", both, R"({"spec": {)" POD_SETS R"(}, "status": {"clusterName": "east", "nominatedClusterNames": []}})",
         R"({"spec": {)" POD_SETS R"(}, "status": {"clusterName": "east", "nominatedClusterNames": ["west"]}})",
         R"(status: Invalid value: "object": clusterName and nominatedClusterNames are mutually exclusive)"});
  const char* tolerations = R"({"spec": {)" POD_SETS R"(}, "status": {"admissionChecks": [{"name": "ac", "state": "Ready", "message": "", "lastTransitionTime": "2025-01-01T00:00:00Z", "podSetUpdates": [{"name": "main", "tolerations": [%s]}]}]}})";
  const auto with = [&](const char* toleration) {
    static std::vector<std::string> keep;  // Case holds pointers
    std::string text = tolerations;
    text.replace(text.find("%s"), 2, toleration);
    keep.push_back(text);
    return keep.back().c_str();
  };
  const std::string at = "status.admissionChecks[0].podSetUpdates[0].tolerations: Invalid value: \"array\": ";
  const std::string e1 = at + "operator must be Exists when 'key' is empty, which means 'match all values and all keys'";
  check({"workloads", both, with(R"({"operator": "Exists"})"), with(R"({"operator": "Equal"})"), e1.c_str()});
  const std::string e2 = at + "effect must be 'NoExecute' when 'tolerationSeconds' is set";
  check({"workloads", both, with(R"({"key": "k", "effect": "NoExecute", "tolerationSeconds": 1})"),
         with(R"({"key": "k", "effect": "NoSchedule", "tolerationSeconds": 1})"), e2.c_str()});
  const std::string e3 = at + "supported toleration values: 'Equal'(default), 'Exists'";
  check({"workloads", both, with(R"({"key": "k", "operator": "Equal"})"), with(R"({"key": "k", "operator": "In"})"), e3.c_str()});
  const std::string e4 = at + "a value must be empty when 'operator' is 'Exists'";
  check({"workloads", both, with(R"({"key": "k", "operator": "Exists"})"), with(R"({"key": "k", "operator": "Exists", "value": "v"})"), e4.c_str()});
  const std::string e5 = at + "supported taint effect values: 'NoSchedule', 'PreferNoSchedule', 'NoExecute'";
  check({"workloads", both, with(R"({"key": "k", "effect": "NoSchedule"})"), with(R"({"key": "k", "effect": "Never"})"), e5.c_str()});
}

// crd rules: Workload v1beta1 priorities
void workload_v1beta1_cases() {
  check({"workloads", "v1beta1", R"({"spec": {"priorityClassName": "high", "priority": 10, )" POD_SETS R"(}})",
         R"({"spec": {"priorityClassName": "high", )" POD_SETS R"(}})",
         R"(spec: Invalid value: "object": priority should not be nil when priorityClassName is set)"});
  check({"workloads", "v1beta1", R"({"spec": {"priorityClassSource": "a", )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"({"spec": {"priorityClassSource": "b", )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"(<nil>: Invalid value: "object": priorityClassSource is immutable while workload quota reserved)",
         R"({"spec": {"priorityClassSource": "a", )" POD_SETS R"(}, "status": {)" QR R"(}})"});
  check({"workloads", "v1beta1",
         R"({"spec": {"priorityClassSource": "scheduling.k8s.io/priorityclass", "priorityClassName": "a", "priority": 1, )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"({"spec": {"priorityClassSource": "scheduling.k8s.io/priorityclass", "priorityClassName": "b", "priority": 1, )" POD_SETS R"(}, "status": {)" QR R"(}})",
         R"(<nil>: Invalid value: "object": priorityClassName is immutable while workload quota reserved and priorityClassSource is not equal to kueue.x-k8s.io/workloadpriorityclass)",
         R"({"spec": {"priorityClassSource": "scheduling.k8s.io/priorityclass", "priorityClassName": "a", "priority": 1, )" POD_SETS R"(}, "status": {)" QR R"(}})"});
}

// crd rules: Workload v1beta2 priorityClassRef and topology assignments
void workload_v1beta2_cases() {
  const char* v2 = "v1beta2";
#define REF(g, k, n) R"("priorityClassRef": {"group": ")" g R"(", "kind": ")" k R"(", "name": ")" n R"("}, "priority": 1, )"
#define WL(ref) R"({"spec": {)" ref POD_SETS R"(}, "status": {)" QR R"(}})"
  check({"workloads", v2, WL(REF("kueue.x-k8s.io", "WorkloadPriorityClass", "a")), WL(""),
         R"(<nil>: Invalid value: "object": priorityClassRef is immutable while workload quota reserved)",
         WL(REF("kueue.x-k8s.io", "WorkloadPriorityClass", "a"))});
  // The old reference breaks the per-reference rule; unchanged, it is not checked again (ratcheting).
  check({"workloads", v2, WL(REF("kueue.x-k8s.io", "PriorityClass", "a")), WL(REF("scheduling.k8s.io", "PriorityClass", "a")),
         R"(<nil>: Invalid value: "object": priorityClassRef.group is immutable while workload quota reserved)",
         WL(REF("kueue.x-k8s.io", "PriorityClass", "a"))});
  check({"workloads", v2, WL(REF("scheduling.k8s.io", "WorkloadPriorityClass", "a")),
         WL(REF("scheduling.k8s.io", "PriorityClass", "a")),
         R"(<nil>: Invalid value: "object": priorityClassRef.kind is immutable while workload quota reserved)",
         WL(REF("scheduling.k8s.io", "WorkloadPriorityClass", "a"))});
  check({"workloads", v2, WL(REF("scheduling.k8s.io", "PriorityClass", "a")),
         WL(REF("scheduling.k8s.io", "PriorityClass", "b")),
         R"(<nil>: Invalid value: "object": priorityClassRef.name is immutable for scheduling.k8s.io/priorityclass while workload quota reserved)",
         WL(REF("scheduling.k8s.io", "PriorityClass", "a"))});
  check({"workloads", v2, R"({"spec": {"priorityClassRef": {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass", "name": "a"}, "priority": 1, )" POD_SETS "}}",
         R"({"spec": {"priorityClassRef": {"group": "kueue.x-k8s.io", "kind": "WorkloadPriorityClass", "name": "a"}, )" POD_SETS "}}",
         R"(spec: Invalid value: "object": priority should not be nil when priorityClassRef is set)"});
  check({"workloads", v2, R"({"spec": {)" REF("scheduling.k8s.io", "PriorityClass", "a") POD_SETS "}}",
         R"({"spec": {)" REF("scheduling.k8s.io", "WorkloadPriorityClass", "a") POD_SETS "}}",
         R"(spec.priorityClassRef: Invalid value: "object": only the PriorityClass kind is allowed for the scheduling.k8s.io group)"});
  check({"workloads", v2, R"({"spec": {)" REF("kueue.x-k8s.io", "WorkloadPriorityClass", "a") POD_SETS "}}",
         R"({"spec": {)" REF("kueue.x-k8s.io", "PriorityClass", "a") POD_SETS "}}",
         R"(spec.priorityClassRef: Invalid value: "object": only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group)"});
#define TA(slices) R"({"spec": {)" POD_SETS R"(}, "status": {"admission": {"clusterQueue": "cq", "podSetAssignments": [{"name": "main", "topologyAssignment": {"levels": ["rack", "host"], "slices": [)" slices R"(]}}]}}})"
  const std::string at = "status.admission.podSetAssignments[0].topologyAssignment";
  check({"workloads", v2, TA(R"({"domainCount": 1, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         TA(R"({"domainCount": 1, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}]})"),
         (at + R"(: Invalid value: "object": valuesPerLevel must have the same length as the number of levels in this TopologyAssignment)").c_str()});
  check({"workloads", v2, TA(R"({"domainCount": 2, "podCounts": {"individual": [1, 1]}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         TA(R"({"domainCount": 2, "podCounts": {"individual": [1]}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         (at + R"(.slices[0]: Invalid value: "object": podCounts.individual must have length equal to domainCount)").c_str()});
  check({"workloads", v2, TA(R"({"domainCount": 2, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"individual": {"roots": ["a", "b"]}}]})"),
         TA(R"({"domainCount": 2, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"individual": {"roots": ["a"]}}]})"),
         (at + R"(.slices[0]: Invalid value: "object": valuesPerLevel.individual, if set, must have roots of length equal to domainCount of this TopologyAssignmentSlice)").c_str()});
  check({"workloads", v2, TA(R"({"domainCount": 1, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         TA(R"({"domainCount": 1, "podCounts": {}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         (at + R"(.slices[0].podCounts: Invalid value: "object": exactly one of the fields in [universal individual] must be set)").c_str()});
  check({"workloads", v2, TA(R"({"domainCount": 1, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h"}]})"),
         TA(R"({"domainCount": 1, "podCounts": {"universal": 1}, "valuesPerLevel": [{"universal": "r"}, {"universal": "h", "individual": {"roots": ["a"]}}]})"),
         (at + R"(.slices[0].valuesPerLevel[1]: Invalid value: "object": exactly one of the fields in [universal individual] must be set)").c_str()});
}

// crd rules: OpenShift's Kueue
void openshift_kueue_cases() {
#define KUEUE(config) R"({"spec": {"config": )" config R"(}})"
  check({"kueues", "v1", R"({"metadata": {"name": "cluster"}, "spec": {"config": {}}})",
         R"({"metadata": {"name": "kueue"}, "spec": {"config": {}}})",
         R"(<nil>: Invalid value: "object": Kueue is a singleton, .metadata.name must be 'cluster')"});
  check({"kueues", "v1", KUEUE(R"({"admissionFairSharing": {"configuration": "Custom", "custom": {}}})"),
         KUEUE(R"({"admissionFairSharing": {"configuration": "Default", "custom": {}}})"),
         R"(spec.config.admissionFairSharing: Invalid value: "object": custom is required when configuration is Custom, and forbidden otherwise)"});
  check({"kueues", "v1", KUEUE(R"({"admissionFairSharing": {"configuration": "Custom", "custom": {"resourceWeights": [{"name": "nvidia.com/gpu", "weight": "1.5"}]}}})"),
         KUEUE(R"({"admissionFairSharing": {"configuration": "Custom", "custom": {"resourceWeights": [{"name": "nvidia.com/-gpu", "weight": "1.5"}]}}})"),
         R"(spec.config.admissionFairSharing.custom.resourceWeights[0].name: Invalid value: "string": must be a qualified name (e.g., 'nvidia.com/gpu' or 'cpu'))"});
  check({"kueues", "v1", KUEUE(R"({"admissionFairSharing": {"configuration": "Custom", "custom": {"resourceWeights": [{"name": "cpu", "weight": "+.5e-3"}]}}})"),
         KUEUE(R"({"admissionFairSharing": {"configuration": "Custom", "custom": {"resourceWeights": [{"name": "cpu", "weight": "-1"}]}}})"),
         R"(spec.config.admissionFairSharing.custom.resourceWeights[0].weight: Invalid value: "string": must be a non-negative number (e.g., '1.0', '0.5', '.5', '+0.5', '1e-3'))"});
  check({"kueues", "v1", KUEUE(R"({"gangScheduling": {"policy": "ByWorkload", "byWorkload": {"admission": "Parallel"}}})"),
         KUEUE(R"({"gangScheduling": {"policy": "ByWorkload"}})"),
         R"(spec.config.gangScheduling: Invalid value: "object": byWorkload is required when policy is byWorkload, and forbidden otherwise)"});
  check({"kueues", "v1", KUEUE(R"({"gangScheduling": {"policy": "ByWorkload", "byWorkload": {"admission": "Parallel", "requeuingStrategy": {"backoffBaseSeconds": 10, "backoffMaxSeconds": 60}}}})"),
         KUEUE(R"({"gangScheduling": {"policy": "ByWorkload", "byWorkload": {"admission": "Parallel", "requeuingStrategy": {"backoffBaseSeconds": 90, "backoffMaxSeconds": 60}}}})"),
         R"(spec.config.gangScheduling.byWorkload.requeuingStrategy: Invalid value: "object": backoffBaseSeconds must be less than or equal to backoffMaxSeconds)"});
  for (const char* where : {"integrations", "multiKueue"}) {
    const std::string config = std::string(R"({"spec": {"config": {")") + where + R"(": {"externalFrameworks": [{"group": "%g", "resource": "%r", "version": "%v"}]}}}})";
    const auto frameworks = [&](const char* g, const char* r, const char* v) {
      static std::vector<std::string> keep;
      std::string text = config;
      text.replace(text.find("%g"), 2, g);
      text.replace(text.find("%r"), 2, r);
      text.replace(text.find("%v"), 2, v);
      keep.push_back(text);
      return keep.back().c_str();
    };
    const std::string at = std::string("spec.config.") + where + ".externalFrameworks[0].";
    const std::string group = at + R"(group: Invalid value: "string": failed rule: self.matches(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'))";
    check({"kueues", "v1", frameworks("ray.io", "rayjobs", "v1"), frameworks("Ray.io", "rayjobs", "v1"), group.c_str()});
    const std::string resource = at + R"(resource: Invalid value: "string": failed rule: self.matches(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))";
    check({"kueues", "v1", frameworks("ray.io", "rayjobs", "v1"), frameworks("ray.io", "ray.jobs", "v1"), resource.c_str()});
    const std::string version = at + R"(version: Invalid value: "string": failed rule: self.matches(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))";
    check({"kueues", "v1", frameworks("ray.io", "rayjobs", "v1"), frameworks("ray.io", "rayjobs", "V1"), version.c_str()});
  }
  check({"kueues", "v1", KUEUE(R"({"integrations": {"frameworks": ["BatchJob", "RayJob"]}})"),
         KUEUE(R"({"integrations": {"frameworks": ["BatchJob", "BatchJob"]}})"),
         R"(spec.config.integrations.frameworks: Invalid value: "array": each item in frameworks must be unique)"});
  check({"kueues", "v1", KUEUE(R"({"integrations": {"frameworks": ["BatchJob"], "labelKeysToCopy": [{"key": "example.com/team"}]}})"),
         KUEUE(R"({"integrations": {"frameworks": ["BatchJob"], "labelKeysToCopy": [{"key": "example.com/Team"}]}})"),
         R"(spec.config.integrations.labelKeysToCopy[0].key: Invalid value: "string": failed rule: self.matches(r'^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([a-z0-9]([-a-z0-9]*[a-z0-9])?)$'))"});
}

// crd rules: OpenShift's Kueue device class mappings and status
void openshift_device_classes_cases() {
#define MAPPINGS(m) R"({"spec": {"config": {"resources": {"deviceClassMappings": [)" m R"(]}}}})"
  check({"kueues", "v1", MAPPINGS(R"({"name": "nvidia.com/gpu", "deviceClassNames": ["gpu.nvidia.com"]}, {"name": "amd.com/gpu", "deviceClassNames": ["gpu.amd.com"]})"),
         MAPPINGS(R"({"name": "nvidia.com/gpu", "deviceClassNames": ["gpu.nvidia.com"]}, {"name": "amd.com/gpu", "deviceClassNames": ["gpu.nvidia.com"]})"),
         R"(spec.config.resources.deviceClassMappings: Invalid value: "array": each DeviceClass name can only appear in one mapping)"});
  check({"kueues", "v1", MAPPINGS(R"({"name": "gpu", "deviceClassNames": ["gpu.nvidia.com"]})"),
         MAPPINGS(R"({"name": "gpu", "deviceClassNames": ["-gpu.nvidia.com"]})"),
         R"(spec.config.resources.deviceClassMappings[0].deviceClassNames[0]: Invalid value: "string": must be a qualified name consisting of alphanumeric characters, hyphens, underscores, dots, with an optional DNS subdomain prefix and forward slash (e.g., 'gpu.nvidia.com'))"});
  check({"kueues", "v1", MAPPINGS(R"({"name": "gpu", "deviceClassNames": ["gpu.nvidia.com"]})"),
         MAPPINGS(R"({"name": "-gpu", "deviceClassNames": ["gpu.nvidia.com"]})"),
         R"(spec.config.resources.deviceClassMappings[0].name: Invalid value: "string": must be a qualified name consisting of alphanumeric characters, hyphens, underscores, dots, with an optional DNS subdomain prefix and forward slash (e.g., 'nvidia.com/gpu' or 'gpu'))"});
#define SOURCE(s) MAPPINGS(R"({"name": "gpu", "deviceClassNames": ["gpu.nvidia.com"], "sources": [)" s R"(]})")
  check({"kueues", "v1", SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "memory"}})"),
         SOURCE(R"({"type": "Counter"})"),
         R"(spec.config.resources.deviceClassMappings[0].sources[0]: Invalid value: "object": counter is required when type is Counter, and forbidden otherwise)"});
  check({"kueues", "v1", SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "memory", "deviceSelector": {"type": "CEL", "cel": {"expression": "true"}}}})"),
         SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "memory", "deviceSelector": {"type": "CEL"}}})"),
         R"(spec.config.resources.deviceClassMappings[0].sources[0].counter.deviceSelector: Invalid value: "object": cel is required when type is CEL, and forbidden otherwise)"});
  check({"kueues", "v1", SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "memory"}})"),
         SOURCE(R"({"type": "Counter", "counter": {"driver": "GPU.nvidia.com", "name": "memory"}})"),
         R"(spec.config.resources.deviceClassMappings[0].sources[0].counter.driver: Invalid value: "string": must be a valid DNS subdomain consisting of lowercase alphanumeric characters, hyphens and periods, of at most 253 characters in length, each period separated segment must start and end with an alphanumeric character (e.g., 'gpu.nvidia.com'))"});
  check({"kueues", "v1", SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "memory"}})"),
         SOURCE(R"({"type": "Counter", "counter": {"driver": "gpu.nvidia.com", "name": "mem.ory"}})"),
         R"(spec.config.resources.deviceClassMappings[0].sources[0].counter.name: Invalid value: "string": must be a valid DNS label consisting of lowercase alphanumeric characters and hyphens, of at most 63 characters in length, must start and end with an alphanumeric character (e.g., 'memory'))"});
  check({"kueues", "v1", R"({"spec": {"config": {}}, "status": {"latestAvailableRevision": 3}})",
         R"({"spec": {"config": {}}, "status": {"latestAvailableRevision": 1}})",
         R"(status.latestAvailableRevision: Invalid value: "integer": must only increase)",
         R"({"spec": {"config": {}}, "status": {"latestAvailableRevision": 2}})"});
}

TEST_CASE("crd rules: ClusterQueue", "[sandbox][cel][crds]") { cluster_queue_cases(); }
TEST_CASE("crd rules: Cohort, LocalQueue, AdmissionCheck, ClusterProfile", "[sandbox][cel][crds]") { cohort_local_queue_admission_check_profile_cases(); }
TEST_CASE("crd rules: MultiKueueCluster, MultiKueueConfig, Topology", "[sandbox][cel][crds]") { multikueue_topology_cases(); }
TEST_CASE("crd rules: ResourceFlavor", "[sandbox][cel][crds]") { resource_flavor_cases(); }
TEST_CASE("crd rules: Workload, both versions", "[sandbox][cel][crds]") { workload_cases(); }
TEST_CASE("crd rules: Workload v1beta1 priorities", "[sandbox][cel][crds]") { workload_v1beta1_cases(); }
TEST_CASE("crd rules: Workload v1beta2 priorityClassRef and topology assignments", "[sandbox][cel][crds]") { workload_v1beta2_cases(); }
TEST_CASE("crd rules: OpenShift's Kueue", "[sandbox][cel][crds]") { openshift_kueue_cases(); }
TEST_CASE("crd rules: OpenShift's Kueue device class mappings and status", "[sandbox][cel][crds]") { openshift_device_classes_cases(); }

// Every rule of the installed CRDs: CRD, version, generic path, message.
void collect(const std::string& plural, const std::string& version, const json& schema, const std::string& path,
             std::set<RuleKey>* out) {
  if (!schema.is_object()) return;
  for (const json& rule : schema.value("x-kubernetes-validations", json::array())) {
    const std::string message = rule.value("message", std::string());
    std::string text = rule["rule"].get<std::string>();
    text = text.substr(text.find_first_not_of(" \n"), text.find_last_not_of(" \n") - text.find_first_not_of(" \n") + 1);
    out->insert({plural, version, path.empty() ? "<nil>" : path, message.empty() ? "failed rule: " + text : message});
  }
  const json properties = schema.value("properties", json::object());
  for (const auto& [key, child] : properties.items()) {
    collect(plural, version, child, path.empty() ? key : path + "." + key, out);
  }
  if (schema.contains("items")) collect(plural, version, schema["items"], path + "[*]", out);
  if (schema.contains("additionalProperties")) collect(plural, version, schema["additionalProperties"], path + "[*]", out);
}

TEST_CASE("crd rules: every rule of the installed CRDs has a failing case", "[sandbox][cel][crds]") {
  std::set<RuleKey> all;
  for (const auto& [plural, crd] : crds()) {
    for (const json& version : crd["spec"]["versions"]) {
      collect(plural, version["name"], version["schema"]["openAPIV3Schema"], "", &all);
    }
  }
  for (const auto& cases : {cluster_queue_cases, cohort_local_queue_admission_check_profile_cases, multikueue_topology_cases, resource_flavor_cases, workload_cases, workload_v1beta1_cases, workload_v1beta2_cases, openshift_kueue_cases, openshift_device_classes_cases}) cases();  // the failing cases mark what they cover
  CHECK(all.size() >= 95);
  for (const RuleKey& key : all) {
    INFO(std::get<0>(key) << " " << std::get<1>(key) << " " << std::get<2>(key) << ": " << std::get<3>(key));
    CHECK(covered().count(key) == 1);
  }
}

}  // namespace
}  // namespace mkq::sandbox
