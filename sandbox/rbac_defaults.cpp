// The bootstrap RBAC policy and ClusterRole aggregation (rbac_defaults.h).
#include "sandbox/rbac_defaults.h"

#include <algorithm>
#include <ctime>

#include "sandbox/prepare.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";
constexpr const char* kAggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin";
constexpr const char* kAggregateToEdit = "rbac.authorization.k8s.io/aggregate-to-edit";
constexpr const char* kAggregateToView = "rbac.authorization.k8s.io/aggregate-to-view";

const std::vector<std::string> kRead = {"get", "list", "watch"};
const std::vector<std::string> kWrite = {"create", "delete", "deletecollection", "patch", "update"};
const std::vector<std::string> kReadWrite = {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};

json rule(const std::vector<std::string>& verbs, const std::string& group, const std::vector<std::string>& resources) {
  return {{"verbs", verbs}, {"apiGroups", {group}}, {"resources", resources}};
}

json url_rule(const std::vector<std::string>& urls) { return {{"verbs", {"get"}}, {"nonResourceURLs", urls}}; }

json aggregation(const char* label) {
  return {{"clusterRoleSelectors", {{{"matchLabels", {{label, "true"}}}}}}};
}

// A bootstrap ClusterRole: its name, extra labels, rules or aggregation rule.
json cluster_role(const std::string& name, json labels, json rules, json aggregation_rule = nullptr) {
  labels["kubernetes.io/bootstrapping"] = "rbac-defaults";
  json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "ClusterRole"},
               {"metadata",
                {{"name", name},
                 {"labels", labels},
                 {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}}},
               {"rules", rules}};
  if (!aggregation_rule.is_null()) role["aggregationRule"] = aggregation_rule;
  return role;
}

json group_binding(const std::string& role, const std::vector<std::string>& groups) {
  json subjects = json::array();
  for (const auto& g : groups) subjects.push_back({{"apiGroup", kRbacGroup}, {"kind", "Group"}, {"name", g}});
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRoleBinding"},
          {"metadata",
           {{"name", role},
            {"labels", {{"kubernetes.io/bootstrapping", "rbac-defaults"}}},
            {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}}},
          {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", "ClusterRole"}, {"name", role}}},
          {"subjects", subjects}};
}

std::vector<json> default_cluster_roles() {
  return {
      cluster_role("cluster-admin", json::object(),
                   {{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}, {{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}}),
      cluster_role("system:discovery", json::object(),
                   {url_rule({"/livez", "/readyz", "/healthz", "/version", "/version/", "/openapi", "/openapi/*", "/api",
                              "/api/*", "/apis", "/apis/*"})}),
      cluster_role("system:basic-user", json::object(),
                   {rule({"create"}, "authorization.k8s.io", {"selfsubjectaccessreviews", "selfsubjectrulesreviews"}),
                    rule({"create"}, "authentication.k8s.io", {"selfsubjectreviews"})}),
      cluster_role("system:public-info-viewer", json::object(),
                   {url_rule({"/livez", "/readyz", "/healthz", "/version", "/version/"})}),
      cluster_role("admin", json::object(), json::array(), aggregation(kAggregateToAdmin)),
      cluster_role("edit", {{kAggregateToAdmin, "true"}}, json::array(), aggregation(kAggregateToEdit)),
      cluster_role("view", {{kAggregateToEdit, "true"}}, json::array(), aggregation(kAggregateToView)),
      cluster_role("system:aggregate-to-admin", {{kAggregateToAdmin, "true"}},
                   {rule({"create"}, "authorization.k8s.io", {"localsubjectaccessreviews"}),
                    rule(kReadWrite, kRbacGroup, {"roles", "rolebindings"})}),
      cluster_role(
          "system:aggregate-to-edit", {{kAggregateToEdit, "true"}},
          {rule(kRead, "", {"pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"}),
           rule({"impersonate"}, "", {"serviceaccounts"}),
           rule(kWrite, "", {"pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward"}),
           rule({"create"}, "", {"pods/eviction"}),
           rule(kWrite, "",
                {"replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services", "services/proxy",
                 "persistentvolumeclaims", "configmaps", "secrets", "events"}),
           rule({"create"}, "", {"serviceaccounts/token"}),
           rule(kWrite, "apps",
                {"statefulsets", "statefulsets/scale", "daemonsets", "deployments", "deployments/scale",
                 "deployments/rollback", "replicasets", "replicasets/scale"}),
           rule(kWrite, "autoscaling", {"horizontalpodautoscalers"}), rule(kWrite, "batch", {"jobs", "cronjobs"}),
           rule(kWrite, "extensions",
                {"daemonsets", "deployments", "deployments/scale", "deployments/rollback", "ingresses", "replicasets",
                 "replicasets/scale", "replicationcontrollers/scale", "networkpolicies"}),
           rule(kWrite, "policy", {"poddisruptionbudgets"}),
           rule(kWrite, "networking.k8s.io", {"networkpolicies", "ingresses"}),
           rule(kReadWrite, "coordination.k8s.io", {"leases"})}),
      cluster_role(
          "system:aggregate-to-view", {{kAggregateToView, "true"}},
          {rule(kRead, "",
                {"pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services",
                 "services/status", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status", "configmaps"}),
           rule(kRead, "",
                {"limitranges", "resourcequotas", "bindings", "events", "pods/status", "resourcequotas/status",
                 "namespaces/status", "replicationcontrollers/status", "pods/log"}),
           rule(kRead, "", {"namespaces"}), rule(kRead, "discovery.k8s.io", {"endpointslices"}),
           rule(kRead, "apps",
                {"controllerrevisions", "statefulsets", "statefulsets/status", "statefulsets/scale", "daemonsets",
                 "daemonsets/status", "deployments", "deployments/status", "deployments/scale", "replicasets",
                 "replicasets/status", "replicasets/scale"}),
           rule(kRead, "autoscaling", {"horizontalpodautoscalers", "horizontalpodautoscalers/status"}),
           rule(kRead, "batch", {"jobs", "cronjobs", "cronjobs/status", "jobs/status"}),
           rule(kRead, "extensions",
                {"daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status", "ingresses",
                 "ingresses/status", "replicasets", "replicasets/scale", "replicasets/status",
                 "replicationcontrollers/scale", "networkpolicies"}),
           rule(kRead, "policy", {"poddisruptionbudgets", "poddisruptionbudgets/status"}),
           rule(kRead, "networking.k8s.io", {"networkpolicies", "ingresses", "ingresses/status"})}),
  };
}

std::vector<json> default_bindings() {
  return {group_binding("cluster-admin", {"system:masters"}),
          group_binding("system:discovery", {"system:authenticated"}),
          group_binding("system:basic-user", {"system:authenticated"}),
          group_binding("system:public-info-viewer", {"system:authenticated", "system:unauthenticated"})};
}

void create_missing(ClusterState& state, const char* resource, const std::vector<json>& objects) {
  const ResourceInfo* info = state.registry.find(kRbacGroup, "v1", resource);
  if (info == nullptr) return;
  for (json object : objects) {
    const std::string name = object["metadata"]["name"];
    const ObjectKey key{kRbacGroup, resource, "", name};
    if (state.store->get(key)) continue;
    prepare_new(state, *info, object);
    state.store->put(key, object, "ADDED");
  }
}

// Does the role carry every label one of the selectors' matchLabels asks for?
bool selected(const json& role, const json& selectors) {
  const json labels = role["metadata"].value("labels", json::object());
  for (const auto& selector : selectors) {
    const json match = selector.is_object() ? selector.value("matchLabels", json::object()) : json::object();
    if (!match.is_object() || match.empty()) continue;
    bool all = true;
    for (const auto& [key, value] : match.items()) {
      if (!labels.is_object() || !labels.contains(key) || labels[key] != value) all = false;
    }
    if (all) return true;
  }
  return false;
}

// One pass of aggregation; true when a role changed.
bool aggregate_once(ClusterState& state) {
  std::vector<json> roles = state.store->list(kRbacGroup, "clusterroles", std::nullopt, "", 0);
  std::sort(roles.begin(), roles.end(),
            [](const json& a, const json& b) { return a["metadata"].value("name", "") < b["metadata"].value("name", ""); });
  bool changed = false;
  for (json& role : roles) {
    if (!role.contains("aggregationRule") || !role["aggregationRule"].is_object()) continue;
    const json selectors = role["aggregationRule"].value("clusterRoleSelectors", json::array());
    if (!selectors.is_array()) continue;
    json rules = json::array();
    for (const json& source : roles) {
      if (&source == &role || !selected(source, selectors) || !source.contains("rules") || !source["rules"].is_array()) continue;
      for (const json& r : source["rules"]) {
        if (std::find(rules.begin(), rules.end(), r) == rules.end()) rules.push_back(r);
      }
    }
    if (role.value("rules", json::array()) == rules) continue;
    role["rules"] = rules;
    state.store->put({kRbacGroup, "clusterroles", "", role["metadata"].value("name", "")}, role, "MODIFIED");
    changed = true;
  }
  return changed;
}

// Aggregates to a fixed point: admin takes edit, which takes view.
bool aggregate_all(ClusterState& state) {
  bool wrote = false;
  for (int pass = 0; pass < 8 && aggregate_once(state); ++pass) wrote = true;
  return wrote;
}

}  // namespace

void install_default_rbac(ClusterState& state) {
  create_missing(state, "clusterroles", default_cluster_roles());
  create_missing(state, "clusterrolebindings", default_bindings());
  aggregate_all(state);
}

bool aggregate_cluster_roles_hook(ClusterState& state, const WriteEvent& write) {
  if (write.info.group != kRbacGroup || write.info.resource != "clusterroles") return false;
  return aggregate_all(state);
}

}  // namespace mkq::sandbox
