// Quota the fleet cannot hold (issue 15.2, W4031) and what the Red Hat build of
// Kueue's `Kueue` resource cannot carry (issue 15.4, E4025, W4026).
#include <string>

#include "tests/kueue/validate_test_support.h"

namespace validatetest {

namespace {

const std::string kFleet = R"(manager "hub" {}
flavor "a100" {}
worker "w1" {
  capacity "a100" { "nvidia.com/gpu" = 8 }
}
worker "w2" {
  capacity "a100" { "nvidia.com/gpu" = 8 }
}
)";

}  // namespace

TEST_CASE("a dispatch whose queues hold more than its workers declare is a warning with the numbers",
          "[kueue][validate][fleet]") {
  const auto r = check(kFleet + R"(clusterqueue "a" {
  quota "a100" { "nvidia.com/gpu" = 64 }
}
clusterqueue "b" {
  quota "a100" { "nvidia.com/gpu" = 64 }
}
dispatch "gpus" { queues = ["a", "b"], workers = ["w1", "w2"] }
)");
  const Diagnostic d = r->only(codes::kFleetCannotHoldQuota);
  CHECK(d.severity == mkq::diag::Severity::Warning);
  CHECK(
      d.message ==
      "the queues of dispatch 'gpus' hold 128 of 'nvidia.com/gpu', but its workers declare 16 (w1 8, w2 8)");
  CHECK(r->at(d.range) == "15:10");
  REQUIRE(d.notes.size() == 5);
  CHECK(d.notes[0].message == "clusterqueue 'a' holds 64 in flavor 'a100'");
  CHECK(r->at(*d.notes[0].range) == "10:18");
  CHECK(d.notes[1].message == "clusterqueue 'b' holds 64 in flavor 'a100'");
  CHECK(d.notes[2].message == "worker 'w1' declares 8");
  CHECK(r->at(*d.notes[2].range) == "4:21");
  CHECK(d.notes[3].message == "worker 'w2' declares 8");
}

TEST_CASE("W4031 lists ten quotas and ten workers, and counts the rest in one note each", "[kueue][validate][fleet]") {
  std::string text = R"(manager "hub" {}
flavor "a100" {}
)";
  std::string queues;
  std::string workers;
  for (char c = 'a'; c < 'a' + 12; ++c) {  // names in name order: a, b, ..., l
    const std::string i(1, c);
    text += "worker \"w" + i + "\" { capacity \"a100\" { \"nvidia.com/gpu\" = 1 } }\n";
    text += "clusterqueue \"q" + i + "\" { quota \"a100\" { \"nvidia.com/gpu\" = 8 } }\n";
    queues += std::string(queues.empty() ? "" : ", ") + "\"q" + i + "\"";
    workers += std::string(workers.empty() ? "" : ", ") + "\"w" + i + "\"";
  }
  text += "dispatch \"gpus\" { queues = [" + queues + "], workers = [" + workers + "] }\n";
  const auto r = check(text);
  const Diagnostic d = r->only(codes::kFleetCannotHoldQuota);
  REQUIRE(d.notes.size() == 23);  // 10 quotas, 1 count, 10 workers, 1 count, the advice
  CHECK(d.notes[0].message == "clusterqueue 'qa' holds 8 in flavor 'a100'");
  CHECK(d.notes[9].message == "clusterqueue 'qj' holds 8 in flavor 'a100'");
  CHECK(d.notes[10].message == "... and 2 more quotas");
  CHECK_FALSE(d.notes[10].range.has_value());
  CHECK(d.notes[11].message == "worker 'wa' declares 1");
  CHECK(d.notes[20].message == "worker 'wj' declares 1");
  CHECK(d.notes[21].message == "... and 2 more workers");
  CHECK_FALSE(d.notes[21].range.has_value());
  CHECK(d.notes[22].message.rfind("the manager would admit workloads", 0) == 0);
}

TEST_CASE("quota the fleet holds, or a fleet of unknown size, checks clean", "[kueue][validate][fleet]") {
  SECTION("exactly the workers' capacity") {
    require_clean(kFleet + R"(clusterqueue "a" { quota "a100" { "nvidia.com/gpu" = 10 } }
clusterqueue "b" { quota "a100" { "nvidia.com/gpu" = 6 } }
dispatch "gpus" { queues = ["a", "b"], workers = ["w1", "w2"] }
)");
  }
  SECTION("a worker without any capacity: its size is unknown") {
    require_clean(kFleet + R"(worker "w3" {}
clusterqueue "a" { quota "a100" { "nvidia.com/gpu" = 64 } }
dispatch "gpus" { queues = ["a"], workers = ["w1", "w3"] }
)");
  }
  SECTION("a queue that is not dispatched runs on the manager") {
    require_clean(kFleet + R"(clusterqueue "a" { quota "a100" { "nvidia.com/gpu" = 64 } }
)");
  }
}

TEST_CASE("a worker's capacity counts in the flavors the dispatch's queues use, summed",
          "[kueue][validate][fleet]") {
  SECTION("capacity of another flavor does not count") {
    const auto r = check(kFleet + R"(flavor "h100" {}
clusterqueue "a" { quota "h100" { "nvidia.com/gpu" = 1 } }
dispatch "d" { queues = ["a"], workers = ["w1"] }
)");
    const Diagnostic d = r->only(codes::kFleetCannotHoldQuota);
    CHECK(d.message ==
          "the queues of dispatch 'd' hold 1 of 'nvidia.com/gpu', but its workers declare 0 (w1 0)");
  }
  SECTION("a queue's second flavor may be one the workers lack: the worker's Kueue assigns its own flavors") {
    require_clean(kFleet + R"(flavor "spot" {}
clusterqueue "a" {
  quota "a100" { "nvidia.com/gpu" = 10 }
  quota "spot" { "nvidia.com/gpu" = 6 }
}
dispatch "d" { queues = ["a"], workers = ["w1", "w2"] }
)");
  }
  SECTION("flavors summed on both sides") {
    const auto r = check(kFleet + R"(flavor "spot" {}
clusterqueue "a" {
  quota "a100" { "nvidia.com/gpu" = 10 }
  quota "spot" { "nvidia.com/gpu" = 7 }
}
dispatch "d" { queues = ["a"], workers = ["w1", "w2"] }
)");
    const Diagnostic d = r->only(codes::kFleetCannotHoldQuota);
    CHECK(d.message ==
          "the queues of dispatch 'd' hold 17 of 'nvidia.com/gpu', but its workers declare 16 (w1 8, w2 8)");
  }
}

TEST_CASE("openshift: every setting the Kueue resource cannot carry is an error at the setting",
          "[kueue][validate][openshift]") {
  const auto r = check(R"(manager "hub" {}
worker "w" { credentials { mode = "clusterprofile" } }
kueue {
  platform = "openshift"
  integrations = ["batch/job", "kubeflow.org/pytorchjob"]
  managed_namespaces = { team: "a" }
  gang_scheduling { timeout = 10s, recovery_timeout = 1500ms }
  fair_sharing { preemption_strategies = ["LessThanInitialShare"] }
  multikueue {
    gc_interval = 1min
    worker_lost_timeout = 5min
    origin = "hub"
    dispatcher = "incremental"
    access_provider "google" { command = "/plugins/auth" }
  }
}
)");
  std::string lines;
  for (const Diagnostic& d : r->with_code(codes::kOpenShiftCannotExpress)) {
    CHECK(d.severity == mkq::diag::Severity::Error);
    lines += r->at(d.range) + " " + d.message + "\n";
  }
  CHECK(
      lines ==
      "2:35 credentials mode 'clusterprofile' of worker 'w' cannot be set on OpenShift: it needs Kueue's "
      "MultiKueueClusterProfile feature gate, and the operator sets no feature gates\n"
      "6:24 'managed_namespaces' cannot be set on OpenShift: the operator manages the namespaces labelled "
      "kueue.openshift.io/managed=true, a label mkq gives every namespace it creates\n"
      "7:31 a gang_scheduling timeout of 10s cannot be set on OpenShift: the operator takes whole seconds "
      "from "
      "30s to 1d\n"
      "7:55 a gang_scheduling recovery_timeout of 1s500ms cannot be set on OpenShift: the operator takes "
      "whole "
      "seconds up to 1d\n"
      "8:43 'preemption_strategies' cannot be set on OpenShift: the operator turns fair sharing on with "
      "Kueue's "
      "default strategies only\n"
      "10:19 'gc_interval' cannot be set on OpenShift: the operator's multiKueue settings are its external "
      "frameworks only\n"
      "11:27 'worker_lost_timeout' cannot be set on OpenShift: the operator's multiKueue settings are its "
      "external frameworks only\n"
      "12:14 the MultiKueue origin cannot be set on OpenShift: the operator's multiKueue settings are its "
      "external frameworks only\n"
      "13:18 the incremental dispatcher cannot be set on OpenShift: the operator's multiKueue settings are "
      "its "
      "external frameworks only; Kueue runs its default, all-at-once\n"
      "14:21 access provider 'google' cannot be set on OpenShift: the operator's multiKueue settings are its "
      "external frameworks only\n");
}

TEST_CASE("openshift: a framework the operator does not offer, and one external framework per group",
          "[kueue][validate][openshift]") {
  const auto r = check(R"(manager "hub" {}
kueue {
  platform = "openshift"
  integrations = ["batch/job", "example.com/widget"]
  external_frameworks = ["Run.v1.example.com", "Other.v1.example.com"]
}
integration "example.com/widget" { rules = [{ group: "example.com", resources: ["widgets"] }] }
integration "Run.v1.example.com" { rules = [{ group: "example.com", resources: ["runs"] }] }
integration "Other.v1.example.com" { rules = [{ group: "example.com", resources: ["others"] }] }
)");
  const auto found = r->with_code(codes::kOpenShiftCannotExpress);
  REQUIRE(found.size() == 2);
  CHECK(found[0].message ==
        "integration 'example.com/widget' cannot be set on OpenShift: the operator does not offer this "
        "framework");
  CHECK(
      found[1].message ==
      "external framework 'Other.v1.example.com' cannot be set on OpenShift: the operator takes one external "
      "framework per API group, and 'Run.v1.example.com' has the same group");
}

TEST_CASE("openshift: a localqueue's undeclared namespace warns, declared ones are labelled by mkq",
          "[kueue][validate][openshift]") {
  const auto r = check(R"(manager "hub" {}
kueue { platform = "openshift" }
namespace "team" {}
clusterqueue "q" {
  localqueue "lq" in "team" {}
  localqueue "other" in "default" {}
}
)");
  const Diagnostic d = r->only(codes::kOpenShiftUnmanagedNamespace);
  CHECK(d.severity == mkq::diag::Severity::Warning);
  CHECK(d.message ==
        "namespace 'default' is not declared, so mkq does not label it kueue.openshift.io/managed=true: the "
        "Red Hat "
        "build of Kueue ignores its jobs until it is labelled");
}

TEST_CASE("openshift: what the resource carries checks clean", "[kueue][validate][openshift]") {
  require_clean(R"(manager "hub" {}
kueue {
  platform = "openshift"
  integrations = ["batch/job", "jobset.x-k8s.io/jobset"]
  manage_jobs_without_queue_name = true
  gang_scheduling { timeout = 10min, block_admission = true }
  fair_sharing {}
  multikueue { dispatcher = "all-at-once", origin = "multikueue" }
}
)");
}

}  // namespace validatetest
