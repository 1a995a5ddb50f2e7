#!/usr/bin/env bash
# End to end (issue 15 items 5 and 7, capacity-aware dispatch): three workers
# selected with order = "most-free" get 8, 4 and 0 free GPUs through Nodes and
# Pods created with kubectl in the sandbox; apply writes the MultiKueueConfig's
# clusters in that order and the plan shows each worker's free amount; after
# the pods change, the next plan reorders and apply writes it; a worker that
# cannot be read fails the dispatch's change instead of a made-up order.
# Usage: capacity_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: capacity_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup capacity

mkdir -p "$TMP/p"
P="$TMP/p"
cat >"$P/policy.mkq" <<'EOF2'
manager "manager" {}

for name in ["alpha", "bravo", "charlie"] {
  worker "${name}" { labels = { "gpu.type": "a100" } }
}

flavor "gpu" {}

clusterqueue "training" {
  namespaces = all
  quota "gpu" { "nvidia.com/gpu" = 24 }
}

dispatch "most-free" {
  queues = ["training"]
  mode = "incremental"
  select {
    labels = { "gpu.type": "a100" }
    order = "most-free"
    resource = "nvidia.com/gpu"
  }
}
EOF2

config_order() { k --context manager get multikueueconfig most-free -o jsonpath='{.spec.clusters}'; }
# node CONTEXT NAME GPUS: a Ready node with GPUS allocatable.
node() {
  k --context "$1" create -f - >/dev/null <<EOF2 || fail "create node $2 on $1"
{"apiVersion": "v1", "kind": "Node",
 "metadata": {"name": "$2", "labels": {"node-role.kubernetes.io/gpu": ""}},
 "status": {"capacity": {"nvidia.com/gpu": "$3"}, "allocatable": {"nvidia.com/gpu": "$3"},
            "conditions": [{"type": "Ready", "status": "True"}], "nodeInfo": {"kubeletVersion": "v1.33.0"}}}
EOF2
}
# pod CONTEXT NAME NODE GPUS PHASE: a pod bound to NODE asking GPUS (as a limit, the usual way).
pod() {
  k --context "$1" create -f - >/dev/null <<EOF2 || fail "create pod $2 on $1"
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "$2", "namespace": "default"},
 "spec": {"nodeName": "$3", "containers": [{"name": "train", "image": "trainer",
          "resources": {"limits": {"nvidia.com/gpu": "$4"}}}]},
 "status": {"phase": "$5"}}
EOF2
}

# The sandbox starts with the policy's clusters; before any node, every worker has 0 free.
mkq_run start plan "$P"
[ "$rc" = 0 ] || { show start; fail "first plan"; }
grep -q "^  alpha: 0 nvidia.com/gpu free (0 nodes)$" "$TMP/start.out" || { show start; fail "the plan does not show alpha's free GPUs"; }

# Capacity and load: charlie 8 free, bravo 8 - 4 = 4, alpha 4 - 4 = 0 (its finished pod and an
# unbound pod do not count; neither does a node that is not Ready).
node charlie gpu-c1 8
node bravo gpu-b1 8
pod bravo train-b bravo-missing 2 Running  # on a node that does not exist: not counted
pod bravo train-b2 gpu-b1 4 Running
node alpha gpu-a1 4
pod alpha train-a gpu-a1 4 Running
pod alpha done-a gpu-a1 4 Succeeded
k --context alpha create -f - >/dev/null <<'EOF2' || fail "create a NotReady node"
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-a2"},
 "status": {"allocatable": {"nvidia.com/gpu": "8"}, "conditions": [{"type": "Ready", "status": "False"}]}}
EOF2
k --context alpha get nodes >"$TMP/nodes.txt" 2>&1 || { cat "$TMP/nodes.txt"; fail "kubectl get nodes"; }
head -1 "$TMP/nodes.txt" | grep -Eq '^NAME +STATUS +ROLES +AGE +VERSION$' || { cat "$TMP/nodes.txt"; fail "nodes table header"; }
grep -Eq '^gpu-a1 +Ready +gpu +[0-9a-z]+ +v1.33.0$' "$TMP/nodes.txt" || { cat "$TMP/nodes.txt"; fail "nodes table row"; }
grep -Eq '^gpu-a2 +NotReady ' "$TMP/nodes.txt" || { cat "$TMP/nodes.txt"; fail "a NotReady node"; }
k --context alpha get pods --field-selector status.phase!=Succeeded,status.phase!=Failed >"$TMP/pods.txt" 2>&1 ||
  { cat "$TMP/pods.txt"; fail "kubectl get pods with a field selector"; }
head -1 "$TMP/pods.txt" | grep -Eq '^NAME +READY +STATUS +RESTARTS +AGE$' || { cat "$TMP/pods.txt"; fail "pods table header"; }
[ "$(grep -c . "$TMP/pods.txt")" = 2 ] && grep -Eq '^train-a +0/1 +Running +0 ' "$TMP/pods.txt" ||
  { cat "$TMP/pods.txt"; fail "pods not finished: only train-a"; }
pass "the sandbox serves Nodes and Pods: kubectl tables, field selectors"

mkq_run apply1 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply1; fail "apply with capacity: exit $rc"; }
[ "$(config_order)" = '["charlie","bravo","alpha"]' ] || { show apply1; fail "MultiKueueConfig clusters $(config_order), expected charlie, bravo, alpha"; }
sed -n '/^# dispatch most-free/,/^$/p' "$TMP/apply1.out" >"$TMP/order1.txt"
cat >"$TMP/order1.expected" <<'EOF2'
# dispatch most-free: workers by free nvidia.com/gpu, most first
  charlie: 8 nvidia.com/gpu free (1 node)
  bravo: 4 nvidia.com/gpu free (1 node)
  alpha: 0 nvidia.com/gpu free (1 node)

EOF2
diff "$TMP/order1.expected" "$TMP/order1.txt" || { show apply1; fail "the plan's free amounts"; }
mkq_run again plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show again; fail "plan after apply: exit $rc, expected 0 (no changes while the load stays)"; }
pass "8, 4, 0 free: the MultiKueueConfig lists charlie, bravo, alpha and the plan shows why"

# The load moves: alpha's and bravo's pods finish, charlie takes 6 GPUs -> bravo 8, alpha 4, charlie 2.
k --context alpha patch pod train-a --subresource=status --type=merge -p '{"status":{"phase":"Succeeded"}}' >/dev/null ||
  fail "finish alpha's pod"
k --context bravo delete pod train-b2 >/dev/null || fail "delete bravo's pod"
pod charlie train-c gpu-c1 6 Running
mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan2; fail "plan after the load moved: exit $rc, expected 2"; }
grep -q "~ MultiKueueConfig most-free (workers reordered by free nvidia.com/gpu)" "$TMP/plan2.out" ||
  { show plan2; fail "the plan does not reorder the MultiKueueConfig"; }
grep -q "^  bravo: 8 nvidia.com/gpu free (1 node)$" "$TMP/plan2.out" || { show plan2; fail "bravo's free GPUs after the change"; }
[ "$(grep -c '^  [-+~]' "$TMP/plan2.out")" = 1 ] || { show plan2; fail "the reorder should be the plan's only change"; }
[ "$(config_order)" = '["charlie","bravo","alpha"]' ] || fail "plan changed the MultiKueueConfig"
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply after the load moved: exit $rc"; }
[ "$(config_order)" = '["bravo","alpha","charlie"]' ] || fail "MultiKueueConfig clusters $(config_order), expected bravo, alpha, charlie"
pass "after the pods changed the next plan reordered, and apply wrote bravo, alpha, charlie"

# A worker that cannot be read: its dispatch's change fails, nothing is made up.
e2e_unreachable_kubeconfig charlie "$TMP/broken.kubeconfig"
k --context charlie delete pod train-c >/dev/null || fail "delete charlie's pod"  # charlie 8: the order would move
timeout 300 "$MKQ" apply "$P" --auto-approve --kubeconfig "$TMP/broken.kubeconfig" --state "$TMP/state.db" \
  >"$TMP/broken.out" 2>"$TMP/broken.err"
rc=$?
[ "$rc" = 1 ] || { show broken; fail "apply with charlie unreadable: exit $rc, expected 1"; }
grep -q "^# dispatch most-free: workers by free nvidia.com/gpu, most first (order unknown)$" "$TMP/broken.out" ||
  { show broken; fail "the plan does not say the order is unknown"; }
grep -q "^  charlie: cannot be read: " "$TMP/broken.out" || { show broken; fail "the plan does not say why charlie was not read"; }
grep -q "the workers of dispatch 'most-free' cannot be ordered by free nvidia.com/gpu: not every worker could be read" \
  "$TMP/broken.out" || { show broken; fail "the MultiKueueConfig's change does not fail"; }
[ "$(config_order)" = '["bravo","alpha","charlie"]' ] || fail "the MultiKueueConfig changed though its order was unknown"
pass "a worker that cannot be read: the order is unknown, the change fails, the MultiKueueConfig stays"

timeout 60 "$MKQ" render "$P" >"$TMP/render.out" 2>"$TMP/render.err" || { show render; fail "render"; }
grep -q "mkq: note: dispatch 'most-free' lists its workers most free nvidia.com/gpu first, as read when mkq plans; rendered here by name" \
  "$TMP/render.err" || { show render; fail "render does not say the order is by name"; }
rendered=$(sed -n '/^kind: MultiKueueConfig$/,/^---$/p' "$TMP/render.out" | sed -n 's/^  - //p' | paste -sd,)
[ "$rendered" = "alpha,bravo,charlie" ] || { show render; fail "render lists the workers as $rendered, not by name"; }
pass "render keeps the name order and says so"
