#include "cli/cluster_commands.h"

#include <chrono>

#include <fmt/format.h>

#include "cli/option_checks.h"
#include "cli/run_options.h"
#include "cli/state_commands.h"

namespace mkq::cli {

ClusterCommands::ClusterCommands(CLI::App& app) {
  // Where the clusters and the state are: shared by plan, apply and destroy.
  const auto add_runtime_options = [](CLI::App* cmd, RuntimeOptions& runtime) {
    cmd->add_option("--kubeconfig", runtime.kubeconfig,
                    "The kubeconfig file (default: $KUBECONFIG, then ~/.kube/config; none at all: the sandbox)");
    cmd->add_flag("--sandbox", runtime.sandbox,
                  "Target the sandbox (started with the policy's cluster names when it is not running)");
    cmd->add_option("--sandbox-dir", runtime.sandbox_dir,
                    "The sandbox's directory (default: .mkq/sandbox in the policy's directory)");
    cmd->add_option("--state", runtime.state_path,
                    "The state database (default: $MKQ_STATE, else .mkq/state.db beside the policy), or "
                    "kubernetes://CONTEXT/NAMESPACE/NAME for a state kept in a cluster");
    cmd->add_flag("--insecure-skip-tls-verify", runtime.insecure_skip_tls_verify,
                  "Allow kubeconfig clusters with insecure-skip-tls-verify (refused otherwise)");
    cmd->add_option("--qps", runtime.qps,
                    "Requests per second to each cluster, even one that announces API Priority and Fairness "
                    "(default: none for such a cluster, else 1000)")
        ->check(Within(0.1, 100000.0));
    cmd->add_option("--burst", runtime.burst,
                    "Requests allowed at once before --qps applies (default: none with API Priority and "
                    "Fairness, else 1000; with --qps alone, one second's worth)")
        ->check(Within(1, 100000));
    cmd->add_option("--parallelism", runtime.parallelism, "Requests in flight at once over all clusters (default: 16)")
        ->check(Within(1, 256));
    cmd->add_option_function<std::string>(
           "--request-timeout",
           [&runtime](const std::string& text) { parse_duration(text, &runtime.request_timeout); },
           "How long one request to a cluster may take, its retries included: a cluster that has not "
           "answered by then is unreachable (default: 30s)")
        ->type_name("DURATION")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
              std::chrono::milliseconds timeout{};
              if (parse_duration(text, &timeout) && timeout.count() > 0) return "";
              return fmt::format("a duration above zero such as 10s, 500ms or 1m, not \"{}\"", text);
            },
            ""));
  };
  runtime_options_ = add_runtime_options;  // `mkq controller` takes them too

  // Going on without a worker (plan, apply, destroy).
  const auto add_exclude_option = [](CLI::App* cmd, RuntimeOptions& runtime) {
    // One name per option: without allow_extra_args(false) CLI11 takes the PATH that follows as a second name.
    cmd->add_option("--exclude-cluster", runtime.exclude_clusters,
                    "Leave this worker out: neither read nor changed, nor its MultiKueueCluster and Secret on the "
                    "manager (repeatable)")
        ->type_name("NAME")
        ->allow_extra_args(false);
  };

  // Scoping (docs/apply.md, "Scoping"): --cluster on plan, apply, destroy and status.
  const auto add_cluster_option = [](CLI::App* cmd, RuntimeOptions& runtime) {
    cmd->add_option("--cluster", runtime.clusters,
                    "Only this cluster: read and change nothing else (a worker brings its MultiKueueCluster and "
                    "Secret on the manager; repeatable)")
        ->type_name("NAME")
        ->allow_extra_args(false);
  };
  // --replace and --drift-only: plan and apply.
  const auto add_scope_options = [](CLI::App* cmd, ScopeOptions& scope) {
    cmd->add_option("--replace", scope.replace,
                    "Delete this object and create it again from the policy, whatever differs (an address as the "
                    "plan shows it, CLUSTER/KIND/[NAMESPACE/]NAME; repeatable)")
        ->type_name("ADDRESS")
        ->allow_extra_args(false);
    cmd->add_flag("--drift-only", scope.drift_only,
                  "Plan only repairs of objects changed outside mkq since it applied them; leave every other change");
  };

  // What may happen to objects mkq did not create: shared by plan, apply and destroy.
  const auto add_ownership_options = [](CLI::App* cmd, OwnershipOptions& ownership) {
    cmd->add_flag("--take-over", ownership.take_over,
                  "Make objects labelled with another policy's identity this policy's (refused otherwise)");
    cmd->add_flag("--delete-adopted", ownership.delete_adopted,
                  "Delete objects that existed before mkq adopted them, instead of releasing them");
  };

  plan_cmd = app.add_subcommand(
      "plan", "Compile a policy, read the clusters and the state, and show what apply would change on each cluster");
  plan_cmd->add_option("PATH", plan.path, "A .mkq file or a directory of them (default: .)");
  add_runtime_options(plan_cmd, plan.runtime);
  plan_cmd->add_option("--out", plan.out, "Save the plan to FILE; `mkq apply FILE` applies exactly it, or refuses "
                                          "when the clusters or the state moved since");
  plan_cmd->add_option("--format", plan_format, "text (default), json or markdown (for a pull-request comment)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  plan_cmd->add_flag("--detailed-exitcode", plan.detailed_exitcode, "Exit 0 with no changes, 1 on error, 2 with changes");
  plan_cmd->add_flag("--destroy", plan.destroy, "Plan the deletion of everything this policy applied");
  plan_cmd->add_flag("--no-prune", plan.no_prune, "Keep objects mkq applied that the policy no longer declares");
  add_exclude_option(plan_cmd, plan.runtime);
  add_cluster_option(plan_cmd, plan.runtime);
  add_scope_options(plan_cmd, plan.scope);
  add_ownership_options(plan_cmd, plan.ownership);

  apply_cmd = app.add_subcommand(
      "apply", "Reconcile the manager and every worker with the policy (or apply a plan saved with `plan --out`)");
  apply_cmd->add_option("PATH", apply.path, "A .mkq file, a directory of them (default: .), or a saved plan");
  add_runtime_options(apply_cmd, apply.runtime);
  apply_cmd->add_flag("--auto-approve", apply.auto_approve, "Do not ask for confirmation");
  apply_cmd->add_option("--wait", apply_wait,
                        "Wait until every applied Kueue object is Active, at most DURATION (--wait alone: 5m)");
  apply_cmd->add_flag("--no-prune", apply.no_prune, "Keep objects mkq applied that the policy no longer declares");
  apply_cmd->add_flag("--force-conflicts", apply.force_conflicts,
                      "Take ownership of fields another field manager owns (server-side apply force)");
  apply_cmd->add_flag("--allow-empty", apply.allow_empty, "Allow an apply that deletes every object mkq applied");
  apply_cmd->add_option("--drain-timeout", apply.drain_timeout,
                        "A worker leaving the fleet: wait at most DURATION until no Workload runs on it before "
                        "deleting its objects; past it they are kept and apply exits 1 (default 10m; 0: do not wait, "
                        "delete at once)");
  add_exclude_option(apply_cmd, apply.runtime);
  add_cluster_option(apply_cmd, apply.runtime);
  add_scope_options(apply_cmd, apply.scope);
  add_ownership_options(apply_cmd, apply.ownership);

  destroy.destroy = true;
  destroy_cmd = app.add_subcommand("destroy", "Delete every object this policy applied, in reverse order");
  destroy_cmd->add_option("PATH", destroy.path, "A .mkq file or a directory of them (default: .)");
  add_runtime_options(destroy_cmd, destroy.runtime);
  destroy_cmd->add_flag("--auto-approve", destroy.auto_approve, "Do not ask for confirmation");
  add_exclude_option(destroy_cmd, destroy.runtime);
  add_cluster_option(destroy_cmd, destroy.runtime);
  add_ownership_options(destroy_cmd, destroy.ownership);

  status_cmd = app.add_subcommand(
      "status", "Show every managed Kueue object's Active condition on every cluster (exit 1 if any is not Active)");
  status_cmd->add_option("PATH", status.path, "A .mkq file or a directory of them (default: .)");
  add_runtime_options(status_cmd, status.runtime);
  status_cmd->add_option("--format", status_format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  status_cmd->add_option("--wait", status_wait, "Wait until every object is Active, at most DURATION (--wait alone: 5m)");
  add_cluster_option(status_cmd, status.runtime);

  CLI::App* credentials_cmd = app.add_subcommand("credentials", "Worker credentials mkq issues");
  credentials_cmd->require_subcommand(1);
  rotate_cmd = credentials_cmd->add_subcommand(
      "rotate", "Issue fresh worker credentials now and revoke the old ones (service-account mode)");
  rotate_cmd->add_option("PATH", rotate.path, "A .mkq file or a directory of them (default: .)");
  rotate_cmd->add_option("--cluster", rotate.clusters, "Only this worker (repeatable; default: every worker)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  add_runtime_options(rotate_cmd, rotate.runtime);
  rotate_cmd->add_flag("--auto-approve", rotate.auto_approve, "Do not ask for confirmation");
}

void ClusterCommands::add_runtime_options(CLI::App* cmd, RuntimeOptions& runtime) const {
  runtime_options_(cmd, runtime);
}

std::vector<CLI::App*> ClusterCommands::compiling() const {
  return {plan_cmd, apply_cmd, destroy_cmd, status_cmd, rotate_cmd};
}

std::optional<int> ClusterCommands::run(const GlobalOptions& global) {
  for (std::string* option :
       {&plan.runtime.state_path, &apply.runtime.state_path, &destroy.runtime.state_path, &rotate.runtime.state_path}) {
    state_from_environment(*option);
  }
  if (*plan_cmd) {
    plan.format = plan_format == "json"       ? PlanFormat::Json
                  : plan_format == "markdown" ? PlanFormat::Markdown
                                              : PlanFormat::Text;
    return run_plan(plan, global);
  }
  if (*apply_cmd) {
    apply.wait = apply_cmd->count("--wait") > 0;
    if (apply.wait) apply.wait_duration = apply_wait;
    return run_apply(apply, global);
  }
  if (*destroy_cmd) return run_apply(destroy, global);
  if (*status_cmd) {
    status.json = status_format == "json";
    status.wait = status_cmd->count("--wait") > 0;
    if (status.wait) status.wait_duration = status_wait;
    return run_status(status, global);
  }
  if (*rotate_cmd) return run_rotate(rotate, global);
  return std::nullopt;
}

}  // namespace mkq::cli
