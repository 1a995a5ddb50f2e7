#!/usr/bin/env bash
# kubectl against the sandbox: `mkq sandbox up --crds ../shared/kueue/crds`,
# then kubectl's everyday commands on the manager, then `mkq sandbox down`.
# Usage: kubectl_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
#
# Steps marked "required" fail the test. Steps marked "optional" need API
# features that are still being built (issue 4): they print PASS or
# NOT YET with kubectl's message, and never fail the test.
set -u
MKQ=${1:?usage: kubectl_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=$ROOT/../shared

if [ ! -x "$KUBECTL" ]; then
  echo "SKIPPED: kubectl not found ($KUBECTL)"
  exit 77
fi
if [ ! -d "$SHARED/kueue/crds" ]; then
  echo "SKIPPED: $SHARED/kueue/crds not found"
  exit 77
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mkq-sandbox-kubectl.XXXXXX")
cleanup() {
  timeout 30 "$MKQ" sandbox down --dir "$TMP/sandbox" >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

failures=0
echo '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}}' >"$TMP/namespace.json"
echo '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-v"}}' >"$TMP/namespace-v.json"
echo '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-w"}}' >"$TMP/namespace-w.json"
not_yet=0
k() { timeout 60 "$KUBECTL" --kubeconfig "$TMP/sandbox/kubeconfig" --context manager --cache-dir "$TMP/cache" "$@"; }

# step required|optional NAME COMMAND...: runs COMMAND; its output (unless it
# is a `contains` check) is kept in $TMP/out for the checks that follow it.
step() {
  local kind=$1 name=$2 rc=0
  shift 2
  "$@" >"$TMP/step" 2>&1 || rc=$?
  [ "$1" != contains ] && cp "$TMP/step" "$TMP/out"
  if [ "$rc" -eq 0 ]; then
    echo "PASS: $name"
    return 0
  fi
  if [ "$kind" = required ]; then
    echo "FAIL: $name"
    failures=$((failures + 1))
  else
    echo "NOT YET: $name"
    not_yet=$((not_yet + 1))
  fi
  sed 's/^/    /' "$TMP/step" | head -20
  return 1
}

# contains FILE TEXT...: every TEXT occurs in FILE.
contains() {
  local file=$1
  shift
  for text in "$@"; do
    grep -qF -- "$text" "$file" || { echo "missing: $text"; cat "$file"; return 1; }
  done
}

if ! timeout 60 "$MKQ" sandbox up --dir "$TMP/sandbox" --crds "$SHARED/kueue/crds" >"$TMP/up" 2>&1; then
  echo "FAIL: mkq sandbox up"
  sed 's/^/    /' "$TMP/up"
  [ -f "$TMP/sandbox/sandbox.log" ] && sed 's/^/    log: /' "$TMP/sandbox/sandbox.log" | tail -20
  exit 1
fi
echo "PASS: mkq sandbox up"

step required "kubectl version" k version
step required "kubectl get --raw /readyz" k get --raw /readyz
step required "kubectl api-resources" k api-resources
step required "api-resources lists namespaces and clusterqueues" contains "$TMP/out" namespaces clusterqueues
# kubectl's generators (create namespace) send protobuf bodies for built-in kinds.
step required "kubectl create namespace (a protobuf body)" k create namespace team-p
# kubectl validates manifests with the server's OpenAPI (/openapi/v3 or /openapi/v2).
step required "kubectl create -f (validated with /openapi)" k create -f "$TMP/namespace-v.json"
step required "kubectl create -f --validate=false" k create -f "$TMP/namespace.json" --validate=false
step required "kubectl get namespace" k get namespace team-a -o name
step required "get namespace prints it" contains "$TMP/out" "namespace/team-a"

example=$SHARED/kueue/examples/single-clusterqueue-setup.yaml
step optional "kubectl apply --server-side -f single-clusterqueue-setup.yaml" k apply --server-side -f "$example"
step optional "kubectl apply -f single-clusterqueue-setup.yaml" k apply -f "$example"
# The same without kubectl's OpenAPI validation (the server still validates).
step optional "kubectl apply --server-side --validate=false -f single-clusterqueue-setup.yaml" \
  k apply --server-side --validate=false -f "$example"
step optional "kubectl apply --validate=false -f single-clusterqueue-setup.yaml" k apply --validate=false -f "$example"
if step optional "kubectl get clusterqueues (table)" k get clusterqueues; then
  step optional "the table names cluster-queue" contains "$TMP/out" "NAME" "cluster-queue"
fi
if step optional "kubectl get clusterqueues -o json" k get clusterqueues -o json; then
  step optional "the list holds cluster-queue" contains "$TMP/out" '"kind": "List"' '"name": "cluster-queue"'
fi
# Kueue's CRDs make a LocalQueue's clusterQueue immutable (CEL `self == oldSelf`).
change_cluster_queue() {
  if k patch localqueue user-queue -n default --type=merge -p '{"spec":{"clusterQueue":"other-queue"}}' >"$TMP/patch" 2>&1; then
    echo "the patch was accepted"
    return 1
  fi
  contains "$TMP/patch" 'spec.clusterQueue: Invalid value: "string": field is immutable'
}
if k get localqueue user-queue -n default >/dev/null 2>&1; then
  step required "changing a LocalQueue's clusterQueue: field is immutable" change_cluster_queue
fi
step optional "kubectl delete -f single-clusterqueue-setup.yaml" k delete -f "$example" --wait=false
# get -w: the watch stream (chunked) shows a namespace created after it started.
watch_namespaces() {
  k get namespaces -w -o name >"$TMP/watch" 2>&1 &
  local watcher=$!
  sleep 1
  k create -f "$TMP/namespace-w.json" --validate=false >/dev/null 2>&1
  for _ in $(seq 1 50); do
    grep -q "namespace/team-w" "$TMP/watch" && break
    sleep 0.1
  done
  kill "$watcher" 2>/dev/null
  wait "$watcher" 2>/dev/null
  contains "$TMP/watch" "namespace/team-a" "namespace/team-w"
}
step optional "kubectl get namespaces -w sees a new namespace" watch_namespaces
# Service-account tokens (issue 6): `kubectl create token` (a protobuf TokenRequest),
# then kubectl with that token: RBAC forbids what no binding grants, a bad token is 401.
token_rbac() {
  k create serviceaccount robot -n default >/dev/null &&
    k create token robot -n default --duration=1h >"$TMP/token" || return 1
  local server
  server=$(k config view --minify -o jsonpath='{.clusters[0].cluster.server}')
  kt() { timeout 60 "$KUBECTL" --kubeconfig /dev/null --server "$server" --certificate-authority "$TMP/sandbox/ca.crt" "$@"; }
  kt --token "$(cat "$TMP/token")" get secrets -n default >"$TMP/forbidden" 2>&1 && return 1
  contains "$TMP/forbidden" 'secrets is forbidden: User "system:serviceaccount:default:robot" cannot list resource "secrets" in API group "" in the namespace "default"' || return 1
  k create rolebinding robot-view -n default --clusterrole=robot-reader --serviceaccount=default:robot >/dev/null &&
    k create clusterrole robot-reader --verb=get,list --resource=configmaps >/dev/null || return 1
  kt --token "$(cat "$TMP/token")" get configmaps -n default || return 1
  kt --token "not-a-token" get configmaps -n default >"$TMP/unauthorized" 2>&1 && return 1
  contains "$TMP/unauthorized" "Unauthorized"
}
step required "kubectl create token; the token is authenticated and authorized by RBAC" token_rbac
# A restart keeps every object and every port (the same kubeconfig still works).
restart() {
  cp "$TMP/sandbox/kubeconfig" "$TMP/kubeconfig.before"
  timeout 60 "$MKQ" sandbox down --dir "$TMP/sandbox" &&
    timeout 60 "$MKQ" sandbox up --dir "$TMP/sandbox" --no-kueue &&
    cmp "$TMP/kubeconfig.before" "$TMP/sandbox/kubeconfig"
}
step required "mkq sandbox down, up: the same kubeconfig" restart
step required "kubectl get namespace after the restart" k get namespace team-a -o name
step required "mkq sandbox status" timeout 30 "$MKQ" sandbox status --dir "$TMP/sandbox"
step required "status lists manager and worker1 as ready" contains "$TMP/out" "manager" "worker1" "ready"
step required "kubectl delete namespace" k delete namespace team-a --wait=false

if ! timeout 60 "$MKQ" sandbox down --dir "$TMP/sandbox" >"$TMP/down" 2>&1; then
  echo "FAIL: mkq sandbox down"
  failures=$((failures + 1))
else
  echo "PASS: mkq sandbox down"
fi
echo "kubectl test: $failures failed, $not_yet optional steps not working yet"
[ "$failures" -eq 0 ]
