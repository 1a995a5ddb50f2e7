// RBAC authorization (see rbac.h), following k8s.io/kubernetes
// plugin/pkg/auth/authorizer/rbac (appliesTo, RuleAllows, RulesAllow).
#include "sandbox/rbac.h"

#include <algorithm>
#include <unordered_map>

#include "sandbox/json_access.h"
#include "sandbox/responses.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";

// The strings of object[key] (other items skipped); none when it is not an array.
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

// A stored PolicyRule with its lists read out once.
struct Rule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
  std::vector<std::string> non_resource_urls;
  bool non_resource = false;  // it has nonResourceURLs: listed under nonResourceRules
  json shown;                 // as a SelfSubjectRulesReview lists it
};

Rule compile_rule(const json& rule) {
  Rule out;
  out.verbs = strings(rule, "verbs");
  out.api_groups = strings(rule, "apiGroups");
  out.resources = strings(rule, "resources");
  out.resource_names = strings(rule, "resourceNames");
  out.non_resource_urls = strings(rule, "nonResourceURLs");
  out.non_resource = rule.contains("nonResourceURLs");
  out.shown = {{"verbs", rule.value("verbs", json::array())}};
  if (out.non_resource) {
    out.shown["nonResourceURLs"] = rule["nonResourceURLs"];
    return out;
  }
  for (const char* key : {"apiGroups", "resources", "resourceNames"}) {
    if (rule.contains(key)) out.shown[key] = rule[key];
  }
  return out;
}

bool rule_allows(const RequestAttributes& a, const Rule& rule) {
  if (!has_all_or(rule.verbs, a.verb)) return false;
  if (!a.resource_request) return non_resource_matches(rule.non_resource_urls, a.path);
  if (!has_all_or(rule.api_groups, a.api_group)) return false;
  if (!resource_matches(rule.resources, a.resource, a.subresource)) return false;
  return rule.resource_names.empty() || contains(rule.resource_names, a.name);
}

using Rules = std::vector<Rule>;

// One subject of a binding, ready to match a caller.
struct Subject {
  enum class Kind { kUser, kGroup, kServiceAccount, kOther };
  Kind kind = Kind::kOther;
  // The user or group name; for a ServiceAccount the user name its tokens
  // carry (system:serviceaccount:NS:NAME), "" when it has no namespace.
  std::string name;
  std::string reason;  // "RBAC: allowed by <binding> to <subject>"
};

bool subject_matches(const Subject& s, const RequestAttributes& a) {
  switch (s.kind) {
    case Subject::Kind::kUser:
      return s.name == a.user;
    case Subject::Kind::kGroup:
      return contains(a.groups, s.name);
    case Subject::Kind::kServiceAccount:
      return !s.name.empty() && s.name == a.user;
    case Subject::Kind::kOther:
      return false;
  }
  return false;
}

// A binding whose roleRef names rules, with its subjects; the caller gets
// the rules under the first subject that names it.
struct Binding {
  std::vector<Subject> subjects;
  std::shared_ptr<const Rules> rules;
};

// rbac's describeSubject: `User "alice"`, `ServiceAccount "sa/ns"`.
std::string describe_subject(const json& subject, const std::string& binding_ns) {
  const std::string kind = text_at(subject, "kind");
  std::string name = text_at(subject, "name");
  if (kind == "ServiceAccount") {
    const std::string ns = text_at(subject, "namespace");
    name += "/" + (ns.empty() ? binding_ns : ns);
  }
  return kind + " " + json(name).dump();
}

// rbac's binding describers: `ClusterRoleBinding "b" of ClusterRole "r"`,
// `RoleBinding "b/ns" of Role "r"`.
std::string describe_binding(const json& binding, const std::string& binding_ns) {
  const json ref = binding.value("roleRef", json::object());
  const std::string name = text_at(binding.value("metadata", json::object()), "name");
  const std::string shown = binding_ns.empty() ? name : name + "/" + binding_ns;
  return std::string(binding_ns.empty() ? "ClusterRoleBinding " : "RoleBinding ") + json(shown).dump() +
         " of " + text_at(ref, "kind") + " " + json(text_at(ref, "name")).dump();
}

Subject compile_subject(const json& subject, const std::string& binding_ns,
                        const std::string& described_binding) {
  Subject out;
  const std::string kind = text_at(subject, "kind");
  out.name = text_at(subject, "name");
  if (kind == "User") out.kind = Subject::Kind::kUser;
  if (kind == "Group") out.kind = Subject::Kind::kGroup;
  if (kind == "ServiceAccount") {
    out.kind = Subject::Kind::kServiceAccount;
    std::string ns = text_at(subject, "namespace");
    if (ns.empty()) ns = binding_ns;  // a RoleBinding's ServiceAccount without one means the binding's
    out.name = ns.empty() ? "" : "system:serviceaccount:" + ns + ":" + out.name;
  }
  out.reason = "RBAC: allowed by " + described_binding + " to " + describe_subject(subject, binding_ns);
  return out;
}

// The roles bindings refer to, each compiled once per compilation.
class RoleTable {
 public:
  // The rules of a binding's roleRef (a Role in binding_ns, or a ClusterRole);
  // none when it names nothing stored.
  std::shared_ptr<const Rules> rules_of(const Store& store, const json& binding,
                                        const std::string& binding_ns) {
    const json ref = binding.value("roleRef", json::object());
    const std::string kind = text_at(ref, "kind");
    const std::string name = text_at(ref, "name");
    std::optional<ObjectKey> key;
    if (kind == "ClusterRole") key = ObjectKey{kRbacGroup, "clusterroles", "", name};
    if (kind == "Role" && !binding_ns.empty()) key = ObjectKey{kRbacGroup, "roles", binding_ns, name};
    if (!key) return nullptr;
    const std::string id = key->resource + '\0' + key->ns + '\0' + key->name;
    auto [it, added] = roles_.try_emplace(id);
    if (added) it->second = compile_role(store.get(*key));
    return it->second;
  }

 private:
  static std::shared_ptr<const Rules> compile_role(const std::optional<json>& role) {
    if (!role || !role->contains("rules") || !(*role)["rules"].is_array()) return nullptr;
    auto rules = std::make_shared<Rules>();
    for (const json& rule : (*role)["rules"]) {
      if (rule.is_object()) rules->push_back(compile_rule(rule));
    }
    return rules;
  }

  std::unordered_map<std::string, std::shared_ptr<const Rules>> roles_;
};

std::vector<Binding> compile_bindings(const Store& store, RoleTable& roles, const std::vector<json>& stored,
                                      const std::string& binding_ns) {
  std::vector<Binding> out;
  for (const json& binding : stored) {
    if (!binding.is_object() || !binding.contains("subjects") || !binding["subjects"].is_array()) continue;
    Binding compiled;
    compiled.rules = roles.rules_of(store, binding, binding_ns);
    if (!compiled.rules || compiled.rules->empty()) continue;  // grants nothing
    const std::string described = describe_binding(binding, binding_ns);
    for (const json& subject : binding["subjects"]) {
      if (subject.is_object()) compiled.subjects.push_back(compile_subject(subject, binding_ns, described));
    }
    out.push_back(std::move(compiled));
  }
  return out;
}

// The key of a caller's grants: user, groups, namespace (none holds a NUL).
std::string caller_key(const RequestAttributes& a) {
  std::string key = a.user;
  key += '\0';
  for (const std::string& g : a.groups) {
    key += g;
    key += '\0';
  }
  key += '\1';
  key += a.ns;
  return key;
}

// Callers whose grants are kept at most; past it they are all dropped and
// gathered again (a bound, not a tuning: a cluster has few callers).
constexpr std::size_t kMaxCallers = 4096;

}  // namespace

// One rule granted to a caller, and the reason a decision it allows gives.
struct RbacAuthorizer::Grant {
  const Rule* rule;
  const std::string* reason;
};

// The stored bindings compiled at one epoch of the RBAC group, and the
// callers' grants gathered from them. Grants point into the bindings and
// rules, which stay where they are until the whole is dropped.
struct RbacAuthorizer::Compiled {
  RoleTable roles;
  std::vector<Binding> cluster_bindings;
  // RoleBindings, compiled when a request in their namespace first asks.
  std::unordered_map<std::string, std::vector<Binding>> bindings_by_ns;
  std::unordered_map<std::string, std::vector<Grant>> grants_by_caller;
};

RbacAuthorizer::RbacAuthorizer() = default;
RbacAuthorizer::~RbacAuthorizer() = default;

const std::vector<RbacAuthorizer::Grant>& RbacAuthorizer::grants(const Store& store,
                                                                 const RequestAttributes& a) {
  const std::uint64_t epoch = store.group_epoch(kRbacGroup);
  if (!compiled_ || epoch != epoch_) {
    compiled_ = std::make_unique<Compiled>();
    compiled_->cluster_bindings = compile_bindings(
        store, compiled_->roles, store.list(kRbacGroup, "clusterrolebindings", std::nullopt, "", 0), "");
    epoch_ = epoch;
    ++compilations_;
  }
  Compiled& c = *compiled_;
  if (c.grants_by_caller.size() >= kMaxCallers) c.grants_by_caller.clear();
  auto [entry, added] = c.grants_by_caller.try_emplace(caller_key(a));
  if (!added) return entry->second;
  const auto gather = [&](const std::vector<Binding>& bindings) {
    for (const Binding& binding : bindings) {
      const auto subject = std::find_if(binding.subjects.begin(), binding.subjects.end(),
                                        [&](const Subject& s) { return subject_matches(s, a); });
      if (subject == binding.subjects.end()) continue;
      for (const Rule& rule : *binding.rules) entry->second.push_back({&rule, &subject->reason});
    }
  };
  gather(c.cluster_bindings);
  if (!a.ns.empty()) {
    auto [ns_bindings, first] = c.bindings_by_ns.try_emplace(a.ns);
    if (first)
      ns_bindings->second =
          compile_bindings(store, c.roles, store.list(kRbacGroup, "rolebindings", a.ns, "", 0), a.ns);
    gather(ns_bindings->second);
  }
  return entry->second;
}

std::optional<std::string> RbacAuthorizer::allowed_by(const Store& store, const RequestAttributes& a) {
  if (contains(a.groups, "system:masters")) return std::string();
  for (const Grant& grant : grants(store, a)) {
    if (rule_allows(a, *grant.rule)) return *grant.reason;
  }
  return std::nullopt;
}

bool RbacAuthorizer::allows(const Store& store, const RequestAttributes& a) {
  return allowed_by(store, a).has_value();
}

json RbacAuthorizer::rules_for(const Store& store, const RequestAttributes& a) {
  json resource_rules = json::array();
  json non_resource_rules = json::array();
  for (const Grant& grant : grants(store, a)) {
    (grant.rule->non_resource ? non_resource_rules : resource_rules).push_back(grant.rule->shown);
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
