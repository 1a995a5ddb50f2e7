#!/usr/bin/env bash
# Conformance probes (issue 16.6, started): each probe states the
# kube-apiserver v1.33 behaviour it asserts and checks the sandbox shows it to
# kubectl 1.27, 1.32 and 1.33 and to the Python client. This file holds the
# probes of the sandbox's dangerous and authorization behaviours (16.1-16.4):
# request limits, dry-run deletes, DELETE answers and error messages,
# anonymous access, impersonation, the auth review APIs, default ClusterRoles.
# Usage: conformance_test.sh MKQ [KUBECTL_DIR]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: conformance_test.sh MKQ [KUBECTL_DIR]}
DIR=${2:-$(dirname "$(readlink -f /usr/bin/kubectl 2>/dev/null || echo /usr/lib/google-cloud-sdk/bin/kubectl)")}
KUBECTL=/usr/bin/kubectl
. "$(dirname "$0")/common.sh"
conformance_setup conformance
# expect CODE MESSAGE: the last curl's status and its Status message.
expect() {
  [ "$code" = "$1" ] || { echo "status $code, body: $(head -c 300 "$TMP/body")"; return 1; }
  [ -z "${2:-}" ] || /usr/bin/python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["message"]; sys.exit(0 if m==sys.argv[2] else print(repr(m)) or 1)' "$TMP/body" "$2"
}

# ---- Over HTTP (curl): the limits and anonymous access, independent of the client.
p_version() { code=$(anon "$SERVER/version"); expect 200; }
probe "anonymous GET /version is 200 (system:public-info-viewer binds system:unauthenticated)" p_version
p_healthz() { for p in healthz readyz livez; do code=$(anon "$SERVER/$p"); expect 200 || return 1; done; }
probe "anonymous GET /healthz /readyz /livez is 200" p_healthz
p_anon_api() { code=$(anon "$SERVER/api"); expect 403 'forbidden: User "system:anonymous" cannot get path "/api"'; }
probe "anonymous discovery is 403 naming system:anonymous (system:discovery is for system:authenticated)" p_anon_api
p_anon_list() {
  code=$(anon "$SERVER/api/v1/namespaces/default/configmaps")
  expect 403 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default"'
}
probe "anonymous resource requests are 403 naming system:anonymous" p_anon_list
p_bad_token() { code=$(anon -H "Authorization: Bearer nope" "$SERVER/version"); expect 401 Unauthorized; }
probe "an invalid bearer token is 401 Unauthorized, never anonymous" p_bad_token
p_too_large() {
  head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' 'x' >"$TMP/big"
  code=$(admin_curl -X POST -H 'Content-Type: application/json' --data-binary @"$TMP/big" "$SERVER/api/v1/namespaces/default/configmaps")
  expect 413 "Request entity too large: limit is 3145728"
}
probe "a body over 3 MiB is 413 RequestEntityTooLarge (MaxRequestBodyBytes)" p_too_large
p_deep() {
  /usr/bin/python3 -c 'import sys; d=100000; sys.stdout.write("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"deep\"},\"data\":" + "["*d + "]"*d + "}")' >"$TMP/deep"
  code=$(admin_curl -X POST -H 'Content-Type: application/json' --data-binary @"$TMP/deep" "$SERVER/api/v1/namespaces/default/configmaps")
  expect 400 'the object provided is unrecognized (must be of type ConfigMap): couldn'"'"'t get version/kind; json parse error: exceeded max depth ({"apiVersion":"v1","kind":"Con ...)' || return 1
  code=$(admin_curl "$SERVER/healthz"); expect 200
}
probe "JSON nested past 10,000 levels is 400 'exceeded max depth', and the server still answers" p_deep
# kubectl create clears metadata.resourceVersion itself, so this one is over HTTP.
p_rv() {
  code=$(admin_curl -X POST -H 'Content-Type: application/json' -d '{"metadata":{"name":"rv","resourceVersion":"5"}}' "$SERVER/api/v1/namespaces/default/configmaps")
  expect 500 "resourceVersion should not be set on objects to be created"
}
probe "create with metadata.resourceVersion is 500 'should not be set on objects to be created' (the storage layer's error)" p_rv
p_unauth_body() {
  head -c $((64 * 1024 * 1024)) /dev/zero >"$TMP/huge"
  code=$(anon -m 20 -X POST -H "Authorization: Bearer nope" --data-binary @"$TMP/huge" "$SERVER/api/v1/namespaces" || true)
  rss=$(ps -o rss= -p "$(cat "$SB/sandbox.pid")")
  echo "rss ${rss} KiB"
  [ "$rss" -lt 400000 ] && code=$(admin_curl "$SERVER/healthz") && expect 200
}
probe "an unauthenticated 64 MiB body is refused before it is read (the server stays small and up)" p_unauth_body

# ---- kubectl, each version against its own objects.
setup_objects() {
  k create namespace "$1" >/dev/null && k -n "$1" create configmap cm --from-literal=a=b >/dev/null &&
    k -n "$1" create serviceaccount robot >/dev/null &&
    k apply -f - >/dev/null <<YAML
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
YAML
  sleep 0.5
  printf 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n' | k -n "$1" apply -f - >/dev/null
}

for version in 1.27 1.32 1.33; do
  KUBECTL=$DIR/kubectl.$version
  if [ ! -x "$KUBECTL" ]; then
    echo "SKIPPED: kubectl $version not found ($KUBECTL)"
    continue
  fi
  ns=conf-${version/./-}
  setup_objects "$ns" || fail "kubectl $version: setup"
  v="kubectl $version:"
  p_dry_cm() { k -n "$ns" delete configmap cm --dry-run=server && k -n "$ns" get configmap cm; }
  probe "$v delete --dry-run=server of a ConfigMap deletes nothing (dryRun in DeleteOptions)" p_dry_cm
  p_dry_cr() { k -n "$ns" delete widget w --dry-run=server && k -n "$ns" get widget w; }
  probe "$v delete --dry-run=server of a custom resource deletes nothing" p_dry_cr
  p_dry_ns() { k delete namespace "$ns" --dry-run=server && [ "$(k get namespace "$ns" -o jsonpath='{.status.phase}')" = Active ]; }
  probe "$v delete --dry-run=server of a namespace leaves it Active" p_dry_ns
  # kubectl 1.33 then reads the namespace and reports it missing itself; the server's answer is the object's.
  p_missing_ns() { out=$(k get --raw "/api/v1/namespaces/missing/configmaps/x" 2>&1); echo "$out"; [ "$out" = 'Error from server (NotFound): configmaps "x" not found' ]; }
  probe "$v GET in a missing namespace answers configmaps \"x\" not found" p_missing_ns
  p_jsonpatch() {
    out=$(k -n "$ns" patch configmap cm --type=json -p '[{"op":"remove","path":"/data/nope"}]' 2>&1); echo "$out"
    [ "$out" = 'The request is invalid: the server rejected our request due to an error in our request' ]
  }
  probe "$v a failing JSON patch is 422 'the server rejected our request' (no internal library text)" p_jsonpatch
  p_cani_yes() { [ "$(k auth can-i create configmaps -n "$ns")" = yes ]; }
  probe "$v auth can-i answers yes for system:masters (SelfSubjectAccessReview)" p_cani_yes
  p_cani_no() { [ "$(k auth can-i list secrets -n "$ns" --as="system:serviceaccount:$ns:robot")" = no ]; }
  probe "$v auth can-i --as a service account answers no for what RBAC does not grant" p_cani_no
  p_as_forbidden() {
    k -n "$ns" get secrets --as="system:serviceaccount:$ns:robot" 2>&1 |
      grep -F "User \"system:serviceaccount:$ns:robot\" cannot list resource \"secrets\" in API group \"\" in the namespace \"$ns\""
  }
  probe "$v get --as a service account runs as it: 403 naming the account" p_as_forbidden
  p_as_refused() {
    token=$(k -n "$ns" create token robot) || return 1
    tk="$TMP/token-$ns"
    "$KUBECTL" config --kubeconfig "$tk" set-cluster s --server="$SERVER" --certificate-authority="$TMP/ca.crt" >/dev/null &&
      "$KUBECTL" config --kubeconfig "$tk" set-credentials robot --token="$token" >/dev/null &&
      "$KUBECTL" config --kubeconfig "$tk" set-context c --cluster=s --user=robot >/dev/null &&
      "$KUBECTL" config --kubeconfig "$tk" use-context c >/dev/null || return 1
    timeout 60 "$KUBECTL" --kubeconfig "$tk" --cache-dir "$TMP/cache" -n "$ns" get configmaps --as=bob 2>&1 |
      grep -F "users \"bob\" is forbidden: User \"system:serviceaccount:$ns:robot\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope"
  }
  probe "$v --as without the impersonate verb is 403 naming the user that may not be impersonated" p_as_refused
  p_list() { k auth can-i --list -n "$ns" | grep -F 'selfsubjectaccessreviews.authorization.k8s.io'; }
  probe "$v auth can-i --list shows the rules (SelfSubjectRulesReview)" p_list
  if [ "$version" != 1.27 ]; then
    # kubectl 1.27 asks authentication.k8s.io/v1beta1, which 1.33 does not serve by default.
    p_whoami() { k auth whoami -o jsonpath='{.status.userInfo.username}' | grep -qx mkq-admin; }
    probe "$v auth whoami names the caller (SelfSubjectReview)" p_whoami
    p_whoami_as() {
      k auth whoami --as=alice --as-group=dev -o json | /usr/bin/python3 -c 'import json,sys; u=json.load(sys.stdin)["status"]["userInfo"]; sys.exit(0 if u["username"]=="alice" and u["groups"]==["dev","system:authenticated"] else 1)'
    }
    probe "$v auth whoami --as shows the impersonated user with system:authenticated added" p_whoami_as
  fi
  p_roles() { k get clusterrole cluster-admin admin edit view -o name | wc -l | grep -qx 4; }
  probe "$v the default ClusterRoles cluster-admin, admin, edit, view exist" p_roles
  p_aggregated() { k get clusterrole view -o jsonpath='{.aggregationRule.clusterRoleSelectors[0].matchLabels}' | grep -F 'aggregate-to-view'; }
  probe "$v view aggregates ClusterRoles labelled aggregate-to-view" p_aggregated
done

# ---- The Python client.
p_python() {
  /usr/bin/python3 - "$KC" <<'PY'
import sys
from kubernetes import client, config
api = config.new_client_from_config(config_file=sys.argv[1], context="manager")
core = client.CoreV1Api(api)
core.create_namespace({"metadata": {"name": "py"}})
core.create_namespaced_config_map("py", {"metadata": {"name": "cm"}, "data": {"a": "b"}})
status = core.delete_namespaced_config_map("cm", "py", body=client.V1DeleteOptions(dry_run=["All"]))
assert core.read_namespaced_config_map("cm", "py").data == {"a": "b"}, "dry-run delete deleted"
status = core.delete_namespaced_config_map("cm", "py")
assert status.status == "Success" and status.details.name == "cm" and status.details.kind == "configmaps", status
review = client.AuthorizationV1Api(api).create_self_subject_access_review(
    {"spec": {"resourceAttributes": {"verb": "get", "resource": "secrets", "namespace": "py"}}})
assert review.status.allowed is True, review
sar = client.AuthorizationV1Api(api).create_subject_access_review(
    {"spec": {"user": "nobody", "resourceAttributes": {"verb": "get", "resource": "secrets", "namespace": "py"}}})
assert sar.status.allowed is False, sar
print("python ok")
PY
}
probe "python client: dry-run delete keeps the object, a delete returns Status{Success}, SelfSubjectAccessReview and SubjectAccessReview answer" p_python

echo "$probes probes, $failures failed"
[ "$failures" -eq 0 ] || exit 1
pass "conformance"
