#!/usr/bin/env bash
# bench/plan_bench.sh BEFORE AFTER [RUNS] [FLEET]
# A plan with no changes, two builds of mkq alternated against one sandbox
# (BEFORE's `mkq sandbox`, filled once by BEFORE's apply), with the defaults a
# user gets:
#   FLEET=small (default): 20 clusters, about 200 objects each
#     (`bench/generate --queues 66 --workers 19 --dispatch-to all --namespaces`);
#   FLEET=fleet: 101 clusters, 97,000 objects (`--queues 2000 --workers 100
#     --dispatch-to groups --namespaces`; the apply that fills it takes minutes).
# Prints, for each run of each build, the wall time, mkq's CPU (user + system),
# the sandbox's CPU during the plan (from /proc; it includes its background
# controllers), mkq's peak RSS and the LISTs and requests `-v` counted; then
# each build's medians and the load. Each build has its own copy of the state.
# Needs GNU time (/usr/bin/time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
before=$(realpath "${1:?usage: bench/plan_bench.sh BEFORE AFTER [RUNS] [small|fleet]}")
after=$(realpath "${2:?usage: bench/plan_bench.sh BEFORE AFTER [RUNS] [small|fleet]}")
runs=${3:-5}
fleet=${4:-small}
. "$here/lib.sh"
bench_setup "$before"

mkdir -p "$tmp/p"
case $fleet in
  small) "$here/generate" --queues 66 --workers 19 --dispatch-to all --namespaces >"$tmp/p/policy.mkq" ;;
  fleet) "$here/generate" --queues 2000 --workers 100 --dispatch-to groups --namespaces >"$tmp/p/policy.mkq" ;;
  *) echo "FLEET is small or fleet" >&2; exit 2 ;;
esac
clusters=$(clusters_of "$tmp/p")
objects=$("$before" render "$tmp/p" 2>/dev/null | grep -c '^kind: ')
"$before" sandbox up --dir "$tmp/sb" --clusters "$clusters" >/dev/null
pid=$(sandbox_pid "$tmp/sb")
start=$(ms)
"$before" apply "$tmp/p" --auto-approve --sandbox --sandbox-dir "$tmp/sb" --state "$tmp/before.db" \
  >"$tmp/apply.log" 2>&1 || { tail -20 "$tmp/apply.log"; exit 1; }
echo "$fleet: $(tr ',' '\n' <<<"$clusters" | wc -l) clusters, $objects objects; apply (once, BEFORE): $(($(ms) - start)) ms"
cp "$tmp/before.db" "$tmp/after.db"
sleep 2  # the sandbox's controllers settle

declare -A walls cpus sbcpus rss
for ((i = 1; i <= runs; i++)); do
  for which in before after; do
    mkq=$before
    [ "$which" = after ] && mkq=$after
    sb0=$(cpu_of "$pid")
    t0=$(ms)
    code=0
    /usr/bin/time -o "$tmp/time" -f "%U %S %M" "$mkq" plan "$tmp/p" --detailed-exitcode -v --sandbox \
      --sandbox-dir "$tmp/sb" --state "$tmp/$which.db" >"$tmp/out" 2>"$tmp/err" || code=$?
    took=$(($(ms) - t0))
    sb=$(($(cpu_of "$pid") - sb0))
    [ "$code" = 0 ] || { tail -20 "$tmp/out" "$tmp/err"; echo "$which: plan exit $code (expected 0: no changes)"; exit 1; }
    cpu=$(cpu_ms "$tmp/time")
    mib=$(peak_mib "$tmp/time")
    counts=$(refresh_counts "$tmp/err")
    echo "  run $i $which: ${took} ms, mkq CPU ${cpu} ms, sandbox CPU ${sb} ms, peak RSS ${mib} MiB, ${counts}"
    walls[$which]+="$took " cpus[$which]+="$cpu " sbcpus[$which]+="$sb " rss[$which]+="$mib "
  done
done
for which in before after; do
  m() { tr ' ' '\n' <<<"$1" | grep . | median; }
  echo "median $which: $(m "${walls[$which]}") ms, mkq CPU $(m "${cpus[$which]}") ms," \
    "sandbox CPU $(m "${sbcpus[$which]}") ms, peak RSS $(m "${rss[$which]}") MiB"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
