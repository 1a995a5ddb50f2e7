# Sourced by the controller's end-to-end tests (after common.sh): the
# quickstart fleet in the sandbox, applied once, and controllers run as local
# processes with the sandbox's kubeconfig standing in for in-cluster
# credentials.
#   controller_fleet [SANDBOX-UP-ARGS...]   the sandbox with the quickstart's clusters, the namespace
#                    mkq-system on the manager, $P the policy directory (extra lines of the worker's block
#                    in $WORKER_EXTRA), applied once with `mkq apply`; the state at $STATE (set it before:
#                    a file, or kubernetes://...; default $TMP/state.db)
#   start_controller NAME ARGS...   `mkq controller --policy $P ARGS` in the background, its log in
#                    $TMP/NAME.log; waits for its address: PORT_NAME, PID_NAME
#   metrics NAME     /metrics of controller NAME on stdout
#   metric NAME SERIES   the value of one series ('mkq_controller_leader', 'x{a="b"}'), or nothing
#   metric_is NAME SERIES OP VALUE   whether it compares so (test's -eq, -ge, ...)
#   cpu_is VALUE     whether the manager's ClusterQueue's cpu quota is VALUE
#   wait_until SECONDS CMD...   runs CMD every 0.5 s until it succeeds (0) or SECONDS pass (1)
#   cq_cpu           the manager's ClusterQueue's cpu quota
#   events REASON    the manager's Events of that reason in mkq-system, one "INSTANCE MESSAGE" per line
MANAGER=manager-cluster
WORKER=multikueue-test-worker1
CONTROLLER_PIDS=""

e2e_cleanup() {
  local pid
  for pid in $CONTROLLER_PIDS; do kill -9 "$pid" 2>/dev/null; done
}

km() { k --context "$MANAGER" "$@"; }

controller_fleet() {
  timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters "$MANAGER,$WORKER" "$@" >"$TMP/up.log" 2>&1 ||
    { cat "$TMP/up.log"; fail "sandbox up"; }
  km create namespace mkq-system >/dev/null || fail "create the namespace mkq-system"
  P="$TMP/policy"
  mkdir -p "$P"
  sed "s|^\(  secret = \"worker1-secret\".*\)$|\1\n${WORKER_EXTRA:-}|" "$ROOT/examples/quickstart/policy.mkq" >"$P/policy.mkq"
  STATE=${STATE:-$TMP/state.db}
  timeout 300 "$MKQ" apply "$P" --auto-approve --wait=60s --sandbox-dir "$SB" --state "$STATE" \
    >"$TMP/apply0.out" 2>"$TMP/apply0.err"
  rc=$?
  [ "$rc" = 0 ] || { show apply0; fail "the first apply exited $rc"; }
}

start_controller() {
  local name=$1 address
  shift
  "$MKQ" controller --policy "$P" --sandbox-dir "$SB" --state "$STATE" --listen 127.0.0.1:0 "$@" \
    >"$TMP/$name.log" 2>&1 &
  eval "PID_$name=$!"
  CONTROLLER_PIDS="$CONTROLLER_PIDS $!"
  disown  # the kills of the test and of the cleanup are not reported as job messages
  wait_until 20 grep -q 'on http://127.0.0.1:[0-9]*' "$TMP/$name.log" ||
    { cat "$TMP/$name.log"; fail "controller $name did not say its address"; }
  address=$(grep -o 'on http://127.0.0.1:[0-9]*' "$TMP/$name.log" | head -1)
  eval "PORT_$name=${address##*:}"
}

metrics() {
  local port
  eval "port=\$PORT_$1"
  /usr/bin/python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
    "http://127.0.0.1:$port/metrics"
}

metric() { metrics "$1" 2>/dev/null | awk -v s="$2" '$1 == s { print $2 }'; }
metric_is() {
  local value
  value=$(metric "$1" "$2")
  [ -n "$value" ] && [ "${value%.*}" "$3" "$4" ]
}
cpu_is() { [ "$(cq_cpu)" = "$1" ]; }

wait_until() {
  local deadline=$(($(date +%s) + $1))
  shift
  while ! "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -ge "$deadline" ] && return 1
    sleep 0.5
  done
}

cq_cpu() {
  km get clusterqueue cluster-queue -o json | /usr/bin/python3 -c '
import json, sys
cq = json.load(sys.stdin)
for r in cq["spec"]["resourceGroups"][0]["flavors"][0]["resources"]:
    if r["name"] == "cpu":
        print(r["nominalQuota"])'
}

events() {
  km -n mkq-system get events -o json | /usr/bin/python3 -c '
import json, sys
for e in json.load(sys.stdin)["items"]:
    if e.get("reason") == sys.argv[1]:
        print(e.get("reportingInstance", "?"), e.get("message", ""))' "$1"
}
