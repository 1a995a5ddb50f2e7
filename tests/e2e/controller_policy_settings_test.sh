#!/usr/bin/env bash
# End to end (issue 14): the manager's `state {}` and `sync {}` blocks, with no flag naming either.
#   1. `state { name = "fleet" }` alone puts the state in the manager cluster: apply, with no sandbox
#      running yet, starts it first (as it would anyway) and writes the Secret mkq-system/fleet (the
#      namespace made) and no local state file; plan reads it back (nothing to change)
#   2. the controller without --sync/--self-heal/--interval follows `sync { mode = "auto",
#      self_heal = true, interval = 3s }`: a patched quota is repaired within one interval
#   3. --no-self-heal overrides the policy: the next patch is reported (DriftDetected) and left
# Usage: controller_policy_settings_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: controller_policy_settings_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/controller_common.sh"
e2e_require_clients
e2e_setup controller-policy-settings
INTERVAL=3

P="$TMP/policy"
mkdir -p "$P"
sed "s|^manager \"manager-cluster\" { context = \"manager-cluster\" }$|manager \"manager-cluster\" {\n  context = \"manager-cluster\"\n  state { name = \"fleet\" }\n  sync { mode = \"auto\", self_heal = true, interval = ${INTERVAL}s }\n}|" \
  "$ROOT/examples/quickstart/policy.mkq" >"$P/policy.mkq"
grep -q 'state { name = "fleet" }' "$P/policy.mkq" || fail "the policy's manager block was not rewritten"

# 1. The state block alone.
timeout 120 "$MKQ" apply "$P" --auto-approve --sandbox-dir "$SB" >"$TMP/apply.out" 2>"$TMP/apply.err" ||
  { show apply; fail "apply with the policy's state block"; }
grep -q "^mkq: starting the sandbox" "$TMP/apply.err" || { show apply; fail "apply did not start the sandbox"; }
km -n mkq-system get secret fleet >/dev/null 2>&1 || { show apply; fail "no state Secret mkq-system/fleet"; }
[ ! -e "$P/.mkq/state.db" ] || fail "a local state file was written beside the policy"
timeout 60 "$MKQ" plan "$P" --detailed-exitcode --sandbox-dir "$SB" >"$TMP/plan.out" 2>"$TMP/plan.err"
plan_rc=$?
[ "$plan_rc" = 0 ] || { show plan; fail "plan after the apply exited $plan_rc (the state was not read back)"; }
pass "state { name = \"fleet\" } alone, no sandbox running: apply starts it, the state is the Secret mkq-system/fleet, plan reads it (no changes)"

# 2. The sync block alone.
start_controller_default() {
  local name=$1 address
  shift
  "$MKQ" controller --policy "$P" --sandbox-dir "$SB" --listen 127.0.0.1:0 "$@" >"$TMP/$name.log" 2>&1 &
  eval "PID_$name=$!"
  CONTROLLER_PIDS="$CONTROLLER_PIDS $!"
  disown
  wait_until 20 grep -q 'on http://127.0.0.1:[0-9]*' "$TMP/$name.log" ||
    { cat "$TMP/$name.log"; fail "controller $name did not say its address"; }
  address=$(grep -o 'on http://127.0.0.1:[0-9]*' "$TMP/$name.log" | head -1)
  eval "PORT_$name=${address##*:}"
}
patch_cpu() {
  km patch clusterqueue cluster-queue --type json \
    -p "[{\"op\": \"replace\", \"path\": \"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota\", \"value\": \"$1\"}]" \
    >/dev/null || fail "kubectl patch"
}
start_controller_default a --no-leader-elect
wait_until 30 metric_is a 'mkq_controller_runs_total{result="success"}' -ge 1 ||
  { cat "$TMP/a.log"; fail "the first run did not succeed"; }
patch_cpu 3
wait_until $((INTERVAL + 10)) cpu_is 9 || { cat "$TMP/a.log"; fail "the drift was not repaired (self_heal in the policy)"; }
kill "$PID_a"
wait_until 10 eval '! kill -0 $PID_a' || fail "the controller did not stop on SIGTERM"
pass "sync { mode = \"auto\", self_heal = true, interval = ${INTERVAL}s } alone: a patched quota repaired"

# 3. A flag overrides the policy.
start_controller_default b --no-leader-elect --no-self-heal
wait_until 30 metric_is b 'mkq_controller_runs_total{result="success"}' -ge 1 ||
  { cat "$TMP/b.log"; fail "the first run did not succeed"; }
patch_cpu 4
wait_until $((INTERVAL + 10)) metric_is b mkq_controller_drift_objects -eq 1 ||
  { cat "$TMP/b.log"; fail "the drift was not found"; }
sleep $INTERVAL
cpu_is 4 || { cat "$TMP/b.log"; fail "--no-self-heal did not override the policy's self_heal"; }
pass "--no-self-heal overrides the policy's self_heal: the drift is reported and left"
exit 0
