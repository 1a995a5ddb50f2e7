// The built-in kinds' validation (builtin_validation.h). The rules and their
// words are kube-apiserver v1.33's: apimachinery's util/validation (names,
// label keys and values, config keys), api/validation (ObjectMeta) and
// pkg/apis/{core,rbac,coordination}/validation. Character classes are checked
// by hand, here and in cel/formats.h (no std::regex: this runs on every write).
#include "sandbox/builtin_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <initializer_list>

#include "sandbox/cel/formats.h"
#include "sandbox/json_access.h"
#include "sandbox/request.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr std::size_t kConfigKeyMax = 253;
constexpr std::size_t kAnnotationsMax = 256 * 1024;
constexpr std::size_t kDataMax = 1024 * 1024;  // core.MaxSecretSize: a ConfigMap's and a Secret's data
constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";
constexpr const char* kImmutableSet = "field is immutable when `immutable` is set";

// ---- errors, worded as apimachinery's field.Error bodies --------------------

// A Go string as %q prints it.
std::string go_quoted(std::string_view text) { return go_value(json(std::string(text))); }

// []string{"a", "b"}: %#v of a string list.
std::string go_strings(const json& list) {
  std::string out = "[]string{";
  bool first = true;
  for (const json& item : list) {
    if (!first) out += ", ";
    first = false;
    out += go_quoted(item.is_string() ? item.get_ref<const std::string&>() : std::string());
  }
  return out + "}";
}

// `supported` quoted and joined as NotSupported lists them.
std::string supported_values(std::initializer_list<std::string_view> supported) {
  std::string out;
  for (std::string_view value : supported) {
    if (!out.empty()) out += ", ";
    out += go_quoted(value);
  }
  return out;
}

class Errors {
 public:
  explicit Errors(std::vector<FieldError>* out) : out_(out) {}

  // `value` is already printed as Go prints it (go_quoted(), a number, go_strings()).
  void invalid(std::string field, std::string_view value, std::string_view detail) {
    out_->push_back({"FieldValueInvalid", std::move(field), fmt::format("Invalid value: {}: {}", value, detail)});
  }
  void required(std::string field, std::string_view detail = {}) {
    out_->push_back({"FieldValueRequired", std::move(field),
                     detail.empty() ? std::string("Required value") : fmt::format("Required value: {}", detail)});
  }
  void not_supported(std::string field, std::string_view value, std::initializer_list<std::string_view> supported) {
    out_->push_back({"FieldValueNotSupported", std::move(field),
                     fmt::format("Unsupported value: {}: supported values: {}", go_quoted(value),
                                 supported_values(supported))});
  }
  void forbidden(std::string field, std::string_view detail) {
    out_->push_back({"FieldValueForbidden", std::move(field), fmt::format("Forbidden: {}", detail)});
  }
  void duplicate(std::string field, std::string_view value) {
    out_->push_back({"FieldValueDuplicate", std::move(field), fmt::format("Duplicate value: {}", go_quoted(value))});
  }
  void too_long(std::string field, std::size_t max) {
    out_->push_back({"FieldValueTooLong", std::move(field), fmt::format("Too long: may not be more than {} bytes", max)});
  }
  // One Invalid per message of a check (util/validation's functions return several).
  void each(const std::string& field, std::string_view value, const std::vector<std::string>& messages) {
    for (const std::string& message : messages) invalid(field, go_quoted(value), message);
  }

 private:
  std::vector<FieldError>* out_;
};

// ---- apimachinery's util/validation (names, label keys and values: cel/formats.h) --

using cel::dns1123_label_errors;
using cel::dns1123_subdomain_errors;
using cel::qualified_name_errors;

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

std::string max_length_error(std::size_t max) { return fmt::format("must be no more than {} characters", max); }

std::vector<std::string> label_value_errors(const std::string& value) { return cel::validate_format("labelValue", value); }

// IsConfigMapKey: the keys of a ConfigMap's and a Secret's data.
std::vector<std::string> config_key_errors(std::string_view key) {
  std::vector<std::string> out;
  if (key.size() > kConfigKeyMax) out.push_back(max_length_error(kConfigKeyMax));
  const bool shape = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return alnum(c) || c == '-' || c == '_' || c == '.';
  });
  if (!shape) {
    out.emplace_back("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  "
                     "or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  if (key == ".") out.emplace_back("must not be '.'");
  else if (key == "..") out.emplace_back("must not be '..'");
  else if (key.substr(0, 2) == "..") out.emplace_back("must not start with '..'");
  return out;
}

// path.IsValidPathSegmentName: the names of RBAC objects.
std::vector<std::string> path_segment_errors(std::string_view name) {
  if (name == "." || name == "..") return {fmt::format("may not be '{}'", name)};
  std::vector<std::string> out;
  for (const char* part : {"/", "%"}) {
    if (name.find(part) != std::string_view::npos) out.push_back(fmt::format("may not contain '{}'", part));
  }
  return out;
}

// ---- reading the decoded object ----------------------------------------------

bool has_items(const json& value) { return (value.is_array() || value.is_object()) && !value.empty(); }

bool is_true(const json& object, const char* key) {
  const json& value = member(object, key);
  return value.is_boolean() && value.get<bool>();
}

// A map's keys in order (Go ranges over maps in a random order; sorted keeps answers stable).
std::vector<std::string> keys_of(const json& map) {
  std::vector<std::string> out;
  if (!map.is_object()) return out;
  out.reserve(map.size());
  for (const auto& item : map.items()) out.push_back(item.key());
  return out;  // nlohmann's object keeps its keys sorted
}

// ---- ObjectMeta ----------------------------------------------------------------

enum class NameRule { Subdomain, Label, PathSegment, Dns1035Label };

NameRule name_rule(const ResourceInfo& info) {
  if (is_kind(info, "", "namespaces")) return NameRule::Label;
  if (is_kind(info, "", "services")) return NameRule::Dns1035Label;  // ValidateServiceName
  if (info.group == kRbacGroup) return NameRule::PathSegment;
  return NameRule::Subdomain;
}

std::vector<std::string> name_errors(NameRule rule, const std::string& name) {
  switch (rule) {
    case NameRule::Label: return dns1123_label_errors(name);
    case NameRule::PathSegment: return path_segment_errors(name);
    case NameRule::Dns1035Label: return cel::validate_format("dns1035Label", name);
    case NameRule::Subdomain: break;
  }
  return dns1123_subdomain_errors(name);
}

// A generateName is checked as a prefix: a trailing '-' is allowed.
std::string masked_prefix(std::string prefix) {
  if (prefix.size() > 1 && prefix.back() == '-') prefix.back() = 'a';
  return prefix;
}

bool standard_finalizer(std::string_view name) {
  return name == "kubernetes" || name == "orphan" || name == "foregroundDeletion";
}

void validate_owner_references(const json& references, Errors& errors) {
  if (!references.is_array()) return;
  for (const json& reference : references) {
    if (!reference.is_object()) continue;
    const std::string& api_version = text_at(reference, "apiVersion");
    // schema.ParseGroupVersion: "v1" (core), "group/version"; more slashes do not parse.
    const std::size_t slash = api_version.find('/');
    const bool parses = slash == std::string::npos || api_version.find('/', slash + 1) == std::string::npos;
    const std::string version = !parses ? std::string()
                                        : slash == std::string::npos ? api_version : api_version.substr(slash + 1);
    if (version.empty()) errors.invalid("metadata.ownerReferences.apiVersion", go_quoted(api_version), "version must not be empty");
    for (const char* key : {"kind", "name", "uid"}) {
      const std::string& value = text_at(reference, key);
      if (value.empty()) errors.invalid(fmt::format("metadata.ownerReferences.{}", key), go_quoted(value), "must not be empty");
    }
  }
}

void validate_finalizers(const json& finalizers, bool core_rules, Errors& errors) {
  if (!finalizers.is_array()) return;
  bool orphan = false;
  bool foreground = false;
  for (const json& item : finalizers) {
    const std::string name = item.is_string() ? item.get<std::string>() : std::string();
    errors.each("metadata.finalizers", name, qualified_name_errors(name));
    orphan = orphan || name == "orphan";
    foreground = foreground || name == "foregroundDeletion";
  }
  if (orphan && foreground) {
    errors.invalid("metadata.finalizers", go_strings(finalizers),
                   "finalizer orphan and foregroundDeletion cannot be both set");
  }
  if (!core_rules) return;
  // The built-in kinds' own check (core's ValidateObjectMeta): a bare name must be a standard finalizer.
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    const std::string name = finalizers[i].is_string() ? finalizers[i].get<std::string>() : std::string();
    if (name.find('/') == std::string::npos && !standard_finalizer(name)) {
      errors.invalid(fmt::format("metadata.finalizers[{}]", i), go_quoted(name),
                     "name is neither a standard finalizer name nor is it fully qualified");
    }
  }
}

void validate_metadata(const ResourceInfo& info, const json& meta, Errors& errors) {
  const NameRule rule = name_rule(info);
  const std::string& generate_name = text_at(meta, "generateName");
  if (!generate_name.empty()) {
    const std::string prefix = rule == NameRule::PathSegment ? generate_name : masked_prefix(generate_name);
    for (const std::string& message : name_errors(rule, prefix)) {
      errors.invalid("metadata.generateName", go_quoted(generate_name), message);
    }
  }
  const std::string& name = text_at(meta, "name");
  if (name.empty()) errors.required("metadata.name", "name or generateName is required");
  else errors.each("metadata.name", name, name_errors(rule, name));

  const json& labels = member(meta, "labels");
  for (const std::string& key : keys_of(labels)) {
    errors.each("metadata.labels", key, qualified_name_errors(key));
    const json& value = labels[key];
    if (value.is_string()) errors.each("metadata.labels", value.get_ref<const std::string&>(), label_value_errors(value.get_ref<const std::string&>()));
  }
  const json& annotations = member(meta, "annotations");
  std::size_t size = 0;
  for (const std::string& key : keys_of(annotations)) {
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const std::string& message : qualified_name_errors(lower)) errors.invalid("metadata.annotations", go_quoted(key), message);
    const json& value = annotations[key];
    size += key.size() + (value.is_string() ? value.get_ref<const std::string&>().size() : 0);
  }
  if (size > kAnnotationsMax) errors.too_long("metadata.annotations", kAnnotationsMax);
  validate_owner_references(member(meta, "ownerReferences"), errors);
  // CRDs are validated by apiextensions' generic rules (customresourcecleanup.apiextensions.k8s.io is theirs).
  validate_finalizers(member(meta, "finalizers"), !info.custom && info.group != "apiextensions.k8s.io", errors);
}

// ---- the kinds -------------------------------------------------------------------

// The decoded length of a []byte field's base64 text (its text decodes: the decoder checked it).
std::size_t decoded_size(const std::string& text) {
  std::size_t chars = 0;
  for (char c : text) chars += (c != '\n' && c != '\r' && c != '=') ? 1 : 0;
  return chars * 3 / 4;
}

// Keys of data (and binaryData) and the total size; `binary` the name of the map of []byte values.
void validate_data_keys(const json& object, const char* text_map, const char* binary_map, Errors& errors,
                        std::size_t* total) {
  const json& texts = text_map != nullptr ? member(object, text_map) : json();
  const json& binaries = member(object, binary_map);
  for (const std::string& key : keys_of(texts)) {
    const std::string field = fmt::format("{}[{}]", text_map, key);
    errors.each(field, key, config_key_errors(key));
    if (binaries.is_object() && binaries.contains(key)) {
      errors.invalid(field, go_quoted(key), fmt::format("duplicate of key present in {}", binary_map));
    }
    const json& value = texts[key];
    if (value.is_string()) *total += value.get_ref<const std::string&>().size();
  }
  for (const std::string& key : keys_of(binaries)) {
    errors.each(fmt::format("{}[{}]", binary_map, key), key, config_key_errors(key));
    const json& value = binaries[key];
    if (value.is_string()) *total += decoded_size(value.get_ref<const std::string&>());
  }
}

// An object whose stored copy is `immutable: true` keeps `fields` and the flag.
void validate_immutable(const json& object, const json* existing, std::initializer_list<const char*> fields,
                        Errors& errors) {
  if (existing == nullptr || !is_true(*existing, "immutable")) return;
  if (!is_true(object, "immutable")) errors.forbidden("immutable", kImmutableSet);
  for (const char* field : fields) {
    const json& before = member(*existing, field);
    const json& after = member(object, field);
    if (before != after) errors.forbidden(field, kImmutableSet);
  }
}

void validate_config_map(const json& object, const json* existing, Errors& errors) {
  validate_immutable(object, existing, {"data", "binaryData"}, errors);
  std::size_t total = 0;
  validate_data_keys(object, "data", "binaryData", errors, &total);
  if (total > kDataMax) errors.too_long("", kDataMax);  // "" : the whole object
}

void validate_secret(const json& object, const json* existing, Errors& errors) {
  const std::string& type = text_at(object, "type");
  if (existing != nullptr && text_at(*existing, "type") != type) errors.invalid("type", go_quoted(type), "field is immutable");
  validate_immutable(object, existing, {"data"}, errors);
  std::size_t total = 0;
  validate_data_keys(object, nullptr, "data", errors, &total);
  if (total > kDataMax) errors.too_long("data", kDataMax);
  const json& data = member(object, "data");
  const auto has = [&](const char* key) { return data.is_object() && data.contains(key); };
  if (type == "kubernetes.io/service-account-token") {
    if (text_at(member(member(object, "metadata"), "annotations"), "kubernetes.io/service-account.name").empty()) {
      errors.required("metadata.annotations[kubernetes.io/service-account.name]");
    }
  } else if (type == "kubernetes.io/dockercfg" && !has(".dockercfg")) {
    errors.required("data[.dockercfg]");
  } else if (type == "kubernetes.io/dockerconfigjson" && !has(".dockerconfigjson")) {
    errors.required("data[.dockerconfigjson]");
  } else if (type == "kubernetes.io/basic-auth" && !has("username") && !has("password")) {
    // kube-apiserver builds these paths from "data[%s]" literally.
    errors.required("data[%s][username]");
    errors.required("data[%s][password]");
  } else if (type == "kubernetes.io/ssh-auth" && text_at(data, "ssh-privatekey").empty()) {
    errors.required("data[%s][ssh-privatekey]");
  } else if (type == "kubernetes.io/tls") {
    if (!has("tls.crt")) errors.required("data[tls.crt]");
    if (!has("tls.key")) errors.required("data[tls.key]");
  }
}

void validate_namespace(const json& object, Errors& errors) {
  const json& finalizers = member(member(object, "spec"), "finalizers");
  if (!finalizers.is_array()) return;
  for (const json& item : finalizers) {
    const std::string name = item.is_string() ? item.get<std::string>() : std::string();
    errors.each("spec.finalizers", name, qualified_name_errors(name));
    if (name.find('/') == std::string::npos && !standard_finalizer(name)) {
      errors.invalid("spec.finalizers", go_quoted(name), "name is neither a standard finalizer name nor is it fully qualified");
    }
  }
}

void validate_policy_rules(const json& rules, bool namespaced, Errors& errors) {
  if (!rules.is_array()) return;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const json& rule = rules[i];
    const std::string at = fmt::format("rules[{}]", i);
    if (!has_items(member(rule, "verbs"))) errors.required(at + ".verbs", "verbs must contain at least one value");
    const json& urls = member(rule, "nonResourceURLs");
    if (has_items(urls)) {
      if (namespaced) errors.invalid(at + ".nonResourceURLs", go_strings(urls), "namespaced rules cannot apply to non-resource URLs");
      if (has_items(member(rule, "apiGroups")) || has_items(member(rule, "resources")) ||
          has_items(member(rule, "resourceNames"))) {
        errors.invalid(at + ".nonResourceURLs", go_strings(urls),
                       "rules cannot apply to both regular resources and non-resource URLs");
      }
      continue;
    }
    if (!has_items(member(rule, "apiGroups"))) errors.required(at + ".apiGroups", "resource rules must supply at least one api group");
    if (!has_items(member(rule, "resources"))) errors.required(at + ".resources", "resource rules must supply at least one resource");
    if (has_items(member(rule, "resourceNames")) && member(rule, "resources").size() > 1) {
      errors.required(at + ".resourceNames", "resource names cannot apply to multiple resources");
    }
  }
}

void validate_subjects(const json& subjects, bool namespaced, Errors& errors) {
  if (!subjects.is_array()) return;
  for (std::size_t i = 0; i < subjects.size(); ++i) {
    const json& subject = subjects[i];
    const std::string at = fmt::format("subjects[{}]", i);
    const std::string& name = text_at(subject, "name");
    const std::string& kind = text_at(subject, "kind");
    const std::string& group = text_at(subject, "apiGroup");
    if (name.empty()) errors.required(at + ".name");
    if (kind == "ServiceAccount") {
      if (!name.empty()) errors.each(at + ".name", name, dns1123_subdomain_errors(name));
      if (!group.empty()) errors.not_supported(at + ".apiGroup", group, {""});
      if (!namespaced && text_at(subject, "namespace").empty()) errors.required(at + ".namespace");
    } else if (kind == "User" || kind == "Group") {
      if (name.empty()) errors.invalid(at + ".name", go_quoted(name), kind == "User" ? "user name cannot be empty" : "group name cannot be empty");
      if (group != kRbacGroup) errors.not_supported(at + ".apiGroup", group, {kRbacGroup});
    } else {
      errors.not_supported(at + ".kind", kind, {"ServiceAccount", "User", "Group"});
    }
  }
}

// rbac.RoleRef{APIGroup:"...", Kind:"...", Name:"..."}: %#v of a binding's roleRef.
std::string go_role_ref(const json& ref) {
  return fmt::format("rbac.RoleRef{{APIGroup:{}, Kind:{}, Name:{}}}", go_quoted(text_at(ref, "apiGroup")),
                     go_quoted(text_at(ref, "kind")), go_quoted(text_at(ref, "name")));
}

void validate_binding(const json& object, const json* existing, bool namespaced, Errors& errors) {
  const json& ref = member(object, "roleRef");
  const std::string& group = text_at(ref, "apiGroup");
  const std::string& kind = text_at(ref, "kind");
  const std::string& name = text_at(ref, "name");
  if (group != kRbacGroup) errors.not_supported("roleRef.apiGroup", group, {kRbacGroup});
  if (namespaced && kind != "Role" && kind != "ClusterRole") errors.not_supported("roleRef.kind", kind, {"Role", "ClusterRole"});
  if (!namespaced && kind != "ClusterRole") errors.not_supported("roleRef.kind", kind, {"ClusterRole"});
  if (name.empty()) errors.required("roleRef.name");
  else errors.each("roleRef.name", name, path_segment_errors(name));
  validate_subjects(member(object, "subjects"), namespaced, errors);
  if (existing == nullptr) return;
  const json& old_ref = member(*existing, "roleRef");
  if (text_at(old_ref, "apiGroup") != group || text_at(old_ref, "kind") != kind || text_at(old_ref, "name") != name) {
    errors.invalid("roleRef", go_role_ref(ref), "cannot change roleRef");
  }
}

void validate_lease(const json& object, Errors& errors) {
  const json& spec = member(object, "spec");
  if (member(spec, "leaseDurationSeconds").is_number_integer() && integer_at(spec, "leaseDurationSeconds") <= 0) {
    errors.invalid("spec.leaseDurationSeconds", std::to_string(integer_at(spec, "leaseDurationSeconds")), "must be greater than 0");
  }
  if (member(spec, "leaseTransitions").is_number_integer() && integer_at(spec, "leaseTransitions") < 0) {
    errors.invalid("spec.leaseTransitions", std::to_string(integer_at(spec, "leaseTransitions")),
                   "must be greater than or equal to 0");
  }
}

// A core/v1 Event: its namespace and its involved object's agree; one with eventTime (the new form) names its reporter, action and reason.
void validate_event(const json& object, Errors& errors) {
  const std::string& ns = text_at(member(object, "metadata"), "namespace");
  const std::string& involved = text_at(member(object, "involvedObject"), "namespace");
  const bool has_time = !text_at(object, "eventTime").empty();
  const bool agree = involved.empty() ? (has_time ? ns == "default" || ns == "kube-system" : ns.empty() || ns == "default")
                                      : has_time || ns == involved;
  if (!agree) errors.invalid("involvedObject.namespace", go_quoted(involved), "does not match event.namespace");
  if (!has_time) return;
  const std::string& controller = text_at(object, "reportingComponent");
  if (controller.empty()) errors.required("reportingComponent");
  errors.each("reportingComponent", controller, qualified_name_errors(controller));
  for (const char* key : {"reportingInstance", "action", "reason"}) {
    if (text_at(object, key).empty()) errors.required(key);
  }
}

void validate_node(const json& object, Errors& errors) {
  const json& taints = member(member(object, "spec"), "taints");
  if (!taints.is_array()) return;
  for (std::size_t i = 0; i < taints.size(); ++i) {
    const std::string at = fmt::format("spec.taints[{}]", i);
    const std::string& key = text_at(taints[i], "key");
    const std::string& value = text_at(taints[i], "value");
    const std::string& effect = text_at(taints[i], "effect");
    errors.each(at + ".key", key, qualified_name_errors(key));
    const auto value_errors = label_value_errors(value);
    if (!value_errors.empty()) {
      std::string joined;
      for (const std::string& message : value_errors) joined += (joined.empty() ? "" : ";") + message;
      errors.invalid(at + ".value", go_quoted(value), joined);
    }
    if (effect.empty()) errors.required(at + ".effect");
    else if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
      errors.not_supported(at + ".effect", effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
    }
  }
}

// A Pod's containers: what every client of the sandbox could get wrong. Unset
// enums are left alone: kube-apiserver defaults them before validating.
void validate_containers(const json& containers, const std::string& at, bool need_one, Errors& errors) {
  if (!containers.is_array() || containers.empty()) {
    if (need_one) errors.required(at);
    return;
  }
  std::vector<std::string> names;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const json& container = containers[i];
    const std::string here = fmt::format("{}[{}]", at, i);
    const std::string& name = text_at(container, "name");
    if (name.empty()) errors.required(here + ".name");
    else errors.each(here + ".name", name, dns1123_label_errors(name));
    if (text_at(container, "image").empty()) errors.required(here + ".image");
    const json& ports = member(container, "ports");
    for (std::size_t p = 0; ports.is_array() && p < ports.size(); ++p) {
      const std::string port_at = fmt::format("{}.ports[{}]", here, p);
      const long long number = integer_at(ports[p], "containerPort");
      if (number == 0) errors.required(port_at + ".containerPort");
      else if (number < 1 || number > 65535) {
        errors.invalid(port_at + ".containerPort", std::to_string(number), "must be between 1 and 65535, inclusive");
      }
      const std::string& protocol = text_at(ports[p], "protocol");
      if (!protocol.empty() && protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
        errors.not_supported(port_at + ".protocol", protocol, {"SCTP", "TCP", "UDP"});
      }
    }
    const std::string& pull = text_at(container, "imagePullPolicy");
    if (!pull.empty() && pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
      errors.not_supported(here + ".imagePullPolicy", pull, {"Always", "IfNotPresent", "Never"});
    }
    // Unique among the list (after the container's own checks, as kube-apiserver lists them).
    if (std::find(names.begin(), names.end(), name) != names.end()) errors.duplicate(here + ".name", name);
    names.push_back(name);
  }
}

void validate_pod(const json& object, Errors& errors) {
  const json& spec = member(object, "spec");
  validate_containers(member(spec, "containers"), "spec.containers", true, errors);
  validate_containers(member(spec, "initContainers"), "spec.initContainers", false, errors);
  const std::string& restart = text_at(spec, "restartPolicy");
  if (!restart.empty() && restart != "Always" && restart != "OnFailure" && restart != "Never") {
    errors.not_supported("spec.restartPolicy", restart, {"Always", "OnFailure", "Never"});
  }
  const std::string& dns = text_at(spec, "dnsPolicy");
  if (!dns.empty() && dns != "ClusterFirstWithHostNet" && dns != "ClusterFirst" && dns != "Default" && dns != "None") {
    errors.not_supported("spec.dnsPolicy", dns, {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"});
  }
}

void validate_kind(const ResourceInfo& info, const json& object, const json* existing, Errors& errors) {
  if (info.group.empty()) {
    if (info.resource == "configmaps") return validate_config_map(object, existing, errors);
    if (info.resource == "secrets") return validate_secret(object, existing, errors);
    if (info.resource == "namespaces") return validate_namespace(object, errors);
    if (info.resource == "events") return validate_event(object, errors);
    if (info.resource == "nodes") return validate_node(object, errors);
    if (info.resource == "pods") return validate_pod(object, errors);
    return;
  }
  if (info.group == kRbacGroup) {
    if (info.resource == "roles") return validate_policy_rules(member(object, "rules"), true, errors);
    if (info.resource == "clusterroles") return validate_policy_rules(member(object, "rules"), false, errors);
    if (info.resource == "rolebindings") return validate_binding(object, existing, true, errors);
    if (info.resource == "clusterrolebindings") return validate_binding(object, existing, false, errors);
    return;
  }
  if (is_kind(info, "coordination.k8s.io", "leases")) validate_lease(object, errors);
}

// Go's StdEncoding alphabet: the value of each character, -1 outside it.
const std::array<signed char, 256>& base64_values() {
  static const std::array<signed char, 256> table = [] {
    std::array<signed char, 256> out{};
    out.fill(-1);
    const std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (std::size_t i = 0; i < alphabet.size(); ++i) out[static_cast<unsigned char>(alphabet[i])] = static_cast<signed char>(i);
    return out;
  }();
  return table;
}

bool newline(char c) { return c == '\n' || c == '\r'; }

}  // namespace

void validate_builtin(const ResourceInfo& info, const json& object, const json* existing,
                      std::vector<FieldError>* errors) {
  Errors out(errors);
  validate_metadata(info, member(object, "metadata"), out);
  if (!info.custom) validate_kind(info, object, existing, out);
}

void default_builtin(const ResourceInfo& info, json& object) {
  if (info.group != kRbacGroup || (info.resource != "rolebindings" && info.resource != "clusterrolebindings")) return;
  auto ref = object.find("roleRef");
  if (ref != object.end() && ref->is_object() && text_at(*ref, "apiGroup").empty()) (*ref)["apiGroup"] = kRbacGroup;
  auto subjects = object.find("subjects");
  if (subjects == object.end() || !subjects->is_array()) return;
  for (json& subject : *subjects) {
    if (!subject.is_object() || !text_at(subject, "apiGroup").empty()) continue;
    const std::string& kind = text_at(subject, "kind");
    if (kind == "User" || kind == "Group") subject["apiGroup"] = kRbacGroup;
  }
}

// Go's decodeQuantum, quantum by quantum: the offsets its CorruptInputError names.
std::string base64_error(std::string_view src) {
  const auto& values = base64_values();
  const auto corrupt = [](std::size_t at) { return fmt::format("illegal base64 data at input byte {}", at); };
  std::size_t si = 0;
  while (si < src.size()) {
    std::size_t j = 0;
    for (; j < 4; ++j) {
      if (si == src.size()) {
        if (j == 0) return {};
        return corrupt(si - j);  // StdEncoding pads: a short last quantum is corrupt
      }
      const char in = src[si++];
      if (values[static_cast<unsigned char>(in)] >= 0) continue;
      if (newline(in)) {
        --j;
        continue;
      }
      if (in != '=') return corrupt(si - 1);
      // Padding: the end of the input.
      if (j < 2) return corrupt(si - 1);
      if (j == 2) {
        while (si < src.size() && newline(src[si])) ++si;
        if (si == src.size()) return corrupt(src.size());
        if (src[si] != '=') return corrupt(si - 1);
        ++si;
      }
      while (si < src.size() && newline(src[si])) ++si;
      if (si < src.size()) return corrupt(si);
      return {};
    }
  }
  return {};
}

}  // namespace mkq::sandbox
