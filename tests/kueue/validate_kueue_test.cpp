// Compile-time Kueue validation of Kueue's configuration: external frameworks
// against built-in MultiKueue adapters, integrations MultiKueue cannot dispatch.
#include <string>

#include "tests/kueue/validate_test_support.h"

namespace validatetest {
namespace {

// A policy enabling `integrations` with `external` as external frameworks
// (each declared in the catalogue), and one dispatch when `dispatched`.
std::string kueue_policy(const std::string& integrations, const std::vector<std::string>& external,
                         bool dispatched) {
  std::string text = "manager \"m\" {}\nworker \"w\" {}\nclusterqueue \"q\" {}\n";
  if (dispatched) text += "dispatch \"d\" { queues = [\"q\"], workers = [\"w\"] }\n";
  text += "kueue {\n  integrations = [" + integrations + "]\n  external_frameworks = [";
  for (std::size_t i = 0; i < external.size(); ++i) text += (i ? ", \"" : "\"") + external[i] + "\"";
  text += "]\n}\n";
  for (const std::string& kind : external) {
    text += "integration \"" + kind + "\" { rules = [{ group: \"example.com\", resources: [\"runs\"] }] }\n";
  }
  return text;
}

}  // namespace

TEST_CASE("an external framework may not be an enabled built-in adapter's kind", "[kueue][validate][kueue]") {
  SECTION("RayJob with ray.io/rayjob enabled") {
    const auto r = check(kueue_policy("\"batch/job\", \"ray.io/rayjob\"", {"RayJob.v1.ray.io"}, true));
    const Diagnostic d = r->only(codes::kExternalFrameworkIsBuiltIn);
    CHECK(d.message ==
          "external framework 'RayJob.v1.ray.io' is the job kind of integration 'ray.io/rayjob', which has a "
          "built-in MultiKueue adapter");
    CHECK(r->at(d.range) == "7:26");
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[0].message == "'ray.io/rayjob' is enabled here");
    CHECK(r->at(*d.notes[0].range) == "6:32");
  }
  SECTION("Job.v1.batch with the default integrations") {
    const auto r = check(R"(manager "m" {}
kueue { external_frameworks = ["Job.v1.batch"] }
integration "Job.v1.batch" { rules = [{ group: "batch", resources: ["jobs"] }] }
)");
    const Diagnostic d = r->only(codes::kExternalFrameworkIsBuiltIn);
    REQUIRE(!d.notes.empty());
    CHECK(d.notes[0].message == "'batch/job' is enabled by default");
    CHECK(!d.notes[0].range);
  }
  SECTION("the kind of an integration that is not enabled is fine, as in Kueue") {
    require_clean(kueue_policy("\"batch/job\"", {"RayJob.v1.ray.io"}, true));
  }
  SECTION("another version of a built-in kind is another kind") {
    require_clean(kueue_policy("\"kubeflow.org/mpijob\"", {"MPIJob.v1.kubeflow.org"}, true));
  }
}

TEST_CASE("an external framework's integration must grant something on the workers",
          "[kueue][validate][kueue]") {
  const auto r = check(R"(manager "m" {}
kueue { external_frameworks = ["Run.v1.example.com"] }
integration "Run.v1.example.com" { rules = [] }
)");
  const Diagnostic d = r->only(codes::kExternalFrameworkWithoutRules);
  CHECK(d.message ==
        "integration 'Run.v1.example.com' lists no rules, but MultiKueue creates, watches and deletes its "
        "objects on "
        "every worker");
  CHECK(r->at(d.range) == "3:13");
  REQUIRE(d.notes.size() == 2);
  CHECK(r->at(*d.notes[0].range) == "2:32");
  // The same entry is fine for an integration nobody enables as an external framework.
  const auto unused = check(R"(manager "m" {}
integration "Run.v1.example.com" { rules = [] }
)");
  CHECK(unused->with_code(codes::kExternalFrameworkWithoutRules).empty());
}

TEST_CASE("an integration without a MultiKueue adapter is a warning when the policy dispatches",
          "[kueue][validate][kueue]") {
  const std::string spark = "\"batch/job\", \"sparkoperator.k8s.io/sparkapplication\"";
  SECTION("dispatched") {
    const auto r = check(kueue_policy(spark, {}, true));
    const Diagnostic d = r->only(codes::kNoMultiKueueAdapter);
    CHECK(d.severity == mkq::diag::Severity::Warning);
    CHECK(d.message ==
          "integration 'sparkoperator.k8s.io/sparkapplication' has no MultiKueue adapter: its jobs in "
          "dispatched "
          "queues are rejected, never sent to a worker");
  }
  SECTION("no dispatch: nothing to say") { require_clean(kueue_policy(spark, {}, false)); }
  SECTION("deployment's pods are dispatched as pods") {
    require_clean(kueue_policy("\"pod\", \"deployment\"", {}, true));
  }
}

}  // namespace validatetest
