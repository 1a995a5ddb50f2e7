// The built-in kinds' Go types and their decoding (builtin_types.h).
#include "sandbox/builtin_types.h"

#include <map>
#include <memory>

#include <fmt/format.h>

#include "sandbox/builtin_validation.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

struct GoType;

// A struct's field: its type and what kubectl explain says of it ("" none).
struct Field {
  Field(const GoType* of, const char* text = "") : type(of), description(text) {}  // NOLINT: implicit
  const GoType* type;
  const char* description;
};

// A Go type as encoding/json decodes into it, and as the served OpenAPI shows it.
struct GoType {
  enum class Shape { Struct, Slice, Map, String, Integer, Bool, Bytes, Scalar, Any };
  Shape shape = Shape::Any;
  std::string name;  // as Go prints it: "v1.PodSpec", "[]v1.Container", "map[string]string", "int32"
  std::map<std::string, Field> fields;  // Struct: JSON name -> field
  const GoType* element = nullptr;      // Slice items, Map values
  // What the served OpenAPI adds (the decoder reads none of it):
  std::string description;             // Struct: the type's own text, shown where a field has none
  std::vector<std::string> required;   // Struct: fields the schema requires
  std::vector<std::string> enums;      // String: its values, when the schema lists them
  bool atomic = false;                 // Struct: x-kubernetes-map-type atomic
};

using Shape = GoType::Shape;
using Fields = std::map<std::string, Field>;

// The types live as long as the process: built once, never freed.
GoType* make(Shape shape, std::string name, Fields fields = {}, const GoType* element = nullptr) {
  auto* type = new GoType{shape, std::move(name), std::move(fields), element, {}, {}, {}, false};  // NOLINT: immortal
  return type;
}

const GoType* str(const char* name = "string") { return make(Shape::String, name); }
const GoType* enum_str(const char* name, std::vector<std::string> values) {
  GoType* type = make(Shape::String, name);
  type->enums = std::move(values);
  return type;
}
const GoType* i32() { return make(Shape::Integer, "int32"); }
const GoType* i64() { return make(Shape::Integer, "int64"); }
const GoType* boolean() { return make(Shape::Bool, "bool"); }
// A value with its own decoder that takes a string or a number: IntOrString, Quantity.
const GoType* scalar(const char* name) { return make(Shape::Scalar, name); }
// A part declared by name only: any value is accepted inside. The name says
// what the schema shows: "[]..." an array, "v1.Time"/"v1.MicroTime" a
// date-time string, else an object.
const GoType* any(const char* name) { return make(Shape::Any, name); }
const GoType* slice(const GoType* element) { return make(Shape::Slice, "[]" + element->name, {}, element); }
const GoType* map_of(const GoType* element, const char* key = "string") {
  return make(Shape::Map, fmt::format("map[{}]{}", key, element->name), {}, element);
}
const GoType* bytes_map() { return make(Shape::Map, "map[string][]uint8", {}, make(Shape::Bytes, "[]uint8")); }
const GoType* strings() { return slice(str()); }
const GoType* labels() { return map_of(str()); }
GoType* object(std::string name, Fields fields, std::string description = "", std::vector<std::string> required = {}) {
  GoType* type = make(Shape::Struct, std::move(name), std::move(fields));
  type->description = std::move(description);
  type->required = std::move(required);
  return type;
}
GoType* atomic(GoType* type) {
  type->atomic = true;
  return type;
}

const GoType* time_type() { return any("v1.Time"); }
const GoType* micro_time() { return any("v1.MicroTime"); }

// ObjectMeta, also the served ObjectMeta component schema (object_meta_openapi_schema);
// its descriptions are kube's first sentences (the texts served before it was generated kept).
const GoType* object_meta() {
  static const GoType* type = [] {
    const GoType* owner = atomic(object(
        "v1.OwnerReference",
        {{"apiVersion", {str(), "API version of the referent."}},
         {"kind", {str(), "Kind of the referent."}},
         {"name", {str(), "Name of the referent."}},
         {"uid", {str("types.UID"), "UID of the referent."}},
         {"controller", {boolean(), "If true, this reference points to the managing controller."}},
         {"blockOwnerDeletion", {boolean(), "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."}}},
        "OwnerReference contains enough information to let you identify an owning object.",
        {"apiVersion", "kind", "name", "uid"}));
    const GoType* managed = object(
        "v1.ManagedFieldsEntry",
        {{"manager", {str(), "Manager is an identifier of the workflow managing these fields."}},
         {"operation", {str("v1.ManagedFieldsOperationType"), "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."}},
         {"apiVersion", {str(), "APIVersion defines the version of this resource that this field set applies to."}},
         {"time", {time_type(), "Time is the timestamp of when the ManagedFields entry was added."}},
         {"fieldsType", {str(), "FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: \"FieldsV1\""}},
         {"fieldsV1", {any("v1.FieldsV1"), "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type."}},
         {"subresource", {str(), "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource."}}},
        "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.");
    return object(
        "v1.ObjectMeta",
        {{"name", {str(), "Name must be unique within a namespace."}},
         {"generateName", {str(), "GenerateName is an optional prefix, used by the server, to generate a unique name."}},
         {"namespace", {str(), "Namespace defines the space within which each name must be unique."}},
         {"selfLink", {str(), "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."}},
         {"uid", {str("types.UID"), "UID is the unique in time and space value for this object."}},
         {"resourceVersion", {str(), "An opaque value that represents the internal version of this object."}},
         {"generation", {i64(), "A sequence number representing a specific generation of the desired state."}},
         {"creationTimestamp", {time_type(), "CreationTimestamp is a timestamp representing the server time when this object was created."}},
         {"deletionTimestamp", {time_type(), "DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted."}},
         {"deletionGracePeriodSeconds", {i64(), "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system."}},
         {"labels", {labels(), "Map of string keys and values that can be used to organize and categorize objects."}},
         {"annotations", {labels(), "Annotations is an unstructured key value map stored with a resource."}},
         {"ownerReferences", {slice(owner), "List of objects depended by this object."}},
         {"finalizers", {strings(), "Must be empty before the object is deleted from the registry."}},
         {"managedFields", {slice(managed), "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow."}}},
        "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.");
  }();
  return type;
}

// A kind: apiVersion, kind, metadata and its own fields.
// (The served OpenAPI describes these three itself: builtin_openapi_schema leaves them out.)
const GoType* kind(std::string name, Fields fields, std::string description = "",
                   std::vector<std::string> required = {}) {
  fields.insert_or_assign("apiVersion", str());
  fields.insert_or_assign("kind", str());
  fields.insert_or_assign("metadata", object_meta());
  return object(std::move(name), std::move(fields), std::move(description), std::move(required));
}

const GoType* label_selector() {
  const GoType* requirement = object("v1.LabelSelectorRequirement", {{"key", str()},
                                                                     {"operator", str("v1.LabelSelectorOperator")},
                                                                     {"values", strings()}});
  return object("v1.LabelSelector", {{"matchLabels", labels()}, {"matchExpressions", slice(requirement)}});
}

const GoType* local_reference() {
  return atomic(object("v1.LocalObjectReference", {{"name", {str(), "Name of the referent."}}}));
}

const GoType* key_to_path() {
  return object("v1.KeyToPath", {{"key", str()}, {"path", str()}, {"mode", i32()}});
}

const GoType* volume() {
  Fields fields = {
      {"name", str()},
      {"configMap", object("v1.ConfigMapVolumeSource", {{"name", str()}, {"items", slice(key_to_path())},
                                                        {"defaultMode", i32()}, {"optional", boolean()}})},
      {"secret", object("v1.SecretVolumeSource", {{"secretName", str()}, {"items", slice(key_to_path())},
                                                  {"defaultMode", i32()}, {"optional", boolean()}})},
      {"emptyDir", object("v1.EmptyDirVolumeSource", {{"medium", str("v1.StorageMedium")},
                                                      {"sizeLimit", scalar("resource.Quantity")}})},
  };
  for (const char* source :
       {"hostPath", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "nfs", "iscsi", "glusterfs",
        "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc", "azureFile",
        "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected", "portworxVolume", "scaleIO",
        "storageos", "csi", "ephemeral", "image"}) {
    fields.emplace(source, any("v1.VolumeSource"));
  }
  return object("v1.Volume", std::move(fields));
}

const GoType* probe() {
  const GoType* http_get = object("v1.HTTPGetAction", {{"path", str()}, {"port", scalar("intstr.IntOrString")},
                                                       {"host", str()}, {"scheme", str("v1.URIScheme")},
                                                       {"httpHeaders", any("[]v1.HTTPHeader")}});
  return object("v1.Probe", {{"exec", any("v1.ExecAction")}, {"httpGet", http_get},
                             {"tcpSocket", any("v1.TCPSocketAction")}, {"grpc", any("v1.GRPCAction")},
                             {"initialDelaySeconds", i32()}, {"timeoutSeconds", i32()}, {"periodSeconds", i32()},
                             {"successThreshold", i32()}, {"failureThreshold", i32()},
                             {"terminationGracePeriodSeconds", i64()}});
}

const GoType* seccomp_profile() {
  return object("v1.SeccompProfile", {{"type", str("v1.SeccompProfileType")}, {"localhostProfile", str()}});
}

const GoType* container() {
  const GoType* port = object("v1.ContainerPort", {{"name", str()}, {"hostPort", i32()}, {"containerPort", i32()},
                                                   {"protocol", str("v1.Protocol")}, {"hostIP", str()}});
  const GoType* env = object("v1.EnvVar", {{"name", str()}, {"value", str()}, {"valueFrom", any("v1.EnvVarSource")}});
  const GoType* quantities = map_of(scalar("resource.Quantity"), "v1.ResourceName");
  const GoType* resources = object("v1.ResourceRequirements", {{"limits", quantities}, {"requests", quantities},
                                                               {"claims", any("[]v1.ResourceClaim")}});
  const GoType* mount = object("v1.VolumeMount", {{"name", str()}, {"readOnly", boolean()},
                                                  {"recursiveReadOnly", str("v1.RecursiveReadOnlyMode")},
                                                  {"mountPath", str()}, {"subPath", str()},
                                                  {"mountPropagation", str("v1.MountPropagationMode")},
                                                  {"subPathExpr", str()}});
  const GoType* capabilities = object("v1.Capabilities", {{"add", slice(str("v1.Capability"))},
                                                          {"drop", slice(str("v1.Capability"))}});
  const GoType* security = object(
      "v1.SecurityContext",
      {{"capabilities", capabilities}, {"privileged", boolean()}, {"seLinuxOptions", any("v1.SELinuxOptions")},
       {"windowsOptions", any("v1.WindowsSecurityContextOptions")}, {"runAsUser", i64()}, {"runAsGroup", i64()},
       {"runAsNonRoot", boolean()}, {"readOnlyRootFilesystem", boolean()}, {"allowPrivilegeEscalation", boolean()},
       {"procMount", str("v1.ProcMountType")}, {"seccompProfile", seccomp_profile()},
       {"appArmorProfile", any("v1.AppArmorProfile")}});
  return object("v1.Container",
                {{"name", {str(), "Name of the container specified as a DNS_LABEL."}},
                 {"image", {str(), "Container image name."}},
                 {"command", {strings(), "Entrypoint array. Not executed within a shell."}},
                 {"args", {strings(), "Arguments to the entrypoint."}},
                 {"workingDir", {str(), "Container's working directory."}},
                 {"ports", {slice(port), "List of ports to expose from the container."}},
                 {"envFrom", any("[]v1.EnvFromSource")},
                 {"env", {slice(env), "List of environment variables to set in the container."}},
                 {"resources", {resources, "Compute Resources required by this container."}}, {"resizePolicy", any("[]v1.ContainerResizePolicy")},
                 {"restartPolicy", str("v1.ContainerRestartPolicy")}, {"volumeMounts", slice(mount)},
                 {"volumeDevices", any("[]v1.VolumeDevice")}, {"livenessProbe", probe()},
                 {"readinessProbe", probe()}, {"startupProbe", probe()}, {"lifecycle", any("v1.Lifecycle")},
                 {"terminationMessagePath", str()},
                 {"terminationMessagePolicy", str("v1.TerminationMessagePolicy")},
                 {"imagePullPolicy", {enum_str("v1.PullPolicy", {"Always", "IfNotPresent", "Never"}),
                                      "Image pull policy. One of Always, Never, IfNotPresent."}},
                 {"securityContext", security}, {"stdin", boolean()}, {"stdinOnce", boolean()}, {"tty", boolean()}},
                "A single application container that you want to run within a pod.", {"name"});
}

const GoType* pod_spec() {
  const GoType* security = object(
      "v1.PodSecurityContext",
      {{"seLinuxOptions", any("v1.SELinuxOptions")}, {"windowsOptions", any("v1.WindowsSecurityContextOptions")},
       {"runAsUser", i64()}, {"runAsGroup", i64()}, {"runAsNonRoot", boolean()},
       {"supplementalGroups", slice(i64())}, {"supplementalGroupsPolicy", str("v1.SupplementalGroupsPolicy")},
       {"fsGroup", i64()}, {"sysctls", any("[]v1.Sysctl")}, {"fsGroupChangePolicy", str("v1.PodFSGroupChangePolicy")},
       {"seccompProfile", seccomp_profile()}, {"appArmorProfile", any("v1.AppArmorProfile")},
       {"seLinuxChangePolicy", str("v1.PodSELinuxChangePolicy")}});
  Fields fields = {{"volumes", slice(volume())},
                   {"initContainers", slice(container())},
                   {"containers", {slice(container()), "List of containers belonging to the pod."}},
                   {"restartPolicy", {enum_str("v1.RestartPolicy", {"Always", "Never", "OnFailure"}),
                                      "Restart policy for all containers within the pod. One of Always, OnFailure, Never."}},
                   {"terminationGracePeriodSeconds", i64()},
                   {"activeDeadlineSeconds", i64()},
                   {"dnsPolicy", str("v1.DNSPolicy")},
                   {"nodeSelector", labels()},
                   {"serviceAccountName", str()},
                   {"serviceAccount", str()},
                   {"automountServiceAccountToken", boolean()},
                   {"nodeName", str()},
                   {"hostNetwork", boolean()},
                   {"hostPID", boolean()},
                   {"hostIPC", boolean()},
                   {"shareProcessNamespace", boolean()},
                   {"securityContext", security},
                   {"imagePullSecrets", slice(local_reference())},
                   {"hostname", str()},
                   {"subdomain", str()},
                   {"schedulerName", str()},
                   {"priorityClassName", str()},
                   {"priority", i32()},
                   {"runtimeClassName", str()},
                   {"enableServiceLinks", boolean()},
                   {"preemptionPolicy", str("v1.PreemptionPolicy")},
                   {"setHostnameAsFQDN", boolean()},
                   {"hostUsers", boolean()}};
  for (const auto& [part, go_type] :
       {std::pair{"ephemeralContainers", "[]v1.EphemeralContainer"}, {"affinity", "*v1.Affinity"},
        {"tolerations", "[]v1.Toleration"}, {"hostAliases", "[]v1.HostAlias"}, {"dnsConfig", "*v1.PodDNSConfig"},
        {"readinessGates", "[]v1.PodReadinessGate"}, {"overhead", "v1.ResourceList"},
        {"topologySpreadConstraints", "[]v1.TopologySpreadConstraint"}, {"os", "*v1.PodOS"},
        {"schedulingGates", "[]v1.PodSchedulingGate"}, {"resourceClaims", "[]v1.PodResourceClaim"},
        {"resources", "*v1.ResourceRequirements"}}) {
    fields.emplace(part, any(go_type));
  }
  return object("v1.PodSpec", std::move(fields), "PodSpec is a description of a pod.", {"containers"});
}

const GoType* pod_template_spec() {
  static const GoType* type = object(
      "v1.PodTemplateSpec",
      {{"metadata", {object_meta(), "Standard object's metadata."}},
       {"spec", {pod_spec(), "Specification of the desired behavior of the pod."}}},
      "PodTemplateSpec describes the data a pod should have when created from a template");
  return type;
}

const GoType* deployment() {
  const GoType* template_spec = pod_template_spec();
  const GoType* rolling = object("v1.RollingUpdateDeployment", {{"maxUnavailable", scalar("intstr.IntOrString")},
                                                                {"maxSurge", scalar("intstr.IntOrString")}});
  const GoType* strategy = object("v1.DeploymentStrategy", {{"type", str("v1.DeploymentStrategyType")},
                                                            {"rollingUpdate", rolling}});
  const GoType* spec = object("v1.DeploymentSpec", {{"replicas", i32()}, {"selector", label_selector()},
                                                    {"template", template_spec}, {"strategy", strategy},
                                                    {"minReadySeconds", i32()}, {"revisionHistoryLimit", i32()},
                                                    {"paused", boolean()}, {"progressDeadlineSeconds", i32()}});
  return kind("v1.Deployment",
              {{"spec", {spec, "Specification of the desired behavior of the Deployment."}},
               {"status", {any("v1.DeploymentStatus"), "Most recently observed status of the Deployment."}}},
              "Deployment enables declarative updates for Pods and ReplicaSets.");
}

// The other apps/v1 workloads (apps_workloads.h). Their statuses are the
// simulated controllers' (declared, so that a status written by hand is decoded as kube decodes it).
const GoType* replica_set() {
  const GoType* spec = object(
      "v1.ReplicaSetSpec",
      {{"replicas", {i32(), "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1."}},
       {"minReadySeconds", {i32(), "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available."}},
       {"selector", {label_selector(), "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels."}},
       {"template", {pod_template_spec(), "Template is the object that describes the pod that will be created if insufficient replicas are detected."}}},
      "ReplicaSetSpec is the specification of a ReplicaSet.", {"selector"});
  const GoType* status = object(
      "v1.ReplicaSetStatus",
      {{"replicas", {i32(), "Replicas is the most recently observed number of non-terminating pods."}},
       {"fullyLabeledReplicas", {i32(), "The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset."}},
       {"readyReplicas", {i32(), "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."}},
       {"availableReplicas", {i32(), "The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set."}},
       {"terminatingReplicas", {i32(), "The number of terminating pods for this replica set."}},
       {"observedGeneration", {i64(), "ObservedGeneration reflects the generation of the most recently observed ReplicaSet."}},
       {"conditions", {any("[]v1.ReplicaSetCondition"), "Represents the latest available observations of a replica set's current state."}}},
      "ReplicaSetStatus represents the current status of a ReplicaSet.", {"replicas"});
  return kind("v1.ReplicaSet",
              {{"spec", {spec, "Spec defines the specification of the desired behavior of the ReplicaSet."}},
               {"status", {status, "Status is the most recently observed status of the ReplicaSet."}}},
              "ReplicaSet ensures that a specified number of pod replicas are running at any given time.");
}

const GoType* stateful_set() {
  const GoType* rolling = object(
      "v1.RollingUpdateStatefulSetStrategy",
      {{"partition", {i32(), "Partition indicates the ordinal at which the StatefulSet should be partitioned for updates."}},
       {"maxUnavailable", {scalar("intstr.IntOrString"), "The maximum number of pods that can be unavailable during the update."}}},
      "RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.");
  const GoType* strategy = object(
      "v1.StatefulSetUpdateStrategy",
      {{"type", {enum_str("v1.StatefulSetUpdateStrategyType", {"OnDelete", "RollingUpdate"}), "Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate."}},
       {"rollingUpdate", {rolling, "RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType."}}},
      "StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates.");
  const GoType* retention = object(
      "v1.StatefulSetPersistentVolumeClaimRetentionPolicy",
      {{"whenDeleted", {str("v1.PersistentVolumeClaimRetentionPolicyType"), "WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted."}},
       {"whenScaled", {str("v1.PersistentVolumeClaimRetentionPolicyType"), "WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down."}}},
      "StatefulSetPersistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from the StatefulSet VolumeClaimTemplates.");
  const GoType* spec = object(
      "v1.StatefulSetSpec",
      {{"replicas", {i32(), "replicas is the desired number of replicas of the given Template."}},
       {"selector", {label_selector(), "selector is a label query over pods that should match the replica count. It must match the pod template's labels."}},
       {"template", {pod_template_spec(), "template is the object that describes the pod that will be created if insufficient replicas are detected."}},
       {"volumeClaimTemplates", {any("[]v1.PersistentVolumeClaim"), "volumeClaimTemplates is a list of claims that pods are allowed to reference."}},
       {"serviceName", {str(), "serviceName is the name of the service that governs this StatefulSet."}},
       {"podManagementPolicy", {enum_str("v1.PodManagementPolicyType", {"OrderedReady", "Parallel"}), "podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down."}},
       {"updateStrategy", {strategy, "updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template."}},
       {"revisionHistoryLimit", {i32(), "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history."}},
       {"minReadySeconds", {i32(), "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing for it to be considered available."}},
       {"persistentVolumeClaimRetentionPolicy", {retention, "persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates."}},
       {"ordinals", {object("v1.StatefulSetOrdinals", {{"start", i32()}}), "ordinals controls the numbering of replica indices in a StatefulSet."}}},
      "A StatefulSetSpec is the specification of a StatefulSet.", {"selector", "template"});
  const GoType* status = object(
      "v1.StatefulSetStatus",
      {{"observedGeneration", {i64(), "observedGeneration is the most recent generation observed for this StatefulSet."}},
       {"replicas", {i32(), "replicas is the number of Pods created by the StatefulSet controller."}},
       {"readyReplicas", {i32(), "readyReplicas is the number of pods created for this StatefulSet with a Ready Condition."}},
       {"currentReplicas", {i32(), "currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision."}},
       {"updatedReplicas", {i32(), "updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision."}},
       {"currentRevision", {str(), "currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas)."}},
       {"updateRevision", {str(), "updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)"}},
       {"collisionCount", {i32(), "collisionCount is the count of hash collisions for the StatefulSet."}},
       {"conditions", {any("[]v1.StatefulSetCondition"), "Represents the latest available observations of a statefulset's current state."}},
       {"availableReplicas", {i32(), "Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset."}}},
      "StatefulSetStatus represents the current state of a StatefulSet.", {"replicas"});
  return kind("v1.StatefulSet",
              {{"spec", {spec, "Spec defines the desired identities of pods in this set."}},
               {"status", {status, "Status is the current status of Pods in this StatefulSet."}}},
              "StatefulSet represents a set of pods with consistent identities.");
}

const GoType* daemon_set() {
  const GoType* rolling = object(
      "v1.RollingUpdateDaemonSet",
      {{"maxUnavailable", {scalar("intstr.IntOrString"), "The maximum number of DaemonSet pods that can be unavailable during the update."}},
       {"maxSurge", {scalar("intstr.IntOrString"), "The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update."}}},
      "Spec to control the desired behavior of daemon set rolling update.");
  const GoType* strategy = object(
      "v1.DaemonSetUpdateStrategy",
      {{"type", {enum_str("v1.DaemonSetUpdateStrategyType", {"OnDelete", "RollingUpdate"}), "Type of daemon set update. Can be \"RollingUpdate\" or \"OnDelete\". Default is RollingUpdate."}},
       {"rollingUpdate", {rolling, "Rolling update config params. Present only if type = \"RollingUpdate\"."}}},
      "DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.");
  const GoType* spec = object(
      "v1.DaemonSetSpec",
      {{"selector", {label_selector(), "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels."}},
       {"template", {pod_template_spec(), "An object that describes the pod that will be created."}},
       {"updateStrategy", {strategy, "An update strategy to replace existing DaemonSet pods with new pods."}},
       {"minReadySeconds", {i32(), "The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available."}},
       {"revisionHistoryLimit", {i32(), "The number of old history to retain to allow rollback."}}},
      "DaemonSetSpec is the specification of a daemon set.", {"selector", "template"});
  Fields status;
  for (const char* count : {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady",
                            "updatedNumberScheduled", "numberAvailable", "numberUnavailable", "collisionCount"}) {
    status.emplace(count, i32());
  }
  status.emplace("observedGeneration", i64());
  status.emplace("conditions", any("[]v1.DaemonSetCondition"));
  return kind("v1.DaemonSet",
              {{"spec", {spec, "The desired behavior of this daemon set."}},
               {"status", {object("v1.DaemonSetStatus", std::move(status),
                                  "DaemonSetStatus represents the current status of a daemon set.",
                                  {"currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"}),
                           "The current status of this daemon set."}}},
              "DaemonSet represents the configuration of a daemon set.");
}

// A Pod as the kubelet and the scheduler would leave it: the sandbox runs
// neither, so tests write spec.nodeName and status as they want them.
const GoType* pod() {
  const GoType* condition = object("v1.PodCondition", {{"type", str("v1.PodConditionType")},
                                                       {"observedGeneration", i64()},
                                                       {"status", str("v1.ConditionStatus")},
                                                       {"lastProbeTime", time_type()},
                                                       {"lastTransitionTime", time_type()},
                                                       {"reason", str()}, {"message", str()}});
  const GoType* container_status = object(
      "v1.ContainerStatus",
      {{"name", str()}, {"state", any("v1.ContainerState")}, {"lastState", any("v1.ContainerState")},
       {"ready", boolean()}, {"restartCount", i32()}, {"image", str()}, {"imageID", str()}, {"containerID", str()},
       {"started", boolean()}, {"allocatedResources", any("v1.ResourceList")}, {"resources", any("*v1.ResourceRequirements")},
       {"volumeMounts", any("[]v1.VolumeMountStatus")}, {"user", any("*v1.ContainerUser")},
       {"allocatedResourcesStatus", any("[]v1.ResourceStatus")}, {"stopSignal", any("*v1.Signal")}});
  Fields status = {{"observedGeneration", i64()}, {"phase", str("v1.PodPhase")}, {"conditions", slice(condition)},
                   {"message", str()}, {"reason", str()}, {"nominatedNodeName", str()}, {"hostIP", str()},
                   {"podIP", str()}, {"startTime", time_type()}, {"containerStatuses", slice(container_status)},
                   {"initContainerStatuses", slice(container_status)},
                   {"ephemeralContainerStatuses", slice(container_status)}, {"qosClass", str("v1.PodQOSClass")},
                   {"resize", str("v1.PodResizeStatus")}};
  for (const auto& [part, go_type] :
       {std::pair{"hostIPs", "[]v1.HostIP"}, {"podIPs", "[]v1.PodIP"},
        {"resourceClaimStatuses", "[]v1.PodResourceClaimStatus"},
        {"extendedResourceClaimStatus", "*v1.PodExtendedResourceClaimStatus"}}) {
    status.emplace(part, any(go_type));
  }
  return kind("v1.Pod",
              {{"spec", {pod_spec(), "Specification of the desired behavior of the pod."}},
               {"status", {object("v1.PodStatus", std::move(status)), "Most recently observed status of the pod."}}},
              "Pod is a collection of containers that can run on a host.");
}

// A Node as a kubelet would report it: capacity, allocatable, conditions.
const GoType* node() {
  const GoType* quantities = map_of(scalar("resource.Quantity"), "v1.ResourceName");
  const GoType* taint = object(
      "v1.Taint",
      {{"key", {str(), "Required. The taint key to be applied to a node."}},
       {"value", {str(), "The taint value corresponding to the taint key."}},
       {"effect", {enum_str("v1.TaintEffect", {"NoExecute", "NoSchedule", "PreferNoSchedule"}),
                   "Required. The effect of the taint on pods that do not tolerate the taint."}},
       {"timeAdded", {time_type(), "TimeAdded represents the time at which the taint was added."}}},
      "The node this Taint is attached to has the \"effect\" on any pod that does not tolerate the Taint.",
      {"key", "effect"});
  const GoType* spec = object(
      "v1.NodeSpec",
      {{"podCIDR", {str(), "PodCIDR represents the pod IP range assigned to the node."}},
       {"podCIDRs", {strings(), "podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node."}},
       {"providerID", {str(), "ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>"}},
       {"unschedulable", {boolean(), "Unschedulable controls node schedulability of new pods."}},
       {"taints", {slice(taint), "If specified, the node's taints."}},
       {"configSource", {any("v1.NodeConfigSource"), "Deprecated: Previously used to specify the source of the node's configuration for the DynamicKubeletConfig feature."}},
       {"externalID", {str(), "Deprecated. Not all kubelets will set this field."}}},
      "NodeSpec describes the attributes that a node is created with.");
  const GoType* condition = object("v1.NodeCondition", {{"type", str("v1.NodeConditionType")},
                                                        {"status", str("v1.ConditionStatus")},
                                                        {"lastHeartbeatTime", time_type()},
                                                        {"lastTransitionTime", time_type()},
                                                        {"reason", str()}, {"message", str()}});
  const GoType* address = object("v1.NodeAddress", {{"type", str("v1.NodeAddressType")}, {"address", str()}});
  const GoType* info = object("v1.NodeSystemInfo", {{"machineID", str()}, {"systemUUID", str()}, {"bootID", str()},
                                                    {"kernelVersion", str()}, {"osImage", str()},
                                                    {"containerRuntimeVersion", str()}, {"kubeletVersion", str()},
                                                    {"kubeProxyVersion", str()}, {"operatingSystem", str()},
                                                    {"architecture", str()}, {"swap", any("*v1.NodeSwapStatus")}});
  Fields status = {{"capacity", quantities}, {"allocatable", quantities}, {"phase", str("v1.NodePhase")},
                   {"conditions", slice(condition)}, {"addresses", slice(address)}, {"nodeInfo", info}};
  for (const auto& [part, go_type] :
       {std::pair{"daemonEndpoints", "v1.NodeDaemonEndpoints"}, {"images", "[]v1.ContainerImage"},
        {"volumesInUse", "[]v1.UniqueVolumeName"}, {"volumesAttached", "[]v1.AttachedVolume"},
        {"config", "*v1.NodeConfigStatus"}, {"runtimeHandlers", "[]v1.NodeRuntimeHandler"},
        {"features", "*v1.NodeFeatures"}, {"declaredFeatures", "[]string"}}) {
    status.emplace(part, any(go_type));
  }
  return kind("v1.Node",
              {{"spec", {spec, "Spec defines the behavior of a node."}},
               {"status", {object("v1.NodeStatus", std::move(status)), "Most recently observed status of the node."}}},
              "Node is a worker node in Kubernetes.");
}

const GoType* policy_rules() {
  return slice(object("v1.PolicyRule",
                      {{"verbs", {strings(), "Verbs is a list of verbs that apply to ALL the ResourceKinds contained in this rule."}},
                       {"apiGroups", {strings(), "APIGroups is the name of the APIGroup that contains the resources."}},
                       {"resources", {strings(), "Resources is a list of resources this rule applies to."}},
                       {"resourceNames", {strings(), "ResourceNames is an optional allowlist of names that the rule applies to."}},
                       {"nonResourceURLs", {strings(), "NonResourceURLs is a set of partial urls that a user should have access to."}}},
                      "PolicyRule holds information that describes a policy rule.", {"verbs"}));
}

Fields binding_fields() {
  const GoType* subject = atomic(object(
      "v1.Subject",
      {{"kind", {str(), "Kind of object being referenced: User, Group or ServiceAccount."}},
       {"apiGroup", {str(), "APIGroup holds the API group of the referenced subject."}},
       {"name", {str(), "Name of the object being referenced."}},
       {"namespace", {str(), "Namespace of the referenced object."}}},
      "Subject contains a reference to the object or user identities a role binding applies to.", {"kind", "name"}));
  const GoType* role_ref = atomic(object("v1.RoleRef",
                                         {{"apiGroup", {str(), "APIGroup is the group for the resource being referenced."}},
                                          {"kind", {str(), "Kind is the type of resource being referenced."}},
                                          {"name", {str(), "Name is the name of resource being referenced."}}},
                                         "RoleRef contains information that points to the role being used.",
                                         {"apiGroup", "kind", "name"}));
  return {{"subjects", {slice(subject), "Subjects holds references to the objects the role applies to."}},
          {"roleRef", role_ref}};
}

const GoType* lease() {
  const GoType* spec = object(
      "v1.LeaseSpec",
      {{"holderIdentity", {str(), "holderIdentity contains the identity of the holder of a current lease."}},
       {"leaseDurationSeconds", {i32(), "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it."}},
       {"acquireTime", {micro_time(), "acquireTime is a time when the current lease was acquired."}},
       {"renewTime", {micro_time(), "renewTime is a time when the current holder of a lease has last updated the lease."}},
       {"leaseTransitions", {i32(), "leaseTransitions is the number of transitions of a lease between holders."}},
       {"strategy", {str("v1.CoordinatedLeaseStrategy"), "Strategy indicates the strategy for picking the leader for coordinated leader election."}},
       {"preferredHolder", {str(), "PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up."}}},
      "LeaseSpec is a specification of a Lease.");
  return kind("v1.Lease", {{"spec", {spec, "spec contains the specification of the Lease."}}},
              "Lease defines a lease concept.");
}

const GoType* object_reference() {
  return atomic(object(
      "v1.ObjectReference",
      {{"kind", {str(), "Kind of the referent."}},
       {"namespace", {str(), "Namespace of the referent."}},
       {"name", {str(), "Name of the referent."}},
       {"uid", {str("types.UID"), "UID of the referent."}},
       {"apiVersion", {str(), "API version of the referent."}},
       {"resourceVersion", {str(), "Specific resourceVersion to which this reference is made, if any."}},
       {"fieldPath", {str(), "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement."}}},
      "ObjectReference contains enough information to let you inspect or modify the referred object."));
}

// A core/v1 Event (events.k8s.io/v1's are stored as sent).
const GoType* core_event() {
  const GoType* series = object("v1.EventSeries",
                                {{"count", {i32(), "Number of occurrences in this series up to the last heartbeat time."}},
                                 {"lastObservedTime", {micro_time(), "Time of the last occurrence observed."}}},
                                "EventSeries contain information on series of events.");
  const GoType* source = object("v1.EventSource",
                                {{"component", {str(), "Component from which the event is generated."}},
                                 {"host", {str(), "Node name on which the event is generated."}}},
                                "EventSource contains information for an event.");
  return kind(
      "v1.Event",
      {{"involvedObject", {object_reference(), "The object that this event is about."}},
       {"reason", {str(), "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."}},
       {"message", {str(), "A human-readable description of the status of this operation."}},
       {"source", {source, "The component reporting this event."}},
       {"firstTimestamp", {time_type(), "The time at which the event was first recorded."}},
       {"lastTimestamp", {time_type(), "The time at which the most recent occurrence of this event was recorded."}},
       {"count", {i32(), "The number of times this event has occurred."}},
       {"type", {str(), "Type of this event (Normal, Warning), new types could be added in the future"}},
       {"eventTime", {micro_time(), "Time when this Event was first observed."}},
       {"series", {series, "Data about the Event series this event represents or nil if it's a singleton Event."}},
       {"action", {str(), "What action was taken/failed regarding to the Regarding object."}},
       {"related", {object_reference(), "Optional secondary object for more complex actions."}},
       {"reportingComponent", {str(), "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`."}},
       {"reportingInstance", {str(), "ID of the controller instance, e.g. `kubelet-xyzf`."}}},
      "Event is a report of an event somewhere in the cluster.", {"metadata", "involvedObject"});
}

// ---- Services, Jobs and CronJobs, PriorityClass (services.h, jobs.h, priority_classes.h) ----

const GoType* service() {
  const GoType* port = object(
      "v1.ServicePort",
      {{"name", {str(), "The name of this port within the service. This must be a DNS_LABEL."}},
       {"protocol", {enum_str("v1.Protocol", {"SCTP", "TCP", "UDP"}), "The IP protocol for this port. Supports \"TCP\", \"UDP\", and \"SCTP\". Default is TCP."}},
       {"appProtocol", {str(), "The application protocol for this port."}},
       {"port", {i32(), "The port that will be exposed by this service."}},
       {"targetPort", {scalar("intstr.IntOrString"), "Number or name of the port to access on the pods targeted by the service."}},
       {"nodePort", {i32(), "The port on each node on which this service is exposed when type is NodePort or LoadBalancer."}}},
      "ServicePort contains information on service's port.", {"port"});
  const GoType* affinity = object(
      "v1.SessionAffinityConfig",
      {{"clientIP", {object("v1.ClientIPConfig", {{"timeoutSeconds", {i32(), "timeoutSeconds specifies the seconds of ClientIP type session sticky time."}}}),
                     "clientIP contains the configurations of Client IP based session affinity."}}},
      "SessionAffinityConfig represents the configurations of session affinity.");
  const GoType* spec = object(
      "v1.ServiceSpec",
      {{"ports", {slice(port), "The list of ports that are exposed by this service."}},
       {"selector", {labels(), "Route service traffic to pods with label keys and values matching this selector."}},
       {"clusterIP", {str(), "clusterIP is the IP address of the service and is usually assigned randomly."}},
       {"clusterIPs", {strings(), "ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly."}},
       {"type", {enum_str("v1.ServiceType", {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}), "type determines how the Service is exposed. Defaults to ClusterIP."}},
       {"externalIPs", {strings(), "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service."}},
       {"sessionAffinity", {enum_str("v1.ServiceAffinity", {"ClientIP", "None"}), "Supports \"ClientIP\" and \"None\". Used to maintain session affinity."}},
       {"loadBalancerIP", {str(), "Only applies to Service Type: LoadBalancer. Deprecated."}},
       {"loadBalancerSourceRanges", {strings(), "If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer."}},
       {"externalName", {str(), "externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record)."}},
       {"externalTrafficPolicy", {enum_str("v1.ServiceExternalTrafficPolicy", {"Cluster", "Local"}), "externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service's \"externally-facing\" addresses."}},
       {"healthCheckNodePort", {i32(), "healthCheckNodePort specifies the healthcheck nodePort for the service."}},
       {"publishNotReadyAddresses", {boolean(), "publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready."}},
       {"sessionAffinityConfig", {affinity, "sessionAffinityConfig contains the configurations of session affinity."}},
       {"ipFamilies", {slice(str("v1.IPFamily")), "IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service."}},
       {"ipFamilyPolicy", {enum_str("v1.IPFamilyPolicy", {"PreferDualStack", "RequireDualStack", "SingleStack"}), "IPFamilyPolicy represents the dual-stack-ness requested or required by this Service."}},
       {"allocateLoadBalancerNodePorts", {boolean(), "allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer."}},
       {"loadBalancerClass", {str(), "loadBalancerClass is the class of the load balancer implementation this Service belongs to."}},
       {"internalTrafficPolicy", {enum_str("v1.ServiceInternalTrafficPolicy", {"Cluster", "Local"}), "InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP."}},
       {"trafficDistribution", {str(), "TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints."}}},
      "ServiceSpec describes the attributes that a user creates on a service.");
  const GoType* status = object(
      "v1.ServiceStatus",
      {{"loadBalancer", {object("v1.LoadBalancerStatus", {{"ingress", any("[]v1.LoadBalancerIngress")}}), "LoadBalancer contains the current status of the load-balancer, if one is present."}},
       {"conditions", {any("[]v1.Condition"), "Current service state"}}},
      "ServiceStatus represents the current status of a service.");
  return kind("v1.Service",
              {{"spec", {spec, "Spec defines the behavior of a service."}},
               {"status", {status, "Most recently observed status of the service."}}},
              "Service is a named abstraction of software service (for example, mysql) consisting of local port (for "
              "example 3306) that the proxy listens on, and the selector that determines which pods will answer "
              "requests sent through the proxy.");
}

const GoType* job_spec() {
  const GoType* template_spec = object("v1.PodTemplateSpec", {{"metadata", object_meta()}, {"spec", pod_spec()}});
  return object(
      "v1.JobSpec",
      {{"parallelism", {i32(), "Specifies the maximum desired number of pods the job should run at any given time."}},
       {"completions", {i32(), "Specifies the desired number of successfully finished pods the job should be run with."}},
       {"activeDeadlineSeconds", {i64(), "Specifies the duration in seconds relative to the startTime that the job may be continuously active before the system tries to terminate it."}},
       {"podFailurePolicy", {any("v1.PodFailurePolicy"), "Specifies the policy of handling failed pods."}},
       {"successPolicy", {any("v1.SuccessPolicy"), "successPolicy specifies the policy when the Job can be declared as succeeded."}},
       {"backoffLimit", {i32(), "Specifies the number of retries before marking this job failed. Defaults to 6"}},
       {"backoffLimitPerIndex", {i32(), "Specifies the limit for the number of retries within an index before marking this index as failed."}},
       {"maxFailedIndexes", {i32(), "Specifies the maximal number of failed indexes before marking the Job as failed."}},
       {"selector", {label_selector(), "A label query over pods that should match the pod count."}},
       {"manualSelector", {boolean(), "manualSelector controls generation of pod labels and pod selectors."}},
       {"template", {template_spec, "Describes the pod that will be created when executing a job."}},
       {"ttlSecondsAfterFinished", {i32(), "ttlSecondsAfterFinished limits the lifetime of a Job that has finished execution (either Complete or Failed)."}},
       {"completionMode", {enum_str("v1.CompletionMode", {"Indexed", "NonIndexed"}), "completionMode specifies how Pod completions are tracked. It can be `NonIndexed` (default) or `Indexed`."}},
       {"suspend", {boolean(), "suspend specifies whether the Job controller should create Pods or not."}},
       {"podReplacementPolicy", {enum_str("v1.PodReplacementPolicy", {"Failed", "TerminatingOrFailed"}), "podReplacementPolicy specifies when to create replacement Pods."}},
       {"managedBy", {str(), "ManagedBy field indicates the controller that manages a Job."}}},
      "JobSpec describes how the job execution will look like.", {"template"});
}

const GoType* job() {
  const GoType* status = object(
      "v1.JobStatus",
      {{"conditions", {any("[]v1.JobCondition"), "The latest available observations of an object's current state."}},
       {"startTime", {time_type(), "Represents time when the job controller started processing a job."}},
       {"completionTime", {time_type(), "Represents time when the job was completed."}},
       {"active", {i32(), "The number of pending and running pods which are not terminating."}},
       {"succeeded", {i32(), "The number of pods which reached phase Succeeded."}},
       {"failed", {i32(), "The number of pods which reached phase Failed."}},
       {"terminating", {i32(), "The number of pods which are terminating."}},
       {"completedIndexes", {str(), "completedIndexes holds the completed indexes when .spec.completionMode = \"Indexed\" in a text format."}},
       {"failedIndexes", {str(), "FailedIndexes holds the failed indexes when spec.backoffLimitPerIndex is set."}},
       {"uncountedTerminatedPods", {any("v1.UncountedTerminatedPods"), "uncountedTerminatedPods holds the UIDs of Pods that have terminated but the job controller hasn't yet accounted for in the status counters."}},
       {"ready", {i32(), "The number of active pods which have a Ready condition and are not terminating."}}},
      "JobStatus represents the current state of a Job.");
  return kind("v1.Job",
              {{"spec", {job_spec(), "Specification of the desired behavior of a job."}},
               {"status", {status, "Current status of a job."}}},
              "Job represents the configuration of a single job.");
}

const GoType* cron_job() {
  const GoType* job_template = object(
      "v1.JobTemplateSpec",
      {{"metadata", {object_meta(), "Standard object's metadata of the jobs created from this template."}},
       {"spec", {job_spec(), "Specification of the desired behavior of the job."}}},
      "JobTemplateSpec describes the data a Job should have when created from a template");
  const GoType* spec = object(
      "v1.CronJobSpec",
      {{"schedule", {str(), "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."}},
       {"timeZone", {str(), "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones."}},
       {"startingDeadlineSeconds", {i64(), "Optional deadline in seconds for starting the job if it misses scheduled time for any reason."}},
       {"concurrencyPolicy", {enum_str("v1.ConcurrencyPolicy", {"Allow", "Forbid", "Replace"}), "Specifies how to treat concurrent executions of a Job."}},
       {"suspend", {boolean(), "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions. Defaults to false."}},
       {"jobTemplate", {job_template, "Specifies the job that will be created when executing a CronJob."}},
       {"successfulJobsHistoryLimit", {i32(), "The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3."}},
       {"failedJobsHistoryLimit", {i32(), "The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1."}}},
      "CronJobSpec describes how the job execution will look like and when it will actually run.",
      {"schedule", "jobTemplate"});
  const GoType* status = object(
      "v1.CronJobStatus",
      {{"active", {slice(object_reference()), "A list of pointers to currently running jobs."}},
       {"lastScheduleTime", {time_type(), "Information when was the last time the job was successfully scheduled."}},
       {"lastSuccessfulTime", {time_type(), "Information when was the last time the job successfully completed."}}},
      "CronJobStatus represents the current state of a cron job.");
  return kind("v1.CronJob",
              {{"spec", {spec, "Specification of the desired behavior of a cron job, including the schedule."}},
               {"status", {status, "Current status of a cron job."}}},
              "CronJob represents the configuration of a single cron job.");
}

const GoType* priority_class() {
  return kind(
      "v1.PriorityClass",
      {{"value", {i32(), "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec."}},
       {"globalDefault", {boolean(), "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class."}},
       {"description", {str(), "description is an arbitrary string that usually provides guidelines on when this priority class should be used."}},
       {"preemptionPolicy", {enum_str("v1.PreemptionPolicy", {"Never", "PreemptLowerPriority"}), "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset."}}},
      "PriorityClass defines mapping from a priority class name to the priority integer value.", {"value"});
}

// The declared kinds, by group and resource.
const std::map<std::pair<std::string, std::string>, const GoType*>& kinds() {
  static const auto* table = [] {
    auto* out = new std::map<std::pair<std::string, std::string>, const GoType*>();  // NOLINT: immortal
    const std::string rbac = "rbac.authorization.k8s.io";
    (*out)[{"", "namespaces"}] = kind(
        "v1.Namespace",
        {{"spec", {object("v1.NamespaceSpec",
                          {{"finalizers", {slice(str("v1.FinalizerName")), "Finalizers is an opaque list of values that must be empty to permanently remove object from storage."}}}),
                   "Spec defines the behavior of the Namespace."}},
         {"status", {object("v1.NamespaceStatus",
                            {{"phase", {enum_str("v1.NamespacePhase", {"Active", "Terminating"}), "Phase is the current lifecycle phase of the namespace."}},
                             {"conditions", any("[]v1.NamespaceCondition")}}),
                     "Status describes the current status of a Namespace."}}},
        "Namespace provides a scope for Names. Use of multiple namespaces is optional.");
    (*out)[{"", "serviceaccounts"}] = kind(
        "v1.ServiceAccount",
        {{"secrets", {slice(object_reference()), "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use."}},
         {"imagePullSecrets", {slice(local_reference()), "ImagePullSecrets is a list of references to secrets in the same namespace."}},
         {"automountServiceAccountToken", {boolean(), "Whether pods running as this service account should have an API token automatically mounted."}}},
        "ServiceAccount binds together a name, a principal that can be authenticated and authorized, and a set of secrets.");
    (*out)[{"", "configmaps"}] = kind(
        "v1.ConfigMap",
        {{"data", {labels(), "Data contains the configuration data."}},
         {"binaryData", {bytes_map(), "BinaryData contains the binary data."}},
         {"immutable", {boolean(), "Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated."}}},
        "ConfigMap holds configuration data for pods to consume.");
    (*out)[{"", "secrets"}] = kind(
        "v1.Secret",
        {{"data", {bytes_map(), "Data contains the secret data, base64 encoded."}},
         {"stringData", {labels(), "stringData allows specifying non-binary secret data in string form."}},
         {"type", {str("v1.SecretType"), "Used to facilitate programmatic handling of secret data."}},
         {"immutable", {boolean(), "Immutable, if set to true, ensures that data stored in the Secret cannot be updated."}}},
        "Secret holds secret data of a certain type.");
    for (const char* role : {"Role", "ClusterRole"}) {
      Fields fields = {{"rules", {policy_rules(), "Rules holds all the PolicyRules for this Role."}}};
      if (std::string_view(role) == "ClusterRole") {
        fields.emplace("aggregationRule",
                       object("v1.AggregationRule", {{"clusterRoleSelectors", slice(label_selector())}},
                              "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole."));
      }
      (*out)[{rbac, role == std::string_view("Role") ? "roles" : "clusterroles"}] =
          kind(fmt::format("v1.{}", role), std::move(fields),
               fmt::format("{} is a logical grouping of PolicyRules that can be referenced as a unit by a binding.", role));
    }
    (*out)[{rbac, "rolebindings"}] =
        kind("v1.RoleBinding", binding_fields(), "RoleBinding references a role, but does not contain it.", {"roleRef"});
    (*out)[{rbac, "clusterrolebindings"}] = kind(
        "v1.ClusterRoleBinding", binding_fields(), "ClusterRoleBinding references a role, but does not contain it.", {"roleRef"});
    (*out)[{"apps", "deployments"}] = deployment();
    (*out)[{"apps", "replicasets"}] = replica_set();
    (*out)[{"apps", "statefulsets"}] = stateful_set();
    (*out)[{"apps", "daemonsets"}] = daemon_set();
    (*out)[{"", "pods"}] = pod();
    (*out)[{"", "nodes"}] = node();
    (*out)[{"coordination.k8s.io", "leases"}] = lease();
    (*out)[{"", "events"}] = core_event();
    // Services, Jobs and CronJobs, PriorityClass.
    (*out)[{"", "services"}] = service();
    (*out)[{"batch", "jobs"}] = job();
    (*out)[{"batch", "cronjobs"}] = cron_job();
    (*out)[{"scheduling.k8s.io", "priorityclasses"}] = priority_class();
    return out;
  }();
  return *table;
}

// The OpenAPI schema of `type`; `element`: an array's items or a map's values
// (a string there has default "", as kube-apiserver's schemas show).
json schema_of(const GoType& type, const json& object_meta, bool element = false) {
  switch (type.shape) {
    case Shape::String: {
      json schema = {{"type", "string"}};
      if (element) schema["default"] = "";
      if (!type.enums.empty()) schema["enum"] = type.enums;
      return schema;
    }
    case Shape::Bytes:
      return {{"type", "string"}, {"format", "byte"}};
    case Shape::Integer:
      return {{"type", "integer"}, {"format", type.name}};
    case Shape::Bool:
      return {{"type", "boolean"}};
    case Shape::Scalar:
      if (type.name == "intstr.IntOrString") return {{"type", "string"}, {"format", "int-or-string"}};
      return {{"type", "string"}};
    case Shape::Any:
      if (type.name == "v1.Time" || type.name == "v1.MicroTime") return {{"type", "string"}, {"format", "date-time"}};
      if (type.name == "[]string") return {{"type", "array"}, {"items", {{"type", "string"}, {"default", ""}}}};
      if (type.name.starts_with("[]")) {
        return {{"type", "array"}, {"items", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
      }
      return {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
    case Shape::Slice:
      return {{"type", "array"}, {"items", schema_of(*type.element, object_meta, true)}};
    case Shape::Map:
      return {{"type", "object"}, {"additionalProperties", schema_of(*type.element, object_meta, true)}};
    case Shape::Struct:
      break;
  }
  if (type.name == "v1.ObjectMeta") return object_meta;
  json properties = json::object();
  for (const auto& [name, field] : type.fields) {
    json property = schema_of(*field.type, object_meta);
    if (*field.description != '\0') property["description"] = field.description;
    properties[name] = std::move(property);
  }
  json schema = {{"type", "object"}, {"properties", std::move(properties)}};
  if (!type.description.empty()) schema["description"] = type.description;
  if (!type.required.empty()) schema["required"] = type.required;
  if (type.atomic) schema["x-kubernetes-map-type"] = "atomic";
  return schema;
}

// Go's name of a JSON value's type in an UnmarshalTypeError.
const char* json_type(const json& value) {
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  if (value.is_number()) return "number";
  if (value.is_array()) return "array";
  return "object";
}

// "v1.DeploymentSpec" -> "DeploymentSpec": the struct as an UnmarshalTypeError names it.
std::string struct_name(const GoType& type) {
  const std::size_t dot = type.name.rfind('.');
  return dot == std::string::npos ? type.name : type.name.substr(dot + 1);
}

class Decoder {
 public:
  explicit Decoder(DecodeOutcome& out) : out_(out) {}

  // `path`: the field's path with list indices (unknown fields);
  // `go_path`: without them (type errors); `owner`: the struct holding it.
  void decode(const GoType& type, json& value, const std::string& path, const std::string& go_path,
              const GoType& owner) {
    if (value.is_null()) return;  // null leaves a Go value at its zero value
    switch (type.shape) {
      case Shape::Any:
        return;
      case Shape::String:
        if (!value.is_string()) mismatch(value, type, go_path, owner);
        return;
      case Shape::Bytes:
        if (!value.is_string()) return mismatch(value, type, go_path, owner);
        if (out_.type_error.empty()) out_.type_error = base64_error(value.get_ref<const std::string&>());
        return;
      case Shape::Integer:
        if (!value.is_number_integer() && !value.is_number_unsigned()) {
          if (value.is_number_float()) return mismatch_text("number " + value.dump(), type, go_path, owner);
          mismatch(value, type, go_path, owner);
        }
        return;
      case Shape::Bool:
        if (!value.is_boolean()) mismatch(value, type, go_path, owner);
        return;
      case Shape::Scalar:
        if (!value.is_string() && !value.is_number()) mismatch(value, type, go_path, owner);
        return;
      case Shape::Slice:
        if (!value.is_array()) return mismatch(value, type, go_path, owner);
        for (std::size_t i = 0; i < value.size(); ++i) {
          decode(*type.element, value[i], path + "[" + std::to_string(i) + "]", go_path, owner);
        }
        return;
      case Shape::Map:
        if (!value.is_object()) return mismatch(value, type, go_path, owner);
        for (auto& [key, item] : value.items()) decode(*type.element, item, path + "." + key, go_path, owner);
        return;
      case Shape::Struct:
        if (!value.is_object()) return mismatch(value, type, go_path, owner);
        decode_struct(type, value, path, go_path);
        return;
    }
  }

  void decode_struct(const GoType& type, json& value, const std::string& path, const std::string& go_path) {
    std::vector<std::string> unknown;
    for (auto& [key, item] : value.items()) {
      const std::string field_path = path.empty() ? key : path + "." + key;
      const auto field = type.fields.find(key);
      if (field == type.fields.end()) {
        unknown.push_back(key);
        out_.unknown_fields.push_back(field_path);
        continue;
      }
      decode(*field->second.type, item, field_path, go_path.empty() ? key : go_path + "." + key, type);
    }
    for (const std::string& key : unknown) value.erase(key);
  }

 private:
  void mismatch(const json& value, const GoType& type, const std::string& go_path, const GoType& owner) {
    mismatch_text(json_type(value), type, go_path, owner);
  }
  void mismatch_text(const std::string& what, const GoType& type, const std::string& go_path, const GoType& owner) {
    if (!out_.type_error.empty()) return;  // the decoder reports its first
    out_.type_error = "json: cannot unmarshal " + what + " into Go struct field " + struct_name(owner) + "." +
                      go_path + " of type " + type.name;
  }

  DecodeOutcome& out_;
};

}  // namespace

DecodeOutcome decode_builtin(const ResourceInfo& info, json& object) {
  DecodeOutcome out;
  if (info.custom || !object.is_object()) return out;
  const auto found = kinds().find({info.group, info.resource});
  if (found == kinds().end()) return out;
  out.known = true;
  Decoder(out).decode_struct(*found->second, object, "", "");
  return out;
}

json object_meta_openapi_schema() {
  const GoType& meta = *object_meta();
  json properties = json::object();
  for (const auto& [name, field] : meta.fields) {
    json property = schema_of(*field.type, nullptr);
    if (*field.description != '\0') property["description"] = field.description;
    properties[name] = std::move(property);
  }
  return {{"type", "object"}, {"description", meta.description}, {"properties", std::move(properties)}};
}

std::optional<json> builtin_openapi_schema(const ResourceInfo& info, const json& object_meta) {
  if (info.custom) return std::nullopt;
  const auto found = kinds().find({info.group, info.resource});
  if (found == kinds().end()) return std::nullopt;
  json schema = schema_of(*found->second, object_meta);
  for (const char* common : {"apiVersion", "kind", "metadata"}) schema["properties"].erase(common);
  return schema;
}

}  // namespace mkq::sandbox
