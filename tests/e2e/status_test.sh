#!/usr/bin/env bash
# End to end (issue 6, item 6): `mkq status` against the sandbox.
#   1. apply examples/quickstart (no kubeconfig anywhere: the sandbox) with --wait
#   2. `mkq status` exits 0 and shows every object Active with Kueue's reasons and
#      messages; --format json agrees; the tutorial's three jsonpath checks print
#      the tutorial's three lines
#   3. a wrong token in the worker's kubeconfig Secret on the manager: `mkq status`
#      shows the MultiKueueCluster not Active with ClientConnectionFailed, exit 1
#   4. `mkq plan` re-issues the Secret (changed outside mkq); apply repairs it;
#      `mkq status --wait` exits 0 again
# The token is never printed: the Secret is edited through files under $TMP (0600).
# Usage: status_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: status_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)


. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup status
km() { k --context manager-cluster "$@"; }
# has NAME REGEX: the output NAME has a line matching the extended regex.
has() { grep -Eq -- "$2" "$TMP/$1.out"; }

mkdir -p "$TMP/policy"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"

# 1. Apply.
mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply exited $rc"; }
pass "apply of examples/quickstart with --wait"

# 2. Every object Active, with Kueue's reasons and messages.
mkq_run status1 status "$P"
[ "$rc" = 0 ] || { show status1; fail "status after apply exited $rc, expected 0"; }
has status1 '^manager-cluster \(manager\)$' || { show status1; fail "status: no manager table"; }
has status1 '^multikueue-test-worker1 \(worker\)$' || { show status1; fail "status: no worker table"; }
has status1 '^  KIND +NAME +ACTIVE +REASON +MESSAGE$' || { show status1; fail "status: no table header"; }
has status1 '^  MultiKueueCluster +multikueue-test-worker1 +True +Active +Connected$' ||
  { show status1; fail "status: MultiKueueCluster not Active/Connected"; }
has status1 '^  AdmissionCheck +sample-multikueue +True +Active +The admission check is active$' ||
  { show status1; fail "status: AdmissionCheck not Active"; }
[ "$(grep -Ec '^  ClusterQueue +cluster-queue +True +Ready +Can admit new workloads$' "$TMP/status1.out")" = 2 ] ||
  { show status1; fail "status: the ClusterQueue is not Ready on the manager and the worker"; }
[ "$(grep -Ec '^  LocalQueue +default/user-queue +True ' "$TMP/status1.out")" = 2 ] ||
  { show status1; fail "status: the LocalQueue is not Active on the manager and the worker"; }
rows=$(grep -Ec '^  (ClusterQueue|LocalQueue|AdmissionCheck|MultiKueueCluster) ' "$TMP/status1.out")
has status1 "^$rows of $rows objects Active\.\$" || { show status1; fail "status: expected '$rows of $rows objects Active.'"; }
grep -q 'Secret\|worker1-secret' "$TMP/status1.out" && { show status1; fail "status lists a Secret"; }
pass "mkq status: every object Active ($rows of $rows), exit 0"

mkq_run json1 status "$P" --format json
[ "$rc" = 0 ] || { show json1; fail "status --format json exited $rc"; }
/usr/bin/python3 - "$TMP/json1.out" "$rows" <<'EOF' || { show json1; fail "status --format json"; }
import json, sys
report = json.load(open(sys.argv[1]))
rows = int(sys.argv[2])
assert report["summary"] == {"active": rows, "total": rows}, report["summary"]
names = [c["name"] for c in report["clusters"]]
assert names == ["manager-cluster", "multikueue-test-worker1"], names
assert report["clusters"][0]["role"] == "manager" and report["clusters"][1]["role"] == "worker"
for cluster in report["clusters"]:
    assert cluster["reachable"] is True and cluster["error"] == "", cluster
    for o in cluster["objects"]:
        assert set(o) == {"address", "kind", "namespace", "name", "active", "condition", "reason", "message"}, o
        assert o["active"] is True and o["condition"] == "True", o
mc = [o for o in report["clusters"][0]["objects"] if o["kind"] == "MultiKueueCluster"][0]
assert mc["address"] == "manager-cluster/MultiKueueCluster/multikueue-test-worker1", mc
assert (mc["reason"], mc["message"]) == ("Active", "Connected"), mc
EOF
pass "mkq status --format json: every object Active"

{
  km get clusterqueues cluster-queue -o jsonpath="{range .status.conditions[?(@.type == \"Active\")]}CQ - Active: {@.status} Reason: {@.reason} Message: {@.message}{'\n'}{end}"
  km get admissionchecks sample-multikueue -o jsonpath="{range .status.conditions[?(@.type == \"Active\")]}AC - Active: {@.status} Reason: {@.reason} Message: {@.message}{'\n'}{end}"
  km get multikueuecluster multikueue-test-worker1 -o jsonpath="{range .status.conditions[?(@.type == \"Active\")]}MC - Active: {@.status} Reason: {@.reason} Message: {@.message}{'\n'}{end}"
} >"$TMP/checks.txt" 2>&1
cat >"$TMP/expected.txt" <<'EOF'
CQ - Active: True Reason: Ready Message: Can admit new workloads
AC - Active: True Reason: Active Message: The admission check is active
MC - Active: True Reason: Active Message: Connected
EOF
diff "$TMP/expected.txt" "$TMP/checks.txt" >/dev/null ||
  { diff "$TMP/expected.txt" "$TMP/checks.txt"; fail "the tutorial's three checks"; }
pass "the tutorial's three checks"

# 3. A wrong token in worker1-secret (edited in files under $TMP; never printed).
km -n kueue-system get secret worker1-secret -o json >"$TMP/secret.json" 2>"$TMP/secret.err" ||
  { cat "$TMP/secret.err"; fail "read worker1-secret"; }
/usr/bin/python3 - "$TMP/secret.json" <<'EOF' || fail "put a wrong token into worker1-secret's kubeconfig"
import base64, json, re, sys
path = sys.argv[1]
secret = json.load(open(path))
kubeconfig = base64.b64decode(secret["data"]["kubeconfig"]).decode()
changed, count = re.subn(r'(?m)^(\s*token:\s*).*$', r'\g<1>not-a-valid-token', kubeconfig)
if count != 1:
    sys.exit("expected one token in the kubeconfig, found %d" % count)
secret["data"]["kubeconfig"] = base64.b64encode(changed.encode()).decode()
for key in ("resourceVersion", "uid", "creationTimestamp", "managedFields"):
    secret["metadata"].pop(key, None)
json.dump(secret, open(path, "w"))
EOF
km replace -f "$TMP/secret.json" >"$TMP/replace.log" 2>&1 || { cat "$TMP/replace.log"; fail "write worker1-secret back"; }
rm -f "$TMP/secret.json"
mc_line='^  MultiKueueCluster +multikueue-test-worker1 +False +ClientConnectionFailed( |$)'
deadline=$((SECONDS + 30))
while :; do
  mkq_run status2 status "$P"
  has status2 "$mc_line" && break
  [ "$SECONDS" -lt "$deadline" ] || { show status2; fail "status: the MultiKueueCluster did not turn not Active within 30 s"; }
  sleep 0.5
done
[ "$rc" = 1 ] || { show status2; fail "status with a wrong token exited $rc, expected 1"; }
has status2 "^[0-9]+ of $rows objects Active; not Active: .*manager-cluster/MultiKueueCluster/multikueue-test-worker1 \(ClientConnectionFailed" ||
  { show status2; fail "status: the summary does not name the MultiKueueCluster and its reason"; }
mkq_run json2 status "$P" --format json
[ "$rc" = 1 ] || { show json2; fail "status --format json with a wrong token exited $rc, expected 1"; }
/usr/bin/python3 - "$TMP/json2.out" <<'EOF' || { show json2; fail "status --format json with a wrong token"; }
import json, sys
report = json.load(open(sys.argv[1]))
mc = [o for o in report["clusters"][0]["objects"] if o["kind"] == "MultiKueueCluster"][0]
assert (mc["active"], mc["condition"], mc["reason"]) == (False, "False", "ClientConnectionFailed"), mc
assert report["summary"]["active"] < report["summary"]["total"], report["summary"]
EOF
grep -q "not-a-valid-token" "$TMP/status2.out" "$TMP/status2.err" "$TMP/json2.out" &&
  fail "status prints the Secret's token"
pass "a wrong token: status shows the MultiKueueCluster False ClientConnectionFailed, exit 1"

# 4. The next plan re-issues the Secret; apply repairs it; status is clean again.
mkq_run plan1 plan "$P"
[ "$rc" = 0 ] || { show plan1; fail "plan after the wrong token exited $rc"; }
grep -q "worker1-secret" "$TMP/plan1.out" && grep -q "changed outside mkq" "$TMP/plan1.out" ||
  { show plan1; fail "the plan does not re-issue worker1-secret as changed outside mkq"; }
grep -q "not-a-valid-token" "$TMP/plan1.out" && fail "the plan prints the Secret's token"
mkq_run apply2 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply2; fail "the repairing apply exited $rc"; }
mkq_run status3 status "$P" --wait=30s
[ "$rc" = 0 ] || { show status3; fail "status after the repair exited $rc, expected 0"; }
has status3 '^  MultiKueueCluster +multikueue-test-worker1 +True +Active +Connected$' ||
  { show status3; fail "status after the repair: MultiKueueCluster not Connected"; }
has status3 "^$rows of $rows objects Active\.\$" || { show status3; fail "status after the repair: not every object Active"; }
pass "plan re-issues the Secret; apply repairs it; status exits 0"

# 5. A malformed --wait is refused.
mkq_run badwait status "$P" --wait=soon
[ "$rc" = 1 ] || { show badwait; fail "status --wait=soon exited $rc, expected 1"; }
grep -q -- "--wait takes a duration" "$TMP/badwait.err" || { show badwait; fail "status --wait=soon: no message"; }
pass "status --wait=soon is refused"
exit 0
