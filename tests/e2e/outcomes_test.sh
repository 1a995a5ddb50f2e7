#!/usr/bin/env bash
# End to end (issue 11, truthful outcomes): examples/tas (a manager, worker1,
# worker2) on the sandbox; worker2 made unreachable through copies of the
# sandbox's kubeconfig: down.kubeconfig points worker2 at a port where nothing
# listens, denied.kubeconfig gives worker2's user a token the server refuses
# (its server and CA unchanged, so that nothing but the read fails).
#   1. a change on the manager only, worker2 refused: the change is applied and
#      nothing failed, but the run is not "Apply complete!": exit 1, worker2
#      "unreachable: changes unknown", a command to paste, history partial;
#      with worker2 down the same, its credential's failure listed
#   2. nothing to change, worker2 unreachable: exit 1, saying so
#   3. credentials rotate: of worker1 alone it succeeds (worker2 is not part of
#      it); of every worker it fails (exit 1)
#   4. apply --wait with nothing to change verifies every Kueue object: a worker's
#      ClusterQueue made inactive with kubectl (a field mkq does not manage: an
#      AdmissionCheck that does not exist) fails it, naming object, reason and
#      message; once repaired it passes
#   5. destroy with worker2 unreachable: the rest deleted, exit 1, history
#      partial; the next destroy plan shows exactly worker2's objects
# Usage: outcomes_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: outcomes_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup outcomes
has() { grep -q -E -- "$2" "$TMP/$1.out"; }
# broken_run NAME down|denied ARGS...: mkq with a kubeconfig where worker2 cannot be read.
broken_run() {
  local name=$1 kubeconfig="$TMP/$2.kubeconfig"
  shift 2
  timeout 300 "$MKQ" "$@" --kubeconfig "$kubeconfig" --state "$TMP/state.db" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
# history_field RUN-ID FIELD: a field of that run in `mkq history --format json`.
history_field() {
  timeout 60 "$MKQ" history --state "$TMP/state.db" --format json |
    /usr/bin/python3 -c 'import json, sys; print(*[r[sys.argv[2]] for r in json.load(sys.stdin)["runs"] if r["id"] == int(sys.argv[1])])' "$1" "$2"
}
history_result() { history_field "$1" result; }
latest_run() {
  timeout 60 "$MKQ" history --state "$TMP/state.db" --json --limit 1 |
    /usr/bin/python3 -c 'import json, sys; print(*[r["id"] for r in json.load(sys.stdin)["runs"]])'
}

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"
mkq_run apply0 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply0; fail "first apply of examples/tas: exit $rc"; }
has apply0 "^Apply complete! Resources: [0-9]+ added, 0 changed, 0 destroyed\.$" || { show apply0; fail "first apply: no 'Apply complete!'"; }

port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 - "$SB/kubeconfig" "$port" "$TMP" <<'EOF' || fail "make the broken kubeconfigs"
import copy, sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
down, denied = copy.deepcopy(config), copy.deepcopy(config)
for cluster in down["clusters"]:
    if cluster["name"] == "worker2":
        cluster["cluster"]["server"] = "https://127.0.0.1:" + sys.argv[2]
for user in denied["users"]:
    if user["name"] == "worker2":
        user["user"] = {"token": "not-a-token-of-this-cluster"}
yaml.safe_dump(down, open(sys.argv[3] + "/down.kubeconfig", "w"))
yaml.safe_dump(denied, open(sys.argv[3] + "/denied.kubeconfig", "w"))
EOF
quota() {
  sed -i "s/quota \"tas-flavor\" { cpu = [0-9]*, memory = 32Gi }/quota \"tas-flavor\" { cpu = $1, memory = 32Gi }/" "$P/policy.mkq"
  grep -q "cpu = $1, memory = 32Gi" "$P/policy.mkq" || fail "the quota edit did not apply"
}
manager_quota() {
  k --context manager get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}'
}

# 1. A change on the manager only, worker2 refused: nothing fails but its read.
quota 20
broken_run apply1 denied apply "$P" --auto-approve
[ "$rc" = 1 ] || { show apply1; fail "apply with worker2 unreachable: exit $rc, expected 1"; }
has apply1 "^# cluster worker2 \(worker\): unreachable: .*Unauthorized" || { show apply1; fail "the plan does not show worker2 unreachable"; }
has apply1 "Apply complete" && { show apply1; fail "apply with worker2 unreachable says 'Apply complete'"; }
has apply1 "^Apply incomplete: 1 of 1 change done \(0 added, 1 changed, 0 destroyed\); 1 cluster could not be read: its changes are unknown\.$" ||
  { show apply1; fail "apply with worker2 unreachable: no headline saying what was done and that worker2 is unknown"; }
has apply1 "^  manager +1 done$" || { show apply1; fail "the summary does not show the manager's change done"; }
has apply1 "^  worker1 +no changes$" || { show apply1; fail "the summary does not show worker1 without changes"; }
has apply1 "^  worker2 +unreachable: changes unknown \(.+\)$" || { show apply1; fail "the summary does not show worker2 unreachable"; }
has apply1 "^Failures:" && { show apply1; fail "apply with worker2 refused lists failures: nothing but its read should fail"; }
has apply1 "^Next: once worker2 can be read, apply what is left" || { show apply1; fail "no next step"; }
next=$(grep -A1 "^Next:" "$TMP/apply1.out" | tail -1)
[ "$next" = "  mkq apply $P --kubeconfig $TMP/denied.kubeconfig --state $TMP/state.db" ] ||
  { show apply1; fail "the next step is not the command to paste: '$next'"; }
[ "$(manager_quota)" = 20 ] || fail "the manager's change was not applied"
run1=$(latest_run)
[ "$(history_result "$run1")" = partial ] || { timeout 60 "$MKQ" history --state "$TMP/state.db"; fail "history does not record run $run1 as partial"; }
mkq_run plan1 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan1; fail "plan with every cluster reachable after the partial apply: exit $rc, expected 0"; }
pass "worker2 refused, a manager-only change applied, nothing else failed: exit 1, not 'Apply complete!', worker2 'changes unknown', history partial"

quota 24
broken_run apply1b down apply "$P" --auto-approve
[ "$rc" = 1 ] || { show apply1b; fail "apply with worker2 down: exit $rc, expected 1"; }
has apply1b "Apply complete" && { show apply1b; fail "apply with worker2 down says 'Apply complete'"; }
has apply1b "^  worker2 +unreachable: changes unknown \(cannot connect to https://127\.0\.0\.1:$port" ||
  { show apply1b; fail "the summary does not show worker2 unreachable"; }
has apply1b "^Failures:$" && has apply1b "^  manager/Secret/kueue-system/worker2-secret: cannot issue the credential: worker worker2 is unreachable" ||
  { show apply1b; fail "the failures do not name worker2's credential"; }
[ "$(manager_quota)" = 24 ] || fail "the manager's change was not applied with worker2 down"
[ "$(history_result "$(latest_run)")" = partial ] || fail "history does not record the apply with worker2 down as partial"
mkq_run plan1b plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan1b; fail "plan with every cluster reachable after worker2 was down: exit $rc, expected 0"; }
pass "worker2 down: the manager applied, exit 1, its credential's failure listed, history partial"

# 2. Nothing to change, worker2 unreachable.
run_before=$(latest_run)
broken_run apply2 denied apply "$P" --auto-approve
[ "$rc" = 1 ] || { show apply2; fail "apply without changes, worker2 unreachable: exit $rc, expected 1"; }
has apply2 "^Apply failed: no changes on the clusters that were read; 1 cluster could not be read: its changes are unknown\.$" ||
  { show apply2; fail "apply without changes, worker2 unreachable: no clear message"; }
has apply2 "^  worker2 +unreachable: changes unknown" || { show apply2; fail "apply without changes: worker2 not named unreachable"; }
[ "$(latest_run)" = "$run_before" ] || fail "an apply without changes recorded a run"
pass "nothing to change, worker2 unreachable: exit 1, 'could not be read: its changes are unknown'"

# 3. Rotation: worker1 alone does not need worker2; every worker does.
broken_run rotate1 denied credentials rotate "$P" --cluster worker1 --auto-approve
[ "$rc" = 0 ] || { show rotate1; fail "credentials rotate --cluster worker1 with worker2 unreachable: exit $rc, expected 0"; }
has rotate1 "^Rotation complete! Resources: 0 added, 1 changed, 0 destroyed\.$" || { show rotate1; fail "rotation of worker1: no 'Rotation complete!'"; }
run3=$(latest_run)
[ "$(history_result "$run3")" = success ] && [ "$(history_field "$run3" command)" = "credentials rotate" ] ||
  fail "history: the rotation of worker1 is not a successful 'credentials rotate'"
broken_run rotate2 denied credentials rotate "$P" --auto-approve
[ "$rc" = 1 ] || { show rotate2; fail "credentials rotate of every worker with worker2 unreachable: exit $rc, expected 1"; }
has rotate2 "Rotation complete" && { show rotate2; fail "rotation of every worker says 'Rotation complete'"; }
has rotate2 "^  manager/Secret/kueue-system/worker2-secret: " || { show rotate2; fail "the failures do not name worker2's Secret"; }
has rotate2 "^  mkq credentials rotate $P " || { show rotate2; fail "the rotation's next step is not a rotate command"; }
[ "$(history_result "$(latest_run)")" = partial ] || fail "history: the rotation of every worker is not partial"
pass "credentials rotate: worker1 alone succeeds with worker2 unreachable, every worker fails (exit 1)"

# 4. apply --wait with nothing to change: worker1's ClusterQueue made inactive
# with kubectl (an AdmissionCheck that does not exist, in a field mkq leaves
# to others).
mkq_run wait0 apply "$P" --auto-approve --wait=30s
[ "$rc" = 0 ] || { show wait0; fail "apply --wait with nothing to change, all Active: exit $rc"; }
has wait0 "^No changes\." || { show wait0; fail "apply --wait: the plan is not empty"; }
has wait0 "^Every Kueue object is Active \([0-9]+ of [0-9]+\)\.$" || { show wait0; fail "apply --wait without changes: no verification"; }
k --context worker1 patch clusterqueue worker-cluster-queue --type merge \
  -p '{"spec":{"admissionChecksStrategy":{"admissionChecks":[{"name":"missing-check"}]}}}' >/dev/null ||
  fail "kubectl patch of worker1's ClusterQueue"
for _ in $(seq 50); do
  [ "$(k --context worker1 get clusterqueue worker-cluster-queue -o jsonpath='{.status.conditions[?(@.type=="Active")].status}')" = False ] && break
  sleep 0.1
done
mkq_run status1 status "$P"
[ "$rc" = 1 ] || { show status1; fail "mkq status with worker1's ClusterQueue inactive: exit $rc, expected 1"; }
mkq_run wait1 apply "$P" --auto-approve --wait=2s
[ "$rc" = 1 ] || { show wait1; fail "apply --wait with nothing to change, a ClusterQueue inactive: exit $rc, expected 1"; }
has wait1 "^No changes\." || { show wait1; fail "apply --wait: the patch made a plan (it should be a field mkq does not manage)"; }
has wait1 "^  worker1/ClusterQueue/worker-cluster-queue: Active=False \(AdmissionCheckNotFound\): Can't admit new workloads: references missing AdmissionCheck\(s\): \[missing-check\]" ||
  { show wait1; fail "apply --wait does not name the inactive ClusterQueue with its reason and message"; }
has wait1 "^Apply failed: no changes; 2 of [0-9]+ Kueue objects not Active within 2s\.$" || { show wait1; fail "apply --wait: no headline"; }
has wait1 "^  mkq status $P " || { show wait1; fail "apply --wait: the next step is not mkq status"; }
k --context worker1 patch clusterqueue worker-cluster-queue --type json \
  -p '[{"op":"remove","path":"/spec/admissionChecksStrategy"}]' >/dev/null || fail "kubectl patch back"
mkq_run wait2 apply "$P" --auto-approve --wait=30s
[ "$rc" = 0 ] || { show wait2; fail "apply --wait after the repair: exit $rc"; }
pass "apply --wait with nothing to change verifies every Kueue object: exit 1 naming worker1's ClusterQueue (AdmissionCheckNotFound), 0 once repaired"

# 5. destroy with worker2 unreachable.
broken_run destroy1 down destroy "$P" --auto-approve
[ "$rc" = 1 ] || { show destroy1; fail "destroy with worker2 unreachable: exit $rc, expected 1"; }
has destroy1 "Destroy complete" && { show destroy1; fail "destroy with worker2 unreachable says 'Destroy complete'"; }
has destroy1 "^Destroy incomplete: ([0-9]+) of \1 changes done .*; 1 cluster could not be read: its changes are unknown\.$" ||
  { show destroy1; fail "destroy with worker2 unreachable: no headline"; }
has destroy1 "^  worker2 +unreachable: changes unknown" || { show destroy1; fail "destroy: worker2 not named unreachable"; }
has destroy1 "^  mkq destroy $P " || { show destroy1; fail "destroy: the next step is not a destroy command"; }
[ "$(history_result "$(latest_run)")" = partial ] || fail "history: the destroy is not partial"
mkq_run destroy_plan plan "$P" --destroy
[ "$rc" = 0 ] || { show destroy_plan; fail "plan --destroy after the partial destroy: exit $rc"; }
grep -E '^# cluster ' "$TMP/destroy_plan.out" | grep -v -q -E '^# cluster (worker2 \(worker\)$|(manager|worker1) \((manager|worker)\): no changes$)' &&
  { show destroy_plan; fail "the destroy plan after the partial destroy shows more than worker2's objects"; }
has destroy_plan "^  - ServiceAccount kueue-system/multikueue-sa" || { show destroy_plan; fail "worker2's objects are not left to destroy"; }
mkq_run destroy2 destroy "$P" --auto-approve
[ "$rc" = 0 ] || { show destroy2; fail "destroy with every cluster reachable: exit $rc"; }
has destroy2 "^Destroy complete! " || { show destroy2; fail "destroy: no 'Destroy complete!'"; }
pass "destroy with worker2 unreachable: the rest deleted, exit 1, history partial; the next destroy finishes worker2"
exit 0
