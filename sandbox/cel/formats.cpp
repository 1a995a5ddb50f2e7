// Kubernetes' name formats (formats.h). The messages are apimachinery's.
#include "sandbox/cel/formats.h"

#include <cctype>

#include <fmt/format.h>

namespace mkq::sandbox::cel {
namespace {

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool is_label(const std::string& s) {
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  for (const char c : s) {
    if (!lower_alnum(c) && c != '-') return false;
  }
  return true;
}

// label(\.label)*
bool is_subdomain(const std::string& s) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    if (!is_label(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool is_qualified_part(const std::string& s) {
  if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
  for (const char c : s) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

std::string max_length(std::size_t n) { return fmt::format("must be no more than {} characters", n); }

const char* const kLabelMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const char* const kSubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const char* const kQualifiedPart =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
    "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

}  // namespace

std::vector<std::string> dns1123_label_errors(const std::string& value) {
  std::vector<std::string> errors;
  if (value.size() > 63) errors.push_back(max_length(63));
  // A valid subdomain that is not a label has dots (its length was checked above).
  if (!is_label(value)) errors.emplace_back(is_subdomain(value) ? "must not contain dots" : kLabelMessage);
  return errors;
}

std::vector<std::string> dns1123_subdomain_errors(const std::string& value) {
  std::vector<std::string> errors;
  if (value.size() > 253) errors.push_back(max_length(253));
  if (!is_subdomain(value)) errors.emplace_back(kSubdomainMessage);
  return errors;
}

std::vector<std::string> qualified_name_errors(const std::string& value) {
  std::vector<std::string> errors;
  const std::size_t slash = value.find('/');
  std::string name = value;
  if (slash != std::string::npos) {
    if (value.find('/', slash + 1) != std::string::npos) {
      return {std::string("a qualified name ") + kQualifiedPart +
              " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
    }
    const std::string prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errors.emplace_back("prefix part must be non-empty");
    } else {
      for (const std::string& e : dns1123_subdomain_errors(prefix)) errors.push_back("prefix part " + e);
    }
  }
  if (name.empty()) {
    errors.emplace_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errors.push_back("name part " + max_length(63));
  }
  if (!name.empty() && !is_qualified_part(name)) errors.push_back(std::string("name part ") + kQualifiedPart);
  return errors;
}

bool is_named_format(const std::string& name) {
  return name == "dns1123Label" || name == "dns1123Subdomain" || name == "dns1035Label" || name == "qualifiedName" ||
         name == "labelValue";
}

std::vector<std::string> validate_format(const std::string& name, const std::string& value) {
  if (name == "dns1123Label") return dns1123_label_errors(value);
  if (name == "dns1123Subdomain") return dns1123_subdomain_errors(value);
  if (name == "qualifiedName") return qualified_name_errors(value);
  std::vector<std::string> errors;
  if (name == "dns1035Label") {
    if (value.size() > 63) errors.push_back(max_length(63));
    if (!is_label(value) || !(value.front() >= 'a' && value.front() <= 'z')) {
      errors.emplace_back(
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
          "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
          "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
    }
  } else if (name == "labelValue") {
    if (value.size() > 63) errors.push_back(max_length(63));
    if (!value.empty() && !is_qualified_part(value)) {
      errors.emplace_back(
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
          "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
          "for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
    }
  }
  return errors;
}

}  // namespace mkq::sandbox::cel
