// How mkq names one Kubernetes object on one cluster of the policy: the
// desired objects (kueue::ref), the plan's changes, the state's inventory,
// apply's outcomes and progress, and its waits all hold an ObjectRef, and its
// address has one home here.
#pragma once

#include <string>
#include <string_view>

namespace mkq::base {

// CLUSTER/KIND/NAME, or CLUSTER/KIND/NAMESPACE/NAME for a namespaced object
// (ARCHITECTURE.md): the key of the inventory, of what refresh read, of
// depends_on, and how messages name an object. The apiVersion is not part of
// it: mkq holds one version of each kind.
inline std::string object_address(std::string_view cluster, std::string_view kind, std::string_view namespace_name,
                                  std::string_view name) {
  std::string out;
  out.reserve(cluster.size() + kind.size() + namespace_name.size() + name.size() + 3);
  out.append(cluster).append(1, '/').append(kind).append(1, '/');
  if (!namespace_name.empty()) out.append(namespace_name).append(1, '/');
  out.append(name);
  return out;
}

struct ObjectRef {
  std::string cluster;         // the policy's name for the cluster ("manager", "worker1")
  std::string api_version;     // "kueue.x-k8s.io/v1beta2", "v1"
  std::string kind;            // "ClusterQueue"
  std::string namespace_name;  // empty for a cluster-scoped kind
  std::string name;

  std::string address() const { return object_address(cluster, kind, namespace_name, name); }
  bool operator==(const ObjectRef&) const = default;
};

}  // namespace mkq::base
