// `mkq render`: compile a policy and print the desired objects of every
// cluster (stdout), or write one file per cluster into a directory render
// owns (-o DIR, render_dir.h), the worker credential Secrets left out unless
// placeholders are asked for. Diagnostics go to stderr; on an error nothing is
// printed or written and the exit code is 1. Printing streams: each cluster
// is lowered, written and let go before the next, so memory grows with the
// largest cluster, not with the fleet (-o holds the files' text until every
// one is rendered, so that a failure writes nothing).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/render_dir.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/render.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;

// The worker credential Secrets (kueue::Object::holds_credential_placeholder)
// as "NAMESPACE/NAME", taken out of `cluster` unless placeholders are asked for.
std::vector<std::string> take_credentials_out(kueue::ClusterObjects& cluster, bool keep) {
  std::vector<std::string> out;
  for (const kueue::Object& object : cluster.objects) {
    if (object.holds_credential_placeholder) out.push_back(object.namespace_name + "/" + object.name);
  }
  if (!keep) std::erase_if(cluster.objects, [](const kueue::Object& o) { return o.holds_credential_placeholder; });
  return out;
}

// The README render writes into DIR: what the directory is, and why the
// worker credentials are not in it (or, with placeholders, why to beware).
std::string readme(const std::vector<std::string>& credentials, const std::string& manager, bool placeholders) {
  std::string out =
      "# Rendered by mkq\n\n"
      "`mkq render -o` wrote the files of this directory, one per cluster, and lists them in\n"
      "`.mkq-render`. The next render rewrites them and removes those of clusters it no longer\n"
      "renders; it refuses a directory holding files it did not write, so keep nothing else here.\n";
  if (credentials.empty()) return out;
  out += placeholders ? "\nThe worker credential Secrets are placeholders (--include-credential-placeholders):\n\n"
                      : "\nLeft out on purpose: the worker credential Secrets, which `mkq apply` or `mkq controller`\n"
                        "issues and keeps current (a placeholder synced from here would replace the real kubeconfig\n"
                        "and disconnect the worker):\n\n";
  for (const std::string& name : credentials) {
    fmt::format_to(std::back_inserter(out), "- Secret {} on {}\n", name, manager);
  }
  out += placeholders
             ? "\nApplied as they are -- by Argo CD, Flux or `kubectl apply --server-side --force-conflicts` -- they\n"
               "replace the real kubeconfigs and disconnect the workers. `mkq apply` or `mkq controller`\n"
               "issues the real ones.\n"
             : "\n`mkq render -o DIR --include-credential-placeholders` writes placeholders all the same.\n";
  return out;
}

// Writes DIR/<cluster>.<ext> for every cluster and DIR/README.md into the
// directory render owns (render_dir.h).
int write_cluster_files(const kueue::ClusterLowering& lowering, const RenderOptions& options) {
  const bool json = options.format == RenderFormat::Json;
  std::map<std::string, std::string> files;
  std::vector<std::string> credentials;
  std::string manager;
  for (std::size_t i = 0; i < lowering.size(); ++i) {
    kueue::ClusterObjects cluster = lowering.cluster(i);
    if (cluster.role == kueue::ClusterRole::Manager) manager = cluster.cluster;
    for (std::string& name : take_credentials_out(cluster, options.include_credential_placeholders)) {
      credentials.push_back(std::move(name));
    }
    std::string text = json ? kueue::render_cluster_json(cluster) : kueue::render_cluster_yaml(cluster);
    if (!json && cluster.role == kueue::ClusterRole::Manager && !credentials.empty() &&
        !options.include_credential_placeholders) {
      text = "# The worker credential Secrets are left out: `mkq apply` or `mkq controller` manages them (README.md)\n" +
             text;
    }
    files[cluster.cluster + (json ? ".json" : ".yaml")] = std::move(text);
  }
  files["README.md"] = readme(credentials, manager, options.include_credential_placeholders);
  return write_render_dir(options.output_dir, files);
}

}  // namespace

int run_render(const RenderOptions& options, const GlobalOptions& global) {
  // `-o json` names a directory; a user who typed it almost always meant the
  // format. A directory of that name that already exists is taken as meant.
  for (const char* format : {"json", "yaml", "yml"}) {
    if (options.output_dir == format && !fs::is_directory(options.output_dir)) {
      base::print(stderr,
                  "mkq: error: -o takes a directory to write one file per cluster into, not a format; did you mean "
                  "--format {}?\n",
                  std::string_view(format) == "yml" ? "yaml" : format);
      return 1;
    }
  }
  // `-o out/all.yaml` names a file: render would make a directory of that name.
  const std::string extension = fs::path(options.output_dir).extension().string();
  if ((extension == ".yaml" || extension == ".yml" || extension == ".json") && !fs::is_directory(options.output_dir)) {
    base::print(stderr,
                "mkq: error: -o takes a directory to write one file per cluster into, not a file; to write every "
                "cluster into one file: mkq render PATH > {}\n",
                options.output_dir);
    return 1;
  }
  // To the model only (with Kueue's rules checked): lowering is done here,
  // one cluster at a time.
  const Compilation compiled = compile(options.path, CompileTo::Model, global);
  print_diagnostics(compiled, global);
  if (!compiled.ok()) return 1;
  // Live-dependent orders are written at plan time (runtime/reconcile/capacity.h); render keeps the compiled one.
  for (const sema::model::Dispatch& dispatch : compiled.policy->dispatches) {
    if (!dispatch.selector || !dispatch.selector->resource) continue;
    base::print(stderr,
                "mkq: note: dispatch '{}' lists its workers most free {} first, as read when mkq plans; rendered here "
                "by name\n",
                dispatch.name, dispatch.selector->resource->value);
  }
  const auto start = std::chrono::steady_clock::now();
  const kueue::ClusterLowering lowering(*compiled.policy, operation::lower_options(compiled));
  int status = 0;
  if (!options.output_dir.empty()) {
    status = write_cluster_files(lowering, options);
  } else {
    kueue::StateWriter writer(options.format == RenderFormat::Json ? kueue::TextFormat::JsonText : kueue::TextFormat::Yaml);
    for (std::size_t i = 0; i < lowering.size(); ++i) {
      const std::string text = writer.cluster(lowering, i);
      std::fwrite(text.data(), 1, text.size(), stdout);
    }
    const std::string end = writer.end();
    std::fwrite(end.data(), 1, end.size(), stdout);
  }
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
  print_timing({"render", took.count()}, global);
  return status;
}

}  // namespace mkq::cli
