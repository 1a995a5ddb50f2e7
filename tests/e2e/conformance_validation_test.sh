#!/usr/bin/env bash
# Conformance probes of the built-in kinds' validation (issue 16.3): each
# probe states the kube-apiserver v1.33 behaviour it asserts and checks what
# kubectl 1.27, 1.32 and 1.33 print for it (the exact line) and what the
# Python client receives.
# Usage: conformance_validation_test.sh MKQ [KUBECTL_DIR]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: conformance_validation_test.sh MKQ [KUBECTL_DIR]}
DIR=${2:-$(dirname "$(readlink -f /usr/bin/kubectl 2>/dev/null || echo /usr/lib/google-cloud-sdk/bin/kubectl)")}
KUBECTL=/usr/bin/kubectl
. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup conformance-validation

failures=0
probes=0
# probe "BEHAVIOUR" COMMAND...: common.sh's.
# said EXPECTED COMMAND...: COMMAND's output (stdout and stderr) is exactly EXPECTED.
said() {
  local expected=$1 out
  shift
  out=$("$@" 2>&1)
  [ "$out" = "$expected" ] || { printf 'expected: %s\n     got: %s\n' "$expected" "$out"; return 1; }
}

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager --no-kueue >"$TMP/up" 2>&1 || { cat "$TMP/up"; fail "mkq sandbox up"; }
KC=$SB/kubeconfig
KEY_RULE="a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"

for version in 1.27 1.32 1.33; do
  KUBECTL=$DIR/kubectl.$version
  if [ ! -x "$KUBECTL" ]; then
    echo "SKIPPED: kubectl $version not found ($KUBECTL)"
    continue
  fi
  v="kubectl $version:"
  cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\n%s\n' "$1" "$2" | k create -f - "${@:3}"; }
  p_key() { said "The ConfigMap \"bad-key\" is invalid: data[a b]: Invalid value: \"a b\": $KEY_RULE" cm bad-key 'data: {"a b": x}'; }
  probe "$v a ConfigMap key outside [-._a-zA-Z0-9]+ is 422 at data[KEY] (IsConfigMapKey)" p_key
  p_number() {
    said 'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string' \
      cm number 'data: {a: 1}'
  }
  probe "$v data: {a: 1} is 400, Go's decoder refusing a number for a string" p_number
  p_unknown() {
    said 'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "colour"' \
      cm unknown 'colour: red'
  }
  probe "$v an unknown top-level field is refused under fieldValidation=Strict (kubectl's default)" p_unknown
  p_warn() {
    said "Warning: unknown field \"colour\"
configmap/warned-${version/./-} created" cm "warned-${version/./-}" 'colour: red' --validate=warn &&
      [ -z "$(k get configmap "warned-${version/./-}" -o jsonpath='{.colour}')" ]
  }
  probe "$v --validate=warn stores it without the field and prints the server's Warning" p_warn
  p_base64() {
    printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: b64}\ndata: {k: "abc$"}\n' >"$TMP/secret.yaml"
    said "Error from server (BadRequest): error when creating \"$TMP/secret.yaml\": Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 3" \
      k create -f "$TMP/secret.yaml"
  }
  probe "$v a Secret's data value that is not base64 is 400 'illegal base64 data at input byte N'" p_base64
  p_rbac_name() { said "clusterrole.rbac.authorization.k8s.io/system:probe:${version/./-} created" k create clusterrole "system:probe:${version/./-}" --verb=get --resource=pods; }
  probe "$v RBAC names are path segments: system:... names are accepted" p_rbac_name
  p_verbs() {
    printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: no-verbs}\nrules: [{apiGroups: [""], resources: [pods]}]\n' >"$TMP/role.yaml"
    said 'The Role "no-verbs" is invalid: rules[0].verbs: Required value: verbs must contain at least one value' k create -f "$TMP/role.yaml"
  }
  probe "$v a PolicyRule without verbs is 422 Required at rules[0].verbs" p_verbs
  p_ns_dots() { said 'The Namespace "team.a" is invalid: metadata.name: Invalid value: "team.a": must not contain dots' k create namespace team.a; }
  probe "$v a Namespace name is a DNS label: dots are 422 'must not contain dots'" p_ns_dots
done

# ---- The Python client: the 422's body as kube-apiserver writes it.
p_python() {
  /usr/bin/python3 - "$KC" <<'PY'
import json, sys
from kubernetes import client, config
from kubernetes.client.rest import ApiException
api = config.new_client_from_config(config_file=sys.argv[1], context="manager")
core = client.CoreV1Api(api)
try:
    core.create_namespaced_config_map("default", {"metadata": {"name": "py"}, "data": {"a b": "x"}})
    sys.exit("created")
except ApiException as e:
    body = json.loads(e.body)
    assert e.status == 422 and body["reason"] == "Invalid", body
    cause = body["details"]["causes"][0]
    assert cause["reason"] == "FieldValueInvalid" and cause["field"] == "data[a b]", cause
    assert body["details"]["name"] == "py" and body["details"]["kind"] == "ConfigMap", body
rbac = client.RbacAuthorizationV1Api(api)
binding = rbac.create_namespaced_role_binding("default", {
    "metadata": {"name": "py"}, "roleRef": {"kind": "ClusterRole", "name": "view", "apiGroup": ""},
    "subjects": [{"kind": "User", "name": "alice"}]})
assert binding.role_ref.api_group == "rbac.authorization.k8s.io", binding.role_ref
assert binding.subjects[0].api_group == "rbac.authorization.k8s.io", binding.subjects
print("python ok")
PY
}
probe "python client: a 422 carries details.causes (FieldValueInvalid at data[a b]); a binding's apiGroups are defaulted" p_python

echo "$probes probes, $failures failed"
[ "$failures" -eq 0 ] || exit 1
pass "conformance validation"
