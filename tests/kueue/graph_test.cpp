// `mkq graph`: the desired objects and their dependencies in DOT. The exact
// text for a hand-made state, and the quickstart's graph against its golden
// file tests/kueue/graph/quickstart.dot (refresh it after a reviewed change
// with MKQ_UPDATE_GOLDENS=1 build/tests/mkq_kueue_tests "[graph]").
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/kueue/graph.h"
#include "tests/kueue/kueue_test_support.h"

namespace {

using mkq::kueue::address;
using mkq::kueue::ClusterObjects;
using mkq::kueue::ClusterRole;
using mkq::kueue::DesiredState;
using mkq::kueue::Object;
using mkq::kueue::render_dot;

Object object(std::string kind, std::string name, std::string namespace_name = "",
              std::vector<std::string> depends_on = {}) {
  Object o;
  o.kind = std::move(kind);
  o.name = std::move(name);
  o.namespace_name = std::move(namespace_name);
  o.depends_on = std::move(depends_on);
  return o;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("graph: an empty state is an empty digraph", "[kueue][graph]") {
  CHECK(render_dot(DesiredState{}) == R"(digraph "mkq" {
  graph [rankdir=RL, fontname="Helvetica", fontsize=12];
  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];
  edge [color="#555555"];
}
)");
}

TEST_CASE("graph: clusters, nodes and dependency edges", "[kueue][graph]") {
  DesiredState state;
  ClusterObjects manager;
  manager.cluster = "hub";
  manager.role = ClusterRole::Manager;
  Object secret = object("Secret", "w1-kubeconfig", "kueue-system");
  secret.holds_credential_placeholder = true;
  manager.objects.push_back(secret);
  manager.objects.push_back(object("MultiKueueCluster", "w1", "", {"hub/Secret/kueue-system/w1-kubeconfig"}));
  manager.objects.push_back(object("ClusterQueue", "cq", "",
                                   {"hub/ResourceFlavor/gpu", "hub/ResourceFlavor/gpu"}));  // a repeat: one edge
  manager.objects.push_back(object("LocalQueue", "lq", "team-a", {"hub/ClusterQueue/cq"}));
  ClusterObjects worker;
  worker.cluster = "w1";
  worker.role = ClusterRole::Worker;
  worker.objects.push_back(object("Namespace", "team-a"));
  worker.objects.push_back(object("LocalQueue", "lq", "team-a", {"w1/Namespace/team-a"}));
  state.clusters = {manager, worker};

  CHECK(address("hub", manager.objects[3]) == "hub/LocalQueue/team-a/lq");
  CHECK(render_dot(state) == R"dot(digraph "mkq" {
  graph [rankdir=RL, fontname="Helvetica", fontsize=12];
  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10];
  edge [color="#555555"];

  subgraph "cluster_hub" {
    graph [label="manager: hub", style=rounded];
    "hub/Secret/kueue-system/w1-kubeconfig" [label="Secret\nkueue-system/w1-kubeconfig\n(credential at apply)", style="rounded,dashed"];
    "hub/MultiKueueCluster/w1" [label="MultiKueueCluster\nw1"];
    "hub/ClusterQueue/cq" [label="ClusterQueue\ncq"];
    "hub/LocalQueue/team-a/lq" [label="LocalQueue\nteam-a/lq"];
  }

  subgraph "cluster_w1" {
    graph [label="worker: w1", style=rounded];
    "w1/Namespace/team-a" [label="Namespace\nteam-a"];
    "w1/LocalQueue/team-a/lq" [label="LocalQueue\nteam-a/lq"];
  }

  "hub/ResourceFlavor/gpu" [label="hub/ResourceFlavor/gpu\n(not in the desired state)", style="rounded,dashed", color=red];

  "hub/MultiKueueCluster/w1" -> "hub/Secret/kueue-system/w1-kubeconfig";
  "hub/ClusterQueue/cq" -> "hub/ResourceFlavor/gpu";
  "hub/LocalQueue/team-a/lq" -> "hub/ClusterQueue/cq";
  "w1/LocalQueue/team-a/lq" -> "w1/Namespace/team-a";
}
)dot");
}

TEST_CASE("graph: quotes and backslashes in names stay inside their IDs", "[kueue][graph]") {
  DesiredState state;
  ClusterObjects cluster;
  cluster.cluster = "a\"b";
  cluster.role = ClusterRole::Manager;
  cluster.objects.push_back(object("Kind", "x\\y"));
  state.clusters = {cluster};
  const std::string dot = render_dot(state);
  CHECK(dot.find(R"(subgraph "cluster_a\"b" {)") != std::string::npos);
  CHECK(dot.find(R"("a\"b/Kind/x\\y" [label="Kind\nx\\y"];)") != std::string::npos);
}

TEST_CASE("graph: the quickstart's objects and dependencies", "[kueue][graph]") {
  const std::filesystem::path source(MKQ_SOURCE_DIR);
  const auto rendered = kueuetest::render_path(source / "examples" / "quickstart", "quickstart");
  INFO(rendered->messages());
  REQUIRE(rendered->state);
  const std::string dot = render_dot(*rendered->state);
  CHECK(render_dot(*rendered->state) == dot);  // byte-stable

  // Every dependency names an object of the state: nothing is drawn dashed red.
  CHECK(dot.find("not in the desired state") == std::string::npos);
  // Every object is one node; every node line is inside its cluster.
  std::size_t objects = 0;
  for (const auto& cluster : rendered->state->clusters) {
    objects += cluster.objects.size();
    for (const auto& object : cluster.objects) {
      CHECK(dot.find("    \"" + address(cluster.cluster, object) + "\" [label=") != std::string::npos);
    }
  }
  std::size_t nodes = 0;
  for (std::size_t at = dot.find("\" [label="); at != std::string::npos; at = dot.find("\" [label=", at + 1)) ++nodes;
  CHECK(nodes == objects);

  const std::filesystem::path golden = source / "tests" / "kueue" / "graph" / "quickstart.dot";
  if (const char* update = std::getenv("MKQ_UPDATE_GOLDENS"); update != nullptr && *update != '\0') {
    std::filesystem::create_directories(golden.parent_path());
    std::ofstream(golden, std::ios::binary) << dot;
  }
  REQUIRE(std::filesystem::exists(golden));
  CHECK(dot == read_file(golden));
}

TEST_CASE("graph: the same policy in another order gives the same graph", "[kueue][graph]") {
  const char* forward = R"(
manager "hub" {}
worker "w2" {}
worker "w1" {}
flavor "f" {}
clusterqueue "cq" {
  quota "f" { cpu = 4 }
  localqueue "lq" in "team" {}
}
dispatch "d" { queues = ["cq"], workers = ["w1", "w2"] }
)";
  const char* backward = R"(
dispatch "d" { queues = ["cq"], workers = ["w1", "w2"] }
clusterqueue "cq" {
  quota "f" { cpu = 4 }
  localqueue "lq" in "team" {}
}
flavor "f" {}
worker "w1" {}
worker "w2" {}
manager "hub" {}
)";
  const auto a = kueuetest::render_text(forward);
  const auto b = kueuetest::render_text(backward);
  INFO(a->messages() + b->messages());
  REQUIRE(a->state);
  REQUIRE(b->state);
  CHECK(render_dot(*a->state) == render_dot(*b->state));
}
