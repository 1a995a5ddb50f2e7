#!/usr/bin/env bash
# bench/run.sh [MKQ] [QUEUES] [WORKERS] [RUNS] [COMMAND] [DISPATCH_TO]
# Times `mkq COMMAND` (check or render) on a generated policy: prints each
# run's wall time and peak resident memory, then the median. Defaults:
# build/mkq, 10000 queues, 50 workers, 5 runs, check, gpu (see bench/generate).
# Needs GNU time (/usr/bin/time, Debian package `time`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
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
times=()
for ((i = 1; i <= runs; i++)); do
  line=$( { /usr/bin/time -f "%e %M" "$mkq" "$command" "$policy" >/dev/null; } 2>&1 | tail -1)
  echo "run $i: ${line% *} s, peak RSS ${line#* } KiB"
  times+=("${line% *}")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " s"}'
