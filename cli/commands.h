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

// `mkq sandbox up|down|status|serve`.
struct SandboxCommandOptions {
  std::string action;  // up, down, status, serve
  std::string dir = ".mkq/sandbox";
  std::string clusters = "manager,worker1";
  bool no_kueue = false;
  std::string crds_dir;
  int fault_latency_ms = 0;
  double fault_500_rate = 0.0;
  double fault_429_rate = 0.0;
  std::string fault_verbs;  // "get,post"; empty: every verb
};

int run_check(const CheckOptions& options, const GlobalOptions& global);
int run_eval(const EvalOptions& options, const GlobalOptions& global);
int run_fmt(const FmtOptions& options, const GlobalOptions& global);
int run_graph(const GraphOptions& options, const GlobalOptions& global);
int run_render(const RenderOptions& options, const GlobalOptions& global);
int run_version();
int run_sandbox(const SandboxCommandOptions& options, const GlobalOptions& global);

}  // namespace mkq::cli
