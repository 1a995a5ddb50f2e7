#!/usr/bin/env bash
# End to end (issue 14, install): `mkq controller manifests` for
# examples/quickstart passes `kubectl apply --dry-run=server --validate=strict`
# against the sandbox, which decodes built-in kinds as kube-apiserver does (a
# negative control: an unknown field and a wrong type are refused with the real
# messages); the output holds no credential; applied for real, the Deployment
# rolls out, and the documented way to fill a worker's kubeconfig Secret
# survives a re-apply of the manifests.
# Usage: manifests_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: manifests_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup manifests

timeout 60 "$MKQ" controller manifests "$ROOT/examples/quickstart" >"$TMP/m.yaml" 2>"$TMP/m.err"
rc=$?
[ "$rc" = 0 ] || { cat "$TMP/m.err"; fail "controller manifests: exit $rc"; }
[ ! -s "$TMP/m.err" ] || { cat "$TMP/m.err"; fail "controller manifests wrote to stderr"; }

# No credential material: no Secret with data, no key or token anywhere.
/usr/bin/python3 - "$TMP/m.yaml" <<'PY' || fail "the manifests hold credential material"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
kinds = [d["kind"] for d in docs]
for want in ["Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding",
             "ConfigMap", "Secret", "Deployment"]:
    assert want in kinds, "no " + want + " in " + str(kinds)
for d in docs:
    if d["kind"] == "Secret":
        assert "data" not in d and "stringData" not in d, d
text = open(sys.argv[1]).read()
for needle in ["BEGIN ", "client-key-data", "client-certificate-data", "token:", "password"]:
    assert needle not in text, needle
PY
grep -q "^# .*create secret generic mkq-worker-multikueue-test-worker1 --from-file=kubeconfig=" "$TMP/m.yaml" ||
  fail "the worker's Secret does not say how to fill it"

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager >"$TMP/up.out" 2>&1 || { cat "$TMP/up.out"; fail "sandbox up"; }
k create namespace mkq-system >/dev/null || fail "create the namespace mkq-system"

# Every object through server-side strict validation; kubectl asks the server
# to validate (fieldValidation=Strict), it does not validate on its own.
k apply --dry-run=server --validate=strict -f "$TMP/m.yaml" -v=8 >"$TMP/dry.out" 2>"$TMP/dry.err"
rc=$?
[ "$rc" = 0 ] || { show dry; fail "kubectl apply --dry-run=server --validate=strict: exit $rc"; }
docs=$(grep -c '^---$' "$TMP/m.yaml")
dry=$(grep -c '(server dry run)$' "$TMP/dry.out")
[ "$dry" = "$docs" ] || { show dry; fail "$dry objects passed the server dry run, $docs documents"; }
grep -q 'fieldValidation=Strict' "$TMP/dry.err" || fail "kubectl did not ask the server for strict field validation"
[ -z "$(k -n mkq-system get deployments -o name)" ] || fail "the dry run created the Deployment"
pass "every object of the manifests passes kubectl apply --dry-run=server --validate=strict"

# Negative controls: an unknown field, a wrong type.
/usr/bin/python3 - "$TMP/m.yaml" "$TMP" <<'PY' || fail "make the broken Deployments"
import sys, yaml
deployment = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "Deployment"][0]
deployment["spec"]["foo"] = "bar"
open(sys.argv[2] + "/unknown.yaml", "w").write(yaml.safe_dump(deployment))
del deployment["spec"]["foo"]
deployment["spec"]["replicas"] = "two"
open(sys.argv[2] + "/type.yaml", "w").write(yaml.safe_dump(deployment))
PY
k apply --dry-run=server --validate=strict -f - <"$TMP/unknown.yaml" >"$TMP/unknown.out" 2>"$TMP/unknown.err"
[ $? != 0 ] || fail "a Deployment with spec.foo passed strict validation"
want='Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"'
[ "$(cat "$TMP/unknown.err")" = "$want" ] || { show unknown; fail "the unknown field's message"; }
k apply --dry-run=server --validate=strict -f - <"$TMP/type.yaml" >"$TMP/type.out" 2>"$TMP/type.err"
[ $? != 0 ] || fail "a Deployment with replicas: two passed"
want='Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'
[ "$(cat "$TMP/type.err")" = "$want" ] || { show type; fail "the wrong type's message"; }
pass "an unknown field and a wrong type are refused with kube-apiserver's messages"

# For real: the Deployment rolls out; the worker's Secret, filled as the notes
# say, keeps its data when the manifests are applied again.
k apply -f "$TMP/m.yaml" >"$TMP/apply.out" 2>"$TMP/apply.err" || { show apply; fail "kubectl apply of the manifests"; }
k -n mkq-system rollout status deployment/mkq-controller --timeout=30s >"$TMP/rollout.out" 2>&1 ||
  { cat "$TMP/rollout.out"; fail "the controller's Deployment did not become available"; }
printf 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n' >"$TMP/WORKER.kubeconfig"
fill=$(sed -n 's/^#   \(kubectl .*mkq-worker-multikueue-test-worker1 .*\)$/\1/p' "$TMP/m.yaml")
[ -n "$fill" ] || fail "no fill command in the notes"
kubectl() { k "$@"; }  # the notes' command as printed, against the sandbox
(cd "$TMP" && eval "$fill") >"$TMP/fill.out" 2>"$TMP/fill.err" || { show fill; fail "the documented fill command: $fill"; }
k apply -f "$TMP/m.yaml" >"$TMP/again.out" 2>"$TMP/again.err" || { show again; fail "re-apply of the manifests"; }
data=$(k -n mkq-system get secret mkq-worker-multikueue-test-worker1 -o jsonpath='{.data.kubeconfig}')
[ -n "$data" ] || fail "the worker's kubeconfig was lost by a re-apply of the manifests"
pass "applied: the Deployment is available; a filled Secret survives a re-apply"

timeout 60 "$MKQ" controller manifests --namespace Bad_NS "$ROOT/examples/quickstart" >"$TMP/bad.out" 2>"$TMP/bad.err"
rc=$?
[ "$rc" = 1 ] && [ ! -s "$TMP/bad.out" ] || { show bad; fail "a bad namespace: exit $rc"; }
grep -q '^mkq: error: the namespace "Bad_NS" is not a valid namespace name' "$TMP/bad.err" || { show bad; fail "a bad namespace's message"; }
pass "a bad namespace is refused"
