#!/usr/bin/env bash
# End to end (issue 17 item 2, scoping): examples/tas (a manager, worker1,
# worker2) applied to the sandbox -- first a canary, `apply --cluster worker1`,
# which starts the sandbox with every cluster of the policy (a later unscoped
# run uses it), then the whole policy -- then
#   0. status --cluster worker1 lists worker1's credential, not worker2's;
#   1. --cluster with an unknown name is an error with "did you mean", nothing read;
#   2. a canary: the policy changes a quota on every cluster and `apply
#      --cluster worker1` changes worker1's ClusterQueue and nothing else (every
#      object of the manager and worker2 keeps its uid and generation or
#      resourceVersion, as kubectl reads them); the plan says what it left out;
#   3. a plan saved with --cluster worker2 keeps its scope: applied, it changes worker2 only;
#   4. --replace ADDRESS deletes and creates that object again (a new uid), no other;
#   5. --drift-only shows only the object changed outside mkq, and apply
#      --drift-only repairs it and leaves the policy's own change for later.
# Usage: scope_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: scope_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup scope

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"

# snapshot FILE: every object mkq manages on the three clusters, one line each:
# CLUSTER KIND NAMESPACE/NAME UID GENERATION-or-RESOURCEVERSION (status updates leave generation alone).
snapshot() {
  : >"$1"
  for ctx in manager worker1 worker2; do
    k --context "$ctx" get clusterqueues,localqueues,resourceflavors,topologies,admissionchecks,multikueueclusters,multikueueconfigs -A -o json >"$TMP/snap.json" ||
      fail "kubectl get on $ctx"
    k --context "$ctx" -n kueue-system get secrets,serviceaccounts -o json >"$TMP/snap2.json" || fail "kubectl get secrets on $ctx"
    /usr/bin/python3 - "$ctx" "$TMP/snap.json" "$TMP/snap2.json" >>"$1" <<'PY'
import json, sys
for path in sys.argv[2:]:
    for o in json.load(open(path))["items"]:
        m = o["metadata"]
        print(sys.argv[1], o["kind"], m.get("namespace", "") + "/" + m["name"], m["uid"], m.get("generation", m["resourceVersion"]))
PY
  done
  sort -o "$1" "$1"
}

# 0. The first run is a canary: the sandbox it starts serves worker2 too.
mkq_run first_canary apply "$P" --cluster worker1 --auto-approve
[ "$rc" = 0 ] || { show first_canary; fail "apply --cluster worker1 that starts the sandbox: exit $rc"; }
grep -q "starting the sandbox at .* with clusters manager worker1 worker2$" "$TMP/first_canary.err" ||
  { show first_canary; fail "the canary did not start the sandbox with every cluster of the policy"; }
k --context worker2 get namespaces >/dev/null || fail "the sandbox started by the canary does not serve worker2"
mkq_run apply0 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply0; fail "apply of examples/tas after the canary that started the sandbox"; }
pass "a canary that starts the sandbox starts it with every cluster; the unscoped apply after it runs"

# status --cluster worker1 reads worker1 and the manager only: worker2's credential is left out, not "unknown".
mkq_run scoped_status status "$P" --cluster worker1
[ "$rc" = 0 ] || { show scoped_status; fail "status --cluster worker1: exit $rc"; }
grep -q "^  worker1 " "$TMP/scoped_status.out" || { show scoped_status; fail "status --cluster worker1: no credential row of worker1"; }
! grep -q "worker2" "$TMP/scoped_status.out" || { show scoped_status; fail "status --cluster worker1 names worker2"; }
mkq_run scoped_json status "$P" --cluster worker1 --format json
/usr/bin/python3 -c 'import json,sys; print(" ".join(c["worker"] for c in json.load(open(sys.argv[1]))["credentials"]))' \
  "$TMP/scoped_json.out" >"$TMP/scoped_workers" || { show scoped_json; fail "status --format json: no credentials"; }
[ "$(cat "$TMP/scoped_workers")" = worker1 ] || { show scoped_json; fail "status --cluster worker1 --format json lists credentials of $(cat "$TMP/scoped_workers")"; }
pass "status --cluster worker1 lists worker1's credential only"

# 1. An unknown name: an error naming the closest, nothing read.
mkq_run typo plan "$P" --cluster workr1
[ "$rc" = 1 ] || { show typo; fail "--cluster workr1: exit $rc, expected 1"; }
grep -qx "mkq: error: --cluster workr1: no cluster of that name in the policy or the state; did you mean 'worker1'?" "$TMP/typo.err" ||
  { show typo; fail "--cluster workr1: not the expected message"; }
pass "--cluster with an unknown name: an error with did you mean"

# 2. The canary. The quota changes on every cluster: the manager's 16 -> 12, each worker's 8 -> 6.
sed -i 's/cpu = 8, memory = 16Gi/cpu = 6, memory = 16Gi/; s/quota "tas-flavor" { cpu = 16/quota "tas-flavor" { cpu = 12/' "$P/policy.mkq"
snapshot "$TMP/before.txt"
mkq_run canary_plan plan "$P" --cluster worker1 --detailed-exitcode
[ "$rc" = 2 ] || { show canary_plan; fail "plan --cluster worker1: exit $rc, expected 2"; }
grep -q "~ ClusterQueue worker-cluster-queue" "$TMP/canary_plan.out" || { show canary_plan; fail "the canary plan does not update worker1's ClusterQueue"; }
grep -q "# cluster worker2" "$TMP/canary_plan.out" && { show canary_plan; fail "the canary plan shows worker2"; }
grep -q "~ ClusterQueue cluster-queue" "$TMP/canary_plan.out" && { show canary_plan; fail "the canary plan updates the manager's ClusterQueue"; }
grep -qx "# 1 cluster not planned (--cluster): worker2; [0-9]* objects of the state left as they are" "$TMP/canary_plan.out" ||
  { show canary_plan; fail "the canary plan does not say worker2 was left out"; }
grep -qx "# manager manager: only its objects for worker1 planned (--cluster); [0-9]* objects of the state left as they are" "$TMP/canary_plan.out" ||
  { show canary_plan; fail "the canary plan does not say what of the manager was left out"; }
grep -q "Plan: 0 to add, 1 to change, 0 to destroy." "$TMP/canary_plan.out" || { show canary_plan; fail "the canary plan is not exactly one change"; }
mkq_run canary_json plan "$P" --cluster worker1 --format json
/usr/bin/python3 - "$TMP/canary_json.out" <<'PY' || { show canary_json; fail "the plan's JSON does not carry the scope"; }
import json, sys
scope = json.load(open(sys.argv[1]))["scope"]
assert scope["clusters"] == ["worker1"], scope
assert [c["name"] for c in scope["not_planned"]] == ["worker2"], scope
assert scope["manager_objects_left"] > 0 and scope["drift_only"] is False, scope
PY
mkq_run canary apply "$P" --cluster worker1 --auto-approve
[ "$rc" = 0 ] || { show canary; fail "apply --cluster worker1: exit $rc"; }
snapshot "$TMP/after.txt"
diff "$TMP/before.txt" "$TMP/after.txt" >"$TMP/canary.diff"
changed=$(grep -c '^>' "$TMP/canary.diff")
[ "$changed" = 1 ] && grep -q '^> worker1 ClusterQueue /worker-cluster-queue ' "$TMP/canary.diff" ||
  { cat "$TMP/canary.diff"; fail "apply --cluster worker1 changed more (or less) than worker1's ClusterQueue"; }
[ "$(k --context worker1 get clusterqueue worker-cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 6 ] ||
  fail "worker1's quota is not 6 after the canary"
[ "$(k --context worker2 get clusterqueue worker-cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 8 ] ||
  fail "worker2's quota changed in the canary"
pass "apply --cluster worker1 changed worker1's ClusterQueue and nothing else on any cluster; the plan says what it left out"

# 3. A saved plan keeps its scope.
mkq_run saved_plan plan "$P" --cluster worker2 --out "$TMP/w2.plan"
[ "$rc" = 0 ] || { show saved_plan; fail "plan --cluster worker2 --out"; }
mkq_run saved_other apply "$TMP/w2.plan" --cluster worker1
[ "$rc" = 1 ] && grep -q "was made with other --cluster options" "$TMP/saved_other.err" ||
  { show saved_other; fail "a saved plan applied with another --cluster was not refused"; }
snapshot "$TMP/before.txt"
mkq_run saved apply "$TMP/w2.plan" </dev/null
[ "$rc" = 0 ] || { show saved; fail "apply of the plan saved with --cluster worker2: exit $rc"; }
snapshot "$TMP/after.txt"
diff "$TMP/before.txt" "$TMP/after.txt" >"$TMP/saved.diff"
[ "$(grep -c '^>' "$TMP/saved.diff")" = 1 ] && grep -q '^> worker2 ClusterQueue /worker-cluster-queue ' "$TMP/saved.diff" ||
  { cat "$TMP/saved.diff"; fail "the saved plan with --cluster worker2 changed more than worker2's ClusterQueue"; }
pass "a plan saved with --cluster worker2 applies with its scope (another --cluster refused)"

# The manager's change, applied whole: nothing is left.
mkq_run rest apply "$P" --auto-approve
[ "$rc" = 0 ] || { show rest; fail "the full apply after the canaries"; }
mkq_run clean plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show clean; fail "plan after the full apply: exit $rc"; }

# 4. --replace: a new uid for that object, the others as they were.
mkq_run bad_replace plan "$P" --replace worker1/ClusterQueue/worker-queue
[ "$rc" = 1 ] && grep -q "did you mean 'worker1/ClusterQueue/worker-cluster-queue'" "$TMP/bad_replace.err" ||
  { show bad_replace; fail "--replace of an unknown address: no did you mean"; }
snapshot "$TMP/before.txt"
mkq_run replace_plan plan "$P" --replace worker1/LocalQueue/default/user-queue
grep -q -- "-/+ LocalQueue default/user-queue (replace requested (--replace))" "$TMP/replace_plan.out" ||
  { show replace_plan; fail "the plan does not show the requested replace"; }
mkq_run replace apply "$P" --replace worker1/LocalQueue/default/user-queue --auto-approve --wait=60s
[ "$rc" = 0 ] || { show replace; fail "apply --replace: exit $rc"; }
snapshot "$TMP/after.txt"
diff "$TMP/before.txt" "$TMP/after.txt" >"$TMP/replace.diff"
[ "$(grep -c '^>' "$TMP/replace.diff")" = 1 ] && grep -q '^> worker1 LocalQueue default/user-queue ' "$TMP/replace.diff" ||
  { cat "$TMP/replace.diff"; fail "--replace changed more than the LocalQueue"; }
old_uid=$(grep '^< worker1 LocalQueue' "$TMP/replace.diff" | cut -d' ' -f5)
new_uid=$(grep '^> worker1 LocalQueue' "$TMP/replace.diff" | cut -d' ' -f5)
[ -n "$old_uid" ] && [ "$old_uid" != "$new_uid" ] || { cat "$TMP/replace.diff"; fail "the LocalQueue was not created again (uid $old_uid -> $new_uid)"; }
pass "--replace deletes and creates that object again (a new uid), nothing else"

# 5. Drift only: worker2's quota edited with kubectl (drift), the manager's quota changed in the policy.
k --context worker2 patch clusterqueue worker-cluster-queue --type json \
  -p '[{"op": "replace", "path": "/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota", "value": "3"}]' >/dev/null ||
  fail "kubectl patch of worker2's quota"
sed -i 's/quota "tas-flavor" { cpu = 12/quota "tas-flavor" { cpu = 10/' "$P/policy.mkq"
mkq_run drift_plan plan "$P" --drift-only --detailed-exitcode
[ "$rc" = 2 ] || { show drift_plan; fail "plan --drift-only: exit $rc, expected 2"; }
grep -q "~ ClusterQueue worker-cluster-queue (drift" "$TMP/drift_plan.out" || { show drift_plan; fail "plan --drift-only does not show worker2's drift"; }
grep -q "ClusterQueue cluster-queue" "$TMP/drift_plan.out" && { show drift_plan; fail "plan --drift-only shows the policy's change"; }
grep -qx "# drift only (--drift-only): 1 change that is not drift left out" "$TMP/drift_plan.out" ||
  { show drift_plan; fail "plan --drift-only does not count what it left out"; }
mkq_run drift apply "$P" --drift-only --auto-approve
[ "$rc" = 0 ] || { show drift; fail "apply --drift-only: exit $rc"; }
[ "$(k --context worker2 get clusterqueue worker-cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 6 ] ||
  fail "apply --drift-only did not repair worker2's quota"
[ "$(k --context manager get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 12 ] ||
  fail "apply --drift-only applied the policy's own change"
mkq_run after_drift plan "$P" --drift-only --detailed-exitcode
[ "$rc" = 0 ] && grep -q "No drift." "$TMP/after_drift.out" || { show after_drift; fail "drift remains after apply --drift-only"; }
pass "--drift-only plans and repairs only the drift; the policy's change stays pending"
