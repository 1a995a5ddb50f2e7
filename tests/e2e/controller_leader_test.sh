#!/usr/bin/env bash
# End to end (issue 14, the controller): two controllers on the same state and the same Lease.
#   1. exactly one leads (/metrics mkq_controller_leader 1 and 0); a policy change is applied by it alone:
#      the history names one writer, the Applied Events one reporting instance
#   2. kill -9 the leader: the other leads within the lease's duration (15 s) and applies the next change;
#      the history names one writer per run, the new leader after the kill
# With CONTROLLER_STATE=kubernetes the state is kept in the manager cluster
# (kubernetes://manager-cluster/mkq-system/fleet) rather than in a file.
# Usage: controller_leader_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: controller_leader_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/controller_common.sh"
e2e_require_clients
e2e_setup controller-leader
[ "${CONTROLLER_STATE:-}" = kubernetes ] && STATE=kubernetes://$MANAGER/mkq-system/fleet
controller_fleet
INTERVAL=5

start_controller a --sync auto --interval ${INTERVAL}s
start_controller b --sync auto --interval ${INTERVAL}s
one_leader() { [ "$(($(metric a mkq_controller_leader) + $(metric b mkq_controller_leader)))" = 1 ]; }
wait_until 20 one_leader || { cat "$TMP/a.log" "$TMP/b.log"; fail "not exactly one leader"; }
if [ "$(metric a mkq_controller_leader)" = 1 ]; then leader=a follower=b; else leader=b follower=a; fi
identity() { grep -o 'as [^ ]*$' "$TMP/$1.log" | head -1 | cut -d' ' -f2; }
leader_id=$(identity $leader)
follower_id=$(identity $follower)
[ -n "$leader_id" ] && [ "$leader_id" != "$follower_id" ] || fail "the controllers' identities: '$leader_id' '$follower_id'"

set_cpu() { sed -i "s/quota \"default-flavor\" { cpu = [0-9]*, memory = 36Gi }/quota \"default-flavor\" { cpu = $1, memory = 36Gi }/" "$P/policy.mkq"; }
set_cpu 10
wait_until $((INTERVAL + 5)) cpu_is 10 || { cat "$TMP/$leader.log"; fail "the leader did not apply the change"; }
sleep 2
history_json() { "$MKQ" history --kubeconfig "$SB/kubeconfig" --state "$STATE" --json >"$TMP/$1.out" 2>"$TMP/$1.err" || { show "$1"; fail "mkq history"; }; }
history_json history1
/usr/bin/python3 - "$TMP/history1.out" "$leader_id" <<'PY' || { cat "$TMP/history1.out"; fail "the history names another writer than the leader"; }
import json, sys
runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r["command"].startswith("controller ")]
assert runs, "no controller run"
assert all(r["command"] == "controller " + sys.argv[2] for r in runs), [r["command"] for r in runs]
PY
[ -z "$(events Applied | grep -v "^$leader_id ")" ] || { events Applied; fail "an Applied event of another instance"; }
grep -q 'controller: run' "$TMP/$follower.log" && { cat "$TMP/$follower.log"; fail "the follower ran"; }
if [ "${CONTROLLER_STATE:-}" = kubernetes ]; then
  km -n mkq-system get secret fleet >/dev/null 2>&1 && [ ! -e "$TMP/state.db" ] && [ ! -e "$P/.mkq/state.db" ] ||
    fail "the state is not (only) in the cluster"
fi
pass "exactly one of two controllers leads and applies ($leader_id); the history and the Events name it alone"

# Killed right after a run ended (its next is an interval away): a kill within a run would leave the
# state's lock to expire first (60 s), which is the state's test (e2e.state_kubernetes), not this one.
leader_runs=$(metric $leader 'mkq_controller_runs_total{result="success"}')
wait_until $((INTERVAL + 5)) metric_is $leader 'mkq_controller_runs_total{result="success"}' -gt "$leader_runs" ||
  fail "the leader made no run"
kill -9 "$(eval echo \$PID_$leader)"
killed=$(date +%s.%N)
wait_until 25 metric_is $follower mkq_controller_leader -eq 1 || { cat "$TMP/$follower.log"; fail "the follower never led"; }
took=$(/usr/bin/python3 -c "import sys, time; print('%.1f' % (time.time() - float(sys.argv[1])))" "$killed")
# The lease lasts 15 s from the leader's last renewal, before the kill; this test sees the new leader
# through /metrics, polled every 0.5 s.
/usr/bin/python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 16 else 1)" "$took" ||
  { cat "$TMP/$follower.log"; fail "the follower led $took s after the leader died, more than the lease's 15 s"; }
set_cpu 11
wait_until $((INTERVAL + 5)) cpu_is 11 || { cat "$TMP/$follower.log"; fail "the new leader did not apply the change"; }
events LeaderElected | grep -q "^$follower_id " || { events LeaderElected; fail "no LeaderElected event of the new leader"; }
sleep 2
history_json history2
/usr/bin/python3 - "$TMP/history2.out" "$leader_id" "$follower_id" <<'PY' || { cat "$TMP/history2.out"; fail "the history after the kill"; }
import json, sys
runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r["command"].startswith("controller ")]
writers = [r["command"].split(" ", 1)[1] for r in runs]
assert set(writers) <= {sys.argv[2], sys.argv[3]}, writers
assert sys.argv[3] in writers, "no run of the new leader: %s" % writers
assert all(r["result"] == "success" for r in runs), [(r["command"], r["result"]) for r in runs]
PY
pass "kill -9 the leader: the other leads after $took s and applies the next change"
exit 0
