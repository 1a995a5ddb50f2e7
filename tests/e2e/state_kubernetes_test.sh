#!/usr/bin/env bash
# End to end (issue 14.1, state in the cluster): examples/quickstart applied
# with --state kubernetes://manager-cluster/mkq-state/fleet, the state kept in
# the sandbox's manager and locked by a Lease.
#   0. Before the sandbox runs: history says to start it; plan starts it first (nothing created there).
#   1. The state is in Secrets of the namespace mkq-state, which holds no token.
#   2. Two applies from two working directories: while the first waits at its
#      confirmation prompt (a pseudo-terminal, so it holds the lock for as long
#      as the test wants), the second fails at once naming the first (its pid);
#      the first then goes on; the state holds the first's runs only.
#   3. A Lease left by a crashed holder (written with kubectl, expired) is
#      taken over and the run says so.
#   4. state pull / state push round trip; a state of another lineage refused.
#   5. An orphaned chunk Secret is reported by state list and deleted by the next write.
# Usage: state_kubernetes_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: state_kubernetes_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup state_kubernetes

STATE=kubernetes://manager-cluster/mkq-state/fleet
# Two checkouts of one policy (its identity declared, so that both are it).
for dir in a b; do
  mkdir -p "$TMP/$dir"
  { echo 'policy "fleet" {}'; cat "$ROOT/examples/quickstart/policy.mkq"; } >"$TMP/$dir/policy.mkq"
done
# mkq_in DIR NAME ARGS...: mkq ARGS in working directory DIR, against the sandbox and the state in the cluster.
mkq_in() {
  local dir=$1 name=$2
  shift 2
  (cd "$TMP/$dir" && timeout 120 "$MKQ" "$@" --sandbox --sandbox-dir "$SB" --state "$STATE") >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
# mkq_state NAME ARGS...: `mkq state`/`mkq history` against the sandbox's kubeconfig.
mkq_state() {
  local name=$1
  shift
  timeout 60 "$MKQ" "$@" --kubeconfig "$SB/kubeconfig" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}

# Before the sandbox runs, a command that would not start it (history) cannot reach a kubernetes://
# state in it, and says how to go on; plan, which starts the sandbox anyway, starts it before it reads
# the state (and, a dry run, creates nothing there).
(cd "$TMP/a" && timeout 60 "$MKQ" history --state "$STATE") >"$TMP/early.out" 2>"$TMP/early.err"
rc=$?
[ "$rc" = 1 ] && grep -q "mkq: error: state $STATE: cannot reach the cluster of context manager-cluster: .*is not running: start it first with \`mkq sandbox up\`" "$TMP/early.err" ||
  { show early; fail "history before the sandbox runs: exit $rc"; }
mkq_in a plan0 plan .
[ "$rc" = 0 ] && grep -q "^mkq: starting the sandbox at" "$TMP/plan0.err" && grep -q "^Plan: 13 to add" "$TMP/plan0.out" ||
  { show plan0; fail "plan before the sandbox runs: exit $rc"; }
k --context manager-cluster get namespace mkq-state >/dev/null 2>&1 && fail "the plan created the state's namespace"

# 1. Apply with the state in the cluster.
mkq_in a apply1 apply . --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply with $STATE: exit $rc"; }
[ ! -e "$TMP/a/.mkq/state.db" ] || fail "apply with $STATE wrote a local state file"
k --context manager-cluster get namespace mkq-state -o jsonpath='{.metadata.labels.app\.kubernetes\.io/managed-by}' >"$TMP/ns.out" 2>&1
[ "$(cat "$TMP/ns.out")" = mkq ] || { cat "$TMP/ns.out"; fail "the namespace mkq-state is not labelled as mkq's"; }
k --context manager-cluster -n mkq-state get secret fleet -o jsonpath='{.metadata.annotations.mkq\.dev/state-serial}' >"$TMP/serial.out" 2>&1
[ "$(cat "$TMP/serial.out")" -gt 0 ] 2>/dev/null || { cat "$TMP/serial.out"; fail "the index Secret fleet has no serial"; }
mkq_state list1 state list --state "$STATE"
[ "$rc" = 0 ] && grep -q "manager-cluster/ClusterQueue/cluster-queue" "$TMP/list1.out" || { show list1; fail "state list of $STATE"; }
mkq_in b plan_b plan . --detailed-exitcode
[ "$rc" = 0 ] || { show plan_b; fail "a plan from another working directory against $STATE: exit $rc, expected 0 (no changes)"; }
# No credential in the state: neither in the Secrets as kubectl shows them nor in the database itself.
e2e_save_worker_kubeconfig 1
k --context manager-cluster -n mkq-state get secret -o yaml >"$TMP/secrets.yaml" 2>&1 || fail "kubectl get secret -n mkq-state"
! grep -q -E "token:|client-key|BEGIN " "$TMP/secrets.yaml" || fail "the state's Secrets show a token or key"
pass "apply with $STATE: the state in Secrets of mkq-state (labelled as mkq's), read from another directory, no token or key"

# 2. Two applies from two working directories. A waits at its prompt holding the lock; B fails at once.
sed -i 's/cpu = 9, memory = 36Gi }$/cpu = 10, memory = 36Gi }/' "$TMP/a/policy.mkq"
/usr/bin/python3 - "$MKQ" "$TMP" "$SB" "$STATE" >"$TMP/race.out" 2>&1 <<'EOF'
import os, pty, select, subprocess, sys, time
mkq, tmp, sb, state = sys.argv[1:5]
args = ["--sandbox", "--sandbox-dir", sb, "--state", state]
pid, fd = pty.fork()
if pid == 0:
    os.chdir(tmp + "/a")
    os.execv(mkq, [mkq, "apply", "."] + args)
seen = b""
deadline = time.time() + 60
def read_some(timeout):
    global seen
    ready, _, _ = select.select([fd], [], [], timeout)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        seen += chunk
    return True
while b"Only 'yes' will be accepted" not in seen:
    if time.time() > deadline or not read_some(1):
        sys.exit("A never asked for confirmation:\n" + seen.decode(errors="replace"))
started = time.time()
b = subprocess.run([mkq, "apply", ".", "--auto-approve"] + args, cwd=tmp + "/b", capture_output=True, text=True,
                   timeout=60)
elapsed = time.time() - started
open(tmp + "/b_apply.err", "w").write(b.stderr)
print("A_PID", pid)
print("B_EXIT", b.returncode)
print("B_SECONDS", round(elapsed, 1))
os.write(fd, b"yes\n")
while read_some(5):
    pass
_, status = os.waitpid(pid, 0)
open(tmp + "/a_apply.out", "w").write(seen.decode(errors="replace"))
print("A_EXIT", os.waitstatus_to_exitcode(status))
EOF
[ $? = 0 ] || { cat "$TMP/race.out"; fail "the two applies did not run"; }
a_pid=$(awk '$1 == "A_PID" { print $2 }' "$TMP/race.out")
[ "$(awk '$1 == "B_EXIT" { print $2 }' "$TMP/race.out")" = 1 ] || { cat "$TMP/race.out" "$TMP/b_apply.err"; fail "B's apply while A holds the lock: not exit 1"; }
b_seconds=$(awk '$1 == "B_SECONDS" { print $2 }' "$TMP/race.out")
/usr/bin/python3 -c "import sys; sys.exit(0 if float('$b_seconds') < 10 else 1)" || { cat "$TMP/race.out"; fail "B took ${b_seconds}s to fail, not at once"; }
grep -q "mkq: error: the state $STATE is locked: apply by [^ ]*@[^ ]* (pid $a_pid) since " "$TMP/b_apply.err" ||
  { cat "$TMP/race.out" "$TMP/b_apply.err"; fail "B's error does not name A (pid $a_pid) as the holder"; }
[ "$(awk '$1 == "A_EXIT" { print $2 }' "$TMP/race.out")" = 0 ] || { cat "$TMP/race.out" "$TMP/a_apply.out"; fail "A's apply did not complete after B failed"; }
[ "$(k --context manager-cluster get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 10 ] ||
  fail "A's change is not on the manager"
mkq_state history2 history --state "$STATE"
[ "$rc" = 0 ] || { show history2; fail "history of $STATE"; }
[ "$(grep -c ' apply ' "$TMP/history2.out")" = 2 ] && ! grep -q -E "failed|interrupted|running" "$TMP/history2.out" ||
  { show history2; fail "the history should hold A's two applies, both successful, and nothing of B"; }
mkq_state holder2 state list --state "$STATE" --format json
[ "$rc" = 0 ] || { show holder2; fail "state list after the race"; }
k --context manager-cluster -n mkq-state get lease fleet-lock -o jsonpath='{.spec.holderIdentity}' >"$TMP/lease.out" 2>&1
[ ! -s "$TMP/lease.out" ] || { cat "$TMP/lease.out"; fail "the lock's Lease still names a holder after both runs"; }
pass "two applies from two directories: the second failed in ${b_seconds}s naming the first (pid $a_pid); the first completed; the history holds its runs only; the Lease released"

# 3. A crashed holder's Lease (kubectl wrote it; renewed long ago) is taken over, and the run says so.
cat >"$TMP/lease.yaml" <<'EOF'
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: fleet-lock
  namespace: mkq-state
  annotations:
    mkq.dev/lock-command: apply
    mkq.dev/lock-user: ci
    mkq.dev/lock-host: build-7
    mkq.dev/lock-pid: "99"
    mkq.dev/lock-since: "2026-01-01T00:00:00Z"
spec:
  holderIdentity: ci@build-7 (pid 99)
  leaseDurationSeconds: 60
  acquireTime: "2026-01-01T00:00:00.000000Z"
  renewTime: "2026-01-01T00:00:00.000000Z"
EOF
k --context manager-cluster apply -f "$TMP/lease.yaml" >"$TMP/lease_apply.out" 2>&1 || { cat "$TMP/lease_apply.out"; fail "kubectl apply of the crashed holder's Lease"; }
mkq_in a takeover apply . --auto-approve
[ "$rc" = 0 ] || { show takeover; fail "apply over an expired Lease: exit $rc"; }
grep -q "took over a stale lock: apply by ci@build-7 (pid 99) since 2026-01-01T00:00:00Z (its lease expired at 2026-01-01T00:01:00Z)" "$TMP/takeover.err" ||
  { show takeover; fail "the apply does not say it took over the expired lock"; }
pass "a crashed holder's expired Lease is taken over, and the run names it"

# 4. Pull and push: the same inventory both ways; another lineage refused.
mkq_state list4 state list --state "$STATE"
mkq_state pull state pull --state "$STATE" --file "$TMP/pulled.db"
[ "$rc" = 0 ] && grep -q "^pulled $STATE into $TMP/pulled.db (lineage " "$TMP/pull.out" || { show pull; fail "state pull"; }
! grep -q -a -F -f "$TMP/token.1" "$TMP/pulled.db" || fail "the pulled state holds the worker's token"
mkq_state local_list state list --state "$TMP/pulled.db"
cmp -s "$TMP/list4.out" "$TMP/local_list.out" || { diff "$TMP/list4.out" "$TMP/local_list.out"; fail "the pulled state lists other objects"; }
COPY=kubernetes://manager-cluster/mkq-state/copy
mkq_state push state push --state "$COPY" --file "$TMP/pulled.db"
[ "$rc" = 0 ] && grep -q "^pushed $TMP/pulled.db to $COPY (lineage " "$TMP/push.out" || { show push; fail "state push"; }
mkq_state copy_list state list --state "$COPY"
cmp -s "$TMP/list4.out" "$TMP/copy_list.out" || { diff "$TMP/list4.out" "$TMP/copy_list.out"; fail "the pushed state lists other objects"; }
# Another state (another lineage): a small policy of its own applied with a local state.
mkdir -p "$TMP/c"
printf 'policy "other" {}\nmanager "manager-cluster" {}\nflavor "other-flavor" {}\n' >"$TMP/c/policy.mkq"
(cd "$TMP/c" && timeout 120 "$MKQ" apply . --auto-approve --sandbox --sandbox-dir "$SB" --state "$TMP/other.db") >"$TMP/other.out" 2>&1 ||
  { cat "$TMP/other.out"; fail "apply of another policy to a local state"; }
version_before=$(k --context manager-cluster -n mkq-state get secret fleet -o jsonpath='{.metadata.resourceVersion}')
mkq_state refused state push --state "$STATE" --file "$TMP/other.db"
[ "$rc" = 1 ] && grep -q "mkq: error: the state in $STATE is another state (lineage .*); nothing was pushed; to replace it anyway: mkq state push --force" "$TMP/refused.err" ||
  { show refused; fail "push of another lineage over $STATE: exit $rc"; }
[ "$(k --context manager-cluster -n mkq-state get secret fleet -o jsonpath='{.metadata.resourceVersion}')" = "$version_before" ] ||
  fail "the refused push changed the index"
mkq_state refused_pull state pull --state "$STATE" --file "$TMP/other.db"
[ "$rc" = 1 ] && grep -q "is another state" "$TMP/refused_pull.err" || { show refused_pull; fail "pull over a local state of another lineage: exit $rc"; }
pass "state pull and push round trip (same inventory, no token in the file); another lineage refused both ways, nothing changed"

# 5. A chunk left by an interrupted write (written with kubectl: labelled as fleet's chunk, an old
#    serial) is reported by state list and deleted by the next write; a Secret of the namespace
#    that is not a chunk of the state is left alone.
cat >"$TMP/orphan.yaml" <<'EOF'
apiVersion: v1
kind: Secret
metadata:
  name: fleet-0dead0ff-0
  namespace: mkq-state
  labels: {app.kubernetes.io/managed-by: mkq, mkq.dev/state: fleet, mkq.dev/state-chunk-of: fleet}
  annotations: {mkq.dev/state-serial: "1"}
type: mkq.dev/state-chunk
data: {chunk: AAAA}
---
apiVersion: v1
kind: Secret
metadata:
  name: fleet-notes
  namespace: mkq-state
  labels: {mkq.dev/state-chunk-of: fleet}
data: {note: AAAA}
EOF
k --context manager-cluster apply -f "$TMP/orphan.yaml" >"$TMP/orphan_apply.out" 2>&1 || { cat "$TMP/orphan_apply.out"; fail "kubectl apply of an orphaned chunk"; }
mkq_state orphans state list --state "$STATE"
[ "$rc" = 0 ] && grep -q -x "mkq: warning: 1 chunk Secret of $STATE is named by no index (left by an interrupted write): fleet-0dead0ff-0; the next write to the state removes it" "$TMP/orphans.err" ||
  { show orphans; fail "state list does not report the orphaned chunk"; }
sed -i 's/cpu = 10, memory = 36Gi }$/cpu = 11, memory = 36Gi }/' "$TMP/a/policy.mkq"
mkq_in a orphans_write apply . --auto-approve
[ "$rc" = 0 ] || { show orphans_write; fail "apply with an orphaned chunk in the state's namespace: exit $rc"; }
! k --context manager-cluster -n mkq-state get secret fleet-0dead0ff-0 >/dev/null 2>&1 || fail "the orphaned chunk is still there after a write"
k --context manager-cluster -n mkq-state get secret fleet-notes >/dev/null 2>&1 || fail "a Secret that is no chunk of the state was deleted"
mkq_state orphans_after state list --state "$STATE"
[ "$rc" = 0 ] && ! grep -q "named by no index" "$TMP/orphans_after.err" || { show orphans_after; fail "state list after the write"; }
pass "an orphaned chunk is reported by state list and deleted by the next write; a Secret that is no chunk of the state is kept"
