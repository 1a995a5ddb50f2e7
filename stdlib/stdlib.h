// The standard library: policy-language modules compiled into the binary and
// imported as `import "std/<name>"`.
#pragma once

#include <cstddef>
#include <span>

namespace mkq::stdlib {

struct Module {
  const char* path;  // "std/gpu"
  const char* text;
  std::size_t size;
};

// Every embedded module, sorted by path.
std::span<const Module> modules();

}  // namespace mkq::stdlib
