#!/usr/bin/env bash
# `mkq sandbox status` tells a script whether the sandbox runs: exit 0 while it
# runs, 3 once it is stopped (the table printed all the same), 1 where there is
# no sandbox at all.
set -u
MKQ=${1:?usage: sandbox_status_test.sh MKQ}
MKQ=$(realpath "$MKQ")
. "$(dirname "$0")/common.sh"
e2e_setup sandbox-status

status() {
  timeout 30 "$MKQ" sandbox status --dir "$1" >"$TMP/status.out" 2>"$TMP/status.err"
  rc=$?
}

status "$TMP/none"
[ "$rc" = 1 ] || { show status; fail "status of a directory without a sandbox exited $rc, not 1"; }
grep -q "^mkq: error: no sandbox in $TMP/none" "$TMP/status.err" || { show status; fail "no sandbox: message"; }
pass "no sandbox: exit 1 with the error"

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager --no-kueue >"$TMP/up.out" 2>&1 ||
  { cat "$TMP/up.out"; fail "sandbox up"; }
status "$SB"
[ "$rc" = 0 ] || { show status; fail "status of a running sandbox exited $rc, not 0"; }
grep -q "^sandbox $SB: running (pid [0-9]*)$" "$TMP/status.out" || { show status; fail "running: first line"; }
grep -q "^manager  *[0-9][0-9]*  *ready " "$TMP/status.out" || { show status; fail "running: the cluster's line"; }
pass "running: exit 0, the cluster ready"

# `up` asking a running sandbox for a cluster it does not serve fails at once
# (it used to wait out the 30 s start-up deadline first).
start=$(date +%s)
timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager,worker9 --no-kueue >"$TMP/up2.out" 2>"$TMP/up2.err"
rc=$? took=$(($(date +%s) - start))
[ "$rc" = 1 ] || { cat "$TMP/up2.out" "$TMP/up2.err"; fail "up of a cluster the running sandbox lacks exited $rc, not 1"; }
grep -qF "mkq: error: the sandbox in $SB already runs manager, not worker9: stop it first with \`mkq sandbox down --dir $SB\`" \
  "$TMP/up2.err" || { cat "$TMP/up2.err"; fail "up of a missing cluster: message"; }
[ "$took" -lt 10 ] || fail "up of a missing cluster took ${took}s"
pass "up of a cluster the running sandbox lacks: exit 1 at once, saying what runs"

timeout 30 "$MKQ" sandbox down --dir "$SB" >"$TMP/down.out" 2>&1 || { cat "$TMP/down.out"; fail "sandbox down"; }
status "$SB"
[ "$rc" = 3 ] || { show status; fail "status of a stopped sandbox exited $rc, not 3"; }
grep -q "^sandbox $SB: stopped$" "$TMP/status.out" || { show status; fail "stopped: first line"; }
grep -q "^manager  *[0-9][0-9]*  *stopped " "$TMP/status.out" || { show status; fail "stopped: the cluster's line"; }
[ ! -s "$TMP/status.err" ] || { show status; fail "stopped: something on stderr"; }
pass "stopped: exit 3, the table on stdout, nothing on stderr"
