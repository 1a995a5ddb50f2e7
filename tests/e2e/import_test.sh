#!/usr/bin/env bash
# End to end (issue 17, item 1): a MultiKueue fleet set up by hand with kubectl,
# as the MultiKueue tutorial does it -- the manager's objects from
# ../shared/kueue/examples/multikueue/multikueue-setup.yaml, the worker's
# ResourceFlavor, ClusterQueue and LocalQueue, the worker's ServiceAccount and
# a kubeconfig Secret on the manager holding its token -- then
# `mkq import --adopt` writes a policy and makes the objects its own; the next
# `mkq plan` has nothing to change (exit 0 with --detailed-exitcode), and
# `mkq destroy` leaves every hand-made object in place, without mkq's labels.
# Usage: import_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: import_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SETUP="$ROOT/../shared/kueue/examples/multikueue/multikueue-setup.yaml"

. "$(dirname "$0")/common.sh"
e2e_require_clients
if [ ! -f "$SETUP" ]; then
  echo "SKIPPED: $SETUP not found (../shared)"
  exit 77
fi
e2e_setup import

timeout 120 "$MKQ" sandbox up --dir "$SB" --clusters manager-cluster,worker1-cluster >"$TMP/up.out" 2>&1 ||
  { cat "$TMP/up.out"; fail "sandbox up"; }

# --- by hand, as the tutorial does it
k --context manager-cluster apply -f "$SETUP" >"$TMP/hand.out" 2>&1 || { cat "$TMP/hand.out"; fail "kubectl apply the tutorial's manager setup"; }
cat >"$TMP/worker.yaml" <<'EOF'
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: "default-flavor"
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: "cluster-queue"
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: ["cpu", "memory"]
    flavors:
    - name: "default-flavor"
      resources:
      - name: "cpu"
        nominalQuota: 9
      - name: "memory"
        nominalQuota: 36Gi
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  namespace: "default"
  name: "user-queue"
spec:
  clusterQueue: "cluster-queue"
EOF
k --context worker1-cluster apply -f "$TMP/worker.yaml" >>"$TMP/hand.out" 2>&1 || { cat "$TMP/hand.out"; fail "kubectl apply the worker's queues"; }
k --context worker1-cluster -n kueue-system create serviceaccount multikueue-sa >>"$TMP/hand.out" 2>&1 ||
  { cat "$TMP/hand.out"; fail "the worker's ServiceAccount"; }
k --context worker1-cluster -n kueue-system create token multikueue-sa --duration 24h >"$TMP/token" 2>"$TMP/token.err" ||
  { cat "$TMP/token.err"; fail "a token for multikueue-sa"; }
# The worker's kubeconfig (server and CA from the sandbox's, the token above), never printed.
/usr/bin/python3 - "$SB/kubeconfig" "$TMP/token" >"$TMP/worker.kubeconfig" <<'EOF' || fail "build the worker's kubeconfig"
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
cluster = next(c for c in config["clusters"] if c["name"] == "worker1-cluster")
token = open(sys.argv[2]).read().strip()
print(yaml.safe_dump({
    "apiVersion": "v1", "kind": "Config", "current-context": "worker1",
    "clusters": [{"name": "worker1", "cluster": cluster["cluster"]}],
    "users": [{"name": "multikueue-sa", "user": {"token": token}}],
    "contexts": [{"name": "worker1", "context": {"cluster": "worker1", "user": "multikueue-sa"}}],
}))
EOF
k --context manager-cluster -n kueue-system create secret generic worker1-secret \
  --from-file=kubeconfig="$TMP/worker.kubeconfig" >>"$TMP/hand.out" 2>&1 || { cat "$TMP/hand.out"; fail "the worker's Secret"; }
pass "the tutorial's fleet set up by hand with kubectl"

# --- import without --adopt changes nothing on the clusters
mkq_run preview import --context manager-cluster --worker multikueue-test-worker1=worker1-cluster \
  --kubeconfig "$SB/kubeconfig"
[ "$rc" = 0 ] || { show preview; fail "mkq import: exit $rc"; }
grep -q 'worker "multikueue-test-worker1" {' "$TMP/preview.out" || { show preview; fail "the policy has no worker block"; }
grep -q 'context = "worker1-cluster"' "$TMP/preview.out" || { show preview; fail "the worker's context is not in the policy"; }
grep -q 'dispatch "sample-multikueue" {' "$TMP/preview.out" || { show preview; fail "the policy has no dispatch"; }
grep -q 'secret("env:MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1")' "$TMP/preview.out" ||
  { show preview; fail "the worker's kubeconfig is not a secret from the environment"; }
grep -q 'warning' "$TMP/preview.err" && { show preview; fail "the tutorial's objects should import without a warning"; }
if grep -qF "$(cat "$TMP/token")" "$TMP/preview.out" "$TMP/preview.err"; then fail "the token was printed"; fi
labels=$(k --context manager-cluster get clusterqueue cluster-queue -o jsonpath='{.metadata.labels}')
[ -z "$labels" ] || fail "import without --adopt labelled the ClusterQueue: $labels"
pass "import writes the policy (worker, dispatch, the kubeconfig as a secret from the environment), no warning, no token"

# --- --adopt refuses a plan that would do more than adopt, and changes nothing
k --context worker1-cluster delete localqueue user-queue -n default >/dev/null 2>&1 || fail "delete the worker's LocalQueue"
mkq_run refused import --context manager-cluster --worker multikueue-test-worker1=worker1-cluster \
  --kubeconfig "$SB/kubeconfig" -o "$TMP/refused" --adopt
[ "$rc" = 1 ] || { show refused; fail "--adopt with an object missing on the worker: exit $rc, expected 1"; }
grep -q "does more than adopt" "$TMP/refused.err" || { show refused; fail "the refusal does not say why"; }
grep -q "multikueue-test-worker1/LocalQueue/default/user-queue" "$TMP/refused.err" || { show refused; fail "the refusal does not name the LocalQueue"; }
k --context worker1-cluster get localqueue user-queue -n default >/dev/null 2>&1 && fail "the refused --adopt created the LocalQueue"
labels=$(k --context manager-cluster get clusterqueue cluster-queue -o jsonpath='{.metadata.labels}')
[ -z "$labels" ] || fail "the refused --adopt labelled the ClusterQueue: $labels"
k --context worker1-cluster apply -f "$TMP/worker.yaml" >/dev/null 2>&1 || fail "put the LocalQueue back"
rm -f "$TMP/state.db"*
pass "--adopt refuses a plan that would create an object, and changes nothing"

# --- import --adopt
# The Secret's bytes exactly, trailing newline included ($(...) alone would drop it).
export MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1
MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1=$(k --context manager-cluster -n kueue-system get secret worker1-secret \
  -o jsonpath='{.data.kubeconfig}' | base64 -d; printf x)
MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1=${MKQ_KUBECONFIG_MULTIKUEUE_TEST_WORKER1%x}
mkq_run adopt import --context manager-cluster --worker multikueue-test-worker1=worker1-cluster \
  --kubeconfig "$SB/kubeconfig" -o "$TMP/fleet" --adopt
[ "$rc" = 0 ] || { show adopt; fail "mkq import --adopt: exit $rc"; }
[ -f "$TMP/fleet/policy.mkq" ] || { show adopt; fail "no policy written"; }
cmp -s "$TMP/fleet/policy.mkq" "$TMP/preview.out" || { diff "$TMP/preview.out" "$TMP/fleet/policy.mkq"; fail "-o wrote another policy than the one printed"; }
if grep -qF "$(cat "$TMP/token")" "$TMP/adopt.out" "$TMP/adopt.err" "$TMP/fleet/policy.mkq"; then fail "the token was printed or written"; fi
timeout 60 "$MKQ" state list --state "$TMP/state.db" >"$TMP/list.out" 2>&1 || { cat "$TMP/list.out"; fail "state list"; }
for address in manager-cluster/ClusterQueue/cluster-queue manager-cluster/LocalQueue/default/user-queue \
  manager-cluster/AdmissionCheck/sample-multikueue manager-cluster/MultiKueueConfig/multikueue-test \
  manager-cluster/MultiKueueCluster/multikueue-test-worker1 multikueue-test-worker1/ClusterQueue/cluster-queue; do
  grep -qF "$address" "$TMP/list.out" || { cat "$TMP/list.out"; fail "the state does not record $address"; }
done
timeout 60 "$MKQ" state show manager-cluster/ClusterQueue/cluster-queue --state "$TMP/state.db" >"$TMP/show.out" 2>&1
grep -qi 'adopted.*\(yes\|true\)' "$TMP/show.out" || { cat "$TMP/show.out"; fail "the ClusterQueue is not recorded as adopted"; }
pass "import --adopt records every object in the state, as adopted"

# --- the next plan has nothing to change
mkq_run plan plan "$TMP/fleet" --kubeconfig "$SB/kubeconfig" --detailed-exitcode
[ "$rc" = 0 ] || { show plan; fail "plan after import --adopt: exit $rc, expected 0 (no changes)"; }
grep -q "No changes" "$TMP/plan.out" || { show plan; fail "the plan does not say No changes"; }
pass "plan after import --adopt: no changes (exit 0)"

# --- destroy releases: every hand-made object stays, without mkq's labels
mkq_run destroy destroy "$TMP/fleet" --kubeconfig "$SB/kubeconfig" --auto-approve
[ "$rc" = 0 ] || { show destroy; fail "destroy: exit $rc"; }
grep -q "released" "$TMP/destroy.out" || { show destroy; fail "destroy did not release"; }
for object in "clusterqueue cluster-queue" "resourceflavor default-flavor" "admissioncheck sample-multikueue" \
  "multikueueconfig multikueue-test" "multikueuecluster multikueue-test-worker1" "localqueue user-queue -n default" \
  "secret worker1-secret -n kueue-system"; do
  # shellcheck disable=SC2086
  k --context manager-cluster get $object >/dev/null 2>&1 || { show destroy; fail "destroy deleted the manager's $object"; }
done
for object in "clusterqueue cluster-queue" "resourceflavor default-flavor" "localqueue user-queue -n default" \
  "serviceaccount multikueue-sa -n kueue-system"; do
  # shellcheck disable=SC2086
  k --context worker1-cluster get $object >/dev/null 2>&1 || { show destroy; fail "destroy deleted the worker's $object"; }
done
for context in manager-cluster worker1-cluster; do
  labels=$(k --context $context get clusterqueue cluster-queue -o jsonpath='{.metadata.labels}')
  case "$labels" in *mkq*) fail "the released ClusterQueue on $context keeps mkq's labels: $labels" ;; esac
done
pass "destroy released every adopted object: all still there, without mkq's labels"
