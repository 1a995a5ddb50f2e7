#!/usr/bin/env bash
# End to end (issue 6, ClusterProfile mode): a worker reached through a
# ClusterProfile. `mkq plan` must refuse while the manager does not serve the
# ClusterProfile CRD, while the profile is absent from Kueue's namespace, and
# while it offers no access provider the policy names; then plan and apply
# succeed and Kueue's configuration carries the provider and the feature gate.
# Usage: cluster_profile_test.sh MKQ [KUBECTL]. Exit 0 pass, 1 fail, 77 skipped.
set -u
MKQ=${1:?usage: cluster_profile_test.sh MKQ [KUBECTL]}
KUBECTL=${2:-/usr/bin/kubectl}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CRD="$ROOT/../shared/kueue/crds/multicluster.x-k8s.io_clusterprofiles.yaml"

if [ ! -f "$CRD" ]; then
  echo "SKIPPED: $CRD not found"
  [ -n "${CI:-}" ] && exit 1
  exit 77
fi

. "$(dirname "$0")/common.sh"
e2e_require_clients
e2e_setup profile
km() { k --context manager "$@"; }

mkdir -p "$TMP/p"
cat >"$TMP/p/policy.mkq" <<'EOF'
manager "manager" {}

worker "w1" {
  credentials { mode = "clusterprofile" }
  capacity "default-flavor" { cpu = 4 }
}

kueue {
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
P="$TMP/p"

mkq_run plan1 plan "$P"
[ "$rc" = 1 ] || { show plan1; fail "plan without the ClusterProfile CRD: exit $rc, expected 1"; }
grep -q "the manager does not serve ClusterProfile" "$TMP/plan1.err" || { show plan1; fail "plan1: wrong message"; }
pass "no ClusterProfile CRD on the manager: plan refuses"

km apply -f "$CRD" >/dev/null || fail "install the ClusterProfile CRD"
mkq_run plan2 plan "$P"
[ "$rc" = 1 ] || { show plan2; fail "plan without the ClusterProfile: exit $rc, expected 1"; }
grep -q "worker w1: ClusterProfile kueue-system/w1 does not exist on the manager" "$TMP/plan2.err" ||
  { show plan2; fail "plan2: wrong message"; }
pass "no ClusterProfile w1: plan refuses"

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
provider() {
  km -n kueue-system patch clusterprofile w1 --subresource=status --type merge \
    -p "{\"status\":{\"accessProviders\":[{\"name\":\"$1\",\"cluster\":{\"server\":\"https://w1.example:6443\"}}]}}" \
    >/dev/null || fail "set the ClusterProfile's access provider"
}
provider google
mkq_run plan3 plan "$P"
[ "$rc" = 1 ] || { show plan3; fail "plan with a foreign provider: exit $rc, expected 1"; }
grep -q "offers access providers \[google\], none of which the policy's kueue settings name (declared: \[secretreader\])" \
  "$TMP/plan3.err" || { show plan3; fail "plan3: wrong message"; }
pass "a ClusterProfile without the policy's provider: plan refuses, naming both"

provider secretreader
mkq_run plan4 plan "$P"
[ "$rc" = 0 ] || { show plan4; fail "plan with a matching ClusterProfile: exit $rc"; }
# The sandbox installs Kueue's own ConfigMap: mkq merges its settings into it.
grep -q "~ ConfigMap kueue-system/kueue-manager-config" "$TMP/plan4.out" || { show plan4; fail "plan4: no Kueue ConfigMap"; }
mkq_run apply4 apply "$P" --auto-approve
[ "$rc" = 0 ] || { show apply4; fail "apply in ClusterProfile mode"; }
[ "$(km get multikueuecluster w1 -o jsonpath='{.spec.clusterSource.clusterProfileRef.name}')" = w1 ] ||
  fail "the MultiKueueCluster does not reference ClusterProfile w1"
config=$(km -n kueue-system get configmap kueue-manager-config -o jsonpath='{.data.controller_manager_config\.yaml}')
echo "$config" | grep -q "name: secretreader" || fail "Kueue's configuration does not name the provider"
echo "$config" | grep -q "MultiKueueClusterProfile: true" || fail "Kueue's configuration does not enable MultiKueueClusterProfile"
km -n kueue-system get secret w1-kubeconfig >/dev/null 2>&1 && fail "a Secret was made for a ClusterProfile worker"
pass "plan and apply in ClusterProfile mode: provider and feature gate in Kueue's configuration, no Secret"
exit 0
