#!/usr/bin/env bash
# Conformance probes, third file (issue 16): LISTs in pages (a consistent
# snapshot, remainingItemCount, continue tokens as kube-apiserver writes and
# reads them), a LIST's resourceVersion without resourceVersionMatch,
# `kubectl get all`, the Warning of a deprecated CRD version and the CEL cost
# limits. Each probe states the kube-apiserver v1.33 behaviour it
# asserts; kubectl 1.27, 1.32 and 1.33, curl and the Python client.
# Usage: conformance_lists_test.sh MKQ [KUBECTL_DIR]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: conformance_lists_test.sh MKQ [KUBECTL_DIR]}
DIR=${2:-$(dirname "$(readlink -f /usr/bin/kubectl 2>/dev/null || echo /usr/lib/google-cloud-sdk/bin/kubectl)")}
KUBECTL=/usr/bin/kubectl
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CRDS="$ROOT/../shared/kueue/crds"
. "$(dirname "$0")/common.sh"
e2e_require_clients
command -v curl >/dev/null || { echo "SKIPPED: curl not found"; exit 77; }
if [ ! -d "$CRDS" ]; then
  echo "SKIPPED: $CRDS not found"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi
e2e_setup conformance-lists

failures=0
probes=0
# probe "BEHAVIOUR" COMMAND...: common.sh's.
py() { /usr/bin/python3 -c "$@"; }

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager --crds "$CRDS" >"$TMP/up" 2>&1 || { cat "$TMP/up"; fail "mkq sandbox up"; }
KC=$SB/kubeconfig
SERVER=$(k config view --raw -o jsonpath='{.clusters[0].cluster.server}')
k config view --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d >"$TMP/ca.crt"
k config view --raw -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d >"$TMP/admin.crt"
k config view --raw -o jsonpath='{.users[0].user.client-key-data}' | base64 -d >"$TMP/admin.key"
# admin_curl ARGS...: the body in $TMP/body, the headers in $TMP/headers, the status on stdout.
admin_curl() { curl -sS --cacert "$TMP/ca.crt" --cert "$TMP/admin.crt" --key "$TMP/admin.key" -D "$TMP/headers" -o "$TMP/body" -w '%{http_code}' "$@"; }
CMS=$SERVER/api/v1/namespaces/pages/configmaps
k create namespace pages >/dev/null || fail "namespace pages"
for name in a b c d e; do k -n pages create configmap "$name" --from-literal=v=old >/dev/null || fail "configmap $name"; done

# ---- Over HTTP (curl).
p_remaining() {
  code=$(admin_curl "$CMS?limit=2")
  [ "$code" = 200 ] && py 'import json,sys; m=json.load(open(sys.argv[1]))["metadata"]
sys.exit(0 if m["remainingItemCount"]==3 and m["continue"] else print(m) or 1)' "$TMP/body"
}
probe "a LIST with limit says remainingItemCount (objects after the page) beside its continue token" p_remaining
p_token() {
  admin_curl "$CMS?limit=2" >/dev/null
  py 'import base64,json,sys; m=json.load(open(sys.argv[1]))["metadata"]; t=m["continue"]
d=base64.urlsafe_b64decode(t+"="*(-len(t)%4)).decode()
sys.exit(0 if "=" not in t and d==("{\"v\":\"meta.k8s.io/v1\",\"rv\":%s,\"start\":\"b\\u0000\"}" % m["resourceVersion"]) else print(d) or 1)' "$TMP/body"
}
probe "the continue token is base64url (no padding) of {\"v\":\"meta.k8s.io/v1\",\"rv\":N,\"start\":\"<last>\\u0000\"}" p_token
p_snapshot() {
  admin_curl "$CMS?limit=2" >/dev/null || return 1
  cp "$TMP/body" "$TMP/page1"
  k -n pages patch configmap c --type=merge -p '{"data":{"v":"new"}}' >/dev/null &&
    k -n pages delete configmap d >/dev/null && k -n pages create configmap bb --from-literal=v=new >/dev/null || return 1
  token=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["metadata"]["continue"])' "$TMP/page1")
  admin_curl "$CMS?limit=2&continue=$token" >/dev/null
  py 'import json,sys; p1=json.load(open(sys.argv[1])); p2=json.load(open(sys.argv[2]))
got=[(i["metadata"]["name"], i["data"]["v"]) for i in p2["items"]]
ok=got==[("c","old"),("d","old")] and p2["metadata"]["resourceVersion"]==p1["metadata"]["resourceVersion"] and p2["metadata"]["remainingItemCount"]==1
sys.exit(0 if ok else print(got, p2["metadata"]) or 1)' "$TMP/page1" "$TMP/body"
}
probe "later pages read the first page's snapshot: a changed object as it was, a deleted one still there, a new one not, at the first page's resourceVersion" p_snapshot
p_last_page() {
  admin_curl "$CMS?limit=10" >/dev/null
  py 'import json,sys; m=json.load(open(sys.argv[1]))["metadata"]
sys.exit(0 if "continue" not in m and "remainingItemCount" not in m else print(m) or 1)' "$TMP/body"
}
probe "the last page has neither continue nor remainingItemCount" p_last_page
p_selector_no_count() {
  admin_curl "$CMS?limit=1&fieldSelector=metadata.name!=zz" >/dev/null  # unencoded, as Go's ParseQuery takes it
  py 'import json,sys; m=json.load(open(sys.argv[1]))["metadata"]; sys.exit(0 if m["continue"] and "remainingItemCount" not in m else print(m) or 1)' "$TMP/body"
}
probe "a LIST with a selector pages without remainingItemCount (kube-apiserver cannot count matches)" p_selector_no_count
p_bad_token() {
  code=$(admin_curl "$CMS?limit=1&continue=abc!def")
  [ "$code" = 400 ] && py 'import json,sys; s=json.load(open(sys.argv[1]))
sys.exit(0 if s["reason"]=="BadRequest" and s["message"]=="invalid continue token: continue key is not valid: illegal base64 data at input byte 3" else print(s) or 1)' "$TMP/body"
}
probe "a malformed continue token is 400 BadRequest: invalid continue token: ... illegal base64 data at input byte 3" p_bad_token
p_token_and_rv() {
  admin_curl "$CMS?limit=1" >/dev/null
  token=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["metadata"]["continue"])' "$TMP/body")
  code=$(admin_curl "$CMS?limit=1&continue=$token&resourceVersion=1")
  [ "$code" = 400 ] && grep -F 'specifying resource version is not allowed when using continue' "$TMP/body"
}
probe "continue with a resourceVersion is 400: specifying resource version is not allowed when using continue" p_token_and_rv
# A resourceVersion without resourceVersionMatch, as kube-apiserver's shouldDelegateList routes it.
# Its own namespace: the kubectl probes below count the objects of "pages".
RVS=$SERVER/api/v1/namespaces/rv/configmaps
p_rv_not_older_than() {
  k create namespace rv >/dev/null && admin_curl "$RVS" >/dev/null || return 1
  before=$(py 'import json,sys; print(json.load(open(sys.argv[1]))["metadata"]["resourceVersion"])' "$TMP/body")
  k -n rv create configmap rv-later --from-literal=v=new >/dev/null || return 1
  code=$(admin_curl "$RVS?resourceVersion=$before")
  [ "$code" = 200 ] && py 'import json,sys; l=json.load(open(sys.argv[1])); names=[i["metadata"]["name"] for i in l["items"]]
sys.exit(0 if "rv-later" in names and int(l["metadata"]["resourceVersion"])>int(sys.argv[2]) else print(names, l["metadata"]) or 1)' "$TMP/body" "$before" || return 1
  code=$(admin_curl "$RVS?resourceVersion=$before&limit=100")
  [ "$code" = 200 ] && py 'import json,sys; l=json.load(open(sys.argv[1])); names=[i["metadata"]["name"] for i in l["items"]]
sys.exit(0 if "rv-later" not in names and l["metadata"]["resourceVersion"]==sys.argv[2] else print(names, l["metadata"]) or 1)' "$TMP/body" "$before"
}
probe "resourceVersion=N without a limit is NotOlderThan (the current list); with a limit the legacy Exact (the list at N)" p_rv_not_older_than
p_rv_too_large() {
  code=$(admin_curl "$CMS?resourceVersion=999999999")
  [ "$code" = 504 ] && tr -d '\r' <"$TMP/headers" | grep -ix 'retry-after: 1' &&
    py 'import json,sys; s=json.load(open(sys.argv[1]))
ok=s["reason"]=="Timeout" and s["message"].startswith("Timeout: Too large resource version: 999999999, current: ") and s["details"]=={"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1}
sys.exit(0 if ok else print(s) or 1)' "$TMP/body"
}
probe "a resourceVersion the cluster has not reached is 504 Timeout: Too large resource version (ResourceVersionTooLarge, Retry-After: 1)" p_rv_too_large
p_rv_not_a_number() {
  code=$(admin_curl "$CMS?resourceVersion=abc")
  [ "$code" = 500 ] && py 'import json,sys; s=json.load(open(sys.argv[1]))
sys.exit(0 if s=={"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax","code":500} else print(s) or 1)' "$TMP/body" || return 1
  code=$(admin_curl "$CMS?resourceVersion=abc&limit=1")
  [ "$code" = 400 ] && py 'import json,sys; s=json.load(open(sys.argv[1]))
sys.exit(0 if s["reason"]=="BadRequest" and s["message"]=="invalid resource version: resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax" else print(s) or 1)' "$TMP/body"
}
probe "a resourceVersion that is no number: the watch cache's 500 without a reason, etcd's 400 (with a limit)" p_rv_not_a_number
p_rv_kubectl() {
  ! k get --raw "/api/v1/namespaces/pages/configmaps?resourceVersion=999999999&limit=1" >"$TMP/raw.out" 2>"$TMP/raw.err" &&
    cat "$TMP/raw.err" && grep -F 'Timeout: Too large resource version: 999999999, current: ' "$TMP/raw.err"
}
probe "kubectl get --raw of a LIST at a resourceVersion not reached fails with Too large resource version" p_rv_kubectl
p_warning_header() {
  code=$(admin_curl "$SERVER/apis/kueue.x-k8s.io/v1beta1/clusterqueues")
  [ "$code" = 200 ] && tr -d '\r' <"$TMP/headers" | grep -ix 'warning: 299 - "This version is deprecated. Use v1beta2 instead."'
}
probe "a request to a deprecated CRD version (Kueue's v1beta1) answers Warning: 299 - \"<its deprecationWarning>\"" p_warning_header
p_no_warning() {
  admin_curl "$SERVER/apis/kueue.x-k8s.io/v1beta2/clusterqueues" >/dev/null
  ! grep -i '^warning:' "$TMP/headers"
}
probe "a request to the served version that is not deprecated has no Warning" p_no_warning

# ---- kubectl, each version.
for version in 1.27 1.32 1.33; do
  KUBECTL=$DIR/kubectl.$version
  if [ ! -x "$KUBECTL" ]; then
    echo "SKIPPED: kubectl $version not found ($KUBECTL)"
    continue
  fi
  v="kubectl $version:"
  p_chunks() {
    k -n pages get configmaps --chunk-size=2 -v=6 >"$TMP/chunks" 2>&1 || { cat "$TMP/chunks"; return 1; }
    [ "$(grep -c 'configmaps?continue=' "$TMP/chunks")" -ge 2 ] && [ "$(k -n pages get configmaps --chunk-size=2 -o name | wc -l)" = 5 ]
  }
  probe "$v get --chunk-size=2 follows the continue tokens to every object" p_chunks
  p_deprecated() {
    k get clusterqueues.v1beta1.kueue.x-k8s.io 2>&1 >/dev/null | grep -Fx 'Warning: This version is deprecated. Use v1beta2 instead.'
  }
  probe "$v shows a deprecated version's warning on stderr" p_deprecated
  p_get_all() {
    ns=all-${version/./-}
    k create namespace "$ns" >/dev/null &&
      printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx}]}\n' |
      k -n "$ns" apply -f - >/dev/null &&
      k -n "$ns" run pod1 --image=nginx >/dev/null || return 1
    out=$(k -n "$ns" get all -o name) || return 1
    echo "$out"
    echo "$out" | grep -qx 'pod/pod1' && echo "$out" | grep -qx 'deployment.apps/web' && ! echo "$out" | grep -q configmap
  }
  probe "$v get all lists the kinds in the \"all\" category (pods, deployments) and no others" p_get_all
done
KUBECTL=/usr/bin/kubectl

# ---- The Python client.
p_python() {
  /usr/bin/python3 - "$KC" <<'PY'
import sys
from kubernetes import client, config
core = client.CoreV1Api(config.new_client_from_config(config_file=sys.argv[1], context="manager"))
first = core.list_namespaced_config_map("pages", limit=2)
assert first.metadata.remaining_item_count == 3 and first.metadata._continue, first.metadata
names = [i.metadata.name for i in first.items]
token = first.metadata._continue
while token:
    page = core.list_namespaced_config_map("pages", limit=2, _continue=token)
    assert page.metadata.resource_version == first.metadata.resource_version, page.metadata
    names += [i.metadata.name for i in page.items]
    token = page.metadata._continue
assert names == ["a", "b", "bb", "c", "e"], names
print("python ok", names)
PY
}
probe "python client: remaining_item_count on the first page, every page at its resourceVersion, every object once" p_python

# ---- CEL cost limits.
# crd PLURAL KIND PROPERTY RULE: a cluster-scoped example.com/v1 CRD whose spec has PROPERTY (flow YAML) and RULE.
crd() {
  printf 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: %s.example.com}\nspec:\n  group: example.com\n  scope: Cluster\n  names: {plural: %s, kind: %s}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties: {%s}\n            x-kubernetes-validations: [{rule: "%s"}]\n' "$1" "$1" "$2" "$3" "$4"
}
p_cost_refused() {
  crd costly Costly 'names: {type: array, items: {type: string}}' 'self.names.all(x, self.names.all(y, self.names.all(z, x == y)))' |
    k apply -f - 2>&1 | grep -F 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)'
}
probe "a CRD whose rule's estimated cost is over the per-rule limit is refused: Forbidden, estimated rule cost exceeds budget" p_cost_refused
p_cost_runtime() {
  crd sums Sum 'l: {type: array, maxItems: 900, items: {type: integer}}' 'self.l.all(x, self.l.all(y, x <= y || x > y))' |
    k apply -f - >/dev/null || return 1
  sleep 0.5
  py 'import json; print(json.dumps({"apiVersion":"example.com/v1","kind":"Sum","metadata":{"name":"big"},"spec":{"l":list(range(900))}}))' >"$TMP/big.json"
  k create -f "$TMP/big.json" 2>&1 | grep -F "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(x, self.l.all(y, x <= y || x > y))"
}
probe "an object whose rule costs more than the per-call limit at runtime is 422: call cost exceeds limit for rule" p_cost_runtime

echo "$probes probes, $failures failed"
[ "$failures" -eq 0 ] || exit 1
pass "conformance lists"
