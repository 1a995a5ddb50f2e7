#!/usr/bin/env bash
# End to end: the MultiKueue tutorial ("Setup a MultiKueue environment") on the
# sandbox. `mkq sandbox up` (manager, worker1, mkq's built-in Kueue CRDs), render
# examples/quickstart, apply each file to its cluster, write the worker1 kubeconfig
# Secret on the manager, then the tutorial's three jsonpath checks must print the
# tutorial's three lines; a wrong port in the Secret must turn the
# MultiKueueCluster Active=False with reason ClientConnectionFailed.
# Usage: tutorial_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: tutorial_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -x "$KUBECTL" ]; then
  echo "SKIPPED: kubectl not found ($KUBECTL)"
  exit 77
fi
if [ ! -x /usr/bin/python3 ]; then
  echo "SKIPPED: /usr/bin/python3 not found"
  exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mkq-e2e-tutorial.XXXXXX")
cleanup() {
  timeout 30 "$MKQ" sandbox down --dir "$TMP/sb" >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT
umask 077  # the worker kubeconfig holds a client key

fail() {
  echo "FAIL: $*"
  [ -f "$TMP/sb/sandbox.log" ] && tail -20 "$TMP/sb/sandbox.log" | sed 's/^/    log: /'
  exit 1
}
k() { timeout 60 "$KUBECTL" --kubeconfig "$TMP/sb/kubeconfig" --cache-dir "$TMP/cache" "$@"; }
km() { k --context manager "$@"; }
kw() { k --context worker1 "$@"; }

# 1. The sandbox.
timeout 60 "$MKQ" sandbox up --dir "$TMP/sb" --clusters manager,worker1 >"$TMP/up.log" 2>&1 ||
  { cat "$TMP/up.log"; fail "mkq sandbox up"; }
echo "PASS: sandbox up"

# 2. Render and apply. `mkq sandbox up` did what Kueue's installation does: its
# CRDs (Workload included) and its namespace kueue-system on every cluster.
timeout 60 "$MKQ" render "$ROOT/examples/quickstart" -o "$TMP/out" --include-credential-placeholders >"$TMP/render.log" 2>&1 ||
  { cat "$TMP/render.log"; fail "mkq render examples/quickstart"; }
[ -f "$TMP/out/manager-cluster.yaml" ] && [ -f "$TMP/out/multikueue-test-worker1.yaml" ] ||
  { ls "$TMP/out"; fail "render: expected manager-cluster.yaml and multikueue-test-worker1.yaml"; }
for c in manager worker1; do
  k --context "$c" get namespace kueue-system >/dev/null 2>&1 || fail "sandbox up made no namespace kueue-system on $c"
  k --context "$c" get crd workloads.kueue.x-k8s.io >/dev/null 2>&1 || fail "sandbox up installed no Workload CRD on $c"
done
kw apply --server-side -f "$TMP/out/multikueue-test-worker1.yaml" >"$TMP/apply.log" 2>&1 ||
  { cat "$TMP/apply.log"; fail "apply the worker file to worker1"; }
echo "PASS: apply worker file"
km apply --server-side -f "$TMP/out/manager-cluster.yaml" >"$TMP/apply.log" 2>&1 ||
  { cat "$TMP/apply.log"; fail "apply the manager file to manager"; }
echo "PASS: apply manager file"

# 3. The worker1 kubeconfig Secret (replacing the rendered placeholder): server,
# inline CA, inline client certificate and key, read from the sandbox kubeconfig.
# The key only goes to files under $TMP (mode 0600), never to the output.
# write_kubeconfig SERVER_OVERRIDE: writes $TMP/worker1.kubeconfig; an empty
# override keeps the sandbox's server.
write_kubeconfig() {
  k config view --raw --minify --context worker1 -o json >"$TMP/worker1.json" 2>/dev/null ||
    fail "kubectl config view --raw --minify --context worker1"
  /usr/bin/python3 - "$TMP/worker1.json" "$1" >"$TMP/worker1.kubeconfig" <<'EOF' || fail "build the worker1 kubeconfig"
import json, sys
config = json.load(open(sys.argv[1]))
cluster = config["clusters"][0]["cluster"]
user = config["users"][0]["user"]
server = sys.argv[2] or cluster["server"]
print(json.dumps({
    "apiVersion": "v1", "kind": "Config", "current-context": "worker1",
    "clusters": [{"name": "worker1", "cluster": {
        "server": server, "certificate-authority-data": cluster["certificate-authority-data"]}}],
    "users": [{"name": "worker1", "user": {
        "client-certificate-data": user["client-certificate-data"],
        "client-key-data": user["client-key-data"]}}],
    "contexts": [{"name": "worker1", "context": {"cluster": "worker1", "user": "worker1"}}],
}))
EOF
}
# put_secret: replaces worker1-secret with $TMP/worker1.kubeconfig under key kubeconfig.
put_secret() {
  km -n kueue-system create secret generic worker1-secret --from-file=kubeconfig="$TMP/worker1.kubeconfig" \
    --dry-run=client -o json >"$TMP/secret.json" 2>"$TMP/secret.log" || { cat "$TMP/secret.log"; fail "make the Secret"; }
  km replace -f "$TMP/secret.json" >"$TMP/secret.log" 2>&1 || { cat "$TMP/secret.log"; fail "replace worker1-secret"; }
}
write_kubeconfig ""
grep -q '"server": "https://127.0.0.1:[0-9]*"' "$TMP/worker1.kubeconfig" || fail "worker1 server is not https://127.0.0.1:PORT"
put_secret
echo "PASS: worker1-secret holds worker1's kubeconfig"

# 4. Bounded wait, then the tutorial's three checks, exactly as it writes them.
for o in multikueuecluster/multikueue-test-worker1 admissionchecks/sample-multikueue clusterqueues/cluster-queue; do
  km wait --for=condition=Active "$o" --timeout=30s >"$TMP/wait.log" 2>&1 ||
    { cat "$TMP/wait.log"; km get "$o" -o jsonpath='{.status.conditions}'; echo; fail "wait for $o Active"; }
done
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
cat "$TMP/checks.txt"
diff "$TMP/expected.txt" "$TMP/checks.txt" >/dev/null ||
  { diff "$TMP/expected.txt" "$TMP/checks.txt"; fail "the tutorial's three checks"; }
echo "PASS: the tutorial's three checks"

# 5. A wrong port (one just found free, so nothing listens there) in the Secret.
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
write_kubeconfig "https://127.0.0.1:$port"
put_secret
km wait --for=condition=Active=false multikueuecluster/multikueue-test-worker1 --timeout=30s >"$TMP/wait.log" 2>&1 ||
  { cat "$TMP/wait.log"; fail "wait for the MultiKueueCluster Active=False"; }
reason=$(km get multikueuecluster multikueue-test-worker1 -o jsonpath='{.status.conditions[?(@.type == "Active")].reason}')
[ "$reason" = ClientConnectionFailed ] || fail "wrong port: reason is '$reason', expected ClientConnectionFailed"
echo "PASS: a wrong port gives ClientConnectionFailed"
exit 0
