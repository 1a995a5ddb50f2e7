#!/usr/bin/env bash
# End to end (issue 14, the controller's reason to exist): worker tokens of 40 s, rotated 30 s before
# they expire, a controller in sync manual with a 10 s interval. Over 3 minutes it rotates at least
# three times, and every sample of `mkq status` (one every 2 s) finds every object Active, the
# MultiKueueCluster included: no sample is inactive.
# Usage: controller_rotation_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: controller_rotation_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DURATION=${CONTROLLER_ROTATION_SECONDS:-180}

. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/controller_common.sh"
e2e_require_clients
e2e_setup controller-rotation
WORKER_EXTRA='  credentials { lifetime = 40s, rotate_before = 30s }'
controller_fleet --allow-short-tokens
grep -q 'lifetime = 40s' "$P/policy.mkq" || fail "could not add the credentials block to the policy"

start_controller c --sync manual --interval 10s
samples=0
inactive=0
end=$(($(date +%s) + DURATION))
while [ "$(date +%s)" -lt "$end" ]; do
  timeout 30 "$MKQ" status "$P" --sandbox-dir "$SB" >"$TMP/status.out" 2>"$TMP/status.err"
  code=$?
  samples=$((samples + 1))
  if [ "$code" != 0 ]; then
    inactive=$((inactive + 1))
    echo "    sample $samples at $(date +%T) is not all Active:"
    sed 's/^/      /' "$TMP/status.out" "$TMP/status.err" | grep -v ' True ' | head -8
  fi
  sleep 2
done
rotations=$(metric c 'mkq_controller_changes_applied_total{kind="credential"}')
events CredentialRotated >"$TMP/rotated.txt"
[ "$inactive" = 0 ] || { tail -30 "$TMP/c.log"; fail "$inactive of $samples samples of mkq status were not all Active"; }
[ "${rotations:-0}" -ge 3 ] || { tail -30 "$TMP/c.log"; fail "only ${rotations:-0} rotations in $DURATION s"; }
[ "$(wc -l <"$TMP/rotated.txt")" -ge 3 ] || { cat "$TMP/rotated.txt"; fail "fewer than 3 CredentialRotated events"; }
pass "$rotations rotations in $DURATION s (sync manual); all $samples samples of mkq status Active"
exit 0
