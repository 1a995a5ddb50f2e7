#include <string>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "compiler/facts/kueue.h"
#include "mkq_commit.h"
#include "runtime/kube/result.h"

namespace mkq::cli {

int run_version(OutputFormat format) {
#ifdef __clang__
  const std::string compiler = fmt::format("clang {}", __clang_version__);
#else
  const std::string compiler = fmt::format("g++ {}", __VERSION__);
#endif
  const std::string standard = fmt::format("C++{}", __cplusplus / 100 % 100);
  if (format == OutputFormat::Json) {
    const kube::Json out = {{"format_version", 1},
                            {"version", MKQ_VERSION},
                            {"commit", MKQ_COMMIT},
                            {"compiler", compiler},
                            {"standard", standard},
                            {"kueue_api_versions", {std::string(facts::kKueueApiVersion)}},
                            {"kueue_config_api_version", std::string(facts::kKueueConfigApiVersion)}};
    base::print("{}\n", out.dump(2));
    return 0;
  }
  base::print("mkq {}\ncommit {}\nbuilt with {}, {}\nKueue API {} (configuration {})\n", MKQ_VERSION, MKQ_COMMIT,
              compiler, standard, facts::kKueueApiVersion, facts::kKueueConfigApiVersion);
  return 0;
}

}  // namespace mkq::cli
