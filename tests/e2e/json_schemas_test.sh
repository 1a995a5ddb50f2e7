#!/usr/bin/env bash
# Every JSON document mkq prints validates against its schema in docs/schemas/
# (docs/json.md; issue 17, item 5): check (clean and with errors), eval, render,
# version, and against the sandbox plan (whole and scoped), status, state list/show/unlock/rm, history
# and history RUN — each starting with its format_version.
# Needs Debian's python3-jsonschema (./setup.sh --test-deps installs it).
# Usage: json_schemas_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: json_schemas_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCHEMAS="$ROOT/docs/schemas"

. "$(dirname "$0")/common.sh"
e2e_require_clients
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
  { echo "SKIPPED: python3-jsonschema is not installed (./setup.sh --test-deps installs it)"; exit 77; }
e2e_setup json_schemas

# valid NAME SCHEMA: $TMP/NAME.out is one JSON document that SCHEMA accepts.
valid() {
  /usr/bin/python3 - "$TMP/$1.out" "$SCHEMAS/$2.schema.json" <<'EOF' || { show "$1"; fail "$1 does not validate against $2.schema.json"; }
import json, sys
import jsonschema
document = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator.check_schema(schema)
errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.path))
for error in errors[:5]:
    print("  at /" + "/".join(str(p) for p in error.path) + ": " + error.message[:300])
sys.exit(1 if errors else 0)
EOF
  pass "$1: valid against docs/schemas/$2.schema.json"
}
# run NAME EXPECTED-EXIT ARGS...: mkq without the sandbox/state flags.
run() {
  local name=$1 want=$2
  shift 2
  timeout 120 "$MKQ" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
  [ "$rc" = "$want" ] || { show "$name"; fail "mkq $*: exit $rc, expected $want"; }
}

mkdir -p "$TMP/policy" "$TMP/bad"
cp "$ROOT/examples/quickstart/policy.mkq" "$TMP/policy/policy.mkq"
P="$TMP/policy"
printf 'manager "m" { context = "m" }\nflavor "f" { gpu = 1 }\nclusterqueue "q" { quota "g" { cpu = 1 } }\n' >"$TMP/bad/policy.mkq"

run check_ok 0 check --format json "$P"
valid check_ok diagnostics
run check_bad 1 check --format json "$TMP/bad"
valid check_bad diagnostics
run eval 0 eval "$P"
valid eval model
run render 0 render --format json "$P"
valid render render
run version 0 version --format json
valid version version

# The documents that read clusters or the state: the sandbox.
mkq_run plan plan "$P" --format json
[ "$rc" = 0 ] || { show plan; fail "plan --format json: exit $rc"; }
valid plan plan
mkq_run apply apply "$P" --auto-approve --wait=60s
[ "$rc" = 0 ] || { show apply; fail "apply: exit $rc"; }
mkq_run status status "$P" --format json
[ "$rc" = 0 ] || { show status; fail "status --format json: exit $rc"; }
valid status status
mkq_run plan_clean plan "$P" --format json
[ "$rc" = 0 ] || { show plan_clean; fail "plan --format json after apply: exit $rc"; }
valid plan_clean plan
mkq_run plan_scoped plan "$P" --cluster multikueue-test-worker1 --format json
[ "$rc" = 0 ] || { show plan_scoped; fail "plan --cluster --format json: exit $rc"; }
valid plan_scoped plan

state() {  # NAME ARGS...: mkq state/history against the test's state file
  local name=$1
  shift
  timeout 60 "$MKQ" "$@" --state "$TMP/state.db" --format json >"$TMP/$name.out" 2>"$TMP/$name.err"
  rc=$?
  [ "$rc" = 0 ] || { show "$name"; fail "mkq $*: exit $rc"; }
}
state state_list state list
valid state_list state
address=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["objects"][0]["address"])' "$TMP/state_list.out")
state state_show state show "$address"
valid state_show state
state state_unlock state unlock
valid state_unlock state
state history history
valid history history
state history_run history 1
valid history_run history
state state_rm state rm "$address"
valid state_rm state
