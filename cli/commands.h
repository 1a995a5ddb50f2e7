// The subcommands of the mkq executable. Each takes its parsed options and
// returns the process exit code; none of them holds logic a library stage owns.
#pragma once

#include <string>
#include <vector>

namespace mkq::cli {

enum class OutputFormat { Text, Json };

struct GlobalOptions {
  bool color = false;   // decided from --no-color, NO_COLOR and whether stderr is a terminal
  bool verbose = false;
};

struct CheckOptions {
  std::string path = ".";
  OutputFormat format = OutputFormat::Text;
};

struct EvalOptions {
  std::string path = ".";
};

enum class RenderFormat { Yaml, Json };

struct RenderOptions {
  std::string path = ".";
  std::string output_dir;  // empty: print to stdout
  RenderFormat format = RenderFormat::Yaml;
};

struct GraphOptions {
  std::string path = ".";
};

struct FmtOptions {
  std::vector<std::string> paths;
  bool check = false;
};

int run_check(const CheckOptions& options, const GlobalOptions& global);
int run_eval(const EvalOptions& options, const GlobalOptions& global);
int run_fmt(const FmtOptions& options, const GlobalOptions& global);
int run_graph(const GraphOptions& options, const GlobalOptions& global);
int run_render(const RenderOptions& options, const GlobalOptions& global);
int run_version();

}  // namespace mkq::cli
