#!/usr/bin/env bash
# End to end (issue 11: the target, the lock, retiring a dead worker), against a
# sandbox with examples/tas's clusters (manager, worker1, worker2):
#   1. KUBECONFIG or --kubeconfig naming a missing file: exit 1, the message names
#      the file and how it was named, nothing applied (kubectl: no ClusterQueue)
#   2. a misspelled manager context, with a copy of the sandbox's kubeconfig as
#      KUBECONFIG: exit 1 before anything, the contexts listed with "did you
#      mean", nothing applied on any cluster; status says the same
#   3. plan's and apply's first line names the target (the sandbox; a kubeconfig)
#   4. `state unlock` refused while the holder (a live process on this host) runs,
#      the suggested --force command pasted as is releases it; a holder on
#      another host: apply's hint pasted as is releases it
#   5. `state rm ADDRESS`: an unknown address forgets nothing (did you mean);
#      a known one is forgotten, the cluster keeps the object
#   6. worker2 unreachable: plan fails; --exclude-cluster worker2 lets it go on
#      (its objects left as they are); `state rm --cluster worker2` and worker2
#      out of the policy: apply, then `plan --detailed-exitcode` exits 0
# Usage: target_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: target_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_cleanup() { [ -n "${HOLDER:-}" ] && kill "$HOLDER" 2>/dev/null; }
e2e_setup target
S="$TMP/state.db"
# no_clusterqueues: no cluster holds a ClusterQueue (nothing was applied).
no_clusterqueues() {
  local c
  for c in manager worker1 worker2; do
    [ -z "$(k --context "$c" get clusterqueues -o name 2>&1)" ] || return 1
  done
}
# state_cmd NAME ARGS...: mkq ARGS (no sandbox options); output in $TMP/NAME.{out,err}, code in $rc.
state_cmd() {
  local name=$1
  shift
  timeout 60 "$MKQ" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
# lock_row PID HOST: a lock row as an apply holding it would write.
lock_row() {
  /usr/bin/python3 - "$S" "$1" "$2" <<'EOF' || fail "write the lock row"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT OR REPLACE INTO lock (id, command, user, host, pid, since) VALUES (1, 'apply', 'tester', ?, ?, '2026-01-01T00:00:00Z')",
           (sys.argv[3], int(sys.argv[2])))
db.commit()
EOF
}
lock_pid() { /usr/bin/python3 -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute("SELECT pid FROM lock").fetchone(); print(r[0] if r else "")' "$S"; }
# pasted NAME FILE: runs the command between the last pair of backticks in FILE, as a user would paste it.
pasted() {
  local command
  command=$(grep -o '`mkq [^`]*`' "$2" | tail -1 | tr -d '`')
  [ -n "$command" ] || return 1
  echo "$command" >"$TMP/$1.command"
  eval "timeout 60 \"\$MKQ\" ${command#mkq }" >"$TMP/$1.out" 2>"$TMP/$1.err"
}

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"
timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager,worker1,worker2 >"$TMP/up.log" 2>&1 ||
  { cat "$TMP/up.log"; fail "sandbox up"; }

# 1. A kubeconfig that is named but missing is an error, never the sandbox.
KUBECONFIG="$TMP/nope/kubeconfig" mkq_run env apply "$P" --auto-approve
[ "$rc" = 1 ] || { show env; fail "apply with KUBECONFIG naming a missing file: exit $rc, expected 1"; }
grep -qF "mkq: error: KUBECONFIG names $TMP/nope/kubeconfig, which does not exist" "$TMP/env.err" ||
  { show env; fail "the error does not name KUBECONFIG's file"; }
grep -q "target: the sandbox" "$TMP/env.err" && { show env; fail "apply with a missing KUBECONFIG went to the sandbox"; }
KUBECONFIG="$TMP/nope/a:$TMP/nope/b" mkq_run env2 plan "$P"
[ "$rc" = 1 ] && grep -qF "KUBECONFIG names $TMP/nope/a, $TMP/nope/b, none of which exists" "$TMP/env2.err" ||
  { show env2; fail "plan with an all-missing KUBECONFIG list"; }
mkq_run flag apply "$P" --auto-approve --kubeconfig "$TMP/nope/kubeconfig"
[ "$rc" = 1 ] && grep -qF "mkq: error: --kubeconfig names $TMP/nope/kubeconfig, which does not exist" "$TMP/flag.err" ||
  { show flag; fail "apply with --kubeconfig naming a missing file"; }
no_clusterqueues || fail "a ClusterQueue was applied although the kubeconfig was missing"
pass "KUBECONFIG / --kubeconfig naming a missing file: exit 1 naming it, nothing applied"

# 2. A misspelled manager context, KUBECONFIG a copy of the sandbox's kubeconfig.
cp "$SB/kubeconfig" "$TMP/copy.kubeconfig"
mkdir -p "$TMP/typo"
sed 's/^manager "manager" {}/manager "manager" { context = "manger" }/' "$P/policy.mkq" >"$TMP/typo/policy.mkq"
grep -q 'context = "manger"' "$TMP/typo/policy.mkq" || fail "test setup: the context edit did not apply"
KUBECONFIG="$TMP/copy.kubeconfig" mkq_run typo apply "$TMP/typo" --auto-approve
[ "$rc" = 1 ] || { show typo; fail "apply with a misspelled manager context: exit $rc, expected 1"; }
expected="mkq: error: the policy's manager \"manager\" is reached through context \"manger\", which kubeconfig $TMP/copy.kubeconfig (KUBECONFIG) does not have; did you mean 'manager'? (its contexts: manager, worker1, worker2)"
grep -qxF "$expected" "$TMP/typo.err" || { show typo; echo "expected: $expected"; fail "the context error"; }
grep -q "unreachable\|Apply complete" "$TMP/typo.out" "$TMP/typo.err" && { show typo; fail "apply went on"; }
no_clusterqueues || fail "a ClusterQueue was applied although the manager's context is misspelled"
KUBECONFIG="$TMP/copy.kubeconfig" mkq_run typo-status status "$TMP/typo"
[ "$rc" = 1 ] && grep -qxF "$expected" "$TMP/typo-status.err" || { show typo-status; fail "status with the misspelled context"; }
pass "a misspelled manager context: exit 1 before anything, contexts listed with did-you-mean, nothing applied"

# 3. The first line names the target.
mkq_run sandbox plan "$P"
[ "$rc" = 0 ] || { show sandbox; fail "plan on the sandbox"; }
[ "$(head -1 "$TMP/sandbox.err")" = "mkq: target: the sandbox at sb (no --kubeconfig, KUBECONFIG or ~/.kube/config)" ] ||
  { show sandbox; fail "plan's first line does not name the sandbox"; }
mkq_run apply apply "$P" --auto-approve --kubeconfig "$TMP/copy.kubeconfig"
[ "$rc" = 0 ] || { show apply; fail "apply of examples/tas with a kubeconfig"; }
[ "$(head -1 "$TMP/apply.err")" = "mkq: target: kubeconfig $TMP/copy.kubeconfig (--kubeconfig): manager -> context manager, worker1 -> context worker1, worker2 -> context worker2" ] ||
  { show apply; fail "apply's first line does not name the kubeconfig and the contexts"; }
pass "plan's and apply's first line names the target"

# 4. The lock: a live holder on this host is not released without --force.
sleep 300 &
HOLDER=$!
lock_row "$HOLDER" "$(/usr/bin/python3 -c 'import socket; print(socket.gethostname())')"
mkq_run locked apply "$P" --auto-approve --kubeconfig "$TMP/copy.kubeconfig"
[ "$rc" = 1 ] && grep -q "is locked: apply by tester@.* (pid $HOLDER).*; it still runs on this host: let it finish" "$TMP/locked.err" ||
  { show locked; fail "apply while a live process holds the lock"; }
state_cmd unlock state unlock --state "$S"
[ "$rc" = 1 ] || { show unlock; fail "state unlock while the holder runs: exit $rc, expected 1"; }
grep -qF "the lock is held by apply by tester@" "$TMP/unlock.err" && grep -qF "(pid $HOLDER)" "$TMP/unlock.err" &&
  grep -qF "\`mkq state unlock --force --state $S\`" "$TMP/unlock.err" || { show unlock; fail "the refusal does not name the holder and the command"; }
[ "$(lock_pid)" = "$HOLDER" ] || fail "the refused unlock released the lock"
pasted forced "$TMP/unlock.err" || { show forced; fail "the suggested command ($(cat "$TMP/forced.command")) failed"; }
grep -q "released the lock of apply by tester@" "$TMP/forced.out" || { show forced; fail "state unlock --force"; }
[ -z "$(lock_pid)" ] || fail "state unlock --force left the lock"
kill "$HOLDER"
wait "$HOLDER" 2>/dev/null
HOLDER=
lock_row 4242 elsewhere.example
mkq_run remote plan "$P" --kubeconfig "$TMP/copy.kubeconfig"  # plan takes no lock
[ "$rc" = 0 ] || { show remote; fail "plan while another host holds the lock"; }
mkq_run remote apply "$P" --auto-approve --kubeconfig "$TMP/copy.kubeconfig"
[ "$rc" = 1 ] && grep -q "if that run is gone, release it with \`mkq state unlock --state $S\`" "$TMP/remote.err" ||
  { show remote; fail "apply while another host holds the lock: the hint"; }
pasted remote-unlock "$TMP/remote.err" || { show remote-unlock; fail "the suggested command ($(cat "$TMP/remote-unlock.command")) failed"; }
[ -z "$(lock_pid)" ] || fail "the pasted unlock left the lock"
pass "state unlock: refused while the holder runs here, the suggested --force releases it; the hints paste as is"

# 5. state rm ADDRESS.
A=worker1/ClusterQueue/worker-cluster-queue
count=$(timeout 60 "$MKQ" state list --state "$S" | grep -c /)
state_cmd rm-typo state rm worker1/ClusterQueue/worker-cluster-queu --state "$S"
[ "$rc" = 1 ] && grep -qF "no object 'worker1/ClusterQueue/worker-cluster-queu' in the state; did you mean '$A'?" "$TMP/rm-typo.err" ||
  { show rm-typo; fail "state rm of an unknown address"; }
[ "$(timeout 60 "$MKQ" state list --state "$S" | grep -c /)" = "$count" ] || fail "state rm of an unknown address forgot something"
state_cmd rm state rm "$A" --state "$S"
[ "$rc" = 0 ] && grep -qxF "forgot $A" "$TMP/rm.out" || { show rm; fail "state rm $A"; }
timeout 60 "$MKQ" state list --state "$S" | grep -qF "$A" && fail "state rm left $A in the state"
k --context worker1 get clusterqueue worker-cluster-queue >/dev/null 2>&1 || fail "state rm touched the cluster"
timeout 60 "$MKQ" history --state "$S" | grep -q "state rm" || fail "the history does not record state rm"
mkq_run readopt apply "$P" --auto-approve --kubeconfig "$TMP/copy.kubeconfig"
[ "$rc" = 0 ] || { show readopt; fail "apply after state rm"; }
pass "state rm ADDRESS: forgotten without touching the cluster; an unknown address forgets nothing"

# 6. worker2 unreachable (its server moved to a port where nothing listens).
e2e_unreachable_kubeconfig worker2 "$TMP/broken.kubeconfig" || fail "make the broken kubeconfig"
B=(--kubeconfig "$TMP/broken.kubeconfig")
mkq_run dead plan "$P" "${B[@]}"
[ "$rc" = 1 ] && grep -q "# cluster worker2 (worker): unreachable" "$TMP/dead.out" || { show dead; fail "plan with worker2 unreachable"; }
left=$(( $(timeout 60 "$MKQ" state list --state "$S" | grep -c '^worker2/') + 2 ))  # and its MultiKueueCluster and Secret
mkq_run excluded plan "$P" "${B[@]}" --exclude-cluster worker2 --detailed-exitcode
[ "$rc" = 0 ] || { show excluded; fail "plan --exclude-cluster worker2: exit $rc, expected 0"; }
grep -qxF "# cluster worker2 (worker): excluded (--exclude-cluster): $left objects left as they are" "$TMP/excluded.out" ||
  { show excluded; fail "the plan does not say what the exclusion leaves"; }
grep -q "^mkq: target: kubeconfig .*worker2" "$TMP/excluded.err" && { show excluded; fail "the target line names the excluded worker"; }
# The PATH may follow the option: it is not taken for a second name.
mkq_run excluded-first plan --exclude-cluster worker2 "$P" "${B[@]}" --detailed-exitcode
[ "$rc" = 0 ] || { show excluded-first; fail "plan --exclude-cluster worker2 PATH: exit $rc, expected 0"; }
mkq_run ex-manager plan "$P" "${B[@]}" --exclude-cluster manager
[ "$rc" = 1 ] && grep -q "exclude-cluster manager: that is the manager" "$TMP/ex-manager.err" || { show ex-manager; fail "excluding the manager"; }
mkq_run ex-typo plan "$P" "${B[@]}" --exclude-cluster wroker2
[ "$rc" = 1 ] && grep -q "exclude-cluster wroker2: no worker of that name in the policy or the state; did you mean 'worker2'?" "$TMP/ex-typo.err" ||
  { show ex-typo; fail "excluding an unknown cluster"; }
pass "--exclude-cluster worker2: the plan goes on, $left objects left as they are; the manager or an unknown name refused"

state_cmd rm-cluster state rm --cluster worker2 --state "$S"
[ "$rc" = 0 ] && grep -qx "forgot $((left - 2)) objects; no cluster was touched" "$TMP/rm-cluster.out" ||
  { show rm-cluster; fail "state rm --cluster worker2"; }
sed -i 's/for name in \["worker1", "worker2"\]/for name in ["worker1"]/; s/workers = \["worker1", "worker2"\]/workers = ["worker1"]/' "$P/policy.mkq"
mkq_run gone plan "$P" "${B[@]}" --detailed-exitcode
[ "$rc" = 2 ] || { show gone; fail "plan without worker2: exit $rc, expected 2 (the manager's changes)"; }
grep -q "# cluster worker2" "$TMP/gone.out" && { show gone; fail "the plan still reads worker2"; }
grep -q "\- MultiKueueCluster worker2" "$TMP/gone.out" || { show gone; fail "the plan does not delete worker2's MultiKueueCluster"; }
mkq_run gone-apply apply "$P" "${B[@]}" --auto-approve
[ "$rc" = 0 ] || { show gone-apply; fail "apply without worker2"; }
mkq_run clean plan "$P" "${B[@]}" --detailed-exitcode
[ "$rc" = 0 ] || { show clean; fail "plan after retiring worker2: exit $rc, expected 0"; }
grep -q "worker2" "$TMP/clean.out" && { show clean; fail "the plan still names worker2"; }
pass "state rm --cluster worker2 and worker2 out of the policy: apply, then plan --detailed-exitcode exits 0"
exit 0
