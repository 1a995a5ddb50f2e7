#!/usr/bin/env bash
# render_dir_test.sh MKQ — `mkq render -o DIR` owns DIR (docs/render.md): it
# writes one file per cluster, README.md and the manifest .mkq-render (listing
# exactly what it wrote); the worker credential Secrets are left out (the
# README names them) unless --include-credential-placeholders; a worker taken
# out of the policy has its file removed; a directory holding a file render did
# not write is refused with a clear message, exit 1, nothing written or removed.
set -u
mkq=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check NAME CONDITION...: ok or FAIL
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

mkdir -p "$work/p"
cp "$root/examples/tas/policy.mkq" "$work/p/policy.mkq"
"$mkq" --no-color render "$work/p" -o "$work/out" >"$work/stdout" 2>"$work/err"
check "render -o exits 0" [ $? -eq 0 ]
check "the files written" [ "$(cd "$work/out" && ls -A | tr '\n' ' ')" = ".mkq-render README.md manager.yaml worker1.yaml worker2.yaml " ]
check "the manifest lists them" [ "$(/usr/bin/python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["files"]))' "$work/out/.mkq-render")" = "README.md manager.yaml worker1.yaml worker2.yaml" ]
check "no credential Secret in the manager's file" bash -c "! grep -qx 'kind: Secret' '$work/out/manager.yaml'"
check "the manager's file says why" grep -qx "# The worker credential Secrets are left out: \`mkq apply\` or \`mkq controller\` manages them (README.md)" "$work/out/manager.yaml"
check "the README names the Secrets" grep -qx -- "- Secret kueue-system/worker1-secret on manager" "$work/out/README.md"
check "the MultiKueueCluster is still rendered" grep -q "kind: MultiKueueCluster" "$work/out/manager.yaml"

"$mkq" --no-color render "$work/p" -o "$work/out" --include-credential-placeholders >"$work/stdout" 2>"$work/err"
check "--include-credential-placeholders exits 0" [ $? -eq 0 ]
check "--include-credential-placeholders writes the Secret" grep -q "name: worker1-secret" "$work/out/manager.yaml"

# worker2 leaves the policy: its file goes.
sed -i 's/for name in \["worker1", "worker2"\]/for name in ["worker1"]/; s/workers = \["worker1", "worker2"\]/workers = ["worker1"]/' "$work/p/policy.mkq"
"$mkq" --no-color render "$work/p" -o "$work/out" >"$work/stdout" 2>"$work/err"
check "render without worker2 exits 0" [ $? -eq 0 ]
check "worker2.yaml removed" [ ! -e "$work/out/worker2.yaml" ]
check "the manifest no longer lists it" bash -c "! grep -q worker2 '$work/out/.mkq-render'"

# A file render did not write: refused, nothing written or removed.
echo "mine" >"$work/out/notes.txt"
sed -i 's/for name in \["worker1"\]/for name in ["worker1", "worker3"]/; s/workers = \["worker1"\]/workers = ["worker1", "worker3"]/' "$work/p/policy.mkq"
before=$(cd "$work/out" && ls -A | tr '\n' ' ')
"$mkq" --no-color render "$work/p" -o "$work/out" >"$work/stdout" 2>"$work/err"
status=$?
check "a foreign file: exit 1" [ $status -eq 1 ]
check "a foreign file: the message" grep -qx "mkq: error: $work/out holds an entry mkq did not write (notes.txt); render -o writes only into an empty directory or one it wrote before (listed in .mkq-render): choose another directory; nothing was written or removed" "$work/err"
check "a foreign file: nothing written" [ "$(cd "$work/out" && ls -A | tr '\n' ' ')" = "$before" ]
check "a foreign file: kept" grep -qx mine "$work/out/notes.txt"

# A directory of someone else's: refused from the first render.
mkdir -p "$work/theirs"
echo "apiVersion: v1" >"$work/theirs/app.yaml"
"$mkq" --no-color render "$work/p" -o "$work/theirs" >"$work/stdout" 2>"$work/err"
check "a directory mkq never wrote: exit 1" [ $? -eq 1 ]
check "a directory mkq never wrote: untouched" [ "$(ls -A "$work/theirs")" = "app.yaml" ]

# render -v: the timing line after the objects, on a line of its own (stdout is
# flushed first, so it never lands inside a document when both streams share a file).
"$mkq" --no-color render -v "$root/examples/tas" >"$work/both" 2>&1
check "render -v exits 0" [ $? -eq 0 ]
check "render -v: the timing line is the last line, whole" bash -c "tail -n 1 '$work/both' | grep -qE '^mkq: render +[0-9.]+ ms\$'"
check "render -v: no line holds a timing after text" bash -c "! grep -qE '.mkq: (render|parse|evaluate)' '$work/both'"

[ $failures -eq 0 ] || { echo "$failures failed"; exit 1; }
