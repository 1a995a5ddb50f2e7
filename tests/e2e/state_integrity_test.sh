#!/usr/bin/env bash
# End to end (issue 12, the state is verified on open): examples/quickstart
# applied twice (the second run keeps the state as state.db.backup); then the
# inventory's root page of the state is zeroed. plan, apply, destroy, state
# list and history all refuse it (exit 1) with a message naming the file and
# the backup, and nothing changes on the clusters (resourceVersions). A
# zero-byte state is refused alike by plan and apply and stays empty. The
# backup, copied back as the message says, restores it: plan exits 0.
# Usage: state_integrity_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: state_integrity_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup state_integrity
km() { k --context manager-cluster "$@"; }
kw() { k --context multikueue-test-worker1 "$@"; }
# The resourceVersions of a few objects on both clusters, one line.
versions() {
  echo "$(km get clusterqueue cluster-queue -o jsonpath='{.metadata.resourceVersion}')" \
    "$(km -n kueue-system get secret worker1-secret -o jsonpath='{.metadata.resourceVersion}')" \
    "$(km get multikueueconfig multikueue-test -o jsonpath='{.metadata.resourceVersion}')" \
    "$(kw get clusterqueue cluster-queue -o jsonpath='{.metadata.resourceVersion}')" \
    "$(kw get clusterrolebinding multikueue-sa-crb -o jsonpath='{.metadata.resourceVersion}')"
}
S="$TMP/state.db"

mkdir -p "$TMP/policy"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"

mkq_run apply1 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply1; fail "first apply exited $rc"; }
[ -e "$S.backup" ] && fail "a new state (nothing recorded before) left a backup"
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "second apply exited $rc"; }
[ -f "$S.backup" ] || fail "the second apply kept no backup at $S.backup"
[ "$(stat -c %a "$S.backup")" = 600 ] || fail "the backup is $(stat -c %a "$S.backup"), expected 600"
pass "an apply keeps the previous state as state.db.backup, owner-only"

before=$(versions)
case "$before" in *[0-9]*\ *[0-9]*\ *[0-9]*\ *[0-9]*\ *[0-9]*) ;; *) fail "cannot read the resourceVersions: '$before'" ;; esac
/usr/bin/python3 - "$S" <<'EOF' || fail "zero the inventory's root page"
import sqlite3, sys
path = sys.argv[1]
db = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'inventory'").fetchone()[0]
size = db.execute("PRAGMA page_size").fetchone()[0]
db.close()
with open(path, "r+b") as f:
    f.seek((root - 1) * size)
    f.write(b"\0" * size)
EOF

restore="restore it with: cp $S.backup $S"
refused() {  # NAME: exit 1, the file named as damaged, the way back given
  [ "$rc" = 1 ] || { show "$1"; fail "$1 of a damaged state: exit $rc, expected 1"; }
  grep -q "^mkq: error: state $S: damaged: " "$TMP/$1.err" || { show "$1"; fail "$1 does not say the state is damaged"; }
  grep -q -F "$restore" "$TMP/$1.err" || { show "$1"; fail "$1 does not say how to restore the backup"; }
}
mkq_run plan plan "$P"
refused plan
grep -q "to change\|missing from the state" "$TMP/plan.out" && { show plan; fail "plan of a damaged state planned"; }
mkq_run apply apply "$P" --auto-approve
refused apply
mkq_run destroy destroy "$P" --auto-approve
refused destroy
timeout 60 "$MKQ" state list --state "$S" >"$TMP/list.out" 2>"$TMP/list.err"
rc=$?
refused list
timeout 60 "$MKQ" history --state "$S" >"$TMP/history.out" 2>"$TMP/history.err"
rc=$?
refused history
after=$(versions)
[ "$after" = "$before" ] || fail "the clusters changed under a damaged state: '$before' -> '$after'"
pass "a damaged state is refused by plan, apply, destroy, state list and history; the clusters untouched"

# A zero-byte state: the same refusal from plan and apply, and it stays empty.
cp "$S" "$TMP/damaged.db"
: >"$S"
mkq_run plan0 plan "$P"
mkq_run apply0 apply "$P" --auto-approve
empty="mkq: error: state $S: not an mkq state: empty file; if no state is meant to be there, delete it to start afresh: rm $S"
for name in plan0 apply0; do
  [ "$(cat "$TMP/$name.err" | grep '^mkq: error:')" = "$empty" ] || { show "$name"; fail "$name of an empty state"; }
done
[ -s "$S" ] && fail "apply wrote into an empty state file"
[ "$(versions)" = "$before" ] || fail "the clusters changed under an empty state"
pass "an empty state is refused alike by plan and apply, and left empty"

cp "$S.backup" "$S"
mkq_run restored plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show restored; fail "plan after restoring the backup: exit $rc, expected 0"; }
pass "the backup, copied back, restores the state"
