#!/usr/bin/env bash
# input_limits_test.sh MKQ — input limits before memory (issue 12): a 100 MB
# input (an unterminated comment, one long identifier, a list of tokens) is
# refused by `mkq check` from its size, naming the size and the limit, with a
# peak resident memory under 300 MB; so is such a file given to `mkq fmt`, read
# through /dev/stdin or imported (the error then at the import). Inputs of
# exactly the size limit (8 MiB) are refused by the lexer's limits under
# 300 MB too, and within 8 times their size over the baseline of a policy of
# one line. Peak memory is a resource limit, not a timing: measured with
# getrusage() of the finished child. Exit 0 pass, 1 fail, 77 skipped.
set -u
mkq=${1:?usage: input_limits_test.sh MKQ}
here=$(cd "$(dirname "$0")" && pwd)
hostile="$here/../../bench/hostile"
python=$(command -v python3 || true)
[ -n "$python" ] || { echo "SKIPPED: python3 not found (it measures the peak memory)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0
limit_kib=292968  # 300 MB (300,000,000 bytes)

# run NAME ARGS...: `mkq ARGS` with stdin from $stdin (default /dev/null);
# stdout and stderr in NAME.out / NAME.err, the exit code in $rc and the
# peak resident memory in KiB in $peak.
run() {
  local name=$1
  shift
  read -r rc peak < <("$python" - "$name" "${stdin:-/dev/null}" "$mkq" "$@" <<'PY'
import resource, subprocess, sys
name, stdin = sys.argv[1], sys.argv[2]
with open(stdin, "rb") as i, open(name + ".out", "wb") as o, open(name + ".err", "wb") as e:
    code = subprocess.run(sys.argv[3:], stdin=i, stdout=o, stderr=e).returncode
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
)
}
fail() { echo "FAIL $1"; sed 's/^/    /' "$2.err" | head -8; failures=$((failures + 1)); }
# expect NAME PATTERN: exit 1, stderr matching PATTERN (grep -E), peak under 300 MB, no crash.
expect() {
  local name=$1 pattern=$2
  if [ "$rc" != 1 ]; then fail "$name: exit $rc, expected 1" "$name"; return; fi
  if ! grep -qE -- "$pattern" "$name.err"; then fail "$name: stderr does not match '$pattern'" "$name"; return; fi
  if grep -qiE "terminate called|exception|internal error" "$name.err"; then fail "$name: looks like a crash" "$name"; return; fi
  if [ "$peak" -ge "$limit_kib" ]; then fail "$name: peak memory $peak KiB, not under 300 MB" "$name"; return; fi
  if [ -n "${within_kib:-}" ] && [ "$peak" -gt "$within_kib" ]; then
    fail "$name: peak memory $peak KiB, over $within_kib KiB (8 times the input over the baseline)" "$name"
    return
  fi
  echo "ok   $name (peak $peak KiB)"
}

big=104857600  # 100 MB
refused="error\[E1018\]: .*is $big bytes; the limit is 8388608 bytes$"
for kind in comment identifier tokens; do
  "$hostile" "$kind" "$big" >policy.mkq
  run "check-$kind" --no-color check policy.mkq
  expect "check-$kind" "^policy.mkq:1:1: $refused"
done

# The same file to fmt, through /dev/stdin, and imported.
run fmt --no-color fmt --check policy.mkq
expect fmt "^policy.mkq:1:1: $refused"
stdin=policy.mkq run stdin --no-color check /dev/stdin
expect stdin "^/dev/stdin:1:1: $refused"
mkdir p
mv policy.mkq p/big.mkq
printf 'import "big.mkq" as big\nmanager "m" {}\n' >p/main.mkq
run import --no-color check p/main.mkq
expect import "^p/main.mkq:1:8: $refused"
rm -f p/big.mkq

# Exactly the size limit: read, then refused by the lexer's limits, at a cost
# of at most 8 times the input over the baseline (`mkq check` of a policy of
# one line), as bench/memory.sh measures it.
printf 'manager "m" {}\n' >baseline.mkq
run baseline --no-color check baseline.mkq
[ "$rc" = 0 ] || fail "baseline: exit $rc, expected 0" baseline
within_kib=$((peak + 8 * 8192))  # the baseline and 8 times 8 MiB
at_limit() {
  "$hostile" "$1" 8388608 >policy.mkq
  run "limit-$1" --no-color check policy.mkq
  expect "limit-$1" "$2"
}
at_limit identifier "error\[E1019\]: identifier is 8388604 bytes long; the limit is 1048576 bytes$"
at_limit string "error\[E1019\]: string is 8388598 bytes long; the limit is 1048576 bytes$"
at_limit tokens "error\[E1016\]: file is too large: more than 1000000 tokens$"
at_limit comment "error\[E1004\]: unterminated block comment$"

[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "PASS: 100 MB inputs refused from their size, inputs at the limit refused by the lexer within 8 times their size, all under 300 MB"
