// The subcommands of the mkq executable. Each takes its parsed options and
// returns the process exit code; none of them holds logic a library stage owns.
#pragma once

#include <string>
#include <vector>

#include "runtime/operation/options.h"

namespace CLI {
class App;
}

namespace mkq::cli {

enum class OutputFormat { Text, Json };

struct GlobalOptions {
  bool color = false;   // decided from --no-color, NO_COLOR and whether stderr is a terminal
  bool verbose = false;
  std::vector<std::string> import_roots;  // --import-root: more directories the policy may import from
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
  // -o DIR: write the worker credential Secrets as placeholders (left out by default).
  bool include_credential_placeholders = false;
};

struct GraphOptions {
  std::string path = ".";
};

// `mkq lsp`.
struct LspOptions {
  int debounce_ms = 150;  // --debounce: quiet time after an edit before diagnostics
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
  double fault_drop_rate = 0.0;
  std::string fault_verbs;  // "get,post"; empty: every verb
  bool allow_short_tokens = false;  // TokenRequests down to 1 s (tests of credential rotation)
  int apf_concurrency = 600;        // API Priority and Fairness: the server's concurrency; 0: no limit
};


// Where the clusters and the state are, and what may happen to objects mkq did
// not create: the operation library's options (runtime/operation/options.h).
using operation::OwnershipOptions;
using operation::RuntimeOptions;
using operation::ScopeOptions;

enum class PlanFormat { Text, Json, Markdown };

struct PlanCommandOptions {
  std::string path = ".";
  RuntimeOptions runtime;
  std::string out;                    // --out FILE: save the plan
  PlanFormat format = PlanFormat::Text;
  bool detailed_exitcode = false;     // 0 no changes, 1 error, 2 changes
  bool destroy = false;               // plan a destroy
  bool no_prune = false;
  OwnershipOptions ownership;
  ScopeOptions scope;  // --replace, --drift-only
};

struct ApplyCommandOptions {
  std::string path = ".";             // a policy, or a plan saved with `plan --out`
  RuntimeOptions runtime;
  bool auto_approve = false;
  bool wait = false;                  // --wait[=DURATION]
  std::string wait_duration = "5m";
  bool no_prune = false;
  bool force_conflicts = false;
  bool allow_empty = false;
  std::string drain_timeout = "10m";  // --drain-timeout: a leaving worker's drain, at most
  bool destroy = false;               // `mkq destroy`
  OwnershipOptions ownership;
  ScopeOptions scope;  // --replace, --drift-only
};

// `mkq status`: every managed Kueue object's Active condition, per cluster.
struct StatusOptions {
  std::string path = ".";
  RuntimeOptions runtime;
  bool json = false;
  bool wait = false;               // --wait[=DURATION]
  std::string wait_duration = "5m";
};

// `mkq credentials rotate [--cluster NAME]`: issue fresh worker credentials now.
struct RotateOptions {
  std::string path = ".";
  RuntimeOptions runtime;
  std::vector<std::string> clusters;  // empty: every worker
  bool auto_approve = false;
};

// `mkq state list|show ADDRESS|unlock|rm|push|pull` and `mkq history [RUN]`.
struct StateCommandOptions {
  std::string action;      // list, show, unlock, rm, push, pull
  std::string address;     // show
  std::string state_path;  // resolved path of the state db, or kubernetes://CONTEXT/NAMESPACE/NAME
  RuntimeOptions runtime;  // how a state in a cluster is reached (--kubeconfig, the sandbox)
  std::string file;        // push, pull: the local file (default: the policy's, .mkq/state.db)
  bool json = false;
  bool force = false;                  // unlock: even while the holder still runs
  std::vector<std::string> addresses;  // rm ADDRESS...
  std::vector<std::string> clusters;   // rm --cluster NAME
  // As the user gave them, for the commands mkq suggests: --policy and --state.
  std::string policy_path = ".";
  std::string state_option;
};

struct HistoryOptions {
  std::string state_path;
  RuntimeOptions runtime;  // how a state in a cluster is reached (--kubeconfig, the sandbox)
  std::string policy_path = ".";
  int limit = 20;
  bool json = false;
  std::string run;  // a run id: show its objects
};

int run_check(const CheckOptions& options, const GlobalOptions& global);
int run_eval(const EvalOptions& options, const GlobalOptions& global);
int run_fmt(const FmtOptions& options, const GlobalOptions& global);
int run_lsp(const LspOptions& options, const GlobalOptions& global);
int run_graph(const GraphOptions& options, const GlobalOptions& global);
int run_render(const RenderOptions& options, const GlobalOptions& global);
int run_version(OutputFormat format);
// Written from `app`, the whole command line as main() defines it.
int run_completion(const CLI::App& app, const std::string& shell);
int run_man(const CLI::App& app);
int run_sandbox(const SandboxCommandOptions& options, const GlobalOptions& global);
int run_plan(const PlanCommandOptions& options, const GlobalOptions& global);
int run_apply(const ApplyCommandOptions& options, const GlobalOptions& global);
int run_state(const StateCommandOptions& options, const GlobalOptions& global);
int run_status(const StatusOptions& options, const GlobalOptions& global);
int run_rotate(const RotateOptions& options, const GlobalOptions& global);
int run_history(const HistoryOptions& options, const GlobalOptions& global);

}  // namespace mkq::cli
