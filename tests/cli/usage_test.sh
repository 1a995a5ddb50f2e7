#!/usr/bin/env bash
# usage_test.sh MKQ — a mistyped command, subcommand or flag gets one line naming
# it and the closest one mkq knows ("did you mean"), a pointer to the right
# --help, exit 1 and nothing on stdout; a word close to nothing gets no
# suggestion; a usage error that is not an unknown word keeps CLI11's message,
# save a number out of bounds, said in words ("--qps must be at least 0.1");
# `render -o json` (a format given to -o) is refused with "did you mean --format".
set -u
mkq=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME EXPECTED_STDERR -- ARGS...
expect() {
  local name=$1 expected=$2
  shift 3
  "$mkq" "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [ $status -ne 1 ] || [ -s "$work/out" ] || [ "$(cat "$work/err")" != "$expected" ]; then
    echo "FAIL $name: exit $status, stdout $(wc -c <"$work/out") bytes, stderr:"; cat "$work/err"
    echo "     expected:"; echo "$expected"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

expect command 'mkq: error: unknown command "pln" for "mkq"; did you mean "plan"?
Run `mkq --help` for its commands.' -- pln
expect subcommand 'mkq: error: unknown command "lst" for "mkq state"; did you mean "list"?
Run `mkq state --help` for its commands.' -- state lst
expect nested-after-option 'mkq: error: unknown command "upp" for "mkq sandbox"; did you mean "up"?
Run `mkq sandbox --help` for its commands.' -- sandbox --clusters a,b upp
expect optional-subcommand 'mkq: error: unknown command "manifest" for "mkq controller"; did you mean "manifests"?
Run `mkq controller --help` for its commands.' -- controller manifest policy
expect flag 'mkq: error: unknown flag --auto-aprove for "mkq apply"; did you mean --auto-approve?
Run `mkq apply --help` for its flags.' -- apply --auto-aprove policy
expect flag-after-value 'mkq: error: unknown flag --sandbx for "mkq apply"; did you mean --sandbox?
Run `mkq apply --help` for its flags.' -- apply --qps 5 --sandbx
expect global-flag 'mkq: error: unknown flag --no-colr for "mkq"; did you mean --no-color?
Run `mkq --help` for its flags.' -- --no-colr check
expect no-match 'mkq: error: unknown command "xyzzy" for "mkq"
Run `mkq --help` for its commands.' -- xyzzy
expect no-match-flag 'mkq: error: unknown flag --zzzzzzzz for "mkq check"
Run `mkq check --help` for its flags.' -- check --zzzzzzzz
# Not an unknown word: CLI11's own message, as an error of mkq's.
expect missing-value 'mkq: error: --kubeconfig: 1 required TEXT missing
Run with --help for more information.' -- plan --kubeconfig
expect value-set 'mkq: error: SHELL: tcsh not in {bash,zsh,fish}
Run with --help for more information.' -- completion tcsh
# A number out of bounds, or not a number: said in words, not CLI11's range text.
expect qps-too-small 'mkq: error: --qps must be at least 0.1
Run with --help for more information.' -- plan --qps 0
expect qps-not-a-number 'mkq: error: --qps must be a number, not "fast"
Run with --help for more information.' -- plan --qps fast
expect parallelism-too-large 'mkq: error: --parallelism must be at most 256
Run with --help for more information.' -- apply --parallelism 1000
expect burst-whole 'mkq: error: --burst must be a whole number, not "1.5"
Run with --help for more information.' -- plan --burst 1.5
expect history-limit 'mkq: error: --limit must be at least 1
Run with --help for more information.' -- history --limit 0
expect fault-rate 'mkq: error: --fault-500-rate must be at most 1
Run with --help for more information.' -- sandbox status --fault-500-rate 2

# `render -o json` is a format given to -o: refused before anything is written.
root=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$work" && "$mkq" render -o json "$root/examples/quickstart" >"$work/out" 2>"$work/err")
status=$?
if [ $status -ne 1 ] || [ -e "$work/json" ] || [ "$(cat "$work/err")" != "mkq: error: -o takes a directory to write one file per cluster into, not a format; did you mean --format json?" ]; then
  echo "FAIL render-o-format: exit $status, stderr:"; cat "$work/err"; failures=$((failures + 1))
else
  echo "ok   render-o-format"
fi

# `render -o dir/all.yaml` names a file, not a directory: refused, nothing made.
(cd "$work" && "$mkq" render -o dir/all.yaml "$root/examples/quickstart" >"$work/out" 2>"$work/err")
status=$?
if [ $status -ne 1 ] || [ -e "$work/dir" ] || [ "$(cat "$work/err")" != "mkq: error: -o takes a directory to write one file per cluster into, not a file; to write every cluster into one file: mkq render PATH > dir/all.yaml" ]; then
  echo "FAIL render-o-file: exit $status, stderr:"; cat "$work/err"; failures=$((failures + 1))
else
  echo "ok   render-o-file"
fi

# A correct command line is untouched by the hint: --help exits 0.
if "$mkq" apply --help >"$work/out" 2>&1 && grep -q -- "--auto-approve" "$work/out"; then
  echo "ok   help"
else
  echo "FAIL help: apply --help did not list --auto-approve"; failures=$((failures + 1))
fi

[ $failures -eq 0 ] || { echo "$failures failed"; exit 1; }
