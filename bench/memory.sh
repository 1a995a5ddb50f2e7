#!/usr/bin/env bash
# bench/memory.sh [MKQ] [RUNS]
# Peak memory of `mkq check` on hostile input (bench/hostile): a 100 MB input of
# each kind, refused from its size before it is read (E1018), and inputs of
# exactly the size limit (8 MiB), refused by the lexer's limits or, for the
# comment, reported unterminated. Prints each input's peak resident memory and
# wall time (the median of RUNS runs, default 5, and the largest peak); exits 1
# when a run does not refuse the input with the expected code, or peaks at
# 300 MB (300,000,000 bytes) or more. Needs GNU time (/usr/bin/time, Debian
# package `time`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkq=${1:-$here/../build/mkq}
runs=${2:-5}
limit_kib=292968  # 300 MB
[ -x /usr/bin/time ] || { echo "bench/memory.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
failed=0
# measure KIND BYTES CODE: RUNS runs of `mkq check` on the input; each must exit 1 with CODE.
measure() {
  local kind=$1 bytes=$2 code=$3 file="$work/$1-$2.mkq" peaks=() times=() line i
  "$here/hostile" "$kind" "$bytes" >"$file"
  for ((i = 1; i <= runs; i++)); do
    /usr/bin/time -o "$work/time" -f "%e %M %x" "$mkq" --no-color check "$file" >/dev/null 2>"$work/err" || true
    line=$(tail -1 "$work/time")
    read -r seconds kib status <<<"$line"
    if [ "$status" != 1 ] || ! grep -q "error\[$code\]" "$work/err"; then
      echo "FAIL $kind $bytes bytes: exit $status, expected 1 with $code:"; head -3 "$work/err"; failed=1
    fi
    if [ "$kib" -ge "$limit_kib" ]; then echo "FAIL $kind $bytes bytes: peak $kib KiB, over 300 MB"; failed=1; fi
    peaks+=("$kib") times+=("$seconds")
  done
  printf '%-10s %10d bytes  %s  peak RSS median %6d KiB (max %6d)  time median %s s\n' "$kind" "$bytes" "$code" \
    "$(printf '%s\n' "${peaks[@]}" | median)" "$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1)" \
    "$(printf '%s\n' "${times[@]}" | median)"
  rm -f "$file"
}

echo "mkq: $mkq, $runs runs each"
for kind in comment identifier string tokens; do measure "$kind" 104857600 E1018; done
measure comment 8388608 E1004
measure identifier 8388608 E1019
measure string 8388608 E1019
measure tokens 8388608 E1016
exit $failed
