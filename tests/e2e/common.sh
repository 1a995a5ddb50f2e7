# Sourced by the end-to-end tests that drive mkq against its sandbox.
#   e2e_require_clients   exits 77 (ctest: skipped) with "SKIPPED: ..." when
#                    kubectl ($KUBECTL) or /usr/bin/python3 is missing
#   e2e_setup NAME   a fresh $TMP (removed on exit, with the sandbox at $SB
#                    stopped), no kubeconfig anywhere (HOME=$TMP/home, no
#                    KUBECONFIG: mkq's default target is the sandbox), umask 077,
#                    NO_COLOR, and the working directory $TMP. A script may
#                    define e2e_cleanup to stop more.
#   fail MSG / pass MSG
#   mkq_run NAME ARGS...   mkq ARGS with the test's sandbox and state; stdout in
#                    $TMP/NAME.out, stderr in $TMP/NAME.err, the exit code in $rc
#   show NAME        prints both files (for a failure's context)
#   k ARGS...        kubectl with the sandbox's kubeconfig
#   e2e_unreachable_kubeconfig CLUSTER FILE   a copy of the sandbox's kubeconfig
#                    in FILE with CLUSTER's server on a port where nothing listens
#   conformance_setup NAME   the conformance scripts' start, with probe, anon
#                    and admin_curl (see below)
# The caller sets MKQ and KUBECTL first.

e2e_require_clients() {
  if [ ! -x "$KUBECTL" ]; then
    echo "SKIPPED: kubectl not found ($KUBECTL)"
    exit 77
  fi
  if [ ! -x /usr/bin/python3 ]; then
    echo "SKIPPED: /usr/bin/python3 not found"
    exit 77
  fi
}

e2e_setup() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/mkq-e2e-$1.XXXXXX")
  SB="$TMP/sb"
  trap e2e_exit EXIT
  umask 077
  export HOME="$TMP/home" NO_COLOR=1
  mkdir -p "$HOME"
  unset KUBECONFIG
  cd "$TMP" || exit 1
}

e2e_exit() {
  if declare -F e2e_cleanup >/dev/null; then e2e_cleanup; fi
  timeout 30 "$MKQ" sandbox down --dir "$SB" >/dev/null 2>&1
  cd / && rm -rf "$TMP"
}

fail() {
  echo "FAIL: $*"
  [ -f "$SB/sandbox.log" ] && tail -20 "$SB/sandbox.log" | sed 's/^/    log: /'
  exit 1
}
pass() { echo "PASS: $*"; }
k() { timeout 60 "$KUBECTL" --kubeconfig "$SB/kubeconfig" --cache-dir "$TMP/cache" "$@"; }
mkq_run() {
  local name=$1
  shift
  timeout 300 "$MKQ" "$@" --sandbox-dir "$SB" --state "$TMP/state.db" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
}
show() { echo "--- $1.out"; cat "$TMP/$1.out"; echo "--- $1.err"; cat "$TMP/$1.err"; }
e2e_unreachable_kubeconfig() {
  local port
  port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  /usr/bin/python3 - "$SB/kubeconfig" "$1" "$port" >"$2" <<'EOF'
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
for cluster in config["clusters"]:
    if cluster["name"] == sys.argv[2]:
        cluster["cluster"]["server"] = "https://127.0.0.1:" + sys.argv[3]
print(yaml.safe_dump(config))
EOF
}

# e2e_save_worker_kubeconfig N: the quickstart worker's kubeconfig, from the
# manager's Secret kueue-system/worker1-secret, into $TMP/kc.N (0600 under the
# umask above) and its one token into $TMP/token.N; neither is printed. The
# Secret as read stays in $TMP/secret.json (removed with $TMP).
e2e_save_worker_kubeconfig() {
  k --context manager-cluster -n kueue-system get secret worker1-secret -o json >"$TMP/secret.json" 2>"$TMP/secret.err" ||
    { cat "$TMP/secret.err"; fail "read worker1-secret"; }
  /usr/bin/python3 - "$TMP/secret.json" "$TMP/kc.$1" "$TMP/token.$1" <<'EOF' || fail "worker1-secret holds no kubeconfig with a token"
import base64, json, re, sys
secret = json.load(open(sys.argv[1]))
kubeconfig = base64.b64decode(secret["data"]["kubeconfig"]).decode()
tokens = re.findall(r'(?m)^\s*token:\s*(\S+)\s*$', kubeconfig)
if len(tokens) != 1:
    sys.exit("expected one token in the kubeconfig, found %d" % len(tokens))
open(sys.argv[2], "w").write(kubeconfig)
open(sys.argv[3], "w").write(tokens[0] + "\n")
EOF
}

# conformance_setup NAME: the start the conformance scripts share — kubectl,
# python3 and curl present (else exit 77), e2e_setup NAME, a one-cluster
# sandbox (manager) up; KC its kubeconfig, SERVER its URL, $TMP/ca.crt its CA,
# $TMP/admin.crt and $TMP/admin.key the admin's client certificate.
#   probe "BEHAVIOUR" COMMAND...   COMMAND (a shell function) returns 0 when the
#                    sandbox shows it; PASS or FAIL with COMMAND's output
#   anon ARGS / admin_curl ARGS    curl without / with the admin's certificate:
#                    the body in $TMP/body, the HTTP status printed
# Each script ends by printing $probes and $failures and exits 1 on a failure.
conformance_setup() {
  e2e_require_clients
  command -v curl >/dev/null || { echo "SKIPPED: curl not found"; exit 77; }
  e2e_setup "$1"
  failures=0
  probes=0
  timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager >"$TMP/up" 2>&1 || { cat "$TMP/up"; fail "mkq sandbox up"; }
  KC=$SB/kubeconfig
  SERVER=$(k config view --raw -o jsonpath='{.clusters[0].cluster.server}')
  k config view --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d >"$TMP/ca.crt"
  k config view --raw -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d >"$TMP/admin.crt"
  k config view --raw -o jsonpath='{.users[0].user.client-key-data}' | base64 -d >"$TMP/admin.key"
}
probe() {
  local what=$1
  shift
  probes=$((probes + 1))
  if "$@" >"$TMP/probe.out" 2>&1; then
    echo "PASS: $what"
  else
    echo "FAIL: $what"
    sed 's/^/    /' "$TMP/probe.out" | head -20
    failures=$((failures + 1))
  fi
}
anon() { curl -sS --cacert "$TMP/ca.crt" -o "$TMP/body" -w '%{http_code}' "$@"; }
admin_curl() { curl -sS --cacert "$TMP/ca.crt" --cert "$TMP/admin.crt" --key "$TMP/admin.key" -o "$TMP/body" -w '%{http_code}' "$@"; }
