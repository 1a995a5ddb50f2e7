#!/usr/bin/env bash
# End to end (issue 6, item 3): rotation of a worker's token against the sandbox.
#   1. apply examples/quickstart with `credentials { lifetime = 1d, rotate_before = 12h }`
#      on the worker; the manager's Secret holds a kubeconfig whose token can list
#      Workloads on the worker
#   2. 13 hours later (MKQ_NOW moves mkq's clock) the plan rotates the Secret
#      ("expires within 12h"); apply stores a new token and the old one gets 401 at
#      once (its anchor Secret on the worker is deleted); the new one works; the
#      next plan has nothing to do
#   3. `mkq credentials rotate`: the previous token gets 401, the new one works
#   4. no token appears in any output of mkq or in the state
# Tokens are never printed: kubeconfigs are kept in 0600 files under $TMP.
# Usage: rotation_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: rotation_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)


. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup rotation
km() { k --context manager-cluster "$@"; }
has() { grep -Eq -- "$2" "$TMP/$1.out"; }

mkdir -p "$TMP/policy"
sed 's|^\(  secret = "worker1-secret".*\)$|\1\n  credentials { lifetime = 1d, rotate_before = 12h }|' \
  "$ROOT/examples/quickstart/policy.mkq" >"$TMP/policy/policy.mkq"
grep -q 'credentials { lifetime = 1d, rotate_before = 12h }' "$TMP/policy/policy.mkq" ||
  fail "could not add the credentials block to the quickstart policy"
P="$TMP/policy"
NOW=$(date -u -d '+13 hours' +%Y-%m-%dT%H:%M:%SZ)

# as_worker N NAME: `kubectl get workloads -A` on the worker with kubeconfig N; output in $TMP/NAME.{out,err}, code in $rc.
as_worker() {
  timeout 60 "$KUBECTL" --kubeconfig "$TMP/kc.$1" --cache-dir "$TMP/cache.$1" get workloads -A \
    >"$TMP/$2.out" 2>"$TMP/$2.err"
  rc=$?
}
works() {
  as_worker "$1" "$2"
  [ "$rc" = 0 ] || { show "$2"; fail "$3: kubeconfig $1 cannot list Workloads on the worker (exit $rc)"; }
}
refused() {
  as_worker "$1" "$2"
  [ "$rc" != 0 ] || { show "$2"; fail "$3: kubeconfig $1 still lists Workloads on the worker"; }
  grep -Eq 'Unauthorized|provide credentials' "$TMP/$2.err" ||
    { show "$2"; fail "$3: kubeconfig $1 failed, but not with 401 Unauthorized"; }
}

# 1. Apply; the issued kubeconfig works on the worker.
mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply exited $rc"; }
e2e_save_worker_kubeconfig 1
works 1 get1 "after the first apply"
pass "apply: the manager's Secret holds a kubeconfig that can list Workloads on the worker"

# 2. 13 hours later the token expires within 12h: the plan rotates it.
MKQ_NOW=$NOW mkq_run plan1 plan "$P"
[ "$rc" = 0 ] || { show plan1; fail "plan at $NOW exited $rc"; }
has plan1 'Secret kueue-system/worker1-secret \(token for multikueue-sa, expires [0-9-]+: expires within 12h\)' ||
  { show plan1; fail "the plan at +13h does not rotate worker1-secret (expires within 12h)"; }
pass "plan at +13h: worker1-secret rotates (expires within 12h)"

MKQ_NOW=$NOW mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply at $NOW exited $rc"; }
e2e_save_worker_kubeconfig 2
cmp -s "$TMP/token.1" "$TMP/token.2" && fail "apply at +13h did not store a new token"
refused 1 get2 "after the rotating apply"
works 2 get3 "after the rotating apply"
MKQ_NOW=$NOW mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan2; fail "plan --detailed-exitcode after the rotation exited $rc, expected 0"; }
mkq_run status1 status "$P" --wait=30s
[ "$rc" = 0 ] || { show status1; fail "status after the rotation exited $rc, expected 0"; }
pass "apply at +13h: the old token gets 401, the new one works, the next plan is empty, status Active"

# 3. `mkq credentials rotate` revokes the previous token at once.
sa_uid() { k --context multikueue-test-worker1 -n kueue-system get serviceaccount multikueue-sa -o 'jsonpath={.metadata.uid}'; }
uid_before=$(sa_uid) || fail "read the worker's ServiceAccount"
MKQ_NOW=$NOW mkq_run rotate1 credentials rotate "$P" --auto-approve
[ "$rc" = 0 ] || { show rotate1; fail "credentials rotate exited $rc"; }
grep -q 'worker1-secret' "$TMP/rotate1.out" || { show rotate1; fail "credentials rotate does not name worker1-secret"; }
[ "$(sa_uid)" = "$uid_before" ] || { show rotate1; fail "credentials rotate replaced the ServiceAccount"; }
e2e_save_worker_kubeconfig 3
cmp -s "$TMP/token.2" "$TMP/token.3" && fail "credentials rotate did not store a new token"
refused 2 get4 "after credentials rotate"
works 3 get5 "after credentials rotate"
MKQ_NOW=$NOW mkq_run plan3 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan3; fail "plan --detailed-exitcode after credentials rotate exited $rc, expected 0"; }
pass "credentials rotate: the previous token gets 401, the new one works"

# 4. No token in anything mkq wrote.
cat "$TMP/token.1" "$TMP/token.2" "$TMP/token.3" >"$TMP/tokens"
for f in "$TMP"/*.out "$TMP"/*.err "$TMP"/state.db*; do
  [ -f "$f" ] || continue
  grep -aqF -f "$TMP/tokens" "$f" && fail "a token appears in $(basename "$f")"
done
pass "no token in mkq's output or the state"
exit 0
