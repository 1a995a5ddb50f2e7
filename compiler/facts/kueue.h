// Kueue's facts, in one home: the API groups and versions mkq writes, the
// well-known names and labels, and the limits of Kueue's validation
// (../shared/kueue/VALIDATION.md, rule numbers below). Header-only and below
// sema in the stage order, so that sema's checks, compiler/kueue's lowering
// and validation, runtime/reconcile and the sandbox read the same constants.
// compiler/kueue/schema.h builds its tables of kinds, fields and defaults on
// them and shows them as schema::k*.
//
// Only constants live here: no code, no dependency beyond the standard library.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mkq::facts {

// ------------------------------------------------------------------ API groups and versions

inline constexpr std::string_view kKueueGroup = "kueue.x-k8s.io";
inline constexpr std::string_view kKueueVersion = "v1beta2";  // the storage version of every Kueue kind
inline constexpr std::string_view kKueueApiVersion = "kueue.x-k8s.io/v1beta2";
inline constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";
inline constexpr std::string_view kRbacApiVersion = "rbac.authorization.k8s.io/v1";
inline constexpr std::string_view kCoreApiVersion = "v1";
// Kueue's own configuration file (not an object: the content of a ConfigMap).
inline constexpr std::string_view kKueueConfigApiVersion = "config.kueue.x-k8s.io/v1beta2";
inline constexpr std::string_view kKueueConfigKind = "Configuration";
// The first Kueue release that serves kueue.x-k8s.io/v1beta2 (v0.14 serves
// v1beta1 only; ../shared/kueue/VERSIONS.md), and the newest release these
// facts were read against: the one mkq's messages say to install.
inline constexpr std::string_view kKueueFirstV1beta2Release = "v0.15.0";
inline constexpr std::string_view kKueueCheckedRelease = "v0.19.2";

// ------------------------------------------------------------------ well-known names and values

inline constexpr std::string_view kMultiKueueControllerName = "kueue.x-k8s.io/multikueue";
// The finalizer Kueue puts on a ClusterQueue, ResourceFlavor or AdmissionCheck in use.
inline constexpr std::string_view kResourceInUseFinalizer = "kueue.x-k8s.io/resource-in-use";
inline constexpr std::string_view kMultiKueueConfigKind = "MultiKueueConfig";
// The key of a MultiKueueCluster's kubeconfig Secret that holds the kubeconfig.
inline constexpr std::string_view kKubeconfigSecretKey = "kubeconfig";
inline constexpr std::string_view kDefaultKueueNamespace = "kueue-system";
// Kueue's configuration: the ConfigMap the controller manager reads, and its key.
inline constexpr std::string_view kKueueConfigMapName = "kueue-manager-config";
inline constexpr std::string_view kKueueConfigMapKey = "controller_manager_config.yaml";
// Kueue's controller manager: the Deployment (apps/v1, in Kueue's namespace)
// that reads the configuration when it starts, and only then.
inline constexpr std::string_view kAppsApiVersion = "apps/v1";
inline constexpr std::string_view kDeploymentKind = "Deployment";
inline constexpr std::string_view kKueueDeploymentName = "kueue-controller-manager";
// The pod-template annotation `kubectl rollout restart` sets to the current
// time (RFC 3339): a new template, so the Deployment rolls out new pods.
inline constexpr std::string_view kRestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt";
// The Kueue feature gate MultiKueueCluster.spec.clusterSource.clusterProfileRef
// needs (alpha, off by default), set in the configuration's featureGates.
inline constexpr std::string_view kClusterProfileFeatureGate = "MultiKueueClusterProfile";
// The feature gate of MultiKueue itself (Beta, on by default since Kueue 0.9).
inline constexpr std::string_view kMultiKueueFeatureGate = "MultiKueue";
// The Cluster Inventory API's ClusterProfile (namespaced; read, never rendered, by mkq).
inline constexpr std::string_view kClusterProfileGroup = "multicluster.x-k8s.io";
inline constexpr std::string_view kClusterProfileVersion = "v1alpha1";
inline constexpr std::string_view kClusterProfileApiVersion = "multicluster.x-k8s.io/v1alpha1";
inline constexpr std::string_view kClusterProfileKind = "ClusterProfile";
inline constexpr std::string_view kClusterProfilePlural = "clusterprofiles";
// Kueue's user-facing ClusterRoles (installed with Kueue) that access binds.
inline constexpr std::string_view kBatchUserRole = "kueue-batch-user-role";
inline constexpr std::string_view kBatchAdminRole = "kueue-batch-admin-role";
// The Red Hat build of Kueue (OpenShift, ../shared/kueue/openshift): its
// operator is configured by one cluster-scoped `Kueue` custom resource named
// `cluster` instead of the kueue-manager-config ConfigMap, runs Kueue in its
// own namespace, and manages the jobs of namespaces carrying its label.
inline constexpr std::string_view kOpenShiftKueueApiVersion = "kueue.openshift.io/v1";
inline constexpr std::string_view kOpenShiftKueueKind = "Kueue";
inline constexpr std::string_view kOpenShiftKueueName = "cluster";
inline constexpr std::string_view kOpenShiftKueueNamespace = "openshift-kueue-operator";
inline constexpr std::string_view kOpenShiftManagedLabel = "kueue.openshift.io/managed";
// spec.config.gangScheduling.byWorkload's bounds, in seconds.
inline constexpr std::int64_t kOpenShiftMinGangTimeoutSeconds = 30;
inline constexpr std::int64_t kOpenShiftMaxGangSeconds = 86400;  // timeoutSeconds and recoveryTimeoutSeconds
// The label every namespace carries with its own name (namespace selection by name).
inline constexpr std::string_view kNamespaceNameLabel = "kubernetes.io/metadata.name";
// The node label that may only be a topology's lowest level.
inline constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

// The settings of Kueue's Configuration that mkq manages: the keys lowering
// renders (a dotted path into the configuration document; featureGates only
// the gate mkq sets). mkq merges them into the configuration a cluster holds
// and leaves every other setting as it is; a managed setting is replaced
// whole (a map's keys mkq does not render go with it).
inline constexpr std::array<std::string_view, 14> kManagedConfigurationPaths = {{
    "namespace",
    "manageJobsWithoutQueueName",
    "managedJobsNamespaceSelector",
    "waitForPodsReady",
    "integrations.frameworks",
    "fairSharing",
    "multiKueue.gcInterval",
    "multiKueue.origin",
    "multiKueue.workerLostTimeout",
    "multiKueue.dispatcherName",
    "multiKueue.incrementalDispatcherConfig",
    "multiKueue.externalFrameworks",
    "multiKueue.clusterProfile",
    "featureGates.MultiKueueClusterProfile",
}};


// A state kept in a cluster names its Secrets and Lease NAME-... (runtime/state/cluster_state.h):
// the longest NAME (mkq's own limit, checked by sema and by the state).
inline constexpr std::size_t kMaxStateNameLength = 40;

// Labels mkq puts on every object it renders.
inline constexpr std::string_view kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr std::string_view kManagedByValue = "mkq";
inline constexpr std::string_view kPolicyLabel = "mkq.dev/policy";

// ------------------------------------------------------------------ limits (VALIDATION.md)

// Names.
inline constexpr std::size_t kMaxDns1123SubdomainLength = 253;
inline constexpr std::size_t kMaxDns1123LabelLength = 63;
inline constexpr std::size_t kMaxLabelValueLength = 63;
// ClusterQueue and Cohort resource groups (rules 1-4, 32).
inline constexpr std::size_t kMaxResourceGroups = 16;
inline constexpr std::size_t kMaxCoveredResources = 64;     // per resource group
inline constexpr std::size_t kMaxFlavorsPerGroup = 64;      // per resource group
inline constexpr std::size_t kMaxResourcesPerFlavor = 64;   // per flavor of a group
// ClusterQueue only (rules 11-13).
inline constexpr std::size_t kMaxTotalFlavors = 256;              // across all resource groups
inline constexpr std::size_t kMaxTotalCoveredResources = 256;     // across all resource groups
inline constexpr std::size_t kMaxFlavorResourceCombinations = 512;  // flavors x resources, per group
// ClusterQueue admission checks (rule 26).
inline constexpr std::size_t kMaxAdmissionChecks = 64;
inline constexpr std::size_t kMaxAdmissionCheckNameLength = 316;
inline constexpr std::size_t kMaxOnFlavors = 64;
// ResourceFlavor (rules 42-44).
inline constexpr std::size_t kMaxNodeLabels = 8;
inline constexpr std::size_t kMaxNodeTaints = 8;
inline constexpr std::size_t kMaxTolerations = 8;
// Topology (rule 47).
inline constexpr std::size_t kMaxTopologyLevels = 16;
inline constexpr std::size_t kMaxTopologyLevelLength = 316;
// AdmissionCheck (rules 52-53).
inline constexpr std::size_t kMaxControllerNameLength = 253;
inline constexpr std::size_t kMaxParametersKindLength = 63;
inline constexpr std::size_t kMaxParametersNameLength = 63;  // a DNS-1123 label
// MultiKueueConfig (rule 56).
inline constexpr std::size_t kMinMultiKueueClusters = 1;
inline constexpr std::size_t kMaxMultiKueueClusters = 20;
inline constexpr std::size_t kMaxMultiKueueClusterNameLength = 256;
// MultiKueueCluster (rules 61-62).
inline constexpr std::size_t kMaxKubeConfigLocationLength = 256;
inline constexpr std::size_t kMaxClusterProfileNameLength = 256;
// WorkloadPriorityClass (rule 74).
inline constexpr std::size_t kMaxPriorityClassDescriptionLength = 2048;
// Workload status (rule 76): what a dispatcher may nominate at once.
inline constexpr std::size_t kMaxNominatedClusters = 20;
// Kueue's configuration (rule 71).
inline constexpr std::int64_t kMinIncrementalStepSize = 1;
inline constexpr std::int64_t kDefaultIncrementalStepSize = 3;

// The integration every policy enables unless it names others.
inline constexpr std::string_view kDefaultIntegration = "batch/job";

}  // namespace mkq::facts
