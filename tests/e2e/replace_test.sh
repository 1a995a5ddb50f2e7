#!/usr/bin/env bash
# End to end (issue 15 item 6, cluster replacement): a fleet with worker-a and
# one Workload running on it (a Workload on the manager whose status.clusterName
# names worker-a, set through the status subresource as Kueue would). The
# policy replaces worker-a by worker-b; apply, run in the background, must
# show the steps in its plan, make worker-b's MultiKueueCluster Active before
# the MultiKueueConfig stops naming worker-a, keep worker-a's MultiKueueCluster,
# Secret and objects while the Workload runs, and delete them once it is
# Finished. Then worker-b is replaced by worker-c with a Workload that never
# finishes and --drain-timeout 5s: apply waits 5 s, keeps worker-b's objects,
# says what still runs and exits 1 (the deletions it planned were not made);
# then --drain-timeout 0 deletes worker-b at once, says what still ran, exit 0.
# Usage: replace_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: replace_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup replace
# line_of FILE TEXT: the line number of the first line containing TEXT (0: none).
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1 | grep . || echo 0; }
e2e_cleanup() { [ -n "${apply_pid:-}" ] && kill "$apply_pid" 2>/dev/null; }

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager,worker-a,worker-b,worker-c >"$TMP/up.out" 2>&1 ||
  { cat "$TMP/up.out"; fail "sandbox up"; }
P="$TMP/p"
mkdir -p "$P"
# write_policy WORKER: the fleet with WORKER as its one worker.
write_policy() {
  cat >"$P/policy.mkq" <<POLICY
manager "manager" {}

worker "$1" {
  secret = "$1-secret"
  capacity "default-flavor" { cpu = 8, memory = 16Gi }
}

flavor "default-flavor" {}

clusterqueue "cluster-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 8, memory = 16Gi }
  localqueue "user-queue" in "default" {}
}

dispatch "fleet" {
  config = "fleet-config"
  queues = ["cluster-queue"]
  workers = ["$1"]
}
POLICY
}
config_clusters() { k --context manager get multikueueconfig fleet-config -o jsonpath='{.spec.clusters}'; }
mkc_active() {
  k --context manager get multikueuecluster "$1" -o jsonpath='{.status.conditions[?(@.type=="Active")].status}' 2>/dev/null
}
admitted='{"type":"Admitted","status":"True","reason":"Admitted","message":"The workload is admitted","lastTransitionTime":"2026-01-01T00:00:00Z"}'
finished='{"type":"Finished","status":"True","reason":"Succeeded","message":"Job finished successfully","lastTransitionTime":"2026-01-01T00:01:00Z"}'
# run_workload NAME WORKER: a Workload on the manager that Kueue admitted on WORKER.
run_workload() {
  k --context manager create -f - >/dev/null <<WORKLOAD || fail "create Workload $1"
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: $1, namespace: default}
spec:
  queueName: user-queue
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]
WORKLOAD
  k --context manager -n default patch workload "$1" --subresource=status --type=merge \
    -p '{"status":{"clusterName":"'"$2"'","conditions":['"$admitted"']}}' >/dev/null ||
    fail "set Workload $1 running on $2"
}

write_policy worker-a
mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply of the fleet with worker-a"; }
[ "$(config_clusters)" = '["worker-a"]' ] || fail "the MultiKueueConfig does not name worker-a"
run_workload job-1 worker-a
pass "fleet with worker-a applied; Workload default/job-1 runs on worker-a"

# The plan shows the steps.
write_policy worker-b
mkq_run plan2 plan "$P"
[ "$rc" = 0 ] || { show plan2; fail "plan of the replacement"; }
grep -q "^Apply goes in steps: worker-a leaves the fleet, worker-b joins it.$" "$TMP/plan2.out" &&
  grep -q "^  1\. add and change the rest (.*), then wait until MultiKueueCluster worker-b is Active; if not, stop here$" "$TMP/plan2.out" &&
  grep -q "^  2\. write the MultiKueueConfigs and what follows them (1 change), no longer naming worker-a$" "$TMP/plan2.out" &&
  grep -q "^  3\. drain: wait until no Workload on the manager runs on worker-a (at most --drain-timeout)$" "$TMP/plan2.out" &&
  grep -q "^  4\. delete what the policy no longer has (.*), worker-a's objects among them$" "$TMP/plan2.out" ||
  { show plan2; fail "the plan does not show the four steps"; }
pass "the plan shows the steps: join, switch, drain, remove"

timeout 120 "$MKQ" apply "$P" --auto-approve --sandbox-dir "$SB" --state "$TMP/state.db" \
  >"$TMP/apply2.out" 2>"$TMP/apply2.err" &
apply_pid=$!
# Until the config changes: worker-b must be Active whenever it does.
for _ in $(seq 1 300); do
  [ "$(config_clusters)" = '["worker-b"]' ] && break
  kill -0 "$apply_pid" 2>/dev/null || break
  sleep 0.1
done
[ "$(config_clusters)" = '["worker-b"]' ] || { show apply2; fail "the MultiKueueConfig never switched to worker-b"; }
[ "$(mkc_active worker-b)" = True ] || fail "the MultiKueueConfig names worker-b before its MultiKueueCluster is Active"
# The Workload still runs: worker-a stays, and apply waits.
waiting="waiting for MultiKueueCluster worker-a: 1 Workload runs on it: default/job-1"
for _ in $(seq 1 50); do
  grep -q -F "$waiting" "$TMP/apply2.err" && break
  sleep 0.1
done
sleep 2
kill -0 "$apply_pid" 2>/dev/null || { show apply2; fail "apply ended while the Workload still ran on worker-a"; }
grep -q -F "$waiting" "$TMP/apply2.err" || { show apply2; fail "apply does not say it waits for default/job-1"; }
k --context manager get multikueuecluster worker-a >/dev/null 2>&1 ||
  fail "worker-a's MultiKueueCluster went while its Workload ran"
k --context manager -n kueue-system get secret worker-a-secret >/dev/null 2>&1 ||
  fail "worker-a's Secret went while its Workload ran"
k --context worker-a get clusterqueue cluster-queue >/dev/null 2>&1 ||
  fail "worker-a's ClusterQueue went while its Workload ran"
pass "worker-b Active before the MultiKueueConfig dropped worker-a; worker-a kept while default/job-1 runs"

k --context manager -n default patch workload job-1 --subresource=status --type=merge \
  -p '{"status":{"conditions":['"$admitted,$finished"']}}' >/dev/null || fail "mark default/job-1 Finished"
wait "$apply_pid"
rc=$?
apply_pid=
[ "$rc" = 0 ] || { show apply2; fail "apply of the replacement: exit $rc, expected 0"; }
grep -q "^Apply complete!" "$TMP/apply2.out" || { show apply2; fail "apply does not say it is complete"; }
grep -q "^Drain:" "$TMP/apply2.out" && { show apply2; fail "a drained worker reported as not drained"; }
active=$(line_of "$TMP/apply2.err" "manager: MultiKueueCluster worker-b is Active")
switched=$(line_of "$TMP/apply2.err" "manager: MultiKueueConfig fleet-config updated")
drained=$(line_of "$TMP/apply2.err" "waiting for MultiKueueCluster worker-a: drained: no Workload runs on it")
deleted=$(line_of "$TMP/apply2.err" "manager: MultiKueueCluster worker-a deleted")
[ "$active" -gt 0 ] && [ "$active" -lt "$switched" ] && [ "$switched" -lt "$drained" ] && [ "$drained" -lt "$deleted" ] ||
  { show apply2; fail "apply's progress is not in the order: worker-b Active, config, drained, worker-a deleted"; }
k --context manager get multikueuecluster worker-a >/dev/null 2>&1 && fail "worker-a's MultiKueueCluster is still there"
k --context manager -n kueue-system get secret worker-a-secret >/dev/null 2>&1 && fail "worker-a's Secret is still there"
k --context worker-a get clusterqueue cluster-queue >/dev/null 2>&1 && fail "worker-a's ClusterQueue is still there"
mkq_run plan3 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan3; fail "plan after the replacement: exit $rc, expected 0"; }
pass "once default/job-1 finished: worker-a deleted, apply complete, the next plan clean"

# worker-b replaced by worker-c; job-2 never finishes: the drain times out.
run_workload job-2 worker-b
write_policy worker-c
started=$(date +%s)
mkq_run apply4 apply "$P" --auto-approve --drain-timeout 5s
took=$(($(date +%s) - started))
[ "$rc" = 1 ] || { show apply4; fail "apply with --drain-timeout 5s and work still running: exit $rc, expected 1"; }
[ "$took" -ge 5 ] || { show apply4; fail "apply did not wait the drain timeout (took ${took}s)"; }
grep -q -F "after 5s (--drain-timeout) 1 Workload still runs on worker-b: default/job-2; its objects are kept" \
  "$TMP/apply4.out" "$TMP/apply4.err" || { show apply4; fail "apply does not say what still runs on worker-b"; }
grep -q "^Apply complete!" "$TMP/apply4.out" && { show apply4; fail "apply says it is complete"; }
[ "$(config_clusters)" = '["worker-c"]' ] || fail "the MultiKueueConfig does not name worker-c"
k --context manager get multikueuecluster worker-b >/dev/null 2>&1 || fail "worker-b's MultiKueueCluster was deleted"
k --context worker-b get clusterqueue cluster-queue >/dev/null 2>&1 || fail "worker-b's ClusterQueue was deleted"
pass "--drain-timeout 5s: waited, named default/job-2, kept worker-b, exit 1"

mkq_run apply5 apply "$P" --auto-approve --drain-timeout 0
[ "$rc" = 0 ] || { show apply5; fail "apply with --drain-timeout 0: exit $rc, expected 0"; }
grep -q -F -x "Drain: --drain-timeout 0: 1 Workload still ran on worker-b when its objects were deleted: default/job-2" \
  "$TMP/apply5.out" || { show apply5; fail "apply does not say what still ran on worker-b"; }
grep -q "^Apply complete!" "$TMP/apply5.out" || { show apply5; fail "apply does not say it is complete"; }
k --context manager get multikueuecluster worker-b >/dev/null 2>&1 && fail "worker-b's MultiKueueCluster is still there"
k --context worker-b get clusterqueue cluster-queue >/dev/null 2>&1 && fail "worker-b's ClusterQueue is still there"
pass "--drain-timeout 0: deleted worker-b at once, named default/job-2, exit 0"
