// `mkq render`: compile a policy and print the desired objects of every
// cluster (stdout), or write one file per cluster (-o DIR). Diagnostics go to
// stderr; on an error nothing is printed or written and the exit code is 1.
// Render streams: each cluster is lowered, written and let go before the
// next, so memory grows with the largest cluster, not with the fleet.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "cli/commands.h"
#include "cli/compile.h"
#include "compiler/kueue/lower.h"
#include "compiler/kueue/render.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;

struct PendingFile {
  fs::path target;
  fs::path temporary;
};

void remove_all_temporaries(const std::vector<PendingFile>& files) {
  std::error_code ignored;
  for (const PendingFile& file : files) fs::remove(file.temporary, ignored);
}

// Writes DIR/<cluster>.<ext> for every cluster, atomically per file: every
// file is first written beside its target and renamed only when all were
// written, so a failure leaves the directory as it was.
int write_cluster_files(const kueue::ClusterLowering& lowering, const RenderOptions& options) {
  const fs::path dir(options.output_dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    std::fprintf(stderr, "mkq: error: cannot create the output directory %s: %s\n", dir.string().c_str(),
                 ec ? ec.message().c_str() : "not a directory");
    return 1;
  }
  const bool json = options.format == RenderFormat::Json;
  std::vector<PendingFile> pending;
  for (std::size_t i = 0; i < lowering.size(); ++i) {
    const kueue::ClusterObjects cluster = lowering.cluster(i);
    const std::string file_name = cluster.cluster + (json ? ".json" : ".yaml");
    PendingFile file{dir / file_name, dir / ("." + file_name + ".tmp." + std::to_string(::getpid()))};
    pending.push_back(file);
    const std::string text = json ? kueue::render_cluster_json(cluster) : kueue::render_cluster_yaml(cluster);
    std::ofstream out(file.temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "mkq: error: cannot write %s\n", file.temporary.string().c_str());
      remove_all_temporaries(pending);
      return 1;
    }
  }
  for (const PendingFile& file : pending) {
    fs::rename(file.temporary, file.target, ec);
    if (ec) {
      std::fprintf(stderr, "mkq: error: cannot write %s: %s\n", file.target.string().c_str(), ec.message().c_str());
      remove_all_temporaries(pending);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int run_render(const RenderOptions& options, const GlobalOptions& global) {
  // `-o json` names a directory; a user who typed it almost always meant the
  // format. A directory of that name that already exists is taken as meant.
  for (const char* format : {"json", "yaml", "yml"}) {
    if (options.output_dir == format && !fs::is_directory(options.output_dir)) {
      std::fprintf(stderr,
                   "mkq: error: -o takes a directory to write one file per cluster into, not a format; did you mean "
                   "--format %s?\n",
                   std::string_view(format) == "yml" ? "yaml" : format);
      return 1;
    }
  }
  // To the model only (with Kueue's rules checked): lowering is done here,
  // one cluster at a time.
  const Compilation compiled = compile(options.path, CompileTo::Model, global);
  print_diagnostics(compiled, global);
  if (!compiled.ok()) return 1;
  // Live-dependent orders are written at plan time (runtime/reconcile/capacity.h); render keeps the compiled one.
  for (const sema::model::Dispatch& dispatch : compiled.policy->dispatches) {
    if (!dispatch.selector || !dispatch.selector->resource) continue;
    std::fprintf(stderr,
                 "mkq: note: dispatch '%s' lists its workers most free %s first, as read when mkq plans; rendered "
                 "here by name\n",
                 dispatch.name.c_str(), dispatch.selector->resource->value.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  const kueue::ClusterLowering lowering(*compiled.policy, operation::lower_options(compiled));
  int status = 0;
  if (!options.output_dir.empty()) {
    status = write_cluster_files(lowering, options);
  } else {
    kueue::StateWriter writer(options.format == RenderFormat::Json ? kueue::TextFormat::JsonText : kueue::TextFormat::Yaml);
    for (std::size_t i = 0; i < lowering.size(); ++i) {
      const std::string text = writer.cluster(lowering.cluster(i));
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
