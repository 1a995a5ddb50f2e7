#!/usr/bin/env bash
# render_golden.sh MKQ CASE [--update]
# The exact output of `mkq --no-color render` (objects on stdout, then any
# warnings on stderr), exit 0 expected:
#   render/NAME.mkq   -> render/NAME.yaml
#   examples/NAME     -> render/examples/NAME.yaml (the policy ../../examples/NAME)
# With --update, rewrites the expected file (then review `git diff tests/lang`).
set -u
mkq=$1 case=$2 update=${3:-}
cd "$(dirname "$0")"
case $case in
  render/*.mkq) policy=$case expected=${case%.mkq}.yaml ;;
  examples/*) policy=../../$case expected=render/$case.yaml ;;
  *) echo "FAIL: unknown render case $case" >&2; exit 1 ;;
esac
actual=$(mktemp) errors=$(mktemp)
trap 'rm -f "$actual" "$errors"' EXIT

"$mkq" --no-color render "$policy" >"$actual" 2>"$errors"
status=$?
cat "$errors" >>"$actual"

if [ "$update" = --update ]; then
  mkdir -p "$(dirname "$expected")"
  cp "$actual" "$expected"
  [ $status = 0 ] || echo "warning: $case exited $status, expected 0" >&2
  exit 0
fi
if [ $status != 0 ]; then
  echo "FAIL: $case exited $status, expected 0; it printed:" >&2
  cat "$actual" >&2
  exit 1
fi
if [ ! -f "$expected" ]; then
  echo "FAIL: $expected is missing (run tests/lang/refresh.sh and review it)" >&2
  exit 1
fi
if ! diff -u "$expected" "$actual"; then
  echo "FAIL: $case: output differs from $expected" >&2
  exit 1
fi
