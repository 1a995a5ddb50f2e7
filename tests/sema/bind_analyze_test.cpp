// Binder through the whole sema stage (parse -> evaluate -> bind): the
// examples bind cleanly, and binder diagnostics point at the policy text.
#include <catch2/catch.hpp>

#include <string>

#include "compiler/sema/analyze.h"
#include "compiler/sema/codes_bind.h"
#include "tests/support/in_memory_file_system.h"

namespace {

namespace sema = mkq::sema;
namespace model = mkq::sema::model;
namespace codes = mkq::sema::bind_codes;

struct Analysis {
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  std::optional<model::Policy> policy;

  std::string text(const mkq::diag::SourceRange& range) const {
    const auto& file = sources.file(range.file).text;
    return file.substr(range.begin.offset, range.end.offset - range.begin.offset);
  }
  std::string summary() const {
    std::string all;
    for (const auto& d : diagnostics.items()) all += d.code + " " + d.message + "\n";
    return all;
  }
};

void analyze_example(Analysis& a, const std::string& name) {
  const sema::RealFileSystem fs;
  a.policy = sema::analyze(std::string(MKQ_SOURCE_DIR) + "/examples/" + name, fs, a.sources, a.diagnostics);
}

void analyze_text(Analysis& a, const std::string& text) {
  sema::InMemoryFileSystem fs;
  fs.add("policy.mkq", text);
  a.policy = sema::analyze("policy.mkq", fs, a.sources, a.diagnostics);
}

const char* const kTutorial = R"(
manager "manager-cluster" {}
worker "worker1" { secret = "worker1-secret" }
flavor "default-flavor" {}
clusterqueue "cluster-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 9, memory = 36Gi }
  localqueue "user-queue" in "default" {}
}
dispatch "sample-multikueue" {
  config = "multikueue-test"
  queues = ["cluster-queue"]
  workers = ["worker1"]
}
)";

}  // namespace

TEST_CASE("every example binds without diagnostics", "[sema][bind][analyze]") {
  for (const char* name : {"quickstart", "tas", "gpu-fleet", "teams"}) {
    INFO(name);
    Analysis a;
    analyze_example(a, name);
    INFO(a.summary());
    CHECK(a.diagnostics.items().empty());
    CHECK(a.policy);
  }
}

TEST_CASE("the gpu-fleet example selects workers by label and priority", "[sema][bind][analyze]") {
  Analysis a;
  analyze_example(a, "gpu-fleet");
  INFO(a.summary());
  REQUIRE(a.policy);
  const model::Dispatch* training = a.policy->find_dispatch("a100-training");
  REQUIRE(training);
  std::vector<std::string> workers;
  for (const auto& w : training->workers) workers.push_back(w.name);
  CHECK(workers == std::vector<std::string>{"a100-us-east", "a100-us-west", "a100-eu-central"});
  CHECK(a.policy->kueue.multikueue.dispatcher.value.mode == model::DispatchMode::Incremental);
  CHECK(a.policy->kueue.multikueue.step.value == 2);
  const model::Flavor* a100 = a.policy->find_flavor("a100");
  REQUIRE(a100);
  CHECK(a100->node_labels.at("nvidia.com/gpu.product") == "NVIDIA-A100-SXM4-80GB");
  REQUIRE(a100->tolerations.size() == 1);
  CHECK(a100->tolerations[0].op.value == model::TolerationOperator::Exists);
}

TEST_CASE("the teams example shares a cohort with borrowing limits", "[sema][bind][analyze]") {
  Analysis a;
  analyze_example(a, "teams");
  INFO(a.summary());
  REQUIRE(a.policy);
  const model::ClusterQueue* vision = a.policy->find_cluster_queue("vision");
  REQUIRE(vision);
  REQUIRE(vision->cohort);
  CHECK(vision->cohort->name == "research");
  const auto& gpu = vision->resource_groups.at(0).flavors.at(0).resources.at(2);
  CHECK(gpu.resource == "nvidia.com/gpu");
  CHECK(gpu.nominal.value.to_string() == "24");
  REQUIRE(gpu.borrowing_limit);
  CHECK(gpu.borrowing_limit->value.to_string() == "40");
  const model::LocalQueue* lq = a.policy->find_local_queue("vision", "default");
  REQUIRE(lq);
  CHECK(lq->is_default);
  CHECK(a.policy->access.size() == 3);
}

TEST_CASE("the tutorial written as policy text binds", "[sema][bind][analyze]") {
  Analysis a;
  analyze_text(a, kTutorial);
  INFO(a.summary());
  REQUIRE(a.policy);
  const model::ClusterQueue* cq = a.policy->find_cluster_queue("cluster-queue");
  REQUIRE(cq);
  CHECK(a.text(cq->name_range) == "\"cluster-queue\"");
  CHECK(a.text(cq->resource_groups[0].flavors[0].resources[1].nominal.range) == "36Gi");
  CHECK(a.policy->find_worker("worker1")->secret_name.value == "worker1-secret");
}

TEST_CASE("binder diagnostics point at the policy text", "[sema][bind][analyze][errors]") {
  SECTION("a field type") {
    Analysis a;
    std::string text = kTutorial;
    text.replace(text.find("cpu = 9"), 7, "cpu = \"9\"");
    analyze_text(a, text);
    REQUIRE(a.diagnostics.items().size() == 1);
    const auto& d = a.diagnostics.items().front();
    CHECK(d.code == codes::kTypeMismatch);
    CHECK(d.message == "field 'cpu' expects a quantity, found a string");
    CHECK(a.text(d.range) == "\"9\"");
  }
  SECTION("a misspelled field") {
    Analysis a;
    std::string text = kTutorial;
    text.replace(text.find("namespaces"), 10, "namespace");
    analyze_text(a, text);
    REQUIRE(a.diagnostics.items().size() == 1);
    const auto& d = a.diagnostics.items().front();
    CHECK(d.code == codes::kUnknownField);
    CHECK(a.text(d.range) == "namespace");
    REQUIRE(d.suggestions.size() == 1);
    CHECK(d.suggestions[0].message == "did you mean 'namespaces'?");
  }
  SECTION("an unknown worker") {
    Analysis a;
    std::string text = kTutorial;
    text.replace(text.find("workers = [\"worker1\"]"), 21, "workers = [\"worker2\"]");
    analyze_text(a, text);
    REQUIRE(a.diagnostics.items().size() == 1);
    const auto& d = a.diagnostics.items().front();
    CHECK(d.code == codes::kUnknownWorker);
    CHECK(a.text(d.range) == "\"worker2\"");
  }
}
