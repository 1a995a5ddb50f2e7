// The desired state as text: what `mkq render` prints or writes.
//
// YAML: every document is preceded by a comment naming its cluster
// ("# cluster: worker1 (worker)") and documents are separated by "---", so the
// output of one cluster can be given to `kubectl apply -f`. JSON: all clusters
// as {"clusters": [{"name", "role", "objects": [...]}]}, one cluster as a
// Kubernetes List. Both are byte-stable: the same state gives the same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "compiler/kueue/lower.h"
#include "compiler/kueue/objects.h"

namespace mkq::kueue {

std::string_view to_string(ClusterRole role);  // "manager", "worker"

// Every cluster, manager first.
std::string render_yaml(const DesiredState& state);
// The version of render_json's document, its first field "format_version"
// (docs/json.md); each cluster's file of `render -o DIR --format json` is a
// Kubernetes List instead, which kubectl reads.
inline constexpr int kRenderJsonFormatVersion = 1;
std::string render_json(const DesiredState& state);

// One cluster: the content of DIR/<cluster>.yaml or DIR/<cluster>.json.
std::string render_cluster_yaml(const ClusterObjects& cluster);
std::string render_cluster_json(const ClusterObjects& cluster);

enum class TextFormat { Yaml, JsonText };

// render_yaml's or render_json's text, written one cluster at a time (`mkq
// render` streams: one cluster's text and, in YAML, one object's document
// exist at once). The
// pieces, concatenated, are byte for byte the text of the whole state:
// cluster(c1) + cluster(c2) + ... + end(), clusters in state order.
class StateWriter {
 public:
  explicit StateWriter(TextFormat format) : format_(format) {}
  std::string cluster(const ClusterObjects& cluster);
  // The same text for lowering.cluster(index), lowered and written one object
  // at a time: only one object's document exists at once (YAML; JSON lowers
  // the whole cluster).
  std::string cluster(const ClusterLowering& lowering, std::size_t index);
  std::string end() const;

 private:
  TextFormat format_;
  bool first_ = true;  // nothing written yet: no separator before the next piece
  std::string pieces_;  // cluster(lowering, index)'s objects' text, before it is put in apply order
};

}  // namespace mkq::kueue
