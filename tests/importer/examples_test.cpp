// `mkq import`'s round trip on every manifest of ../shared/kueue/examples:
// render(import(x)) holds the objects of x. The oracle is not the importer's
// own check: the policy written is compiled and lowered here, from a file on
// disk, and each object read is compared with the object rendered at its
// address, scalars as text (9 and "9" are one quantity), mkq's labels aside.
// What the language cannot say is listed per manifest, and the importer must
// report exactly that as its findings. Without ../shared the executable exits
// 77 (skipped; a failure when CI is set: tests/support/crd_test_main.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "compiler/kueue/lower.h"
#include "compiler/sema/analyze.h"
#include "runtime/importer/importer.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using mkq::importer::Finding;
using Json = mkq::importer::Json;

const fs::path kExamples = fs::path(MKQ_SHARED_DIR) / "kueue" / "examples";
const fs::path kGoldens = fs::path(MKQ_SOURCE_DIR) / "tests" / "importer" / "golden";

// One import: the manager's files, each worker's, and what the language
// cannot say (findings other than notes, as "KIND ADDRESS: FIELD" or
// "KIND ADDRESS" for a whole object).
struct Case {
  std::vector<std::string> manager;
  std::map<std::string, std::vector<std::string>> workers;
  std::set<std::string> unsaid;
  std::string golden;  // "" : none
};

const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> all = {
      {"concurrent-admission-setup.yaml",
       {{"concurrent-admission-setup.yaml"},
        {},
        {"dropped manager/ClusterQueue/team-cluster-queue: spec.concurrentAdmissionPolicy.migration.mode"},
        ""}},
      {"minimal-cq.yaml",
       {{"minimal-cq.yaml"},
        {},
        {"dropped manager/ClusterQueue/cluster-queue-2: spec.admissionChecksStrategy.admissionChecks"},
        ""}},
      {"resource-flavor-empty.yaml", {{"resource-flavor-empty.yaml"}, {}, {}, ""}},
      {"resource-flavor-taints.yaml", {{"resource-flavor-taints.yaml"}, {}, {}, ""}},
      {"resource-flavor-tolerations.yaml", {{"resource-flavor-tolerations.yaml"}, {}, {}, ""}},
      {"shared-quota-sample-job.yaml",
       {{"shared-quota-sample-job.yaml"}, {}, {"not imported manager/Job/default/sample-job-*"}, ""}},
      {"shared-quota-setup.yaml", {{"shared-quota-setup.yaml"}, {}, {}, "shared-quota-setup.mkq"}},
      {"single-clusterqueue-setup.yaml", {{"single-clusterqueue-setup.yaml"}, {}, {}, ""}},
      {"multikueue/multikueue-setup.yaml",
       {{"multikueue/multikueue-setup.yaml"}, {}, {}, "multikueue-setup.mkq"}},
      {"multikueue/tas",
       {{"multikueue/tas/manager-setup.yaml"},
        {{"worker1", {"multikueue/tas/worker-setup.yaml"}},
         {"worker2", {"multikueue/tas/worker-setup.yaml"}}},
        {},
        "tas.mkq"}},
  };
  return all;
}

std::vector<std::string> paths(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) out.push_back((kExamples / name).string());
  return out;
}

// Every scalar as text: how Kubernetes compares an int-or-string quantity.
// Keys sorted (nlohmann::json): the order of a map's keys says nothing.
nlohmann::json as_text(const Json& value) {
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, v] : value.items()) out[k] = as_text(v);
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const Json& v : value) out.push_back(as_text(v));
    return out;
  }
  return value.is_string() ? nlohmann::json(value.get<std::string>()) : nlohmann::json(value.dump());
}

// What an object says: its body and name, without status and mkq's labels.
nlohmann::json said(Json object) {
  object.erase("status");
  Json& meta = object["metadata"];
  if (meta.contains("labels")) {
    meta["labels"].erase("app.kubernetes.io/managed-by");
    meta["labels"].erase("mkq.dev/policy");
    if (meta["labels"].empty()) meta.erase("labels");
  }
  return as_text(object);
}

// Removes a dotted path ("spec.a.b") from `object`, and the maps it leaves empty.
void erase_path(Json& object, const std::vector<std::string>& keys, std::size_t at = 0) {
  if (!object.is_object() || !object.contains(keys[at])) return;
  if (at + 1 == keys.size()) {
    object.erase(keys[at]);
    return;
  }
  erase_path(object[keys[at]], keys, at + 1);
  if (object[keys[at]].empty()) object.erase(keys[at]);
}

void erase_path(Json& object, const std::string& dotted) {
  std::stringstream parts(dotted);
  std::vector<std::string> keys;
  for (std::string part; std::getline(parts, part, '.');) keys.push_back(part);
  if (!keys.empty()) erase_path(object, keys);
}

std::string address(const std::string& cluster, const Json& object) {
  const Json& meta = object["metadata"];
  const std::string ns = meta.value("namespace", std::string());
  return cluster + "/" + object.value("kind", std::string()) + "/" + (ns.empty() ? "" : ns + "/") +
         meta.value("name", std::string());
}

// The findings as Case::unsaid spells them; notes are not part of it.
std::set<std::string> unsaid(const std::vector<Finding>& findings) {
  std::set<std::string> out;
  for (const Finding& f : findings) {
    if (f.kind == Finding::Kind::Note) continue;
    if (f.kind == Finding::Kind::Dropped) {
      out.insert("dropped " + f.address + ": " + f.message.substr(0, f.message.find(" = ")));
    } else if (f.kind == Finding::Kind::NotImported) {
      out.insert("not imported " + f.address);
    } else {
      out.insert("added " + f.address + ": " + f.message);
    }
  }
  return out;
}

mkq::importer::Imported import_case(const Case& c) {
  auto snapshot = mkq::importer::read_files("manager", paths(c.manager), [&] {
    std::map<std::string, std::vector<std::string>> workers;
    for (const auto& [name, files] : c.workers) workers[name] = paths(files);
    return workers;
  }());
  REQUIRE(snapshot);
  mkq::importer::WriteOptions options;
  options.header = "Imported by mkq import";
  auto imported = mkq::importer::import_policy(snapshot.value(), options);
  if (!imported) FAIL(mkq::base::render(imported.error()));
  return std::move(imported).value();
}

}  // namespace

TEST_CASE("import: every manifest of ../shared/kueue/examples has a round-trip case", "[import][crds]") {
  std::set<std::string> covered;
  for (const auto& [name, c] : cases()) {
    for (const auto& file : c.manager) covered.insert(file);
    for (const auto& [worker, files] : c.workers) covered.insert(files.begin(), files.end());
  }
  for (const auto& entry : fs::recursive_directory_iterator(kExamples)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = fs::relative(entry.path(), kExamples).string();
    INFO(name);
    CHECK(covered.count(name) == 1);
  }
}

TEST_CASE("import: render(import(x)) holds every object of x", "[import][crds]") {
  for (const auto& [name, c] : cases()) {
    SECTION(name) {
      const mkq::importer::Imported imported = import_case(c);
      CHECK(unsaid(imported.findings) == c.unsaid);

      // Compile what was written, from a file, as `mkq render` would.
      mkq::testing::TempDir dir;
      const fs::path policy = dir.path() / "policy.mkq";
      std::ofstream(policy) << imported.policy;
      mkq::sema::RealFileSystem files;
      mkq::diag::SourceManager sources;
      mkq::diag::Diagnostics diagnostics;
      auto model = mkq::sema::analyze(policy, files, sources, diagnostics);
      REQUIRE(model);
      auto state = mkq::kueue::lower(*model, {"imported"}, diagnostics);
      REQUIRE(state);
      INFO(imported.policy);

      std::map<std::string, Json> rendered;
      for (const auto& cluster : state->clusters) {
        for (const auto& object : cluster.objects)
          rendered[address(cluster.cluster, object.document)] = object.document;
      }
      std::vector<std::pair<std::string, std::vector<std::string>>> sources_of = {{"manager", c.manager}};
      for (const auto& [worker, worker_files] : c.workers) sources_of.emplace_back(worker, worker_files);
      int compared = 0;
      for (const auto& [cluster, cluster_files] : sources_of) {
        for (const std::string& file : paths(cluster_files)) {
          std::ifstream in(file);
          std::stringstream text;
          text << in.rdbuf();
          auto snapshot = mkq::importer::read_files(cluster, {file}, {});
          REQUIRE(snapshot);
          for (Json object : snapshot.value().clusters.front().objects) {
            const std::string at = address(cluster, object);
            INFO(at);
            for (const std::string& line : c.unsaid) {
              const std::string prefix = "dropped " + at + ": ";
              if (line.starts_with(prefix)) erase_path(object, line.substr(prefix.size()));
            }
            REQUIRE(rendered.count(at) == 1);
            CHECK(said(rendered[at]).dump(2) == said(object).dump(2));
            ++compared;
          }
        }
      }
      CHECK((compared > 0 || !c.unsaid.empty()));
    }
  }
}

TEST_CASE("import: the policies written for the tutorial's manifests (goldens)", "[import][crds]") {
  for (const auto& [name, c] : cases()) {
    if (c.golden.empty()) continue;
    SECTION(c.golden) {
      const std::string text = import_case(c).policy;
      const fs::path golden = kGoldens / c.golden;
      if (const char* update = std::getenv("MKQ_UPDATE_GOLDENS"); update != nullptr && *update != '\0') {
        std::ofstream(golden) << text;
      }
      std::ifstream in(golden);
      std::stringstream expected;
      expected << in.rdbuf();
      CHECK(text == expected.str());
    }
  }
}
