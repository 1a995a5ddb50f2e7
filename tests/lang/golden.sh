#!/usr/bin/env bash
# golden.sh MKQ CASE [--update]
# Runs mkq from tests/lang and compares what it prints (stdout and stderr) with
# the expected file beside the case: ok/X.mkq -> ok/X.out, the output of
# `mkq --no-color eval` (any warnings, then the typed model as JSON; exit 0);
# error/X.mkq -> error/X.err, the output of `mkq --no-color check` (exit 1).
# X.flags beside the case, when present, holds more options for that command
# (one line, split on spaces, e.g. `--import-root /dev`).
# With --update, rewrites the expected file.
set -u
mkq=$1 case=$2 update=${3:-}
cd "$(dirname "$0")"
base=${case%.mkq}
kind=${case%%/*}
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
flags=()
if [ -f "$base.flags" ]; then read -r -a flags <"$base.flags"; fi

if [ "$kind" = ok ]; then
  expected=$base.out
  "$mkq" --no-color eval "${flags[@]}" "$case" >"$actual" 2>&1
  status=$?
  want=0
else
  expected=$base.err
  "$mkq" --no-color check "${flags[@]}" "$case" >"$actual" 2>&1
  status=$?
  want=1
fi

if [ "$update" = --update ]; then
  cp "$actual" "$expected"
  [ $status = $want ] || echo "warning: $case exited $status, expected $want" >&2
  exit 0
fi
if [ $status != $want ]; then
  echo "FAIL: $case exited $status, expected $want; it printed:" >&2
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
