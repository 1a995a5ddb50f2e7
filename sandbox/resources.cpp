#include "sandbox/resources.h"

#include "sandbox/crd_rules.h"
#include "sandbox/json_access.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace mkq::sandbox {
namespace {

ResourceInfo builtin(std::string group, std::string version, std::string resource, std::string singular,
                     std::string kind, bool namespaced, std::vector<std::string> short_names, bool has_status) {
  ResourceInfo info;
  info.group = std::move(group);
  info.version = std::move(version);
  info.resource = std::move(resource);
  info.singular = std::move(singular);
  info.kind = std::move(kind);
  info.list_kind = info.kind + "List";
  info.namespaced = namespaced;
  info.short_names = std::move(short_names);
  info.has_status = has_status;
  return info;
}

std::vector<std::string> strings_at(const nlohmann::json& object, const char* key) {
  std::vector<std::string> out;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const auto& item : *it) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// Kubernetes' version priority: GA > beta > alpha, higher numbers first, then
// non-Kubernetes-like versions alphabetically.
int version_rank(const std::string& v, int* major, int* minor) {
  *major = 0;
  *minor = 0;
  if (v.size() < 2 || v[0] != 'v' || !std::isdigit(static_cast<unsigned char>(v[1]))) return 0;
  std::size_t i = 1;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) *major = *major * 10 + (v[i++] - '0');
  if (i == v.size()) return 3;
  const std::string rest = v.substr(i);
  int kind = 0;
  std::size_t j = 0;
  if (rest.rfind("beta", 0) == 0) {
    kind = 2;
    j = 4;
  } else if (rest.rfind("alpha", 0) == 0) {
    kind = 1;
    j = 5;
  } else {
    return 0;
  }
  if (j >= rest.size()) return 0;
  for (; j < rest.size(); ++j) {
    if (!std::isdigit(static_cast<unsigned char>(rest[j]))) return 0;
    *minor = *minor * 10 + (rest[j] - '0');
  }
  return kind;
}

bool version_before(const std::string& a, const std::string& b) {
  int am = 0, an = 0, bm = 0, bn = 0;
  const int ak = version_rank(a, &am, &an);
  const int bk = version_rank(b, &bm, &bn);
  if (ak != bk) return ak > bk;
  if (ak == 0) return a < b;
  if (am != bm) return am > bm;
  return an > bn;
}

// A deprecated version's warning: its deprecationWarning, or kube-apiserver's
// default naming the newest served, non-deprecated version after it.
std::string deprecation_warning(const nlohmann::json& spec, const std::string& deprecated,
                                const std::string& kind) {
  const auto versions = spec.value("versions", nlohmann::json::array());
  for (const auto& version : versions) {
    if (version.is_object() && text_at(version, "name") == deprecated &&
        version.contains("deprecationWarning") && version["deprecationWarning"].is_string()) {
      return version["deprecationWarning"].get<std::string>();
    }
  }
  const std::string group = text_at(spec, "group");
  std::string newest;
  for (const auto& version : versions) {
    if (!version.is_object() || !version.value("served", false) || version.value("deprecated", false))
      continue;
    const std::string name = text_at(version, "name");
    if (version_before(name, deprecated) && (newest.empty() || version_before(name, newest))) newest = name;
  }
  std::string text = group + "/" + deprecated + " " + kind + " is deprecated";
  if (!newest.empty()) text += "; use " + group + "/" + newest + " " + kind;
  return text;
}

}  // namespace

Registry::Registry() {
  builtin_.push_back(builtin("", "v1", "namespaces", "namespace", "Namespace", false, {"ns"}, true));
  builtin_.push_back(builtin("", "v1", "configmaps", "configmap", "ConfigMap", true, {"cm"}, false));
  builtin_.push_back(builtin("", "v1", "secrets", "secret", "Secret", true, {}, false));
  builtin_.push_back(builtin("", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true, {"sa"}, false));
  builtin_.push_back(builtin("", "v1", "events", "event", "Event", true, {"ev"}, false));
  // Nodes and Pods as written (no kubelet, no scheduler): capacity and load for tests (nodes_pods.h).
  builtin_.push_back(builtin("", "v1", "nodes", "node", "Node", false, {"no"}, true));
  auto pods = builtin("", "v1", "pods", "pod", "Pod", true, {"po"}, true);
  pods.categories = {"all"};
  builtin_.push_back(pods);
  // Services (services.h): clusterIPs and nodePorts allocated, no endpoints.
  auto services = builtin("", "v1", "services", "service", "Service", true, {"svc"}, true);
  services.categories = {"all"};
  builtin_.push_back(services);
  // Groups in kube-apiserver's order: apps, events.k8s.io, authentication, authorization, rbac, coordination;
  // apiextensions last.
  auto deployments = builtin("apps", "v1", "deployments", "deployment", "Deployment", true, {"deploy"}, true);
  deployments.categories = {"all"};
  deployments.has_generation = true;
  deployments.has_scale = true;
  builtin_.push_back(deployments);
  // The other apps/v1 workloads (apps_workloads.h): ReplicaSets (the Deployment controller's), StatefulSets, DaemonSets.
  for (const auto& [resource, singular, kind, short_name, scales] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string, bool>>{
           {"replicasets", "replicaset", "ReplicaSet", "rs", true},
           {"statefulsets", "statefulset", "StatefulSet", "sts", true},
           {"daemonsets", "daemonset", "DaemonSet", "ds", false}}) {
    auto workload = builtin("apps", "v1", resource, singular, kind, true, {short_name}, true);
    workload.categories = {"all"};
    workload.has_generation = true;
    workload.has_scale = scales;
    builtin_.push_back(workload);
  }
  builtin_.push_back(builtin("events.k8s.io", "v1", "events", "event", "Event", true, {"ev"}, false));
  // The reviews (reviews.h), in kube-apiserver's group order: authentication, then authorization.
  for (const auto& [group, resource, kind, namespaced] :
       std::vector<std::tuple<std::string, std::string, std::string, bool>>{
           {"authentication.k8s.io", "selfsubjectreviews", "SelfSubjectReview", false},
           {"authentication.k8s.io", "tokenreviews", "TokenReview", false},
           {"authorization.k8s.io", "localsubjectaccessreviews", "LocalSubjectAccessReview", true},
           {"authorization.k8s.io", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false},
           {"authorization.k8s.io", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false},
           {"authorization.k8s.io", "subjectaccessreviews", "SubjectAccessReview", false}}) {
    auto review = builtin(group, "v1", resource, "", kind, namespaced, {}, false);
    review.create_only = true;
    builtin_.push_back(review);
  }
  // batch/v1 Jobs and CronJobs (jobs.h): stored, defaulted and validated; no job controller runs them.
  for (const auto& [resource, singular, kind, short_names] :
       std::vector<std::tuple<std::string, std::string, std::string, std::vector<std::string>>>{
           {"cronjobs", "cronjob", "CronJob", {"cj"}}, {"jobs", "job", "Job", {}}}) {
    auto batch = builtin("batch", "v1", resource, singular, kind, true, short_names, true);
    batch.categories = {"all"};
    batch.has_generation = true;
    builtin_.push_back(batch);
  }
  const std::string rbac = "rbac.authorization.k8s.io";
  builtin_.push_back(builtin(rbac, "v1", "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", false, {}, false));
  builtin_.push_back(builtin(rbac, "v1", "clusterroles", "clusterrole", "ClusterRole", false, {}, false));
  builtin_.push_back(builtin(rbac, "v1", "rolebindings", "rolebinding", "RoleBinding", true, {}, false));
  builtin_.push_back(builtin(rbac, "v1", "roles", "role", "Role", true, {}, false));
  // PriorityClasses (priority_classes.h), the two system classes among them.
  builtin_.push_back(builtin("scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", "PriorityClass", false,
                             {"pc"}, false));
  builtin_.push_back(builtin("coordination.k8s.io", "v1", "leases", "lease", "Lease", true, {}, false));
  auto crd = builtin("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition",
                     "CustomResourceDefinition", false, {"crd", "crds"}, true);
  crd.has_generation = true;
  builtin_.push_back(crd);
}

std::vector<ResourceInfo> resources_of_crd(const nlohmann::json& crd) {
  std::vector<ResourceInfo> out;
  if (!crd.is_object() || !crd.contains("spec") || !crd["spec"].is_object()) return out;
  const auto& spec = crd["spec"];
  const auto names = spec.value("names", nlohmann::json::object());
  if (!names.is_object()) return out;
  const std::string group = text_at(spec, "group");
  const std::string plural = text_at(names, "plural");
  const std::string kind = text_at(names, "kind");
  if (group.empty() || plural.empty() || kind.empty()) return out;
  const auto versions = spec.value("versions", nlohmann::json::array());
  if (!versions.is_array()) return out;
  for (std::size_t index = 0; index < versions.size(); ++index) {
    const auto& version = versions[index];
    if (!version.is_object() || !version.value("served", false)) continue;
    ResourceInfo info;
    info.group = group;
    info.version = text_at(version, "name");
    if (info.version.empty()) continue;
    info.resource = plural;
    info.singular = text_at(names, "singular");
    if (info.singular.empty()) {
      info.singular = kind;
      std::transform(info.singular.begin(), info.singular.end(), info.singular.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    }
    info.kind = kind;
    info.list_kind = text_at(names, "listKind");
    if (info.list_kind.empty()) info.list_kind = kind + "List";
    info.namespaced = text_at(spec, "scope") != "Cluster";
    info.short_names = strings_at(names, "shortNames");
    info.categories = strings_at(names, "categories");
    const auto sub = version.value("subresources", nlohmann::json::object());
    info.has_status = sub.is_object() && sub.contains("status");
    info.custom = true;
    info.has_generation = true;
    info.allow_unconditional_update = false;
    const auto schema = version.value("schema", nlohmann::json::object());
    if (schema.is_object() && schema.contains("openAPIV3Schema")) info.schema = schema["openAPIV3Schema"];
    info.rules = stored_crd_rules(crd, index, &info.rules_error);
    if (version.value("deprecated", false))
      info.deprecation_warning = deprecation_warning(spec, info.version, kind);
    const auto columns = version.value("additionalPrinterColumns", nlohmann::json::array());
    if (columns.is_array()) {
      for (const auto& column : columns) {
        if (!column.is_object()) continue;
        PrinterColumn c;
        c.name = text_at(column, "name");
        c.type = text_at(column, "type");
        c.format = text_at(column, "format");
        c.description = text_at(column, "description");
        c.json_path = text_at(column, "jsonPath");
        c.priority = column.value("priority", 0);
        if (!c.name.empty() && !c.json_path.empty()) info.columns.push_back(c);
      }
    }
    out.push_back(std::move(info));
  }
  return out;
}

void Registry::set_crds(const std::vector<nlohmann::json>& crds) {
  custom_.clear();
  custom_groups_.clear();
  for (const auto& crd : crds) {
    // A CRD being deleted still serves its kinds until it is gone.
    for (auto& info : resources_of_crd(crd)) {
      if (find(info.group, info.version, info.resource) != nullptr) continue;  // built-in or duplicate
      auto group = std::find_if(custom_groups_.begin(), custom_groups_.end(),
                                [&](const auto& g) { return g.first == info.group; });
      if (group == custom_groups_.end()) {
        custom_groups_.push_back({info.group, {}});
        group = custom_groups_.end() - 1;
      }
      if (std::find(group->second.begin(), group->second.end(), info.version) == group->second.end()) {
        group->second.push_back(info.version);
      }
      custom_.push_back(std::make_shared<const ResourceInfo>(std::move(info)));
    }
  }
  for (auto& group : custom_groups_) std::sort(group.second.begin(), group.second.end(), version_before);
  std::sort(custom_groups_.begin(), custom_groups_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
}

const ResourceInfo* Registry::find(const std::string& group, const std::string& version,
                                   const std::string& resource) const {
  return hold(group, version, resource).get();
}

std::shared_ptr<const ResourceInfo> Registry::hold(const std::string& group, const std::string& version,
                                                   const std::string& resource) const {
  const auto is = [&](const ResourceInfo& info) {
    return info.group == group && info.version == version && info.resource == resource;
  };
  for (const auto& info : builtin_) {
    if (is(info)) return std::shared_ptr<const ResourceInfo>(std::shared_ptr<const ResourceInfo>(), &info);
  }
  for (const auto& info : custom_) {
    if (is(*info)) return info;
  }
  return nullptr;
}

std::vector<const ResourceInfo*> Registry::in_group_version(const std::string& group,
                                                            const std::string& version) const {
  std::vector<const ResourceInfo*> out;
  for (const auto& info : builtin_) {
    if (info.group == group && info.version == version) out.push_back(&info);
  }
  for (const auto& info : custom_) {
    if (info->group == group && info->version == version) out.push_back(info.get());
  }
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->resource < b->resource; });
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Registry::groups() const {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& info : builtin_) {
    if (std::none_of(out.begin(), out.end(), [&](const auto& g) { return g.first == info.group; })) {
      out.push_back({info.group, {info.version}});
    }
  }
  for (const auto& group : custom_groups_) {
    if (std::none_of(out.begin(), out.end(), [&](const auto& g) { return g.first == group.first; })) {
      out.push_back(group);
    }
  }
  return out;
}

bool Registry::is_served_group_version(const std::string& group, const std::string& version) const {
  return !in_group_version(group, version).empty();
}

}  // namespace mkq::sandbox
