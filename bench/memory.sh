#!/usr/bin/env bash
# bench/memory.sh [MKQ] [RUNS]
# Peak memory of `mkq check`, as a multiple of its input. The input's cost is
# the peak resident memory less the baseline (`mkq check` of a policy of one
# line: the binary, its libraries and the allocator's first pages), divided by
# the input's size.
#
#   hostile input (bench/hostile): a 100 MB input of each kind, refused from
#     its size before it is read (E1018); inputs of exactly the size limit
#     (8 MiB), refused by the lexer's limits (E1016, E1019) or reported
#     unterminated (E1004). Target: at most 8 times the input, and under
#     300 MB whatever the input.
#   valid policies over 1 MB: the 10,000-queue policy of bench/generate
#     (2.46 MB, the size of check's speed target) and one of 15,000 queues
#     (3.7 MB). Target: at most 10 times the input.
#     Reported without a target: a list of 499,000 numbers (1 MB, just under
#     the token limit), the densest valid text, and every example (a few KB:
#     their cost is the baseline's, a ratio says nothing).
#
# Prints each input's peak resident memory (the median of RUNS runs, default
# 5, and the largest), the ratio of the median, and the median user+system CPU
# time (wall time suffers from other work on the machine; CPU time much less).
# Exits 1 when a run does not end as expected (exit code, error code), peaks at
# 300 MB or more, or its ratio is over its target. Needs GNU time
# (/usr/bin/time, Debian package `time`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"  # median
mkq=${1:-$here/../build/mkq}
runs=${2:-5}
limit_kib=292968  # 300 MB
hostile_ratio=8
valid_ratio=10
[ -x /usr/bin/time ] || { echo "bench/memory.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failed=0
baseline_kib=0
# measure LABEL FILE EXIT CODE MAX_RATIO: RUNS runs of `mkq check FILE` (a
# file or a policy directory, whose size is that of its .mkq files); each
# must exit EXIT (and, when CODE is not "-", report error CODE); the median
# peak's ratio must be at most MAX_RATIO ("-": no target). Sets $peak_kib.
measure() {
  local label=$1 file=$2 expected=$3 code=$4 max_ratio=$5 peaks=() cpus=() line i bytes ratio
  if [ -d "$file" ]; then bytes=$(cat "$file"/*.mkq | wc -c); else bytes=$(wc -c <"$file"); fi
  for ((i = 1; i <= runs; i++)); do
    /usr/bin/time -o "$work/time" -f "%U %S %M %x" "$mkq" --no-color check "$file" >/dev/null 2>"$work/err" || true
    line=$(tail -1 "$work/time")
    read -r user sys kib status <<<"$line"
    if [ "$status" != "$expected" ] || { [ "$code" != - ] && ! grep -q "error\[$code\]" "$work/err"; }; then
      echo "FAIL $label: exit $status, expected $expected (error code: ${code/#-/none})"
      head -3 "$work/err"
      failed=1
    fi
    if [ "$kib" -ge "$limit_kib" ]; then echo "FAIL $label: peak $kib KiB, over 300 MB"; failed=1; fi
    peaks+=("$kib") cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')")
  done
  peak_kib=$(printf '%s\n' "${peaks[@]}" | median)
  ratio=$(awk -v p="$peak_kib" -v b="$baseline_kib" -v n="$bytes" 'BEGIN {r = (p - b) * 1024 / n; if (r < 0) r = 0; printf "%.1f", r}')
  [ "$baseline_kib" = 0 ] && ratio=-  # measuring the baseline itself
  printf '%-30s %10d bytes  %-5s peak RSS median %6d KiB (max %6d)  %5s x input  cpu median %s s\n' \
    "$label" "$bytes" "${code/#-/ok}" "$peak_kib" "$(printf '%s\n' "${peaks[@]}" | sort -n | tail -1)" "$ratio" \
    "$(printf '%s\n' "${cpus[@]}" | median)"
  if [ "$max_ratio" != - ] && awk -v r="$ratio" -v m="$max_ratio" 'BEGIN {exit !(r > m)}'; then
    echo "FAIL $label: $ratio times the input, over the target of $max_ratio"
    failed=1
  fi
}

echo "mkq: $mkq, $runs runs each; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'manager "m" {}\n' >"$work/baseline.mkq"
measure "baseline (one line)" "$work/baseline.mkq" 0 - -
baseline_kib=$peak_kib

for kind in comment identifier string tokens; do
  "$here/hostile" "$kind" 104857600 >"$work/input.mkq"
  measure "$kind, 100 MB" "$work/input.mkq" 1 E1018 "$hostile_ratio"
done
for shape in comment:E1004 identifier:E1019 string:E1019 tokens:E1016; do
  "$here/hostile" "${shape%%:*}" 8388608 >"$work/input.mkq"
  measure "${shape%%:*}, 8 MiB" "$work/input.mkq" 1 "${shape#*:}" "$hostile_ratio"
done
rm -f "$work/input.mkq"

"$here/generate" --queues 10000 --workers 50 >"$work/policy.mkq"
measure "policy of 10,000 queues" "$work/policy.mkq" 0 - "$valid_ratio"
"$here/generate" --queues 15000 --workers 50 >"$work/policy.mkq"
measure "policy of 15,000 queues" "$work/policy.mkq" 0 - "$valid_ratio"
rm -f "$work/policy.mkq"
for example in "$here"/../examples/*/; do
  example=${example%/}
  measure "example ${example##*/}" "$example" 0 - -
done
awk 'BEGIN {printf "manager \"m\" {}\nlet numbers = [1"; for (i = 1; i < 499000; i++) printf ",1"; print "]"}' >"$work/dense.mkq"
measure "list of 499,000 numbers" "$work/dense.mkq" 0 - -
exit $failed
