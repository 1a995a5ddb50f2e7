// Object addresses (ARCHITECTURE.md): how plans, state and messages name an object.
#include "compiler/kueue/objects.h"

namespace mkq::kueue {

std::string address(const std::string& cluster, const Object& object) {
  return base::object_address(cluster, object.kind, object.namespace_name, object.name);
}

base::ObjectRef ref(const std::string& cluster, const Object& object) {
  return base::ObjectRef{cluster, object.api_version, object.kind, object.namespace_name, object.name};
}

}  // namespace mkq::kueue
