# Sourced by the sandbox's kubectl scripts: which kubectls to run.
#
# select_kubectls DEFAULT... -- ARG...: the kubectls a script runs are its
# arguments ARG when it was given any, else DEFAULT: a version ("1.33")
# names kubectl.1.33 beside /usr/bin/kubectl's real file (the Cloud SDK's
# directory), anything else is a path. Sets PRESENT to those that can run,
# prints "SKIPPED: kubectl not found (PATH)" for each that cannot, and
# returns 1 when none can (the script then skips: exit 77).
select_kubectls() {
  local defaults=() args=() dir kubectl
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do defaults+=("$1"); shift; done
  [ "$#" -gt 0 ] && shift
  args=("$@")
  [ "${#args[@]}" -gt 0 ] || args=("${defaults[@]}")
  dir=$(dirname "$(readlink -f /usr/bin/kubectl 2>/dev/null || echo /usr/lib/google-cloud-sdk/bin/kubectl)")
  PRESENT=()
  for kubectl in "${args[@]}"; do
    case "$kubectl" in
      [0-9]*) kubectl="$dir/kubectl.$kubectl" ;;
    esac
    if [ -x "$kubectl" ]; then PRESENT+=("$kubectl"); else echo "SKIPPED: kubectl not found ($kubectl)"; fi
  done
  if [ "${#PRESENT[@]}" -eq 0 ]; then
    echo "SKIPPED: no kubectl found"
    return 1
  fi
}

# start_sandbox NAME: a sandbox of one cluster (manager, without Kueue) in a
# fresh $TMP (mkq-sandbox-NAME.XXXXXX), stopped and removed when the script
# exits; prints "FAIL: sandbox up" with mkq's output and exits 1 when it does
# not start. Needs $MKQ.
start_sandbox() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/mkq-sandbox-$1.XXXXXX")
  trap 'timeout 30 "$MKQ" sandbox down --dir "$TMP/sandbox" >/dev/null 2>&1; rm -rf "$TMP"' EXIT
  if ! timeout 60 "$MKQ" sandbox up --dir "$TMP/sandbox" --clusters manager --no-kueue >"$TMP/up" 2>&1; then
    echo "FAIL: sandbox up"
    cat "$TMP/up"
    exit 1
  fi
}
