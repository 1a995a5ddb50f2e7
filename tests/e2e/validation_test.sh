#!/usr/bin/env bash
# End to end (issue 16 items 2-3): the sandbox validates like kube-apiserver.
# With Kueue's released CRDs, `kubectl apply` (client- and server-side) of a
# ClusterQueue with a borrowingLimit and no cohort is refused with the text of
# Kueue's CEL rule and nothing is stored; with a cohort it is created. A
# ConfigMap with a number in data is refused with the decoder's message. A
# CRD whose rule does not compile makes `mkq sandbox up` fail, naming the
# CRD, the rule's field path and the rule.
# Usage: validation_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: validation_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CRDS="$ROOT/../shared/kueue/crds"

if [ ! -d "$CRDS" ]; then
  echo "SKIPPED: $CRDS not found"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup validation

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager --crds "$CRDS" >"$TMP/up.log" 2>&1 ||
  { cat "$TMP/up.log"; fail "sandbox up --crds $CRDS"; }

cat >"$TMP/cq.yaml" <<'EOF2'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: cq
spec:
  resourceGroups:
  - coveredResources: ["cpu"]
    flavors:
    - name: default
      resources:
      - name: cpu
        nominalQuota: 4
        borrowingLimit: 2
EOF2
# Kueue's rule on ClusterQueue.spec (v1beta2): its message, at spec, as kube-apiserver reports a failed CEL rule
# (422 with one cause) and kubectl prints it.
want='The ClusterQueue "cq" is invalid: spec: Invalid value: "object": borrowingLimit must be nil when cohort is empty'
k --context manager apply -f "$TMP/cq.yaml" >"$TMP/apply.out" 2>"$TMP/apply.err" && fail "apply of a borrowingLimit without a cohort succeeded"
grep -qxF "$want" "$TMP/apply.err" ||
  { cat "$TMP/apply.err"; fail "kubectl apply: not kube-apiserver's message"; }
k --context manager apply --server-side -f "$TMP/cq.yaml" >"$TMP/ssa.out" 2>"$TMP/ssa.err" && fail "server-side apply succeeded"
grep -qF "$want" "$TMP/ssa.err" || { cat "$TMP/ssa.err"; fail "kubectl apply --server-side: not kube-apiserver's message"; }
k --context manager get clusterqueue cq >"$TMP/get.out" 2>"$TMP/get.err" && fail "the refused ClusterQueue was stored"
grep -qF 'clusterqueues.kueue.x-k8s.io "cq" not found' "$TMP/get.err" || { cat "$TMP/get.err"; fail "get after refusal"; }
pass "a borrowingLimit without a cohort is refused with Kueue's rule message, nothing stored"

sed -i 's/^spec:$/spec:\n  cohortName: team/' "$TMP/cq.yaml"
k --context manager apply -f "$TMP/cq.yaml" >"$TMP/apply2.out" 2>&1 || { cat "$TMP/apply2.out"; fail "apply with a cohort"; }
grep -qF 'clusterqueue.kueue.x-k8s.io/cq created' "$TMP/apply2.out" || { cat "$TMP/apply2.out"; fail "apply with a cohort: output"; }
k --context manager patch clusterqueue cq --type merge -p '{"spec":{"cohortName":null}}' >"$TMP/patch.out" 2>&1 &&
  fail "removing the cohort of a queue that borrows succeeded"
grep -qF "$want" "$TMP/patch.out" || { cat "$TMP/patch.out"; fail "kubectl patch: not kube-apiserver's message"; }
pass "with a cohort it is created; removing the cohort is refused"

cat >"$TMP/cm.yaml" <<'EOF2'
apiVersion: v1
kind: ConfigMap
metadata:
  name: numbers
  namespace: default
data:
  a: 1
EOF2
k --context manager apply -f "$TMP/cm.yaml" >"$TMP/cm.out" 2>"$TMP/cm.err" && fail "a ConfigMap with a number in data was stored"
grep -qF 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string' "$TMP/cm.err" ||
  { cat "$TMP/cm.err"; fail "ConfigMap data: not kube-apiserver's message"; }
pass "a number in a ConfigMap's data is refused with the decoder's message"

# A CRD whose rule does not compile: sandbox up fails and says which CRD, where and what.
mkdir -p "$TMP/bad"
/usr/bin/python3 - "$CRDS/kueue.x-k8s.io_multikueueconfigs.yaml" "$TMP/bad/mkc.json" <<'EOF2' || fail "write the broken CRD"
import json, sys, yaml
crd = yaml.safe_load(open(sys.argv[1]))
version = crd["spec"]["versions"][-1]
version["schema"]["openAPIV3Schema"]["properties"]["spec"]["x-kubernetes-validations"] = [
    {"rule": "self.clusters.all(c, c.startsWith('w', 1))", "message": "workers only"}]
json.dump(crd, open(sys.argv[2], "w"))
EOF2
last=$(( $(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["spec"]["versions"]))' "$TMP/bad/mkc.json") - 1 ))
timeout 60 "$MKQ" sandbox up --dir "$TMP/sb2" --clusters other --crds "$TMP/bad" >"$TMP/up2.out" 2>"$TMP/up2.err"
rc=$?
timeout 30 "$MKQ" sandbox down --dir "$TMP/sb2" >/dev/null 2>&1
[ "$rc" -ne 0 ] || { cat "$TMP/up2.out" "$TMP/up2.err"; fail "sandbox up with an uncompilable rule exited 0"; }
for text in "mkq: error: other: cannot create CRD multikueueconfigs.kueue.x-k8s.io" \
  "spec.versions[$last].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule" \
  "Rule:\"self.clusters.all(c, c.startsWith('w', 1))\"" \
  "compilation failed: ERROR: <input>:1:23: found no matching overload for 'startsWith' applied to 'string.(string, int)'"; do
  grep -qF "$text" "$TMP/up2.err" || { cat "$TMP/up2.err"; fail "sandbox up's error does not say: $text"; }
done
pass "a rule that does not compile is a start-up error naming the CRD, the field path and the rule"
