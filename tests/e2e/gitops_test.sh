#!/usr/bin/env bash
# End to end (issue 17 item 3, GitOps): examples/tas applied by mkq (which
# issues the worker credentials), then
#   1. `render -o DIR` and `kubectl apply --server-side --force-conflicts -f`
#      of every file leaves every MultiKueueCluster Active (the credential
#      Secrets are not in DIR, so the real kubeconfigs stay);
#   2. the Argo CD health check (integrations/gitops/argocd/active-condition.lua,
#      run by Debian's lua5.1 as Argo CD's gopher-lua runs it) says Healthy for
#      every ClusterQueue, LocalQueue, AdmissionCheck and MultiKueueCluster read
#      from the sandbox, and Degraded for inactive ones made with kubectl (a
#      ClusterQueue without its flavor, a LocalQueue without its ClusterQueue, an
#      AdmissionCheck without its config) and for the MultiKueueClusters after
#      the placeholders of --include-credential-placeholders were applied (what
#      the default spares a GitOps sync); argocd-cm-health.yaml holds the same script;
#   3. the Flux health expressions (integrations/gitops/flux/health-check-exprs.yaml,
#      run by FLUX_HEALTH as kustomize-controller runs them, with the sandbox's
#      CEL evaluator) say Current where the Lua script says Healthy and Failed
#      where it says Degraded, on the same objects.
# Usage: gitops_test.sh MKQ FLUX_HEALTH [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped (no lua5.1).
set -u
MKQ=${1:?usage: gitops_test.sh MKQ FLUX_HEALTH [KUBECTL]}
FLUX_HEALTH=${2:?usage: gitops_test.sh MKQ FLUX_HEALTH [KUBECTL]}
KUBECTL=${3:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LUA=${LUA:-/usr/bin/lua5.1}
HEALTH="$ROOT/integrations/gitops/argocd/active-condition.lua"
FLUX_EXPRS="$ROOT/integrations/gitops/flux/health-check-exprs.yaml"

. "$(dirname "$0")/common.sh"
e2e_require_clients
if [ ! -x "$LUA" ]; then
  echo "SKIPPED: lua5.1 not found ($LUA; Debian: apt-get install lua5.1, or ./setup.sh --test-deps)"
  exit 77
fi
e2e_setup gitops

# health KIND...: "KIND NAMESPACE/NAME ARGO FLUX" for every object of those kinds
# on the manager (and, with CONTEXT set, on that cluster): ARGO as the Lua script
# judges it (Healthy, Degraded, Progressing), FLUX as the Flux expressions do
# (Current, Failed, InProgress, or Error: WHY).
health() {
  k --context "${CONTEXT:-manager}" get "$(IFS=,; echo "$*")" -A -o json >"$TMP/objects.json" || fail "kubectl get $*"
  "$FLUX_HEALTH" "$FLUX_EXPRS" "$TMP/objects.json" >"$TMP/flux.txt" || fail "mkq_flux_health on $*" >&2
  /usr/bin/python3 - "$TMP/objects.json" "$LUA" "$HEALTH" "$TMP/flux.txt" <<'PY'
import json, subprocess, sys
flux = {}  # "KIND NAMESPACE/NAME" -> the rest of mkq_flux_health's line
for line in open(sys.argv[4]):
    kind, name, verdict = line.rstrip("\n").split(" ", 2)
    flux[kind + " " + name] = verdict
def lua(value):
    if isinstance(value, bool): return "true" if value else "false"
    if value is None: return "nil"
    if isinstance(value, (int, float)): return repr(value)
    if isinstance(value, str): return json.dumps(value, ensure_ascii=False)  # \n \" \\ read the same in Lua
    if isinstance(value, list): return "{" + ",".join(lua(v) for v in value) + "}"
    return "{" + ",".join("[" + json.dumps(k) + "]=" + lua(v) for k, v in value.items()) + "}"
runner = "local hs = assert(loadfile(arg[1]))() print(hs.status)"
for o in json.load(open(sys.argv[1]))["items"]:
    m = o["metadata"]
    out = subprocess.run([sys.argv[2], "-e", "obj = " + lua(o), "-e", runner.replace("arg[1]", json.dumps(sys.argv[3]))],
                         capture_output=True, text=True)
    status = out.stdout.strip() if out.returncode == 0 else "LUA-ERROR " + out.stderr.strip()
    key = o["kind"] + " " + m.get("namespace", "") + "/" + m["name"]
    print(key, status, flux.get(key, "FLUX-NOT-JUDGED"))
PY
}

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"
mkq_run apply apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply; fail "apply of examples/tas"; }

# The script Argo CD reads is the one tested.
/usr/bin/python3 - "$ROOT/integrations/gitops/argocd/argocd-cm-health.yaml" "$HEALTH" <<'PY' || fail "argocd-cm-health.yaml differs from active-condition.lua"
import sys, yaml
data = yaml.safe_load(open(sys.argv[1]))["data"]
script = open(sys.argv[2]).read()
kinds = ["ClusterQueue", "LocalQueue", "AdmissionCheck", "MultiKueueCluster"]
assert sorted(data) == sorted("resource.customizations.health.kueue.x-k8s.io_" + k for k in kinds), sorted(data)
for key, value in data.items():
    assert value == script, key
PY

# 1. render -o, then kubectl apply --server-side of the directory.
# render() runs mkq render, which reads no cluster (mkq_run adds the sandbox's options).
render() { "$MKQ" render "$@" >"$TMP/render.out" 2>"$TMP/render.err"; rc=$?; }
render "$P" -o "$TMP/gitops"
[ "$rc" = 0 ] || { show render; fail "render -o"; }
for ctx in manager worker1 worker2; do
  k --context "$ctx" apply --server-side --force-conflicts -f "$TMP/gitops/$ctx.yaml" >"$TMP/kubectl-$ctx.out" 2>&1 ||
    { cat "$TMP/kubectl-$ctx.out"; fail "kubectl apply --server-side of $ctx.yaml"; }
done
sleep 2
mkq_run status status "$P" --wait=30s
[ "$rc" = 0 ] || { show status; fail "after kubectl apply of the rendered directory, not every object is Active"; }
health multikueueclusters >"$TMP/mkc.txt"
[ "$(grep -c ' Healthy Current$' "$TMP/mkc.txt")" = 2 ] || { cat "$TMP/mkc.txt"; fail "the MultiKueueClusters are not both Healthy (Argo CD) and Current (Flux)"; }
pass "render -o then kubectl apply --server-side --force-conflicts of every file: every MultiKueueCluster stays Active"

# 2. Healthy for every Active object of the four kinds.
health clusterqueues localqueues admissionchecks multikueueclusters >"$TMP/healthy.txt"
CONTEXT=worker1 health clusterqueues localqueues >>"$TMP/healthy.txt"
grep -v ' Healthy Current$' "$TMP/healthy.txt" && { cat "$TMP/healthy.txt"; fail "an Active object is not Healthy (Argo CD) and Current (Flux)"; }
for kind in ClusterQueue LocalQueue AdmissionCheck MultiKueueCluster; do
  grep -q "^$kind " "$TMP/healthy.txt" || { cat "$TMP/healthy.txt"; fail "no $kind was judged"; }
done
pass "the Argo CD health check and the Flux expressions: Healthy and Current for every Active ClusterQueue, LocalQueue, AdmissionCheck and MultiKueueCluster"

# Inactive ones, made with kubectl.
k --context manager apply -f - >/dev/null <<'YAML' || fail "kubectl apply of the inactive objects"
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: no-flavor}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: missing-flavor
      resources: [{name: cpu, nominalQuota: "1"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: no-cq, namespace: default}
spec: {clusterQueue: missing-cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: AdmissionCheck
metadata: {name: no-config}
spec:
  controllerName: kueue.x-k8s.io/multikueue
  parameters: {apiGroup: kueue.x-k8s.io, kind: MultiKueueConfig, name: missing-config}
YAML
sleep 2
health clusterqueues localqueues admissionchecks >"$TMP/inactive.txt"
for object in "ClusterQueue /no-flavor" "LocalQueue default/no-cq" "AdmissionCheck /no-config"; do
  grep -qx "$object Degraded Failed" "$TMP/inactive.txt" || { cat "$TMP/inactive.txt"; fail "$object is not Degraded (Argo CD) and Failed (Flux)"; }
done
pass "the Argo CD health check and the Flux expressions: Degraded and Failed for an inactive ClusterQueue, LocalQueue and AdmissionCheck"

# What the default spares: the placeholders, applied, disconnect the workers.
render "$P" -o "$TMP/gitops" --include-credential-placeholders
[ "$rc" = 0 ] || { show render; fail "render -o --include-credential-placeholders"; }
k --context manager apply --server-side --force-conflicts -f "$TMP/gitops/manager.yaml" >/dev/null 2>&1 ||
  fail "kubectl apply of the manager's file with placeholders"
for _ in $(seq 1 30); do
  health multikueueclusters >"$TMP/mkc.txt"
  [ "$(grep -c ' Degraded Failed$' "$TMP/mkc.txt")" = 2 ] && break
  sleep 1
done
[ "$(grep -c ' Degraded Failed$' "$TMP/mkc.txt")" = 2 ] || { cat "$TMP/mkc.txt"; fail "with the placeholders applied the MultiKueueClusters are not Degraded (Argo CD) and Failed (Flux)"; }
pass "the placeholders, applied, disconnect both workers: Degraded (Argo CD) and Failed (Flux) for their MultiKueueClusters"
