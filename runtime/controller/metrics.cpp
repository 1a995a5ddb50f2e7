#include "runtime/controller/metrics.h"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

namespace mkq::controller {

namespace {

// A sample value: integers as such, other values with millisecond precision.
template <class Out>
void append_number(Out out, double value) {
  if (std::nearbyint(value) == value && std::fabs(value) < 1e15) {
    fmt::format_to(out, "{:.0f}", value);
  } else {
    fmt::format_to(out, "{:.3f}", value);
  }
}

// Builds the exposition one family at a time.
class Exposition {
 public:
  void family(const char* name, const char* type, const char* help) {
    fmt::format_to(std::back_inserter(text_), "# HELP {0} {1}\n# TYPE {0} {2}\n", name, help, type);
  }
  void sample(const char* name, double value) {
    fmt::format_to(std::back_inserter(text_), "{} ", name);
    append_number(std::back_inserter(text_), value);
    text_ += '\n';
  }
  void sample(const char* name, const char* label, const std::string& label_value, double value) {
    fmt::format_to(std::back_inserter(text_), "{}{{{}=\"{}\"}} ", name, label, escape_label_value(label_value));
    append_number(std::back_inserter(text_), value);
    text_ += '\n';
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

}  // namespace

std::string escape_label_value(const std::string& value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void Metrics::record(const RunMetrics& run) {
  const std::lock_guard<std::mutex> hold(mutex_);
  ++runs_[run.result];
  for (const auto& [kind, count] : run.applied) applied_[kind] += count;
  last_ = run;
}

void Metrics::set_leader(bool leader) {
  const std::lock_guard<std::mutex> hold(mutex_);
  leader_ = leader;
}

std::string Metrics::render(double now) const {
  const std::lock_guard<std::mutex> hold(mutex_);
  Exposition out;
  out.family("mkq_controller_leader", "gauge",
             "Whether this replica holds the lease and reconciles (1) or stands by (0).");
  out.sample("mkq_controller_leader", leader_ ? 1 : 0);
  out.family("mkq_controller_runs_total", "counter", "Reconcile runs, by result.");
  for (const char* result : kRunResults) {
    const auto found = runs_.find(result);
    out.sample("mkq_controller_runs_total", "result", result, found == runs_.end() ? 0 : found->second);
  }
  out.family("mkq_controller_changes_applied_total", "counter",
             "Changes carried out, by kind: policy, drift (repairs), credential (rotations).");
  for (const char* kind : kChangeKinds) {
    const auto found = applied_.find(kind);
    out.sample("mkq_controller_changes_applied_total", "kind", kind,
               found == applied_.end() ? 0 : found->second);
  }
  // The last run's families: their samples once a run finished.
  const RunMetrics* run = last_ ? &*last_ : nullptr;
  out.family("mkq_controller_last_run_timestamp_seconds", "gauge",
             "When the last run finished, in seconds since the epoch.");
  if (run) out.sample("mkq_controller_last_run_timestamp_seconds", run->finished_at);
  out.family("mkq_controller_last_run_result", "gauge", "The last run's result: 1 for it, 0 for the others.");
  for (const char* result : kRunResults) {
    if (run) out.sample("mkq_controller_last_run_result", "result", result, run->result == result ? 1 : 0);
  }
  out.family("mkq_controller_drift_objects", "gauge", "Objects the last plan found changed outside mkq.");
  if (run) out.sample("mkq_controller_drift_objects", run->drift);
  out.family("mkq_controller_pending_changes", "gauge",
             "Changes the last plan found and the controller left (sync manual, self-heal or prune off).");
  if (run) out.sample("mkq_controller_pending_changes", run->pending);
  out.family("mkq_controller_plan_duration_seconds", "gauge", "How long the last run took to plan.");
  if (run && run->plan_seconds) out.sample("mkq_controller_plan_duration_seconds", *run->plan_seconds);
  out.family("mkq_controller_apply_duration_seconds", "gauge",
             "How long the last run took to carry its changes out.");
  if (run && run->apply_seconds) out.sample("mkq_controller_apply_duration_seconds", *run->apply_seconds);
  out.family("mkq_controller_cluster_reachable", "gauge",
             "Whether the last run could read the cluster (1) or not (0).");
  for (const auto& [cluster, reachable] : run ? run->reachable : std::map<std::string, bool>{}) {
    out.sample("mkq_controller_cluster_reachable", "cluster", cluster, reachable ? 1 : 0);
  }
  out.family("mkq_controller_credential_expiry_seconds", "gauge",
             "Seconds until the credential of the worker's kubeconfig Secret expires (negative: expired).");
  for (const auto& [worker, expires] : run ? run->credential_expiry : std::map<std::string, double>{}) {
    out.sample("mkq_controller_credential_expiry_seconds", "worker", worker, expires - now);
  }
  return out.take();
}

}  // namespace mkq::controller
