// The memory a run used and no longer needs, given back to the system
// between runs: the controller's resident size between runs is then what it
// keeps (the last run's metrics, what its Events said), not the high-water
// mark of its busiest run (bench/README.md, "mkq controller").
#pragma once

#include <cstddef>

namespace mkq::controller {

// tcmalloc's free lists and page heap (MallocExtension::ReleaseFreeMemory)
// when mkq runs on tcmalloc, glibc's malloc_trim otherwise. Costs page
// faults in the next run; call it when a run ended, not within one.
void release_free_memory();

// Bounds what tcmalloc keeps in its threads' caches, all threads together
// (its default: 32 MiB). A long-lived process with many threads (HTTP
// requests in parallel, the endpoints' server) otherwise grows them run after
// run up to that bound, memory no run holds and ReleaseFreeMemory does not
// return. Nothing without tcmalloc.
void bound_thread_caches(std::size_t bytes);

}  // namespace mkq::controller
