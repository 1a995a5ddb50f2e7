#!/usr/bin/env bash
# End to end (issue 14): SIGTERM during the controller's apply stops it as the first Ctrl-C stops
# `mkq apply`: no new change starts, those in flight finish, the state is written and its lock let go,
# the lease given back; exit 130 (changes were left). The next apply carries out the rest.
# Usage: controller_stop_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: controller_stop_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/controller_common.sh"
e2e_require_clients
e2e_setup controller-stop
controller_fleet

# 120 more LocalQueues on the manager and on the worker (240 creates): at 5 requests a second the
# apply lasts long enough to be stopped in the middle.
sed -i 's|^  localqueue "user-queue" in "default" {}$|&\n  for i in range(120) { localqueue "lq-${i}" in "default" {} }|' "$P/policy.mkq"
grep -q 'range(120)' "$P/policy.mkq" || fail "the policy was not extended"
"$MKQ" controller --policy "$P" --sandbox-dir "$SB" --state "$STATE" --listen 127.0.0.1:0 --sync auto \
  --interval 10m --qps 5 --burst 1 >"$TMP/c.log" 2>&1 &
pid=$!
CONTROLLER_PIDS="$pid"
wait_until 40 eval '[ "$(grep -c "^mkq: controller: create " "$TMP/c.log")" -ge 3 ]' ||
  { cat "$TMP/c.log"; fail "the controller did not start applying"; }
kill -TERM "$pid"
stopped_at=$(date +%s)
wait "$pid"
rc=$?
[ "$rc" = 130 ] || { cat "$TMP/c.log"; fail "the controller exited $rc after SIGTERM during its apply, not 130"; }
[ $(($(date +%s) - stopped_at)) -le 15 ] || fail "the controller took more than 15 s to stop"
grep -q 'stopped during an apply: the changes not started are left for the next run' "$TMP/c.log" ||
  { cat "$TMP/c.log"; fail "no line saying the apply was cut short"; }
lqs() { k --context "$1" -n default get localqueues -o name | grep -c '/lq-'; }
created=$(($(lqs "$WORKER") + $(lqs "$MANAGER")))
[ "$created" -gt 0 ] && [ "$created" -lt 240 ] || { cat "$TMP/c.log"; fail "$created of 240 LocalQueues created"; }
holder=$(km -n mkq-system get lease mkq-controller -o jsonpath='{.spec.holderIdentity}')
[ -z "$holder" ] || fail "the lease is still held by '$holder'"
"$MKQ" history --state "$STATE" --json >"$TMP/history.out" 2>"$TMP/history.err" || { show history; fail "mkq history"; }
/usr/bin/python3 - "$TMP/history.out" <<'PY' || { cat "$TMP/history.out"; fail "the history of the stopped run"; }
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["command"].startswith("controller "), run["command"]
assert run["result"] == "interrupted", run["result"]
PY
pass "SIGTERM during the apply: exit 130, $created of 240 LocalQueues created, the run recorded interrupted, the lease given back"

# The state's lock was let go and every change done is recorded: the next apply does the rest.
mkq_run apply1 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply1; fail "the next apply exited $rc"; }
mkq_run plan1 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan1; fail "the plan after the next apply exited $rc"; }
[ "$(lqs "$WORKER")" = 120 ] && [ "$(lqs "$MANAGER")" = 120 ] || fail "not all 240 LocalQueues after the next apply"
pass "the next apply takes the lock and creates the rest; the plan after it is empty"
exit 0
