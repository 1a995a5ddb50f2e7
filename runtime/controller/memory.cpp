#include "runtime/controller/memory.h"

#include <malloc.h>

// gperftools' C entry point, declared weak: defined when the binary links
// tcmalloc (cli/CMakeLists.txt), null when it runs on glibc's malloc (tests).
extern "C" void MallocExtension_ReleaseFreeMemory(void) __attribute__((weak));
extern "C" int MallocExtension_SetNumericProperty(const char* property, size_t value) __attribute__((weak));

namespace mkq::controller {

void release_free_memory() {
  if (MallocExtension_ReleaseFreeMemory != nullptr) {
    MallocExtension_ReleaseFreeMemory();
  } else {
    malloc_trim(0);
  }
}

void bound_thread_caches(std::size_t bytes) {
  if (MallocExtension_SetNumericProperty != nullptr) {
    MallocExtension_SetNumericProperty("tcmalloc.max_total_thread_cache_bytes", bytes);
  }
}

}  // namespace mkq::controller
