#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "compiler/facts/kueue.h"
#include "mkq_commit.h"
#include "runtime/kube/result.h"

namespace mkq::cli {

int run_version(OutputFormat format) {
#ifdef __clang__
  const std::string compiler = std::string("clang ") + __clang_version__;
#else
  const std::string compiler = std::string("g++ ") + __VERSION__;
#endif
  const std::string standard = "C++" + std::to_string(__cplusplus / 100 % 100);
  if (format == OutputFormat::Json) {
    const kube::Json out = {{"format_version", 1},
                            {"version", MKQ_VERSION},
                            {"commit", MKQ_COMMIT},
                            {"compiler", compiler},
                            {"standard", standard},
                            {"kueue_api_versions", {std::string(facts::kKueueApiVersion)}},
                            {"kueue_config_api_version", std::string(facts::kKueueConfigApiVersion)}};
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  std::printf("mkq %s\n", MKQ_VERSION);
  std::printf("commit %s\n", MKQ_COMMIT);
  std::printf("built with %s, %s\n", compiler.c_str(), standard.c_str());
  std::printf("Kueue API %s (configuration %s)\n", std::string(facts::kKueueApiVersion).c_str(),
              std::string(facts::kKueueConfigApiVersion).c_str());
  return 0;
}

}  // namespace mkq::cli
