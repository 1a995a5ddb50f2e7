// Object addresses (ARCHITECTURE.md): how plans, state and messages name an object.
#include "compiler/kueue/objects.h"

namespace mkq::kueue {

std::string address(const std::string& cluster, const Object& object) {
  std::string out = cluster;
  out += '/';
  out += object.kind;
  out += '/';
  if (!object.namespace_name.empty()) {
    out += object.namespace_name;
    out += '/';
  }
  out += object.name;
  return out;
}

}  // namespace mkq::kueue
