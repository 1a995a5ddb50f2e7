// `mkq sandbox up|down|status|serve`: options to sandbox::SandboxOptions, and
// the exit code of `status` that tells a script whether the sandbox runs.
#include <cctype>
#include <cstdio>
#include <string_view>

#include "base/print.h"
#include "cli/commands.h"
#include "compiler/kueue/crds.h"
#include "sandbox/daemon.h"

namespace mkq::cli {

namespace {

// `mkq sandbox status` of a sandbox that is not running (LSB's and `systemctl
// status`'s "not running"): it prints the table all the same; 1 stays "no
// sandbox in DIR", or an error.
constexpr int kSandboxNotRunningExit = 3;

// The terminal: what the sandbox's commands say goes to stdout, their errors to stderr.
sandbox::TextSink stdout_sink() {
  return sandbox::TextSink([](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); },
                           [] { std::fflush(stdout); });
}
sandbox::TextSink stderr_sink() {
  return sandbox::TextSink([](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stderr); },
                           [] { std::fflush(stderr); });
}

int sandbox_status(const sandbox::SandboxOptions& options) {
  sandbox::TextSink out = stdout_sink();
  sandbox::TextSink err = stderr_sink();
  const int code = sandbox::sandbox_status(options, out, err);
  if (code != 0) return code;
  return sandbox::running_clusters(options.dir).empty() ? kSandboxNotRunningExit : 0;
}

}  // namespace

int run_sandbox(const SandboxCommandOptions& options, const GlobalOptions& /*global*/) {
  sandbox::SandboxOptions sandbox;
  sandbox.dir = options.dir;
  sandbox.clusters = sandbox::split_list(options.clusters);
  sandbox.no_kueue = options.no_kueue;
  sandbox.crds_dir = options.crds_dir;
  // Without --crds, up installs the Kueue CRDs mkq generates from its own
  // Kueue knowledge (compiler/kueue/crds.h).
  if (options.action == "up" && !options.no_kueue && options.crds_dir.empty()) {
    for (const kueue::Json& crd : kueue::kueue_crds()) sandbox.builtin_crds.push_back(nlohmann::json::parse(crd.dump()));
  }
  sandbox.faults.latency_ms = options.fault_latency_ms;
  sandbox.faults.rate_500 = options.fault_500_rate;
  sandbox.faults.rate_429 = options.fault_429_rate;
  sandbox.faults.rate_drop = options.fault_drop_rate;
  sandbox.faults.verbs = sandbox::split_list(options.fault_verbs);
  sandbox.allow_short_tokens = options.allow_short_tokens;
  sandbox.flow_control.concurrency = options.apf_concurrency;
  for (std::string& verb : sandbox.faults.verbs) {
    for (char& c : verb) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  sandbox::TextSink out = stdout_sink();
  sandbox::TextSink err = stderr_sink();
  if (options.action == "up") return sandbox::sandbox_up(sandbox, out, err);
  if (options.action == "down") return sandbox::sandbox_down(sandbox, out, err);
  if (options.action == "status") return sandbox_status(sandbox);
  if (options.action == "serve") return sandbox::sandbox_serve(sandbox, out, err);
  base::print(stderr, "mkq: error: say what to do: mkq sandbox up|down|status|serve\n");
  return 1;
}

}  // namespace mkq::cli
