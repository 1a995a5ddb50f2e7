// mkq: MultiKueue as code. Parses the command line and runs one subcommand.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <unistd.h>

#include "base/print.h"
#include "base/style.h"
#include "cli/commands.h"
#include "cli/cluster_commands.h"
#include "cli/cmd_controller.h"
#include "cli/cmd_controller_manifests.h"
#include "cli/cmd_import.h"
#include "cli/option_checks.h"
#include "cli/state_commands.h"
#include "cli/usage_hint.h"

namespace {

bool want_color(bool no_color_flag) {
  return mkq::base::color_wanted(no_color_flag, std::getenv("NO_COLOR"), isatty(STDERR_FILENO) == 1);
}

int run(int argc, char** argv) {
  using mkq::cli::OutputFormat;
  using mkq::cli::usage_hint;
  CLI::App app{"mkq — MultiKueue as code: describe a MultiKueue fleet in one policy, check it, plan it, apply it to every cluster"};
  app.name("mkq");
  app.require_subcommand(1);
  // A command line CLI11 refuses reads like every other error of mkq's.
  app.failure_message([](const CLI::App* failed, const CLI::Error& e) {
    return "mkq: error: " + mkq::cli::without_colon(CLI::FailureMessage::simple(failed, e));
  });
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
                         "Write one file per cluster, DIR/<cluster>.yaml (or .json), into a directory render owns: "
                         "files of clusters no longer rendered are removed, a directory holding other files refused");
  render_cmd->add_option("--format", render_format, "yaml (default) or json")
      ->check(CLI::IsMember({"yaml", "json"}));
  render_cmd->add_flag("--include-credential-placeholders", render.include_credential_placeholders,
                       "With -o: write the worker credential Secrets as placeholders (left out by default: "
                       "applied, they would replace the real kubeconfigs)");

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
      ->check(mkq::cli::Within(0, 60000));
  sandbox_cmd->add_option("--fault-500-rate", sandbox.fault_500_rate, "Answer this fraction of requests with 500")
      ->check(mkq::cli::Within(0.0, 1.0));
  sandbox_cmd->add_option("--fault-429-rate", sandbox.fault_429_rate,
                          "Answer this fraction of requests with 429 and Retry-After: 1")
      ->check(mkq::cli::Within(0.0, 1.0));
  sandbox_cmd->add_option("--fault-drop-rate", sandbox.fault_drop_rate,
                          "Close this fraction of connections without an answer")
      ->check(mkq::cli::Within(0.0, 1.0));
  sandbox_cmd->add_flag("--allow-short-tokens", sandbox.allow_short_tokens,
                        "Issue service-account tokens with lifetimes under 10 minutes (for tests)");
  sandbox_cmd->add_option("--apf-concurrency", sandbox.apf_concurrency,
                          "API Priority and Fairness: the server's concurrency, shared by priority level as "
                          "kube-apiserver shares it; one user beyond its level's share waits, then gets 429 "
                          "(default: 600, kube-apiserver's; 0: no limit)")
      ->check(mkq::cli::Within(0, 100000));
  sandbox_cmd->add_option("--fault-verbs", sandbox.fault_verbs,
                          "Inject faults only for these HTTP methods, e.g. post,patch (default: all)");
  for (const char* action : {"up", "down", "status", "serve"}) {
    static const std::map<std::string, std::string> descriptions = {
        {"up", "Start the sandbox in the background; return when every cluster is ready"},
        {"down", "Stop the sandbox (every object is kept for the next start)"},
        {"status", "List the clusters, their ports and object counts (exit 3 when the sandbox is not running)"},
        {"serve", "Run the sandbox in the foreground until SIGTERM or Ctrl-C"}};
    sandbox_cmd->add_subcommand(action, descriptions.at(action))->callback([&sandbox, action] {
      sandbox.action = action;
    });
  }

  mkq::cli::LspOptions lsp;
  CLI::App* lsp_cmd = app.add_subcommand("lsp", "Serve the Language Server Protocol over stdin/stdout, for editors");
  bool lsp_stdio = false;  // accepted for the clients that pass it: stdio is the only transport
  lsp_cmd->add_flag("--stdio", lsp_stdio, "Talk over stdin and stdout (the default and only transport)");
  lsp_cmd->add_option("--debounce", lsp.debounce_ms, "Milliseconds without edits before diagnostics (default: 150)")
      ->check(mkq::cli::Within(0, 10000));

  mkq::cli::ClusterCommands cluster_commands(app);
  mkq::cli::StateCommands state_commands(app);
  mkq::cli::ControllerCommand controller_command(app, cluster_commands);
  mkq::cli::ImportCommand import_command(app, cluster_commands);

  std::vector<CLI::App*> compiling{check_cmd, eval_cmd, render_cmd, graph_cmd, lsp_cmd};
  for (CLI::App* cmd : cluster_commands.compiling()) compiling.push_back(cmd);
  compiling.push_back(controller_command.command());
  mkq::cli::ControllerManifestsCommand controller_manifests(app);  // after `controller`: its subcommand
  compiling.push_back(controller_manifests.command());
  for (CLI::App* cmd : compiling) add_import_root_option(cmd);

  CLI::App* version_cmd = app.add_subcommand("version", "Print mkq's version, commit and the Kueue API it writes");
  std::string version_format = "text";
  version_cmd->add_option("--format", version_format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));

  // Last: what they print is written from every command defined above.
  CLI::App* completion_cmd = app.add_subcommand(
      "completion", "Print the completion script of a shell: source <(mkq completion bash); zsh and fish alike");
  std::string completion_shell;
  completion_cmd->add_option("SHELL", completion_shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  CLI::App* man_cmd =
      app.add_subcommand("man", "Print mkq's man page (roff): mkq man > ~/.local/share/man/man1/mkq.1");

  if (argc == 1) {  // no command: say what there is
    std::fputs(app.help().c_str(), stderr);
    return 1;
  }
  // `--wait` alone means the default duration; a bare --wait must not take the
  // next argument (the policy's PATH) as its value.
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) args.emplace_back(std::string(argv[i]) == "--wait" ? "--wait=5m" : argv[i]);
  const std::vector<std::string> words(args.rbegin(), args.rend());  // parse() consumes args
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; any usage error exits 1, as every other error does.
    if (e.get_exit_code() != 0) {
      if (const std::optional<std::string> hint = usage_hint(app, words)) {
        mkq::base::print(stderr, "mkq: error: {}\n", *hint);
        return 1;
      }
    }
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
  if (*lsp_cmd) return mkq::cli::run_lsp(lsp, global);
  if (*sandbox_cmd) return mkq::cli::run_sandbox(sandbox, global);
  if (*completion_cmd) return mkq::cli::run_completion(app, completion_shell);
  if (*man_cmd) return mkq::cli::run_man(app);
  if (*version_cmd) return mkq::cli::run_version(version_format == "json" ? OutputFormat::Json : OutputFormat::Text);
  if (const std::optional<int> code = cluster_commands.run(global)) return *code;
  if (const std::optional<int> code = state_commands.run(global)) return *code;
  if (const std::optional<int> code = import_command.run(global)) return *code;
  if (const std::optional<int> code = controller_manifests.run(global)) return *code;  // before `controller` itself
  if (const std::optional<int> code = controller_command.run(global)) return *code;
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The one boundary where an unexpected exception becomes a message: no user
  // input may end in a raw C++ exception or an abort. Plain stdio here: a
  // handler must not throw, and formatting may allocate.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("mkq: error: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fputs("mkq: internal error: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
  } catch (...) {
    std::fputs("mkq: internal error\n", stderr);
  }
  return 1;
}
