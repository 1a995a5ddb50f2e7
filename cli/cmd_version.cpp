#include <cstdio>

#include "cli/commands.h"

namespace mkq::cli {

int run_version() {
  std::printf("mkq %s\n", MKQ_VERSION);
  std::printf("built %s with %s, C++%ld\n", __DATE__, __VERSION__, __cplusplus / 100 % 100);
  std::printf("Kueue API kueue.x-k8s.io/v1beta2\n");
  return 0;
}

}  // namespace mkq::cli
