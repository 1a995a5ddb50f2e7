#!/usr/bin/env bash
# apps/v1 workloads through kubectl 1.27, /usr/bin/kubectl (1.32) and 1.33:
# `create deployment` (protobuf from 1.32 on), the ReplicaSet its controller
# makes, `get all`, `rollout status`, `scale`, `rollout history`, StatefulSets
# and DaemonSets with their printers, a refused selector, and `delete` taking
# the ReplicaSet with it (and `--cascade=orphan` leaving it, `foreground`
# taking it first). Each probe states the kube-apiserver v1.33
# behaviour it asserts. Each kubectl works in its own namespace.
# Usage: kinds_apps_test.sh MKQ [KUBECTL...]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: kinds_apps_test.sh MKQ [KUBECTL...]}
shift
. "$(dirname "$0")/kubectl_lib.sh"
select_kubectls 1.27 /usr/bin/kubectl 1.33 -- "$@" || exit 77

start_sandbox apps

failures=0
# probe NAME -- CMD...: CMD succeeds (its output in $TMP/out for the checks after it).
probe() {
  local name=$1
  shift 2
  if "$@" >"$TMP/out" 2>&1; then
    echo "PASS: $name"
    return 0
  fi
  echo "FAIL: $name"
  sed 's/^/    /' "$TMP/out" | head -20
  failures=$((failures + 1))
  return 1
}
# has TEXT...: every TEXT is in $TMP/out.
has() {
  for text in "$@"; do grep -qE -- "$text" "$TMP/out" || { echo "missing: $text"; cat "$TMP/out"; return 1; }; done
}
# refused TEXT CMD...: CMD fails and says TEXT.
refused() {
  local text=$1
  shift
  ! "$@" >"$TMP/out" 2>&1 && has "$text"
}

for k in "${PRESENT[@]}"; do
  v=$(basename "$k")
  [ "$v" = kubectl ] && v=kubectl-usr-bin
  ns=apps-${v//./-}
  kc() { timeout 40 "$k" --kubeconfig "$TMP/sandbox/kubeconfig" -n "$ns" "$@"; }
  kc create namespace "$ns" >/dev/null 2>&1

  # kube: POST deployments answers 201 whatever the encoding (kubectl 1.32+ sends protobuf).
  probe "$v: create deployment web --image=nginx is created" -- kc create deployment web --image=nginx --replicas=2
  has 'deployment.apps/web created' || failures=$((failures + 1))
  # kube: the Deployment controller makes one ReplicaSet per template, named web-HASH; `get all` lists both.
  probe "$v: get all shows the deployment and its replicaset" -- kc get all
  has 'deployment.apps/web' 'replicaset.apps/web-[a-z0-9]+ ' || failures=$((failures + 1))
  # kube: the ReplicaSet is controlled by the Deployment (ownerReferences, controller: true).
  probe "$v: the replicaset is owned by the deployment" -- \
    kc get rs -l app=web -o 'jsonpath={.items[0].metadata.ownerReferences[0].kind}/{.items[0].metadata.ownerReferences[0].controller}/{.items[0].metadata.labels.pod-template-hash}'
  has '^Deployment/true/[a-z0-9]+$' || failures=$((failures + 1))
  # kube: a rollout completes once the new ReplicaSet's pods are available.
  probe "$v: rollout status deployment/web completes" -- kc rollout status deployment/web --timeout=30s
  has 'successfully rolled out' || failures=$((failures + 1))
  # kube: kubectl scale patches deployments/web/scale (autoscaling/v1 Scale, found through discovery).
  probe "$v: scale deployment web --replicas=3" -- kc scale deployment web --replicas=3
  has 'deployment.apps/web scaled' || failures=$((failures + 1))
  probe "$v: the deployment and its replicaset have 3 replicas" -- \
    kc get deploy,rs -l app=web -o 'jsonpath={range .items[*]}{.kind}={.spec.replicas} {end}'
  has '^Deployment=3 ReplicaSet=3 $' || failures=$((failures + 1))
  # kube: the ReplicaSet printer's columns, -o wide adds CONTAINERS IMAGES SELECTOR.
  probe "$v: get rs -o wide" -- kc get rs -o wide
  has '^NAME +DESIRED +CURRENT +READY +AGE +CONTAINERS +IMAGES +SELECTOR' 'nginx +nginx +app=web,pod-template-hash=' ||
    failures=$((failures + 1))
  # kube: rollout history reads the ReplicaSets' deployment.kubernetes.io/revision.
  probe "$v: rollout history lists revision 1" -- kc rollout history deployment/web
  has '^1 ' || failures=$((failures + 1))

  cat >"$TMP/workloads.yaml" <<'EOF'
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {pool: gpu}
      containers: [{name: agent, image: agent:1}]
EOF
  # kube: both created; a StatefulSet's rollout is complete when every replica is ready and updated
  # (kubectl words it "partitioned" since the defaulted updateStrategy has partition 0).
  probe "$v: create a statefulset and a daemonset" -- kc create -f "$TMP/workloads.yaml"
  probe "$v: rollout status statefulset/db completes" -- kc rollout status statefulset/db --timeout=30s
  has 'partitioned roll out complete: 2 new pods have been updated' || failures=$((failures + 1))
  # kube: the StatefulSet printer: NAME READY AGE.
  probe "$v: get sts prints READY 2/2" -- kc get sts db
  has '^NAME +READY +AGE' '^db +2/2 ' || failures=$((failures + 1))
  # kube: the DaemonSet printer, its NODE SELECTOR from the template's nodeSelector (no Node matches: 0).
  probe "$v: get ds prints its columns" -- kc get ds agent
  has '^NAME +DESIRED +CURRENT +READY +UP-TO-DATE +AVAILABLE +NODE SELECTOR +AGE' '^agent +0 +0 +0 +0 +0 +pool=gpu ' ||
    failures=$((failures + 1))
  # kube: kubectl scale works on statefulsets (statefulsets/scale).
  probe "$v: scale statefulset db --replicas=1" -- kc scale statefulset db --replicas=1
  has 'statefulset.apps/db scaled' || failures=$((failures + 1))

  # kube: 422 `selector` does not match template `labels`.
  cat >"$TMP/bad.yaml" <<'EOF'
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: bad}
spec:
  selector: {matchLabels: {app: one}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: c, image: busybox}]}
EOF
  probe "$v: a replicaset whose selector misses its template is refused" -- \
    refused 'spec.template.metadata.labels: Invalid value: .*`selector` does not match template `labels`' kc create -f "$TMP/bad.yaml"

  # kube: deleting a Deployment (background cascade) deletes its ReplicaSets through the garbage collector.
  probe "$v: delete deployment web" -- kc delete deployment web
  probe "$v: its replicaset is gone" -- kc get rs -l app=web
  has 'No resources found' || failures=$((failures + 1))

  # kube: --cascade=orphan (propagationPolicy Orphan): the garbage collector removes the ReplicaSet's
  # ownerReference, then the Deployment goes; the ReplicaSet stays, owned by nobody.
  kc create deployment keep --image=nginx >/dev/null 2>&1
  probe "$v: delete deployment keep --cascade=orphan" -- kc delete deployment keep --cascade=orphan
  has 'deployment.apps "keep" deleted' || failures=$((failures + 1))
  probe "$v: its replicaset stays, without an owner" -- \
    kc get rs -l app=keep -o 'jsonpath={range .items[*]}{.metadata.name} owners={.metadata.ownerReferences}{end}'
  has '^keep-[a-z0-9]+ owners=$' || failures=$((failures + 1))
  kc delete rs -l app=keep >/dev/null 2>&1
  # kube: a server-side dry run of a foreground delete marks nothing and collects nothing.
  kc create deployment front --image=nginx >/dev/null 2>&1
  probe "$v: delete deployment front --cascade=foreground --dry-run=server" -- \
    kc delete deployment front --cascade=foreground --dry-run=server
  probe "$v: after the dry run the deployment and its replicaset are there" -- \
    kc get deploy,rs -l app=front -o 'jsonpath={range .items[*]}{.kind}:{.metadata.deletionTimestamp} {end}'
  has '^Deployment: ReplicaSet: $' || failures=$((failures + 1))
  # kube: --cascade=foreground: the Deployment waits (foregroundDeletion) until its ReplicaSet
  # (blockOwnerDeletion) is gone; kubectl waits for the Deployment to go.
  probe "$v: delete deployment front --cascade=foreground" -- kc delete deployment front --cascade=foreground
  has 'deployment.apps "front" deleted' || failures=$((failures + 1))
  probe "$v: the deployment and its replicaset are gone" -- kc get deploy,rs -l app=front
  has 'No resources found' || failures=$((failures + 1))
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "all apps probes passed"
