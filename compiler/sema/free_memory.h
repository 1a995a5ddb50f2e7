// Giving freed memory back to the system while a large policy compiles.
//
// The stages of analyze() free what the next one no longer needs (a root
// file's syntax tree block by block as it is evaluated, the lexer's tokens
// when parsing ends), but an allocator keeps freed pages for reuse, and the
// next stage allocates objects of other sizes: without this the peak resident
// memory is close to the sum of what every stage touched, not the largest
// live heap (bench/README.md, "Memory").
#pragma once

#include <cstddef>

namespace mkq::sema {

// Returns the allocator's wholly free pages to the system (their resident
// memory goes; the address space stays, and is reused). With tcmalloc, which
// mkq links, that is MallocExtension::ReleaseFreeMemory(); with any other
// allocator (the unit tests link glibc's malloc) it does nothing.
void release_free_memory();

// Calls release_free_memory() once at least `every` bytes of source have been
// let go since the last call: a syntax tree is about ten times its text, so a
// call per 64 KiB of text gives back under a megabyte at a time, and a policy
// of 2.5 MB makes about 40 calls (each walks the allocator's free lists).
class MemoryReleaser {
 public:
  explicit MemoryReleaser(std::size_t every = std::size_t{64} << 10) : every_(every) {}
  // `bytes` of source whose tree was just freed.
  void freed(std::size_t bytes) {
    pending_ += bytes;
    if (pending_ < every_) return;
    pending_ = 0;
    release_free_memory();
  }

 private:
  std::size_t every_;
  std::size_t pending_ = 0;
};

}  // namespace mkq::sema
