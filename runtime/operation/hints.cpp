#include "runtime/operation/hints.h"

#include <fmt/format.h>

namespace mkq::operation {

namespace {

void append(std::string& line, const std::string& word) { line += " " + shell_word(word); }

}  // namespace

std::string shell_word(const std::string& word) {
  static constexpr std::string_view kSafe =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%";
  if (!word.empty() && word.find_first_not_of(kSafe) == std::string::npos) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string run_command(const std::string& command, const std::string& path, const RuntimeOptions& runtime,
                        const std::vector<std::string>& args) {
  std::string line = "mkq " + command;
  if (path != ".") append(line, path);
  for (const std::string& arg : args) append(line, arg);
  if (!runtime.kubeconfig.empty()) line += " --kubeconfig " + shell_word(runtime.kubeconfig);
  if (runtime.sandbox) line += " --sandbox";
  if (runtime.sandbox_dir != RuntimeOptions{}.sandbox_dir) line += " --sandbox-dir " + shell_word(runtime.sandbox_dir);
  if (!runtime.state_path.empty()) line += " --state " + shell_word(runtime.state_path);
  if (runtime.insecure_skip_tls_verify) line += " --insecure-skip-tls-verify";
  if (runtime.request_timeout.count() > 0) {
    fmt::format_to(std::back_inserter(line), " --request-timeout {}ms", runtime.request_timeout.count());
  }
  for (const std::string& name : runtime.exclude_clusters) line += " --exclude-cluster " + shell_word(name);
  for (const std::string& name : runtime.clusters) line += " --cluster " + shell_word(name);
  return line;
}

std::string state_command(const std::string& command, const std::string& policy_path, const std::string& state_option,
                          const std::vector<std::string>& args) {
  std::string line = "mkq " + command;
  for (const std::string& arg : args) append(line, arg);
  if (!state_option.empty()) {
    line += " --state " + shell_word(state_option);
  } else if (policy_path != ".") {
    line += " --policy " + shell_word(policy_path);
  }
  return line;
}

std::string lock_held_message(const std::string& state_path, const state::LockHolder& holder,
                              const std::string& policy_path, const std::string& state_option) {
  const std::string what = "the state " + state_path + " is locked: " + holder.describe();
  if (holder.runs_here()) return what + "; it still runs on this host: let it finish";
  return what + "; if that run is gone, release it with `" + state_command("state unlock", policy_path, state_option) +
         "`";
}

}  // namespace mkq::operation
