// schema.h's defaults table (kDefaults) against Kueue's released CRDs
// (../shared/kueue/crds): every `default:` in the v1beta2 schema of a kind mkq
// writes is in the table at the same path, with the same value, as a Server
// default; every Server entry is such a `default:`; an Unset entry names a
// field the CRD has and does not default. Tagged [crds]: skipped without
// ../shared, a failure when CI is set (tests/support/crd_test_main.cpp).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>

#include "compiler/kueue/schema.h"
#include "tests/support/crd_validator.h"

namespace schema = mkq::kueue::schema;
namespace ts = mkq::test_support;
using Json = nlohmann::json;

namespace {

// The v1beta2 openAPIV3Schema of a Kueue kind's released CRD (null when absent).
Json released_schema(const schema::KindInfo& kind) {
  const auto file = ts::kueue_crds_dir() / ("kueue.x-k8s.io_" + std::string(kind.plural) + ".yaml");
  const ts::YamlDocuments read = ts::read_yaml_file(file);
  if (!read.errors.empty() || read.documents.size() != 1) return Json();
  for (const Json& version : read.documents.front()["spec"]["versions"]) {
    if (version.value("name", "") == schema::kKueueVersion) return version["schema"]["openAPIV3Schema"];
  }
  return Json();
}

std::string child_path(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

// Every `default:` below `node`, by path in schema.h's form: "a.b" for
// properties, "a[]" for a list's items, "a{}" for a map's values (a form the
// table has no entry for, so a default there fails the test visibly). status
// is Kueue's controllers', never written by mkq.
void collect_defaults(const Json& node, const std::string& path, std::map<std::string, Json>& out) {
  if (!node.is_object()) return;
  if (node.contains("default")) out[path] = node["default"];
  if (const auto it = node.find("properties"); it != node.end() && it->is_object()) {
    for (const auto& [name, child] : it->items()) {
      if (path.empty() && (name == "status" || name == "metadata")) continue;
      collect_defaults(child, child_path(path, name), out);
    }
  }
  if (const auto it = node.find("items"); it != node.end()) collect_defaults(*it, path + "[]", out);
  if (const auto it = node.find("additionalProperties"); it != node.end()) collect_defaults(*it, path + "{}", out);
}

// The schema node of a table path ("spec.tolerations[].operator"), or null.
const Json* node_at(const Json& root, const std::string& path) {
  const Json* node = &root;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    std::string segment = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const bool item = segment.ends_with("[]");
    if (item) segment.resize(segment.size() - 2);
    const auto properties = node->find("properties");
    if (properties == node->end() || !properties->contains(segment)) return nullptr;
    node = &(*properties)[segment];
    if (item) {
      if (!node->contains("items")) return nullptr;
      node = &(*node)["items"];
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

}  // namespace

TEST_CASE("crd defaults: the table holds every default of Kueue's released CRDs, with Kueue's value",
          "[crds][kueue][schema]") {
  std::size_t compared = 0;
  for (const schema::KindInfo& kind : schema::kKinds) {
    if (kind.api_version != schema::kKueueApiVersion) continue;
    INFO(kind.name);
    const Json root = released_schema(kind);
    REQUIRE(root.is_object());
    std::map<std::string, Json> released;
    collect_defaults(root, "", released);
    for (const auto& [path, value] : released) {
      INFO(path << " defaults to " << value.dump() << " in Kueue's CRD");
      const schema::FieldDefault* entry = schema::find_default(kind.kind, path);
      REQUIRE(entry != nullptr);
      CHECK(entry->source == schema::DefaultSource::Server);
      CHECK(Json::parse(entry->json_value) == value);
      ++compared;
    }
    for (const schema::FieldDefault& entry : schema::kDefaults) {
      if (entry.kind != kind.kind) continue;
      const std::string path(entry.path);
      INFO(path << " in the table, " << (entry.source == schema::DefaultSource::Server ? "Server" : "Unset"));
      CHECK(node_at(root, path) != nullptr);
      CHECK(released.contains(path) == (entry.source == schema::DefaultSource::Server));
    }
  }
  // ClusterQueue alone has eleven; a walk that found none would prove nothing.
  CHECK(compared >= 11);
}
