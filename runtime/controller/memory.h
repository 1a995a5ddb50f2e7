// The memory a run used and no longer needs, given back to the system
// between runs: the controller's resident size between runs is then what it
// keeps (the last run's metrics, what its Events said), not the high-water
// mark of its busiest run (bench/README.md, "mkq controller").
#pragma once

namespace mkq::controller {

// tcmalloc's free lists and page heap (MallocExtension::ReleaseFreeMemory)
// when mkq runs on tcmalloc, glibc's malloc_trim otherwise. Costs page
// faults in the next run; call it when a run ended, not within one.
void release_free_memory();

}  // namespace mkq::controller
