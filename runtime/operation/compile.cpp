#include "runtime/operation/compile.h"

#include <chrono>

#include "compiler/kueue/lower.h"
#include "compiler/kueue/validate.h"

namespace mkq::operation {

Compilation compile(const std::string& path, CompileTo target, const CompileOptions& options) {
  Compilation result;
  result.home = kueue::policy_home(path);
  sema::RealFileSystem files;
  sema::AnalyzeOptions analysis;
  analysis.import_roots.assign(options.import_roots.begin(), options.import_roots.end());
  analysis.timings = options.timed ? &result.timings : nullptr;
  result.policy = sema::analyze(path, files, result.sources, result.diagnostics, analysis);
  const auto timed = [&](const char* step, auto&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (options.timed) result.timings.push_back({step, took.count()});
  };
  if (result.ok()) {
    if (target == CompileTo::Objects) {
      // lower() checks Kueue's rules itself before lowering.
      timed("lower", [&] { result.state = kueue::lower(*result.policy, lower_options(result), result.diagnostics); });
    } else {
      timed("validate", [&] { kueue::validate(*result.policy, result.diagnostics); });
    }
  }
  if (!result.ok()) result.state.reset();
  return result;
}

kueue::LowerOptions lower_options(const Compilation& compiled) {
  kueue::LowerOptions options;
  const auto& declared = compiled.policy->identity;
  options.policy_name = declared ? declared->value : kueue::derived_policy_name(compiled.home);
  return options;
}

base::Result<void> settle_identity(Compilation& compiled, const std::string& recorded, bool own_state,
                                   const std::filesystem::path& state_path) {
  if (!compiled.state || !compiled.policy) return {};
  std::optional<std::string> declared;
  if (compiled.policy->identity) declared = compiled.policy->identity->value;
  base::Result<std::string> choice = kueue::choose_identity(
      declared, recorded, kueue::derived_policy_name(compiled.home), own_state, state_path.string());
  if (!choice) return std::move(choice.error());
  if (*choice != compiled.state->policy) kueue::relabel(*compiled.state, *choice);
  return {};
}

}  // namespace mkq::operation
