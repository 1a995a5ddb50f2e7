#!/usr/bin/env bash
# Services, batch/v1 Jobs and CronJobs and PriorityClasses in the sandbox,
# probed with /usr/bin/kubectl, kubectl 1.33 and 1.27 (the gcloud SDK's bin
# folder) and the Python client. Each probe names the kube-apiserver v1.33
# behaviour it asserts.
# Usage: kinds_services_jobs_test.sh MKQ [KUBECTL...]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: kinds_services_jobs_test.sh MKQ [KUBECTL...]}
shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=$ROOT/../shared
SAMPLE_JOB=$SHARED/kueue/examples/shared-quota-sample-job.yaml
if [ ! -f "$SAMPLE_JOB" ]; then
  echo "SKIPPED: $SAMPLE_JOB not found"
  exit 77
fi
. "$(dirname "$0")/kubectl_lib.sh"
select_kubectls /usr/bin/kubectl 1.33 1.27 -- "$@" || exit 77
present=("${PRESENT[@]}")
clusters=()
for i in "${!present[@]}"; do clusters+=("kinds-$((i + 1))"); done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mkq-sandbox-kinds.XXXXXX")
cleanup() {
  timeout 30 "$MKQ" sandbox down --dir "$TMP/sandbox" >/dev/null 2>&1
  rm -rf "$TMP"
}
trap cleanup EXIT

failures=0
probes=0
# probe NAME CMD...: CMD must succeed; its output is kept in $TMP/out for the checks that follow.
probe() {
  local name=$1 rc=0
  shift
  probes=$((probes + 1))
  "$@" >"$TMP/step" 2>&1 || rc=$?
  [ "$1" != contains ] && [ "$1" != lacks ] && cp "$TMP/step" "$TMP/out"
  if [ "$rc" -eq 0 ]; then
    echo "PASS: $name"
    return 0
  fi
  echo "FAIL: $name"
  failures=$((failures + 1))
  sed 's/^/    /' "$TMP/step" | head -20
  return 1
}
contains() {
  local file=$1
  shift
  for text in "$@"; do
    grep -qF -- "$text" "$file" || { echo "missing: $text"; cat "$file"; return 1; }
  done
}
# fails CMD...: CMD exits non-zero (its output is shown to the checks that follow).
fails() { ! "$@"; }

cluster_list=$(IFS=,; echo "${clusters[*]}")
if ! timeout 60 "$MKQ" sandbox up --dir "$TMP/sandbox" --clusters "$cluster_list" >"$TMP/up" 2>&1; then
  echo "FAIL: mkq sandbox up"
  sed 's/^/    /' "$TMP/up"
  exit 1
fi
echo "PASS: mkq sandbox up ($cluster_list)"

cat >"$TMP/taken-ip.yaml" <<'EOF'
apiVersion: v1
kind: Service
metadata:
  name: taken
spec:
  clusterIP: 10.96.0.1
  ports:
  - port: 80
EOF
cat >"$TMP/cronjob.yaml" <<'EOF'
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: busybox:1.36
EOF
cat >"$TMP/always.yaml" <<'EOF'
apiVersion: batch/v1
kind: Job
metadata:
  name: always
spec:
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.36
EOF

for i in "${!present[@]}"; do
  kubectl=${present[$i]}
  cluster=${clusters[$i]}
  version=$("$kubectl" version --client -o json 2>/dev/null | sed -n 's/.*"gitVersion": *"\([^"]*\)".*/\1/p' | head -1)
  echo "=== $kubectl ($version) on cluster $cluster"
  k() { timeout 60 "$kubectl" --kubeconfig "$TMP/sandbox/kubeconfig" --context "$cluster" --cache-dir "$TMP/cache-$cluster" "$@"; }
  p="[$version]"

  # The bootstrap controller's default/kubernetes Service: 10.96.0.1, 443/TCP.
  probe "$p get svc kubernetes: ClusterIP 10.96.0.1 443/TCP" k get svc kubernetes -n default
  probe "$p   its row" contains "$TMP/out" "kubernetes   ClusterIP   10.96.0.1" "443/TCP"
  # A generated Service gets a clusterIP from 10.96.0.0/12 and targetPort from --tcp.
  probe "$p create service clusterip web --tcp=80:8080" k create service clusterip web --tcp=80:8080
  probe "$p   clusterIP allocated in 10.96.0.0/12" k get svc web -o 'jsonpath={.spec.clusterIP} {.spec.ports[0].targetPort} {.spec.ipFamilyPolicy}'
  probe "$p   targetPort 8080, SingleStack" contains "$TMP/out" "10." " 8080 SingleStack"
  # A NodePort Service keeps the node port it asked for; PORT(S) prints port:nodePort/protocol.
  probe "$p create service nodeport np --tcp=80:8080 --node-port=30080" k create service nodeport np --tcp=80:8080 --node-port=30080
  probe "$p   get svc np -o wide" k get svc np -o wide
  probe "$p   NodePort 80:30080/TCP, SELECTOR app=np" contains "$TMP/out" "NodePort" "80:30080/TCP" "app=np"
  # An explicit clusterIP already held is refused with the allocator's words (422).
  probe "$p apply a Service on 10.96.0.1 is refused" fails k apply -f "$TMP/taken-ip.yaml"
  probe "$p   provided IP is already allocated" contains "$TMP/out" 'failed to allocate IP 10.96.0.1: provided IP is already allocated'
  # generateName works: the tutorial's sample Job is created with a random suffix.
  probe "$p create -f shared-quota-sample-job.yaml" k create -f "$SAMPLE_JOB"
  probe "$p   job.batch/sample-job-XXXXX created" contains "$TMP/out" "job.batch/sample-job-" "created"
  # No job controller: the Job prints Running, 0/1, no duration.
  probe "$p get jobs" k get jobs
  probe "$p   STATUS Running, COMPLETIONS 0/1" contains "$TMP/out" "NAME" "STATUS" "COMPLETIONS" "DURATION" "Running" "0/1"
  # The generated selector and the four labels of the pod template.
  probe "$p   generated selector and template labels" k get jobs -o 'jsonpath={.items[0].spec.selector.matchLabels} {.items[0].spec.template.metadata.labels}'
  probe "$p   batch.kubernetes.io/controller-uid, job-name" contains "$TMP/out" "batch.kubernetes.io/controller-uid" "batch.kubernetes.io/job-name" '"job-name"' '"controller-uid"'
  # A Job's pod template needs restartPolicy OnFailure or Never.
  probe "$p a Job without restartPolicy is refused" fails k apply -f "$TMP/always.yaml"
  probe "$p   spec.template.spec.restartPolicy: Required value" contains "$TMP/out" 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'
  # kubectl's generators: create job / create cronjob (protobuf bodies from kubectl 1.32 on).
  probe "$p create job gen --image=busybox" k create job gen --image=busybox
  probe "$p   job.batch/gen created" contains "$TMP/out" "job.batch/gen created"
  probe "$p create cronjob gencron --image=busybox --schedule='*/5 * * * *'" k create cronjob gencron --image=busybox '--schedule=*/5 * * * *'
  probe "$p   cronjob.batch/gencron created" contains "$TMP/out" "cronjob.batch/gencron created"
  # CronJobs: defaults and the printer.
  probe "$p apply a CronJob" k apply -f "$TMP/cronjob.yaml"
  probe "$p get cronjobs" k get cronjobs
  probe "$p   SCHEDULE TIMEZONE SUSPEND ACTIVE" contains "$TMP/out" "SCHEDULE" "TIMEZONE" "SUSPEND" "0 3 * * *" "<none>" "False"
  # kubectl get all: services and jobs/cronjobs are in category all.
  probe "$p get all" k get all
  probe "$p   service/, job.batch/, cronjob.batch/" contains "$TMP/out" "service/kubernetes" "job.batch/sample-job-" "cronjob.batch/nightly"
  # PriorityClasses: the system classes, undeletable.
  probe "$p get priorityclasses" k get pc
  probe "$p   system classes with PREEMPTIONPOLICY" contains "$TMP/out" "system-cluster-critical   2000000000" "system-node-critical      2000001000" "PREEMPTIONPOLICY"
  probe "$p delete pc system-node-critical is refused" fails k delete pc system-node-critical
  probe "$p   this is a system priority class" contains "$TMP/out" 'this is a system priority class and cannot be deleted'
  probe "$p create priorityclass high --value=1000 --global-default" k create priorityclass high --value=1000 --global-default
  probe "$p a second global default is refused (403)" fails k create priorityclass other --value=5 --global-default
  probe "$p   PriorityClass high is already marked as default" contains "$TMP/out" 'PriorityClass high is already marked as default. Only one default can exist'
  probe "$p explain service.spec.ports" k explain service.spec.ports
  probe "$p   targetPort and nodePort" contains "$TMP/out" "targetPort" "nodePort"
done

# The Python client: typed Service and Job objects.
if /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then
  probe "[python] services and jobs through the typed client" /usr/bin/python3 - "$TMP/sandbox/kubeconfig" "${clusters[0]}" <<'EOF'
import sys
from kubernetes import client, config
config.load_kube_config(config_file=sys.argv[1], context=sys.argv[2])
core = client.CoreV1Api()
svc = core.create_namespaced_service("default", client.V1Service(
    metadata=client.V1ObjectMeta(name="py"),
    spec=client.V1ServiceSpec(ports=[client.V1ServicePort(port=80)], selector={"app": "py"})))
assert svc.spec.cluster_ip.startswith("10."), svc.spec.cluster_ip
assert svc.spec.ports[0].target_port == 80 and svc.spec.ports[0].protocol == "TCP", svc.spec.ports
batch = client.BatchV1Api()
job = batch.create_namespaced_job("default", client.V1Job(
    metadata=client.V1ObjectMeta(name="py-job"),
    spec=client.V1JobSpec(template=client.V1PodTemplateSpec(spec=client.V1PodSpec(
        restart_policy="Never", containers=[client.V1Container(name="c", image="busybox")])))))
assert job.spec.backoff_limit == 6 and job.spec.completions == 1, job.spec
assert job.spec.selector.match_labels == {"batch.kubernetes.io/controller-uid": job.metadata.uid}
print("ok")
EOF
else
  echo "SKIPPED: the Python client (no 'kubernetes' module)"
fi

if ! timeout 60 "$MKQ" sandbox down --dir "$TMP/sandbox" >"$TMP/down" 2>&1; then
  echo "FAIL: mkq sandbox down"
  failures=$((failures + 1))
fi
echo "kinds test (${#present[@]} kubectl): $probes probes, $failures failed"
[ "$failures" -eq 0 ]
