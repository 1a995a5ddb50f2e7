// Services (services.h). The rules and their words are kube-apiserver
// v1.33's: pkg/apis/core/v1/defaults.go (SetDefaults_Service),
// pkg/registry/core/service/storage/alloc.go and storage.go (allocation,
// patchAllocatedValues), pkg/api/service/util (NormalizeClusterIPs),
// pkg/apis/core/validation (ValidateService, ValidateServiceUpdate) and
// pkg/printers/internalversion (printService).
#include "sandbox/services.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "sandbox/cel/formats.h"
#include "sandbox/json_access.h"
#include "sandbox/prepare.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// The pools: --service-cluster-ip-range=10.96.0.0/12, --service-node-port-range=30000-32767.
constexpr std::uint32_t kCidrBase = (10U << 24) | (96U << 16);
constexpr std::uint32_t kCidrSize = 1U << 20;
constexpr const char* kCidr = "10.96.0.0/12";
constexpr std::uint32_t kKubernetesIp = kCidrBase + 1;
constexpr int kNodePortMin = 30000;
constexpr int kNodePortMax = 32767;
// Dynamic allocation prefers the upper band of each pool, leaving the lower
// one to explicit requests (ServiceIPStaticSubrange, ServiceNodePortStaticSubrange):
// min(max(16, size/16), 256) addresses, min(max(16, size/16), 128) ports.
constexpr std::uint32_t kIpStaticBand = 256;
constexpr int kPortStaticBand = 128;

std::vector<std::string> strings_of(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const json& item : list) out.push_back(item.is_string() ? item.get<std::string>() : std::string());
  return out;
}

// []string{"a", "b"}: a string list as %#v prints it (a nil list: []string(nil)).
std::string go_strings(const std::vector<std::string>& list, bool nil = false) {
  if (nil && list.empty()) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < list.size(); ++i) out += (i == 0 ? "" : ", ") + go_value(json(list[i]));
  return out + "}";
}

FieldError invalid_error(std::string field, const std::string& value, const std::string& detail) {
  return {"FieldValueInvalid", std::move(field), fmt::format("Invalid value: {}: {}", value, detail)};
}
FieldError required_error(std::string field, const std::string& detail = {}) {
  return {"FieldValueRequired", std::move(field), detail.empty() ? "Required value" : "Required value: " + detail};
}
FieldError forbidden_error(std::string field, const std::string& detail) {
  return {"FieldValueForbidden", std::move(field), "Forbidden: " + detail};
}
FieldError not_supported_error(std::string field, const std::string& value, const std::vector<const char*>& supported) {
  std::string list;
  for (const char* s : supported) list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", s);
  return {"FieldValueNotSupported", std::move(field),
          fmt::format("Unsupported value: {}: supported values: {}", go_value(json(value)), list)};
}
FieldError duplicate_error(std::string field, const std::string& value) {
  return {"FieldValueDuplicate", std::move(field), "Duplicate value: " + value};
}

// ---- IPv4 ------------------------------------------------------------------

// A dotted IPv4 address as Go's net.ParseIP reads it; nullopt otherwise.
std::optional<std::uint32_t> parse_ipv4(const std::string& text) {
  std::uint32_t out = 0;
  int parts = 0;
  std::size_t i = 0;
  while (parts < 4) {
    if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    unsigned value = 0;
    std::size_t digits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      value = value * 10 + static_cast<unsigned>(text[i++] - '0');
      if (++digits > 3 || value > 255) return std::nullopt;
    }
    out = (out << 8) | value;
    if (++parts < 4) {
      if (i >= text.size() || text[i] != '.') return std::nullopt;
      ++i;
    }
  }
  return i == text.size() ? std::optional(out) : std::nullopt;
}

bool leading_zero(const std::string& text) {
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] == '0' && (i == 0 || text[i - 1] == '.') && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      return true;
    }
  }
  return false;
}

// An IPv6 address as far as telling the families apart needs it.
bool looks_ipv6(const std::string& text) { return text.find(':') != std::string::npos; }

std::string format_ipv4(std::uint32_t ip) {
  return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

// IsValidIP's messages for one address ("" none).
std::string ip_error(const std::string& text) {
  if (!parse_ipv4(text) && !looks_ipv6(text)) return "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  if (leading_zero(text)) return "must not have leading 0s";
  return {};
}

// FNV-1a: where the search for a free value starts, so that a name gets the same address run after run.
std::uint32_t spread(const std::string& text) {
  std::uint32_t hash = 2166136261U;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619U;
  }
  return hash;
}

// ---- what the other Services hold ------------------------------------------

struct Taken {
  std::set<std::uint32_t> ips;
  std::set<long long> node_ports;
};

Taken taken_by_others(const Store& store, const json& service) {
  Taken taken;
  const json& meta = member(service, "metadata");
  const std::string ns = text_at(meta, "namespace");
  const std::string name = text_at(meta, "name");
  for (const json& other : store.list("", "services", std::nullopt, "", 0)) {
    const json& other_meta = member(other, "metadata");
    if (text_at(other_meta, "namespace") == ns && text_at(other_meta, "name") == name) continue;
    const json& spec = member(other, "spec");
    for (const std::string& ip : strings_of(member(spec, "clusterIPs"))) {
      if (auto parsed = parse_ipv4(ip)) taken.ips.insert(*parsed);
    }
    const json& ports = member(spec, "ports");
    for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
      if (const long long port = integer_at(ports[i], "nodePort"); port != 0) taken.node_ports.insert(port);
    }
    if (const long long port = integer_at(spec, "healthCheckNodePort"); port != 0) taken.node_ports.insert(port);
  }
  return taken;
}

// An explicit clusterIP: "" when it can be had, else the allocator's refusal.
std::string claim_ip(const Taken& taken, const std::string& text) {
  const auto ip = parse_ipv4(text);
  if (!ip || *ip <= kCidrBase || *ip >= kCidrBase + kCidrSize - 1) {
    return fmt::format("the provided IP ({}) is not in the valid range. The range of valid IPs is {}", text, kCidr);
  }
  return taken.ips.count(*ip) != 0 ? "provided IP is already allocated" : "";
}

std::uint32_t next_ip(const Taken& taken, const std::string& seed) {
  const std::uint32_t dynamic = kCidrSize - 2 - kIpStaticBand;  // offsets kIpStaticBand+1 .. size-2
  const std::uint32_t start = spread(seed) % dynamic;
  for (std::uint32_t n = 0; n < dynamic; ++n) {
    const std::uint32_t ip = kCidrBase + kIpStaticBand + 1 + (start + n) % dynamic;
    if (taken.ips.count(ip) == 0) return ip;
  }
  return 0;  // a million Services: not a sandbox's concern
}

std::string claim_port(const Taken& taken, long long port) {
  if (port < kNodePortMin || port > kNodePortMax) {
    return fmt::format("provided port is not in the valid range. The range of valid ports is {}-{}", kNodePortMin,
                       kNodePortMax);
  }
  return taken.node_ports.count(port) != 0 ? "provided port is already allocated" : "";
}

long long next_port(Taken& taken, const std::string& seed) {
  const int dynamic = kNodePortMax - kNodePortMin + 1 - kPortStaticBand;
  const int start = static_cast<int>(spread(seed) % static_cast<std::uint32_t>(dynamic));
  for (int n = 0; n < dynamic; ++n) {
    const long long port = kNodePortMin + kPortStaticBand + (start + n) % dynamic;
    if (taken.node_ports.insert(port).second) return port;
  }
  return 0;
}

// ---- the fields around allocation -------------------------------------------

bool needs_node_ports(const json& spec) {
  const std::string type = text_at(spec, "type");
  return type == "NodePort" || type == "LoadBalancer";
}

bool is_headless(const json& spec) {
  const auto ips = strings_of(member(spec, "clusterIPs"));
  return text_at(spec, "clusterIP") == "None" || (!ips.empty() && ips[0] == "None");
}

bool needs_health_check(const json& spec) {
  return text_at(spec, "type") == "LoadBalancer" && text_at(spec, "externalTrafficPolicy") == "Local";
}

// patchAllocatedValues: an update that left out what was allocated keeps it.
void patch_allocated_values(json& spec, const json& old_spec) {
  if (text_at(old_spec, "type") != "ExternalName" && text_at(spec, "type") != "ExternalName") {
    if (text_at(spec, "clusterIP").empty() && member(old_spec, "clusterIP").is_string()) spec["clusterIP"] = old_spec["clusterIP"];
    if (strings_of(member(spec, "clusterIPs")).empty() && !strings_of(member(old_spec, "clusterIPs")).empty()) {
      spec["clusterIPs"] = old_spec["clusterIPs"];
    }
  }
  if (needs_node_ports(old_spec) && needs_node_ports(spec) && spec["ports"].is_array()) {
    std::set<long long> old_used, new_used;
    std::map<std::string, long long> by_name;
    const json& old_ports = member(old_spec, "ports");
    for (std::size_t i = 0; old_ports.is_array() && i < old_ports.size(); ++i) {
      if (const long long p = integer_at(old_ports[i], "nodePort"); p != 0) old_used.insert(p);
      by_name[text_at(old_ports[i], "name")] = integer_at(old_ports[i], "nodePort");
    }
    for (const json& port : spec["ports"]) {
      if (const long long p = integer_at(port, "nodePort"); p != 0) new_used.insert(p);
    }
    for (json& port : spec["ports"]) {
      if (!port.is_object() || integer_at(port, "nodePort") != 0) continue;
      const long long old_value = by_name.count(text_at(port, "name")) ? by_name[text_at(port, "name")] : 0;
      if (old_value != 0 && !(old_used.count(old_value) && new_used.count(old_value))) port["nodePort"] = old_value;
    }
  }
  if (needs_health_check(old_spec) && needs_health_check(spec) && integer_at(spec, "healthCheckNodePort") == 0 &&
      integer_at(old_spec, "healthCheckNodePort") != 0) {
    spec["healthCheckNodePort"] = old_spec["healthCheckNodePort"];
  }
}

// NormalizeClusterIPs: clusterIP and clusterIPs in step, whichever the client wrote.
void normalize_cluster_ips(json& spec, const json* old_spec) {
  const std::string ip = text_at(spec, "clusterIP");
  const auto ips = strings_of(member(spec, "clusterIPs"));
  if (old_spec == nullptr) {
    if (!ip.empty() && ips.empty()) spec["clusterIPs"] = json::array({ip});
    return;
  }
  const auto old_ips = strings_of(member(*old_spec, "clusterIPs"));
  const std::string old_ip = text_at(*old_spec, "clusterIP");
  if (!old_ips.empty() && ips.empty() && old_ip == ip) spec["clusterIPs"] = old_ips;
  if (old_ip != ip && strings_of(member(spec, "clusterIPs")) == old_ips) {
    if (!old_ip.empty() && ip.empty()) spec.erase("clusterIPs");
    else spec["clusterIPs"] = json::array({ip});
  }
}

// dropTypeDependentFields: a type change clears what the old type had allocated, if the client kept it as it was.
void drop_type_dependent_fields(json& spec, const json& old_spec) {
  if (text_at(spec, "type") == text_at(old_spec, "type")) return;
  if (text_at(spec, "type") == "ExternalName") {
    if (member(spec, "clusterIPs") == member(old_spec, "clusterIPs")) {
      spec.erase("clusterIP");
      spec.erase("clusterIPs");
    }
    if (member(spec, "ipFamilies") == member(old_spec, "ipFamilies")) spec.erase("ipFamilies");
    if (member(spec, "ipFamilyPolicy") == member(old_spec, "ipFamilyPolicy")) spec.erase("ipFamilyPolicy");
  }
  if (needs_node_ports(old_spec) && !needs_node_ports(spec) && spec["ports"].is_array()) {
    const json& old_ports = member(old_spec, "ports");
    for (json& port : spec["ports"]) {
      const long long p = integer_at(port, "nodePort");
      bool kept = false;
      for (std::size_t i = 0; old_ports.is_array() && i < old_ports.size(); ++i) kept = kept || integer_at(old_ports[i], "nodePort") == p;
      if (p != 0 && kept) port.erase("nodePort");
    }
  }
  if (!needs_health_check(spec) && member(spec, "healthCheckNodePort") == member(old_spec, "healthCheckNodePort")) {
    spec.erase("healthCheckNodePort");
  }
  if (text_at(spec, "type") != "LoadBalancer") spec.erase("allocateLoadBalancerNodePorts");
}

// ValidateServiceClusterIPsRelatedFields, the part a single-stack IPv4 cluster reaches.
std::vector<FieldError> cluster_ip_field_errors(const json& spec) {
  std::vector<FieldError> errors;
  const std::string ip = text_at(spec, "clusterIP");
  const auto ips = strings_of(member(spec, "clusterIPs"));
  const bool nil = !member(spec, "clusterIPs").is_array();
  if (!ip.empty()) {
    if (ips.empty()) errors.push_back(required_error("spec.clusterIPs"));
    else if (ips[0] != ip) errors.push_back(invalid_error("spec.clusterIPs", go_strings(ips), "first value must match `clusterIP`"));
  } else if (!ips.empty()) {
    errors.push_back(invalid_error("spec.clusterIPs", go_strings(ips, nil), "must be empty when `clusterIP` is not specified"));
  }
  const json& families = member(spec, "ipFamilies");
  std::set<std::string> seen;
  for (std::size_t i = 0; families.is_array() && i < families.size(); ++i) {
    const std::string family = families[i].is_string() ? families[i].get<std::string>() : std::string();
    const std::string at = fmt::format("spec.ipFamilies[{}]", i);
    if (family != "IPv4" && family != "IPv6") errors.push_back(not_supported_error(at, family, {"IPv4", "IPv6"}));
    if (!seen.insert(family).second) errors.push_back(duplicate_error(at, go_value(json(family))));
  }
  if (const json& policy = member(spec, "ipFamilyPolicy"); policy.is_string()) {
    const std::string value = policy.get<std::string>();
    if (value != "PreferDualStack" && value != "RequireDualStack" && value != "SingleStack") {
      errors.push_back(not_supported_error("spec.ipFamilyPolicy", value, {"PreferDualStack", "RequireDualStack", "SingleStack"}));
    }
  }
  bool bad_ips = false;
  for (std::size_t i = 0; i < ips.size(); ++i) {
    if (i == 0 && ips[i] == "None") {
      if (ips.size() > 1) {
        bad_ips = true;
        errors.push_back(invalid_error("spec.clusterIPs", go_strings(ips), "'None' must be the first and only value"));
      }
      continue;
    }
    if (const std::string message = ip_error(ips[i]); !message.empty()) {
      bad_ips = true;
      errors.push_back(invalid_error(fmt::format("spec.clusterIPs[{}]", i), go_value(json(ips[i])), message));
    }
  }
  if (ips.size() > 2) errors.push_back(invalid_error("spec.clusterIPs", go_strings(ips), "may only hold up to 2 values"));
  if (bad_ips) return errors;
  if (ips.size() > 1 && looks_ipv6(ips[0]) == looks_ipv6(ips[1])) {
    errors.push_back(invalid_error("spec.clusterIPs", go_strings(ips), "may specify no more than one IP for each IP family"));
  }
  if (!is_headless(spec) && families.is_array()) {
    for (std::size_t i = 0; i < ips.size() && i < families.size(); ++i) {
      if (families[i] == "IPv4" && looks_ipv6(ips[i])) {
        errors.push_back(invalid_error(fmt::format("spec.clusterIPs[{}]", i), go_value(json(ips[i])),
                                       fmt::format("expected an IPv4 value as indicated by `ipFamilies[{}]`", i)));
      }
      if (families[i] == "IPv6" && !looks_ipv6(ips[i])) {
        errors.push_back(invalid_error(fmt::format("spec.clusterIPs[{}]", i), go_value(json(ips[i])),
                                       fmt::format("expected an IPv6 value as indicated by `ipFamilies[{}]`", i)));
      }
    }
  }
  return errors;
}

// initIPFamilyFields on a cluster that serves IPv4 only.
std::vector<FieldError> init_ip_families(json& spec, const json* old_spec) {
  if (text_at(spec, "type") == "ExternalName") return {};
  if (!member(spec, "ipFamilyPolicy").is_string()) {
    if (old_spec != nullptr && member(*old_spec, "ipFamilyPolicy").is_string()) spec["ipFamilyPolicy"] = (*old_spec)["ipFamilyPolicy"];
    else if (is_headless(spec) && member(spec, "selector").empty()) spec["ipFamilyPolicy"] = "RequireDualStack";
    else spec["ipFamilyPolicy"] = "SingleStack";
  }
  if (auto errors = cluster_ip_field_errors(spec); !errors.empty()) return errors;
  std::vector<FieldError> errors;
  const std::string policy = spec["ipFamilyPolicy"].get<std::string>();
  const auto ips = strings_of(member(spec, "clusterIPs"));
  if (policy == "SingleStack") {
    if (ips.size() == 2) {
      errors.push_back(invalid_error("spec.ipFamilyPolicy", go_value(json(policy)),
                                     "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    }
    if (member(spec, "ipFamilies").size() == 2) {
      errors.push_back(invalid_error("spec.ipFamilyPolicy", go_value(json(policy)),
                                     "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
  }
  json families = member(spec, "ipFamilies").is_array() ? spec["ipFamilies"] : json::array();
  for (std::size_t i = 0; i < ips.size() && ips[i] != "None"; ++i) {
    if (i < families.size()) continue;
    if (looks_ipv6(ips[i])) errors.push_back(invalid_error(fmt::format("spec.clusterIPs[{}]", i), go_strings(ips), "IPv6 is not configured on this cluster"));
    else families.push_back("IPv4");
  }
  if (!errors.empty()) return errors;
  if (is_headless(spec) && member(spec, "selector").empty()) {  // headless and selectorless: both families allowed
    if (families.empty()) families.push_back("IPv4");
    if (families.size() < 2 && policy != "SingleStack") families.push_back(families[0] == "IPv4" ? "IPv6" : "IPv4");
    spec["ipFamilies"] = families;
    return {};
  }
  if (policy == "RequireDualStack") {
    errors.push_back(invalid_error("spec.ipFamilyPolicy", go_value(json(policy)), "this cluster is not configured for dual-stack services"));
  }
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (families[i] != "IPv4") errors.push_back(invalid_error(fmt::format("spec.ipFamilies[{}]", i), go_value(families[i]), "not configured on this cluster"));
  }
  if (!errors.empty()) return errors;
  if (families.empty()) families.push_back("IPv4");
  spec["ipFamilies"] = families;
  return {};
}

std::string seed_of(const json& service) {
  const json& meta = member(service, "metadata");
  return text_at(meta, "namespace") + "/" + text_at(meta, "name");
}

std::vector<FieldError> allocate_cluster_ip(json& spec, const Taken& taken, const std::string& seed) {
  if (text_at(spec, "type") == "ExternalName" || is_headless(spec)) return {};
  auto ips = strings_of(member(spec, "clusterIPs"));
  if (ips.empty()) ips.emplace_back();
  if (ips[0].empty()) {
    ips[0] = format_ipv4(next_ip(taken, seed));
  } else if (const std::string refusal = claim_ip(taken, ips[0]); !refusal.empty()) {
    return {invalid_error("spec.clusterIPs", go_strings(ips), fmt::format("failed to allocate IP {}: {}", ips[0], refusal))};
  }
  spec["clusterIPs"] = ips;
  spec["clusterIP"] = ips[0];
  return {};
}

// initNodePorts/updateNodePorts: every port of a NodePort or LoadBalancer
// Service gets one (the same for a port number served over two protocols);
// `old_ports`: the numbers the Service held before (kept without a check).
std::vector<FieldError> allocate_node_ports(json& spec, Taken& taken, const std::string& seed,
                                            const std::set<long long>& old_ports) {
  if (!needs_node_ports(spec) || !spec["ports"].is_array()) return {};
  const bool allocate = text_at(spec, "type") != "LoadBalancer" || member(spec, "allocateLoadBalancerNodePorts") != false;
  std::map<long long, long long> by_port;
  std::set<long long> claimed;
  json& ports = spec["ports"];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    json& port = ports[i];
    long long node_port = integer_at(port, "nodePort");
    if (node_port == 0 && !allocate) continue;
    if (node_port == 0 && by_port.count(integer_at(port, "port"))) node_port = by_port[integer_at(port, "port")];
    if (node_port == 0) {
      node_port = next_port(taken, seed + "/" + std::to_string(i));
    } else if (old_ports.count(node_port) == 0 && claimed.count(node_port) == 0) {
      if (const std::string refusal = claim_port(taken, node_port); !refusal.empty()) {
        return {invalid_error(fmt::format("spec.ports[{}].nodePort", i), std::to_string(node_port), refusal)};
      }
      taken.node_ports.insert(node_port);
    }
    claimed.insert(node_port);
    port["nodePort"] = node_port;
    by_port.emplace(integer_at(port, "port"), node_port);
  }
  if (needs_health_check(spec) && integer_at(spec, "healthCheckNodePort") == 0) {
    spec["healthCheckNodePort"] = next_port(taken, seed + "/health");
  }
  return {};
}

// ---- validation ------------------------------------------------------------

// IsValidPortName's messages.
std::vector<std::string> port_name_errors(const std::string& name) {
  std::vector<std::string> out;
  if (name.size() > 15) out.emplace_back("must be no more than 15 characters");
  bool letter = false;
  bool allowed = true;
  for (char c : name) {
    letter = letter || (c >= 'a' && c <= 'z');
    allowed = allowed && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  }
  if (!allowed) out.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (allowed && !letter) out.emplace_back("must contain at least one letter (a-z)");
  if (name.find("--") != std::string::npos) out.emplace_back("must not contain consecutive hyphens");
  if (!name.empty() && (name.front() == '-' || name.back() == '-')) out.emplace_back("must not begin or end with a hyphen");
  return out;
}

constexpr const char* kPortRange = "must be between 1 and 65535, inclusive";

void validate_port(const json& port, bool require_name, std::set<std::string>& names, const std::string& at,
                   std::vector<FieldError>& errors) {
  const std::string name = text_at(port, "name");
  if (require_name && name.empty()) {
    errors.push_back(required_error(at + ".name"));
  } else if (!name.empty()) {
    for (const std::string& m : cel::dns1123_label_errors(name)) errors.push_back(invalid_error(at + ".name", go_value(json(name)), m));
    if (!names.insert(name).second) errors.push_back(duplicate_error(at + ".name", go_value(json(name))));
  }
  const long long number = integer_at(port, "port");
  if (number < 1 || number > 65535) errors.push_back(invalid_error(at + ".port", std::to_string(number), kPortRange));
  const std::string protocol = text_at(port, "protocol");
  if (protocol.empty()) errors.push_back(required_error(at + ".protocol"));
  else if (protocol != "TCP" && protocol != "UDP" && protocol != "SCTP") {
    errors.push_back(not_supported_error(at + ".protocol", protocol, {"SCTP", "TCP", "UDP"}));
  }
  const json& target = member(port, "targetPort");
  if (target.is_number_integer()) {
    const long long value = target.get<long long>();
    if (value < 1 || value > 65535) errors.push_back(invalid_error(at + ".targetPort", std::to_string(value), kPortRange));
  } else if (target.is_string()) {
    const std::string value = target.get<std::string>();
    for (const std::string& m : port_name_errors(value)) errors.push_back(invalid_error(at + ".targetPort", go_value(json(value)), m));
  }
  if (const json& app = member(port, "appProtocol"); app.is_string()) {
    for (const std::string& m : cel::qualified_name_errors(app.get<std::string>())) {
      errors.push_back(invalid_error(at + ".appProtocol", go_value(app), m));
    }
  }
}

// The key of the duplicate-port check, as %#v prints a core.ServicePort holding only protocol and port.
std::string go_port_key(const std::string& protocol, long long port) {
  return fmt::format("core.ServicePort{{Name:\"\", Protocol:{}, AppProtocol:(*string)(nil), Port:{}, "
                     "TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}",
                     go_value(json(protocol)), port);
}

void validate_type_rules(const json& spec, std::vector<FieldError>& errors) {
  const std::string type = text_at(spec, "type");
  const auto ips = strings_of(member(spec, "clusterIPs"));
  const json& ports = member(spec, "ports");
  if (type == "LoadBalancer") {
    if (is_headless(spec) && !ips.empty()) {
      errors.push_back(invalid_error("spec.clusterIPs[0]", go_value(json(ips[0])), "may not be set to 'None' for LoadBalancer services"));
    }
    for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
      if (integer_at(ports[i], "port") == 10250) {
        errors.push_back({"FieldValueInvalid", fmt::format("spec.ports[{}]", i),
                          "Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet"});
      }
    }
  } else if (type == "NodePort") {
    if (is_headless(spec) && !ips.empty()) {
      errors.push_back(invalid_error("spec.clusterIPs[0]", go_value(json(ips[0])), "may not be set to 'None' for NodePort services"));
    }
  } else if (type == "ExternalName") {
    if (!ips.empty()) errors.push_back(forbidden_error("spec.clusterIPs", "may not be set for ExternalName services"));
    if (!member(spec, "ipFamilies").empty()) errors.push_back(forbidden_error("spec.ipFamilies", "may not be set for ExternalName services"));
    if (member(spec, "ipFamilyPolicy").is_string()) errors.push_back(forbidden_error("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    std::string name = text_at(spec, "externalName");
    if (!name.empty() && name.back() == '.') name.pop_back();
    if (name.empty()) {
      errors.push_back(required_error("spec.externalName"));
    } else {
      for (const std::string& m : cel::dns1123_subdomain_errors(name)) {
        errors.push_back(invalid_error("spec.externalName", go_value(json(name)), m));
      }
    }
  }
}

}  // namespace

void default_service(json& service) {
  if (!service["spec"].is_object()) service["spec"] = json::object();
  json& spec = service["spec"];
  if (text_at(spec, "sessionAffinity").empty()) spec["sessionAffinity"] = "None";
  if (spec["sessionAffinity"] == "None") spec.erase("sessionAffinityConfig");
  if (spec["sessionAffinity"] == "ClientIP" && !member(member(member(spec, "sessionAffinityConfig"), "clientIP"), "timeoutSeconds").is_number()) {
    spec["sessionAffinityConfig"] = {{"clientIP", {{"timeoutSeconds", 10800}}}};
  }
  if (text_at(spec, "type").empty()) spec["type"] = "ClusterIP";
  if (spec.contains("ports") && spec["ports"].is_array()) {
    for (json& port : spec["ports"]) {
      if (!port.is_object()) continue;
      if (text_at(port, "protocol").empty()) port["protocol"] = "TCP";
      const json& target = member(port, "targetPort");
      if (target.is_null() || target == 0 || target == "") port["targetPort"] = member(port, "port").is_number() ? port["port"] : json(0);
    }
  }
  const std::string type = text_at(spec, "type");
  const bool external = type == "LoadBalancer" || type == "NodePort" || (type == "ClusterIP" && !member(spec, "externalIPs").empty());
  if (external && text_at(spec, "externalTrafficPolicy").empty()) spec["externalTrafficPolicy"] = "Cluster";
  if (!member(spec, "internalTrafficPolicy").is_string() && (type == "ClusterIP" || type == "NodePort" || type == "LoadBalancer")) {
    spec["internalTrafficPolicy"] = "Cluster";
  }
  if (type == "LoadBalancer" && !member(spec, "allocateLoadBalancerNodePorts").is_boolean()) spec["allocateLoadBalancerNodePorts"] = true;
}

std::vector<FieldError> allocate_service(const Store& store, json& service, const json* existing) {
  json& spec = service["spec"];
  const json* old_spec = existing != nullptr ? &member(*existing, "spec") : nullptr;
  if (old_spec != nullptr) {
    patch_allocated_values(spec, *old_spec);
    drop_type_dependent_fields(spec, *old_spec);
  }
  normalize_cluster_ips(spec, old_spec);
  if (auto errors = init_ip_families(spec, old_spec); !errors.empty()) return errors;
  Taken taken = taken_by_others(store, service);
  const std::string seed = seed_of(service);
  // An update allocates an address only when the type leaves ExternalName.
  const bool from_external = old_spec != nullptr && text_at(*old_spec, "type") == "ExternalName";
  if (old_spec == nullptr || from_external) {
    if (auto errors = allocate_cluster_ip(spec, taken, seed); !errors.empty()) return errors;
  }
  std::set<long long> old_ports;
  if (old_spec != nullptr && needs_node_ports(*old_spec)) {
    const json& ports = member(*old_spec, "ports");
    for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) old_ports.insert(integer_at(ports[i], "nodePort"));
  }
  return allocate_node_ports(spec, taken, seed, old_ports);
}

std::vector<FieldError> validate_service(const json& service, const json* existing) {
  std::vector<FieldError> errors;
  const json& spec = member(service, "spec");
  const std::string type = text_at(spec, "type");
  if (existing != nullptr) {  // validateUpgradeDowngradeClusterIPs: the primary address stays
    const json& old_spec = member(*existing, "spec");
    const auto old_ips = strings_of(member(old_spec, "clusterIPs"));
    const auto ips = strings_of(member(spec, "clusterIPs"));
    const bool external = type == "ExternalName" || text_at(old_spec, "type") == "ExternalName";
    if (!external && !(is_headless(old_spec) && is_headless(spec)) && !old_ips.empty()) {
      if (ips.empty()) errors.push_back(invalid_error("spec.clusterIPs[0]", go_strings(ips, true), "primary clusterIP can not be unset"));
      else if (ips[0] != old_ips[0]) errors.push_back(invalid_error("spec.clusterIPs[0]", go_strings(ips), "may not change once set"));
    }
  }
  const json& ports = member(spec, "ports");
  if (ports.empty() && !is_headless(spec) && type != "ExternalName") errors.push_back(required_error("spec.ports"));
  validate_type_rules(spec, errors);
  std::set<std::string> names;
  for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
    validate_port(ports[i], ports.size() > 1, names, fmt::format("spec.ports[{}]", i), errors);
  }
  const json& selector = member(spec, "selector");
  if (selector.is_object()) {
    for (const auto& [key, value] : selector.items()) {
      for (const std::string& m : cel::qualified_name_errors(key)) errors.push_back(invalid_error("spec.selector", go_value(json(key)), m));
      const std::string text = value.is_string() ? value.get<std::string>() : std::string();
      for (const std::string& m : cel::validate_format("labelValue", text)) errors.push_back(invalid_error("spec.selector", go_value(json(text)), m));
    }
  }
  const std::string affinity = text_at(spec, "sessionAffinity");
  if (affinity.empty()) errors.push_back(required_error("spec.sessionAffinity"));
  else if (affinity != "ClientIP" && affinity != "None") errors.push_back(not_supported_error("spec.sessionAffinity", affinity, {"ClientIP", "None"}));
  if (affinity == "ClientIP") {
    const json& timeout = member(member(member(spec, "sessionAffinityConfig"), "clientIP"), "timeoutSeconds");
    const long long seconds = timeout.is_number_integer() ? timeout.get<long long>() : 0;
    if (seconds <= 0 || seconds > 86400) {
      errors.push_back(invalid_error("spec.sessionAffinityConfig.clientIP.timeoutSeconds", std::to_string(seconds),
                                     "must be greater than 0 and less than 86400"));
    }
  } else if (affinity == "None" && member(spec, "sessionAffinityConfig").is_object()) {
    errors.push_back(forbidden_error("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
  }
  const auto cluster_ip_errors = cluster_ip_field_errors(spec);
  errors.insert(errors.end(), cluster_ip_errors.begin(), cluster_ip_errors.end());
  const auto external_ips = strings_of(member(spec, "externalIPs"));
  for (std::size_t i = 0; i < external_ips.size(); ++i) {
    if (const std::string m = ip_error(external_ips[i]); !m.empty()) {
      errors.push_back(invalid_error(fmt::format("spec.externalIPs[{}]", i), go_value(json(external_ips[i])), m));
    }
  }
  if (type.empty()) errors.push_back(required_error("spec.type"));
  else if (type != "ClusterIP" && type != "ExternalName" && type != "LoadBalancer" && type != "NodePort") {
    errors.push_back(not_supported_error("spec.type", type, {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}));
  }
  std::set<std::pair<std::string, long long>> node_ports, seen_ports;
  for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
    const long long node_port = integer_at(ports[i], "nodePort");
    if (type == "ClusterIP" && node_port != 0) {
      errors.push_back(forbidden_error(fmt::format("spec.ports[{}].nodePort", i), "may not be used when `type` is 'ClusterIP'"));
    }
  }
  for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
    const long long node_port = integer_at(ports[i], "nodePort");
    if (node_port != 0 && !node_ports.insert({text_at(ports[i], "protocol"), node_port}).second) {
      errors.push_back(duplicate_error(fmt::format("spec.ports[{}].nodePort", i), std::to_string(node_port)));
    }
  }
  for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
    const std::string protocol = text_at(ports[i], "protocol");
    const long long port = integer_at(ports[i], "port");
    if (!seen_ports.insert({protocol, port}).second) errors.push_back(duplicate_error(fmt::format("spec.ports[{}]", i), go_port_key(protocol, port)));
  }
  if (const json& policy = member(spec, "internalTrafficPolicy"); policy.is_string() && policy != "Cluster" && policy != "Local") {
    errors.push_back(not_supported_error("spec.internalTrafficPolicy", policy.get<std::string>(), {"Cluster", "Local"}));
  }
  if (const json& policy = member(spec, "externalTrafficPolicy"); policy.is_string() && policy != "Cluster" && policy != "Local") {
    errors.push_back(not_supported_error("spec.externalTrafficPolicy", policy.get<std::string>(), {"Cluster", "Local"}));
  }
  return errors;
}

void install_kubernetes_service(ClusterState& state) {
  const ObjectKey key{"", "services", "default", "kubernetes"};
  const ResourceInfo* info = state.registry.find("", "v1", "services");
  if (info == nullptr || state.store->exists(key)) return;
  json service = {{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata",
                   {{"name", "kubernetes"},
                    {"namespace", "default"},
                    {"labels", {{"component", "apiserver"}, {"provider", "kubernetes"}}}}},
                  {"spec",
                   {{"clusterIP", format_ipv4(kKubernetesIp)},
                    {"clusterIPs", {format_ipv4(kKubernetesIp)}},
                    {"ipFamilies", {"IPv4"}},
                    {"ipFamilyPolicy", "SingleStack"},
                    {"ports", {{{"name", "https"}, {"port", 443}, {"protocol", "TCP"}, {"targetPort", 6443}}}}}},
                  {"status", {{"loadBalancer", json::object()}}}};
  prepare_new(state, *info, service);
  normalise(*info, service);
  state.store->put(key, service, "ADDED");
}

json service_columns() {
  const auto column = [](const char* name, const char* description, int priority = 0, const char* format = "") {
    return json{{"name", name}, {"type", "string"}, {"format", format}, {"description", description}, {"priority", priority}};
  };
  return json::array(
      {column("Name", "Name must be unique within a namespace.", 0, "name"),
       column("Type", "type determines how the Service is exposed. Defaults to ClusterIP."),
       column("Cluster-IP", "clusterIP is the IP address of the service and is usually assigned randomly."),
       column("External-IP", "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service."),
       column("Port(s)", "The list of ports that are exposed by this service."),
       column("Age", "CreationTimestamp is a timestamp representing the server time when this object was created."),
       column("Selector", "Route service traffic to pods with label keys and values matching this selector.", 1)});
}

json service_cells(const json& service, std::time_t now) {
  const json& spec = member(service, "spec");
  const std::string type = text_at(spec, "type");
  const auto ips = strings_of(member(spec, "clusterIPs"));
  const auto external_ips = strings_of(member(spec, "externalIPs"));
  const auto join = [](const std::vector<std::string>& list) {
    std::string out;
    for (const std::string& item : list) out += (out.empty() ? "" : ",") + item;
    return out;
  };
  std::string external = "<unknown>";
  if (type == "ClusterIP" || type == "NodePort") {
    external = external_ips.empty() ? "<none>" : join(external_ips);
  } else if (type == "LoadBalancer") {
    std::vector<std::string> addresses;
    const json& ingress = member(member(member(service, "status"), "loadBalancer"), "ingress");
    for (std::size_t i = 0; ingress.is_array() && i < ingress.size(); ++i) {
      const std::string ip = text_at(ingress[i], "ip");
      addresses.push_back(ip.empty() ? text_at(ingress[i], "hostname") : ip);
    }
    addresses.insert(addresses.end(), external_ips.begin(), external_ips.end());
    external = addresses.empty() ? "<pending>" : join(addresses);
  } else if (type == "ExternalName") {
    external = text_at(spec, "externalName");
  }
  std::vector<std::string> pieces;
  const json& ports = member(spec, "ports");
  for (std::size_t i = 0; ports.is_array() && i < ports.size(); ++i) {
    const long long node_port = integer_at(ports[i], "nodePort");
    pieces.push_back(node_port > 0 ? fmt::format("{}:{}/{}", integer_at(ports[i], "port"), node_port, text_at(ports[i], "protocol"))
                                   : fmt::format("{}/{}", integer_at(ports[i], "port"), text_at(ports[i], "protocol")));
  }
  std::string selector;
  if (const json& labels = member(spec, "selector"); labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {
      selector += fmt::format("{}{}={}", selector.empty() ? "" : ",", key, value.is_string() ? value.get<std::string>() : "");
    }
  }
  const long long created = parse_timestamp(text_at(member(service, "metadata"), "creationTimestamp"));
  return {text_at(member(service, "metadata"), "name"),
          type,
          ips.empty() ? "<none>" : ips[0],
          external,
          pieces.empty() ? "<none>" : join(pieces),
          created < 0 ? std::string("<unknown>") : human_duration(static_cast<long long>(now) - created),
          selector.empty() ? "<none>" : selector};
}

}  // namespace mkq::sandbox
