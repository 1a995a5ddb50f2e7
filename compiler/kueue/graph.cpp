// render_dot (graph.h): the desired objects and their dependencies in DOT.
#include "compiler/kueue/graph.h"

#include <iterator>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/kueue/render.h"  // to_string(ClusterRole)

namespace mkq::kueue {
namespace {

// A DOT quoted string: `"` and `\` escaped, so that any name stays one ID;
// a line break becomes DOT's "\n" (labels of several lines).
std::string dot_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

std::string label(const std::vector<std::string>& lines) {
  return dot_string(fmt::format("{}", fmt::join(lines, "\n")));
}

}  // namespace

std::string render_dot(const DesiredState& state) {
  std::string out;
  out += "digraph \"mkq\" {\n";
  out += "  graph [rankdir=RL, fontname=\"Helvetica\", fontsize=12];\n";
  out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [color=\"#555555\"];\n";

  std::set<std::string, std::less<>> nodes;
  for (const ClusterObjects& cluster : state.clusters) {
    for (const Object& object : cluster.objects) nodes.insert(address(cluster.cluster, object));
  }

  for (const ClusterObjects& cluster : state.clusters) {
    fmt::format_to(std::back_inserter(out), "\n  subgraph {} {{\n    graph [label={}, style=rounded];\n",
                   dot_string("cluster_" + cluster.cluster),
                   dot_string(fmt::format("{}: {}", to_string(cluster.role), cluster.cluster)));
    for (const Object& object : cluster.objects) {
      const std::string name = object.namespace_name.empty() ? object.name : object.namespace_name + "/" + object.name;
      std::vector<std::string> lines = {object.kind, name};
      std::string attributes;
      if (object.holds_credential_placeholder) {
        lines.emplace_back("(credential at apply)");
        attributes = ", style=\"rounded,dashed\"";
      }
      fmt::format_to(std::back_inserter(out), "    {} [label={}{}];\n", dot_string(address(cluster.cluster, object)),
                     label(lines), attributes);
    }
    out += "  }\n";
  }

  // Dependencies on objects the state does not hold: drawn, not hidden.
  std::vector<std::string> missing;
  std::set<std::string, std::less<>> seen_missing;
  for (const ClusterObjects& cluster : state.clusters) {
    for (const Object& object : cluster.objects) {
      for (const std::string& target : object.depends_on) {
        if (nodes.contains(target) || !seen_missing.insert(target).second) continue;
        missing.push_back(target);
      }
    }
  }
  if (!missing.empty()) out += "\n";
  for (const std::string& target : missing) {
    fmt::format_to(std::back_inserter(out), "  {} [label={}, style=\"rounded,dashed\", color=red];\n",
                   dot_string(target), label({target, "(not in the desired state)"}));
  }

  std::string edges;
  for (const ClusterObjects& cluster : state.clusters) {
    for (const Object& object : cluster.objects) {
      const std::string from = dot_string(address(cluster.cluster, object));
      std::set<std::string_view> drawn;
      for (const std::string& target : object.depends_on) {
        if (!drawn.insert(target).second) continue;
        fmt::format_to(std::back_inserter(edges), "  {} -> {};\n", from, dot_string(target));
      }
    }
  }
  if (!edges.empty()) out += "\n" + edges;
  out += "}\n";
  return out;
}

}  // namespace mkq::kueue
