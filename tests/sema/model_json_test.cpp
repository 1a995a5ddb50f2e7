// model_to_json: exact output for small policies, key order, canonical
// quantities and durations, and secrets shown only by their source.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "compiler/sema/analyze.h"
#include "tests/support/in_memory_file_system.h"
#include "compiler/sema/model_json.h"

namespace {

using Json = nlohmann::ordered_json;

// The JSON of a one-file policy that must compile cleanly.
std::string json_of(const std::string& text) {
  mkq::sema::InMemoryFileSystem fs;
  fs.add("/p/policy.mkq", text);
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  const auto policy = mkq::sema::analyze("/p/policy.mkq", fs, sources, diagnostics);
  INFO(mkq::diag::render_text(diagnostics.sorted(sources), sources, {false}));
  REQUIRE(policy.has_value());
  REQUIRE_FALSE(diagnostics.has_errors());
  return mkq::sema::model::model_to_json(*policy);
}

// One part of the output, compact, keys in the order they were written.
std::string part(const std::string& json, const Json::json_pointer& at) { return Json::parse(json).at(at).dump(); }

}  // namespace

TEST_CASE("model_to_json: a manager alone, every default spelled out", "[sema][model_json]") {
  CHECK(json_of(R"(manager "m" {})") == R"({
  "format_version": 1,
  "manager": {
    "name": "m",
    "connection": {
      "context": "m",
      "kubeconfig": null
    },
    "labels": {}
  },
  "workers": [],
  "flavors": [],
  "topologies": [],
  "cohorts": [],
  "implicit_cohorts": [],
  "cluster_queues": [],
  "local_queues": [],
  "namespaces": [],
  "priority_classes": [],
  "dispatches": [],
  "kueue": {
    "declared": false,
    "platform": "kubernetes",
    "namespace_name": "kueue-system",
    "integrations": [
      "batch/job"
    ],
    "gang_scheduling": null,
    "manage_jobs_without_queue_name": null,
    "managed_namespaces": null,
    "fair_sharing": null,
    "multikueue": {
      "gc_interval": null,
      "worker_lost_timeout": null,
      "dispatcher": {
        "mode": "all-at-once",
        "external_name": "",
        "kueue_name": "kueue.x-k8s.io/multikueue-dispatcher-all-at-once"
      },
      "step": 3,
      "origin": "multikueue",
      "access_providers": []
    },
    "external_frameworks": [],
    "restart": true
  },
  "access": [],
  "integrations": [
    {
      "name": "batch/job",
      "rules": [
        {
          "api_group": "batch",
          "resources": [
            "jobs",
            "jobs/status"
          ]
        }
      ],
      "standard": true
    }
  ]
}
)");
}

TEST_CASE("model_to_json: only the integrations a policy enables or declares", "[sema][model_json]") {
  const std::string json = json_of(R"(
manager "m" {}
kueue {
  integrations = ["pod", "batch/job"]
  external_frameworks = ["PipelineRun.v1.tekton.dev"]
}
integration "PipelineRun.v1.tekton.dev" {
  rules = [{ group: "tekton.dev", resources: ["pipelineruns", "pipelineruns/status"] }]
}
)");
  // Sorted by name (upper case first); std/integrations' other entries are left out.
  CHECK(part(json, "/integrations"_json_pointer) ==
        R"([{"name":"PipelineRun.v1.tekton.dev","rules":[{"api_group":"tekton.dev",)"
        R"("resources":["pipelineruns","pipelineruns/status"]}],"standard":false},)"
        R"({"name":"batch/job","rules":[{"api_group":"batch","resources":["jobs","jobs/status"]}],"standard":true},)"
        R"({"name":"pod","rules":[{"api_group":"","resources":["pods"]}],"standard":true}])");
}

TEST_CASE("model_to_json: a secret shows only where it comes from", "[sema][model_json]") {
  // Even with the variable set, the compiler never reads it.
  ::setenv("MKQ_MODEL_JSON_TEST_TOKEN", "s3cr3t-token-value", 1);
  ::setenv("MKQ_MODEL_JSON_TEST_KUBECONFIG", "s3cr3t-kubeconfig-value", 1);
  const std::string json = json_of(R"(
manager "m" {}
worker "a" {
  credentials { token = secret("env:MKQ_MODEL_JSON_TEST_TOKEN"), lifetime = 36h, rotate_before = 90min }
}
worker "b" {
  credentials { mode = "kubeconfig", kubeconfig = secret("env:MKQ_MODEL_JSON_TEST_KUBECONFIG") }
}
)");
  ::unsetenv("MKQ_MODEL_JSON_TEST_TOKEN");
  ::unsetenv("MKQ_MODEL_JSON_TEST_KUBECONFIG");

  CHECK(part(json, "/workers/0/credentials"_json_pointer) ==
        R"({"mode":"serviceaccount","service_account":"multikueue-sa","lifetime":"1d12h","rotate_before":"1h30min",)"
        R"("kubeconfig":null,"token":{"secret":"env:MKQ_MODEL_JSON_TEST_TOKEN"},"cluster_profile":"a"})");
  CHECK(part(json, "/workers/1/credentials"_json_pointer) ==
        R"({"mode":"kubeconfig","service_account":"multikueue-sa","lifetime":"30d","rotate_before":"7d",)"
        R"("kubeconfig":{"secret":"env:MKQ_MODEL_JSON_TEST_KUBECONFIG"},"token":null,"cluster_profile":"b"})");
  CHECK(json.find("s3cr3t") == std::string::npos);
}

TEST_CASE("model_to_json: quantities in canonical form, queues, dispatch", "[sema][model_json]") {
  const std::string json = json_of(R"(
manager "m" {}
worker "w" { labels = { pool: "x" } }
flavor "f" {
  tolerations = [{ key: "k", operator: "Exists", effect: "NoSchedule" }]
}
clusterqueue "q" {
  cohort = "c"
  quota "f" {
    cpu = 500m + 8
    memory = { nominal: 1.5Gi, borrowing_limit: 2 * 16Gi }
    pods = 2e3
  }
  preemption { within_cluster_queue = "LowerPriority" }
  localqueue "lq" in "ns" { default = false }
}
dispatch "d" {
  queues = ["q"]
  select { labels = { pool: "x" }, limit = 1 }
}
)");
  CHECK(part(json, "/cluster_queues/0"_json_pointer) ==
        R"({"name":"q","namespaces":{"kind":"all","names":[],"match_labels":{}},"cohort":"c",)"
        R"("resource_groups":[{"covered_resources":["cpu","memory","pods"],"flavors":[{"flavor":"f","resources":[)"
        R"({"resource":"cpu","nominal":"8500m","borrowing_limit":null,"lending_limit":null},)"
        R"({"resource":"memory","nominal":"1536Mi","borrowing_limit":"32Gi","lending_limit":null},)"
        R"({"resource":"pods","nominal":"2e3","borrowing_limit":null,"lending_limit":null}]}]}],)"
        R"("preemption":{"within_cluster_queue":"LowerPriority","reclaim_within_cohort":null,)"
        R"("borrow_within_cohort":null,"borrow_max_priority_threshold":null},"fair_sharing_weight":null,)"
        R"("flavor_fungibility":null,"queueing_strategy":null,"stop_policy":null,"worker_name":"q","dispatch":"d"})");
  CHECK(part(json, "/implicit_cohorts"_json_pointer) == R"([{"name":"c"}])");
  CHECK(part(json, "/local_queues/0"_json_pointer) ==
        R"({"name":"lq","namespace_name":"ns","cluster_queue":"q","is_default":false,"stop_policy":null,)"
        R"("fair_sharing_weight":null})");
  CHECK(part(json, "/flavors/0/tolerations"_json_pointer) ==
        R"([{"key":"k","operator":"Exists","value":null,"effect":"NoSchedule","toleration_seconds":null}])");
  CHECK(part(json, "/dispatches/0"_json_pointer) ==
        R"({"name":"d","config_name":"d","queues":["q"],"workers":["w"],)"
        R"("selector":{"labels":{"pool":"x"},"order":"priority","resource":null,"limit":1},"mode":null,"step":null,"origin":null})");
}

TEST_CASE("model_to_json: the same policy always gives the same text", "[sema][model_json]") {
  const char* text = R"(
manager "m" {}
for name in ["w3", "w1", "w2"] { worker "${name}" { labels = { z: "1", a: "2" } } }
namespace "n" { labels = { b: "1", a: "2" } }
)";
  const std::string first = json_of(text);
  CHECK(json_of(text) == first);
  CHECK(part(first, "/namespaces/0/labels"_json_pointer) == R"({"a":"2","b":"1"})");
  const Json parsed = Json::parse(first);
  REQUIRE(parsed["workers"].size() == 3);
  CHECK(parsed["workers"][0]["name"] == "w1");
  CHECK(parsed["workers"][2]["name"] == "w3");
}
