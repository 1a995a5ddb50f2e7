#!/usr/bin/env bash
# End to end (issue 12, item 3): an interrupted credential rotation is finished
# by the next apply, against the sandbox.
#   1. apply examples/quickstart: the manager's Secret holds token 1, bound to
#      anchor A1 on the worker
#   2. the state a `mkq credentials rotate` killed right after storing the new
#      Secret leaves, made step by step with kubectl as the rotation makes it:
#      a new anchor A2 on the worker, token 2 bound to it (TokenRequest), and
#      the manager's Secret rewritten with token 2 (annotations naming A2, the
#      digest of the new kubeconfig) -- while A1 stays, so token 1 still works
#   3. `mkq plan --detailed-exitcode` shows "revoke the previous token of
#      multikueue-test-worker1" (A1) and exits 2; `mkq status` counts 2 live
#      tokens and warns
#   4. `mkq apply` revokes it: token 1 gets 401, token 2 works; the next plan
#      exits 0 and status counts 1
#   5. a token issued by a run killed before storing it (anchor A3, token 3,
#      the Secret untouched): the plan (saved with --out) revokes it as never
#      stored; after applying the saved plan token 3 gets 401 and token 2
#      still works
#   6. `mkq credentials rotate` with another unstored token (A4): it shows the
#      revocation with the rotation; afterwards only the new token works
#   7. no token appears in any output of mkq or in the state
# Tokens are never printed: they are kept in 0600 files under $TMP.
# Usage: rotation_interrupt_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: rotation_interrupt_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup rotation_interrupt
km() { k --context manager-cluster "$@"; }
kw() { k --context multikueue-test-worker1 -n kueue-system "$@"; }
has() { grep -Eq -- "$2" "$TMP/$1.out"; }
WORKER=multikueue-test-worker1

mkdir -p "$TMP/policy"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"

# as_worker TOKENFILE NAME: `kubectl get workloads -A` on the worker with that token only; output in
# $TMP/NAME.{out,err}, code in $rc. The token goes through a kubeconfig file, never the command line.
as_worker() {
  /usr/bin/python3 - "$TMP/kc.1" "$1" "$TMP/kc.probe" <<'EOF' || fail "cannot build a kubeconfig for $1"
import re, sys
kubeconfig = open(sys.argv[1]).read()
token = open(sys.argv[2]).read().strip()
open(sys.argv[3], "w").write(re.sub(r'(?m)^(\s*token:\s*)\S+\s*$', lambda m: m.group(1) + token, kubeconfig))
EOF
  timeout 60 "$KUBECTL" --kubeconfig "$TMP/kc.probe" --cache-dir "$TMP/cache.probe" get workloads -A \
    >"$TMP/$2.out" 2>"$TMP/$2.err"
  rc=$?
  rm -f "$TMP/kc.probe"
}
works() {
  as_worker "$1" "$2"
  [ "$rc" = 0 ] || { show "$2"; fail "$3: $(basename "$1") cannot list Workloads on the worker (exit $rc)"; }
}
refused() {
  as_worker "$1" "$2"
  [ "$rc" != 0 ] || { show "$2"; fail "$3: $(basename "$1") still lists Workloads on the worker"; }
  grep -Eq 'Unauthorized|provide credentials' "$TMP/$2.err" ||
    { show "$2"; fail "$3: $(basename "$1") failed, but not with 401 Unauthorized"; }
}
# new_anchor NAME LIKE: an anchor Secret like anchor LIKE (labels, annotation, owner) named NAME on the
# worker; prints its uid.
new_anchor() {
  kw get secret "$2" -o json >"$TMP/a1.json" || fail "read anchor $2"
  /usr/bin/python3 - "$TMP/a1.json" "$1" >"$TMP/anchor.json" <<'EOF' || fail "cannot make anchor $1"
import json, sys
anchor = json.load(open(sys.argv[1]))
meta = anchor["metadata"]
for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"):
    meta.pop(key, None)
meta["name"] = sys.argv[2]
print(json.dumps(anchor))
EOF
  kw create -f "$TMP/anchor.json" >/dev/null || fail "create anchor $1"
  kw get secret "$1" -o 'jsonpath={.metadata.uid}'
}
# token_for ANCHOR UID FILE: a token of multikueue-sa bound to the anchor (TokenRequest, as mkq asks), into FILE.
token_for() {
  kw create token multikueue-sa --bound-object-kind Secret --bound-object-name "$1" --bound-object-uid "$2" \
    --duration 720h >"$3" 2>"$TMP/token.err" || { cat "$TMP/token.err"; fail "request a token bound to $1"; }
}
anchor_count() { kw get secrets -l mkq.dev/credential-anchor=multikueue-sa -o name | wc -l; }

# 1. Apply; token 1 works on the worker.
mkq_run apply1 apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply1; fail "apply exited $rc"; }
e2e_save_worker_kubeconfig 1
A1=$(km -n kueue-system get secret worker1-secret -o 'jsonpath={.metadata.annotations.mkq\.dev/credential-anchor}')
[ -n "$A1" ] || fail "worker1-secret names no anchor"
works "$TMP/token.1" get1 "after the first apply"
[ "$(anchor_count)" = 1 ] || fail "expected one anchor after the first apply"
pass "apply: token 1, bound to anchor $A1, lists Workloads on the worker"

# 2. A rotation killed right after it stored the new Secret: A2, token 2 in the Secret, A1 still there.
A2="${A1%-*}-0000a002"
uid2=$(new_anchor "$A2" "$A1")
token_for "$A2" "$uid2" "$TMP/token.2"
/usr/bin/python3 - "$TMP/secret.json" "$TMP/kc.1" "$TMP/token.2" "$A2" "$TMP/rotated.json" <<'EOF' || fail "cannot write the rotated Secret"
import base64, datetime, hashlib, json, re, sys
secret = json.load(open(sys.argv[1]))
kubeconfig = re.sub(r'(?m)^(\s*token:\s*)\S+\s*$', lambda m: m.group(1) + open(sys.argv[3]).read().strip(),
                    open(sys.argv[2]).read())
meta = secret["metadata"]
for key in ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"):
    meta.pop(key, None)
expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=30)
meta["annotations"].update({
    "mkq.dev/credential-anchor": sys.argv[4],
    "mkq.dev/credential-digest": "sha256:" + hashlib.sha256(kubeconfig.encode()).hexdigest(),
    "mkq.dev/credential-expires": expires.strftime("%Y-%m-%dT%H:%M:%SZ"),
})
secret["data"] = {"kubeconfig": base64.b64encode(kubeconfig.encode()).decode()}
json.dump(secret, open(sys.argv[5], "w"))
EOF
km apply --server-side --field-manager mkq --force-conflicts -f "$TMP/rotated.json" >/dev/null 2>"$TMP/rotated.err" ||
  { cat "$TMP/rotated.err"; fail "store the rotated Secret"; }
rm -f "$TMP/rotated.json" "$TMP/secret.json"
e2e_save_worker_kubeconfig 2
works "$TMP/token.2" get2 "the rotated Secret's token"
works "$TMP/token.1" get3 "the previous token, not yet revoked"
[ "$(anchor_count)" = 2 ] || fail "expected two anchors after the interrupted rotation"
pass "interrupted rotation reproduced: the Secret holds token 2 (anchor $A2), token 1 (anchor $A1) still works"

# 3. The plan finishes it: a change of its own, exit 2.
mkq_run plan1 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan1; fail "plan --detailed-exitcode exited $rc, expected 2 (changes pending)"; }
has plan1 "^  - Secret kueue-system/$A1 \(revoke the previous token of $WORKER\)\$" ||
  { show plan1; fail "the plan does not revoke the previous token ($A1)"; }
has plan1 '^Plan: 0 to add, 0 to change, 1 to destroy\.$' || { show plan1; fail "the plan is not 1 to destroy"; }
grep -q "$A2" "$TMP/plan1.out" && { show plan1; fail "the plan touches the anchor in use ($A2)"; }
mkq_run status1 status "$P"
has status1 "^  $WORKER +kueue-system/multikueue-sa +2 \(a previous token still works\)\$" ||
  { show status1; fail "status does not count 2 live tokens on $WORKER"; }
grep -q "^mkq: warning: $WORKER has 2 live tokens of serviceaccount kueue-system/multikueue-sa: a previous token still works; \`mkq apply\` revokes it\$" "$TMP/status1.err" ||
  { show status1; fail "status does not warn of 2 live tokens"; }
pass "plan shows 'revoke the previous token of $WORKER' and exits 2; status counts 2 live tokens and warns"

# 4. Apply revokes it.
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply after the interrupted rotation exited $rc"; }
has apply2 '^Apply complete! Resources: 0 added, 0 changed, 1 destroyed\.$' || { show apply2; fail "apply did not complete 1 destroyed"; }
refused "$TMP/token.1" get4 "after apply"
works "$TMP/token.2" get5 "after apply"
[ "$(anchor_count)" = 1 ] || fail "expected one anchor after apply"
mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan2; fail "plan --detailed-exitcode after apply exited $rc, expected 0"; }
mkq_run status2 status "$P"
[ "$rc" = 0 ] || { show status2; fail "status after apply exited $rc"; }
has status2 "^  $WORKER +kueue-system/multikueue-sa +1\$" || { show status2; fail "status does not count 1 live token"; }
grep -q warning "$TMP/status2.err" && { show status2; fail "status still warns"; }
pass "apply revokes it: token 1 gets 401, token 2 works, the next plan is empty, status counts 1"

# 5. A token issued by a run killed before it stored it: anchor A3 and token 3, the Secret untouched.
sleep 1  # A3 is newer than A2 (creationTimestamp has seconds)
A3="${A1%-*}-0000a003"
uid3=$(new_anchor "$A3" "$A2")
token_for "$A3" "$uid3" "$TMP/token.3"
works "$TMP/token.3" get6 "the unstored token"
mkq_run plan3 plan "$P" --detailed-exitcode --out "$TMP/revoke.plan"
[ "$rc" = 2 ] || { show plan3; fail "plan with an unstored token exited $rc, expected 2"; }
has plan3 "^  - Secret kueue-system/$A3 \(revoke a token of $WORKER that an interrupted run issued and never stored\)\$" ||
  { show plan3; fail "the plan does not revoke the unstored token ($A3)"; }
mkq_run apply3 apply "$TMP/revoke.plan" --auto-approve
[ "$rc" = 0 ] || { show apply3; fail "apply of the saved plan with an unstored token exited $rc"; }
refused "$TMP/token.3" get7 "the unstored token after apply"
works "$TMP/token.2" get8 "the stored token after apply"
mkq_run plan4 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan4; fail "plan --detailed-exitcode after the second apply exited $rc, expected 0"; }
pass "a token never stored is revoked by the next apply, of a saved plan (401); the stored one keeps working"

# 6. `mkq credentials rotate` finishes an interrupted run too: it shows the revocation with the rotation.
sleep 1
A4="${A1%-*}-0000a004"
uid4=$(new_anchor "$A4" "$A2")
token_for "$A4" "$uid4" "$TMP/token.4"
mkq_run rotate1 credentials rotate "$P" --auto-approve
[ "$rc" = 0 ] || { show rotate1; fail "credentials rotate with an unstored token exited $rc"; }
has rotate1 "^  - Secret kueue-system/$A4 \(revoke a token of $WORKER that an interrupted run issued and never stored\)\$" ||
  { show rotate1; fail "credentials rotate does not show the revocation of $A4"; }
e2e_save_worker_kubeconfig 5
refused "$TMP/token.4" get9 "the unstored token after credentials rotate"
refused "$TMP/token.2" get10 "the rotated token after credentials rotate"
works "$TMP/token.5" get11 "the new token after credentials rotate"
[ "$(anchor_count)" = 1 ] || fail "expected one anchor after credentials rotate"
mkq_run plan5 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan5; fail "plan --detailed-exitcode after credentials rotate exited $rc, expected 0"; }
pass "credentials rotate revokes the unstored token with the rotated one; only the new token works"

# 7. No token in anything mkq wrote.
cat "$TMP/token.1" "$TMP/token.2" "$TMP/token.3" "$TMP/token.4" "$TMP/token.5" >"$TMP/tokens"
for f in "$TMP"/*.out "$TMP"/*.err "$TMP"/state.db*; do
  [ -f "$f" ] || continue
  case "$f" in "$TMP"/get*) continue ;; esac  # kubectl's own output with the token
  grep -aqF -f "$TMP/tokens" "$f" && fail "a token appears in $(basename "$f")"
done
pass "no token in mkq's output or the state"
exit 0
