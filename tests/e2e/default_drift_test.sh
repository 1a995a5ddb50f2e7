#!/usr/bin/env bash
# End to end (issue 11, drift on defaulted fields): examples/quickstart applied
# to the sandbox, whose policy leaves every ClusterQueue and LocalQueue field
# below at Kueue's default.
#   1. kubectl sets the manager ClusterQueue's stopPolicy: Hold and
#      queueingStrategy: StrictFIFO: `mkq plan --detailed-exitcode` exits 2 and
#      shows both as drift with Kueue's defaults; apply restores both (kubectl
#      shows the defaults); the next plan exits 0
#   2. a nested default (the worker ClusterQueue's preemption.reclaimWithinCohort)
#      and one of another kind (the manager LocalQueue's stopPolicy): the same
#   3. a defaulted field set to its default with kubectl is no drift
# Usage: default_drift_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: default_drift_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup default-drift
km() { k --context manager-cluster "$@"; }
kw() { k --context multikueue-test-worker1 "$@"; }
# expect_line NAME TEXT: the output of run NAME has a line equal to TEXT.
expect_line() { grep -q -x -F -- "$2" "$TMP/$1.out" || { show "$1"; fail "no line '$2' in the output of $1"; }; }

mkdir -p "$TMP/policy"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"

mkq_run apply1 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply1; fail "first apply exited $rc"; }
mkq_run plan1 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan1; fail "plan after the first apply: exit $rc, expected 0"; }

# 1. stopPolicy: Hold stops the queue; StrictFIFO changes its order. The policy sets neither.
km patch clusterqueue cluster-queue --type merge -p '{"spec":{"stopPolicy":"Hold","queueingStrategy":"StrictFIFO"}}' \
  >/dev/null || fail "kubectl patch stopPolicy and queueingStrategy"
mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan2; fail "plan after the patch: exit $rc, expected 2"; }
expect_line plan2 "  ~ ClusterQueue cluster-queue (drift: queueingStrategy and stopPolicy differ from Kueue's defaults, which the policy leaves)"
expect_line plan2 '      ~ spec.queueingStrategy: "StrictFIFO" -> "BestEffortFIFO" (Kueue'"'"'s default)'
expect_line plan2 '      ~ spec.stopPolicy: "Hold" -> "None" (Kueue'"'"'s default)'
expect_line plan2 "# cluster multikueue-test-worker1 (worker): no changes"
expect_line plan2 "Plan: 0 to add, 1 to change, 0 to destroy."
mkq_run apply2 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply2; fail "apply of the repair exited $rc"; }
got=$(km get clusterqueue cluster-queue -o jsonpath='{.spec.stopPolicy} {.spec.queueingStrategy}')
[ "$got" = "None BestEffortFIFO" ] || fail "apply did not restore Kueue's defaults: '$got'"
mkq_run plan3 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan3; fail "plan after the repair: exit $rc, expected 0"; }
expect_line plan3 "No changes. Every cluster matches the policy."
pass "stopPolicy: Hold and queueingStrategy: StrictFIFO planned as drift with Kueue's defaults, repaired; the next plan is clean"

# 2. A nested default on the worker's queue and a LocalQueue's default on the manager.
kw patch clusterqueue cluster-queue --type merge -p '{"spec":{"preemption":{"reclaimWithinCohort":"Any"}}}' \
  >/dev/null || fail "kubectl patch preemption.reclaimWithinCohort"
km -n default patch localqueue user-queue --type merge -p '{"spec":{"stopPolicy":"HoldAndDrain"}}' \
  >/dev/null || fail "kubectl patch the LocalQueue's stopPolicy"
mkq_run plan4 plan "$P" --detailed-exitcode
[ "$rc" = 2 ] || { show plan4; fail "plan after the second patch: exit $rc, expected 2"; }
expect_line plan4 "  ~ LocalQueue default/user-queue (drift: stopPolicy is HoldAndDrain, the policy leaves Kueue's default None)"
expect_line plan4 '      ~ spec.stopPolicy: "HoldAndDrain" -> "None" (Kueue'"'"'s default)'
expect_line plan4 "  ~ ClusterQueue cluster-queue (drift: preemption.reclaimWithinCohort is Any, the policy leaves Kueue's default Never)"
expect_line plan4 '      ~ spec.preemption.reclaimWithinCohort: "Any" -> "Never" (Kueue'"'"'s default)'
expect_line plan4 "Plan: 0 to add, 2 to change, 0 to destroy."
mkq_run apply4 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply4; fail "apply of the second repair exited $rc"; }
got=$(kw get clusterqueue cluster-queue -o jsonpath='{.spec.preemption.reclaimWithinCohort}')
[ "$got" = "Never" ] || fail "apply did not restore the worker's preemption.reclaimWithinCohort: '$got'"
got=$(km -n default get localqueue user-queue -o jsonpath='{.spec.stopPolicy}')
[ "$got" = "None" ] || fail "apply did not restore the LocalQueue's stopPolicy: '$got'"
mkq_run plan5 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan5; fail "plan after the second repair: exit $rc, expected 0"; }
pass "a nested default and a LocalQueue's default planned as drift, repaired; the next plan is clean"

# 3. Kueue's default written out by someone else is the default: no drift.
kw patch clusterqueue cluster-queue --type merge -p '{"spec":{"flavorFungibility":{"whenCanBorrow":"MayStopSearch"}}}' \
  >/dev/null || fail "kubectl patch flavorFungibility.whenCanBorrow"
mkq_run plan6 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan6; fail "a default written out shows as a change: exit $rc"; }
pass "a default written out with kubectl is no drift"
