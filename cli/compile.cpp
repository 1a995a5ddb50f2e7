#include "cli/compile.h"

#include <chrono>
#include <cstdio>
#include <vector>

#include "compiler/kueue/lower.h"
#include "compiler/kueue/policy_name.h"
#include "compiler/kueue/validate.h"
#include "compiler/sema/analyze.h"

namespace mkq::cli {

void Compilation::print_diagnostics(const GlobalOptions& global) const {
  std::fputs(diag::render_text(diagnostics.sorted(sources), sources, {global.color}).c_str(), stderr);
}

Compilation compile(const std::string& path, CompileTo target, const GlobalOptions& global) {
  Compilation result;
  result.home = kueue::policy_home(path);
  sema::RealFileSystem files;
  std::vector<sema::StageTiming> timings;
  sema::AnalyzeOptions analysis;
  analysis.import_roots.assign(global.import_roots.begin(), global.import_roots.end());
  analysis.timings = global.verbose ? &timings : nullptr;
  result.policy = sema::analyze(path, files, result.sources, result.diagnostics, analysis);
  const auto timed = [&](const char* step, auto&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    timings.push_back({step, took.count()});
  };
  if (result.ok()) {
    if (target == CompileTo::Objects) {
      // lower() checks Kueue's rules itself before lowering.
      timed("lower", [&] {
        kueue::LowerOptions options;
        const auto& declared = result.policy->identity;
        options.policy_name = declared ? declared->value : kueue::derived_policy_name(result.home);
        result.state = kueue::lower(*result.policy, options, result.diagnostics);
      });
    } else {
      timed("validate", [&] { kueue::validate(*result.policy, result.diagnostics); });
    }
  }
  if (!result.ok()) result.state.reset();
  if (global.verbose) {
    for (const auto& t : timings) std::fprintf(stderr, "mkq: %-8s %8.1f ms\n", t.stage.c_str(), t.milliseconds);
  }
  return result;
}

bool settle_identity(Compilation& compiled, const std::string& recorded, bool own_state,
                     const std::filesystem::path& state_path) {
  if (!compiled.state || !compiled.policy) return true;
  std::optional<std::string> declared;
  if (compiled.policy->identity) declared = compiled.policy->identity->value;
  const kueue::IdentityChoice choice = kueue::choose_identity(
      declared, recorded, kueue::derived_policy_name(compiled.home), own_state, state_path.string());
  if (!choice.error.empty()) {
    std::fprintf(stderr, "mkq: error: %s\n", choice.error.c_str());
    return false;
  }
  if (choice.name != compiled.state->policy) kueue::relabel(*compiled.state, choice.name);
  return true;
}

}  // namespace mkq::cli
