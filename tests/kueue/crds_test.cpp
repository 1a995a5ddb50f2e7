// The Kueue CRDs mkq generates from schema.h (compiler/kueue/crds.h): every
// kind is there, well-formed, and where ../shared/kueue/crds exists its names,
// scope and fields agree with Kueue's released CRDs (skipped with a visible
// warning otherwise).
#include <catch2/catch.hpp>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compiler/kueue/crds.h"
#include "compiler/kueue/schema.h"

namespace fs = std::filesystem;
namespace schema = mkq::kueue::schema;
using mkq::kueue::Json;

namespace {

fs::path released_crds_dir() { return fs::path(MKQ_SHARED_DIR) / "kueue" / "crds"; }

const Json* find_crd(const std::vector<Json>& crds, std::string_view kind) {
  for (const Json& crd : crds) {
    if (crd["spec"]["names"]["kind"] == kind) return &crd;
  }
  return nullptr;
}

std::set<std::string> strings_of(const YAML::Node& node) {
  std::set<std::string> out;
  if (node && node.IsSequence()) {
    for (const auto& item : node) out.insert(item.as<std::string>());
  }
  return out;
}

std::set<std::string> strings_of(const Json& node) {
  std::set<std::string> out;
  if (node.is_array()) {
    for (const auto& item : node) out.insert(item.get<std::string>());
  }
  return out;
}

// Walks the generated schema beside the released one: every generated field
// exists in Kueue's schema with a compatible type, and a generated object that
// refuses unknown fields lists every field Kueue's has.
void compare(const Json& ours, const YAML::Node& theirs, const std::string& path, std::vector<std::string>* problems) {
  if (!theirs || !theirs.IsMap()) {
    problems->push_back(path + ": not in Kueue's CRD");
    return;
  }
  if (ours.contains("type") && theirs["type"] && theirs["type"].as<std::string>() != ours["type"].get<std::string>()) {
    problems->push_back(path + ": type " + ours["type"].get<std::string>() + ", Kueue says " +
                        theirs["type"].as<std::string>());
  }
  if (ours.contains("items")) compare(ours["items"], theirs["items"], path + "[]", problems);
  if (!ours.contains("properties")) return;
  const YAML::Node their_properties = theirs["properties"];
  for (const auto& [name, child] : ours["properties"].items()) {
    if (path.empty() && (name == "status" || name == "metadata")) continue;
    compare(child, their_properties ? their_properties[name] : YAML::Node(), path.empty() ? name : path + "." + name,
            problems);
  }
  if (ours.value("x-kubernetes-preserve-unknown-fields", false) || !their_properties) return;
  for (const auto& entry : their_properties) {
    const std::string name = entry.first.as<std::string>();
    if (!ours["properties"].contains(name)) {
      problems->push_back(path + "." + name + ": Kueue has it, the generated object refuses it");
    }
  }
}

YAML::Node released_v1beta2(const YAML::Node& crd) {
  for (const auto& version : crd["spec"]["versions"]) {
    if (version["name"].as<std::string>() == "v1beta2") return version;
  }
  return YAML::Node();
}

}  // namespace

TEST_CASE("crds: one CRD per Kueue kind of schema.h, served and stored as v1beta2") {
  const auto crds = mkq::kueue::kueue_crds();
  std::size_t kueue_kinds = 0;
  for (const schema::KindInfo& info : schema::kKinds) {
    if (info.api_version != schema::kKueueApiVersion) {
      CHECK(find_crd(crds, info.name) == nullptr);
      continue;
    }
    ++kueue_kinds;
    INFO(info.name);
    const Json* crd = find_crd(crds, info.name);
    REQUIRE(crd != nullptr);
    CHECK((*crd)["apiVersion"] == "apiextensions.k8s.io/v1");
    CHECK((*crd)["kind"] == "CustomResourceDefinition");
    CHECK((*crd)["metadata"]["name"] == std::string(info.plural) + ".kueue.x-k8s.io");
    CHECK((*crd)["spec"]["group"] == "kueue.x-k8s.io");
    CHECK((*crd)["spec"]["scope"] == (info.namespaced ? "Namespaced" : "Cluster"));
    CHECK((*crd)["spec"]["names"]["plural"] == info.plural);
    const Json& versions = (*crd)["spec"]["versions"];
    REQUIRE(versions.size() == 1);
    CHECK(versions[0]["name"] == "v1beta2");
    CHECK(versions[0]["served"] == true);
    CHECK(versions[0]["storage"] == true);
    CHECK(versions[0]["subresources"].contains("status"));
    const Json& root = versions[0]["schema"]["openAPIV3Schema"];
    CHECK(root["type"] == "object");
    CHECK(root["properties"]["status"]["x-kubernetes-preserve-unknown-fields"] == true);
  }
  CHECK(kueue_kinds == 9);
  // Plus Kueue's Workload, which MultiKueue watches on every worker.
  CHECK(crds.size() == kueue_kinds + 1);
  const Json* workload = find_crd(crds, "Workload");
  REQUIRE(workload != nullptr);
  CHECK((*workload)["metadata"]["name"] == "workloads.kueue.x-k8s.io");
  CHECK((*workload)["spec"]["scope"] == "Namespaced");
  CHECK((*workload)["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
                   ["x-kubernetes-preserve-unknown-fields"] == true);
}

TEST_CASE("crds: the schema carries the tables' enums, limits, defaults and required fields") {
  const Json cq = mkq::kueue::kueue_crd(schema::Kind::ClusterQueue);
  const Json& spec = cq["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
  CHECK(spec["properties"]["queueingStrategy"]["enum"] == Json::array({"StrictFIFO", "BestEffortFIFO"}));
  CHECK(spec["properties"]["queueingStrategy"]["default"] == "BestEffortFIFO");
  CHECK(spec["properties"]["resourceGroups"]["maxItems"] == 16);
  const Json& group = spec["properties"]["resourceGroups"]["items"];
  CHECK(strings_of(group["required"]) == std::set<std::string>{"coveredResources", "flavors"});
  CHECK(group["properties"]["coveredResources"]["items"]["type"] == "string");
  const Json& resource = group["properties"]["flavors"]["items"]["properties"]["resources"]["items"];
  CHECK(resource["properties"]["nominalQuota"]["x-kubernetes-int-or-string"] == true);
  CHECK_FALSE(resource.contains("x-kubernetes-preserve-unknown-fields"));  // listed fully
  CHECK(spec["x-kubernetes-preserve-unknown-fields"] == true);             // the tables list a subset
  const Json wpc = mkq::kueue::kueue_crd(schema::Kind::WorkloadPriorityClass);
  CHECK(strings_of(wpc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["required"]) ==
        std::set<std::string>{"value"});
  CHECK(mkq::kueue::kueue_crd(schema::Kind::Namespace).is_null());
}

TEST_CASE("crds: names, scope and fields agree with Kueue's released CRDs") {
  std::error_code ec;
  if (!fs::is_directory(released_crds_dir(), ec)) {
    WARN("SKIPPED: " << released_crds_dir().string() << " not found");
    return;
  }
  const auto crds = mkq::kueue::kueue_crds();
  for (const Json& crd : crds) {
    const std::string name = crd["metadata"]["name"];
    INFO(name);
    const fs::path file = released_crds_dir() / ("kueue.x-k8s.io_" + crd["spec"]["names"]["plural"].get<std::string>() + ".yaml");
    REQUIRE(fs::exists(file));
    const YAML::Node released = YAML::LoadFile(file.string());
    CHECK(released["metadata"]["name"].as<std::string>() == name);
    CHECK(released["spec"]["group"].as<std::string>() == crd["spec"]["group"]);
    CHECK(released["spec"]["scope"].as<std::string>() == crd["spec"]["scope"]);
    const YAML::Node names = released["spec"]["names"];
    for (const char* key : {"kind", "listKind", "plural", "singular"}) {
      INFO(key);
      CHECK(names[key].as<std::string>() == crd["spec"]["names"][key]);
    }
    CHECK(strings_of(names["shortNames"]) == strings_of(crd["spec"]["names"]["shortNames"]));
    const YAML::Node version = released_v1beta2(released);
    REQUIRE(version);
    CHECK(version["storage"].as<bool>());
    std::vector<std::string> problems;
    compare(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"], version["schema"]["openAPIV3Schema"], "",
            &problems);
    std::string shown;
    for (const auto& p : problems) shown += p + "\n";
    INFO(shown);
    CHECK(problems.empty());
  }
}
