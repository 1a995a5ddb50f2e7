#!/usr/bin/env bash
# The sandbox as shipped, measured over HTTPS: starts `MKQ sandbox up` with one
# cluster (Kueue's CRDs installed, CEL rules, validation and RBAC on) in a
# fresh directory, runs mkq-sandbox-bench against it with --server-pid (each
# phase also prints the sandbox process's CPU per request), then stops it.
#
#   bench/sandbox_https.sh MKQ BENCH [BENCH ARGS...]
#   bench/sandbox_https.sh build/mkq build/bench/mkq-sandbox-bench --objects 10000 --list-runs 5
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MKQ BENCH [BENCH ARGS...]" >&2
  exit 2
fi
MKQ=$1
BENCH=$2
shift 2
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mkq-sandbox-https-XXXXXX")
trap '"$MKQ" sandbox down --dir "$DIR" >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
"$MKQ" sandbox up --dir "$DIR" --clusters manager >/dev/null
"$BENCH" --kubeconfig "$DIR/kubeconfig" --context manager --server-pid "$(cat "$DIR/sandbox.pid")" "$@"
