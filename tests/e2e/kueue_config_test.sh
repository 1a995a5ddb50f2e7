#!/usr/bin/env bash
# End to end (issue 11, Kueue's configuration): the sandbox installs Kueue's
# kueue-manager-config (health, metrics, webhook, leaderElection, ...) and its
# controller manager. A policy with a kueue block is planned field by field,
# merged into that configuration (every unmanaged setting kept), and Kueue's
# controller manager is restarted (kubectl.kubernetes.io/restartedAt) and
# available again; the simulated Kueue then runs with the new configuration
# (the MultiKueueClusterProfile gate: a ClusterProfile worker's condition
# changes). A second plan is empty; one changed setting is one field line.
# Destroy gives the original configuration back, byte for byte, and restarts
# Kueue again -- the original content depends on adoption and release
# (issue 11, deliverable 4), checked last.
# Usage: kueue_config_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: kueue_config_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup kueue-config
km() { k --context manager "$@"; }

# The configuration's text, exactly (kubectl's JSON, decoded by Python).
config_text() {
  km -n kueue-system get configmap kueue-manager-config -o json |
    /usr/bin/python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["data"]["controller_manager_config.yaml"])'
}
restarted_at() {
  km -n kueue-system get deployment kueue-controller-manager \
    -o jsonpath='{.spec.template.metadata.annotations.kubectl\.kubernetes\.io/restartedAt}'
}
mkc_reason() { km get multikueuecluster w1 -o jsonpath='{.status.conditions[?(@.type=="Active")].reason}'; }

timeout 60 "$MKQ" sandbox up --dir "$SB" --clusters manager,w1 >"$TMP/up.out" 2>&1 || { cat "$TMP/up.out"; fail "sandbox up"; }

# --- Kueue as installed
config_text >"$TMP/original.yaml" || fail "read Kueue's configuration"
for setting in "healthProbeBindAddress: :8081" "bindAddress: :8443" "port: 9443" "leaderElect: true" \
  "resourceName: c1f6bfd2.kueue.x-k8s.io" "qps: 300"; do
  grep -qF "  $setting" "$TMP/original.yaml" || fail "the installed configuration lacks '$setting'"
done
grep -q '^#' "$TMP/original.yaml" || fail "the installed configuration is not Kueue's file (no comments)"
km -n kueue-system rollout status deployment/kueue-controller-manager --timeout=20s >/dev/null ||
  fail "Kueue's controller manager is not available after sandbox up"
pass "the sandbox installs Kueue's configuration (health, metrics, webhook, leaderElection) and controller manager"

# A ClusterProfile for the worker, offering the policy's access provider.
km apply -f - >/dev/null <<'EOF' || fail "install a ClusterProfile CRD"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: clusterprofiles.multicluster.x-k8s.io
spec:
  group: multicluster.x-k8s.io
  scope: Namespaced
  names: {plural: clusterprofiles, singular: clusterprofile, kind: ClusterProfile, listKind: ClusterProfileList}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: {status: {}}
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
EOF
km apply -f - >/dev/null <<'EOF' || fail "create the ClusterProfile"
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ClusterProfile
metadata:
  name: w1
  namespace: kueue-system
spec:
  clusterManager:
    name: test
EOF
km -n kueue-system patch clusterprofile w1 --subresource=status --type merge \
  -p '{"status":{"accessProviders":[{"name":"secretreader","cluster":{"server":"https://w1.example:6443"}}]}}' \
  >/dev/null || fail "set the ClusterProfile's access provider"

mkdir -p "$TMP/p"
write_policy() {
  cat >"$TMP/p/policy.mkq" <<EOF
manager "manager" {}

worker "w1" {
  credentials { mode = "clusterprofile" }
  capacity "default-flavor" { cpu = 4 }
}

kueue {
  integrations = ["batch/job", "pod"]
  gang_scheduling { timeout = $1 }
  multikueue {
    access_provider "secretreader" { command = "/plugins/secretreader" }
  }
}

flavor "default-flavor" {}

clusterqueue "cq" {
  namespaces = all
  quota "default-flavor" { cpu = 4 }
}

dispatch "mk" {
  queues = ["cq"]
  workers = ["w1"]
}
EOF
}
write_policy 10min
P="$TMP/p"
D='data["controller_manager_config.yaml"]'

# --- the plan: field by field
mkq_run plan1 plan "$P"
[ "$rc" = 0 ] || { show plan1; fail "plan: exit $rc"; }
for line in "~ ConfigMap kueue-system/kueue-manager-config (exists, not yet managed by mkq)" \
  "~ $D.integrations.frameworks: [\"batch/job\",\"kubeflow.org/mpijob\"," \
  "+ $D.waitForPodsReady: {\"timeout\":\"10m0s\"}" \
  "+ $D.featureGates: {\"MultiKueueClusterProfile\":true}" \
  "+ $D.multiKueue: {\"clusterProfile\":{\"accessProviders\":[{\"name\":\"secretreader\"" \
  "Kueue's controller manager will be restarted to read it (Deployment kueue-system/kueue-controller-manager)"; do
  grep -qF -- "$line" "$TMP/plan1.out" || { show plan1; fail "plan: no line '$line'"; }
done
grep -q 'controller_manager_config.yaml: "' "$TMP/plan1.out" && { show plan1; fail "plan: the configuration as one string"; }
for unmanaged in health metrics webhook leaderElection controller clientConnection; do
  grep -qF "$D.$unmanaged" "$TMP/plan1.out" && { show plan1; fail "plan: shows the unmanaged setting $unmanaged"; }
done
pass "the plan shows the configuration's change field by field, and says Kueue will be restarted"

# --- apply: merged, restarted, in effect
mkq_run apply1 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply1; fail "apply: exit $rc"; }
grep -q "Deployment kueue-system/kueue-controller-manager restarted" "$TMP/apply1.err" || { show apply1; fail "apply: no restart"; }
config_text >"$TMP/applied.yaml"
for setting in "  healthProbeBindAddress: \":8081\"" "  bindAddress: \":8443\"" "  port: 9443" "  leaderElect: true" \
  "  resourceName: c1f6bfd2.kueue.x-k8s.io" "    Job.batch: 5" "  qps: 300" "  burst: 500" \
  "  MultiKueueClusterProfile: true" "  timeout: 10m0s" "    - name: secretreader"; do
  grep -qxF -- "$setting" "$TMP/applied.yaml" || { cat "$TMP/applied.yaml"; fail "applied configuration: no line '$setting'"; }
done
[ "$(sed -n '/^integrations:/,/^[a-z]/p' "$TMP/applied.yaml" | grep -c '^  - ')" = 2 ] ||
  { cat "$TMP/applied.yaml"; fail "applied configuration: integrations are not the policy's two"; }
first_restart=$(restarted_at)
[[ "$first_restart" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})$ ]] ||
  fail "restartedAt is not RFC 3339: '$first_restart'"
km -n kueue-system rollout status deployment/kueue-controller-manager --timeout=10s >/dev/null ||
  fail "Kueue's controller manager is not available again"
[ "$(km -n kueue-system get deployment kueue-controller-manager -o jsonpath='{.status.availableReplicas}')" = 1 ] ||
  fail "Kueue's controller manager has no available replica"
# The simulated Kueue restarted with the gate on: it no longer says the gate is off.
reason=$(mkc_reason)
[ "$reason" = ClientConnectionFailed ] || fail "MultiKueueCluster w1 after the restart: reason '$reason', expected ClientConnectionFailed (gate on)"
grep -q "cluster manager: Kueue's controller manager started with .* MultiKueueClusterProfile=true" "$SB/sandbox.log" ||
  fail "the sandbox's log does not show Kueue starting with the gate on"
pass "apply merged the settings, kept every other one, restarted Kueue (restartedAt $first_restart), which runs with them"

mkq_run plan2 plan "$P" --detailed-exitcode
[ "$rc" = 0 ] || { show plan2; fail "second plan: exit $rc, expected 0 (no changes)"; }
grep -q "No changes." "$TMP/plan2.out" || { show plan2; fail "second plan: changes"; }
pass "a second plan shows no changes"

write_policy 15min
mkq_run plan3 plan "$P"
[ "$rc" = 0 ] || { show plan3; fail "plan after a change: exit $rc"; }
fields=$(sed -n '/ConfigMap kueue-system\/kueue-manager-config/,/^  [^ ]/p' "$TMP/plan3.out" | grep -c '^      [~+-] ')
[ "$fields" = 1 ] || { show plan3; fail "one changed setting: $fields field lines"; }
grep -qF "~ $D.waitForPodsReady.timeout: \"10m0s\" -> \"15m0s\"" "$TMP/plan3.out" || { show plan3; fail "plan3: wrong line"; }
mkq_run apply3 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply3; fail "apply of the change: exit $rc"; }
second_restart=$(restarted_at)
pass "a change of one managed setting is one field line, and applies"

# --- destroy: the original back, Kueue restarted
sleep 1  # restartedAt has a resolution of one second
mkq_run destroy destroy "$P" --auto-approve
[ "$rc" = 0 ] || { show destroy; fail "destroy: exit $rc"; }
[ "$(restarted_at)" != "$second_restart" ] || { show destroy; fail "destroy did not restart Kueue"; }
km -n kueue-system rollout status deployment/kueue-controller-manager --timeout=10s >/dev/null ||
  fail "Kueue's controller manager is not available after destroy"
pass "destroy restarted Kueue"
km -n kueue-system get configmap kueue-manager-config >/dev/null 2>&1 || fail "destroy deleted Kueue's ConfigMap"
config_text >"$TMP/destroyed.yaml"
cmp -s "$TMP/original.yaml" "$TMP/destroyed.yaml" ||
  { diff "$TMP/original.yaml" "$TMP/destroyed.yaml" | head -20; fail "destroy: the original configuration is not back byte for byte"; }
pass "destroy gave Kueue's original configuration back, byte for byte"
exit 0
