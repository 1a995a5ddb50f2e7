// runtime/controller/metrics.h: the Prometheus text exposition, exact.
#include <catch2/catch.hpp>

#include "runtime/controller/metrics.h"

using mkq::controller::Metrics;
using mkq::controller::RunMetrics;

TEST_CASE("metrics: the exposition of a run, exact", "[controller][metrics]") {
  Metrics metrics;
  metrics.set_leader(true);
  RunMetrics run;
  run.finished_at = 1790000000.25;
  run.result = "partial";
  run.applied = {{"policy", 2}, {"drift", 0}, {"credential", 1}};
  run.drift = 3;
  run.pending = 4;
  run.plan_seconds = 0.125;
  run.apply_seconds = 1.5;
  run.reachable = {{"manager", true}, {"w\"1", false}};
  run.credential_expiry = {{"w\\1", 1790000040.0}, {"w\n2", 1789999990.0}};
  metrics.record(run);
  run.result = "success";
  run.applied = {{"credential", 1}};
  metrics.record(run);
  CHECK(
      metrics.render(1790000000.0) ==
      "# HELP mkq_controller_leader Whether this replica holds the lease and reconciles (1) or stands by "
      "(0).\n"
      "# TYPE mkq_controller_leader gauge\n"
      "mkq_controller_leader 1\n"
      "# HELP mkq_controller_runs_total Reconcile runs, by result.\n"
      "# TYPE mkq_controller_runs_total counter\n"
      "mkq_controller_runs_total{result=\"success\"} 1\n"
      "mkq_controller_runs_total{result=\"partial\"} 1\n"
      "mkq_controller_runs_total{result=\"failed\"} 0\n"
      "mkq_controller_runs_total{result=\"interrupted\"} 0\n"
      "mkq_controller_runs_total{result=\"stopped\"} 0\n"
      "# HELP mkq_controller_changes_applied_total Changes carried out, by kind: policy, drift (repairs), "
      "credential (rotations).\n"
      "# TYPE mkq_controller_changes_applied_total counter\n"
      "mkq_controller_changes_applied_total{kind=\"policy\"} 2\n"
      "mkq_controller_changes_applied_total{kind=\"drift\"} 0\n"
      "mkq_controller_changes_applied_total{kind=\"credential\"} 2\n"
      "# HELP mkq_controller_last_run_timestamp_seconds When the last run finished, in seconds since the "
      "epoch.\n"
      "# TYPE mkq_controller_last_run_timestamp_seconds gauge\n"
      "mkq_controller_last_run_timestamp_seconds 1790000000.250\n"
      "# HELP mkq_controller_last_run_result The last run's result: 1 for it, 0 for the others.\n"
      "# TYPE mkq_controller_last_run_result gauge\n"
      "mkq_controller_last_run_result{result=\"success\"} 1\n"
      "mkq_controller_last_run_result{result=\"partial\"} 0\n"
      "mkq_controller_last_run_result{result=\"failed\"} 0\n"
      "mkq_controller_last_run_result{result=\"interrupted\"} 0\n"
      "mkq_controller_last_run_result{result=\"stopped\"} 0\n"
      "# HELP mkq_controller_drift_objects Objects the last plan found changed outside mkq.\n"
      "# TYPE mkq_controller_drift_objects gauge\n"
      "mkq_controller_drift_objects 3\n"
      "# HELP mkq_controller_pending_changes Changes the last plan found and the controller left (sync "
      "manual, "
      "self-heal or prune off).\n"
      "# TYPE mkq_controller_pending_changes gauge\n"
      "mkq_controller_pending_changes 4\n"
      "# HELP mkq_controller_plan_duration_seconds How long the last run took to plan.\n"
      "# TYPE mkq_controller_plan_duration_seconds gauge\n"
      "mkq_controller_plan_duration_seconds 0.125\n"
      "# HELP mkq_controller_apply_duration_seconds How long the last run took to carry its changes out.\n"
      "# TYPE mkq_controller_apply_duration_seconds gauge\n"
      "mkq_controller_apply_duration_seconds 1.500\n"
      "# HELP mkq_controller_cluster_reachable Whether the last run could read the cluster (1) or not (0).\n"
      "# TYPE mkq_controller_cluster_reachable gauge\n"
      "mkq_controller_cluster_reachable{cluster=\"manager\"} 1\n"
      "mkq_controller_cluster_reachable{cluster=\"w\\\"1\"} 0\n"
      "# HELP mkq_controller_credential_expiry_seconds Seconds until the credential of the worker's "
      "kubeconfig "
      "Secret expires (negative: expired).\n"
      "# TYPE mkq_controller_credential_expiry_seconds gauge\n"
      "mkq_controller_credential_expiry_seconds{worker=\"w\\n2\"} -10\n"
      "mkq_controller_credential_expiry_seconds{worker=\"w\\\\1\"} 40\n");
}

TEST_CASE("metrics: before any run only the counters have samples", "[controller][metrics]") {
  Metrics metrics;
  const std::string text = metrics.render(0);
  CHECK_THAT(text, Catch::Contains("mkq_controller_leader 0\n"));
  CHECK_THAT(text, Catch::Contains("mkq_controller_runs_total{result=\"success\"} 0\n"));
  CHECK_THAT(text, !Catch::Contains("mkq_controller_last_run_result{"));
  CHECK_THAT(text, Catch::EndsWith("# TYPE mkq_controller_credential_expiry_seconds gauge\n"));
}

TEST_CASE("metrics: label values escape backslash, double quote and newline", "[controller][metrics]") {
  CHECK(mkq::controller::escape_label_value("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
  CHECK(mkq::controller::escape_label_value("worker-1") == "worker-1");
}
