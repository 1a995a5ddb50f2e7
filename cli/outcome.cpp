#include "cli/outcome.h"

#include <algorithm>
#include <cstdio>

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
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// "7 done, 1 failed, 2 skipped" (the parts that are not zero, "done" always).
std::string tally(int done, int failed, int skipped, int not_started) {
  std::string text = std::to_string(done) + " done";
  if (failed > 0) text += ", " + std::to_string(failed) + " failed";
  if (skipped > 0) text += ", " + std::to_string(skipped) + " skipped";
  if (not_started > 0) text += ", " + std::to_string(not_started) + " not started";
  return text;
}

// A leaving worker deleted without a wait (--drain-timeout 0) while work still
// ran on it: what ran (reconcile::Drain). A wait that timed out deleted nothing.
void print_drains(const std::vector<reconcile::Drain>& drains) {
  for (const reconcile::Drain& drain : drains) {
    if (drain.running.empty()) continue;
    std::string names;
    for (const std::string& name : drain.running) names += (names.empty() ? "" : ", ") + name;
    std::printf("\nDrain: --drain-timeout 0: %s still ran on %s when its objects were deleted: %s\n",
                count_of(static_cast<int>(drain.running.size()), "Workload", "Workloads").c_str(),
                drain.worker.c_str(), names.c_str());
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
  std::string resources = std::to_string(added) + " added, " + std::to_string(changed) + " changed, " +
                          std::to_string(destroyed) + " destroyed";
  if (released > 0) resources += ", " + std::to_string(released) + " released";
  print_drains(report.drains);
  if (report.success()) {
    if (planned > 0) {
      std::printf("\n%s complete! Resources: %s.\n", operation.title.c_str(), resources.c_str());
    } else if (report.waited > 0) {
      std::printf("\nEvery Kueue object is Active (%d of %d).\n", report.waited, report.waited);
    }
    return 0;
  }

  const int done = report.done();
  const reconcile::RunResult ending = report.result();
  std::string headline = operation.title + (ending == reconcile::RunResult::Interrupted ? " interrupted: "
                                            : ending == reconcile::RunResult::Failed    ? " failed: "
                                                                                        : " incomplete: ");
  if (planned > 0) {
    headline += std::to_string(done) + " of " + count_of(planned, "change", "changes") + " done (" + resources + ")";
    if (failed > 0) headline += ", " + std::to_string(failed) + " failed";
    if (skipped > 0) headline += ", " + std::to_string(skipped) + " skipped";
    if (not_started > 0) headline += ", " + std::to_string(not_started) + " not started";
  } else {
    headline += unreachable.empty() ? "no changes" : "no changes on the clusters that were read";
  }
  if (!unreachable.empty()) {
    headline += "; " + count_of(static_cast<int>(unreachable.size()), "cluster", "clusters") +
                " could not be read: " + (unreachable.size() == 1 ? "its" : "their") + " changes are unknown";
  }
  if (!report.wait_failures.empty()) {
    headline += "; " + std::to_string(report.wait_failures.size()) + " of " +
                count_of(report.waited, "Kueue object", "Kueue objects") + " not Active";
  }
  std::printf("\n%s.\n", headline.c_str());

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
    std::printf("  %-*s  %s\n", static_cast<int>(width), cluster.cluster.c_str(), text.c_str());
  }

  bool any_failure = false;
  for (const reconcile::ObjectResult& result : report.results) {
    if (result.outcome != reconcile::Outcome::Failed && result.outcome != reconcile::Outcome::Skipped) continue;
    if (!any_failure) std::printf("Failures:\n");
    any_failure = true;
    std::printf("  %s\n", base::render(result.error).c_str());  // the object's address, or the whole run's error
  }
  if (!report.wait_failures.empty()) std::printf("Not Active:\n");
  for (const base::Error& failure : report.wait_failures) std::printf("  %s\n", base::render(failure).c_str());

  // The next step: what to run, once what stopped this run is dealt with.
  const bool only_not_active = !any_failure && unreachable.empty() && !report.interrupted;
  if (only_not_active) {
    std::printf("Next: see every object's condition with\n  %s\n", command_line("status", operation).c_str());
  } else {
    std::string when;
    if (!unreachable.empty()) {
      std::string names;
      for (const std::string& name : unreachable) names += (names.empty() ? "" : ", ") + name;
      when = "once " + names + " can be read, ";
    } else if (any_failure) {
      when = "once what failed is fixed, ";
    }
    std::string what = "apply what is left (it shows the plan first)";
    if (operation.command == "destroy") what = "destroy what is left";
    if (operation.command == "credentials rotate") what = "rotate again";
    std::printf("Next: %s%s:\n  %s\n", when.c_str(), what.c_str(), command_line(operation.command, operation).c_str());
  }
  if (run_id > 0) std::printf("Every object's outcome: %s\n", history_line(run_id, operation).c_str());
  return report.interrupted ? kInterruptedExit : 1;
}

}  // namespace mkq::cli
