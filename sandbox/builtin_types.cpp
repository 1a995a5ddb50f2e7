// The built-in kinds' Go types and their decoding (builtin_types.h).
#include "sandbox/builtin_types.h"

#include <map>
#include <memory>

#include "sandbox/builtin_validation.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// A Go type as encoding/json decodes into it.
struct GoType {
  enum class Shape { Struct, Slice, Map, String, Integer, Bool, Bytes, Scalar, Any };
  Shape shape = Shape::Any;
  std::string name;  // as Go prints it: "v1.PodSpec", "[]v1.Container", "map[string]string", "int32"
  std::map<std::string, const GoType*> fields;  // Struct: JSON name -> type
  const GoType* element = nullptr;              // Slice items, Map values
};

using Shape = GoType::Shape;
using Fields = std::map<std::string, const GoType*>;

// The types live as long as the process: built once, never freed.
const GoType* make(Shape shape, std::string name, Fields fields = {}, const GoType* element = nullptr) {
  auto* type = new GoType{shape, std::move(name), std::move(fields), element};  // NOLINT: immortal
  return type;
}

const GoType* str(const char* name = "string") { return make(Shape::String, name); }
const GoType* i32() { return make(Shape::Integer, "int32"); }
const GoType* i64() { return make(Shape::Integer, "int64"); }
const GoType* boolean() { return make(Shape::Bool, "bool"); }
// A value with its own decoder that takes a string or a number: IntOrString, Quantity.
const GoType* scalar(const char* name) { return make(Shape::Scalar, name); }
// A part declared by name only: any value is accepted inside.
const GoType* any(const char* name) { return make(Shape::Any, name); }
const GoType* slice(const GoType* element) { return make(Shape::Slice, "[]" + element->name, {}, element); }
const GoType* map_of(const GoType* element, const char* key = "string") {
  return make(Shape::Map, std::string("map[") + key + "]" + element->name, {}, element);
}
const GoType* bytes_map() { return make(Shape::Map, "map[string][]uint8", {}, make(Shape::Bytes, "[]uint8")); }
const GoType* strings() { return slice(str()); }
const GoType* labels() { return map_of(str()); }
const GoType* object(std::string name, Fields fields) { return make(Shape::Struct, std::move(name), std::move(fields)); }

const GoType* time_type() { return any("v1.Time"); }

const GoType* object_meta() {
  static const GoType* type = [] {
    const GoType* owner = object("v1.OwnerReference", {{"apiVersion", str()}, {"kind", str()}, {"name", str()},
                                                       {"uid", str("types.UID")}, {"controller", boolean()},
                                                       {"blockOwnerDeletion", boolean()}});
    const GoType* managed = object("v1.ManagedFieldsEntry",
                                   {{"manager", str()}, {"operation", str("v1.ManagedFieldsOperationType")},
                                    {"apiVersion", str()}, {"time", time_type()}, {"fieldsType", str()},
                                    {"fieldsV1", any("v1.FieldsV1")}, {"subresource", str()}});
    return object("v1.ObjectMeta", {{"name", str()}, {"generateName", str()}, {"namespace", str()},
                                    {"selfLink", str()}, {"uid", str("types.UID")}, {"resourceVersion", str()},
                                    {"generation", i64()}, {"creationTimestamp", time_type()},
                                    {"deletionTimestamp", time_type()}, {"deletionGracePeriodSeconds", i64()},
                                    {"labels", labels()}, {"annotations", labels()},
                                    {"ownerReferences", slice(owner)}, {"finalizers", strings()},
                                    {"managedFields", slice(managed)}});
  }();
  return type;
}

// A kind: apiVersion, kind, metadata and its own fields.
const GoType* kind(std::string name, Fields fields) {
  fields["apiVersion"] = str();
  fields["kind"] = str();
  fields["metadata"] = object_meta();
  return object(std::move(name), std::move(fields));
}

const GoType* label_selector() {
  const GoType* requirement = object("v1.LabelSelectorRequirement", {{"key", str()},
                                                                     {"operator", str("v1.LabelSelectorOperator")},
                                                                     {"values", strings()}});
  return object("v1.LabelSelector", {{"matchLabels", labels()}, {"matchExpressions", slice(requirement)}});
}

const GoType* local_reference() { return object("v1.LocalObjectReference", {{"name", str()}}); }

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
    fields[source] = any("volume source");
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
                {{"name", str()}, {"image", str()}, {"command", strings()}, {"args", strings()},
                 {"workingDir", str()}, {"ports", slice(port)}, {"envFrom", any("[]v1.EnvFromSource")},
                 {"env", slice(env)}, {"resources", resources}, {"resizePolicy", any("[]v1.ContainerResizePolicy")},
                 {"restartPolicy", str("v1.ContainerRestartPolicy")}, {"volumeMounts", slice(mount)},
                 {"volumeDevices", any("[]v1.VolumeDevice")}, {"livenessProbe", probe()},
                 {"readinessProbe", probe()}, {"startupProbe", probe()}, {"lifecycle", any("v1.Lifecycle")},
                 {"terminationMessagePath", str()},
                 {"terminationMessagePolicy", str("v1.TerminationMessagePolicy")},
                 {"imagePullPolicy", str("v1.PullPolicy")}, {"securityContext", security}, {"stdin", boolean()},
                 {"stdinOnce", boolean()}, {"tty", boolean()}});
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
                   {"containers", slice(container())},
                   {"restartPolicy", str("v1.RestartPolicy")},
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
  for (const char* part : {"ephemeralContainers", "affinity", "tolerations", "hostAliases", "dnsConfig",
                           "readinessGates", "overhead", "topologySpreadConstraints", "os", "schedulingGates",
                           "resourceClaims", "resources"}) {
    fields[part] = any("pod spec part");
  }
  return object("v1.PodSpec", std::move(fields));
}

const GoType* deployment() {
  const GoType* template_spec = object("v1.PodTemplateSpec", {{"metadata", object_meta()}, {"spec", pod_spec()}});
  const GoType* rolling = object("v1.RollingUpdateDeployment", {{"maxUnavailable", scalar("intstr.IntOrString")},
                                                                {"maxSurge", scalar("intstr.IntOrString")}});
  const GoType* strategy = object("v1.DeploymentStrategy", {{"type", str("v1.DeploymentStrategyType")},
                                                            {"rollingUpdate", rolling}});
  const GoType* spec = object("v1.DeploymentSpec", {{"replicas", i32()}, {"selector", label_selector()},
                                                    {"template", template_spec}, {"strategy", strategy},
                                                    {"minReadySeconds", i32()}, {"revisionHistoryLimit", i32()},
                                                    {"paused", boolean()}, {"progressDeadlineSeconds", i32()}});
  return kind("v1.Deployment", {{"spec", spec}, {"status", any("v1.DeploymentStatus")}});
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
  for (const char* part : {"hostIPs", "podIPs", "resourceClaimStatuses", "extendedResourceClaimStatus"}) {
    status[part] = any("pod status part");
  }
  return kind("v1.Pod", {{"spec", pod_spec()}, {"status", object("v1.PodStatus", std::move(status))}});
}

// A Node as a kubelet would report it: capacity, allocatable, conditions.
const GoType* node() {
  const GoType* quantities = map_of(scalar("resource.Quantity"), "v1.ResourceName");
  const GoType* taint = object("v1.Taint", {{"key", str()}, {"value", str()}, {"effect", str("v1.TaintEffect")},
                                            {"timeAdded", time_type()}});
  const GoType* spec = object("v1.NodeSpec", {{"podCIDR", str()}, {"podCIDRs", strings()}, {"providerID", str()},
                                              {"unschedulable", boolean()}, {"taints", slice(taint)},
                                              {"configSource", any("v1.NodeConfigSource")}, {"externalID", str()}});
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
  for (const char* part : {"daemonEndpoints", "images", "volumesInUse", "volumesAttached", "config",
                           "runtimeHandlers", "features", "declaredFeatures"}) {
    status[part] = any("node status part");
  }
  return kind("v1.Node", {{"spec", spec}, {"status", object("v1.NodeStatus", std::move(status))}});
}

const GoType* policy_rules() {
  return slice(object("v1.PolicyRule", {{"verbs", strings()}, {"apiGroups", strings()}, {"resources", strings()},
                                        {"resourceNames", strings()}, {"nonResourceURLs", strings()}}));
}

Fields binding_fields() {
  const GoType* subject = object("v1.Subject", {{"kind", str()}, {"apiGroup", str()}, {"name", str()},
                                                {"namespace", str()}});
  const GoType* role_ref = object("v1.RoleRef", {{"apiGroup", str()}, {"kind", str()}, {"name", str()}});
  return {{"subjects", slice(subject)}, {"roleRef", role_ref}};
}

const GoType* lease() {
  const GoType* spec = object("v1.LeaseSpec", {{"holderIdentity", str()}, {"leaseDurationSeconds", i32()},
                                               {"acquireTime", any("v1.MicroTime")}, {"renewTime", any("v1.MicroTime")},
                                               {"leaseTransitions", i32()},
                                               {"strategy", str("v1.CoordinatedLeaseStrategy")},
                                               {"preferredHolder", str()}});
  return kind("v1.Lease", {{"spec", spec}});
}

// A core/v1 Event (events.k8s.io/v1's are stored as sent).
const GoType* core_event(const GoType* object_reference) {
  const GoType* series = object("v1.EventSeries", {{"count", i32()}, {"lastObservedTime", any("v1.MicroTime")}});
  return kind("v1.Event", {{"involvedObject", object_reference}, {"reason", str()}, {"message", str()},
                           {"source", object("v1.EventSource", {{"component", str()}, {"host", str()}})},
                           {"firstTimestamp", time_type()}, {"lastTimestamp", time_type()}, {"count", i32()},
                           {"type", str()}, {"eventTime", any("v1.MicroTime")}, {"series", series},
                           {"action", str()}, {"related", object_reference}, {"reportingComponent", str()},
                           {"reportingInstance", str()}});
}

// The declared kinds, by group and resource.
const std::map<std::pair<std::string, std::string>, const GoType*>& kinds() {
  static const auto* table = [] {
    auto* out = new std::map<std::pair<std::string, std::string>, const GoType*>();  // NOLINT: immortal
    const std::string rbac = "rbac.authorization.k8s.io";
    (*out)[{"", "namespaces"}] = kind("v1.Namespace", {{"spec", object("v1.NamespaceSpec", {{"finalizers", slice(str("v1.FinalizerName"))}})},
                                                       {"status", any("v1.NamespaceStatus")}});
    const GoType* object_reference = object(
        "v1.ObjectReference", {{"kind", str()}, {"namespace", str()}, {"name", str()}, {"uid", str("types.UID")},
                               {"apiVersion", str()}, {"resourceVersion", str()}, {"fieldPath", str()}});
    (*out)[{"", "serviceaccounts"}] = kind("v1.ServiceAccount", {{"secrets", slice(object_reference)},
                                                                 {"imagePullSecrets", slice(local_reference())},
                                                                 {"automountServiceAccountToken", boolean()}});
    (*out)[{"", "configmaps"}] = kind("v1.ConfigMap", {{"data", labels()}, {"binaryData", bytes_map()},
                                                       {"immutable", boolean()}});
    (*out)[{"", "secrets"}] = kind("v1.Secret", {{"data", bytes_map()}, {"stringData", labels()},
                                                 {"type", str("v1.SecretType")}, {"immutable", boolean()}});
    (*out)[{rbac, "roles"}] = kind("v1.Role", {{"rules", policy_rules()}});
    (*out)[{rbac, "clusterroles"}] = kind(
        "v1.ClusterRole",
        {{"rules", policy_rules()},
         {"aggregationRule", object("v1.AggregationRule", {{"clusterRoleSelectors", slice(label_selector())}})}});
    (*out)[{rbac, "rolebindings"}] = kind("v1.RoleBinding", binding_fields());
    (*out)[{rbac, "clusterrolebindings"}] = kind("v1.ClusterRoleBinding", binding_fields());
    (*out)[{"apps", "deployments"}] = deployment();
    (*out)[{"", "pods"}] = pod();
    (*out)[{"", "nodes"}] = node();
    (*out)[{"coordination.k8s.io", "leases"}] = lease();
    (*out)[{"", "events"}] = core_event(object_reference);
    return out;
  }();
  return *table;
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
      decode(*field->second, item, field_path, go_path.empty() ? key : go_path + "." + key, type);
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

}  // namespace mkq::sandbox
