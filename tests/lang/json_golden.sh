#!/usr/bin/env bash
# json_golden.sh MKQ [--update]
# For every json/NAME.json, runs `mkq --no-color check --format json` on the case
# error/NAME.mkq (exit 1 expected) or ok/NAME.mkq (exit 0 expected) from
# tests/lang and compares standard output with json/NAME.json, byte for byte.
# With --update, rewrites the expected files instead (then review the diff).
set -u
mkq=$1 update=${2:-}
cd "$(dirname "$0")"
actual=$(mktemp) errors=$(mktemp)
trap 'rm -f "$actual" "$errors"' EXIT
failures=0
checked=0

for expected in json/*.json; do
  [ -e "$expected" ] || continue
  name=$(basename "$expected" .json)
  if [ -f "error/$name.mkq" ]; then
    case=error/$name.mkq want=1
  elif [ -f "ok/$name.mkq" ]; then
    case=ok/$name.mkq want=0
  else
    echo "FAIL: $expected has no case error/$name.mkq or ok/$name.mkq" >&2
    failures=$((failures + 1))
    continue
  fi
  "$mkq" --no-color check --format json "$case" >"$actual" 2>"$errors"
  status=$?
  checked=$((checked + 1))
  if [ "$update" = --update ]; then
    cp "$actual" "$expected"
    [ $status = $want ] || echo "warning: $case exited $status, expected $want" >&2
    continue
  fi
  if [ $status != $want ]; then
    echo "FAIL: $case exited $status, expected $want; standard error:" >&2
    cat "$errors" >&2
    failures=$((failures + 1))
  fi
  if ! diff -u "$expected" "$actual"; then
    echo "FAIL: $case: JSON output differs from $expected" >&2
    failures=$((failures + 1))
  fi
done

if [ $checked = 0 ]; then
  echo "FAIL: no json/*.json expected files found" >&2
  exit 1
fi
[ $failures = 0 ] || exit 1
echo "ok: $checked JSON golden file(s)"
