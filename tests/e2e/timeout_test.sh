#!/usr/bin/env bash
# End to end (issue 12, deadlines): examples/tas applied on the sandbox; then
# worker2 is pointed (through copies of the sandbox's kubeconfig) at
#   - a listener that accepts connections and never answers: plan and status,
#     each with --request-timeout 6000ms, end within the deadline they print
#     ("within 6000 ms") plus 10 %, name worker2 unreachable and exit 1; destroy
#     deletes the rest and names worker2 unreachable;
#   - a port where nothing listens (connection refused) and a listener whose
#     full queue makes the kernel drop every new connection: plan knows worker2
#     is unreachable within the deadline, exit 1;
# and destroy against a sandbox that hangs (every cluster silent) or is gone
# (every connection refused) ends within the deadline plus 10 %. The deadline
# is the time mkq waited: a plan also takes at least the deadline when a
# cluster never answers.
# Usage: timeout_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: timeout_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup timeout
listener=""
e2e_cleanup() { [ -n "$listener" ] && kill "$listener" 2>/dev/null; }
has() { grep -q -E -- "$2" "$TMP/$1.out"; }

DEADLINE_MS=6000
# timed NAME KUBECONFIG ARGS...: mkq ARGS with that kubeconfig and the deadline;
# stdout/stderr in NAME.out/.err, the exit code in $rc, the wall time in $ms.
timed() {
  local name=$1 kubeconfig=$2 start end
  shift 2
  start=$(date +%s%N)
  timeout 120 "$MKQ" "$@" --kubeconfig "$kubeconfig" --request-timeout "${DEADLINE_MS}ms" --state "$TMP/state.db" \
    >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
  end=$(date +%s%N)
  ms=$(((end - start) / 1000000))
}
# within_deadline NAME: the run took at most the printed deadline plus 10 %.
within_deadline() {
  [ "$ms" -le $((DEADLINE_MS * 11 / 10)) ] || { show "$1"; fail "$1 took $ms ms, over the deadline of $DEADLINE_MS ms plus 10 %"; }
}
# kubeconfig_with FILE SERVER [CLUSTER]: the sandbox's kubeconfig with CLUSTER's
# server (every cluster's without CLUSTER) replaced by SERVER.
kubeconfig_with() {
  /usr/bin/python3 - "$SB/kubeconfig" "$2" "${3:-}" >"$1" <<'EOF' || fail "make $1"
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
for cluster in config["clusters"]:
    if sys.argv[3] in ("", cluster["name"]):
        cluster["cluster"]["server"] = sys.argv[2]
print(yaml.safe_dump(config))
EOF
}

mkdir -p "$TMP/p"
cp "$ROOT/examples/tas/policy.mkq" "$TMP/p/policy.mkq"
P="$TMP/p"
mkq_run apply0 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply0; fail "first apply of examples/tas: exit $rc"; }
sed -i 's/quota "tas-flavor" { cpu = 16, memory = 32Gi }/quota "tas-flavor" { cpu = 20, memory = 32Gi }/' "$P/policy.mkq"
grep -q "cpu = 20, memory = 32Gi" "$P/policy.mkq" || fail "the quota edit did not apply"

# Two listeners: one accepts every connection and never answers; the other never
# accepts, its queue full, so the kernel drops each new connection's SYN (an
# address that drops packets, deterministically).
/usr/bin/python3 -u - >"$TMP/listener.ports" <<'EOF' &
import socket, time
silent = socket.socket()
silent.bind(("127.0.0.1", 0))
silent.listen(64)
dropping = socket.socket()
dropping.bind(("127.0.0.1", 0))
dropping.listen(0)
held = []
for _ in range(2):  # fill the accept queue of `dropping`; nothing ever accepts from it
    c = socket.socket()
    c.setblocking(False)
    try:
        c.connect(dropping.getsockname())
    except BlockingIOError:
        pass
    held.append(c)
time.sleep(0.2)
print(silent.getsockname()[1], dropping.getsockname()[1])
while True:
    held.append(silent.accept()[0])  # kept open, never read, never answered
EOF
listener=$!
for _ in $(seq 50); do [ -s "$TMP/listener.ports" ] && break; sleep 0.1; done
read -r silent_port dropping_port <"$TMP/listener.ports"
[ -n "${dropping_port:-}" ] || fail "the listeners did not start"
closed_port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
kubeconfig_with "$TMP/silent.kubeconfig" "https://127.0.0.1:$silent_port" worker2
kubeconfig_with "$TMP/refused.kubeconfig" "https://127.0.0.1:$closed_port" worker2
kubeconfig_with "$TMP/dropping.kubeconfig" "https://127.0.0.1:$dropping_port" worker2
kubeconfig_with "$TMP/hung.kubeconfig" "https://127.0.0.1:$silent_port"
kubeconfig_with "$TMP/gone.kubeconfig" "https://127.0.0.1:$closed_port"
silent="no answer from https://127\.0\.0\.1:$silent_port within $DEADLINE_MS ms"

# 1. plan against a server that never answers.
timed plan "$TMP/silent.kubeconfig" plan "$P"
[ "$rc" = 1 ] || { show plan; fail "plan with worker2 silent: exit $rc, expected 1"; }
has plan "^# cluster worker2 \(worker\): unreachable: $silent$" || { show plan; fail "plan does not name worker2 unreachable with the deadline"; }
has plan "~ ClusterQueue cluster-queue" || { show plan; fail "plan does not show the manager's change"; }
within_deadline plan
[ "$ms" -ge "$DEADLINE_MS" ] || { show plan; fail "plan ended after $ms ms, before the deadline it printed"; }
pass "plan: worker2 unreachable ('within $DEADLINE_MS ms') after $ms ms, exit 1"

# 2. status.
timed status "$TMP/silent.kubeconfig" status "$P"
[ "$rc" = 1 ] || { show status; fail "status with worker2 silent: exit $rc, expected 1"; }
has status "cannot be read: $silent$" || { show status; fail "status does not name worker2 unreadable with the deadline"; }
within_deadline status
pass "status: worker2 cannot be read ('within $DEADLINE_MS ms') after $ms ms, exit 1"

# 3. Unreachable clusters known within the deadline: refused, and dropping connections.
# unreachable_plan NAME WHAT REASON: plan with NAME.kubeconfig names worker2 unreachable for REASON.
unreachable_plan() {
  timed "$1" "$TMP/$1.kubeconfig" plan "$P"
  [ "$rc" = 1 ] || { show "$1"; fail "plan with worker2 $2: exit $rc, expected 1"; }
  has "$1" "^# cluster worker2 \(worker\): unreachable: $3" || { show "$1"; fail "plan does not name worker2 unreachable ($2)"; }
  within_deadline "$1"
  pass "plan: worker2 $2 known unreachable after $ms ms, exit 1"
}
unreachable_plan refused "refused" "cannot connect to https://127\.0\.0\.1:$closed_port"
unreachable_plan dropping "dropping connections" \
  "no answer from https://127\.0\.0\.1:$dropping_port within $DEADLINE_MS ms$"

# 4. destroy: the rest is deleted, worker2 reported. Its deletes on the reachable clusters
# come after the read, so only the outcome is checked here; 5. and 6. check the time.
timed destroy "$TMP/silent.kubeconfig" destroy "$P" --auto-approve
[ "$rc" = 1 ] || { show destroy; fail "destroy with worker2 silent: exit $rc, expected 1"; }
has destroy "^  worker2 +unreachable: changes unknown \($silent\)$" || { show destroy; fail "destroy does not name worker2 unreachable"; }
[ -z "$(k --context manager get clusterqueue -o name)" ] || fail "destroy left the manager's ClusterQueue"
has destroy "^  mkq destroy .* --request-timeout ${DEADLINE_MS}ms" || { show destroy; fail "the command to paste drops --request-timeout"; }
pass "destroy: the reachable clusters emptied, worker2 unreachable, exit 1 (after $ms ms)"

# 5. destroy against a sandbox that hangs (every cluster silent), and 6. one that is gone
# (every connection refused): each cluster is unreachable within the deadline.
# destroy_unreachable NAME WHAT REASON
destroy_unreachable() {
  timed "$1" "$TMP/$1.kubeconfig" destroy "$P" --auto-approve
  [ "$rc" = 1 ] || { show "$1"; fail "destroy with every cluster $2: exit $rc, expected 1"; }
  has "$1" "^  manager +unreachable: changes unknown \($3" || { show "$1"; fail "destroy does not name the manager unreachable ($2)"; }
  has "$1" "^  worker2 +unreachable: changes unknown \($3" || { show "$1"; fail "destroy does not name worker2 unreachable ($2)"; }
  within_deadline "$1"
  pass "destroy with every cluster $2: known unreachable after $ms ms, exit 1"
}
destroy_unreachable hung "silent" "no answer from https://127\.0\.0\.1:$silent_port within $DEADLINE_MS ms\)$"
destroy_unreachable gone "refused" "cannot connect to "
