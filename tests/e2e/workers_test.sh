#!/usr/bin/env bash
# End to end (issue 6, cluster replacement): examples/tas (a manager, worker1,
# worker2) applied to the sandbox; then worker2 is taken out of the policy and
# apply must, in this order, drop it from the MultiKueueConfig, delete its
# MultiKueueCluster and kubeconfig Secret on the manager, then its ServiceAccount
# and RBAC on worker2; then it is put back and apply does the reverse: worker2's
# ServiceAccount and RBAC, then its Secret and MultiKueueCluster on the manager,
# then the MultiKueueConfig names it again. Every object Active afterwards.
# Usage: workers_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: workers_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)


. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup workers
# line_of FILE TEXT: the line number of the first line containing TEXT (0: none).
line_of() { grep -n -F -- "$2" "$1" | head -1 | cut -d: -f1 | grep . || echo 0; }
# before FILE A B: A's line comes before B's, both present.
before() {
  local a b
  a=$(line_of "$1" "$2")
  b=$(line_of "$1" "$3")
  [ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$a" -lt "$b" ]
}

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"

# Partial failure first: worker2 unreachable (its server moved to a port where
# nothing listens, in a copy of the sandbox's kubeconfig). The others are applied,
# the exit code is 1, every object's outcome is in the history, and the next plan
# (with the right kubeconfig) shows exactly worker2's objects left.
mkq_run start plan "$P"  # starts the sandbox with the policy's clusters
[ "$rc" = 0 ] || { show start; fail "plan of examples/tas"; }
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 - "$SB/kubeconfig" "$port" >"$TMP/broken.kubeconfig" <<'EOF2' || fail "make the broken kubeconfig"
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
for cluster in config["clusters"]:
    if cluster["name"] == "worker2":
        cluster["cluster"]["server"] = "https://127.0.0.1:" + sys.argv[2]
print(yaml.safe_dump(config))
EOF2
timeout 300 "$MKQ" apply "$P" --auto-approve --kubeconfig "$TMP/broken.kubeconfig" --state "$TMP/state.db" \
  >"$TMP/partial.out" 2>"$TMP/partial.err"
rc=$?
[ "$rc" = 1 ] || { show partial; fail "apply with worker2 unreachable: exit $rc, expected 1"; }
grep -q "# cluster worker2 (worker): unreachable" "$TMP/partial.out" || { show partial; fail "the plan does not say worker2 is unreachable"; }
grep -q "manager/Secret/kueue-system/worker2-secret: cannot issue the credential: worker worker2 is unreachable" "$TMP/partial.out" ||
  { show partial; fail "the failures do not name worker2's credential"; }
k --context worker1 get clusterqueue worker-cluster-queue >/dev/null 2>&1 || fail "worker1 was not applied while worker2 was unreachable"
k --context manager get clusterqueue cluster-queue >/dev/null 2>&1 || fail "the manager was not applied while worker2 was unreachable"
timeout 60 "$MKQ" history --state "$TMP/state.db" >"$TMP/history.out" 2>&1
grep -q "partial" "$TMP/history.out" || { cat "$TMP/history.out"; fail "history does not record the run as partial"; }
mkq_run left plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show left; fail "plan after the partial apply: exit $rc, expected 2"; }
grep -q "# cluster worker1 (worker): no changes" "$TMP/left.out" ||
  { show left; fail "the plan after the partial apply shows changes on worker1"; }
manager_changes=$(sed -n '/^# cluster manager/,/^$/p' "$TMP/left.out" | grep -c '^  [-+~]')
[ "$manager_changes" = 1 ] && grep -q "+ Secret kueue-system/worker2-secret" "$TMP/left.out" ||
  { show left; fail "the manager's only change left should be worker2's Secret"; }
grep -q "+ ClusterQueue worker-cluster-queue" "$TMP/left.out" || { show left; fail "the plan does not show worker2's objects left"; }
pass "worker2 unreachable: the others applied, exit 1, history partial, the next plan shows exactly worker2's objects and credential"

mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply of examples/tas"; }
[ "$(k --context manager get multikueueconfig multikueue-config -o jsonpath='{.spec.clusters}')" = '["worker1","worker2"]' ] ||
  fail "the MultiKueueConfig does not name both workers"
pass "examples/tas applied, every object Active"

# Take worker2 out.
sed -i 's/for name in \["worker1", "worker2"\]/for name in ["worker1"]/; s/workers = \["worker1", "worker2"\]/workers = ["worker1"]/' "$P/policy.mkq"
mkq_run plan2 plan "$P"
[ "$rc" = 0 ] || { show plan2; fail "plan without worker2"; }
grep -q "~ MultiKueueConfig multikueue-config" "$TMP/plan2.out" || { show plan2; fail "the plan does not update the MultiKueueConfig"; }
grep -q "\- MultiKueueCluster worker2" "$TMP/plan2.out" || { show plan2; fail "the plan does not delete worker2's MultiKueueCluster"; }
grep -q "\- Secret kueue-system/worker2-secret" "$TMP/plan2.out" || { show plan2; fail "the plan does not delete worker2's Secret"; }
grep -q "\- ServiceAccount kueue-system/multikueue-sa" "$TMP/plan2.out" || { show plan2; fail "the plan does not delete worker2's ServiceAccount"; }
mkq_run apply2 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply2; fail "apply without worker2"; }
L="$TMP/apply2.err"
before "$L" "manager: MultiKueueConfig multikueue-config updated" "manager: MultiKueueCluster worker2 deleted" ||
  { show apply2; fail "worker2's MultiKueueCluster was deleted before the MultiKueueConfig dropped it"; }
before "$L" "manager: MultiKueueCluster worker2 deleted" "worker2: ServiceAccount kueue-system/multikueue-sa deleted" ||
  { show apply2; fail "worker2's ServiceAccount was deleted before its MultiKueueCluster"; }
before "$L" "manager: Secret kueue-system/worker2-secret deleted" "worker2: ClusterRoleBinding multikueue-sa-crb deleted" ||
  { show apply2; fail "worker2's RBAC was deleted before its Secret on the manager"; }
[ "$(k --context manager get multikueueconfig multikueue-config -o jsonpath='{.spec.clusters}')" = '["worker1"]' ] ||
  fail "the MultiKueueConfig still names worker2"
k --context worker2 -n kueue-system get serviceaccount multikueue-sa >/dev/null 2>&1 && fail "worker2 keeps its ServiceAccount"
k --context manager -n kueue-system get secret worker2-secret >/dev/null 2>&1 && fail "the manager keeps worker2's Secret"
pass "worker2 removed: MultiKueueConfig first, then MultiKueueCluster and Secret, then the worker's ServiceAccount and RBAC"

# Put it back.
cp "$ROOT/examples/tas/policy.mkq" "$P/policy.mkq"
mkq_run apply3 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply3; fail "apply with worker2 back"; }
L="$TMP/apply3.err"
before "$L" "worker2: ClusterRoleBinding multikueue-sa-crb created" "manager: Secret kueue-system/worker2-secret created" ||
  { show apply3; fail "worker2's Secret was made before its RBAC"; }
before "$L" "manager: Secret kueue-system/worker2-secret created" "manager: MultiKueueCluster worker2 created" ||
  { show apply3; fail "worker2's MultiKueueCluster was made before its Secret"; }
before "$L" "manager: MultiKueueCluster worker2 created" "manager: MultiKueueConfig multikueue-config updated" ||
  { show apply3; fail "the MultiKueueConfig named worker2 before its MultiKueueCluster existed"; }
mkq_run plan4 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan4; fail "plan after adding worker2 back: exit $rc"; }
pass "worker2 added back: ServiceAccount and RBAC, then Secret and MultiKueueCluster, then the MultiKueueConfig"
exit 0
