// The desired state as a dependency graph: what `mkq graph` prints.
//
// A Graphviz DOT digraph. Each cluster of the policy is a cluster subgraph
// ("cluster_<name>", labelled "manager: NAME" or "worker: NAME"), in the
// state's order (manager first, then workers by name); inside it, one node per
// object in the cluster's order, identified by the object's address
// (CLUSTER/KIND/[NAMESPACE/]NAME) and labelled with its kind and
// [namespace/]name. A kubeconfig Secret whose value only apply supplies is
// drawn dashed. After the clusters come the edges: one from each object to
// each object it depends on (Object::depends_on, repeats dropped), so an edge
// A -> B reads "A needs B" and B is applied first; the layout runs right to
// left, so what is applied first is on the left. A dependency that names no
// object of the state is still drawn, as a dashed node outside every cluster
// ("not in the desired state"), so that a lowering mistake shows rather than
// vanishes.
//
// The text is byte-stable: the same state gives the same bytes.
#pragma once

#include <string>

#include "compiler/kueue/objects.h"

namespace mkq::kueue {

std::string render_dot(const DesiredState& state);

}  // namespace mkq::kueue
