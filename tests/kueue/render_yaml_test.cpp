// The YAML writer: quoting of strings a YAML reader would misread, block
// literals, the manifest layout; every output read back with yaml-cpp gives
// the document again.
#include <catch2/catch.hpp>

#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "compiler/kueue/render.h"
#include "compiler/kueue/yaml_emit.h"

using mkq::kueue::Json;
using mkq::kueue::is_plain_safe;
using mkq::kueue::to_yaml;

namespace {

// yaml-cpp's view of a scalar: its text, and whether it was quoted or a block
// (yaml-cpp marks those with the non-specific tag "!").
Json reread(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& entry : node) out[entry.first.as<std::string>()] = reread(entry.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(reread(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      if (node.Tag() == "!") return node.Scalar();  // quoted or block: a string
      const std::string& text = node.Scalar();
      if (text == "true" || text == "false") return text == "true";
      if (text == "null") return nullptr;
      try {
        std::size_t used = 0;
        const long long n = std::stoll(text, &used);
        if (used == text.size()) return n;
      } catch (...) {
      }
      return text;
    }
    default:
      return nullptr;
  }
}

Json round_trip(const Json& document) { return reread(YAML::Load(to_yaml(document))); }

}  // namespace

TEST_CASE("yaml: strings a YAML reader would take for something else are quoted", "[kueue][yaml]") {
  for (const char* text : {"", "yes", "Yes", "NO", "on", "Off", "y", "n", "true", "False", "null", "~", "1.5", "9",
                           "-1", "+3", ".5", "1e3", "0x1F", "0o17", "1_000", "12:30", ".inf", "-.Inf", ".NaN", " lead",
                           "trail ", "a: b", "a #b", "end:", "-dash", "[list]", "{map}", "a,b", "*alias", "&anchor",
                           "!tag", "%dir", "@at", "`tick", "'single", "\"double", "|pipe", ">fold", "#comment",
                           "tab\there", "2001-12-14", "<<", "="}) {
    INFO("[" << text << "]");
    CHECK_FALSE(is_plain_safe(text));
    const Json document = Json::object({{"v", text}});
    CHECK(round_trip(document) == document);
  }
}

TEST_CASE("yaml: ordinary Kubernetes strings stay plain", "[kueue][yaml]") {
  for (const char* text : {"default-flavor", "36Gi", "500m", "1k", "kueue.x-k8s.io/v1beta2", "nvidia.com/gpu",
                           "kubernetes.io/hostname", "NoSchedule", "batch/job", "TrainingRun.v1alpha1.example.com",
                           "kueue-system", "a100", "t4-pool-1", "yes-please", "ontology", "1Ti"}) {
    INFO(text);
    CHECK(is_plain_safe(text));
  }
}

TEST_CASE("yaml: control characters and Unicode line breaks are escaped", "[kueue][yaml]") {
  const std::string text = std::string("a\x01" "b\r\x7F") + "\xE2\x80\xA8" + "\xC2\x85" + "\xEF\xBB\xBF" + "é";
  CHECK_FALSE(is_plain_safe(text));
  CHECK(mkq::kueue::double_quoted(text) == "\"a\\x01b\\r\\x7F\\u2028\\u0085\\uFEFFé\"");
  const Json document = Json::object({{"v", text}});
  CHECK(round_trip(document) == document);
}

TEST_CASE("yaml: multi-line strings are block literals", "[kueue][yaml]") {
  const Json document = Json::object({{"data", Json::object({{"config.yaml", "a: 1\nb:\n  - x\n\nend\n"}})},
                                      {"strip", "line one\nline two"},
                                      {"keep", "x\n\n"},
                                      {"list", Json::array({"first\nsecond\n"})}});
  CHECK(to_yaml(document) ==
        "data:\n"
        "  config.yaml: |\n"
        "    a: 1\n"
        "    b:\n"
        "      - x\n"
        "\n"
        "    end\n"
        "strip: |-\n"
        "  line one\n"
        "  line two\n"
        "keep: |+\n"
        "  x\n"
        "\n"
        "list:\n"
        "- |\n"
        "  first\n"
        "  second\n");
  CHECK(round_trip(document) == document);
  // Leading blanks or trailing spaces cannot be a literal: double-quoted instead.
  for (const char* text : {" indented\nnext", "trailing \nnext", "\n\n", "a\r\nb"}) {
    const Json d = Json::object({{"v", text}});
    CHECK(to_yaml(d).find('|') == std::string::npos);
    CHECK(round_trip(d) == d);
  }
}

TEST_CASE("yaml: the manifest layout", "[kueue][yaml]") {
  const Json document = Json::parse(R"({
    "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
    "metadata": {"name": "q", "labels": {"on": "yes", "app.kubernetes.io/managed-by": "mkq"}},
    "spec": {"namespaceSelector": {}, "empty": [], "resourceGroups": [{"coveredResources": ["cpu"],
      "flavors": [{"name": "f", "resources": [{"name": "cpu", "nominalQuota": 9}, {"name": "memory", "nominalQuota": "36Gi"}]}]}],
      "nested": [["a", "b"], []], "flag": true, "nothing": null}
  })");
  CHECK(to_yaml(document) ==
        "apiVersion: kueue.x-k8s.io/v1beta2\n"
        "kind: ClusterQueue\n"
        "metadata:\n"
        "  name: q\n"
        "  labels:\n"
        "    \"on\": \"yes\"\n"
        "    app.kubernetes.io/managed-by: mkq\n"
        "spec:\n"
        "  namespaceSelector: {}\n"
        "  empty: []\n"
        "  resourceGroups:\n"
        "  - coveredResources:\n"
        "    - cpu\n"
        "    flavors:\n"
        "    - name: f\n"
        "      resources:\n"
        "      - name: cpu\n"
        "        nominalQuota: 9\n"
        "      - name: memory\n"
        "        nominalQuota: 36Gi\n"
        "  nested:\n"
        "  -\n"
        "    - a\n"
        "    - b\n"
        "  - []\n"
        "  flag: true\n"
        "  nothing: null\n");
  CHECK(round_trip(document) == document);
}

TEST_CASE("render: documents are separated by --- and name their cluster", "[kueue][render]") {
  mkq::kueue::DesiredState state;
  mkq::kueue::ClusterObjects manager;
  manager.cluster = "m";
  manager.role = mkq::kueue::ClusterRole::Manager;
  mkq::kueue::Object a;
  a.document = Json::object({{"kind", "A"}});
  mkq::kueue::Object b;
  b.document = Json::object({{"kind", "B"}});
  manager.objects = {a, b};
  mkq::kueue::ClusterObjects worker;
  worker.cluster = "w";
  worker.objects = {a};
  mkq::kueue::ClusterObjects idle;
  idle.cluster = "idle";
  state.clusters = {manager, worker, idle};

  CHECK(mkq::kueue::render_yaml(state) ==
        "# cluster: m (manager)\nkind: A\n---\n# cluster: m (manager)\nkind: B\n---\n# cluster: w (worker)\nkind: A\n");
  CHECK(mkq::kueue::render_cluster_yaml(worker) == "# cluster: w (worker)\nkind: A\n");
  CHECK(mkq::kueue::render_cluster_yaml(idle) == "# cluster: idle (worker): no objects\n");
  CHECK(Json::parse(mkq::kueue::render_cluster_json(worker)).dump() ==
        R"({"apiVersion":"v1","kind":"List","items":[{"kind":"A"}]})");
  CHECK(Json::parse(mkq::kueue::render_json(state)).dump() ==
        R"({"format_version":1,"clusters":[{"name":"m","role":"manager","objects":[{"kind":"A"},{"kind":"B"}]},)"
        R"({"name":"w","role":"worker","objects":[{"kind":"A"}]},{"name":"idle","role":"worker","objects":[]}]})");
}

TEST_CASE("render: the JSON written cluster by cluster is the dump of the whole state", "[kueue][render]") {
  // The reference: nlohmann's own layout of {"format_version": 1, "clusters":
  // [...]} (indent 2), which StateWriter builds from one cluster at a time.
  const auto whole = [](const mkq::kueue::DesiredState& state) {
    Json clusters = Json::array();
    for (const auto& cluster : state.clusters) {
      Json objects = Json::array();
      for (const auto& object : cluster.objects) objects.push_back(object.document);
      clusters.push_back(Json::object({{"name", cluster.cluster},
                                       {"role", std::string(mkq::kueue::to_string(cluster.role))},
                                       {"objects", std::move(objects)}}));
    }
    Json document = Json::object();
    document["format_version"] = mkq::kueue::kRenderJsonFormatVersion;
    document["clusters"] = std::move(clusters);
    return document.dump(2) + "\n";
  };
  mkq::kueue::Object nested;
  nested.document = Json::parse(R"({"kind": "A", "metadata": {"name": "a", "labels": {}},
      "spec": {"list": [1, "two\nlines", {"deep": [[]]}], "empty": {}}})");
  mkq::kueue::ClusterObjects manager;
  manager.cluster = "m";
  manager.role = mkq::kueue::ClusterRole::Manager;
  manager.objects = {nested, nested};
  mkq::kueue::ClusterObjects idle;
  idle.cluster = "idle";
  mkq::kueue::DesiredState state;
  for (const auto& clusters : {std::vector<mkq::kueue::ClusterObjects>{},
                               std::vector<mkq::kueue::ClusterObjects>{manager},
                               std::vector<mkq::kueue::ClusterObjects>{manager, idle, manager}}) {
    state.clusters = clusters;
    CHECK(mkq::kueue::render_json(state) == whole(state));
  }
}
