// The requests both sandbox benches send (bench/README.md, "Sandbox"):
// mkq-sandbox-bench over HTTPS, mkq-sandbox-handle-bench through
// Cluster::handle. One home for the objects and the phases, so that the two
// benches' figures are of the same work.
//
//   create        POST N ConfigMaps (~200 bytes of JSON: a label and two data keys)
//   get           GET each of them
//   (list)        each bench lists the namespace here, its own way
//   apply-create  server-side apply (application/apply-patch+yaml, a JSON body,
//                 fieldManager=bench) of N new ConfigMaps
//   apply-update  the same again with a changed data value
//   cq-create     with --crds DIR: POST N Kueue ClusterQueues (every rule of the CRD runs)
//   cq-apply      with --crds DIR: server-side apply of each with a changed quota
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mkq::bench {

// One request of a phase.
struct WorkloadRequest {
  std::string method;  // "POST"
  std::string path;    // without the query
  std::string query;   // "fieldManager=bench", or ""
  std::string body;
  std::string content_type;  // "" without a body
};

struct WorkloadPhase {
  std::string name;
  int expect = 200;  // the status every answer should have
  std::function<WorkloadRequest(std::size_t i)> request;
};

inline std::string config_map(const std::string& name, const std::string& ns, std::size_t i, const char* generation) {
  return fmt::format(
      R"({{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{}","namespace":"{}","labels":{{"app":"bench"}}}},"data":{{"index":"{}","generation":"{}"}}}})",
      name, ns, i, generation);
}

// A Kueue v1beta2 ClusterQueue that every rule of Kueue's CRD runs on (and accepts):
// a cohort, one resource group, a borrowing limit, preemption and fungibility.
inline std::string cluster_queue(const std::string& name, const char* quota) {
  return fmt::format(
      R"({{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{{"name":"{}"}},"spec":{{"cohortName":"bench","resourceGroups":[{{"coveredResources":["cpu","memory"],"flavors":[{{"name":"default","resources":[{{"name":"cpu","nominalQuota":{},"borrowingLimit":2}},{{"name":"memory","nominalQuota":"16Gi"}}]}}]}}],"preemption":{{"reclaimWithinCohort":"Any","borrowWithinCohort":{{"policy":"Never"}}}},"flavorFungibility":{{"whenCanBorrow":"TryNextFlavor","whenCanPreempt":"TryNextFlavor"}}}}}})",
      name, quota);
}

// Removes every x-kubernetes-validations from a CRD (the benches' --no-rules: CEL off).
inline void strip_rules(nlohmann::json& node) {
  if (node.is_object()) {
    node.erase("x-kubernetes-validations");
    for (auto& [key, child] : node.items()) strip_rules(child);
  } else if (node.is_array()) {
    for (auto& child : node) strip_rules(child);
  }
}

inline std::string object_name(std::size_t i) { return fmt::format("cm-{}", i); }

inline std::string namespace_object(const std::string& name) {
  return fmt::format(R"({{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{}"}}}})", name);
}

inline std::string config_maps_of(const std::string& ns) { return "/api/v1/namespaces/" + ns + "/configmaps"; }

// create and get of ConfigMaps in `ns`: the phases before the list.
inline std::vector<WorkloadPhase> phases_before_list(const std::string& ns) {
  const std::string collection = config_maps_of(ns);
  return {
      {"create", 201,
       [=](std::size_t i) {
         return WorkloadRequest{"POST", collection, "", config_map(object_name(i), ns, i, "1"), "application/json"};
       }},
      {"get", 200, [=](std::size_t i) { return WorkloadRequest{"GET", collection + "/" + object_name(i), "", "", ""}; }},
  };
}

// Server-side apply of ConfigMaps in `apply_ns`, then (with_queues) the ClusterQueue
// phases, their names prefixed with `queue_prefix`: the phases after the list.
inline std::vector<WorkloadPhase> phases_after_list(const std::string& apply_ns, bool with_queues,
                                                    const std::string& queue_prefix) {
  const std::string collection = config_maps_of(apply_ns);
  const auto apply = [=](const char* generation) {
    return [=](std::size_t i) {
      return WorkloadRequest{"PATCH", collection + "/" + object_name(i), "fieldManager=bench",
                             config_map(object_name(i), apply_ns, i, generation), "application/apply-patch+yaml"};
    };
  };
  std::vector<WorkloadPhase> phases = {{"apply-create", 201, apply("1")}, {"apply-update", 200, apply("2")}};
  if (!with_queues) return phases;
  const std::string queues = "/apis/kueue.x-k8s.io/v1beta2/clusterqueues";
  phases.push_back({"cq-create", 201, [=](std::size_t i) {
                      return WorkloadRequest{"POST", queues, "", cluster_queue(queue_prefix + std::to_string(i), "4"),
                                             "application/json"};
                    }});
  phases.push_back({"cq-apply", 200, [=](std::size_t i) {
                      const std::string name = queue_prefix + std::to_string(i);
                      return WorkloadRequest{"PATCH", queues + "/" + name, "fieldManager=bench&force=true",
                                             cluster_queue(name, "8"), "application/apply-patch+yaml"};
                    }});
  return phases;
}

}  // namespace mkq::bench
