#!/usr/bin/env bash
# End to end (issue 14, the controller): `mkq controller` against the sandbox.
#   0. a --policy that does not exist: exit 1 before serving
#   1. sync auto without --self-heal: a quota patched with kubectl is reported (DriftDetected, the drift
#      gauge) and left as it is
#   2. with --self-heal: repaired within one interval
#   3. a policy file changed in the watched directory: applied within one interval
#   4. /metrics parses as Prometheus text (0.0.4) and holds the credential-expiry gauge of the worker;
#      /healthz and /readyz answer 200
# Usage: controller_sync_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: controller_sync_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/controller_common.sh"
e2e_require_clients
e2e_setup controller-sync
controller_fleet
INTERVAL=5

# 0. A policy that is not there is refused before anything is served.
"$MKQ" controller --policy "$TMP/absent" --sandbox-dir "$SB" --listen 127.0.0.1:0 >"$TMP/absent.log" 2>&1
absent_rc=$?
[ "$absent_rc" = 1 ] && grep -q "^mkq: error: --policy $TMP/absent: no such file or directory" "$TMP/absent.log" &&
  ! grep -q 'serving' "$TMP/absent.log" || { cat "$TMP/absent.log"; fail "a missing policy exited $absent_rc"; }
pass "a missing --policy is refused at once (exit 1), nothing served"

# 1. Drift without self-heal: reported, left.
start_controller a --sync auto --interval ${INTERVAL}s
wait_until 30 metric_is a 'mkq_controller_runs_total{result="success"}' -ge 1 ||
  { cat "$TMP/a.log"; fail "the first run did not succeed"; }
km patch clusterqueue cluster-queue --type json \
  -p '[{"op": "replace", "path": "/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota", "value": "3"}]' \
  >/dev/null || fail "kubectl patch"
[ "$(cq_cpu)" = 3 ] || fail "the patch did not change the quota"
wait_until $((INTERVAL + 10)) metric_is a mkq_controller_drift_objects -eq 1 ||
  { cat "$TMP/a.log"; fail "the controller did not find the drift within one interval"; }
sleep $INTERVAL
[ "$(cq_cpu)" = 3 ] || { cat "$TMP/a.log"; fail "without --self-heal the drift was repaired"; }
events DriftDetected | grep -q 'ClusterQueue/cluster-queue' || { events DriftDetected; fail "no DriftDetected event"; }
pass "without --self-heal: the patched quota is reported (DriftDetected, drift gauge 1) and left"
kill -TERM "$PID_a"
wait_until 20 grep -q 'controller: stopped' "$TMP/a.log" || { cat "$TMP/a.log"; fail "SIGTERM did not stop the controller"; }

# 2. With self-heal: repaired within one interval.
start_controller b --sync auto --self-heal --interval ${INTERVAL}s
started=$(date +%s)
wait_until $((INTERVAL + 10)) cpu_is 9 || { cat "$TMP/b.log"; fail "--self-heal did not repair the quota"; }
pass "with --self-heal: the quota is repaired after $(($(date +%s) - started)) s (interval ${INTERVAL} s)"

# 3. A policy file changed: applied within one interval.
sleep 2
sed -i 's/quota "default-flavor" { cpu = 9, memory = 36Gi }/quota "default-flavor" { cpu = 12, memory = 36Gi }/' "$P/policy.mkq"
grep -q 'cpu = 12' "$P/policy.mkq" || fail "could not change the policy"
started=$(date +%s)
wait_until $((INTERVAL + 5)) cpu_is 12 || { cat "$TMP/b.log"; fail "the policy's change was not applied within one interval (cpu $(cq_cpu))"; }
pass "a changed policy file is applied after $(($(date +%s) - started)) s"
"$MKQ" history --state "$TMP/state.db" >"$TMP/history1.out" 2>&1 || { cat "$TMP/history1.out"; fail "mkq history"; }
grep -q 'controller ' "$TMP/history1.out" || { cat "$TMP/history1.out"; fail "the history holds no controller run"; }

# 4. /metrics parses; the expiry gauge per worker; the probes.
metrics b >"$TMP/metrics.txt" || fail "GET /metrics"
/usr/bin/python3 - "$TMP/metrics.txt" "$WORKER" <<'PY' || { cat "$TMP/metrics.txt"; fail "/metrics is not valid Prometheus text"; }
import re, sys
text = open(sys.argv[1]).read()
name = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
sample = re.compile(r'^(%s)(\{(?:%s)(?:,%s)*\})? (-?[0-9.e+]+|NaN|[+-]Inf)$' % (name, label, label))
types, helps, seen = {}, set(), {}
for line in text.splitlines():
    if line.startswith("# HELP "):
        helps.add(line.split()[2])
    elif line.startswith("# TYPE "):
        _, _, family, kind = line.split(" ", 3)
        assert kind in ("counter", "gauge"), line
        assert family not in types, "two TYPE lines for " + family
        types[family] = kind
    else:
        m = sample.match(line)
        assert m, "not a sample: %r" % line
        assert m.group(1) in types, "a sample before its TYPE: " + line
        seen[m.group(1) + (m.group(2) or "")] = float(m.group(3))
assert set(types) == helps, "a family without HELP"
for family, kind in types.items():
    assert kind != "counter" or family.endswith("_total"), family
expiry = seen.get('mkq_controller_credential_expiry_seconds{worker="%s"}' % sys.argv[2])
assert expiry is not None and 0 < expiry <= 31 * 86400, "no credential-expiry gauge for the worker: %r" % expiry
assert seen.get('mkq_controller_cluster_reachable{cluster="manager-cluster"}') == 1
assert seen.get("mkq_controller_leader") == 1
assert seen.get('mkq_controller_changes_applied_total{kind="drift"}', 0) >= 1
PY
for probe in healthz readyz; do
  code=$(/usr/bin/python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).status)' \
    "http://127.0.0.1:$PORT_b/$probe") || fail "GET /$probe"
  [ "$code" = 200 ] || fail "/$probe answered $code"
done
pass "/metrics parses as Prometheus text with the worker's credential-expiry gauge; /healthz and /readyz 200"
exit 0
