#!/usr/bin/env bash
# End to end (issue 19.1, 16.5): the sandbox announces API Priority and
# Fairness, and mkq paces each cluster by what it announces.
#  1. apply -v of examples/quickstart: every cluster is named with "server
#     announces API Priority and Fairness; no client-side rate limit";
#  2. plan -v --qps 5: the explicit limit holds, and says the server announces APF;
#  3. kubectl -v=8 sees the two headers; the admin (system:masters) is in the
#     exempt flow schema, a service account's token in another, by other UIDs;
#  4. `mkq sandbox up --apf-concurrency N` restarts with that limit and still serves;
#  5. servers that answer 429 to a tenth of the PATCHes: the apply is complete,
#     and apply -v says how many changes ran at once on each cluster (the
#     manager's, with the most changes, cut from --parallelism's 16).
# Usage: pacing_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: pacing_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
e2e_cleanup() { [ -d "$TMP/sb2" ] && timeout 60 "$MKQ" sandbox down --dir "$TMP/sb2" >/dev/null 2>&1; }

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup pacing
[ -x /usr/bin/curl ] || { echo "SKIPPED: /usr/bin/curl not found"; exit 77; }
P="$ROOT/examples/quickstart"
apf_line="server announces API Priority and Fairness; no client-side rate limit"

# 1. The defaults against a server that announces APF.
mkq_run apply apply "$P" --auto-approve -v
[ "$rc" = 0 ] || { show apply; fail "apply -v of examples/quickstart"; }
for cluster in manager-cluster multikueue-test-worker1; do
  grep -qxF "mkq: $cluster: $apf_line" "$TMP/apply.err" || { show apply; fail "apply -v names $cluster's regime"; }
done
grep -q "does not announce\|as --qps/--burst ask" "$TMP/apply.err" && { show apply; fail "no other regime without --qps"; }
grep -q "refresh .*LISTs, [0-9]* requests in all)" "$TMP/apply.err" || { show apply; fail "refresh counts its requests"; }
pass "apply -v: both clusters announce APF, no client-side limit"

# 2. An explicit --qps holds (and bursts one second's worth).
mkq_run plan plan "$P" -v --qps 5 --detailed-exitcode
[ "$rc" = 0 ] || { show plan; fail "plan with no changes, exit 0 (got $rc)"; }
grep -qxF "mkq: manager-cluster: client-side limit 5 requests/s, bursts of 5 as --qps/--burst ask (the server announces API Priority and Fairness)" \
  "$TMP/plan.err" || { show plan; fail "plan -v --qps 5 names the explicit limit"; }
pass "plan -v --qps 5: the explicit limit holds"

# 3. The headers, as kubectl and curl see them.
k -v=8 get namespaces >"$TMP/kubectl.out" 2>"$TMP/kubectl.err" || { cat "$TMP/kubectl.err"; fail "kubectl get namespaces"; }
grep -qi "X-Kubernetes-Pf-Flowschema-Uid: [0-9a-f-]\{36\}" "$TMP/kubectl.err" || fail "kubectl -v=8 sees X-Kubernetes-PF-FlowSchema-UID"
grep -qi "X-Kubernetes-Pf-Prioritylevel-Uid: [0-9a-f-]\{36\}" "$TMP/kubectl.err" || fail "kubectl -v=8 sees X-Kubernetes-PF-PriorityLevel-UID"
server=$(k config view --minify --context manager-cluster -o jsonpath='{.clusters[0].cluster.server}')
k --context manager-cluster create serviceaccount pacing-robot -n default >/dev/null || fail "create a service account"
token=$(k --context manager-cluster create token pacing-robot -n default) || fail "a token for it"
uids() { grep -i '^X-Kubernetes-Pf-' | tr -d '\r' | sort; }
admin=$(curl -s --cacert "$SB/ca.crt" --cert "$SB/admin.crt" --key "$SB/admin.key" -D - -o /dev/null "$server/api" | uids)
robot=$(curl -s --cacert "$SB/ca.crt" -H "Authorization: Bearer $token" -D - -o /dev/null "$server/api" | uids)
again=$(curl -s --cacert "$SB/ca.crt" -H "Authorization: Bearer $token" -D - -o /dev/null "$server/version" | uids)
[ "$(echo "$admin" | grep -c .)" = 2 ] || fail "the admin's answer names a flow schema and a priority level: $admin"
[ "$(echo "$robot" | grep -c .)" = 2 ] || fail "the service account's answer names both: $robot"
[ "$admin" != "$robot" ] || fail "system:masters (exempt) and a service account (workload-low) are classified alike"
[ "$robot" = "$again" ] || fail "one user's flow has stable UIDs: $robot / $again"
pass "kubectl and curl see the headers; exempt and workload-low differ"

# 4. --apf-concurrency restarts the sandbox with that limit.
timeout 60 "$MKQ" sandbox down --dir "$SB" >/dev/null || fail "sandbox down"
timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager-cluster,multikueue-test-worker1 --apf-concurrency 1 >/dev/null ||
  fail "sandbox up --apf-concurrency 1"
tr '\0' ' ' </proc/"$(cat "$SB/sandbox.pid")"/cmdline | grep -q -- "--apf-concurrency 1" ||
  fail "the serving process runs with --apf-concurrency 1"
mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan2; fail "plan after the restart, exit 0 (got $rc)"; }
pass "sandbox up --apf-concurrency 1 serves; the admin (exempt) is not limited"

# 5. 429s: each cluster's changes at once are cut by its own server's answers.
mkdir -p "$TMP/many"
"$ROOT/bench/generate" --queues 20 --workers 2 --dispatch-to all --namespaces >"$TMP/many/policy.mkq" ||
  fail "bench/generate"
clusters=$(timeout 60 "$MKQ" render "$TMP/many" | sed -n 's/^# cluster: \([^ ]*\) .*/\1/p' | awk '!seen[$0]++' | paste -sd, -)
# 429 (Retry-After: 1) to a tenth of the PATCHes (server-side apply): with
# about 45 changes per cluster, some cluster meets one but for a chance of 1e-6.
timeout 60 "$MKQ" sandbox up --dir "$TMP/sb2" --clusters "$clusters" --fault-429-rate 0.1 --fault-verbs patch \
  >"$TMP/up2.log" 2>&1 || { cat "$TMP/up2.log"; fail "sandbox up with 429s"; }
timeout 300 "$MKQ" apply "$TMP/many" --auto-approve -v --sandbox-dir "$TMP/sb2" --state "$TMP/many.db" \
  >"$TMP/many.out" 2>"$TMP/many.err" || { cat "$TMP/many.out" "$TMP/many.err"; fail "apply under 429s"; }
grep -q "^Apply complete!" "$TMP/many.out" || { cat "$TMP/many.out"; fail "apply under 429s is complete"; }
cut=0
for cluster in $(tr ',' ' ' <<<"$clusters"); do
  line=$(grep "^mkq: $cluster: " "$TMP/many.err" | grep "changes at once") ||
    { cat "$TMP/many.err"; fail "apply -v says how many of $cluster's changes ran at once"; }
  case $line in
    "mkq: $cluster: up to 16 changes at once; the server turned none away") ;;
    "mkq: $cluster: the server answered 429 "[0-9]*" time"*" (each tried again): changes at once cut "[1-9]*" time"*" from 16, to "[0-9]*" at the lowest, "[0-9]*" at the end")
      cut=$((cut + 1))
      lowest=$(sed -n 's/.* to \([0-9]*\) at the lowest.*/\1/p' <<<"$line")
      [ "$lowest" -le 8 ] || fail "a cut halves: $line" ;;
    *) fail "apply -v: unexpected line: $line" ;;
  esac
done
[ "$cut" -ge 1 ] || { cat "$TMP/many.err"; fail "no cluster's changes at once were cut"; }
pass "apply under 429s: complete; -v says how many changes ran at once per cluster ($cut cut)"
