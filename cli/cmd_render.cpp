// `mkq render`: compile a policy and print the desired objects of every
// cluster (stdout), or write one file per cluster into a directory render
// owns (-o DIR, runtime/operation/render_output.h), the worker credential
// Secrets left out unless placeholders are asked for. Diagnostics go to
// stderr; on an error nothing is printed or written and the exit code is 1.
// Printing streams: each cluster is lowered, written and let go before the
// next, so memory grows with the largest cluster, not with the fleet (-o holds
// the files' text until every one is rendered, so that a failure writes
// nothing).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/terminal_ui.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/render.h"
#include "runtime/operation/render_output.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;

// Writes DIR/<cluster>.<ext> for every cluster and DIR/README.md into the
// directory render owns (runtime/operation/render_output.h).
int write_cluster_files(const kueue::ClusterLowering& lowering, const RenderOptions& options) {
  operation::RenderFilesOptions files;
  files.json = options.format == RenderFormat::Json;
  files.include_credential_placeholders = options.include_credential_placeholders;
  const base::Result<void> written =
      operation::write_render_dir(options.output_dir, operation::render_cluster_files(lowering, files));
  if (written) return 0;
  error_line(written.error().message);
  return 1;
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
