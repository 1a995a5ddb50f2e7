#include "compiler/sema/free_memory.h"

// tcmalloc's C entry point (gperftools' malloc_extension_c.h), referenced
// weakly: null when the program is not linked with tcmalloc.
extern "C" void MallocExtension_ReleaseFreeMemory(void) __attribute__((weak));

namespace mkq::sema {

void release_free_memory() {
  if (MallocExtension_ReleaseFreeMemory != nullptr) MallocExtension_ReleaseFreeMemory();
}

}  // namespace mkq::sema
