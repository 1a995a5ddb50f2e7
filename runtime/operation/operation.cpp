// The operations of operation.h: each strings run.h's steps together in the
// order a user reads them.
#include "runtime/operation/operation.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "runtime/operation/hints.h"
#include "runtime/operation/run.h"
#include "runtime/operation/saved_plan.h"

namespace mkq::operation {

namespace {

using detail::Run;

ApplyResult stopped(Stop stop, std::optional<reconcile::Plan> plan = std::nullopt) {
  ApplyResult result;
  result.stop = stop;
  result.plan = std::move(plan);
  return result;
}

reconcile::PlanKind kind_of(bool destroy) { return destroy ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply; }

// Why a saved plan is stale: the policy moved (its digest), or what
// reconcile::stale_reasons finds in the state and on the clusters.
std::vector<std::string> stale_reasons(const reconcile::Plan& saved, Run& run) {
  std::vector<std::string> reasons;
  if (run.policy_digest != saved.policy_digest) {
    reasons.push_back("the policy at " + saved.policy_path + " changed since the plan");
  }
  for (std::string& reason : reconcile::stale_reasons(saved, run.serial, run.store->lineage(), run.live)) {
    reasons.push_back(std::move(reason));
  }
  return reasons;
}

// The plan an apply carries out: `full` with every change `select` leaves out
// turned into a no-op that says why (`left`). The plan shown is `full`.
reconcile::Plan selected_plan(const reconcile::Plan& full, const ChangeSelection& select, reconcile::Reason left) {
  reconcile::Plan plan = full;
  for (reconcile::ClusterPlan& cluster : plan.clusters) {
    for (reconcile::Change& change : cluster.changes) {
      if (change.action == reconcile::Action::NoOp || selected(select, change)) continue;
      change.action = reconcile::Action::NoOp;
      change.reason = left;
      change.reason_args = {};
    }
  }
  return plan;
}

// What `mkq credentials rotate` applies: only the credential changes (the
// provider, with force_rotate, re-issues every selected worker's kubeconfig
// Secret; storing it deletes the anchor Secrets the old tokens are bound to,
// which revokes them -- no ServiceAccount change), and what finishes an
// interrupted rotation. Every other change of the plan is left for `mkq
// apply`. A worker not selected (`selected` names some) is not part of the
// rotation, reachable or not.
reconcile::Plan rotation_plan(const reconcile::Plan& full, const std::vector<std::string>& selected) {
  reconcile::Plan plan = full;
  if (!selected.empty()) {
    const auto unselected = [&selected](const reconcile::ClusterPlan& cluster) {
      return cluster.role == kueue::ClusterRole::Worker &&
             std::find(selected.begin(), selected.end(), cluster.cluster) == selected.end();
    };
    plan.clusters.erase(std::remove_if(plan.clusters.begin(), plan.clusters.end(), unselected), plan.clusters.end());
  }
  ChangeSelection credentials_only;
  credentials_only.policy = credentials_only.drift = false;
  return selected_plan(plan, credentials_only, reconcile::Reason::NotPartOfRotation);
}

}  // namespace

bool selected(const ChangeSelection& select, const reconcile::Change& change) {
  if (change.credential || !change.revokes_token_of.empty()) return select.credentials;
  if (change.repairs_drift) return select.drift;
  return select.policy;
}

PlanResult plan(const PlanRequest& request, TargetResolver& resolver, Ui& ui) {
  PlanResult result;
  Run run(ui);
  run.destroy = request.destroy;
  result.stop = detail::start(run, request, "", {}, resolver);
  if (result.stop != Stop::None) return result;
  if (!detail::scope_options_ok(run, request.scope)) {
    result.stop = Stop::Failed;
    return result;
  }
  result.plan = detail::make_plan(run, request.path, kind_of(request.destroy), request.no_prune, request.ownership,
                                  request.scope);
  detail::run_preflight(run, *result.plan);
  ui.show_plan(*result.plan);
  if (detail::preflight_failed(*result.plan, run, false)) {
    // Not saved: apply would refuse it.
    result.stop = Stop::Preflight;
    return result;
  }
  if (request.out.empty()) return result;
  if (const base::Result<void> saved = write_saved_plan(*result.plan, request.out); !saved) {
    ui.error(base::describe(saved.error()));
    result.stop = Stop::Failed;
    return result;
  }
  ui.notice("saved the plan to " + request.out + "; apply it with `" +
            run_command("apply", request.out, request.runtime) + "`");
  return result;
}

ApplyResult apply(const ApplyRequest& request, TargetResolver& resolver, Ui& ui) {
  Run run(ui);
  run.destroy = request.destroy;
  const std::string command = !request.command.empty() ? request.command
                              : request.destroy          ? "destroy"
                                                         : "apply";
  if (const Stop stop = detail::start(run, request, command, {}, resolver); stop != Stop::None) return stopped(stop);
  if (!detail::scope_options_ok(run, request.scope)) return stopped(Stop::Failed);
  reconcile::Plan plan = detail::make_plan(run, request.path, kind_of(request.destroy), request.no_prune,
                                           request.ownership, request.scope);
  detail::run_preflight(run, plan);
  ui.show_plan(plan);
  if (detail::preflight_failed(plan, run, true)) return stopped(Stop::Preflight, std::move(plan));
  const reconcile::Plan carried = request.select.all()
                                      ? plan
                                      : selected_plan(plan, request.select, reconcile::Reason::NotSelected);
  if (detail::refused(carried, run)) return stopped(Stop::Refused, std::move(plan));
  if (!request.destroy && !request.allow_empty && carried.removes_everything()) {
    ui.error("this apply would delete every object mkq applied and create none; if that is what you want, run `" +
             run_command("destroy", request.path, request.runtime) + "` or apply with --allow-empty");
    return stopped(Stop::RemovesEverything, std::move(plan));
  }
  ApplyResult result =
      detail::carry_out(run, carried, {command, request.wait, request.force_conflicts, request.auto_approve,
                                       request.drain_timeout});
  if (request.read_credentials) result.credentials = detail::credential_expiries(run);
  result.plan = std::move(plan);
  result.policy_path = request.path;
  return result;
}

ApplyResult apply_saved_plan(const SavedPlanRequest& request, TargetResolver& resolver, Ui& ui) {
  base::Result<reconcile::Plan> saved = read_saved_plan(request.path);
  if (!saved) {
    const std::string& why = saved.error().message;
    ui.error(request.path + " is not a saved plan" + (why.empty() ? "" : ": " + why));
    return stopped(Stop::Failed);
  }
  const bool destroy = saved->kind == reconcile::PlanKind::Destroy;
  // The plan's exclusions are part of it: applied again, whatever the command line repeats.
  RunOptions options = request;
  options.path = saved->policy_path;
  options.runtime.exclude_clusters.clear();
  for (const reconcile::ExcludedCluster& excluded : saved->excluded) {
    options.runtime.exclude_clusters.push_back(excluded.cluster);
  }
  options.runtime.clusters = saved->scope.clusters;
  const auto same = [](const std::vector<std::string>& asked, const std::vector<std::string>& made) {
    return asked.empty() || std::set<std::string>(asked.begin(), asked.end()) == std::set<std::string>(made.begin(), made.end());
  };
  for (const auto& [flag, asked, made] :
       {std::tuple{"--exclude-cluster", &request.runtime.exclude_clusters, &options.runtime.exclude_clusters},
        std::tuple{"--cluster", &request.runtime.clusters, &options.runtime.clusters}}) {
    if (same(*asked, *made)) continue;
    ui.error("the saved plan " + request.path + " was made with other " + flag + " options; make the plan again "
             "with the ones you want");
    return stopped(Stop::Failed);
  }
  Run run(ui);
  run.destroy = destroy;
  const std::string command = destroy ? "destroy" : "apply";
  if (const Stop stop = detail::start(run, options, command, {}, resolver); stop != Stop::None) return stopped(stop);
  const std::string again =
      "\nrun `" + run_command("plan", options.path, options.runtime, {"--out", request.path}) + "` again";
  if (const std::vector<std::string> reasons = stale_reasons(*saved, run); !reasons.empty()) {
    std::string message = "the saved plan " + request.path + " is stale; nothing was changed:";
    for (const std::string& reason : reasons) message += "\n  " + reason;
    ui.error(message + again);
    return stopped(Stop::StalePlan, std::move(saved).value());
  }
  // Only what was checked is applied: the plan made again now must be the saved one.
  OwnershipOptions ownership;
  ownership.take_over = saved->options.take_over;
  ownership.delete_adopted = saved->options.delete_adopted;
  ScopeOptions scope;
  scope.replace = {saved->options.replace.begin(), saved->options.replace.end()};
  scope.drift_only = saved->scope.drift_only;
  reconcile::Plan fresh = detail::make_plan(run, options.path, saved->kind, !saved->options.prune, ownership, scope);
  const std::string difference = reconcile::first_difference(*saved, fresh);
  if (!difference.empty()) {
    ui.error("the saved plan " + request.path + " is not what the policy plans; nothing was changed:\n  " + difference +
             again);
    return stopped(Stop::PlanDiffers, std::move(saved).value());
  }
  // The clusters are checked again now: what the file recorded is history.
  detail::run_preflight(run, fresh);
  saved->preflight = std::move(fresh.preflight);
  ui.show_plan(*saved);
  if (detail::preflight_failed(*saved, run, true)) return stopped(Stop::Preflight, std::move(saved).value());
  if (detail::refused(*saved, run)) return stopped(Stop::Refused, std::move(saved).value());
  ApplyResult result =
      detail::carry_out(run, *saved, {command, request.wait, request.force_conflicts, /*auto_approve=*/true,
                                      request.drain_timeout});
  result.plan = std::move(saved).value();
  result.policy_path = options.path;  // the next step names the policy: a saved plan is stale once applied
  return result;
}

ApplyResult rotate(const RotateRequest& request, TargetResolver& resolver, Ui& ui) {
  credentials::ProviderOptions provider;
  provider.force_rotate = true;
  provider.rotate_only = request.clusters;
  Run run(ui);
  const std::string command = "credentials rotate";
  if (const Stop stop = detail::start(run, request, command, provider, resolver); stop != Stop::None) {
    return stopped(stop);
  }
  for (const std::string& name : request.clusters) {
    const auto& workers = run.compiled.policy->workers;
    if (std::none_of(workers.begin(), workers.end(), [&](const auto& w) { return w.name == name; })) {
      ui.error("--cluster " + name + ": the policy has no worker of that name");
      return stopped(Stop::Failed);
    }
  }
  reconcile::Plan plan =
      rotation_plan(detail::make_plan(run, request.path, reconcile::PlanKind::Apply, true), request.clusters);
  ui.show_plan(plan);
  if (!plan.has_changes() && plan.complete()) {
    run.lock.release();
    ui.notice("no worker uses credentials mkq issues (service-account mode without a pre-issued token)");
    ApplyResult result = stopped(Stop::None, std::move(plan));
    result.command = command;
    result.policy_path = request.path;
    return result;
  }
  ApplyResult result = detail::carry_out(run, plan, {command, std::nullopt, false, request.auto_approve});
  result.plan = std::move(plan);
  result.policy_path = request.path;
  return result;
}

StatusResult status(const StatusRequest& request, TargetResolver& resolver, Ui& ui) {
  StatusResult result;
  Compilation compiled = compile(request.path, CompileTo::Objects, request.compile);
  ui.compiled(compiled);
  if (!compiled.state) {
    result.stop = Stop::Failed;
    return result;
  }
  Session session;
  TargetRequest target;
  target.policy = &*compiled.policy;
  target.policy_path = request.path;
  target.options = request.runtime;
  if (!request.runtime.clusters.empty()) {
    // --cluster: only those clusters are read; a worker named brings its MultiKueueCluster on the manager.
    if (!detail::scope_ok(request.runtime, *compiled.policy, {}, ui)) {
      result.stop = Stop::Failed;
      return result;
    }
    std::vector<state::InventoryEntry> none;
    target.options.exclude_clusters =
        reconcile::workers_outside(request.runtime.clusters, compiled.policy->manager.name, *compiled.state, none);
    reconcile::exclude_clusters(target.options.exclude_clusters, {}, *compiled.state, none);
    const auto& named = request.runtime.clusters;
    if (std::find(named.begin(), named.end(), compiled.policy->manager.name) == named.end()) {
      reconcile::keep_manager_objects_for(named, {}, *compiled.state, none);
    }
  }
  target.verbose = request.verbose;
  if (!resolver.open(target, ui, &session)) {
    result.stop = Stop::Failed;
    return result;
  }
  reconcile::ReadStatusOptions read;
  read.parallelism = std::max(1, request.runtime.parallelism);
  const auto started = std::chrono::steady_clock::now();
  if (request.wait) {
    std::size_t last_active = static_cast<std::size_t>(-1);
    const auto on_poll = [&](const reconcile::StatusReport& now) {
      if (now.all_active() && now.all_reachable()) return;
      if (now.active() == last_active) return;
      last_active = now.active();
      ui.status_poll(now.active(), now.total());
    };
    result.report = reconcile::wait_for_status(*compiled.state, session.targets, read, *request.wait,
                                               request.poll_interval, on_poll);
  } else {
    result.report = reconcile::read_status(*compiled.state, session.targets, read);
  }
  if (session.credentials) {
    for (const reconcile::ClusterStatus& cluster : result.report->clusters) {
      if (!cluster.reachable) session.credentials->unreachable(cluster.cluster);
    }
    result.report->credentials = session.credentials->live_credentials();
    // A worker left out of the run (--cluster, --exclude-cluster) was not read: its row would only say so.
    const std::vector<std::string>& excluded = target.options.exclude_clusters;
    std::erase_if(result.report->credentials, [&excluded](const reconcile::LiveCredentials& worker) {
      return std::find(excluded.begin(), excluded.end(), worker.worker) != excluded.end();
    });
  }
  if (request.verbose) {
    Timing timing;
    timing.step = Timing::Step::Status;
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    timing.milliseconds = took.count();
    for (const auto& client : session.clients) timing.lists += client->stats().lists;
    ui.timing(timing);
  }
  return result;
}

}  // namespace mkq::operation
