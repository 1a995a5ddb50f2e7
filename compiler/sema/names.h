// Kubernetes name formats, as the API server and Kueue's CRDs check them.
//
// Each check returns nullopt when `text` is valid, else the rule it breaks,
// worded to follow "'X' is not a valid name: " in a diagnostic, e.g.
// "a DNS-1123 label must be no more than 63 characters".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mkq::sema {

// Object names (ClusterQueue, ResourceFlavor, ...): lower case alphanumerics,
// '-' and '.', each dot-separated part starting and ending alphanumeric; ≤ 253.
std::optional<std::string> dns1123_subdomain_error(std::string_view text);

// Namespaces, the MultiKueueConfig name: lower case alphanumerics and '-',
// starting and ending alphanumeric; ≤ 63.
std::optional<std::string> dns1123_label_error(std::string_view text);

// Label keys and resource names (a "qualified name"): an optional DNS-1123
// subdomain prefix and '/', then a name of ≤ 63 alphanumerics, '-', '_', '.',
// starting and ending alphanumeric.
std::optional<std::string> label_key_error(std::string_view text);

// Label values: empty, or ≤ 63 alphanumerics, '-', '_', '.', starting and
// ending alphanumeric.
std::optional<std::string> label_value_error(std::string_view text);

// Kueue's external framework names: "Kind.version.group", e.g.
// "RayJob.v1.ray.io" (a kind, a version and a group of at least one part).
std::optional<std::string> framework_name_error(std::string_view text);

// The name of an `integration`: Kueue's name of a framework, "GROUP/KIND"
// ("batch/job", "kubeflow.org/pytorchjob") or a lower-case "KIND" ("pod"), or
// an external framework's "Kind.version.group".
std::optional<std::string> integration_name_error(std::string_view text);
// True for a well-formed name in the external "Kind.version.group" form.
bool is_external_framework_name(std::string_view text);

// An API resource in an RBAC rule: a plural name ("jobs"), optionally with a
// subresource ("jobs/status"), each a DNS-1123 label.
std::optional<std::string> api_resource_error(std::string_view text);

}  // namespace mkq::sema
