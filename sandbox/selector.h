// Label and field selectors of list and watch requests, as kube-apiserver
// parses them: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
// comma-separated (all must hold); field selectors on metadata.name and
// metadata.namespace with =, == and !=, and on the field labels a kind adds
// (a Pod's spec.nodeName and status.phase, ...: nodes_pods.h).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/resources.h"

namespace mkq::sandbox {

struct Requirement {
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
  std::string key;
  Op op = Op::Equals;
  std::vector<std::string> values;
};

struct Selector {
  std::vector<Requirement> labels;
  std::vector<Requirement> fields;  // keys metadata.name / metadata.namespace / the kind's field labels
  bool matches(const nlohmann::json& object) const;
};

// Parses ?labelSelector and ?fieldSelector of a request for `info`'s kind;
// *error and nullopt when either is malformed or names a field label the kind does not have.
std::optional<Selector> parse_selector(const std::string& label_selector, const std::string& field_selector,
                                       const ResourceInfo& info, std::string* error);

}  // namespace mkq::sandbox
