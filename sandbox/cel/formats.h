// Kubernetes' name formats (k8s.io/apimachinery's validation helpers), as the
// CEL `format` library exposes them -- `format.dns1123Label().validate(s)` --
// and as the sandbox checks object names: each returns the messages
// kube-apiserver gives, empty when the value is valid.
#pragma once

#include <string>
#include <vector>

namespace mkq::sandbox::cel {

// dns1123Label, dns1123Subdomain, dns1035Label, qualifiedName, labelValue.
bool is_named_format(const std::string& name);
// The errors of `value` under the named format (is_named_format(name) holds).
std::vector<std::string> validate_format(const std::string& name, const std::string& value);

std::vector<std::string> dns1123_label_errors(const std::string& value);
std::vector<std::string> dns1123_subdomain_errors(const std::string& value);
std::vector<std::string> qualified_name_errors(const std::string& value);

}  // namespace mkq::sandbox::cel
