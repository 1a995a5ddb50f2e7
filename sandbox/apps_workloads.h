// apps/v1 ReplicaSets, StatefulSets and DaemonSets: what kube-apiserver v1.33
// fills in and checks on a write (the apps/v1 SetDefaults_* functions and
// pkg/apis/apps/validation), and the status their controllers would write --
// simulated, as the Deployment controller is (deployments.h): there are no
// pods, a workload's "pods" are the replicas its status counts, all of them
// ready at once.
//
// - A ReplicaSet's status counts spec.replicas (replicas, fullyLabeled,
//   ready, available). A ReplicaSet controlled by a Deployment is left to the
//   Deployment controller, which knows where its rollout is.
// - A StatefulSet's status counts spec.replicas, all at the update revision
//   (`NAME-HASH` of its template): a rollout completes at once.
// - A DaemonSet's desired pods are the stored Nodes its template's
//   nodeSelector matches (taints and tolerations are not looked at); all of
//   them current, ready, up to date and available at once.
//
// The pieces the four kinds share with Deployments (the pod template's
// defaults, the selector's rules, the template hash) live here too.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/resources.h"
#include "sandbox/schema.h"
#include "sandbox/store.h"

namespace mkq::sandbox {

// ReplicaSets, StatefulSets and DaemonSets (Deployments are deployments.h's).
bool is_apps_workload(const ResourceInfo& info);

// The pod template's defaults every apps/v1 workload gets (restartPolicy
// Always, terminationGracePeriodSeconds 30, dnsPolicy ClusterFirst,
// schedulerName default-scheduler, securityContext {}).
void default_pod_template(nlohmann::json& pod_template);

// apps/v1 defaults: ReplicaSet replicas 1; StatefulSet replicas 1,
// podManagementPolicy OrderedReady, updateStrategy RollingUpdate with
// partition 0 (maxUnavailable only behind the MaxUnavailableStatefulSet gate,
// off in 1.33), persistentVolumeClaimRetentionPolicy Retain/Retain,
// revisionHistoryLimit 10; DaemonSet updateStrategy RollingUpdate with
// maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10. The pod template's.
void default_apps_workload(const ResourceInfo& info, nlohmann::json& object);

// The rules the four kinds share, in kube-apiserver's words: spec.replicas
// >= 0, spec.selector required and not empty (`empty selector is invalid for
// deployment`; kube says "deployment" for ReplicaSets too), the template's
// labels matching it, its restartPolicy Always (not for Deployments: their
// checks are older and kept as they were), containers required, the selector
// immutable on an update. `kind_word`: "deployment", "statefulset", "daemonset".
std::vector<FieldError> validate_workload_spec(const nlohmann::json& object, const nlohmann::json* existing,
                                               std::string_view kind_word, bool check_restart_policy);

// The checks of a ReplicaSet, StatefulSet or DaemonSet (the shared ones above,
// then the kind's own: a StatefulSet's podManagementPolicy, updateStrategy,
// partition and the fields an update may not change; a DaemonSet's
// updateStrategy). `existing`: the stored object of an update.
std::vector<FieldError> validate_apps_workload(const ResourceInfo& info, const nlohmann::json& object,
                                               const nlohmann::json* existing);

// Whether a metav1.LabelSelector (matchLabels and matchExpressions: In,
// NotIn, Exists, DoesNotExist) selects `labels`; an empty selector selects
// everything, a malformed one nothing.
bool label_selector_matches(const nlohmann::json& selector, const nlohmann::json& labels);

// metav1.FormatLabelSelector: "app=web,tier in (a,b)" (sorted by key, as
// labels.Selector's String()), "<none>" when empty.
std::string format_label_selector(const nlohmann::json& selector);

// Go's %#v of a map[string]string, as kube-apiserver's messages print one:
// map[string]string{"a":"b", "c":"d"} (keys sorted).
std::string go_string_map(const nlohmann::json& map);
// Go's %#v of a metav1.LabelSelector (its expressions shown as JSON).
std::string go_label_selector(const nlohmann::json& selector);

// The pod-template-hash of a template: FNV-1a (32 bits) of its JSON, its
// decimal digits spelled in Kubernetes' safe alphabet (not kube's own hash,
// which hashes Go's in-memory form: names differ from a real cluster's).
std::string template_hash(const nlohmann::json& pod_template);

// Under the cluster's lock: brings the status of every object of `resource`
// ("replicasets", "statefulsets", "daemonsets") up to date as its controller
// would, each change an ordinary store write. True when anything was written.
bool reconcile_workload_status(Store& store, const std::string& resource);

}  // namespace mkq::sandbox
