#!/usr/bin/env bash
# bad_input_test.sh MKQ — hostile and broken inputs to `mkq check` and `mkq fmt`:
# each must give a clear diagnostic and exit 1 — never a crash, a hang, or a C++
# exception.
set -u
mkq=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME EXPECTED-SUBSTRING COMMAND...: exit 1, message present, no crash.
expect() {
  local name=$1 want=$2; shift 2
  local out status
  out=$(timeout 60 "$@" 2>&1); status=$?
  if [ $status -ne 1 ]; then
    echo "FAIL $name: exit $status (want 1)"; echo "$out" | head -20; failures=$((failures + 1)); return
  fi
  if ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL $name: output lacks '$want':"; echo "$out" | head -20; failures=$((failures + 1)); return
  fi
  if grep -qiE "terminate called|exception|what\(\)|internal error|Segmentation|Aborted" <<<"$out"; then
    echo "FAIL $name: looks like a crash:"; echo "$out" | head -20; failures=$((failures + 1)); return
  fi
  echo "ok   $name"
}

: >"$work/empty.mkq"
expect "empty file" "error[" "$mkq" --no-color check "$work/empty.mkq"

head -c 4096 /dev/urandom >"$work/binary.mkq"
printf '\0\0\0' >>"$work/binary.mkq"
expect "binary data" "error[" "$mkq" --no-color check "$work/binary.mkq"

printf 'manager "m\xff\xfe" {}\n' >"$work/latin1.mkq"
expect "non-UTF-8" "UTF-8" "$mkq" --no-color check "$work/latin1.mkq"

{ printf 'let x = "'; head -c 10485760 /dev/zero | tr '\0' 'a'; printf '"\n'; } >"$work/long-line.mkq"
expect "10 MB line" "error[" "$mkq" --no-color check "$work/long-line.mkq"

{ printf 'let x = '; for i in $(seq 5000); do printf '('; done; printf '1'; for i in $(seq 5000); do printf ')'; done; printf '\n'; } >"$work/deep.mkq"
expect "deeply nested expression" "nesting is deeper than" "$mkq" --no-color check "$work/deep.mkq"

{ printf 'let x = '; for i in $(seq 100000); do printf -- '-'; done; printf '1\n'; } >"$work/deep-unary.mkq"
expect "100k unary operators" "nesting is deeper than" "$mkq" --no-color check "$work/deep-unary.mkq"

mkdir -p "$work/no-policies" && touch "$work/no-policies/readme.txt"
expect "directory without .mkq files" "no .mkq files" "$mkq" --no-color check "$work/no-policies"

expect "missing path" "does not exist" "$mkq" --no-color check "$work/nope"

expect "fmt of a missing path" "does not exist" "$mkq" --no-color fmt "$work/nope"

printf 'manager "m" {\n' >"$work/broken.mkq"
cp "$work/broken.mkq" "$work/broken.before"
expect "fmt leaves a broken file alone" "error[" "$mkq" --no-color fmt "$work/broken.mkq"
cmp -s "$work/broken.mkq" "$work/broken.before" || { echo "FAIL fmt changed a file it could not parse"; failures=$((failures + 1)); }

expect "unknown command" "" "$mkq" frobnicate

if [ $failures -ne 0 ]; then echo "$failures bad-input case(s) failed"; exit 1; fi
echo "all bad-input cases passed"
