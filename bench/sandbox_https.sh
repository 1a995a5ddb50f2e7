#!/usr/bin/env bash
# The sandbox as shipped, measured over HTTPS: starts `MKQ sandbox up` with one
# cluster (Kueue's CRDs installed, CEL rules, validation and RBAC on) in a
# fresh directory, runs mkq-sandbox-bench against it with --server-pid (each
# phase also prints the sandbox process's CPU per request), then stops it.
#
# --as-service-account: the phases run as the service account bench/writer
# with a bound token (TokenRequest, one hour), authorized by RBAC as mkq's
# least-privilege worker token is: a RoleBinding to the default ClusterRole
# `edit` in each of the bench's namespaces (made beforehand by the admin) and
# a ClusterRole that may create and get namespaces (the bench's own create
# then answers 409). Every request then pays token authentication and an RBAC
# decision. Needs kubectl; not with --crds (the account may not make CRDs).
#
#   bench/sandbox_https.sh [--as-service-account] MKQ BENCH [BENCH ARGS...]
#   bench/sandbox_https.sh build/mkq build/bench/mkq-sandbox-bench --objects 10000 --list-runs 5
#   bench/sandbox_https.sh --as-service-account build/mkq build/bench/mkq-sandbox-bench --objects 3000
set -euo pipefail
AS_SERVICE_ACCOUNT=0
if [ "${1:-}" = "--as-service-account" ]; then
  AS_SERVICE_ACCOUNT=1
  shift
fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--as-service-account] MKQ BENCH [BENCH ARGS...]" >&2
  exit 2
fi
MKQ=$1
BENCH=$2
shift 2
# The bench's second round uses --clients C (default 16): namespaces bench-1*, bench-C*.
CLIENTS=16
ARGS=("$@")
for ((i = 0; i < ${#ARGS[@]}; i++)); do
  if [ "${ARGS[$i]}" = "--clients" ] && [ $((i + 1)) -lt ${#ARGS[@]} ]; then CLIENTS=${ARGS[$((i + 1))]}; fi
  if [ "${ARGS[$i]}" = "--crds" ] && [ "$AS_SERVICE_ACCOUNT" = 1 ]; then
    echo "$0: --crds cannot be used with --as-service-account" >&2
    exit 2
  fi
done
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mkq-sandbox-https-XXXXXX")
trap '"$MKQ" sandbox down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
"$MKQ" sandbox up --dir "$DIR" --clusters manager >/dev/null
KUBECONFIG_FILE="$DIR/kubeconfig"
if [ "$AS_SERVICE_ACCOUNT" = 1 ]; then
  command -v kubectl >/dev/null || { echo "$0: --as-service-account needs kubectl" >&2; exit 2; }
  k() { kubectl --kubeconfig "$DIR/kubeconfig" --context manager "$@"; }
  k create namespace bench >/dev/null
  k create serviceaccount writer -n bench >/dev/null
  k create clusterrole bench-namespaces --verb=create,get --resource=namespaces >/dev/null
  k create clusterrolebinding bench-namespaces --clusterrole=bench-namespaces --serviceaccount=bench:writer >/dev/null
  for ns in bench-1 bench-1-apply "bench-$CLIENTS" "bench-$CLIENTS-apply"; do
    k create namespace "$ns" >/dev/null 2>&1 || true  # bench-1 twice when --clients 1
    k create rolebinding writer-edit -n "$ns" --clusterrole=edit --serviceaccount=bench:writer >/dev/null 2>&1 || true
  done
  TOKEN=$(k create token writer -n bench --duration=1h)
  KUBECONFIG_FILE="$DIR/writer.kubeconfig"
  k config view --raw --minify >"$KUBECONFIG_FILE"
  USER_NAME=$(kubectl --kubeconfig "$KUBECONFIG_FILE" config view -o jsonpath='{.users[0].name}')
  kubectl --kubeconfig "$KUBECONFIG_FILE" config unset "users.$USER_NAME.client-certificate-data" >/dev/null
  kubectl --kubeconfig "$KUBECONFIG_FILE" config unset "users.$USER_NAME.client-key-data" >/dev/null
  kubectl --kubeconfig "$KUBECONFIG_FILE" config set-credentials "$USER_NAME" --token="$TOKEN" >/dev/null
  echo "as system:serviceaccount:bench:writer (a bound token, RBAC: edit in the bench's namespaces)"
fi
"$BENCH" --kubeconfig "$KUBECONFIG_FILE" --context manager --server-pid "$(cat "$DIR/sandbox.pid")" "$@"
