// The controller's RBAC rules on the manager (rbac.h).
#include "runtime/install/rbac.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "compiler/kueue/schema.h"

namespace mkq::install {
namespace {

namespace schema = kueue::schema;

// What `mkq apply` does to an object it manages: read it (and list the kind
// to find it), create, change and delete it.
const std::vector<std::string> kManage = {"get", "list", "watch", "create", "update", "patch", "delete"};

std::string group_of(std::string_view api_version) {
  const std::size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string() : std::string(api_version.substr(0, slash));
}

// Rules keyed by where they apply ("" the ClusterRole), group, verbs and
// names; merging collects the resources that share all four.
class RuleSet {
 public:
  void add(const std::string& where, const std::string& group, const std::string& resource,
           const std::vector<std::string>& verbs, const std::vector<std::string>& names = {}) {
    resources_[{where, group, verbs, names}].insert(resource);
  }

  Permissions permissions() const {
    Permissions out;
    for (const auto& [key, resources] : resources_) {
      const auto& [where, group, verbs, names] = key;
      Rule rule{group, {resources.begin(), resources.end()}, names, verbs};
      if (where.empty()) out.cluster.push_back(std::move(rule));
      else out.per_namespace[where].push_back(std::move(rule));
    }
    return out;
  }

 private:
  using Key = std::tuple<std::string, std::string, std::vector<std::string>, std::vector<std::string>>;
  std::map<Key, std::set<std::string>> resources_;
};

// A kind whose objects are kept in the namespaces they live in: Secrets and
// ConfigMaps hold credentials and configuration, so the controller may read
// them only where the policy puts them, never cluster-wide.
bool kept_per_namespace(const schema::KindInfo& kind) {
  return kind.kind == schema::Kind::Secret || kind.kind == schema::Kind::ConfigMap;
}

void add_kind(RuleSet& rules, const schema::KindInfo& kind, const std::string& namespace_name) {
  const std::string where = kind.namespaced && kept_per_namespace(kind) ? namespace_name : "";
  rules.add(where, group_of(kind.api_version), std::string(kind.plural), kManage);
}

// Restarting Kueue after a change of its configuration: read and patch its
// Deployment, that one only.
void add_kueue_restart(RuleSet& rules, const std::string& kueue_namespace) {
  rules.add(kueue_namespace, "apps", "deployments", {"get", "patch"}, {std::string(schema::kKueueDeploymentName)});
}

void add_manager_objects(RuleSet& rules, const kueue::ClusterObjects& objects) {
  std::set<std::string> bound_roles;
  for (const kueue::Object& object : objects.objects) {
    const schema::KindInfo* kind = schema::find_kind(object.kind);
    if (kind == nullptr) continue;  // mkq renders only the kinds of schema::kKinds
    add_kind(rules, *kind, object.namespace_name);
    if (object.kueue_configuration && object.restart_kueue) add_kueue_restart(rules, object.namespace_name);
    const bool binding = kind->kind == schema::Kind::ClusterRoleBinding || kind->kind == schema::Kind::RoleBinding;
    const auto role_ref = object.document.find("roleRef");
    if (binding && role_ref != object.document.end() && role_ref->is_object()) {
      bound_roles.insert(role_ref->value("name", std::string()));
    }
  }
  // Kubernetes lets a binding be created only by who holds the role's
  // permissions or may `bind` it: bind, for exactly the roles the policy binds.
  if (!bound_roles.empty()) {
    rules.add("", std::string(schema::kRbacGroup), "clusterroles", {"bind"}, {bound_roles.begin(), bound_roles.end()});
  }
}

void add_every_kind(RuleSet& rules, const std::string& kueue_namespace) {
  for (const schema::KindInfo& kind : schema::kKinds) add_kind(rules, kind, kueue_namespace);
  add_kueue_restart(rules, kueue_namespace);
  rules.add("", std::string(schema::kRbacGroup), "clusterroles", {"bind"});
}

}  // namespace

Permissions controller_permissions(const ManifestOptions& options) {
  RuleSet rules;
  if (options.manager_objects != nullptr) add_manager_objects(rules, *options.manager_objects);
  else add_every_kind(rules, options.kueue_namespace);
  // Its own namespace: the state (Secrets), the apply lock and leader
  // election (Leases), the runs it records (Events, both APIs).
  rules.add(options.namespace_name, "", "secrets", kManage);
  rules.add(options.namespace_name, "coordination.k8s.io", "leases", kManage);
  rules.add(options.namespace_name, "", "events", {"create", "patch"});
  rules.add(options.namespace_name, "events.k8s.io", "events", {"create", "patch"});
  return rules.permissions();
}

Json rule_document(const Rule& rule) {
  Json out = Json::object();
  out["apiGroups"] = Json::array({rule.group});
  out["resources"] = rule.resources;
  if (!rule.resource_names.empty()) out["resourceNames"] = rule.resource_names;
  out["verbs"] = rule.verbs;
  return out;
}

}  // namespace mkq::install
