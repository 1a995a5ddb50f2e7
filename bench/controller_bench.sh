#!/usr/bin/env bash
# bench/controller_bench.sh [MKQ] [CYCLES]
# Issue 14's performance target for `mkq controller`, against `mkq sandbox` on
# this machine: the 20-cluster fleet of apply_bench.sh (a manager and 19
# workers, about 200 objects each), applied once; then one controller with
# --interval 1s reconciles it with no changes, CYCLES times (default 100)
# after 10 cycles of warm-up. Reported: the wall time of a cycle (the plan's
# duration, from /metrics: compile, refresh, plan and verify), the controller
# process's CPU time per cycle (/proc/PID/stat), its RSS between cycles (read
# in the second the controller rests after each run, when it has given back
# what the run freed: memory.h) after the warm-up and at the end, and its
# peak RSS (VmHWM); beside them, `mkq plan` of the same fleet three times,
# under the same load. The sandbox runs on the same machine: its CPU is not
# counted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkq=$(realpath "${1:-$here/../build/mkq}")
cycles=${2:-100}
tmp=$(mktemp -d)
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  "$mkq" sandbox down --dir "$tmp/sb" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
export HOME=$tmp NO_COLOR=1
unset KUBECONFIG
clusters_of() { "$mkq" render "$1" 2>/dev/null | sed -n 's/^# cluster: \([^ ]*\) .*/\1/p' | awk '!seen[$0]++' | paste -sd, -; }
fast=(--qps 100000 --burst 100000 --parallelism 16)
target=(--sandbox --sandbox-dir "$tmp/sb" --state "$tmp/state.db")

mkdir -p "$tmp/policy"
"$here/generate" --queues 66 --workers 19 --dispatch-to all --namespaces >"$tmp/policy/policy.mkq"
objects=$("$mkq" render "$tmp/policy" 2>/dev/null | grep -c '^kind: ')
"$mkq" sandbox up --dir "$tmp/sb" --clusters "$(clusters_of "$tmp/policy")" >/dev/null
"$mkq" apply "$tmp/policy" --auto-approve "${target[@]}" "${fast[@]}" >"$tmp/apply.log" 2>&1 ||
  { tail -20 "$tmp/apply.log"; exit 1; }

# The same fleet's `mkq plan` (no changes), under the same load: the reference a cycle compares with.
plans=()
for _ in 1 2 3; do
  start=$(date +%s%N)
  "$mkq" plan "$tmp/policy" --detailed-exitcode "${target[@]}" "${fast[@]}" >/dev/null 2>&1 || { echo "plan found changes"; exit 1; }
  plans+=($((($(date +%s%N) - start) / 1000000)))
done

"$mkq" controller --policy "$tmp/policy" "${target[@]}" "${fast[@]}" --sync auto --interval 1s --no-leader-elect \
  --listen 127.0.0.1:0 >"$tmp/controller.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'on http://' "$tmp/controller.log" && break; sleep 0.1; done
url="$(grep -o 'http://127.0.0.1:[0-9]*' "$tmp/controller.log" | head -1)/metrics"
metric() { curl -s "$url" | awk -v s="$1" '$1 == s { print $2 }'; }
runs() { metric 'mkq_controller_runs_total{result="success"}'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
hwm_kb() { awk '/^VmHWM/ { print $2 }' "/proc/$pid/status"; }
# Returns in the rest after the next run: the run is counted, then it gives
# its memory back and naps a second (--interval 1s is shorter than a cycle).
next_rest() {
  local n
  n=$(runs)
  while [ "$(runs)" -le "$n" ]; do sleep 0.05; done
  sleep 0.5
}

while [ "$(runs)" -lt 10 ]; do sleep 0.2; done
next_rest
runs0=$(runs)
cpu0=$(cpu_ticks)
rss0=$(rss_kb)
hwm0=$(hwm_kb)
walls=()
series=""
while [ "$(runs)" -lt $((runs0 + cycles)) ]; do
  next_rest
  walls+=("$(metric mkq_controller_plan_duration_seconds)")
  [ $((($(runs) - runs0) % 10)) = 0 ] && series="$series $(($(rss_kb) / 1024))"
done
runs1=$(runs)
cpu1=$(cpu_ticks)
rss1=$(rss_kb)
hwm1=$(hwm_kb)
[ "$(metric 'mkq_controller_changes_applied_total{kind="policy"}')" = 0 ] || { echo "the fleet was not unchanged"; exit 1; }
hz=$(getconf CLK_TCK)
/usr/bin/python3 - "$objects" "$runs0" "$runs1" "$cpu0" "$cpu1" "$hz" "$rss0" "$rss1" "$hwm0" "$hwm1" "${walls[@]}" <<'PY'
import statistics, sys
objects, runs0, runs1, cpu0, cpu1, hz, rss0, rss1, hwm0, hwm1 = (float(x) for x in sys.argv[1:11])
walls = sorted(float(w) for w in sys.argv[11:])
n = runs1 - runs0
print("controller, 20 clusters, %d objects, no changes: %d cycles after 10 of warm-up" % (objects, n))
print("  wall per cycle (plan): median %.3f s, max %.3f s" % (statistics.median(walls), walls[-1]))
print("  CPU per cycle (the controller's): %.3f s" % ((cpu1 - cpu0) / hz / n))
print("  RSS between cycles: %.1f MiB after warm-up, %.1f MiB after %d cycles (%+.1f %%)" % (rss0 / 1024,
      rss1 / 1024, n, 100 * (rss1 - rss0) / rss0))
print("  peak RSS (VmHWM): %.1f MiB after warm-up, %.1f MiB after %d cycles (%+.1f %%)" % (hwm0 / 1024,
      hwm1 / 1024, n, 100 * (hwm1 - hwm0) / hwm0))
PY
echo "  RSS every 10 cycles (MiB):$series"
echo "  mkq plan of the same fleet, same load (ms): ${plans[*]}"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
