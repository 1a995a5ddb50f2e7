// The clusters a run talks to, and what refresh read from them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/kueue/objects.h"
#include "runtime/kube/client.h"

namespace mkq::reconcile {

using Json = kube::Json;

// One cluster of the policy and its connection.
struct Target {
  std::string cluster;  // the policy's manager or worker name
  kueue::ClusterRole role = kueue::ClusterRole::Worker;
  kube::Client* client = nullptr;  // null: no connection could be made (connect_error says why)
  std::string connect_error;
};

// Every object in one namespace, of every kind the server lists there (events
// aside: they are records about objects), as addresses of the cluster
// (CLUSTER/KIND/NAMESPACE/NAME). `error` set: the contents could not be read
// completely, so the namespace must be taken as holding objects.
struct NamespaceContents {
  std::vector<std::string> addresses;
  std::string error;
};

// What one cluster holds of the kinds the policy and the inventory mention.
struct ClusterLive {
  std::string cluster;
  bool reachable = true;
  std::string error;  // why the cluster could not be read (then `objects` is empty and unknown)
  // address -> live object (only addresses of interest), kept as its text and
  // decoded when read: a fleet's live objects decoded at once would take
  // several times the memory.
  std::map<std::string, kube::ObjectText> objects;
  std::map<std::string, kube::ResourceType> types;  // "apiVersion/kind" -> how it is served
  std::vector<std::string> unserved_kinds;  // "kueue.x-k8s.io/v1beta2/ClusterQueue" when not served
  // What each Namespace that the plan may delete holds (refresh.h says which).
  std::map<std::string, NamespaceContents> namespace_contents;  // namespace name -> contents
};

struct LiveState {
  std::vector<ClusterLive> clusters;
  const ClusterLive* find(const std::string& cluster) const;
};

}  // namespace mkq::reconcile
