#!/usr/bin/env bash
# graph_test.sh MKQ — `mkq graph`: the quickstart's DOT graph is exactly
# tests/kueue/graph/quickstart.dot (exit 0); a policy with an error prints the
# diagnostics on stderr, nothing on stdout, and exits 1.
set -u
mkq=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

"$mkq" --no-color graph "$root/examples/quickstart" >"$work/out.dot" 2>"$work/err"
status=$?
if [ $status -ne 0 ]; then
  echo "FAIL quickstart: exit $status"; cat "$work/err"; failures=$((failures + 1))
elif ! diff -u "$root/tests/kueue/graph/quickstart.dot" "$work/out.dot"; then
  echo "FAIL quickstart: the graph differs from tests/kueue/graph/quickstart.dot"; failures=$((failures + 1))
else
  echo "ok   quickstart"
fi

printf 'flavor "f" {}\n' >"$work/no-manager.mkq"
"$mkq" --no-color graph "$work/no-manager.mkq" >"$work/out" 2>"$work/err"
status=$?
if [ $status -ne 1 ] || [ -s "$work/out" ] || ! grep -q "E3060" "$work/err"; then
  echo "FAIL error: exit $status, stdout $(wc -c <"$work/out") bytes, stderr:"; cat "$work/err"; failures=$((failures + 1))
else
  echo "ok   error"
fi

[ $failures -eq 0 ]
