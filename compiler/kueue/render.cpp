// Text forms of the desired state (render.h).
#include "compiler/kueue/render.h"

#include "compiler/kueue/yaml_emit.h"

namespace mkq::kueue {

namespace {

std::string dump_json(const Json& value) {
  // Invalid UTF-8 cannot come from a checked policy; replace rather than throw.
  return value.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

void append_cluster_yaml(const ClusterObjects& cluster, bool& first, std::string& out) {
  const std::string comment = "# cluster: " + cluster.cluster + " (" + std::string(to_string(cluster.role)) + ")\n";
  for (const Object& object : cluster.objects) {
    if (!first) out += "---\n";
    first = false;
    out += comment;
    out += to_yaml(object.document);
  }
}

Json cluster_list(const ClusterObjects& cluster) {
  Json items = Json::array();
  for (const Object& object : cluster.objects) items.push_back(object.document);
  return items;
}

}  // namespace

std::string_view to_string(ClusterRole role) { return role == ClusterRole::Manager ? "manager" : "worker"; }

std::string render_yaml(const DesiredState& state) {
  std::string out;
  bool first = true;
  for (const ClusterObjects& cluster : state.clusters) append_cluster_yaml(cluster, first, out);
  return out;
}

std::string render_cluster_yaml(const ClusterObjects& cluster) {
  std::string out;
  bool first = true;
  append_cluster_yaml(cluster, first, out);
  if (cluster.objects.empty()) out = "# cluster: " + cluster.cluster + " (" + std::string(to_string(cluster.role)) + "): no objects\n";
  return out;
}

std::string render_json(const DesiredState& state) {
  Json clusters = Json::array();
  for (const ClusterObjects& cluster : state.clusters) {
    Json c = Json::object();
    c["name"] = cluster.cluster;
    c["role"] = std::string(to_string(cluster.role));
    c["objects"] = cluster_list(cluster);
    clusters.push_back(std::move(c));
  }
  return dump_json(Json::object({{"clusters", std::move(clusters)}}));
}

std::string render_cluster_json(const ClusterObjects& cluster) {
  Json list = Json::object();
  list["apiVersion"] = "v1";
  list["kind"] = "List";
  list["items"] = cluster_list(cluster);
  return dump_json(list);
}

}  // namespace mkq::kueue
