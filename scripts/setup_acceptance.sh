#!/usr/bin/env bash
# The first five minutes, checked (a CI step of .ci/run, not a ctest: it builds mkq
# again): `./setup.sh` in a clean clone of this repository's HEAD (committed work only)
# must end with every object Active and a clean plan — and so must a second run,
# which installs nothing and applies nothing. The clone's sandbox is stopped and the
# clone removed at the end, pass or fail. ccache (shared with this checkout) keeps
# the clone's build to a few minutes.
# Usage: scripts/setup_acceptance.sh. Exit 0 pass, 1 fail.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkq-setup.XXXXXX")
clone="$tmp/mkq"
sandbox=examples/quickstart/.mkq/sandbox

cleanup() {
  [ -x "$clone/build/mkq" ] && timeout 30 "$clone/build/mkq" sandbox down --dir "$clone/$sandbox" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  exit 1
}

git clone -q --no-hardlinks "$repo" "$clone" || fail "git clone $repo"

# check_end RUN LOG: setup.sh's last lines say every object is Active, the plan is
# clean, and how to look with kubectl and stop the sandbox.
check_end() {
  local end
  end=$(tail -n 8 "$2")
  grep -qE '^([0-9]+) of \1 objects Active\.$' <<<"$end" || { cat "$2"; fail "$1: the last lines do not report every object Active"; }
  grep -qx 'No changes. Every cluster matches the policy.' <<<"$end" || { cat "$2"; fail "$1: the last lines do not report a clean plan"; }
  grep -q "^Look with kubectl: kubectl --kubeconfig $sandbox/kubeconfig " <<<"$end" || { cat "$2"; fail "$1: no kubectl line"; }
  grep -qE "^The sandbox keeps running \(pid [0-9]+\); stop it with: build/mkq sandbox down --dir $sandbox$" <<<"$end" ||
    { cat "$2"; fail "$1: no line on stopping the sandbox"; }
}

start=$(date +%s)
(cd "$clone" && ./setup.sh) >"$tmp/first.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$tmp/first.log"; fail "./setup.sh in a clean clone: exit $rc"; }
echo "first ./setup.sh in a clean clone: $(($(date +%s) - start)) s"
check_end "first run" "$tmp/first.log"
grep -q '^Apply complete! Resources: 13 added, 0 changed, 0 destroyed\.$' "$tmp/first.log" ||
  { cat "$tmp/first.log"; fail "first run: the quickstart's 13 objects were not added"; }
echo "PASS: the first run ends with every object Active and a clean plan"

start=$(date +%s)
(cd "$clone" && ./setup.sh) >"$tmp/second.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$tmp/second.log"; fail "second ./setup.sh: exit $rc"; }
echo "second ./setup.sh: $(($(date +%s) - start)) s"
check_end "second run" "$tmp/second.log"
grep -qx '==> all packages present' "$tmp/second.log" || { cat "$tmp/second.log"; fail "second run: packages were installed again"; }
grep -qE '^Apply complete|: .* (created|updated|deleted)$' "$tmp/second.log" &&
  { cat "$tmp/second.log"; fail "second run: apply changed something"; }
echo "PASS: the second run installs nothing, applies nothing and ends the same"
