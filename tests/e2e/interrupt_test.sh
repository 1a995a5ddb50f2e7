#!/usr/bin/env bash
# End to end (issue 11, interrupts): a policy of about 2,000 objects
# (bench/generate --queues 330 --workers 2 --namespaces) applied to the sandbox.
#   1. SIGINT in the middle of the apply (once some objects were created): mkq
#      starts nothing new, finishes what is in flight, writes the state and
#      exits 130 listing per cluster what was done and what is left; history
#      says interrupted; the next plan shows no "missing from the state" and
#      plans exactly the changes left; a second apply completes
#   2. SIGTERM twice in the middle of a destroy: the second stops mkq at once
#      (exit 130); the state stays sound and the next destroy completes
# Usage: interrupt_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: interrupt_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_cleanup() { [ -n "${BG:-}" ] && kill -9 "$BG" 2>/dev/null; }
e2e_setup interrupt
has() { grep -q -E -- "$2" "$TMP/$1.out"; }
# The number of lines of FILE matching REGEX.
lines() {
  local n
  n=$(grep -c -E -- "$2" "$1" 2>/dev/null)
  echo "${n:-0}"
}
# start_bg NAME ARGS...: mkq ARGS in the background (SIGINT at its default
# action: a script's background jobs otherwise start with it ignored); its pid in BG.
start_bg() {
  local name=$1
  shift
  env --default-signal=INT "$MKQ" "$@" --sandbox-dir "$SB" --state "$TMP/state.db" \
    >"$TMP/$name.out" 2>"$TMP/$name.err" &
  BG=$!
}
# wait_for_lines FILE REGEX N: until FILE has N lines matching REGEX (at most 30 s).
wait_for_lines() {
  for _ in $(seq 300); do
    [ "$(lines "$1" "$2")" -ge "$3" ] && return 0
    kill -0 "$BG" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
finish_bg() {
  wait "$BG"
  rc=$?
  BG=
}

mkdir -p "$TMP/p"
"$ROOT/bench/generate" --queues 330 --workers 2 --namespaces >"$TMP/p/policy.mkq" || fail "bench/generate"
P="$TMP/p"
clusters=$(timeout 60 "$MKQ" render "$P" | sed -n 's/^# cluster: \([^ ]*\) .*/\1/p' | awk '!seen[$0]++' | paste -sd, -)
objects=$(timeout 60 "$MKQ" render "$P" | grep -c '^kind: ')
[ "$objects" -ge 1900 ] || fail "the generated policy renders $objects objects, expected about 2,000"
timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters "$clusters" >"$TMP/up.log" 2>&1 || { cat "$TMP/up.log"; fail "sandbox up"; }

# 1. SIGINT in the middle of the apply (200 requests per second per cluster: a
# few seconds in all; the signal comes after 100 objects).
start_bg apply1 apply "$P" --auto-approve --qps 200 --burst 20
wait_for_lines "$TMP/apply1.err" ' created$' 100 || { finish_bg; show apply1; fail "the apply created no 100 objects (exit $rc)"; }
kill -INT "$BG"
finish_bg
[ "$rc" = 130 ] || { show apply1; fail "apply after SIGINT: exit $rc, expected 130"; }
grep -q "^mkq: interrupted: starting no new changes" "$TMP/apply1.err" || { show apply1; fail "no notice of the interrupt"; }
headline=$(grep -E "^Apply interrupted: " "$TMP/apply1.out")
[[ "$headline" =~ ^Apply\ interrupted:\ ([0-9]+)\ of\ ([0-9]+)\ changes\ done\ \(([0-9]+)\ added,\ 0\ changed,\ 0\ destroyed\),\ ([0-9]+)\ not\ started\.$ ]] ||
  { show apply1; fail "no headline 'Apply interrupted: N of M changes done (...), K not started.'"; }
done_count=${BASH_REMATCH[1]} planned=${BASH_REMATCH[2]} left=${BASH_REMATCH[4]}
[ "$planned" = "$objects" ] || { show apply1; fail "the apply planned $planned changes, the policy has $objects objects"; }
[ "$done_count" -ge 100 ] && [ "$left" -gt 0 ] && [ $((done_count + left)) = "$planned" ] ||
  { show apply1; fail "done ($done_count) and not started ($left) do not add up to $planned"; }
[ "$(lines "$TMP/apply1.err" ' created$')" = "$done_count" ] || { show apply1; fail "the progress lines do not match the $done_count changes done"; }
for c in ${clusters//,/ }; do
  grep -q -E "^  $c +[0-9]+ done(, [0-9]+ not started)?$" "$TMP/apply1.out" || { show apply1; fail "no summary line for $c"; }
done
has apply1 "^Next: apply what is left" || { show apply1; fail "no next step"; }
grep -q "^  mkq apply $P " "$TMP/apply1.out" || { show apply1; fail "the next step is not an apply command"; }
timeout 60 "$MKQ" history --state "$TMP/state.db" >"$TMP/history1.out" 2>&1
awk 'NR == 2 { print $4 }' "$TMP/history1.out" | grep -q '^interrupted$' || { cat "$TMP/history1.out"; fail "history does not show the run interrupted"; }
locks=$(/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM lock").fetchone()[0])' "$TMP/state.db")
[ "$locks" = 0 ] || fail "the interrupted apply did not release the lock"
pass "SIGINT mid-apply: exit 130 after $done_count of $planned changes, $left not started, history interrupted, lock released"

mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan2; fail "plan after the interrupted apply: exit $rc, expected 2"; }
grep -q "missing from the state" "$TMP/plan2.out" && { show plan2; fail "the plan after the interrupt finds objects missing from the state"; }
has plan2 "^Plan: $left to add, 0 to change, 0 to destroy\.$" || { show plan2; fail "the plan after the interrupt does not plan exactly the $left changes left"; }
mkq_run apply2 apply "$P" --auto-approve --qps 100000 --burst 100000 --parallelism 16
[ "$rc" = 0 ] || { show apply2; fail "the apply after the interrupt: exit $rc"; }
has apply2 "^Apply complete! Resources: $left added, 0 changed, 0 destroyed\.$" || { show apply2; fail "the apply after the interrupt did not add the $left objects left"; }
mkq_run plan3 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan3; fail "plan after the second apply: exit $rc"; }
pass "after the interrupt: no 'missing from the state', the plan adds exactly the $left left, a second apply completes"

# 2. SIGTERM twice during a destroy: the second ends mkq at once. The sandbox
# answers each request 300 ms late, so that the second signal comes while
# requests are in flight (and before anything is printed).
sandbox_up() {
  timeout 60 "$MKQ" sandbox down --dir "$SB" >/dev/null 2>&1
  timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters "$clusters" "$@" >"$TMP/up.log" 2>&1 || { cat "$TMP/up.log"; fail "sandbox up $*"; }
}
sandbox_up --fault-latency-ms 300
start_bg destroy1 destroy "$P" --auto-approve
wait_for_lines "$TMP/destroy1.err" ' deleted$' 20 || { finish_bg; show destroy1; fail "the destroy deleted no 20 objects (exit $rc)"; }
kill -TERM "$BG"
sleep 0.1
kill -TERM "$BG" 2>/dev/null
finish_bg
[ "$rc" = 130 ] || { show destroy1; fail "destroy after two SIGTERMs: exit $rc, expected 130"; }
grep -q "^mkq: interrupted: starting no new changes" "$TMP/destroy1.err" && grep -q "^mkq: stopped at once" "$TMP/destroy1.err" ||
  { show destroy1; fail "no notice of each signal"; }
grep -q "^Destroy " "$TMP/destroy1.out" && { show destroy1; fail "the second signal did not stop the destroy at once (it printed its outcome)"; }
/usr/bin/python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' \
  "$TMP/state.db" >"$TMP/integrity.txt" 2>&1
[ "$(cat "$TMP/integrity.txt")" = ok ] || fail "integrity_check after the second signal: $(cat "$TMP/integrity.txt")"
sandbox_up
mkq_run destroy2 destroy "$P" --auto-approve --qps 100000 --burst 100000 --parallelism 16
[ "$rc" = 0 ] || { show destroy2; fail "the destroy after the abort: exit $rc"; }
has destroy2 "^Destroy complete! " || { show destroy2; fail "the destroy after the abort: no 'Destroy complete!'"; }
pass "two SIGTERMs mid-destroy: exit 130 at once, the state sound, the next destroy completes"
exit 0
