#!/usr/bin/env bash
# render_output_test.sh MKQ
# `mkq render -o DIR`: one file per cluster, DIR/<cluster>.yaml (or .json with
# --format json), with the same documents as the output on stdout; a policy
# with errors exits 1 and writes nothing.
set -u
mkq=$1
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# With the credentials' placeholders, as stdout has them (by default -o leaves them out:
# tests/cli/render_dir_test.sh); DIR also holds what render wrote there (.mkq-render, README.md).
"$mkq" --no-color render examples/tas -o "$dir/out" --include-credential-placeholders || fail "render -o exited $?"
[ "$(cd "$dir/out" && ls -A | tr '\n' ' ')" = ".mkq-render README.md manager.yaml worker1.yaml worker2.yaml " ] ||
  fail "unexpected files: $(ls -A "$dir/out")"
"$mkq" --no-color render examples/tas >"$dir/stdout.yaml" || fail "render exited $?"
# The files, joined with ---, are the stdout output.
{ cat "$dir/out/manager.yaml"; echo ---; cat "$dir/out/worker1.yaml"; echo ---; cat "$dir/out/worker2.yaml"; } \
  >"$dir/joined.yaml"
diff -u "$dir/stdout.yaml" "$dir/joined.yaml" || fail "the files differ from stdout"
grep -q '^kind: MultiKueueConfig$' "$dir/out/manager.yaml" || fail "manager.yaml has no MultiKueueConfig"
grep -q '^kind: MultiKueueConfig$' "$dir/out/worker1.yaml" && fail "worker1.yaml has a MultiKueueConfig"

"$mkq" --no-color render examples/tas -o "$dir/json" --format json || fail "render --format json exited $?"
[ "$(cd "$dir/json" && ls -A | tr '\n' ' ')" = ".mkq-render README.md manager.json worker1.json worker2.json " ] ||
  fail "unexpected files: $(ls -A "$dir/json")"
grep -q '"kind": "List"' "$dir/json/worker1.json" || fail "worker1.json is not a List"
"$mkq" --no-color render examples/tas --format json | grep -q '"clusters": \[' || fail "json stdout has no clusters"

# Errors: exit 1, diagnostics on stderr, nothing on stdout, no file written.
printf 'manager "m" {}\nclusterqueue "q" { quota "missing" { cpu = 1 } }\n' >"$dir/bad.mkq"
"$mkq" --no-color render "$dir/bad.mkq" -o "$dir/bad-out" >"$dir/bad.stdout" 2>"$dir/bad.stderr"
[ $? = 1 ] || fail "a policy with errors did not exit 1"
[ ! -e "$dir/bad-out" ] || fail "a policy with errors created the output directory"
[ ! -s "$dir/bad.stdout" ] || fail "a policy with errors printed on stdout"
grep -q 'error\[' "$dir/bad.stderr" || fail "no diagnostic on stderr"
"$mkq" --no-color render "$dir/bad.mkq" >"$dir/bad.stdout" 2>/dev/null
[ $? = 1 ] && [ ! -s "$dir/bad.stdout" ] || fail "a policy with errors printed objects"
echo "ok: render -o and --format json"
