// mkq: MultiKueue as code. Parses the command line and runs one subcommand.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include <unistd.h>

#include "cli/commands.h"
#include "runtime/operation/session.h"

namespace {

bool want_color(bool no_color_flag) {
  if (no_color_flag) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return isatty(STDERR_FILENO) == 1;
}

int run(int argc, char** argv) {
  using mkq::cli::OutputFormat;
  CLI::App app{"mkq — MultiKueue as code: describe a MultiKueue fleet in one policy, check it, plan it, apply it to every cluster"};
  app.name("mkq");
  app.require_subcommand(1);
  app.fallthrough();  // global options (--no-color, -v) also after the subcommand
  app.set_version_flag("--version", std::string("mkq ") + MKQ_VERSION);
  app.footer("Run `mkq COMMAND --help` for a command's options. Docs: docs/language.md, docs/apply.md");

  bool no_color = false;
  bool verbose = false;
  app.add_flag("--no-color", no_color, "Do not color the output (also: NO_COLOR=1)");
  app.add_flag("-v,--verbose", verbose, "Say more about what mkq does");

  // Every command that compiles a policy: where its imports may read.
  std::vector<std::string> import_roots;
  const auto add_import_root_option = [&import_roots](CLI::App* cmd) {
    cmd->add_option("--import-root", import_roots,
                    "Also allow imports of the files under DIR (repeatable; default: only the policy's own "
                    "directory and std/)")
        ->type_name("DIR")
        ->allow_extra_args(false)
        ->check(CLI::ExistingDirectory);
  };

  mkq::cli::CheckOptions check;
  std::string check_format = "text";
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Parse, type-check and evaluate a policy; report every problem (exit 0 clean, 1 with errors)");
  check_cmd->add_option("PATH", check.path, "A .mkq file or a directory of them (default: .)");
  check_cmd->add_option("--format", check_format, "Diagnostics as text (default) or json")
      ->check(CLI::IsMember({"text", "json"}));

  mkq::cli::EvalOptions eval;
  CLI::App* eval_cmd = app.add_subcommand(
      "eval", "Compile a policy and print its typed model as JSON, defaults filled in (secrets: only their source)");
  eval_cmd->add_option("PATH", eval.path, "A .mkq file or a directory of them (default: .)");

  mkq::cli::FmtOptions fmt;
  CLI::App* fmt_cmd = app.add_subcommand(
      "fmt", "Rewrite .mkq files in the canonical layout, keeping every comment");
  fmt_cmd->add_option("PATH", fmt.paths, ".mkq files, or directories searched recursively (default: .)");
  fmt_cmd->add_flag("--check", fmt.check, "Change nothing; list the files that are not formatted and exit 1 if any");

  mkq::cli::RenderOptions render;
  std::string render_format = "yaml";
  CLI::App* render_cmd = app.add_subcommand(
      "render", "Compile a policy and print the Kubernetes objects of the manager and every worker");
  render_cmd->add_option("PATH", render.path, "A .mkq file or a directory of them (default: .)");
  render_cmd->add_option("-o,--output", render.output_dir,
                         "Write one file per cluster, DIR/<cluster>.yaml (or .json), instead of printing");
  render_cmd->add_option("--format", render_format, "yaml (default) or json")
      ->check(CLI::IsMember({"yaml", "json"}));

  mkq::cli::GraphOptions graph;
  CLI::App* graph_cmd = app.add_subcommand(
      "graph", "Compile a policy and print its objects on every cluster and their dependencies as a DOT graph");
  graph_cmd->add_option("PATH", graph.path, "A .mkq file or a directory of them (default: .)");

  mkq::cli::SandboxCommandOptions sandbox;
  CLI::App* sandbox_cmd = app.add_subcommand(
      "sandbox", "Local Kubernetes-API-compatible clusters (HTTPS on 127.0.0.1) for trying mkq and for tests");
  sandbox_cmd->require_subcommand(1);
  sandbox_cmd->fallthrough();  // its options also after up/down/status/serve
  sandbox_cmd->add_option("--dir", sandbox.dir, "The sandbox's directory: certificates, kubeconfig, databases, log "
                                                "(default: .mkq/sandbox)");
  sandbox_cmd->add_option("--clusters", sandbox.clusters, "Comma-separated cluster names (default: manager,worker1)");
  sandbox_cmd->add_flag("--no-kueue", sandbox.no_kueue, "up: install no Kueue CRDs");
  sandbox_cmd->add_option("--crds", sandbox.crds_dir, "up: create every CRD in this directory's YAML files (default: mkq's built-in Kueue CRDs)");
  sandbox_cmd->add_option("--fault-latency-ms", sandbox.fault_latency_ms, "Add this latency to every request")
      ->check(CLI::Range(0, 60000));
  sandbox_cmd->add_option("--fault-500-rate", sandbox.fault_500_rate, "Answer this fraction of requests with 500")
      ->check(CLI::Range(0.0, 1.0));
  sandbox_cmd->add_option("--fault-429-rate", sandbox.fault_429_rate,
                          "Answer this fraction of requests with 429 and Retry-After: 1")
      ->check(CLI::Range(0.0, 1.0));
  sandbox_cmd->add_option("--fault-drop-rate", sandbox.fault_drop_rate,
                          "Close this fraction of connections without an answer")
      ->check(CLI::Range(0.0, 1.0));
  sandbox_cmd->add_flag("--allow-short-tokens", sandbox.allow_short_tokens,
                        "Issue service-account tokens with lifetimes under 10 minutes (for tests)");
  sandbox_cmd->add_option("--fault-verbs", sandbox.fault_verbs,
                          "Inject faults only for these HTTP methods, e.g. post,patch (default: all)");
  for (const char* action : {"up", "down", "status", "serve"}) {
    static const std::map<std::string, std::string> descriptions = {
        {"up", "Start the sandbox in the background; return when every cluster is ready"},
        {"down", "Stop the sandbox (every object is kept for the next start)"},
        {"status", "List the clusters, their ports and object counts"},
        {"serve", "Run the sandbox in the foreground until SIGTERM or Ctrl-C"}};
    sandbox_cmd->add_subcommand(action, descriptions.at(action))->callback([&sandbox, action] {
      sandbox.action = action;
    });
  }

  // Where the clusters and the state are: shared by plan, apply and destroy.
  const auto add_runtime_options = [](CLI::App* cmd, mkq::cli::RuntimeOptions& runtime) {
    cmd->add_option("--kubeconfig", runtime.kubeconfig,
                    "The kubeconfig file (default: $KUBECONFIG, then ~/.kube/config; none at all: the sandbox)");
    cmd->add_flag("--sandbox", runtime.sandbox,
                  "Target the sandbox (started with the policy's cluster names when it is not running)");
    cmd->add_option("--sandbox-dir", runtime.sandbox_dir,
                    "The sandbox's directory (default: .mkq/sandbox in the policy's directory)");
    cmd->add_option("--state", runtime.state_path, "The state database (default: .mkq/state.db beside the policy)");
    cmd->add_flag("--insecure-skip-tls-verify", runtime.insecure_skip_tls_verify,
                  "Allow kubeconfig clusters with insecure-skip-tls-verify (refused otherwise)");
    cmd->add_option("--qps", runtime.qps, "Requests per second to each cluster (default: 50)")
        ->check(CLI::Range(0.1, 100000.0));
    cmd->add_option("--burst", runtime.burst, "Requests allowed at once before --qps applies (default: 100)")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--parallelism", runtime.parallelism, "Requests in flight at once over all clusters (default: 8)")
        ->check(CLI::Range(1, 256));
  };

  // Going on without a worker (plan, apply, destroy).
  const auto add_exclude_option = [](CLI::App* cmd, mkq::cli::RuntimeOptions& runtime) {
    // One name per option: without allow_extra_args(false) CLI11 takes the PATH that follows as a second name.
    cmd->add_option("--exclude-cluster", runtime.exclude_clusters,
                    "Leave this worker out: neither read nor changed, nor its MultiKueueCluster and Secret on the "
                    "manager (repeatable)")
        ->type_name("NAME")
        ->allow_extra_args(false);
  };

  // What may happen to objects mkq did not create: shared by plan, apply and destroy.
  const auto add_ownership_options = [](CLI::App* cmd, mkq::cli::OwnershipOptions& ownership) {
    cmd->add_flag("--take-over", ownership.take_over,
                  "Make objects labelled with another policy's identity this policy's (refused otherwise)");
    cmd->add_flag("--delete-adopted", ownership.delete_adopted,
                  "Delete objects that existed before mkq adopted them, instead of releasing them");
  };

  mkq::cli::PlanCommandOptions plan;
  std::string plan_format = "text";
  CLI::App* plan_cmd = app.add_subcommand(
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
  add_ownership_options(plan_cmd, plan.ownership);

  mkq::cli::ApplyCommandOptions apply;
  std::string apply_wait;
  CLI::App* apply_cmd = app.add_subcommand(
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
  add_exclude_option(apply_cmd, apply.runtime);
  add_ownership_options(apply_cmd, apply.ownership);

  mkq::cli::ApplyCommandOptions destroy;
  destroy.destroy = true;
  CLI::App* destroy_cmd = app.add_subcommand("destroy", "Delete every object this policy applied, in reverse order");
  destroy_cmd->add_option("PATH", destroy.path, "A .mkq file or a directory of them (default: .)");
  add_runtime_options(destroy_cmd, destroy.runtime);
  destroy_cmd->add_flag("--auto-approve", destroy.auto_approve, "Do not ask for confirmation");
  add_exclude_option(destroy_cmd, destroy.runtime);
  add_ownership_options(destroy_cmd, destroy.ownership);

  mkq::cli::StatusOptions status;
  std::string status_format = "text";
  std::string status_wait;
  CLI::App* status_cmd = app.add_subcommand(
      "status", "Show every managed Kueue object's Active condition on every cluster (exit 1 if any is not Active)");
  status_cmd->add_option("PATH", status.path, "A .mkq file or a directory of them (default: .)");
  add_runtime_options(status_cmd, status.runtime);
  status_cmd->add_option("--format", status_format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  status_cmd->add_option("--wait", status_wait, "Wait until every object is Active, at most DURATION (--wait alone: 5m)");

  mkq::cli::RotateOptions rotate;
  CLI::App* credentials_cmd = app.add_subcommand("credentials", "Worker credentials mkq issues");
  credentials_cmd->require_subcommand(1);
  CLI::App* rotate_cmd = credentials_cmd->add_subcommand(
      "rotate", "Issue fresh worker credentials now and revoke the old ones (service-account mode)");
  rotate_cmd->add_option("PATH", rotate.path, "A .mkq file or a directory of them (default: .)");
  rotate_cmd->add_option("--cluster", rotate.clusters, "Only this worker (repeatable; default: every worker)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  add_runtime_options(rotate_cmd, rotate.runtime);
  rotate_cmd->add_flag("--auto-approve", rotate.auto_approve, "Do not ask for confirmation");

  mkq::cli::StateCommandOptions state;
  std::string state_policy = ".";
  std::string state_file;
  CLI::App* state_cmd = app.add_subcommand(
      "state", "Read the state mkq keeps of what it applied; release a stale lock; forget objects");
  state_cmd->require_subcommand(1);
  state_cmd->fallthrough();
  state_cmd->add_option("--state", state_file, "The state database (default: .mkq/state.db beside --policy)");
  state_cmd->add_option("--policy", state_policy, "The policy whose state to read (default: .)");
  state_cmd->add_flag("--json", state.json, "Print JSON");
  state_cmd->add_subcommand("list", "List every object in the inventory")->callback([&state] { state.action = "list"; });
  CLI::App* state_show = state_cmd->add_subcommand("show", "Show one object of the inventory");
  state_show->add_option("ADDRESS", state.address, "CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME")->required();
  state_show->callback([&state] { state.action = "show"; });
  CLI::App* state_unlock = state_cmd->add_subcommand("unlock", "Release the apply lock (of a run that died)");
  state_unlock->add_flag("--force", state.force, "Release it even while its holder still runs on this host");
  state_unlock->callback([&state] { state.action = "unlock"; });
  CLI::App* state_rm = state_cmd->add_subcommand(
      "rm", "Forget objects (ADDRESS..., or every object of --cluster NAME) without touching any cluster");
  state_rm->add_option("ADDRESS", state.addresses, "CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME");
  state_rm->add_option("--cluster", state.clusters, "Every object of this cluster, e.g. a dead worker (repeatable)")
      ->type_name("NAME")
      ->allow_extra_args(false);
  state_rm->callback([&state] { state.action = "rm"; });

  mkq::cli::HistoryOptions history;
  std::string history_policy = ".";
  CLI::App* history_cmd = app.add_subcommand("history", "List past applies and destroys, or one run's objects");
  history_cmd->add_option("RUN", history.run, "A run's id: show each object's outcome");
  history_cmd->add_option("--state", history.state_path, "The state database (default: .mkq/state.db beside --policy)");
  history_cmd->add_option("--policy", history_policy, "The policy whose history to read (default: .)");
  history_cmd->add_option("--limit", history.limit, "How many runs (default: 20)")->check(CLI::Range(1, 100000));
  history_cmd->add_flag("--json", history.json, "Print JSON");

  for (CLI::App* cmd : {check_cmd, eval_cmd, render_cmd, graph_cmd, plan_cmd, apply_cmd, destroy_cmd, status_cmd,
                        rotate_cmd}) {
    add_import_root_option(cmd);
  }

  CLI::App* version_cmd = app.add_subcommand("version", "Print mkq's version and build information");

  if (argc == 1) {  // no command: say what there is
    std::fputs(app.help().c_str(), stderr);
    return 1;
  }
  // `--wait` alone means the default duration; a bare --wait must not take the
  // next argument (the policy's PATH) as its value.
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) args.emplace_back(std::string(argv[i]) == "--wait" ? "--wait=5m" : argv[i]);
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; any usage error exits 1, as every other error does.
    return app.exit(e) == 0 ? 0 : 1;
  }

  mkq::cli::GlobalOptions global;
  global.color = want_color(no_color);
  global.verbose = verbose;
  global.import_roots = import_roots;

  if (*check_cmd) {
    check.format = check_format == "json" ? OutputFormat::Json : OutputFormat::Text;
    return mkq::cli::run_check(check, global);
  }
  if (*eval_cmd) return mkq::cli::run_eval(eval, global);
  if (*fmt_cmd) {
    if (fmt.paths.empty()) fmt.paths.push_back(".");
    return mkq::cli::run_fmt(fmt, global);
  }
  if (*render_cmd) {
    render.format = render_format == "json" ? mkq::cli::RenderFormat::Json : mkq::cli::RenderFormat::Yaml;
    return mkq::cli::run_render(render, global);
  }
  if (*graph_cmd) return mkq::cli::run_graph(graph, global);
  if (*sandbox_cmd) return mkq::cli::run_sandbox(sandbox, global);
  if (*version_cmd) return mkq::cli::run_version();
  if (*plan_cmd) {
    plan.format = plan_format == "json"       ? mkq::cli::PlanFormat::Json
                  : plan_format == "markdown" ? mkq::cli::PlanFormat::Markdown
                                              : mkq::cli::PlanFormat::Text;
    return mkq::cli::run_plan(plan, global);
  }
  if (*apply_cmd) {
    apply.wait = apply_cmd->count("--wait") > 0;
    if (apply.wait) apply.wait_duration = apply_wait;
    return mkq::cli::run_apply(apply, global);
  }
  if (*destroy_cmd) return mkq::cli::run_apply(destroy, global);
  if (*status_cmd) {
    status.json = status_format == "json";
    status.wait = status_cmd->count("--wait") > 0;
    if (status.wait) status.wait_duration = status_wait;
    return mkq::cli::run_status(status, global);
  }
  if (*rotate_cmd) return mkq::cli::run_rotate(rotate, global);
  if (*state_cmd) {
    mkq::cli::RuntimeOptions runtime;
    runtime.state_path = state_file;
    state.state_path = mkq::operation::state_path_for(state_policy, runtime).string();
    state.policy_path = state_policy;
    state.state_option = state_file;
    return mkq::cli::run_state(state, global);
  }
  if (*history_cmd) {
    mkq::cli::RuntimeOptions runtime;
    runtime.state_path = history.state_path;
    history.state_path = mkq::operation::state_path_for(history_policy, runtime).string();
    return mkq::cli::run_history(history, global);
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The one boundary where an unexpected exception becomes a message: no user
  // input may end in a raw C++ exception or an abort.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("mkq: error: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mkq: internal error: %s\n", e.what());
  } catch (...) {
    std::fputs("mkq: internal error\n", stderr);
  }
  return 1;
}
