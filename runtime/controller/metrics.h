// The controller's metrics and their Prometheus text exposition (format
// 0.0.4: `# HELP` and `# TYPE` per family, label values escaped). One
// instance per controller, written by the reconcile loop and the leader
// elector, read by the HTTP server: every member is guarded by one mutex.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace mkq::controller {

// A run's result as /metrics labels it: reconcile::run_result_name's
// "success", "partial", "failed", "interrupted", or "stopped" (the run
// stopped before it changed anything: the policy does not compile, the lock
// is held, the plan is refused).
inline constexpr const char* kRunResults[] = {"success", "partial", "failed", "interrupted", "stopped"};

// Kinds of change, as the changes-applied counter labels them.
inline constexpr const char* kChangeKinds[] = {"policy", "drift", "credential"};

// What one finished run reports.
struct RunMetrics {
  double finished_at = 0;              // seconds since the epoch
  std::string result;                  // one of kRunResults
  std::map<std::string, int> applied;  // by kind (kChangeKinds): changes carried out
  int drift = 0;                       // objects the plan found drifted (repaired or not)
  int pending = 0;                     // changes planned and left (sync mode, self-heal, prune)
  std::optional<double> plan_seconds, apply_seconds;
  std::map<std::string, bool> reachable;            // by cluster; empty: not read this run
  std::map<std::string, double> credential_expiry;  // by worker: expiry, seconds since the epoch
};

class Metrics {
 public:
  void record(const RunMetrics& run);
  void set_leader(bool leader);
  // The exposition at `now` (seconds since the epoch): credential expiry is
  // given as seconds from now.
  std::string render(double now) const;

 private:
  mutable std::mutex mutex_;
  std::optional<RunMetrics> last_;
  std::map<std::string, long long> runs_;     // by result
  std::map<std::string, long long> applied_;  // by kind
  bool leader_ = false;
};

// A label value as the text format writes it: backslash, double quote and
// newline escaped.
std::string escape_label_value(const std::string& value);

}  // namespace mkq::controller
