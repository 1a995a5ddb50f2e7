// `mkq plan`, `mkq apply`, `mkq destroy` and `mkq credentials rotate`: flags
// in, runtime/operation's result out as the outcome and the exit code. The
// operations decide everything; this file only hands them the terminal
// (cli/terminal_ui.h) and the real target resolver.
#include <string>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/outcome.h"
#include "cli/run_options.h"
#include "cli/terminal_ui.h"
#include "runtime/operation/operation.h"
#include "runtime/operation/process.h"
#include "runtime/operation/saved_plan.h"

namespace mkq::cli {

namespace {

// The exit code of an apply, destroy or rotation: 1 when it stopped before
// changing anything, else its outcome's (0 when there was nothing to do).
int exit_code(const operation::ApplyResult& result, Operation next) {
  if (result.stop != operation::Stop::None) return 1;
  if (!result.report) return 0;
  next.command = result.command;
  next.path = result.policy_path;
  return print_outcome(*result.report, next, result.run_id);
}

int apply_saved_plan(const ApplyCommandOptions& options, const GlobalOptions& global,
                     const operation::RunOptions& common, const std::optional<std::chrono::milliseconds>& wait,
                     std::chrono::milliseconds drain_timeout) {
  operation::SavedPlanRequest request;
  static_cast<operation::RunOptions&>(request) = common;
  request.wait = wait;
  request.drain_timeout = drain_timeout;
  request.force_conflicts = options.force_conflicts;
  TerminalUi ui(global);
  operation::KubeconfigResolver resolver;
  const operation::ApplyResult result = operation::apply_saved_plan(request, resolver, ui);
  Operation next = operation_of(result.command, result.policy_path, options.runtime);
  if (wait) next.wait = options.wait_duration;
  return exit_code(result, next);
}

}  // namespace

int run_plan(const PlanCommandOptions& options, const GlobalOptions& global) {
  operation::PlanRequest request;
  if (!run_options(options.path, options.runtime, global, &request)) return 1;
  request.destroy = options.destroy;
  request.no_prune = options.no_prune;
  request.ownership = options.ownership;
  request.scope = options.scope;
  request.out = options.out;
  TerminalUi ui(global, options.format);
  operation::KubeconfigResolver resolver;
  operation::process_ends_after_command();
  const operation::PlanResult result = operation::plan(request, resolver, ui);
  if (result.stop != operation::Stop::None) return 1;
  if (!result.plan->complete()) return 1;  // an unreachable cluster: the plan is not the whole truth
  if (options.detailed_exitcode && result.plan->has_changes()) return 2;
  return 0;
}

int run_apply(const ApplyCommandOptions& options, const GlobalOptions& global) {
  std::optional<std::chrono::milliseconds> wait;
  if (!wait_option(options.wait, options.wait_duration, &wait)) return 1;
  std::chrono::milliseconds drain_timeout{};
  if (!parse_duration(options.drain_timeout, &drain_timeout)) {
    error_line(
        fmt::format("--drain-timeout takes a duration such as 90s, 10m or 0, not \"{}\"", options.drain_timeout));
    return 1;
  }
  operation::RunOptions common;
  if (!run_options(options.path, options.runtime, global, &common)) return 1;
  operation::process_ends_after_command();
  if (!options.destroy && operation::looks_like_saved_plan(options.path)) {
    if (!options.scope.replace.empty() || options.scope.drift_only) {
      error_line("--replace and --drift-only are part of a saved plan, not of applying it: make the plan with them");
      return 1;
    }
    return apply_saved_plan(options, global, common, wait, drain_timeout);
  }
  operation::ApplyRequest request;
  static_cast<operation::RunOptions&>(request) = common;
  request.destroy = options.destroy;
  request.auto_approve = options.auto_approve;
  request.wait = wait;
  request.no_prune = options.no_prune;
  request.force_conflicts = options.force_conflicts;
  request.allow_empty = options.allow_empty;
  request.drain_timeout = drain_timeout;
  request.ownership = options.ownership;
  request.scope = options.scope;
  TerminalUi ui(global);
  operation::KubeconfigResolver resolver;
  const operation::ApplyResult result = operation::apply(request, resolver, ui);
  Operation next = operation_of(result.command, options.path, options.runtime);
  if (wait) next.wait = options.wait_duration;
  return exit_code(result, next);
}

int run_rotate(const RotateOptions& options, const GlobalOptions& global) {
  operation::RotateRequest request;
  if (!run_options(options.path, options.runtime, global, &request)) return 1;
  request.clusters = options.clusters;
  request.auto_approve = options.auto_approve;
  TerminalUi ui(global);
  operation::KubeconfigResolver resolver;
  const operation::ApplyResult result = operation::rotate(request, resolver, ui);
  Operation next = operation_of(result.command, options.path, options.runtime);
  for (const std::string& name : options.clusters) next.extra_args.insert(next.extra_args.end(), {"--cluster", name});
  return exit_code(result, next);
}

}  // namespace mkq::cli
