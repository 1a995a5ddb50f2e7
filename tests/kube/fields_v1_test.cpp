// FieldsV1 sets: built from an applied object and read back as dotted paths.
#include <catch2/catch.hpp>

#include "runtime/kube/fields_v1.h"

namespace kube = mkq::kube;
using kube::Json;

TEST_CASE("fields_v1_of records every leaf, lists whole, without apiVersion, kind or server metadata", "[kube][fields_v1]") {
  const Json object = Json::parse(R"({
    "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
    "metadata": {"name": "cq", "uid": "u1", "resourceVersion": "3", "labels": {"app": "x"}},
    "spec": {"queueingStrategy": "BestEffortFIFO", "resourceGroups": [{"coveredResources": ["cpu"]}], "preemption": {}},
    "status": {"pendingWorkloads": 0}})");
  const Json expected = Json::parse(R"({
    "f:metadata": {"f:name": {}, "f:labels": {"f:app": {}}},
    "f:spec": {"f:queueingStrategy": {}, "f:resourceGroups": {}, "f:preemption": {}}})");
  CHECK(kube::fields_v1_of(object) == expected);
}

TEST_CASE("owned_paths reads leaves back, a keyed list counting as one leaf", "[kube][fields_v1]") {
  const Json fields = Json::parse(R"({
    "f:metadata": {"f:name": {}, "f:labels": {"f:app": {}}},
    "f:spec": {"f:queueingStrategy": {}, "f:resourceGroups": {}, "f:preemption": {},
               "f:tolerations": {"k:{\"key\":\"a\"}": {".": {}, "f:key": {}}}, "f:levels": {"i:0": {}}}})");
  const std::vector<std::string> expected{"metadata.name", "metadata.labels.app", "spec.queueingStrategy",
                                          "spec.resourceGroups", "spec.preemption", "spec.tolerations", "spec.levels"};
  CHECK(kube::owned_paths(fields) == expected);
}

TEST_CASE("fields_v1 round trip: the paths of fields_v1_of are the document's leaves", "[kube][fields_v1]") {
  const Json object = Json::parse(R"({"apiVersion": "v1", "kind": "Namespace",
    "metadata": {"name": "team-a", "labels": {"a": "1", "b": "2"}}})");
  const std::vector<std::string> expected{"metadata.name", "metadata.labels.a", "metadata.labels.b"};
  CHECK(kube::owned_paths(kube::fields_v1_of(object)) == expected);
}

TEST_CASE("paths_owned_by unions one manager's entries, sorted and unique", "[kube][fields_v1]") {
  const Json object = Json::parse(R"({"metadata": {"name": "x", "managedFields": [
    {"manager": "mkq", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:b": {}}}},
    {"manager": "kubectl", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:c": {}}}},
    {"manager": "mkq", "operation": "Update", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:a": {}, "f:b": {}}}}]}})");
  CHECK(kube::paths_owned_by(object, "mkq") == std::vector<std::string>{"spec.a", "spec.b"});
  CHECK(kube::paths_owned_by(object, "kubectl") == std::vector<std::string>{"spec.c"});
  CHECK(kube::paths_owned_by(object, "nobody").empty());
  CHECK(kube::paths_owned_by(Json::parse("{}"), "mkq").empty());
}
