// The shared cluster state's few helpers (cluster_state.h).
#include "sandbox/cluster_state.h"

namespace mkq::sandbox {

bool run_post_write_hooks(ClusterState& state, const WriteEvent& write) {
  bool wrote = false;
  for (const auto& hook : state.post_write_hooks) wrote = hook(state, write) || wrote;
  return wrote;
}

void log_line(const ClusterState& state, const std::string& line) {
  if (state.options.log) state.options.log("cluster " + state.name + ": " + line);
}

std::string new_uid(ClusterState& state) {
  std::uniform_int_distribution<int> d(0, 15);
  std::string uid = "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx";
  static const char* digits = "0123456789abcdef";
  for (char& c : uid) {
    if (c == 'x') c = digits[d(state.random)];
    if (c == 'y') c = digits[8 + d(state.random) % 4];
  }
  return uid;
}

std::string random_suffix(ClusterState& state) {
  static const char* alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::uniform_int_distribution<int> d(0, 26);
  std::string out;
  for (int i = 0; i < 5; ++i) out += alphabet[d(state.random)];
  return out;
}

}  // namespace mkq::sandbox
