#!/usr/bin/env bash
# End to end (issue 15.3, preflight): a policy enabling JobSet on a manager and
# two workers in the sandbox.
#   1. every cluster serves JobSets: plan is clean, with no Preflight section
#   2. the JobSet CRD deleted on w2: plan names w2 and jobsets.jobset.x-k8s.io
#      (text and --format json), exit 1; apply refuses and changes nothing
#   3. the CRD back: apply goes through
#   4. w1's ClusterQueue CRD edited to serve kueue.x-k8s.io/v1beta1 only: plan
#      says which version is served and which mkq writes, exit 1
#   5. w2's LocalQueue CRD converting through a webhook Service that does not
#      exist (kueue#18411): an error naming the CRD and the Service; the fix it
#      prints (conversion back to None) makes the plan clean again
# Usage: preflight_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: preflight_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup preflight

mkdir -p "$TMP/p"
P="$TMP/p"
cat >"$P/policy.mkq" <<'EOF2'
manager "manager" {}
worker "w1" { capacity "default-flavor" { cpu = 4 } }
worker "w2" { capacity "default-flavor" { cpu = 4 } }
flavor "default-flavor" {}
clusterqueue "cq" {
  namespaces = all
  quota "default-flavor" { cpu = 8 }
  localqueue "lq" in "default" {}
}
dispatch "mk" {
  queues = ["cq"]
  workers = ["w1", "w2"]
}
kueue { integrations = ["batch/job", "jobset.x-k8s.io/jobset"] }
EOF2
cat >"$TMP/jobset-crd.yaml" <<'EOF2'
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: jobsets.jobset.x-k8s.io
spec:
  group: jobset.x-k8s.io
  names: { kind: JobSet, listKind: JobSetList, plural: jobsets, singular: jobset }
  scope: Namespaced
  versions:
  - name: v1alpha2
    served: true
    storage: true
    schema:
      openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true }
EOF2

# --- 1. JobSet served everywhere: nothing to say
mkq_run start plan "$P"  # starts the sandbox with the policy's clusters
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { show start; fail "first plan: exit $rc"; }
for c in manager w1 w2; do k --context "$c" apply -f "$TMP/jobset-crd.yaml" >/dev/null || fail "install the JobSet CRD on $c"; done
mkq_run clean plan "$P"
[ "$rc" = 0 ] || { show clean; fail "plan with JobSet served everywhere: exit $rc"; }
grep -q "Preflight" "$TMP/clean.out" && { show clean; fail "a clean fleet has a Preflight section"; }
pass "JobSet served on every cluster: plan clean, no Preflight section"

# --- 2. no JobSet CRD on w2: plan names w2 and the CRD; apply refuses, changes nothing
k --context w2 delete crd jobsets.jobset.x-k8s.io >/dev/null || fail "delete the JobSet CRD on w2"
mkq_run nocrd plan "$P"
[ "$rc" = 1 ] || { show nocrd; fail "plan without JobSet on w2: exit $rc, expected 1"; }
grep -qF "Preflight found 1 error:" "$TMP/nocrd.out" || { show nocrd; fail "no Preflight section"; }
grep -qF "  error: w2: integration 'jobset.x-k8s.io/jobset' is enabled but CRD jobsets.jobset.x-k8s.io is not served" \
  "$TMP/nocrd.out" || { show nocrd; fail "the plan does not name w2 and the CRD"; }
grep -qF "      fix: install 'jobset.x-k8s.io/jobset' (CRD jobsets.jobset.x-k8s.io and its controller) on w2" \
  "$TMP/nocrd.out" || { show nocrd; fail "no fix"; }
pre=$(grep -n "Preflight found" "$TMP/nocrd.out" | cut -d: -f1)
act=$(grep -n "mkq will perform the following actions" "$TMP/nocrd.out" | cut -d: -f1)
[ -n "$pre" ] && [ -n "$act" ] && [ "$pre" -lt "$act" ] || { show nocrd; fail "the Preflight section is not before the changes"; }
grep -qF "mkq: error: preflight found 1 error; apply will refuse this plan until it is fixed:" "$TMP/nocrd.err" ||
  { show nocrd; fail "no error on stderr"; }
mkq_run json plan "$P" --format json
[ "$rc" = 1 ] || { show json; fail "plan --format json: exit $rc, expected 1"; }
/usr/bin/python3 - "$TMP/json.out" <<'EOF2' || { show json; fail "--format json: preflight not as typed data"; }
import json, sys
plan = json.load(open(sys.argv[1]))
findings = plan["preflight"]
assert len(findings) == 1, findings
f = findings[0]
assert (f["severity"], f["code"], f["cluster"]) == ("error", "integration-crd", "w2"), f
assert "jobsets.jobset.x-k8s.io" in f["missing"] and f["fix"], f
EOF2
mkq_run out plan "$P" --out "$TMP/saved.plan"
[ -e "$TMP/saved.plan" ] && { show out; fail "a plan with preflight errors was saved"; }
mkq_run refused apply "$P" --auto-approve
[ "$rc" = 1 ] || { show refused; fail "apply without JobSet on w2: exit $rc, expected 1"; }
grep -qF "mkq: error: preflight found 1 error; apply refuses this plan and nothing was changed:" "$TMP/refused.err" ||
  { show refused; fail "apply does not say why it refuses"; }
grep -qF "w2: integration 'jobset.x-k8s.io/jobset'" "$TMP/refused.err" || { show refused; fail "the refusal does not name w2"; }
for c in manager w1 w2; do
  [ -z "$(k --context "$c" get clusterqueues -o name 2>/dev/null)" ] || fail "apply refused but created a ClusterQueue on $c"
done
[ -z "$(k --context manager get multikueueclusters -o name 2>/dev/null)" ] || fail "apply refused but created a MultiKueueCluster"
pass "no JobSet CRD on w2: plan names w2 and the CRD (text, json), exit 1, no plan saved; apply refuses, nothing created"

# --- 3. the CRD back: apply goes through
k --context w2 apply -f "$TMP/jobset-crd.yaml" >/dev/null || fail "reinstall the JobSet CRD on w2"
mkq_run applied apply "$P" --auto-approve
[ "$rc" = 0 ] || { show applied; fail "apply with JobSet on every worker: exit $rc"; }
k --context w2 get clusterqueue cq >/dev/null 2>&1 || fail "apply did not create w2's ClusterQueue"
pass "JobSet back on w2: apply goes through"

# crd_copy CONTEXT NAME HOW: the CRD as JSON, ready to create again: HOW is
# "same", "v1beta1-only" (its version renamed) or "plus-v1beta1" (a v1beta1
# version served beside its own, as Kueue's CRDs do).
crd_copy() {
  k --context "$1" get crd "$2" -o json >"$TMP/crd.json" || fail "read $2 on $1"
  /usr/bin/python3 - "$TMP/crd.json" "$3" <<'EOF2' || fail "copy $2"
import copy, json, sys
crd = json.load(open(sys.argv[1]))
crd["metadata"] = {"name": crd["metadata"]["name"]}
crd.pop("status", None)
if sys.argv[2] == "v1beta1-only":
    for version in crd["spec"]["versions"]:
        version["name"] = "v1beta1"
elif sys.argv[2] == "plus-v1beta1":
    old = copy.deepcopy(crd["spec"]["versions"][0])
    old["name"], old["storage"] = "v1beta1", False
    crd["spec"]["versions"].append(old)
print(json.dumps(crd))
EOF2
}

# --- 4. w1 serves ClusterQueue only as v1beta1
crd_copy w1 clusterqueues.kueue.x-k8s.io v1beta1-only >"$TMP/cq-v1beta1.json"
crd_copy w1 clusterqueues.kueue.x-k8s.io same >"$TMP/cq-v1beta2.json"
k --context w1 delete crd clusterqueues.kueue.x-k8s.io >/dev/null || fail "delete w1's ClusterQueue CRD"
k --context w1 create -f "$TMP/cq-v1beta1.json" >/dev/null || fail "install the v1beta1-only ClusterQueue CRD on w1"
mkq_run v1beta1 plan "$P"
[ "$rc" = 1 ] || { show v1beta1; fail "plan with w1 serving v1beta1 only: exit $rc, expected 1"; }
grep -qF "  error: w1: Kueue serves ClusterQueue as kueue.x-k8s.io/v1beta1 but not as kueue.x-k8s.io/v1beta2, the version mkq writes (served from Kueue v0.15.0 on) [kueue-version]" \
  "$TMP/v1beta1.out" || { show v1beta1; fail "no clear error naming both versions"; }
grep -qF "fix: upgrade Kueue: kubectl --context w1 apply --server-side -f https://github.com/kubernetes-sigs/kueue/releases/download/" \
  "$TMP/v1beta1.out" || { show v1beta1; fail "no upgrade command"; }
k --context w1 delete crd clusterqueues.kueue.x-k8s.io >/dev/null || fail "delete the v1beta1 CRD"
k --context w1 create -f "$TMP/cq-v1beta2.json" >/dev/null || fail "restore w1's ClusterQueue CRD"
pass "a cluster serving ClusterQueue only as v1beta1: a clear error naming both versions and the upgrade"

# --- 5. a conversion webhook whose Service is gone: w2's LocalQueue CRD serving
# v1beta1 beside v1beta2, as Kueue's own do, and converting through a webhook
crd_copy w2 localqueues.kueue.x-k8s.io plus-v1beta1 >"$TMP/lq-two.json"
k --context w2 delete crd localqueues.kueue.x-k8s.io >/dev/null || fail "delete w2's LocalQueue CRD"
k --context w2 create -f "$TMP/lq-two.json" >/dev/null || fail "install the two-version LocalQueue CRD on w2"
k --context w2 patch crd localqueues.kueue.x-k8s.io --type=merge -p \
  '{"spec":{"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"service":{"namespace":"kueue-system","name":"kueue-webhook-service","path":"/convert"}}}}}}' \
  >/dev/null || fail "give w2's LocalQueue CRD a conversion webhook"
mkq_run webhook plan "$P"
[ "$rc" = 1 ] || { show webhook; fail "plan with a dangling conversion webhook: exit $rc, expected 1"; }
grep -qF "  error: w2: CRD localqueues.kueue.x-k8s.io converts between versions through Service kueue-system/kueue-webhook-service, which does not exist: reads and writes of those kinds fail (kueue#18411) [conversion-webhook]" \
  "$TMP/webhook.out" || { show webhook; fail "no error naming the CRD and the Service"; }
fix=$(sed -n 's/^      fix: .*gone for good: \(for crd in .*done\)$/\1/p' "$TMP/webhook.out")
[ -n "$fix" ] || { show webhook; fail "no pasteable fix"; }
(export KUBECONFIG="$SB/kubeconfig"; eval "$fix") >/dev/null || fail "the printed fix failed: $fix"
mkq_run fixed plan "$P"
[ "$rc" = 0 ] || { show fixed; fail "plan after the printed fix: exit $rc"; }
pass "a CRD converting through a missing Service: an error naming both; the printed fix clears it"
