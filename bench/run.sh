#!/usr/bin/env bash
# bench/run.sh [MKQ] [QUEUES] [WORKERS] [RUNS] [COMMAND] [DISPATCH_TO]
# Times `mkq COMMAND` (check or render) on a generated policy: prints each
# run's wall time, CPU time (user + system: on a machine busy with other work,
# wall time grows and CPU time much less) and peak resident memory, then the
# medians. Defaults:
# build/mkq, 10000 queues, 50 workers, 5 runs, check, gpu (see bench/generate).
# Needs GNU time (/usr/bin/time, Debian package `time`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"  # median
mkq=${1:-$here/../build/mkq}
queues=${2:-10000} workers=${3:-50} runs=${4:-5} command=${5:-check} dispatch_to=${6:-gpu}
[ -x /usr/bin/time ] || { echo "bench/run.sh needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
policy=$(mktemp --suffix=.mkq)
trap 'rm -f "$policy"' EXIT
"$here/generate" --queues "$queues" --workers "$workers" --dispatch-to "$dispatch_to" >"$policy"
echo "policy: $queues queues, $workers workers (dispatch to $dispatch_to), $(wc -c <"$policy") bytes"
"$mkq" "$command" "$policy" >/dev/null  # warm the page cache; must succeed
if [ "$command" = render ]; then
  echo "objects rendered: $("$mkq" render "$policy" | grep -c '^kind: ')"
fi
times=() cpus=()
for ((i = 1; i <= runs; i++)); do
  read -r wall user sys kib < <( { /usr/bin/time -f "%e %U %S %M" "$mkq" "$command" "$policy" >/dev/null; } 2>&1 | tail -1)
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  echo "run $i: $wall s, CPU $cpu s, peak RSS $kib KiB"
  times+=("$wall") cpus+=("$cpu")
done
echo "median: $(printf '%s\n' "${times[@]}" | median) s, CPU $(printf '%s\n' "${cpus[@]}" | median) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
