// The served resources: the built-in kinds and those of the CRDs created in
// the cluster. A CRD serves every version marked served, with its scope,
// names, categories, status subresource, printer columns and schema; deleting
// it stops serving them.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mkq::sandbox {

class CrdRules;

struct PrinterColumn {
  std::string name;
  std::string type;  // string, integer, number, boolean, date
  std::string format;
  std::string description;
  std::string json_path;
  int priority = 0;
};

struct ResourceInfo {
  std::string group;  // "" for core
  std::string version;
  std::string resource;  // plural
  std::string singular;
  std::string kind;
  std::string list_kind;
  bool namespaced = false;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool has_status = false;      // a status subresource
  bool custom = false;          // served by a CRD
  bool has_generation = false;  // metadata.generation is maintained
  bool allow_unconditional_update = true;
  bool create_only = false;  // a review (reviews.h): POST only, nothing stored
  bool has_scale = false;    // a scale subresource (scale.h): autoscaling/v1 Scale of spec.replicas
  nlohmann::json schema;  // openAPIV3Schema (custom resources), or null
  std::shared_ptr<const CrdRules> rules;  // its compiled x-kubernetes-validations (crd_rules.h), null: none
  std::string rules_error;  // a stored rule that does not compile: writes are refused, never unchecked
  std::vector<PrinterColumn> columns;  // extra table columns between NAME and AGE
  // A CRD version marked `deprecated: true`: the Warning every request to it is answered with.
  std::optional<std::string> deprecation_warning;

  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  // "clusterqueues.kueue.x-k8s.io", "namespaces": kube-apiserver's qualified resource.
  std::string qualified_resource() const { return group.empty() ? resource : resource + "." + group; }
  // "ClusterQueue.kueue.x-k8s.io", "Namespace": the qualified kind of Invalid messages.
  std::string qualified_kind() const { return group.empty() ? kind : kind + "." + group; }
};

class Registry {
 public:
  Registry();
  // Re-derives the custom resources from the CRD objects currently stored.
  void set_crds(const std::vector<nlohmann::json>& crds);

  const ResourceInfo* find(const std::string& group, const std::string& version,
                           const std::string& resource) const;
  // The same entry, held: valid for as long as the holder keeps it, even when a
  // CRD's write or deletion re-derives the custom resources (set_crds) while a
  // request still serves it. Built-in entries never change and live as long as
  // the registry. Null when not served.
  std::shared_ptr<const ResourceInfo> hold(const std::string& group, const std::string& version,
                                           const std::string& resource) const;
  // Every resource of a group version (empty when the group version is not served).
  std::vector<const ResourceInfo*> in_group_version(const std::string& group, const std::string& version) const;
  // Served groups in order (core "" first), with their versions, preferred first.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups() const;
  // Every version of group/resource (used to fan events out to watches of any version).
  bool is_served_group_version(const std::string& group, const std::string& version) const;

 private:
  std::vector<ResourceInfo> builtin_;
  std::vector<std::shared_ptr<const ResourceInfo>> custom_;  // replaced, never changed in place (hold())
  std::vector<std::pair<std::string, std::vector<std::string>>> custom_groups_;  // group, versions by priority
};

// A CRD's resources (one per served version); empty when the CRD is malformed.
std::vector<ResourceInfo> resources_of_crd(const nlohmann::json& crd);

}  // namespace mkq::sandbox
