// Kubernetes name formats (see names.h). Hand-written scanners rather than
// regular expressions: the rules are short and this keeps the messages exact.
#include "compiler/sema/names.h"

#include <string>

#include <fmt/format.h>

#include "compiler/facts/kueue.h"

namespace mkq::sema {
namespace {

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_alnum(char c) { return is_lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_label_part(std::string_view part) {
  if (part.empty() || !is_lower_alnum(part.front()) || !is_lower_alnum(part.back())) return false;
  for (const char c : part) {
    if (!is_lower_alnum(c) && c != '-') return false;
  }
  return true;
}

bool is_subdomain(std::string_view text) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    const std::string_view part = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!is_label_part(part)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool is_qualified_name_part(std::string_view part) {
  if (part.empty() || !is_alnum(part.front()) || !is_alnum(part.back())) return false;
  for (const char c : part) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

constexpr const char* kSubdomainRule =
    "a DNS-1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
    "with an alphanumeric character";
constexpr const char* kNamePartRule =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

constexpr std::size_t kSubdomainMax = facts::kMaxDns1123SubdomainLength;
constexpr std::size_t kLabelMax = facts::kMaxDns1123LabelLength;  // also a qualified name's name part

std::string too_long(std::string_view what, std::size_t limit) {
  return fmt::format("{} must be no more than {} characters", what, limit);
}

}  // namespace

std::optional<std::string> dns1123_subdomain_error(std::string_view text) {
  if (text.empty()) return std::string("a DNS-1123 subdomain must not be empty");
  if (text.size() > kSubdomainMax) return too_long("a DNS-1123 subdomain", kSubdomainMax);
  if (!is_subdomain(text)) return std::string(kSubdomainRule);
  return std::nullopt;
}

std::optional<std::string> dns1123_label_error(std::string_view text) {
  if (text.empty()) return std::string("a DNS-1123 label must not be empty");
  if (text.size() > kLabelMax) return too_long("a DNS-1123 label", kLabelMax);
  if (!is_label_part(text)) {
    return std::string(
        "a DNS-1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an "
        "alphanumeric character");
  }
  return std::nullopt;
}

std::optional<std::string> label_key_error(std::string_view text) {
  std::string_view name = text;
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    if (text.find('/', slash + 1) != std::string_view::npos) {
      return std::string("a qualified name has at most one '/': an optional DNS-1123 subdomain prefix, then a name");
    }
    const std::string_view prefix = text.substr(0, slash);
    if (prefix.empty()) return std::string("the prefix before '/' must not be empty");
    if (prefix.size() > kSubdomainMax) return too_long("the prefix before '/'", kSubdomainMax);
    if (!is_subdomain(prefix)) return "the prefix before '/' is not valid: " + std::string(kSubdomainRule);
    name = text.substr(slash + 1);
  }
  if (name.empty()) return std::string("the name part must not be empty");
  if (name.size() > kLabelMax) return too_long("the name part", kLabelMax);
  if (!is_qualified_name_part(name)) return "the name part " + std::string(kNamePartRule);
  return std::nullopt;
}

std::optional<std::string> label_value_error(std::string_view text) {
  if (text.empty()) return std::nullopt;
  if (text.size() > facts::kMaxLabelValueLength) return too_long("a label value", facts::kMaxLabelValueLength);
  if (!is_qualified_name_part(text)) return "a label value must be empty or " + std::string(kNamePartRule);
  return std::nullopt;
}

std::optional<std::string> framework_name_error(std::string_view text) {
  constexpr const char* kRule =
      "an external framework must be in 'Kind.version.group' format, e.g. 'RayJob.v1.ray.io'";
  const std::size_t first = text.find('.');
  if (first == std::string_view::npos || first == 0) return std::string(kRule);
  const std::size_t second = text.find('.', first + 1);
  if (second == std::string_view::npos || second == first + 1) return std::string(kRule);
  const std::string_view kind = text.substr(0, first);
  const std::string_view version = text.substr(first + 1, second - first - 1);
  const std::string_view group = text.substr(second + 1);
  const bool kind_starts_with_letter = (kind.front() >= 'A' && kind.front() <= 'Z') || (kind.front() >= 'a' && kind.front() <= 'z');
  if (!kind_starts_with_letter) return std::string(kRule);
  for (const char c : kind) {
    if (!is_alnum(c)) return std::string(kRule);
  }
  if (!is_label_part(version) || !is_subdomain(group)) return std::string(kRule);
  return std::nullopt;
}

std::optional<std::string> integration_name_error(std::string_view text) {
  constexpr const char* kRule =
      "an integration is named as Kueue names a framework, 'GROUP/KIND' ('batch/job') or a lower-case 'KIND' "
      "('pod'), or 'Kind.version.group' for an external framework ('RayJob.v1.ray.io')";
  if (text.size() > kSubdomainMax) return too_long("an integration name", kSubdomainMax);
  const std::size_t slash = text.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view group = text.substr(0, slash);
    const std::string_view kind = text.substr(slash + 1);
    if (!is_subdomain(group) || !is_label_part(kind)) return std::string(kRule);
    return std::nullopt;
  }
  if (text.find('.') != std::string_view::npos) {
    if (framework_name_error(text)) return std::string(kRule);
    return std::nullopt;
  }
  if (!is_label_part(text)) return std::string(kRule);
  return std::nullopt;
}

bool is_external_framework_name(std::string_view text) {
  return text.find('/') == std::string_view::npos && !framework_name_error(text);
}

std::optional<std::string> api_resource_error(std::string_view text) {
  constexpr const char* kRule =
      "an API resource is a lower-case plural name ('jobs'), optionally with a subresource ('jobs/status'), each "
      "a DNS-1123 label";
  if (text.size() > kSubdomainMax) return too_long("an API resource", kSubdomainMax);
  const std::size_t slash = text.find('/');
  const std::string_view plural = text.substr(0, slash);
  const std::string_view subresource = slash == std::string_view::npos ? "" : text.substr(slash + 1);
  if (plural.size() > kLabelMax || subresource.size() > kLabelMax) {
    return too_long("each part of an API resource", kLabelMax);
  }
  if (!is_label_part(plural)) return std::string(kRule);
  if (slash == std::string_view::npos) return std::nullopt;
  if (!is_label_part(subresource)) return std::string(kRule);
  return std::nullopt;
}

}  // namespace mkq::sema
