// The integration catalogue: `integration` declarations, the standard
// catalogue std/integrations (loaded by every policy), and what the kueue
// block enables checked against it.
#include <algorithm>
#include <map>
#include <set>

#include "compiler/sema/analyze.h"
#include "compiler/sema/names.h"
#include "tests/sema/bind_test_support.h"

namespace bindtest {
namespace {

// { group: GROUP, resources: [...] }
Value rule(const char* group, std::initializer_list<const char*> resources) {
  return map({{"group", str(group)}, {"resources", strings(resources)}});
}

Block integration(const std::string& name, std::vector<Value> rules) {
  return Block("integration", {name}).set("rules", list(std::move(rules)));
}

// base() plus `extra`, after the standard catalogue.
Result run_with_catalogue(const std::vector<Block>& extra) {
  std::vector<Block> blocks = base();
  blocks.insert(blocks.end(), extra.begin(), extra.end());
  return run(with_catalogue(blocks));
}

// "group: r1 r2; group: r3" for one entry.
std::string rules_of(const model::Integration& integration) {
  std::string text;
  for (const auto& rule : integration.rules) {
    if (!text.empty()) text += "; ";
    text += rule.api_group.value + ":";
    for (const auto& resource : rule.resources) text += " " + resource.value;
  }
  return text;
}

}  // namespace

TEST_CASE("names: integration names and API resources", "[sema][bind][names][integration]") {
  using mkq::sema::api_resource_error;
  using mkq::sema::integration_name_error;
  using mkq::sema::is_external_framework_name;
  for (const char* ok : {"batch/job", "pod", "kubeflow.org/pytorchjob", "leaderworkerset.x-k8s.io/leaderworkerset",
                         "PipelineRun.v1.tekton.dev", "RayJob.v1.ray.io"}) {
    INFO(ok);
    CHECK_FALSE(integration_name_error(ok));
  }
  for (const char* bad : {"", "Batch/Job", "batch/", "/job", "a/b/c", "foo.bar", "Pod", "my job", "batch/job-",
                          "Kind.v1.", "-pod"}) {
    INFO(bad);
    CHECK(integration_name_error(bad));
  }
  CHECK(is_external_framework_name("PipelineRun.v1.tekton.dev"));
  CHECK_FALSE(is_external_framework_name("batch/job"));
  CHECK_FALSE(is_external_framework_name("pod"));

  for (const char* ok : {"jobs", "jobs/status", "pods", "deployments/scale", "x"}) {
    INFO(ok);
    CHECK_FALSE(api_resource_error(ok));
  }
  CHECK(api_resource_error(std::string(64, 'a')));
  CHECK_FALSE(api_resource_error(std::string(63, 'a') + "/status"));
  for (const char* bad : {"", "Jobs", "jobs/", "/status", "jobs/status/x", "jobs.batch", "job s", "-jobs"}) {
    INFO(bad);
    CHECK(api_resource_error(bad));
  }
}

TEST_CASE("std/integrations: every Kueue framework with its worker rules", "[sema][bind][integration]") {
  const Result r = run(with_catalogue(base()));
  INFO(r.summary());
  REQUIRE(r.model);
  CHECK(r.diagnostics.size() == 0);
  const auto& catalogue = r.model->integrations;
  // What create-multikueue-kubeconfig.sh grants per framework, plus the
  // frameworks with an adapter that the script leaves out, in its pattern.
  const std::map<std::string, std::string> expected = {
      {"batch/job", "batch: jobs jobs/status"},
      {"deployment", ": pods"},
      {"jobset.x-k8s.io/jobset", "jobset.x-k8s.io: jobsets jobsets/status"},
      {"kubeflow.org/jaxjob", "kubeflow.org: jaxjobs jaxjobs/status"},
      {"kubeflow.org/mpijob", "kubeflow.org: mpijobs mpijobs/status"},
      {"kubeflow.org/paddlejob", "kubeflow.org: paddlejobs paddlejobs/status"},
      {"kubeflow.org/pytorchjob", "kubeflow.org: pytorchjobs pytorchjobs/status"},
      {"kubeflow.org/tfjob", "kubeflow.org: tfjobs tfjobs/status"},
      {"kubeflow.org/xgboostjob", "kubeflow.org: xgboostjobs xgboostjobs/status"},
      {"leaderworkerset.x-k8s.io/leaderworkerset", "leaderworkerset.x-k8s.io: leaderworkersets leaderworkersets/status"},
      {"pod", ": pods"},
      {"ray.io/raycluster", "ray.io: rayclusters rayclusters/status"},
      {"ray.io/rayjob", "ray.io: rayjobs rayjobs/status"},
      {"ray.io/rayservice", "ray.io: rayservices rayservices/status"},
      {"sparkoperator.k8s.io/sparkapplication", ""},
      {"statefulset", "apps: statefulsets statefulsets/status"},
      {"trainer.kubeflow.org/trainjob", "trainer.kubeflow.org: trainjobs trainjobs/status"},
      {"workload.codeflare.dev/appwrapper", "workload.codeflare.dev: appwrappers appwrappers/status"},
  };
  REQUIRE(catalogue.size() == expected.size());
  std::size_t i = 0;
  for (const auto& [name, rules] : expected) {  // sorted by name, like the model
    const model::Integration& entry = catalogue[i++];
    INFO(name);
    CHECK(entry.name == name);
    CHECK(rules_of(entry) == rules);
    CHECK(entry.standard);
    CHECK(r.model->find_integration(name) == &entry);
  }
  CHECK(r.model->find_integration("batch/jobs") == nullptr);
  // Kueue's Workloads are granted by lowering on every worker, not listed here.
  for (const auto& entry : catalogue) {
    for (const auto& rule : entry.rules) CHECK(rule.api_group.value != "kueue.x-k8s.io");
  }
  // By default only batch/job is enabled.
  const auto enabled = r.model->enabled_integrations();
  REQUIRE(enabled.size() == 1);
  CHECK(enabled[0]->name == "batch/job");
}

TEST_CASE("integration: a policy's own framework binds", "[sema][bind][integration]") {
  const Value core = rule("", {"pods"});
  const Block tekton =
      integration("PipelineRun.v1.tekton.dev", {rule("tekton.dev", {"pipelineruns", "pipelineruns/status"}), core});
  const Block kueue = Block("kueue")
                          .set("integrations", strings({"ray.io/rayjob", "batch/job"}))
                          .set("external_frameworks", strings({"PipelineRun.v1.tekton.dev"}));
  const Result r = run_with_catalogue({tekton, kueue});
  INFO(r.summary());
  REQUIRE(r.model);
  CHECK(r.diagnostics.size() == 0);
  const model::Integration* entry = r.model->find_integration("PipelineRun.v1.tekton.dev");
  REQUIRE(entry != nullptr);
  CHECK_FALSE(entry->standard);
  CHECK(entry->name_range == tekton.label());
  CHECK(rules_of(*entry) == "tekton.dev: pipelineruns pipelineruns/status; : pods");  // written order
  CHECK(entry->rules[1].range == core.origin);
  // Sorted by name: "PipelineRun..." sorts before the lower-case names.
  CHECK(r.model->integrations.front().name == "PipelineRun.v1.tekton.dev");
  CHECK(std::is_sorted(r.model->integrations.begin(), r.model->integrations.end(),
                       [](const auto& a, const auto& b) { return a.name < b.name; }));
  std::vector<std::string> enabled;
  for (const model::Integration* e : r.model->enabled_integrations()) enabled.push_back(e->name);
  CHECK(enabled == std::vector<std::string>{"PipelineRun.v1.tekton.dev", "batch/job", "ray.io/rayjob"});
}

TEST_CASE("integration: a new Kueue framework may be declared and enabled", "[sema][bind][integration]") {
  const Block mx = integration("kubeflow.org/mxjob", {rule("kubeflow.org", {"mxjobs", "mxjobs/status"})});
  const Block kueue = Block("kueue").set("integrations", strings({"kubeflow.org/mxjob"}));
  const Result r = run_with_catalogue({kueue, mx});  // declared after the kueue block: order does not matter
  INFO(r.summary());
  REQUIRE(r.model);
  CHECK(r.diagnostics.size() == 0);
  REQUIRE(r.model->enabled_integrations().size() == 1);
  CHECK(r.model->enabled_integrations()[0]->name == "kubeflow.org/mxjob");
}

TEST_CASE("integration: a framework without a MultiKueue adapter has no rules", "[sema][bind][integration]") {
  const Block kueue = Block("kueue").set("integrations", strings({"sparkoperator.k8s.io/sparkapplication"}));
  const Result r = run_with_catalogue({kueue});
  REQUIRE(r.model);
  REQUIRE(r.model->enabled_integrations().size() == 1);
  CHECK(r.model->enabled_integrations()[0]->rules.empty());
}

TEST_CASE("integration: declaration errors", "[sema][bind][integration][errors]") {
  SECTION("a name Kueue would not use") {
    const Block b = integration("Tekton PipelineRun", {rule("tekton.dev", {"pipelineruns"})});
    const Result result_d = run_with_catalogue({b});
    const auto& d = result_d.only(codes::kBadIntegrationName);
    CHECK(d.range == b.label());
    CHECK(d.message.rfind("'Tekton PipelineRun' is not a valid integration name: ", 0) == 0);
  }
  SECTION("no label") {
    const Block b = Block("integration").set("rules", list({}));
    CHECK(run_with_catalogue({b}).only(codes::kBadLabels).message ==
          "'integration' needs a framework name: integration \"GROUP/KIND\" { rules = [...] }");
  }
  SECTION("no rules") {
    const Block b = Block("integration", {"Foo.v1.example.com"});
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Result result_d = run_with_catalogue({b, kueue});
    const auto& d = result_d.only(codes::kMissingField);
    CHECK(d.range == b.label());
    CHECK(d.message ==
          "integration 'Foo.v1.example.com' needs field 'rules' (a list of { group, resources }; [] when none of "
          "its objects reach a worker)");
  }
  SECTION("an unknown field") {
    const Block b = integration("Foo.v1.example.com", {}).set("rule", list({}));
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Result result_d = run_with_catalogue({b, kueue});
    const auto& d = result_d.only(codes::kUnknownField);
    CHECK(suggestion(d) == "did you mean 'rules'?");
  }
  SECTION("rules of the wrong type") {
    const Block b = Block("integration", {"Foo.v1.example.com"}).set("rules", str("batch"));
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    CHECK(run_with_catalogue({b, kueue}).only(codes::kTypeMismatch).message ==
          "field 'rules' expects a list of { group, resources } maps, found a string");
    const Value item = str("batch");
    const Block c = Block("integration", {"Foo.v1.example.com"}).set("rules", list({item}));
    const Result result_d = run_with_catalogue({c, kueue});
    const auto& d = result_d.only(codes::kTypeMismatch);
    CHECK(d.range == item.origin);
    CHECK(d.message == "each element of 'rules' must be a map { group, resources }, found a string");
  }
  SECTION("rule keys") {
    const Value typo = map({{"groups", str("batch")}, {"resources", strings({"jobs"})}});
    const Block b = integration("Foo.v1.example.com", {typo});
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Result r = run_with_catalogue({b, kueue});
    CHECK(suggestion(r.first(codes::kUnknownKey)) == "did you mean 'group'?");
    CHECK(r.first(codes::kMissingField).message == "a rule needs a 'group' (\"\" for the core API group)");
    const Value no_resources = map({{"group", str("batch")}});
    const Block c = integration("Foo.v1.example.com", {no_resources});
    const Result result_d = run_with_catalogue({c, kueue});
    const auto& d = result_d.only(codes::kMissingField);
    CHECK(d.message == "a rule needs 'resources'");
    CHECK(d.range == no_resources.origin);
  }
  SECTION("an invalid API group; the core group is \"\"") {
    const Value group = str("Tekton.dev");
    const Block b = integration("Foo.v1.example.com", {map({{"group", group}, {"resources", strings({"runs"})}})});
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Result result_d = run_with_catalogue({b, kueue});
    const auto& d = result_d.only(codes::kInvalidSubdomain);
    CHECK(d.range == group.origin);
    CHECK(d.message.rfind("'Tekton.dev' is not a valid API group: ", 0) == 0);
  }
  SECTION("resources: empty, malformed, twice") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Value empty = list({});
    const Block b = integration("Foo.v1.example.com", {map({{"group", str("x.io")}, {"resources", empty}})});
    const Result result_e = run_with_catalogue({b, kueue});
    const auto& e = result_e.only(codes::kValueOutOfRange);
    CHECK(e.range == empty.origin);
    CHECK(e.message == "a rule lists no resource: give at least one, e.g. [\"jobs\", \"jobs/status\"]");

    const Value bad = str("Runs");
    const Block c = integration("Foo.v1.example.com",
                                {map({{"group", str("x.io")}, {"resources", list({bad, str("runs/status")})}})});
    const Result result_m = run_with_catalogue({c, kueue});
    const auto& m = result_m.only(codes::kInvalidApiResource);
    CHECK(m.range == bad.origin);
    CHECK(m.message.rfind("'Runs' is not a valid API resource: ", 0) == 0);

    const Value first = str("runs");
    const Value again = str("runs");
    const Block t = integration("Foo.v1.example.com",
                                {map({{"group", str("x.io")}, {"resources", list({first, again})}})});
    const Result result_twice = run_with_catalogue({t, kueue});
    const auto& twice = result_twice.only(codes::kDuplicateListItem);
    CHECK(twice.range == again.origin);
    CHECK(twice.message == "resource 'runs' is listed twice");
    REQUIRE(twice.notes.size() == 1);
    CHECK(twice.notes[0].range == first.origin);
  }
  SECTION("one rule per API group") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Block b = integration("Foo.v1.example.com", {rule("x.io", {"runs"}), rule("x.io", {"runs/status"})});
    const Result result_d = run_with_catalogue({b, kueue});
    const auto& d = result_d.only(codes::kDuplicateListItem);
    CHECK(d.message == "API group 'x.io' has two rules: list its resources in one");
  }
  SECTION("a secret is never a rule") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Block b = integration("Foo.v1.example.com", {map({{"group", secret("env:G")}, {"resources", strings({"x"})}})});
    CHECK(run_with_catalogue({b, kueue}).only(codes::kSecretNotAllowed).message ==
          "field 'group' cannot hold a secret: its value would be printed");
  }
}

TEST_CASE("integration: duplicates, and redeclaring the standard catalogue", "[sema][bind][integration][errors]") {
  SECTION("a policy redeclares a std integration") {
    const Block b = integration("batch/job", {rule("batch", {"jobs", "cronjobs"})});
    const Result r = run_with_catalogue({b});
    const auto& d = r.only(codes::kDuplicateDeclaration);
    CHECK(d.range == b.label());
    CHECK(d.message == "integration 'batch/job' is already declared by std/integrations");
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[0].message == "declared here");
    CHECK(d.notes[0].range.has_value());
    CHECK(d.notes[1].message ==
          "every policy loads std/integrations: a policy declares only frameworks it does not know, such as "
          "external ones");
  }
  SECTION("the std one is reported against even when the policy's block comes first") {
    const Block b = integration("pod", {rule("", {"pods"})});
    EvalPolicy p = policy(base());
    p.blocks.push_back(b.block);
    for (const EvalBlock& block : standard_catalogue()) p.blocks.push_back(block);
    const Result result_d = run(p);
    const auto& d = result_d.only(codes::kDuplicateDeclaration);
    CHECK(d.range == b.label());
  }
  SECTION("a policy declares one twice") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Block first = integration("Foo.v1.example.com", {rule("x.io", {"foos"})});
    const Block second = integration("Foo.v1.example.com", {rule("x.io", {"foos"})});
    const Result result_d = run_with_catalogue({kueue, first, second});
    const auto& d = result_d.only(codes::kDuplicateDeclaration);
    CHECK(d.range == second.label());
    CHECK(d.message == "integration 'Foo.v1.example.com' is declared twice");
  }
}

TEST_CASE("integration: what the kueue block enables is in the catalogue", "[sema][bind][integration][errors]") {
  SECTION("an unknown Kueue framework, with did you mean") {
    const Value typo = str("ray.io/rayjobs");
    const Block kueue = Block("kueue").set("integrations", list({str("batch/job"), typo}));
    const Result result_d = run_with_catalogue({kueue});
    const auto& d = result_d.only(codes::kUnknownIntegration);
    CHECK(d.range == typo.origin);
    CHECK(d.message == "unknown Kueue integration 'ray.io/rayjobs'");
    CHECK(suggestion(d) == "did you mean 'ray.io/rayjob'?");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message ==
          "another job kind is added with 'external_frameworks' (\"Kind.version.group\") and an 'integration' "
          "declaration");
  }
  SECTION("an external framework listed as an integration") {
    const Block own = integration("Foo.v1.example.com", {rule("x.io", {"foos"})});
    const Block kueue = Block("kueue")
                            .set("integrations", strings({"Foo.v1.example.com"}))
                            .set("external_frameworks", strings({"Foo.v1.example.com"}));
    const Result result_d = run_with_catalogue({own, kueue});
    const auto& d = result_d.only(codes::kUnknownIntegration);
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "'Foo.v1.example.com' is an external framework: list it in 'external_frameworks'");
  }
  SECTION("an external framework needs an integration") {
    const Value name = str("Foo.v1.example.com");
    const Block near = integration("Foos.v1.example.com", {rule("x.io", {"foos"})});
    const Block kueue = Block("kueue").set("external_frameworks", list({name}));
    const Result r = run_with_catalogue({kueue, near});
    const auto& d = r.first(codes::kUndeclaredExternalFramework);
    CHECK(d.range == name.origin);
    CHECK(d.message ==
          "external framework 'Foo.v1.example.com' has no 'integration' declaration: mkq cannot grant MultiKueue "
          "access to its objects on the workers");
    CHECK(suggestion(d) == "did you mean 'Foos.v1.example.com'?");
    CHECK(r.with_code(codes::kIntegrationNotEnabled).size() == 1);  // the near miss is not enabled
  }
  SECTION("a malformed external framework is E3016 only") {
    const Block kueue = Block("kueue").set("external_frameworks", strings({"Foo"}));
    run_with_catalogue({kueue}).only(codes::kBadFrameworkName);
  }
  SECTION("the policy's own integration not enabled is a warning") {
    const Block own = integration("Foo.v1.example.com", {rule("x.io", {"foos"})});
    const Result r = run_with_catalogue({own});
    REQUIRE(r.model);  // a warning only
    const auto& d = r.only(codes::kIntegrationNotEnabled);
    CHECK(d.range == own.label());
    CHECK(d.message == "integration 'Foo.v1.example.com' is declared but not enabled: the workers grant nothing for it");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "enable it in the kueue block's 'external_frameworks'");
    const Block mx = integration("kubeflow.org/mxjob", {rule("kubeflow.org", {"mxjobs"})});
    CHECK(run_with_catalogue({mx}).only(codes::kIntegrationNotEnabled).notes[0].message ==
          "enable it in the kueue block's 'integrations'");
  }
}

TEST_CASE("integration: analyze() loads std/integrations into every policy", "[sema][analyze][integration]") {
  mkq::sema::InMemoryFileSystem fs;
  fs.add("/p/policy.mkq", "manager \"m\" {}\n");
  fs.add("/q/policy.mkq", "import \"std/integrations\"\nmanager \"m\" {}\n");
  fs.add("/r/policy.mkq", "flavor \"f\" {}\n");
  fs.add("/s/policy.mkq", "let x = 1\n");
  for (const char* path : {"/p", "/q"}) {
    INFO(path);
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    const auto policy = mkq::sema::analyze(path, fs, sources, diagnostics);
    REQUIRE(policy);
    CHECK(diagnostics.size() == 0);
    // Loaded once, imported explicitly or not.
    CHECK(policy->integrations.size() == standard_catalogue().size());
    REQUIRE(policy->find_integration("batch/job") != nullptr);
    const auto& file = sources.file(policy->find_integration("batch/job")->name_range.file);
    CHECK(file.path == "std/integrations.mkq");
    CHECK(file.is_stdlib);
  }
  // "No manager" points at the policy's own file, never at the prelude.
  {
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    CHECK_FALSE(mkq::sema::analyze("/r", fs, sources, diagnostics));
    REQUIRE(diagnostics.size() == 1);
    const auto& d = diagnostics.items().front();
    CHECK(d.code == codes::kNoManager);
    CHECK(sources.file(d.range.file).path == "/r/policy.mkq");
  }
  {
    mkq::diag::SourceManager sources;
    mkq::diag::Diagnostics diagnostics;
    CHECK_FALSE(mkq::sema::analyze("/s", fs, sources, diagnostics));
    REQUIRE(diagnostics.size() == 1);
    // No declaration of its own: the start of its first file.
    const auto& d = diagnostics.items().front();
    REQUIRE(d.range.valid());
    CHECK(sources.file(d.range.file).path == "/s/policy.mkq");
    CHECK(sources.begin_of(d.range).line == 1);
    CHECK(sources.begin_of(d.range).column == 1);
  }
}

TEST_CASE("integration: the prelude's blocks are marked as the standard library's", "[sema][eval][integration]") {
  for (const EvalBlock& block : standard_catalogue()) {
    CHECK(block.kind == "integration");
    CHECK(block.from_stdlib);
  }
  CHECK(standard_catalogue().size() == 18);
}

}  // namespace bindtest
