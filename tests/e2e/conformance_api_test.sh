#!/usr/bin/env bash
# Conformance probes, second file (issue 16.6): server-side apply and
# managedFields, TokenReview, API Priority and Fairness after impersonation,
# the body limit after authorization, tables (Created At, bindings, CRD
# columns, watches) and field selectors. Each probe states the kube-apiserver
# v1.33 behaviour it asserts; kubectl 1.27, 1.32 and 1.33, curl and the
# Python client. conformance_test.sh holds the first file's probes.
# Usage: conformance_api_test.sh MKQ [KUBECTL_DIR]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: conformance_api_test.sh MKQ [KUBECTL_DIR]}
DIR=${2:-$(dirname "$(readlink -f /usr/bin/kubectl 2>/dev/null || echo /usr/lib/google-cloud-sdk/bin/kubectl)")}
KUBECTL=/usr/bin/kubectl
. "$(dirname "$0")/common.sh"
conformance_setup conformance-api
py() { /usr/bin/python3 -c "$@"; }
# header: the first line of a kubectl table, its columns single-spaced.
header() { head -1 | tr -s ' ' | sed 's/ $//'; }
# The APF flow schema UID of the last curl -D "$TMP/headers".
flow_uid() { tr -d '\r' <"$TMP/headers" | sed -n 's/^x-kubernetes-pf-flowschema-uid: //Ip'; }

k apply -f - >/dev/null <<'YAML' || fail "the Gadget CRD"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              items:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, required: [name], properties: {name: {type: string}, size: {type: integer}}}
YAML
k -n default create serviceaccount robot >/dev/null || fail "ServiceAccount robot"
sleep 0.5

# ---- Over HTTP (curl).
p_anon_big() {
  head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' 'x' >"$TMP/big"
  code=$(anon -X POST -H 'Content-Type: application/json' --data-binary @"$TMP/big" "$SERVER/api/v1/namespaces/default/configmaps")
  [ "$code" = 403 ] || { echo "status $code"; return 1; }
  grep -F 'User \"system:anonymous\" cannot create resource \"configmaps\"' "$TMP/body"
}
probe "an anonymous body over 3 MiB is 403 naming system:anonymous (authorization runs before the body is read)" p_anon_big
p_tokenreview() {
  token=$(k -n default create token robot) || return 1
  code=$(admin_curl -X POST -H 'Content-Type: application/json' \
    -d "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"spec\":{\"token\":\"$token\"}}" \
    "$SERVER/apis/authentication.k8s.io/v1/tokenreviews")
  [ "$code" = 201 ] || { echo "status $code"; cat "$TMP/body"; return 1; }
  py 'import json,sys; s=json.load(open(sys.argv[1]))["status"]; u=s["user"]
sys.exit(0 if s["authenticated"] and u["username"]=="system:serviceaccount:default:robot" and u["uid"] and "system:serviceaccounts:default" in u["groups"] else print(s) or 1)' "$TMP/body"
}
probe "TokenReview of a ServiceAccount token: authenticated, the account's name, uid and groups" p_tokenreview
p_tokenreview_bad() {
  code=$(admin_curl -X POST -H 'Content-Type: application/json' -d '{"spec":{"token":"nope"}}' "$SERVER/apis/authentication.k8s.io/v1/tokenreviews")
  [ "$code" = 201 ] && py 'import json,sys; s=json.load(open(sys.argv[1]))["status"]; sys.exit(0 if s=={"user":{}} else print(s) or 1)' "$TMP/body"
}
probe "TokenReview of an unknown token: 201, status.user empty, authenticated omitted" p_tokenreview_bad
p_apf_impersonated() {
  token=$(k -n default create token robot) || return 1
  anon -D "$TMP/headers" -H "Authorization: Bearer $token" "$SERVER/api/v1/namespaces/default/configmaps" >/dev/null
  as_robot=$(flow_uid)
  admin_curl -D "$TMP/headers" "$SERVER/api/v1/namespaces/default/configmaps" >/dev/null
  as_admin=$(flow_uid)
  admin_curl -D "$TMP/headers" -H "Impersonate-User: system:serviceaccount:default:robot" "$SERVER/api/v1/namespaces/default/configmaps" >/dev/null
  impersonated=$(flow_uid)
  echo "robot $as_robot admin $as_admin impersonated $impersonated"
  [ -n "$as_robot" ] && [ "$as_robot" != "$as_admin" ] && [ "$impersonated" = "$as_robot" ]
}
probe "API Priority and Fairness classifies the impersonated user (the impersonation filter runs first)" p_apf_impersonated
p_user_agent_manager() {
  code=$(admin_curl -A "my-tool/1.0 (linux)" -X POST -H 'Content-Type: application/json' \
    -d '{"metadata":{"name":"ua"},"data":{"a":"b"}}' "$SERVER/api/v1/namespaces/default/configmaps")
  [ "$code" = 201 ] && py 'import json,sys; m=json.load(open(sys.argv[1]))["metadata"]["managedFields"]
sys.exit(0 if [(e["manager"], e["operation"], e["fieldsV1"]) for e in m]==[("my-tool","Update",{"f:data":{".":{},"f:a":{}}})] else print(m) or 1)' "$TMP/body"
}
probe "a write without ?fieldManager is managed by the User-Agent's first segment, with the fields it set" p_user_agent_manager

# ---- kubectl, each version in its own namespace.
for version in 1.27 1.32 1.33; do
  KUBECTL=$DIR/kubectl.$version
  if [ ! -x "$KUBECTL" ]; then
    echo "SKIPPED: kubectl $version not found ($KUBECTL)"
    continue
  fi
  ns=api-${version/./-}
  k create namespace "$ns" >/dev/null && k -n "$ns" create serviceaccount sa >/dev/null || fail "kubectl $version: setup"
  v="kubectl $version:"
  # ssa MANAGER SPEC: kubectl apply --server-side of the Gadget g with SPEC (flow YAML).
  ssa() { printf 'apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g, namespace: %s}\nspec: %s\n' "$ns" "$2" |
    k apply --server-side --field-manager="$1" -f - ; }

  p_ssa_merge() {
    ssa alice '{size: 1, items: [{name: a, size: 1}]}' && ssa bob '{items: [{name: b, size: 2}]}' || return 1
    [ "$(k -n "$ns" get gadget g -o jsonpath='{.spec.items[*].name}')" = "a b" ] || return 1
    k -n "$ns" get gadget g --show-managed-fields -o json | py 'import json,sys
m={e["manager"]: e["fieldsV1"]["f:spec"] for e in json.load(sys.stdin)["metadata"]["managedFields"]}
sys.exit(0 if list(m["bob"]["f:items"])==["k:{\"name\":\"b\"}"] and "k:{\"name\":\"a\"}" in m["alice"]["f:items"] else print(m) or 1)'
  }
  probe "$v two managers applying different items of a list-type map list are merged, each owning its k:{...} items" p_ssa_merge
  p_ssa_set() {
    ssa alice '{size: 1, items: [{name: a, size: 1}], tags: [red]}' && ssa bob '{items: [{name: b, size: 2}], tags: [blue]}' || return 1
    [ "$(k -n "$ns" get gadget g -o jsonpath='{.spec.tags[*]}')" = "red blue" ]
  }
  probe "$v two managers applying different values of a list-type set list are merged" p_ssa_set
  p_ssa_noop() {
    before=$(k -n "$ns" get gadget g -o jsonpath='{.metadata.resourceVersion}')
    ssa alice '{size: 1, items: [{name: a, size: 1}], tags: [red]}' || return 1
    after=$(k -n "$ns" get gadget g -o jsonpath='{.metadata.resourceVersion}')
    echo "$before -> $after"
    [ -n "$before" ] && [ "$before" = "$after" ]
  }
  probe "$v an identical server-side apply is a no-op: the resourceVersion stays" p_ssa_noop
  p_ssa_conflict() {
    ssa bob '{items: [{name: a, size: 5}, {name: b, size: 2}], tags: [blue]}' 2>&1 | tee /dev/stderr |
      grep -F 'Apply failed with 1 conflict: conflict with "alice": .spec.items[name="a"].size'
  }
  probe "$v changing another Apply manager's list item conflicts: 'conflict with \"alice\": .spec.items[name=\"a\"].size'" p_ssa_conflict
  p_ssa_prune() {
    ssa alice '{size: 1}' || return 1
    [ "$(k -n "$ns" get gadget g -o jsonpath='{.spec.items[*].name} {.spec.tags[*]}')" = "b blue" ]
  }
  probe "$v items a manager stops applying are removed, the other manager's stay" p_ssa_prune
  p_create_manager() {
    k -n "$ns" create configmap made --from-literal=a=b >/dev/null || return 1
    got=$(k -n "$ns" get configmap made --show-managed-fields -o jsonpath='{.metadata.managedFields[0].manager}/{.metadata.managedFields[0].operation}')
    echo "$got"
    [ "$got" = kubectl-create/Update ]
  }
  probe "$v kubectl create's object is managed by kubectl-create (operation Update)" p_create_manager
  p_label_manager() {
    k -n "$ns" label configmap made team=x >/dev/null || return 1
    k -n "$ns" get configmap made --show-managed-fields -o jsonpath='{.metadata.managedFields[*].manager}' | grep -w kubectl-label
  }
  probe "$v kubectl label's change is managed by kubectl-label" p_label_manager
  p_role_table() {
    k -n "$ns" create role r --verb=get --resource=configmaps >/dev/null || return 1
    [ "$(k -n "$ns" get role r | header)" = "NAME CREATED AT" ] && k -n "$ns" get role r --no-headers | grep -E '^r +[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$'
  }
  probe "$v get role prints NAME CREATED AT (an RFC 3339 time)" p_role_table
  p_binding_wide() {
    k -n "$ns" create rolebinding rb --role=r --user=u1 --group=g1 --serviceaccount="$ns:sa" >/dev/null || return 1
    [ "$(k -n "$ns" get rolebinding rb -o wide | header)" = "NAME ROLE AGE USERS GROUPS SERVICEACCOUNTS" ] &&
      k -n "$ns" get rolebinding rb -o wide --no-headers | grep -E "^rb +Role/r +[0-9]+s +u1 +g1 +$ns/sa$"
  }
  probe "$v get rolebinding -o wide prints ROLE, USERS, GROUPS and SERVICEACCOUNTS" p_binding_wide
  p_crd_table() { [ "$(k get crd gadgets.example.com | header)" = "NAME CREATED AT" ]; }
  probe "$v get crd prints NAME CREATED AT" p_crd_table
  p_cr_columns() { [ "$(k -n "$ns" get gadget g | header)" = "NAME SIZE" ]; }
  probe "$v a custom resource whose CRD declares columns gets exactly those (no added AGE)" p_cr_columns
  p_watch_table() {
    k -n "$ns" get configmaps --watch-only >"$TMP/watch.$ns" 2>&1 &
    watcher=$!
    sleep 1
    k -n "$ns" create configmap watched --from-literal=a=b >/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do grep -q watched "$TMP/watch.$ns" && break; sleep 0.2; done
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
    cat "$TMP/watch.$ns"
    [ "$(header <"$TMP/watch.$ns")" = "NAME DATA AGE" ] && grep -E '^watched +1 +[0-9]+s$' "$TMP/watch.$ns"
  }
  probe "$v get -w keeps the kind's table columns (watch events as Table)" p_watch_table
  p_secret_type() {
    k -n "$ns" create secret generic s1 --from-literal=a=b >/dev/null || return 1
    [ "$(k -n "$ns" get secrets --field-selector type=Opaque -o name)" = secret/s1 ]
  }
  probe "$v the field selector type= selects Secrets" p_secret_type
  p_ns_phase() { k get namespaces --field-selector status.phase=Active -o name | grep -x "namespace/$ns"; }
  probe "$v the field selector status.phase= selects Namespaces" p_ns_phase
done

# ---- The Python client.
p_python() {
  /usr/bin/python3 - "$KC" "$(k -n default create token robot)" <<'PY'
import sys
from kubernetes import client, config
api = config.new_client_from_config(config_file=sys.argv[1], context="manager")
core = client.CoreV1Api(api)
made = core.create_namespaced_config_map("default", {"metadata": {"name": "py-made"}, "data": {"a": "b"}})
managers = [(e.manager, e.operation) for e in made.metadata.managed_fields]
assert managers == [("OpenAPI-Generator", "Update")], managers
review = client.AuthenticationV1Api(api).create_token_review({"spec": {"token": sys.argv[2]}})
assert review.status.authenticated and review.status.user.username == "system:serviceaccount:default:robot", review.status
print("python ok")
PY
}
probe "python client: a create is managed by OpenAPI-Generator (its User-Agent), TokenReview authenticates" p_python

echo "$probes probes, $failures failed"
[ "$failures" -eq 0 ] || exit 1
pass "conformance (api)"
