// RBAC authorization (see rbac.h), following k8s.io/kubernetes
// plugin/pkg/auth/authorizer/rbac (appliesTo, RuleAllows, RulesAllow).
#include "sandbox/rbac.h"

#include <algorithm>

#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

std::vector<std::string> strings(const json& object, const char* key) {
  std::vector<std::string> out;
  if (!object.is_object() || !object.contains(key) || !object[key].is_array()) return out;
  for (const auto& item : object[key]) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

bool contains(const std::vector<std::string>& items, const std::string& value) {
  return std::find(items.begin(), items.end(), value) != items.end();
}

bool has_all_or(const std::vector<std::string>& items, const std::string& value) {
  return contains(items, "*") || contains(items, value);
}

bool resource_matches(const std::vector<std::string>& resources, const std::string& resource, const std::string& sub) {
  const std::string combined = sub.empty() ? resource : resource + "/" + sub;
  for (const std::string& r : resources) {
    if (r == "*" || r == combined) return true;
    if (!sub.empty() && (r == "*/" + sub || r == resource + "/*")) return true;
  }
  return false;
}

bool non_resource_matches(const std::vector<std::string>& urls, const std::string& path) {
  for (const std::string& u : urls) {
    if (u == "*" || u == path) return true;
    if (!u.empty() && u.back() == '*' && path.rfind(u.substr(0, u.size() - 1), 0) == 0) return true;
  }
  return false;
}

bool rule_allows(const RequestAttributes& a, const json& rule) {
  if (!rule.is_object() || !has_all_or(strings(rule, "verbs"), a.verb)) return false;
  if (!a.resource_request) return non_resource_matches(strings(rule, "nonResourceURLs"), a.path);
  if (!has_all_or(strings(rule, "apiGroups"), a.api_group)) return false;
  if (!resource_matches(strings(rule, "resources"), a.resource, a.subresource)) return false;
  const auto names = strings(rule, "resourceNames");
  return names.empty() || contains(names, a.name);
}

// The subject of the binding's list that names the caller, or nullptr.
// `binding_ns` is the namespace of a RoleBinding (a ServiceAccount subject
// without one means it).
const json* subject_for(const RequestAttributes& a, const json& binding, const std::string& binding_ns) {
  if (!binding.is_object() || !binding.contains("subjects") || !binding["subjects"].is_array()) return nullptr;
  for (const auto& subject : binding["subjects"]) {
    if (!subject.is_object()) continue;
    const std::string kind = subject.value("kind", "");
    const std::string name = subject.value("name", "");
    if (kind == "User" && name == a.user) return &subject;
    if (kind == "Group" && contains(a.groups, name)) return &subject;
    if (kind == "ServiceAccount") {
      std::string ns = subject.value("namespace", "");
      if (ns.empty()) ns = binding_ns;
      if (!ns.empty() && a.user == "system:serviceaccount:" + ns + ":" + name) return &subject;
    }
  }
  return nullptr;
}

// rbac's describeSubject: `User "alice"`, `ServiceAccount "sa/ns"`.
std::string describe_subject(const json& subject, const std::string& binding_ns) {
  const std::string kind = subject.value("kind", "");
  std::string name = subject.value("name", "");
  if (kind == "ServiceAccount") {
    const std::string ns = subject.value("namespace", "");
    name += "/" + (ns.empty() ? binding_ns : ns);
  }
  return kind + " " + json(name).dump();
}

// rbac's binding describers: `ClusterRoleBinding "b" of ClusterRole "r" to
// Group "g"`, `RoleBinding "b/ns" of Role "r" to User "u"`.
std::string describe_binding(const json& binding, const std::string& binding_ns, const json& subject) {
  const json ref = binding.value("roleRef", json::object());
  const std::string name = binding["metadata"].value("name", "");
  const std::string shown = binding_ns.empty() ? name : name + "/" + binding_ns;
  return std::string(binding_ns.empty() ? "ClusterRoleBinding " : "RoleBinding ") + json(shown).dump() + " of " +
         ref.value("kind", "") + " " + json(ref.value("name", "")).dump() + " to " + describe_subject(subject, binding_ns);
}

// The rules of a binding's roleRef (a Role in binding_ns, or a ClusterRole).
json role_rules(const Store& store, const json& binding, const std::string& binding_ns) {
  const json ref = binding.value("roleRef", json::object());
  if (!ref.is_object()) return json::array();
  const std::string kind = ref.value("kind", "");
  const std::string name = ref.value("name", "");
  std::optional<json> role;
  if (kind == "ClusterRole") role = store.get({kRbacGroup, "clusterroles", "", name});
  if (kind == "Role" && !binding_ns.empty()) role = store.get({kRbacGroup, "roles", binding_ns, name});
  if (!role || !role->contains("rules") || !(*role)["rules"].is_array()) return json::array();
  return (*role)["rules"];
}

}  // namespace

std::optional<std::string> rbac_allowed_by(const Store& store, const RequestAttributes& a) {
  if (contains(a.groups, "system:masters")) return std::string();
  const auto visit = [&](const json& binding, const std::string& binding_ns) -> std::optional<std::string> {
    const json* subject = subject_for(a, binding, binding_ns);
    if (subject == nullptr) return std::nullopt;
    for (const json& rule : role_rules(store, binding, binding_ns)) {
      if (rule_allows(a, rule)) return "RBAC: allowed by " + describe_binding(binding, binding_ns, *subject);
    }
    return std::nullopt;
  };
  for (const json& binding : store.list(kRbacGroup, "clusterrolebindings", std::nullopt, "", 0)) {
    if (auto reason = visit(binding, "")) return reason;
  }
  if (a.ns.empty()) return std::nullopt;
  for (const json& binding : store.list(kRbacGroup, "rolebindings", a.ns, "", 0)) {
    if (auto reason = visit(binding, a.ns)) return reason;
  }
  return std::nullopt;
}

bool rbac_allows(const Store& store, const RequestAttributes& a) { return rbac_allowed_by(store, a).has_value(); }

json rbac_rules_for(const Store& store, const RequestAttributes& a) {
  json resource_rules = json::array();
  json non_resource_rules = json::array();
  const auto collect = [&](const json& binding, const std::string& binding_ns) {
    if (subject_for(a, binding, binding_ns) == nullptr) return;
    for (const json& rule : role_rules(store, binding, binding_ns)) {
      if (!rule.is_object()) continue;
      if (rule.contains("nonResourceURLs")) {
        non_resource_rules.push_back({{"verbs", rule.value("verbs", json::array())}, {"nonResourceURLs", rule["nonResourceURLs"]}});
        continue;
      }
      json out = {{"verbs", rule.value("verbs", json::array())}};
      for (const char* key : {"apiGroups", "resources", "resourceNames"}) {
        if (rule.contains(key)) out[key] = rule[key];
      }
      resource_rules.push_back(out);
    }
  };
  for (const json& binding : store.list(kRbacGroup, "clusterrolebindings", std::nullopt, "", 0)) collect(binding, "");
  if (!a.ns.empty()) {
    for (const json& binding : store.list(kRbacGroup, "rolebindings", a.ns, "", 0)) collect(binding, a.ns);
  }
  return {{"resourceRules", resource_rules}, {"nonResourceRules", non_resource_rules}, {"incomplete", false}};
}

json forbidden_status(const RequestAttributes& a) {
  const std::string who = "User \"" + a.user + "\" cannot " + a.verb;
  if (!a.resource_request) {
    return status_body(403, "Forbidden", "forbidden: " + who + " path \"" + a.path + "\"", json::object());
  }
  const std::string qualified = a.api_group.empty() ? a.resource : a.resource + "." + a.api_group;
  const std::string resource = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
  std::string message = qualified + (a.name.empty() ? "" : " \"" + a.name + "\"") + " is forbidden: " + who +
                        " resource \"" + resource + "\" in API group \"" + a.api_group + "\"";
  message += a.ns.empty() ? " at the cluster scope" : " in the namespace \"" + a.ns + "\"";
  json details = json::object();
  if (!a.name.empty()) details["name"] = a.name;
  if (!a.api_group.empty()) details["group"] = a.api_group;
  details["kind"] = a.resource;
  return status_body(403, "Forbidden", message, details);
}

std::string verb_of(const std::string& method, bool has_name, bool watch) {
  if (method == "GET" || method == "HEAD") return watch ? "watch" : (has_name ? "get" : "list");
  if (method == "POST") return "create";
  if (method == "PUT") return "update";
  if (method == "PATCH") return "patch";
  if (method == "DELETE") return has_name ? "delete" : "deletecollection";
  std::string lower;
  for (const char c : method) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower;
}

}  // namespace mkq::sandbox
