#!/usr/bin/env bash
# bench/fleet_bench.sh [MKQ] [RUNS] [WORKERS] [QUEUES]
# Issue 19's fleet: a manager and 100 workers, 2,000 queues
# (`bench/generate --dispatch-to groups --namespaces`: five dispatches of 20
# workers, 400 queues on each worker). Times, RUNS times each (default 5), the
# whole mkq process of
#   check   mkq check
#   render  mkq render (all clusters, to /dev/null)
#   plan    mkq plan --detailed-exitcode against a sandbox of the 101 clusters
#           (one sandbox process), after one apply: a plan with no changes
# and prints each run's wall time, CPU time (user + system) and peak RSS, then
# the medians. The apply that fills the sandbox is timed once, for the record.
# Needs GNU time (/usr/bin/time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkq=$(realpath "${1:-$here/../build/mkq}")
runs=${2:-5}
workers=${3:-100}
queues=${4:-2000}
. "$here/lib.sh"
bench_setup "$mkq"

mkdir -p "$tmp/fleet"
"$here/generate" --queues "$queues" --workers "$workers" --dispatch-to groups --namespaces >"$tmp/fleet/policy.mkq"
clusters=$(clusters_of "$tmp/fleet")
objects=$("$mkq" render "$tmp/fleet" 2>/dev/null | grep -c '^kind: ')
largest=$("$mkq" render "$tmp/fleet" 2>/dev/null | awk '/^# cluster: /{c=$3} /^kind: /{n[c]++} END {m=0; for (k in n) if (n[k]>m) m=n[k]; print m}')
echo "fleet: $(tr ',' '\n' <<<"$clusters" | wc -l) clusters, $queues queues, $objects objects (largest cluster: $largest)"

# timed NAME EXPECTED_EXIT COMMAND...: RUNS runs; prints each and the medians.
timed() {
  local name=$1 expected=$2
  shift 2
  local walls=() cpus=() rss=()
  for ((i = 1; i <= runs; i++)); do
    local start code=0
    start=$(ms)
    /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$@" >"$tmp/out" 2>"$tmp/err" || code=$?
    local took=$(($(ms) - start))
    [ "$code" = "$expected" ] || { tail -20 "$tmp/out" "$tmp/err"; echo "$name: exit $code (expected $expected)"; exit 1; }
    local cpu mib
    cpu=$(cpu_ms "$tmp/time")
    mib=$(peak_mib "$tmp/time")
    local extra=""
    if grep -q 'refresh.*LISTs' "$tmp/err"; then
      extra=", $(refresh_counts "$tmp/err")"
    fi
    echo "  $name run $i: ${took} ms, CPU ${cpu} ms, peak RSS ${mib} MiB${extra}"
    walls+=("$took") cpus+=("$cpu") rss+=("$mib")
  done
  echo "  $name median: $(printf '%s\n' "${walls[@]}" | median) ms, CPU $(printf '%s\n' "${cpus[@]}" | median) ms," \
    "peak RSS $(printf '%s\n' "${rss[@]}" | median) MiB"
}

timed check 0 "$mkq" check "$tmp/fleet"
timed render 0 "$mkq" render "$tmp/fleet"

"$mkq" sandbox up --dir "$tmp/sb" --clusters "$clusters" >/dev/null
start=$(ms)
"$mkq" apply "$tmp/fleet" --auto-approve --sandbox --sandbox-dir "$tmp/sb" --state "$tmp/fleet.db" \
  >"$tmp/apply.log" 2>&1 || { tail -20 "$tmp/apply.log"; exit 1; }
echo "  apply (once, to fill the sandbox): $(($(ms) - start)) ms; $(tail -1 "$tmp/apply.log")"
timed plan 0 "$mkq" plan "$tmp/fleet" --detailed-exitcode -v --sandbox --sandbox-dir "$tmp/sb" --state "$tmp/fleet.db"
pid=$(sandbox_pid "$tmp/sb")
[ -n "$pid" ] && [ -r "/proc/$pid/status" ] && echo "  sandbox process ($(tr "," "\n" <<<"$clusters" | wc -l) clusters): $(grep -E 'VmHWM|VmRSS|Threads' "/proc/$pid/status" | tr -s ' \t' ' ' | paste -sd, -)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
