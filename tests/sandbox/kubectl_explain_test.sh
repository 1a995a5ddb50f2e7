#!/usr/bin/env bash
# kubectl explain of the built-in kinds whose served OpenAPI comes from the
# decoder's types (sandbox/builtin_types.h): fields of Lease, Pod, Node, Event
# and Deployment (once empty schemas), and the texts ConfigMap, Secret and RBAC
# have always shown. kubectl 1.33 and 1.27 (each absent one skipped visibly).
# Usage: kubectl_explain_test.sh MKQ [KUBECTL...]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: kubectl_explain_test.sh MKQ [KUBECTL...]}
shift
. "$(dirname "$0")/kubectl_lib.sh"
select_kubectls 1.33 1.27 -- "$@" || exit 77
present=("${PRESENT[@]}")

start_sandbox explain

failures=0
# explain KUBECTL FIELD TEXT...: `kubectl explain FIELD` succeeds and shows every TEXT.
explain() {
  local kubectl=$1 field=$2
  shift 2
  local name="$(basename "$kubectl") explain $field"
  if ! timeout 30 "$kubectl" --kubeconfig "$TMP/sandbox/kubeconfig" explain "$field" >"$TMP/out" 2>&1; then
    echo "FAIL: $name"
    sed 's/^/    /' "$TMP/out" | head -20
    failures=$((failures + 1))
    return
  fi
  for text in "$@"; do
    if ! grep -qF -- "$text" "$TMP/out"; then
      echo "FAIL: $name (missing: $text)"
      sed 's/^/    /' "$TMP/out" | head -40
      failures=$((failures + 1))
      return
    fi
  done
  echo "PASS: $name"
}

for k in "${present[@]}"; do
  explain "$k" lease.spec "holderIdentity" "leaseDurationSeconds" "renewTime" "spec contains the specification of the Lease."
  explain "$k" pod.spec.containers "A single application container that you want to run within a pod." \
    "image" "imagePullPolicy" "resources" "-required-"
  explain "$k" node.spec.taints "The taint key to be applied to a node." "effect" "timeAdded" "-required-"
  explain "$k" event.involvedObject "The object that this event is about." "fieldPath" "uid"
  explain "$k" deployment.spec.template.spec.containers.ports "containerPort"
  explain "$k" statefulset.spec.updateStrategy "rollingUpdate" "Type indicates the type of the StatefulSetUpdateStrategy."
  explain "$k" daemonset.status "desiredNumberScheduled" "-required-"
  # ObjectMeta's schema, generated from the decoder's ObjectMeta type (kube's texts).
  explain "$k" configmap.metadata.ownerReferences "OwnerReference contains enough information" "blockOwnerDeletion" "-required-"
  explain "$k" pod.metadata.labels "Map of string keys and values that can be used to organize and categorize"
  # The texts served before the schemas were generated, unchanged.
  explain "$k" configmap.binaryData "BinaryData contains the binary data."
  explain "$k" secret.stringData "stringData allows specifying non-binary secret data in string form."
  explain "$k" clusterrole.rules "PolicyRule holds information that describes a policy rule." "verbs" "-required-"
  explain "$k" rolebinding.roleRef "RoleRef contains information that points to the role being used." "apiGroup"
  explain "$k" namespace.status.phase "Phase is the current lifecycle phase of the namespace."
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all explain probes passed"
