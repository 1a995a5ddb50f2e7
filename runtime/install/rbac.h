// The controller's permissions on the manager, least privilege first: what
// `mkq apply` reads and writes there for this policy, its own state and
// leases, and its Events. docs/controller.md explains each rule.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/install/manifests.h"

namespace mkq::install {

// One PolicyRule: apiGroups, resources, optional resourceNames, verbs.
struct Rule {
  std::string group;  // "" for the core group
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;  // empty: every object
  std::vector<std::string> verbs;
};

struct Permissions {
  std::vector<Rule> cluster;                             // a ClusterRole
  std::map<std::string, std::vector<Rule>> per_namespace;  // a Role in each namespace
};

// The rules for `options` (its manager objects, or every kind mkq renders),
// merged (one rule per group and verb set) and sorted, so that the same
// policy gives the same rules.
Permissions controller_permissions(const ManifestOptions& options);

// A rule as a PolicyRule document.
Json rule_document(const Rule& rule);

}  // namespace mkq::install
