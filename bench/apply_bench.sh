#!/usr/bin/env bash
# bench/apply_bench.sh [MKQ] [RUNS] [KUBECTL]
# Issue 5's two benchmarks, against `mkq sandbox` on this machine, with the
# defaults a user gets (no --qps, --burst or --parallelism):
#  (a) `mkq plan` with no changes, 20 clusters (a manager and 19 workers, about
#      200 objects each): wall time of each run, the LISTs and all the requests
#      it sent (from -v);
#  (b) `mkq apply` of about 2,000 objects to a fresh sandbox, and in the same
#      run `kubectl apply --server-side -f` of the same rendered objects to
#      another fresh sandbox: both wall times and their ratio.
# TUNED="--parallelism 32" (any flags) adds to each run of (b) an apply with
# those flags to a third fresh sandbox, reported as a row of its own.
# Each measurement is repeated RUNS times (default 3) and the median printed,
# with the CPU time (user + system) of the mkq process alone: on a machine
# busy with other work, wall time grows and CPU time much less. Needs GNU time
# (/usr/bin/time, Debian package `time`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkq=$(realpath "${1:-$here/../build/mkq}")
runs=${2:-3}
kubectl=${3:-/usr/bin/kubectl}
. "$here/lib.sh"
bench_setup "$mkq"
read -r -a tuned <<<"${TUNED:-}"

# (a) a plan with no changes: 20 clusters x ~200 objects.
mkdir -p "$tmp/a"
"$here/generate" --queues 66 --workers 19 --dispatch-to all --namespaces >"$tmp/a/policy.mkq"
objects=$("$mkq" render "$tmp/a" 2>/dev/null | grep -c '^kind: ')
"$mkq" sandbox up --dir "$tmp/sba" --clusters "$(clusters_of "$tmp/a")" >/dev/null
"$mkq" apply "$tmp/a" --auto-approve --sandbox --sandbox-dir "$tmp/sba" --state "$tmp/a.db" \
  >"$tmp/a-apply.log" 2>&1 || { tail -20 "$tmp/a-apply.log"; exit 1; }
echo "(a) plan with no changes: 20 clusters, $objects objects"
times=() cpus=()
for ((i = 1; i <= runs; i++)); do
  start=$(ms)
  code=0
  /usr/bin/time -o "$tmp/a-plan.time" -f "%U %S" \
    "$mkq" plan "$tmp/a" --detailed-exitcode -v --sandbox --sandbox-dir "$tmp/sba" --state "$tmp/a.db" \
    >"$tmp/a-plan.out" 2>"$tmp/a-plan.err" || code=$?
  took=$(($(ms) - start))
  [ "$code" = 0 ] || { cat "$tmp/a-plan.out" "$tmp/a-plan.err" | tail -20; echo "plan found changes (exit $code)"; exit 1; }
  lists=$(sed -n 's/.*refresh.*(\([0-9]*\) LISTs.*/\1/p' "$tmp/a-plan.err")
  requests=$(sed -n 's/.*refresh.*, \([0-9]*\) requests in all).*/\1/p' "$tmp/a-plan.err")
  echo "  run $i: ${took} ms, ${lists} LISTs, ${requests} requests, mkq CPU $(cpu_ms "$tmp/a-plan.time") ms"
  times+=("$took") cpus+=("$(cpu_ms "$tmp/a-plan.time")")
done
echo "  median: $(printf '%s\n' "${times[@]}" | median) ms, mkq CPU $(printf '%s\n' "${cpus[@]}" | median) ms"

# (b) apply ~2,000 objects to a fresh sandbox: mkq, then kubectl with the same objects.
mkdir -p "$tmp/b"
"$here/generate" --queues 330 --workers 2 --dispatch-to gpu --namespaces >"$tmp/b/policy.mkq"
"$mkq" render "$tmp/b" -o "$tmp/b-out" >/dev/null 2>&1
clusters=$(clusters_of "$tmp/b")
objects=$(cat "$tmp/b-out"/*.yaml | grep -c '^kind: ')
echo "(b) apply of $objects objects ($clusters), fresh sandbox each run"
mkq_times=() kubectl_times=() mkq_cpus=() tuned_times=()
# timed_apply NAME FLAGS...: mkq apply to a fresh sandbox; sets took (ms).
timed_apply() {
  local name=$1
  shift
  "$mkq" sandbox up --dir "$tmp/sb$name" --clusters "$clusters" >/dev/null
  local start
  start=$(ms)
  /usr/bin/time -o "$tmp/b-apply.time" -f "%U %S" "$mkq" apply "$tmp/b" --auto-approve -v --sandbox \
    --sandbox-dir "$tmp/sb$name" --state "$tmp/b$name.db" "$@" \
    >"$tmp/b-apply.log" 2>&1 || { tail -20 "$tmp/b-apply.log"; exit 1; }
  took=$(($(ms) - start))
  "$mkq" sandbox down --dir "$tmp/sb$name" >/dev/null
}
for ((i = 1; i <= runs; i++)); do
  timed_apply "m$i"
  mkq_ms=$took
  [ "$i" = 1 ] && grep -E '^mkq: [a-z0-9-]+: (server|client-side) ' "$tmp/b-apply.log" | sed 's/^/  /' || true
  "$mkq" sandbox up --dir "$tmp/sbk$i" --clusters "$clusters" >/dev/null
  start=$(ms)
  for c in ${clusters//,/ }; do
    "$kubectl" --kubeconfig "$tmp/sbk$i/kubeconfig" --context "$c" --cache-dir "$tmp/cache$i" \
      apply --server-side --field-manager mkq -f "$tmp/b-out/$c.yaml" >/dev/null
  done
  kubectl_ms=$(($(ms) - start))
  "$mkq" sandbox down --dir "$tmp/sbk$i" >/dev/null
  mkq_cpu=$(cpu_ms "$tmp/b-apply.time")
  line="  run $i: mkq apply ${mkq_ms} ms (mkq CPU ${mkq_cpu} ms), kubectl apply --server-side ${kubectl_ms} ms"
  if [ ${#tuned[@]} -gt 0 ]; then
    timed_apply "t$i" "${tuned[@]}"
    tuned_times+=("$took")
    line+=", tuned (${tuned[*]}) ${took} ms"
  fi
  echo "$line"
  mkq_times+=("$mkq_ms") mkq_cpus+=("$mkq_cpu")
  kubectl_times+=("$kubectl_ms")
done
m=$(printf '%s\n' "${mkq_times[@]}" | median)
k=$(printf '%s\n' "${kubectl_times[@]}" | median)
echo "  median: mkq ${m} ms (mkq CPU $(printf '%s\n' "${mkq_cpus[@]}" | median) ms), kubectl ${k} ms," \
  "kubectl/mkq = $(awk -v k="$k" -v m="$m" 'BEGIN {printf "%.1f", k / m}')x"
if [ ${#tuned[@]} -gt 0 ]; then
  t=$(printf '%s\n' "${tuned_times[@]}" | median)
  echo "  median, tuned (${tuned[*]}): mkq ${t} ms, kubectl/mkq = $(awk -v k="$k" -v m="$t" 'BEGIN {printf "%.1f", k / m}')x"
fi
