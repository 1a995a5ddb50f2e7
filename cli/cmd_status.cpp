// `mkq status [PATH]`: compile, connect, read every managed Kueue object's
// Active condition (runtime/reconcile/status.h) and the live credentials per
// worker, print them (a warning for a worker with more than one); exit 0 only
// when every object is Active. Reads no state file and takes no lock: it changes
// nothing.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/session.h"
#include "runtime/reconcile/status.h"

namespace mkq::cli {

namespace {

void error_line(const std::string& message) { std::fprintf(stderr, "mkq: error: %s\n", message.c_str()); }

constexpr std::chrono::milliseconds kPollInterval{500};

}  // namespace

int run_status(const StatusOptions& options, const GlobalOptions& global) {
  std::chrono::milliseconds wait{};
  if (options.wait && !parse_duration(options.wait_duration, &wait)) {
    error_line("--wait takes a duration such as 90s, 5m or 1h30m, not \"" + options.wait_duration + "\"");
    return 1;
  }
  Compilation compiled = compile(options.path, CompileTo::Objects, global);
  compiled.print_diagnostics(global);
  if (!compiled.state) return 1;
  Session session;
  if (!open_session(*compiled.policy, options.path, {}, options.runtime, global, {}, &session)) return 1;

  reconcile::ReadStatusOptions read;
  read.parallelism = std::max(1, options.runtime.parallelism);
  const auto started = std::chrono::steady_clock::now();
  reconcile::StatusReport report;
  if (options.wait) {
    // Progress on stderr when the count changes, so stdout holds only the final report.
    std::size_t last_active = static_cast<std::size_t>(-1);
    const auto on_poll = [&](const reconcile::StatusReport& now) {
      if (now.all_active() && now.all_reachable()) return;
      if (now.active() == last_active) return;
      last_active = now.active();
      std::fprintf(stderr, "mkq: waiting: %zu of %zu objects Active\n", now.active(), now.total());
    };
    report = reconcile::wait_for_status(*compiled.state, session.targets, read, wait, kPollInterval, on_poll);
  } else {
    report = reconcile::read_status(*compiled.state, session.targets, read);
  }
  if (session.credentials) report.credentials = session.credentials->live_credentials();
  if (global.verbose) {
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    int lists = 0;
    for (const auto& client : session.clients) lists += client->stats().lists;
    std::fprintf(stderr, "mkq: status   %8.1f ms (%d LISTs)\n", took.count(), lists);
  }

  const std::string text =
      options.json ? reconcile::render_status_json(report).dump(2) + "\n"
                   : reconcile::render_status_text(report, global.color && isatty(STDOUT_FILENO) == 1);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  for (const std::string& warning : reconcile::credential_warnings(report)) {
    std::fprintf(stderr, "mkq: warning: %s\n", warning.c_str());
  }
  return report.all_active() && report.all_reachable() ? 0 : 1;
}

}  // namespace mkq::cli
