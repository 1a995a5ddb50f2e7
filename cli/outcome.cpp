#include "cli/outcome.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/print.h"
#include "cli/interrupt.h"
#include "runtime/operation/hints.h"

namespace mkq::cli {

namespace {

using operation::run_command;
using operation::state_command;

// `mkq COMMAND PATH ...` to paste as is (runtime/operation/hints.h).
std::string command_line(const std::string& command, const Operation& operation) {
  return run_command(command, operation.path, operation.runtime, operation.extra_args);
}

std::string history_line(std::int64_t run_id, const Operation& operation) {
  return state_command("history", operation.path, operation.runtime.state_path, {std::to_string(run_id)});
}

std::string count_of(int count, const char* one, const char* many) {
  return fmt::format("{} {}", count, count == 1 ? one : many);
}

// ", 1 failed, 2 skipped": the counts that are not zero.
void append_counts(std::string& text, int failed, int skipped, int not_started) {
  auto out = std::back_inserter(text);
  if (failed > 0) fmt::format_to(out, ", {} failed", failed);
  if (skipped > 0) fmt::format_to(out, ", {} skipped", skipped);
  if (not_started > 0) fmt::format_to(out, ", {} not started", not_started);
}

// "7 done, 1 failed, 2 skipped" (the parts that are not zero, "done" always).
std::string tally(int done, int failed, int skipped, int not_started) {
  std::string text = fmt::format("{} done", done);
  append_counts(text, failed, skipped, not_started);
  return text;
}

// A leaving worker deleted without a wait (--drain-timeout 0) while work still
// ran on it: what ran (reconcile::Drain). A wait that timed out deleted nothing.
void print_drains(const std::vector<reconcile::Drain>& drains) {
  for (const reconcile::Drain& drain : drains) {
    if (drain.running.empty()) continue;
    base::print("\nDrain: --drain-timeout 0: {} still ran on {} when its objects were deleted: {}\n",
                count_of(static_cast<int>(drain.running.size()), "Workload", "Workloads"), drain.worker,
                fmt::join(drain.running, ", "));
  }
}

}  // namespace

Operation operation_of(const std::string& command, const std::string& path, const RuntimeOptions& runtime) {
  Operation operation;
  operation.command = command;
  operation.title = command == "destroy" ? "Destroy" : command == "credentials rotate" ? "Rotation" : "Apply";
  operation.path = path;
  operation.runtime = runtime;
  return operation;
}

int print_outcome(const reconcile::ApplyReport& report, const Operation& operation, std::int64_t run_id) {
  int added = 0, changed = 0, destroyed = 0, released = 0, planned = 0, failed = 0, skipped = 0, not_started = 0;
  for (const reconcile::ObjectResult& result : report.results) {
    if (!result.ok()) continue;
    switch (result.action) {
      case reconcile::Action::Create: ++added; break;
      case reconcile::Action::Update: ++changed; break;
      case reconcile::Action::Delete: ++destroyed; break;
      case reconcile::Action::Replace: ++added; ++destroyed; break;
      case reconcile::Action::Release: ++released; break;
      case reconcile::Action::NoOp: break;
    }
  }
  std::vector<std::string> unreachable;
  for (const reconcile::ClusterOutcome& cluster : report.clusters) {
    planned += cluster.planned();
    failed += cluster.failed;
    skipped += cluster.skipped;
    not_started += cluster.not_started;
    if (!cluster.reachable) unreachable.push_back(cluster.cluster);
  }
  std::string resources = fmt::format("{} added, {} changed, {} destroyed", added, changed, destroyed);
  if (released > 0) fmt::format_to(std::back_inserter(resources), ", {} released", released);
  print_drains(report.drains);
  if (report.success()) {
    if (planned > 0) {
      base::print("\n{} complete! Resources: {}.\n", operation.title, resources);
    } else if (report.waited > 0) {
      base::print("\nEvery Kueue object is Active ({} of {}).\n", report.waited, report.waited);
    }
    return 0;
  }

  const int done = report.done();
  const reconcile::RunResult ending = report.result();
  std::string headline = operation.title + (ending == reconcile::RunResult::Interrupted ? " interrupted: "
                                            : ending == reconcile::RunResult::Failed    ? " failed: "
                                                                                        : " incomplete: ");
  if (planned > 0) {
    fmt::format_to(std::back_inserter(headline), "{} of {} done ({})", done, count_of(planned, "change", "changes"),
                   resources);
    append_counts(headline, failed, skipped, not_started);
  } else {
    headline += unreachable.empty() ? "no changes" : "no changes on the clusters that were read";
  }
  if (!unreachable.empty()) {
    fmt::format_to(std::back_inserter(headline), "; {} could not be read: {} changes are unknown",
                   count_of(static_cast<int>(unreachable.size()), "cluster", "clusters"),
                   unreachable.size() == 1 ? "its" : "their");
  }
  if (!report.wait_failures.empty()) {
    fmt::format_to(std::back_inserter(headline), "; {} of {} not Active", report.wait_failures.size(),
                   count_of(report.waited, "Kueue object", "Kueue objects"));
    // How long it waited; not after an interrupt, which cut the wait short.
    if (!operation.wait.empty() && !report.interrupted) {
      fmt::format_to(std::back_inserter(headline), " within {}", operation.wait);
    }
  }
  base::print("\n{}.\n", headline);

  std::size_t width = 0;
  for (const reconcile::ClusterOutcome& cluster : report.clusters) width = std::max(width, cluster.cluster.size());
  for (const reconcile::ClusterOutcome& cluster : report.clusters) {
    std::string text;
    if (!cluster.reachable) {
      text = "unreachable: changes unknown (" + cluster.error + ")";
      if (cluster.planned() > 0) {
        text += "; " + tally(cluster.done, cluster.failed, cluster.skipped, cluster.not_started);
      }
    } else if (cluster.planned() == 0) {
      text = "no changes";
    } else {
      text = tally(cluster.done, cluster.failed, cluster.skipped, cluster.not_started);
    }
    base::print("  {:<{}}  {}\n", cluster.cluster, width, text);
  }

  bool any_failure = false;
  for (const reconcile::ObjectResult& result : report.results) {
    if (result.outcome != reconcile::Outcome::Failed && result.outcome != reconcile::Outcome::Skipped) continue;
    if (!any_failure) base::print("Failures:\n");
    any_failure = true;
    base::print("  {}\n", base::render(result.error));  // the object's address, or the whole run's error
  }
  if (!report.wait_failures.empty()) base::print("Not Active:\n");
  for (const base::Error& failure : report.wait_failures) base::print("  {}\n", base::render(failure));

  // The next step: what to run, once what stopped this run is dealt with.
  const bool only_not_active = !any_failure && unreachable.empty() && !report.interrupted;
  if (only_not_active) {
    base::print("Next: see every object's condition with\n  {}\n", command_line("status", operation));
  } else {
    std::string when;
    if (!unreachable.empty()) {
      when = fmt::format("once {} can be read, ", fmt::join(unreachable, ", "));
    } else if (any_failure) {
      when = "once what failed is fixed, ";
    }
    std::string what = "apply what is left (it shows the plan first)";
    if (operation.command == "destroy") what = "destroy what is left";
    if (operation.command == "credentials rotate") what = "rotate again";
    base::print("Next: {}{}:\n  {}\n", when, what, command_line(operation.command, operation));
  }
  if (run_id > 0) base::print("Every object's outcome: {}\n", history_line(run_id, operation));
  return report.interrupted ? kInterruptedExit : 1;
}

}  // namespace mkq::cli
