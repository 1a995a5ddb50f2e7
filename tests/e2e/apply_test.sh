#!/usr/bin/env bash
# End to end (issue 5's acceptance): mkq plan/apply/destroy against the sandbox.
#   1. apply examples/quickstart with no kubeconfig anywhere (the sandbox is the
#      default): every object on the right cluster; `plan --detailed-exitcode` 0
#   2. a quota change shows exactly that field; apply; clean again
#   3. an object edited with kubectl shows as drift; apply restores it
#   4. a second queue added, then removed: deleted on the manager and the worker
#   5. a LocalQueue moved to another ClusterQueue: a replace; apply succeeds
#   6. a saved plan made stale by a kubectl edit is refused, naming the object
#   7. two applies at once: the second fails at once naming the holder
#   8. kill -9 in the middle of an apply; apply again converges; integrity ok
#   9. sandbox faults (10% 500s, 5% 429s, 50 ms latency): apply of examples/tas converges
#  10. no credential value in the state file, plans, logs or JSON output
#  11. destroy removes everything mkq applied
# Usage: apply_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: apply_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)


. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_cleanup() {
  [ -n "${BG:-}" ] && kill -9 "$BG" 2>/dev/null
  timeout 30 "$MKQ" sandbox down --dir "$TMP/sb2" >/dev/null 2>&1
}
e2e_setup apply
km() { k --context manager-cluster "$@"; }
kw() { k --context multikueue-test-worker1 "$@"; }

mkdir -p "$TMP/policy"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"

# 1. First apply: no kubeconfig, so the sandbox (started with the policy's clusters).
mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "first apply exited $rc"; }
[ "$(head -1 "$TMP/apply1.err")" = "mkq: target: the sandbox at sb (no --kubeconfig, KUBECONFIG or ~/.kube/config)" ] ||
  { show apply1; fail "apply's first line does not say it uses the sandbox"; }
grep -q "Apply complete! Resources: 13 added, 0 changed, 0 destroyed." "$TMP/apply1.out" ||
  { show apply1; fail "first apply: expected 13 added"; }
for o in clusterqueue/cluster-queue resourceflavor/default-flavor multikueuecluster/multikueue-test-worker1 \
  multikueueconfig/multikueue-test admissioncheck/sample-multikueue; do
  km get "$o" >/dev/null 2>&1 || fail "manager has no $o"
done
km -n default get localqueue user-queue >/dev/null 2>&1 || fail "manager has no localqueue default/user-queue"
km -n kueue-system get secret worker1-secret >/dev/null 2>&1 || fail "manager has no secret worker1-secret"
for o in clusterqueue/cluster-queue resourceflavor/default-flavor clusterrole/multikueue-sa-role \
  clusterrolebinding/multikueue-sa-crb; do
  kw get "$o" >/dev/null 2>&1 || fail "worker has no $o"
done
kw -n kueue-system get serviceaccount multikueue-sa >/dev/null 2>&1 || fail "worker has no serviceaccount multikueue-sa"
kw get multikueuecluster multikueue-test-worker1 >/dev/null 2>&1 && fail "the worker holds a MultiKueueCluster"
mc=$(km get multikueuecluster multikueue-test-worker1 -o jsonpath='{.status.conditions[?(@.type == "Active")].status} {.status.conditions[?(@.type == "Active")].message}')
[ "$mc" = "True Connected" ] || fail "the MultiKueueCluster is not Connected with mkq's credential: '$mc'"
pass "apply of examples/quickstart: every object on its cluster, MultiKueueCluster Connected"

mkq_run plan1 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan1; fail "plan after apply: exit $rc, expected 0"; }
grep -q "No changes" "$TMP/plan1.out" || { show plan1; fail "plan after apply does not say No changes"; }
pass "plan after apply: no changes, exit 0"

# 2. A quota change: exactly that field.
sed -i '/^clusterqueue/,/^}/ s/quota "default-flavor" { cpu = 9, memory = 36Gi }/quota "default-flavor" { cpu = 12, memory = 36Gi }/' "$P/policy.mkq"
grep -q "cpu = 12" "$P/policy.mkq" || fail "test setup: the quota edit did not apply"
mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan2; fail "plan after a quota change: exit $rc, expected 2"; }
grep -q "Plan: 0 to add, 1 to change, 0 to destroy." "$TMP/plan2.out" || { show plan2; fail "quota change: expected 1 to change"; }
[ "$(grep -c '^ *~ ' "$TMP/plan2.out")" = 2 ] || { show plan2; fail "quota change: expected one object and one field line"; }
grep -Eq 'nominalQuota: "?9"? -> "?12"?$' "$TMP/plan2.out" || { show plan2; fail "quota change: the field line"; }
mkq_run noconfirm apply "$P" </dev/null
[ "$rc" = 1 ] && grep -q "no terminal to ask on: run it with --auto-approve" "$TMP/noconfirm.err" ||
  { show noconfirm; fail "apply without a terminal and without --auto-approve did not stop with a clear error"; }
[ "$(km get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 9 ] ||
  fail "apply without confirmation changed the quota"
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply of the quota change"; }
mkq_run plan3 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan3; fail "plan after the quota apply: exit $rc"; }
pass "quota change: the plan shows exactly that field; apply; clean again"

# 3. Drift: kubectl changes a quota mkq set on the worker's queue (a field mkq owns).
kw patch clusterqueue cluster-queue --type json \
  -p '[{"op":"replace","path":"/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota","value":"5"}]' >/dev/null ||
  fail "kubectl patch (drift)"
mkq_run plan4 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan4; fail "plan after drift: exit $rc, expected 2"; }
grep -q "drift" "$TMP/plan4.out" || { show plan4; fail "the plan does not say drift"; }
grep -q "nominalQuota" "$TMP/plan4.out" || { show plan4; fail "the drift plan does not name the field"; }
mkq_run apply4 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply4; fail "apply after drift"; }
[ "$(kw get clusterqueue cluster-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" = 9 ] ||
  fail "apply did not restore the worker's quota"
# A field mkq does not set, changed by someone else, is not drift.
kw patch clusterqueue cluster-queue --type merge -p '{"spec":{"stopPolicy":"None"}}' >/dev/null || fail "kubectl patch stopPolicy"
mkq_run plan5 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan5; fail "a field mkq does not set shows as a change"; }
pass "drift shown and repaired"

# 4. A second queue, then removed.
cat >>"$P/policy.mkq" <<'EOF'

clusterqueue "extra-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 1, memory = 1Gi }
}
EOF
sed -i 's/queues = \["cluster-queue"\]/queues = ["cluster-queue", "extra-queue"]/' "$P/policy.mkq"
mkq_run apply5 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply5; fail "apply with extra-queue"; }
km get clusterqueue extra-queue >/dev/null 2>&1 || fail "extra-queue not on the manager"
kw get clusterqueue extra-queue >/dev/null 2>&1 || fail "extra-queue not on the worker"
/usr/bin/python3 - "$P/policy.mkq" <<'EOF' || fail "test setup: remove extra-queue"
import re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r'\nclusterqueue "extra-queue" \{.*?\n\}\n', '\n', text, flags=re.S)
text = text.replace('queues = ["cluster-queue", "extra-queue"]', 'queues = ["cluster-queue"]')
open(path, "w").write(text)
EOF
mkq_run plan6 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan6; fail "plan after removing a queue: exit $rc"; }
# The worker's cluster-queue changes too: it had shared the worker's capacity with extra-queue.
grep -q "Plan: 0 to add, 1 to change, 2 to destroy." "$TMP/plan6.out" || { show plan6; fail "removing a queue: expected 2 to destroy, 1 to change"; }
mkq_run apply6 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply6; fail "apply removing extra-queue"; }
km get clusterqueue extra-queue >/dev/null 2>&1 && fail "extra-queue still on the manager"
kw get clusterqueue extra-queue >/dev/null 2>&1 && fail "extra-queue still on the worker"
pass "a removed queue is deleted on the manager and the worker"

# 5. Move the LocalQueue to another ClusterQueue: a replace.
cat >>"$P/policy.mkq" <<'EOF'

clusterqueue "other-queue" {
  namespaces = all
  quota "default-flavor" { cpu = 1, memory = 1Gi }
}
EOF
sed -i 's/queues = \["cluster-queue"\]/queues = ["cluster-queue", "other-queue"]/' "$P/policy.mkq"
mkq_run apply7 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply7; fail "apply with other-queue"; }
/usr/bin/python3 - "$P/policy.mkq" <<'EOF' || fail "test setup: move user-queue"
import sys
path = sys.argv[1]
text = open(path).read()
text = text.replace('\n  localqueue "user-queue" in "default" {}\n', '\n')
text = text.replace('clusterqueue "other-queue" {\n  namespaces = all\n',
                    'clusterqueue "other-queue" {\n  namespaces = all\n\n  localqueue "user-queue" in "default" {}\n')
open(path, "w").write(text)
EOF
mkq_run plan8 plan "$P"
[ "$rc" = 0 ] || { show plan8; fail "plan of the move: exit $rc"; }
grep -q -- "-/+ LocalQueue default/user-queue" "$TMP/plan8.out" || { show plan8; fail "moving a LocalQueue is not a replace"; }
grep -q "spec.clusterQueue" "$TMP/plan8.out" || { show plan8; fail "the replace does not name spec.clusterQueue"; }
mkq_run apply8 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply8; fail "apply of the move"; }
[ "$(km -n default get localqueue user-queue -o jsonpath='{.spec.clusterQueue}')" = other-queue ] ||
  fail "user-queue on the manager is not on other-queue"
[ "$(kw -n default get localqueue user-queue -o jsonpath='{.spec.clusterQueue}')" = other-queue ] ||
  fail "user-queue on the worker is not on other-queue"
pass "a moved LocalQueue is replaced"

# 6. A saved plan made stale by a kubectl edit.
sed -i 's/quota "default-flavor" { cpu = 1, memory = 1Gi }/quota "default-flavor" { cpu = 2, memory = 1Gi }/' "$P/policy.mkq"
(umask 000 && mkq_run plan9 plan "$P" --out "$TMP/saved.plan" && echo "$rc" >"$TMP/plan9.rc")
rc=$(cat "$TMP/plan9.rc")
[ "$rc" = 0 ] && [ -s "$TMP/saved.plan" ] || { show plan9; fail "plan --out"; }
# A saved plan holds the policy's documents: owner-only whatever the umask.
[ "$(stat -c %a "$TMP/saved.plan")" = 600 ] || fail "plan --out under umask 000 wrote mode $(stat -c %a "$TMP/saved.plan")"
km label clusterqueue other-queue edited-by=kubectl >/dev/null || fail "kubectl label"
mkq_run apply9 apply "$TMP/saved.plan" --auto-approve
[ "$rc" = 1 ] || { show apply9; fail "a stale saved plan was not refused (exit $rc)"; }
grep -q "stale" "$TMP/apply9.err" && grep -q "ClusterQueue/other-queue" "$TMP/apply9.err" ||
  { show apply9; fail "the refusal does not name the changed object"; }
mkq_run plan10 plan "$P" --out "$TMP/saved.plan"
# A saved plan is applied only as checked: a quota edited in it, or a change added to it (a
# ClusterRoleBinding of cluster-admin to system:unauthenticated), is refused, nothing changed.
/usr/bin/python3 - "$TMP/saved.plan" "$TMP/tampered-quota.plan" "$TMP/tampered-crb.plan" <<'EOF2' || fail "tamper with the saved plan"
import copy, json, sys
plan = json.load(open(sys.argv[1]))
quota = copy.deepcopy(plan)
edited = False
for cluster in quota["clusters"]:
    for change in cluster["changes"]:
        if change["kind"] == "ClusterQueue" and change["action"] == "update":
            for flavor in change["desired"]["spec"]["resourceGroups"][0]["flavors"]:
                for resource in flavor["resources"]:
                    if resource["name"] == "cpu":
                        resource["nominalQuota"] = "1000"
                        edited = True
assert edited, "no ClusterQueue update in the saved plan"
json.dump(quota, open(sys.argv[2], "w"))
crb = copy.deepcopy(plan)
worker = [c for c in crb["clusters"] if c["role"] == "worker"][0]
worker["changes"].append({
    "address": worker["name"] + "/ClusterRoleBinding/open-door", "api_version": "rbac.authorization.k8s.io/v1",
    "kind": "ClusterRoleBinding", "namespace": "", "name": "open-door", "action": "create",
    "reason": "not on the cluster", "fields": [],
    "desired": {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                "metadata": {"name": "open-door"},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"},
                "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group",
                              "name": "system:unauthenticated"}]},
    "sensitive": False, "credential": False, "credential_error": "", "depends_on": []})
json.dump(crb, open(sys.argv[3], "w"))
EOF2
for tampered in tampered-quota tampered-crb; do
  mkq_run "$tampered" apply "$TMP/$tampered.plan" --auto-approve
  [ "$rc" = 1 ] || { show "$tampered"; fail "$tampered: a tampered saved plan was applied (exit $rc)"; }
  grep -q "is not what the policy plans; nothing was changed" "$TMP/$tampered.err" ||
    { show "$tampered"; fail "$tampered: the refusal does not say why"; }
done
grep -q "ClusterQueue/other-queue: its desired differs" "$TMP/tampered-quota.err" ||
  { show tampered-quota; fail "the refusal does not name the edited ClusterQueue"; }
grep -q "ClusterRoleBinding/open-door: not part of what the policy plans now" "$TMP/tampered-crb.err" ||
  { show tampered-crb; fail "the refusal does not name the added ClusterRoleBinding"; }
kw get clusterrolebinding open-door >/dev/null 2>&1 && fail "the tampered ClusterRoleBinding was created"
[ "$(km get clusterqueue other-queue -o jsonpath='{.spec.resourceGroups[0].flavors[0].resources[0].nominalQuota}')" != 1000 ] ||
  fail "the tampered quota was applied"
pass "a tampered saved plan (an edited quota, an added ClusterRoleBinding) is refused, nothing changed"
# A saved plan applies without asking (no --auto-approve, no terminal on stdin).
mkq_run apply10 apply "$TMP/saved.plan" </dev/null
[ "$rc" = 0 ] || { show apply10; fail "a fresh saved plan was not applied without --auto-approve"; }
grep -q "confirmation" "$TMP/apply10.err" && { show apply10; fail "applying a saved plan asked for confirmation"; }
pass "a stale saved plan is refused; a fresh one applies without a prompt"

# 7. Two applies at once. The first is slowed down by a low --qps.
sed -i 's/cpu = 2, memory = 1Gi/cpu = 3, memory = 1Gi/' "$P/policy.mkq"
timeout 300 "$MKQ" destroy "$P" --auto-approve --sandbox-dir "$SB" --state "$TMP/state.db" >"$TMP/destroy0.out" 2>&1 ||
  { cat "$TMP/destroy0.out"; fail "destroy before the lock test"; }
timeout 300 "$MKQ" apply "$P" --auto-approve --qps 2 --burst 1 --sandbox-dir "$SB" --state "$TMP/state.db" \
  >"$TMP/slow.out" 2>&1 &
BG=$!
# Until its first object is created (its run has begun): at 2 requests/s the
# refresh and preflight before it take several seconds.
for _ in $(seq 600); do
  grep -q "created" "$TMP/slow.out" 2>/dev/null && break
  sleep 0.1
done
grep -q "created" "$TMP/slow.out" || { cat "$TMP/slow.out"; fail "the slow apply created nothing within 60 s"; }
start=$(date +%s%N)
mkq_run apply11 apply "$P" --auto-approve
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 1 ] || { show apply11; fail "a second apply while one runs: exit $rc"; }
holder=$(sed -n 's/.*is locked: apply by .* (pid \([0-9]*\)).*/\1/p' "$TMP/apply11.err")
[ -n "$holder" ] && [ "$(ps -o ppid= -p "$holder" | tr -d ' ')" = "$BG" ] ||
  { show apply11; fail "the second apply does not name the holder (the running mkq apply)"; }
[ "$elapsed_ms" -lt 5000 ] || fail "the second apply took ${elapsed_ms} ms to fail"
pass "a second apply fails at once naming the holder (${elapsed_ms} ms)"

# 8. kill -9 in the middle of that apply; then apply again.
kill -9 "$holder" 2>/dev/null
wait "$BG" 2>/dev/null
BG=
/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' \
  "$TMP/state.db" >"$TMP/integrity.txt" 2>&1
[ "$(cat "$TMP/integrity.txt")" = ok ] || fail "integrity_check after kill -9: $(cat "$TMP/integrity.txt")"
mkq_run apply12 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply12; fail "apply after kill -9"; }
grep -q "stale lock" "$TMP/apply12.err" || { show apply12; fail "apply after kill -9 did not report the dead holder's lock"; }
mkq_run plan12 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan12; fail "plan after the recovery apply: exit $rc"; }
timeout 60 "$MKQ" history --state "$TMP/state.db" >"$TMP/history.out" 2>"$TMP/history.err"
grep -q "interrupted" "$TMP/history.out" || { show history; fail "history does not show the killed run as interrupted"; }
timeout 60 "$MKQ" state show multikueue-test-worker1/ClusterQueue/cluster-queue --state "$TMP/state.db" \
  >"$TMP/show.out" 2>"$TMP/show.err" || { show show; fail "state show"; }
grep -q "sha256:" "$TMP/show.out" || { show show; fail "state show prints no digest"; }
timeout 60 "$MKQ" state show manager-cluster/ClusterQueue/no-such-queue --state "$TMP/state.db" \
  >"$TMP/show2.out" 2>"$TMP/show2.err" && fail "state show of an unknown address exited 0"
grep -q "no-such-queue" "$TMP/show2.err" || { show show2; fail "state show of an unknown address: no message"; }
pass "kill -9 mid-apply: integrity ok, the next apply converges, history says interrupted"

# 9. Faults: a second sandbox for examples/tas with 10% 500s, 5% 429s, 50 ms latency.
mkdir -p "$TMP/tas"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/tas/policy.mkq"
tas_clusters=$(timeout 60 "$MKQ" render "$TMP/tas" | sed -n 's/^# cluster: \([^ ]*\) .*/\1/p' | awk '!seen[$0]++' | paste -sd, -)
timeout 60 "$MKQ" sandbox up --dir "$TMP/sb2" --clusters "$tas_clusters" --fault-500-rate 0.1 --fault-429-rate 0.05 \
  --fault-latency-ms 50 >"$TMP/up2.log" 2>&1 || { cat "$TMP/up2.log"; fail "sandbox up with faults"; }
timeout 300 "$MKQ" apply "$TMP/tas" --auto-approve --sandbox --sandbox-dir "$TMP/sb2" --state "$TMP/tas.db" \
  >"$TMP/tas.out" 2>&1 || { cat "$TMP/tas.out"; fail "apply of examples/tas under faults"; }
timeout 300 "$MKQ" plan "$TMP/tas" --detailed-exitcode --sandbox --sandbox-dir "$TMP/sb2" --state "$TMP/tas.db" \
  >"$TMP/tas-plan.out" 2>&1 || { cat "$TMP/tas-plan.out"; fail "plan of examples/tas after apply under faults"; }
k2() { timeout 60 "$KUBECTL" --kubeconfig "$TMP/sb2/kubeconfig" --cache-dir "$TMP/cache" "$@"; }
manager=${tas_clusters%%,*}
# kubectl meets the injected faults too: a few tries.
found=
for _ in 1 2 3 4 5 6 7 8; do
  k2 --context "$manager" get topology default >/dev/null 2>&1 && { found=1; break; }
done
[ -n "$found" ] || fail "tas: no Topology on the manager"
pass "examples/tas converges under 10% 500s, 5% 429s and 50 ms latency; next plan clean"

# 10. No credential value anywhere mkq wrote.
km -n kueue-system get secret worker1-secret -o jsonpath='{.data.kubeconfig}' | base64 -d >"$TMP/secret-kubeconfig" ||
  fail "read worker1-secret"
token=$(sed -n 's/^ *token: *//p' "$TMP/secret-kubeconfig" | tr -d '"' | head -1)
[ ${#token} -gt 20 ] || fail "worker1-secret holds no token"
mkq_run json plan "$P" --format json
for f in "$TMP/state.db" "$TMP/state.db-wal" "$TMP"/*.out "$TMP"/*.err "$TMP/saved.plan" "$SB/sandbox.log"; do
  [ -f "$f" ] || continue
  if grep -qF "$token" "$f"; then fail "the token appears in $(basename "$f")"; fi
  if grep -qF "client-key-data" "$f"; then fail "a client key appears in $(basename "$f")"; fi
done
rm -f "$TMP/secret-kubeconfig"
pass "no token in the state, plans, logs or JSON output"

# 11. Destroy.
mkq_run destroy destroy "$P" --auto-approve
[ "$rc" = 0 ] || { show destroy; fail "destroy"; }
km get clusterqueue cluster-queue >/dev/null 2>&1 && fail "destroy left cluster-queue on the manager"
kw get clusterqueue cluster-queue >/dev/null 2>&1 && fail "destroy left cluster-queue on the worker"
timeout 60 "$MKQ" state list --state "$TMP/state.db" >"$TMP/state.out" 2>"$TMP/state.err"
grep -q "no objects" "$TMP/state.out" || { show state; fail "the inventory is not empty after destroy"; }
timeout 60 "$MKQ" state unlock --state "$TMP/state.db" >"$TMP/unlock.out" 2>"$TMP/unlock.err" || { show unlock; fail "state unlock"; }
grep -q "no lock" "$TMP/unlock.out" "$TMP/unlock.err" || { show unlock; fail "state unlock without a lock says nothing"; }
pass "destroy removes everything"
exit 0
