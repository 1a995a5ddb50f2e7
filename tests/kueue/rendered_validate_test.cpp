// Every object mkq renders is one the API server would accept: each example
// (examples/*) and each golden policy (tests/lang/{ok,render}/*.mkq) goes through the
// compiler (sema::analyze, then kueue::lower) and every Kueue object of every
// cluster is validated against Kueue's released CRDs (../shared/kueue/crds)
// with the structural validator of tests/support. Objects of kinds without a
// CRD (Namespace, Secret, ConfigMap, RBAC...) are counted and skipped. Needs
// ../shared: skipped when it is absent (tests/support/crd_test_main.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/diag/diagnostic.h"
#include "compiler/diag/source.h"
#include "compiler/kueue/crds.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/objects.h"
#include "compiler/kueue/policy_name.h"
#include "compiler/sema/analyze.h"
#include "compiler/sema/filesystem.h"
#include "tests/support/crd_validator.h"

namespace ts = mkq::test_support;
namespace fs = std::filesystem;

namespace {

const ts::CrdCatalog& kueue_crds() {
  static const ts::CrdCatalog catalog = ts::CrdCatalog::load_directory(ts::kueue_crds_dir());
  return catalog;
}

// The CRDs mkq generates from its own Kueue knowledge (compiler/kueue/crds.h),
// which `mkq sandbox up` installs without --crds: rendered objects and Kueue's
// example manifests must pass them too. They need no ../shared.
const ts::CrdCatalog& generated_crds() {
  static const ts::CrdCatalog catalog = [] {
    std::string yaml;
    for (const auto& crd : mkq::kueue::kueue_crds()) yaml += "---\n" + crd.dump() + "\n";
    return ts::CrdCatalog::load_text(yaml);
  }();
  return catalog;
}

struct Tally {
  std::size_t validated = 0;  // Kueue objects checked against a CRD
  std::size_t skipped = 0;    // objects of kinds without a CRD
};

// Renders the policy at `path` and validates every object; every problem is a
// failed CHECK naming the policy, the cluster, the object's address and the
// field path.
Tally render_and_validate(const fs::path& path, const ts::CrdCatalog& catalog) {
  Tally tally;
  const std::string shown_path = path.lexically_relative(MKQ_SOURCE_DIR).generic_string();
  INFO("policy " << shown_path);

  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  mkq::sema::RealFileSystem files;
  const auto policy = mkq::sema::analyze(path, files, sources, diagnostics);
  if (!policy || diagnostics.has_errors()) {
    FAIL_CHECK(shown_path << " does not compile:\n" << mkq::diag::render_text(diagnostics.sorted(sources), sources));
    return tally;
  }
  mkq::kueue::LowerOptions options;
  options.policy_name = mkq::kueue::policy_name_for(path);
  const auto state = mkq::kueue::lower(*policy, options, diagnostics);
  if (!state || diagnostics.has_errors()) {
    FAIL_CHECK(shown_path << " does not lower:\n" << mkq::diag::render_text(diagnostics.sorted(sources), sources));
    return tally;
  }

  ts::ValidateOptions validate_options;
  validate_options.require_namespace = true;  // rendered objects always name their namespace
  for (const auto& cluster : state->clusters) {
    for (const auto& object : cluster.objects) {
      const std::string where = mkq::kueue::address(cluster.cluster, object);
      INFO("object " << where);
      // The facts kept beside the document agree with it.
      CHECK(object.document.value("apiVersion", "") == object.api_version);
      CHECK(object.document.value("kind", "") == object.kind);
      const auto result = catalog.validate(object.document, validate_options);
      if (result.no_schema()) {
        CHECK(object.api_version.rfind("kueue.x-k8s.io/", 0) != 0);
        ++tally.skipped;
        continue;
      }
      ++tally.validated;
      if (result.valid()) continue;
      for (const auto& error : result.errors) {
        FAIL_CHECK(shown_path << ": cluster " << cluster.cluster << ": " << where << ": " << ts::to_string(error));
      }
    }
  }
  return tally;
}

std::vector<fs::path> examples() {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(fs::path(MKQ_SOURCE_DIR) / "examples")) {
    if (entry.is_directory()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The policies of the ok goldens (mkq eval) and of the render goldens.
std::vector<fs::path> golden_policies() {
  std::vector<fs::path> out;
  for (const char* dir : {"ok", "render"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(MKQ_SOURCE_DIR) / "tests" / "lang" / dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".mkq") out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("rendered: Kueue's CRDs load for validating rendered objects", "[crds]") {
  std::string problems;
  for (const auto& line : kueue_crds().load_errors()) problems += line + "\n";
  INFO(problems);
  CHECK(kueue_crds().load_errors().empty());
}

TEST_CASE("rendered: every object of every example validates against Kueue's CRDs", "[crds]") {
  const auto paths = examples();
  REQUIRE(paths.size() >= 4);
  for (const auto& path : paths) {
    const Tally tally = render_and_validate(path, kueue_crds());
    INFO(path.string());
    CHECK(tally.validated > 0);  // each example renders Kueue objects
  }
}

TEST_CASE("rendered: every object of every golden policy validates against Kueue's CRDs", "[crds]") {
  const auto paths = golden_policies();
  REQUIRE(paths.size() >= 25);
  Tally total;
  for (const auto& path : paths) {
    const Tally tally = render_and_validate(path, kueue_crds());
    total.validated += tally.validated;
    total.skipped += tally.skipped;
  }
  CHECK(total.validated > paths.size());
}

TEST_CASE("rendered: mkq's generated Kueue CRDs load", "[generated]") {
  std::string problems;
  for (const auto& line : generated_crds().load_errors()) problems += line + "\n";
  INFO(problems);
  CHECK(generated_crds().load_errors().empty());
  CHECK(generated_crds().served_kinds().size() == mkq::kueue::kueue_crds().size());
}

TEST_CASE("rendered: every object of every example and golden policy validates against the generated CRDs",
          "[generated]") {
  auto paths = examples();
  const auto goldens = golden_policies();
  paths.insert(paths.end(), goldens.begin(), goldens.end());
  REQUIRE(paths.size() >= 29);
  Tally total;
  for (const auto& path : paths) {
    const Tally tally = render_and_validate(path, generated_crds());
    total.validated += tally.validated;
  }
  CHECK(total.validated > paths.size());
}

TEST_CASE("rendered: every Kueue object of ../shared/kueue/examples validates against the generated CRDs", "[crds]") {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(ts::kueue_examples_dir())) {
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  int validated = 0;
  for (const auto& file : files) {
    const auto read = ts::read_yaml_file(file);
    INFO(file.string());
    REQUIRE(read.errors.empty());
    for (const auto& object : read.documents) {
      const bool kueue_kind = object.value("apiVersion", "").rfind("kueue.x-k8s.io/", 0) == 0;
      const auto result = generated_crds().validate(object);
      INFO(object.value("kind", "?") << " " << object["metadata"].value("name", "?"));
      INFO(result.summary());
      if (!kueue_kind) {
        CHECK(result.no_schema());
        continue;
      }
      CHECK(result.valid());
      ++validated;
    }
  }
  CHECK(validated >= 30);
}

TEST_CASE("rendered: the generated CRDs refuse what the tables forbid", "[generated]") {
  nlohmann::json cq = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
                       {"kind", "ClusterQueue"},
                       {"metadata", {{"name", "cq"}}},
                       {"spec", {{"queueingStrategy", "Sometimes"}}}};
  CHECK(generated_crds().validate(cq).has_error_at("spec.queueingStrategy"));
  cq["spec"] = {{"resourceGroups", {{{"coveredResources", {"cpu"}}, {"flavours", nlohmann::json::array()}}}}};
  const auto result = generated_crds().validate(cq);
  INFO(result.summary());
  CHECK_FALSE(result.valid());
  cq["spec"] = {{"preemption", {{"withinClusterQueue", "Never"}}}, {"admissionScope", {{"anything", 1}}}};
  CHECK(generated_crds().validate(cq).valid());  // fields the tables do not list are kept
}

// Issue 15.4: `kueue { platform = "openshift" }` renders the Red Hat build of
// Kueue operator's `Kueue` resource, which must validate against the
// operator's CRD (../shared/kueue/openshift). The validator skips CEL rules, so
// the ones the rendered resource could break are checked here by hand.
TEST_CASE("rendered: the OpenShift Kueue resource validates against the operator's CRD", "[crds]") {
  const ts::CrdCatalog catalog = ts::CrdCatalog::load_directory(ts::kueue_crds_dir().parent_path() / "openshift");
  REQUIRE(catalog.load_errors().empty());
  REQUIRE(catalog.served_kinds() == std::vector<std::string>{"kueue.openshift.io/v1 Kueue"});

  const fs::path path = fs::path(MKQ_SOURCE_DIR) / "tests" / "lang" / "render" / "openshift.mkq";
  mkq::diag::SourceManager sources;
  mkq::diag::Diagnostics diagnostics;
  mkq::sema::RealFileSystem files;
  const auto policy = mkq::sema::analyze(path, files, sources, diagnostics);
  REQUIRE(policy);
  mkq::kueue::LowerOptions options;
  options.policy_name = "openshift";
  const auto state = mkq::kueue::lower(*policy, options, diagnostics);
  INFO(mkq::diag::render_text(diagnostics.sorted(sources), sources));
  REQUIRE(state);

  const mkq::kueue::ClusterObjects& hub = state->clusters.front();
  const mkq::kueue::Object* kueue = nullptr;
  for (const auto& object : hub.objects) {
    CHECK(object.kind != "ConfigMap");  // the operator's to write
    if (object.kind == "Kueue") kueue = &object;
  }
  REQUIRE(kueue != nullptr);
  const auto result = catalog.validate(kueue->document, {});
  INFO(result.summary());
  CHECK(result.valid());
  // CEL: "Kueue is a singleton, .metadata.name must be 'cluster'".
  CHECK(kueue->document["metadata"]["name"] == "cluster");
  // CEL: byWorkload is required when the policy is ByWorkload.
  const auto& gang = kueue->document["spec"]["config"]["gangScheduling"];
  CHECK(gang["policy"] == "ByWorkload");
  CHECK(gang.contains("byWorkload"));
  // CEL: each framework once.
  const auto& frameworks = kueue->document["spec"]["config"]["integrations"]["frameworks"];
  CHECK(frameworks.dump() == R"(["BatchJob","JobSet","PyTorchJob"])");

  // A wrong document fails: the validator is not blind to this CRD.
  auto broken = kueue->document;
  broken["spec"]["config"]["integrations"]["frameworks"] = mkq::kueue::Json::array({"batch/job"});
  CHECK_FALSE(catalog.validate(broken, {}).valid());
}
