#!/usr/bin/env bash
# End to end (issue 11, identity and ownership): mkq touches only what is its own.
#   1. a namespace that existed before mkq (with a foreign ConfigMap) and a
#      ResourceFlavor made with kubectl are adopted; the namespace leaves the
#      policy: released (still there, with the ConfigMap, no longer labelled by mkq)
#   2. a namespace mkq created that holds a foreign ConfigMap is released, not deleted
#   3. destroy: the flavor is back as kubectl made it; an object marked
#      mkq.dev/prevent-destroy stays; what mkq created is gone
#   4. a copy of the policy (its .mkq files in another directory): its plan shows
#      the conflict "owned by policy p", apply refuses (exit 1, nothing changed),
#      --take-over takes the objects over
#   5. `mkq plan dir`, `mkq plan dir/policy.mkq` and `cd dir && mkq plan` agree:
#      one identity, one state, one sandbox (beside the policy, not the cwd)
#   6. a declared `policy "NAME" {}` labels the objects; declaring another name
#      later is refused with the way out
# Usage: ownership_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: ownership_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_cleanup() { timeout 30 "$MKQ" sandbox down --dir "$TMP/same/.mkq/sandbox" >/dev/null 2>&1; }
e2e_setup ownership
km() { k --context manager "$@"; }
# managers KIND NAME [NAMESPACE]: the field managers of an object, one per line.
managers() {
  km get "$1" "$2" ${3:+-n "$3"} -o json --show-managed-fields |
    /usr/bin/python3 -c 'import json, sys; [print(e["manager"]) for e in json.load(sys.stdin)["metadata"].get("managedFields", [])]'
}
adopted() {
  /usr/bin/python3 -c 'import sqlite3, sys
row = sqlite3.connect(sys.argv[1]).execute("SELECT adopted FROM inventory WHERE address = ?", (sys.argv[2],)).fetchone()
print(row[0] if row else "absent")' "$TMP/state.db" "$1"
}

P="$TMP/p"
mkdir -p "$P"
write_policy() {  # write_policy [EXTRA...]: the policy, plus extra declarations
  {
    echo 'manager "manager" {}'
    echo 'flavor "default-flavor" { node_labels = { "zone": "a" } }'
    echo 'clusterqueue "cq" {'
    echo '  namespaces = all'
    echo '  quota "default-flavor" { cpu = 1 }'
    echo '}'
    printf '%s\n' "$@"
  } >"$P/policy.mkq"
}
write_policy 'namespace "team-a" {}' 'localqueue "lq" in "team-a" { clusterqueue = "cq" }'
mkq_run start plan "$P"  # starts the sandbox
[ "$rc" = 0 ] || { show start; fail "first plan"; }

# 1. Adoption, and the release of a namespace that existed before mkq.
km create namespace team-a >/dev/null || fail "kubectl create namespace"
km -n team-a create configmap notes --from-literal=owner=team-a >/dev/null || fail "kubectl create configmap"
km create -f - >/dev/null <<'EOF' || fail "kubectl create resourceflavor"
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default-flavor
spec:
  nodeLabels:
    zone: b
EOF
mkq_run apply1 apply "$P" --auto-approve --force-conflicts
[ "$rc" = 0 ] || { show apply1; fail "first apply: exit $rc"; }
grep -q "~ Namespace team-a (exists, not yet managed by mkq)" "$TMP/apply1.out" || { show apply1; fail "team-a not adopted"; }
[ "$(km get namespace team-a -o jsonpath='{.metadata.labels.mkq\.dev/policy}')" = p ] || fail "team-a not labelled by mkq"
[ "$(adopted manager/Namespace/team-a)" = 1 ] || fail "team-a is not recorded as adopted"
[ "$(adopted manager/ResourceFlavor/default-flavor)" = 1 ] || fail "the flavor is not recorded as adopted"
[ "$(adopted manager/ClusterQueue/cq)" = 0 ] || fail "the ClusterQueue mkq created is recorded as adopted"
timeout 60 "$MKQ" state show manager/Namespace/team-a --state "$TMP/state.db" >"$TMP/show.out" 2>&1
grep -q "^adopted: *yes" "$TMP/show.out" || { cat "$TMP/show.out"; fail "state show does not say team-a is adopted"; }
[ "$(km get resourceflavor default-flavor -o jsonpath='{.spec.nodeLabels.zone}')" = a ] || fail "the flavor was not applied"

write_policy
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply without team-a: exit $rc"; }
grep -q "\. Namespace team-a (released: existed before mkq)" "$TMP/apply2.out" || { show apply2; fail "team-a not released"; }
grep -q -- "- LocalQueue team-a/lq (no longer in the policy)" "$TMP/apply2.out" || { show apply2; fail "lq not deleted"; }
grep -q "1 to release" "$TMP/apply2.out" || { show apply2; fail "the summary does not count the release"; }
km get namespace team-a >/dev/null 2>&1 || fail "team-a was deleted"
[ "$(km -n team-a get configmap notes -o jsonpath='{.data.owner}')" = team-a ] || fail "the foreign ConfigMap is gone"
km get namespace team-a -o jsonpath='{.metadata.labels}' | grep -q "mkq" && fail "team-a is still labelled by mkq"
managers namespace team-a | grep -qx mkq && fail "mkq still owns fields of team-a"
[ "$(adopted manager/Namespace/team-a)" = absent ] || fail "team-a is still in the inventory"
km -n team-a get localqueue lq >/dev/null 2>&1 && fail "mkq's LocalQueue in team-a was not deleted"
pass "a namespace that existed before mkq is released with its ConfigMap, no longer labelled by mkq"

# 2. A namespace mkq created, holding something mkq does not manage: released, not deleted.
write_policy 'namespace "team-b" {}'
mkq_run apply3 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply3; fail "apply with team-b: exit $rc"; }
km -n team-b create configmap notes --from-literal=owner=team-b >/dev/null || fail "kubectl create configmap in team-b"
write_policy
mkq_run plan4 plan "$P"
grep -q "\. Namespace team-b (released: holds ConfigMap team-b/notes, not managed by mkq)" "$TMP/plan4.out" ||
  { show plan4; fail "the plan does not release team-b naming its ConfigMap"; }
mkq_run apply4 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply4; fail "apply without team-b: exit $rc"; }
[ "$(km -n team-b get configmap notes -o jsonpath='{.data.owner}')" = team-b ] || fail "team-b or its ConfigMap is gone"
pass "a namespace holding objects mkq does not manage is never deleted"

# 3. Destroy: the adopted flavor as kubectl made it; prevent-destroy keeps the ClusterQueue.
km annotate clusterqueue cq mkq.dev/prevent-destroy=true >/dev/null || fail "kubectl annotate"
mkq_run destroy destroy "$P" --auto-approve
[ "$rc" = 0 ] || { show destroy; fail "destroy: exit $rc"; }
grep -q "\. ClusterQueue cq (released: marked mkq.dev/prevent-destroy)" "$TMP/destroy.out" ||
  { show destroy; fail "destroy does not release the protected ClusterQueue"; }
[ "$(km get resourceflavor default-flavor -o jsonpath='{.spec.nodeLabels.zone}')" = b ] ||
  fail "the flavor does not hold what kubectl made after destroy"
km get resourceflavor default-flavor -o jsonpath='{.metadata.labels}' | grep -q "mkq" && fail "the flavor keeps mkq's labels"
managers resourceflavor default-flavor | grep -qx mkq && fail "mkq still owns fields of the flavor"
km get clusterqueue cq >/dev/null 2>&1 || fail "destroy deleted the ClusterQueue marked prevent-destroy"
timeout 60 "$MKQ" state list --state "$TMP/state.db" >"$TMP/state.out" 2>&1
grep -q "no objects" "$TMP/state.out" || { cat "$TMP/state.out"; fail "the inventory is not empty after destroy"; }
pass "destroy gives back what existed before mkq and keeps what is marked prevent-destroy"

# 4. A copy of the policy in another directory: another identity, a conflict.
km annotate clusterqueue cq mkq.dev/prevent-destroy- >/dev/null || fail "kubectl annotate -"
mkq_run apply5 apply "$P" --auto-approve --force-conflicts
[ "$rc" = 0 ] || { show apply5; fail "apply again: exit $rc"; }
mkdir -p "$TMP/copy"
cp "$P"/*.mkq "$TMP/copy/"
# copy NAME ARGS...: mkq ARGS against the test's sandbox, with the copy's own (default) state.
copy() {
  local name=$1
  shift
  timeout 120 "$MKQ" "$@" --sandbox-dir "$SB" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
copy copy-plan plan "$TMP/copy"
[ "$rc" = 0 ] || { show copy-plan; fail "plan of the copy: exit $rc"; }
grep -q "~ ClusterQueue cq (owned by policy p)" "$TMP/copy-plan.out" || { show copy-plan; fail "no conflict in the copy's plan"; }
grep -q "apply refuses this plan" "$TMP/copy-plan.out" || { show copy-plan; fail "the plan does not say apply refuses it"; }
rv=$(km get clusterqueue cq -o jsonpath='{.metadata.resourceVersion}')
copy copy-apply apply "$TMP/copy" --auto-approve
[ "$rc" = 1 ] || { show copy-apply; fail "apply of the copy: exit $rc, expected 1"; }
grep -q "manager/ClusterQueue/cq: owned by policy p" "$TMP/copy-apply.err" || { show copy-apply; fail "the refusal names no object"; }
[ "$(km get clusterqueue cq -o jsonpath='{.metadata.resourceVersion}')" = "$rv" ] || fail "the refused apply changed cq"
copy copy-take apply "$TMP/copy" --auto-approve --take-over
[ "$rc" = 0 ] || { show copy-take; fail "apply --take-over: exit $rc"; }
grep -q "(owned by policy p: taken over)" "$TMP/copy-take.out" || { show copy-take; fail "the plan does not say taken over"; }
[ "$(km get clusterqueue cq -o jsonpath='{.metadata.labels.mkq\.dev/policy}')" = copy ] || fail "cq was not taken over"
[ -f "$TMP/copy/.mkq/state.db" ] || fail "the copy has no state of its own beside it"
pass "a copied policy conflicts with the original; apply refuses; --take-over takes over"

# 5. Three ways to name one policy, from two working directories: one identity, state and sandbox.
mkdir -p "$TMP/same" "$TMP/elsewhere"
cp "$P/policy.mkq" "$TMP/same/policy.mkq"
cd "$TMP/elsewhere" || fail "cd"
timeout 120 "$MKQ" apply "$TMP/same" --auto-approve >"$TMP/same-apply.out" 2>"$TMP/same-apply.err" ||
  { show same-apply; fail "apply of same"; }
timeout 60 "$MKQ" plan "$TMP/same" >"$TMP/same1.out" 2>"$TMP/same1.err" || { show same1; fail "plan dir"; }
timeout 60 "$MKQ" plan "$TMP/same/policy.mkq" >"$TMP/same2.out" 2>"$TMP/same2.err" || { show same2; fail "plan dir/policy.mkq"; }
(cd "$TMP/same" && timeout 60 "$MKQ" plan >"$TMP/same3.out" 2>"$TMP/same3.err") || { show same3; fail "cd dir && plan"; }
grep -q "No changes" "$TMP/same1.out" || { show same1; fail "plan after apply is not clean"; }
cmp -s "$TMP/same1.out" "$TMP/same2.out" && cmp -s "$TMP/same1.out" "$TMP/same3.out" ||
  { show same1; show same2; show same3; fail "the three plans differ"; }
[ -f "$TMP/same/.mkq/state.db" ] && [ -f "$TMP/same/.mkq/sandbox/kubeconfig" ] || fail "state or sandbox not beside the policy"
[ ! -e "$TMP/elsewhere/.mkq" ] || fail "mkq made .mkq in the working directory"
[ -z "$(ls "$TMP/same/.mkq" | grep -v -e '^sandbox$' -e '^state\.db')" ] || { ls -la "$TMP/same/.mkq"; fail "another state or sandbox"; }
ks() { timeout 60 "$KUBECTL" --kubeconfig "$TMP/same/.mkq/sandbox/kubeconfig" --context manager "$@"; }
[ "$(ks get clusterqueue cq -o jsonpath='{.metadata.labels.mkq\.dev/policy}')" = same ] || fail "same's objects are not labelled same"
pass "mkq plan dir, dir/policy.mkq and cd dir && mkq plan agree: one state, one sandbox beside the policy"

# 6. A declared identity labels the objects; another declaration later is refused.
timeout 120 "$MKQ" destroy "$TMP/same" --auto-approve >"$TMP/same-destroy.out" 2>&1 || { cat "$TMP/same-destroy.out"; fail "destroy same"; }
rm -f "$TMP/same/.mkq/state.db"*
printf 'policy "fleet-x" {}\n' >>"$TMP/same/policy.mkq"
timeout 120 "$MKQ" apply "$TMP/same" --auto-approve >"$TMP/declared.out" 2>"$TMP/declared.err" || { show declared; fail "apply declared"; }
[ "$(ks get clusterqueue cq -o jsonpath='{.metadata.labels.mkq\.dev/policy}')" = fleet-x ] || fail "the declared identity is not the label"
sed -i 's/fleet-x/fleet-y/' "$TMP/same/policy.mkq"
timeout 60 "$MKQ" plan "$TMP/same" >"$TMP/renamed.out" 2>"$TMP/renamed.err"
rc=$?
[ "$rc" = 1 ] || { show renamed; fail "a renamed policy: exit $rc, expected 1"; }
grep -q "belongs to policy 'fleet-x', this policy declares 'fleet-y'" "$TMP/renamed.err" || { show renamed; fail "no rename error"; }
pass "a declared identity labels every object; a rename is refused"
