#include "sandbox/protobuf.h"

#include <chrono>
#include <cstdint>
#include <ctime>
#include <set>
#include <map>
#include <vector>

#include "base/encoding.h"
#include "base/time.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

// kInt: a non-pointer integer (Go's omitempty drops a zero); kOptInt: a
// pointer (`*int32`: a zero was set and is kept); kIntOrString:
// intstr.IntOrString {type = 1, intVal = 2, strVal = 3}, a number or a
// string in JSON; kQuantityMap: map<string, resource.Quantity {string = 1}>.
enum class Type { kString, kBytes, kBool, kInt, kOptInt, kTime, kMessage, kStringMap, kBytesMap, kIntOrString, kQuantityMap };

struct Field {
  int number;
  const char* name;  // the JSON field name
  Type type;
  bool repeated = false;
  const char* message = nullptr;  // kMessage: the message's name in kMessages
};

// The fields of the messages of k8s.io/api (generated.proto) the sandbox's
// built-in kinds are made of. Fields not listed (selfLink, managedFields, ...)
// are skipped, as the server would ignore or overwrite them.
const std::map<std::string, std::vector<Field>>& messages() {
  static const std::map<std::string, std::vector<Field>> table = {
      {"TypeMeta", {{1, "apiVersion", Type::kString}, {2, "kind", Type::kString}}},
      {"ObjectMeta",
       {{1, "name", Type::kString},
        {2, "generateName", Type::kString},
        {3, "namespace", Type::kString},
        {5, "uid", Type::kString},
        {6, "resourceVersion", Type::kString},
        {7, "generation", Type::kInt},
        {8, "creationTimestamp", Type::kTime},
        {9, "deletionTimestamp", Type::kTime},
        {10, "deletionGracePeriodSeconds", Type::kInt},
        {11, "labels", Type::kStringMap},
        {12, "annotations", Type::kStringMap},
        {13, "ownerReferences", Type::kMessage, true, "OwnerReference"},
        {14, "finalizers", Type::kString, true}}},
      {"OwnerReference",
       {{1, "kind", Type::kString},
        {3, "name", Type::kString},
        {4, "uid", Type::kString},
        {5, "apiVersion", Type::kString},
        {6, "controller", Type::kBool},
        {7, "blockOwnerDeletion", Type::kBool}}},
      {"Namespace",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "NamespaceSpec"},
        {3, "status", Type::kMessage, false, "NamespaceStatus"}}},
      {"NamespaceSpec", {{1, "finalizers", Type::kString, true}}},
      {"NamespaceStatus", {{1, "phase", Type::kString}}},
      {"ConfigMap",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "data", Type::kStringMap},
        {3, "binaryData", Type::kBytesMap},
        {4, "immutable", Type::kBool}}},
      {"Secret",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "data", Type::kBytesMap},
        {3, "type", Type::kString},
        {4, "stringData", Type::kStringMap},
        {5, "immutable", Type::kBool}}},
      {"ServiceAccount",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "secrets", Type::kMessage, true, "ObjectReference"},
        {3, "imagePullSecrets", Type::kMessage, true, "LocalObjectReference"},
        {4, "automountServiceAccountToken", Type::kBool}}},
      {"ObjectReference",
       {{1, "kind", Type::kString},
        {2, "namespace", Type::kString},
        {3, "name", Type::kString},
        {4, "uid", Type::kString},
        {5, "apiVersion", Type::kString},
        {6, "resourceVersion", Type::kString},
        {7, "fieldPath", Type::kString}}},
      {"LocalObjectReference", {{1, "name", Type::kString}}},
      {"Role", {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "rules", Type::kMessage, true, "PolicyRule"}}},
      {"ClusterRole",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "rules", Type::kMessage, true, "PolicyRule"},
        {3, "aggregationRule", Type::kMessage, false, "AggregationRule"}}},
      {"PolicyRule",
       {{1, "verbs", Type::kString, true},
        {2, "apiGroups", Type::kString, true},
        {3, "resources", Type::kString, true},
        {4, "resourceNames", Type::kString, true},
        {5, "nonResourceURLs", Type::kString, true}}},
      {"AggregationRule", {{1, "clusterRoleSelectors", Type::kMessage, true, "LabelSelector"}}},
      {"LabelSelector",
       {{1, "matchLabels", Type::kStringMap}, {2, "matchExpressions", Type::kMessage, true, "LabelSelectorRequirement"}}},
      {"LabelSelectorRequirement",
       {{1, "key", Type::kString}, {2, "operator", Type::kString}, {3, "values", Type::kString, true}}},
      {"RoleBinding",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "subjects", Type::kMessage, true, "Subject"},
        {3, "roleRef", Type::kMessage, false, "RoleRef"}}},
      {"ClusterRoleBinding",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "subjects", Type::kMessage, true, "Subject"},
        {3, "roleRef", Type::kMessage, false, "RoleRef"}}},
      {"Subject",
       {{1, "kind", Type::kString}, {2, "apiGroup", Type::kString}, {3, "name", Type::kString}, {4, "namespace", Type::kString}}},
      {"RoleRef", {{1, "apiGroup", Type::kString}, {2, "kind", Type::kString}, {3, "name", Type::kString}}},
      {"Time", {{1, "seconds", Type::kInt}, {2, "nanos", Type::kInt}}},
      // authentication.k8s.io/v1 (kubectl create token).
      {"TokenRequest",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "TokenRequestSpec"}}},
      {"TokenRequestSpec",
       {{1, "audiences", Type::kString, true},
        {3, "boundObjectRef", Type::kMessage, false, "BoundObjectReference"},
        {4, "expirationSeconds", Type::kInt}}},
      {"BoundObjectReference",
       {{1, "kind", Type::kString}, {2, "apiVersion", Type::kString}, {3, "name", Type::kString}, {4, "uid", Type::kString}}},
      // authentication.k8s.io/v1 and authorization.k8s.io/v1 reviews (kubectl auth whoami, can-i).
      {"SelfSubjectReview", {{1, "metadata", Type::kMessage, false, "ObjectMeta"}}},
      {"SelfSubjectAccessReview",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "SelfSubjectAccessReviewSpec"}}},
      {"SelfSubjectAccessReviewSpec",
       {{1, "resourceAttributes", Type::kMessage, false, "ResourceAttributes"},
        {2, "nonResourceAttributes", Type::kMessage, false, "NonResourceAttributes"}}},
      {"ResourceAttributes",
       {{1, "namespace", Type::kString},
        {2, "verb", Type::kString},
        {3, "group", Type::kString},
        {4, "version", Type::kString},
        {5, "resource", Type::kString},
        {6, "subresource", Type::kString},
        {7, "name", Type::kString}}},
      {"NonResourceAttributes", {{1, "path", Type::kString}, {2, "verb", Type::kString}}},
      {"SubjectAccessReview",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "SubjectAccessReviewSpec"}}},
      {"LocalSubjectAccessReview",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "SubjectAccessReviewSpec"}}},
      {"SubjectAccessReviewSpec",
       {{1, "resourceAttributes", Type::kMessage, false, "ResourceAttributes"},
        {2, "nonResourceAttributes", Type::kMessage, false, "NonResourceAttributes"},
        {3, "user", Type::kString},
        {4, "groups", Type::kString, true},
        {6, "uid", Type::kString}}},
      {"SelfSubjectRulesReview",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "SelfSubjectRulesReviewSpec"}}},
      {"SelfSubjectRulesReviewSpec", {{1, "namespace", Type::kString}}},
      // apps/v1 (kubectl create deployment), k8s.io/api/apps/v1/generated.proto.
      {"Deployment",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "DeploymentSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"DeploymentSpec",
       {{1, "replicas", Type::kOptInt},
        {2, "selector", Type::kMessage, false, "LabelSelector"},
        {3, "template", Type::kMessage, false, "PodTemplateSpec"},
        {4, "strategy", Type::kMessage, false, "DeploymentStrategy"},
        {5, "minReadySeconds", Type::kInt},
        {6, "revisionHistoryLimit", Type::kOptInt},
        {7, "paused", Type::kBool},
        {9, "progressDeadlineSeconds", Type::kOptInt}}},
      {"DeploymentStrategy",
       {{1, "type", Type::kString}, {2, "rollingUpdate", Type::kMessage, false, "RollingUpdateDeployment"}}},
      {"RollingUpdateDeployment", {{1, "maxUnavailable", Type::kIntOrString}, {2, "maxSurge", Type::kIntOrString}}},
      {"ReplicaSet",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "ReplicaSetSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"ReplicaSetSpec",
       {{1, "replicas", Type::kOptInt},
        {2, "selector", Type::kMessage, false, "LabelSelector"},
        {3, "template", Type::kMessage, false, "PodTemplateSpec"},
        {4, "minReadySeconds", Type::kInt}}},
      {"StatefulSet",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "StatefulSetSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"StatefulSetSpec",
       {{1, "replicas", Type::kOptInt},
        {2, "selector", Type::kMessage, false, "LabelSelector"},
        {3, "template", Type::kMessage, false, "PodTemplateSpec"},
        {5, "serviceName", Type::kString},
        {6, "podManagementPolicy", Type::kString},
        {7, "updateStrategy", Type::kMessage, false, "StatefulSetUpdateStrategy"},
        {8, "revisionHistoryLimit", Type::kOptInt},
        {9, "minReadySeconds", Type::kInt},
        {10, "persistentVolumeClaimRetentionPolicy", Type::kMessage, false, "StatefulSetPersistentVolumeClaimRetentionPolicy"},
        {11, "ordinals", Type::kMessage, false, "StatefulSetOrdinals"}}},
      {"StatefulSetUpdateStrategy",
       {{1, "type", Type::kString}, {2, "rollingUpdate", Type::kMessage, false, "RollingUpdateStatefulSetStrategy"}}},
      {"RollingUpdateStatefulSetStrategy", {{1, "partition", Type::kOptInt}, {2, "maxUnavailable", Type::kIntOrString}}},
      {"StatefulSetPersistentVolumeClaimRetentionPolicy", {{1, "whenDeleted", Type::kString}, {2, "whenScaled", Type::kString}}},
      {"StatefulSetOrdinals", {{1, "start", Type::kInt}}},
      {"DaemonSet",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "DaemonSetSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"DaemonSetSpec",
       {{1, "selector", Type::kMessage, false, "LabelSelector"},
        {2, "template", Type::kMessage, false, "PodTemplateSpec"},
        {3, "updateStrategy", Type::kMessage, false, "DaemonSetUpdateStrategy"},
        {4, "minReadySeconds", Type::kInt},
        {6, "revisionHistoryLimit", Type::kOptInt}}},
      {"DaemonSetUpdateStrategy",
       {{1, "type", Type::kString}, {2, "rollingUpdate", Type::kMessage, false, "RollingUpdateDaemonSet"}}},
      {"RollingUpdateDaemonSet", {{1, "maxUnavailable", Type::kIntOrString}, {2, "maxSurge", Type::kIntOrString}}},
      // A status a client sends is the controllers' to write: read as empty (kube's would be overwritten).
      {"Empty", {}},
      // core/v1 pod templates: the fields kubectl's generators and the common
      // manifests set (volumes, probes, affinity, ... are skipped).
      {"PodTemplateSpec",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "PodSpec"}}},
      {"PodSpec",
       {{2, "containers", Type::kMessage, true, "Container"},
        {3, "restartPolicy", Type::kString},
        {4, "terminationGracePeriodSeconds", Type::kOptInt},
        {5, "activeDeadlineSeconds", Type::kOptInt},
        {6, "dnsPolicy", Type::kString},
        {7, "nodeSelector", Type::kStringMap},
        {8, "serviceAccountName", Type::kString},
        {9, "serviceAccount", Type::kString},
        {10, "nodeName", Type::kString},
        {11, "hostNetwork", Type::kBool},
        {15, "imagePullSecrets", Type::kMessage, true, "LocalObjectReference"},
        {16, "hostname", Type::kString},
        {17, "subdomain", Type::kString},
        {19, "schedulerName", Type::kString},
        {20, "initContainers", Type::kMessage, true, "Container"},
        {21, "automountServiceAccountToken", Type::kBool},
        {24, "priorityClassName", Type::kString},
        {25, "priority", Type::kOptInt}}},
      {"Container",
       {{1, "name", Type::kString},
        {2, "image", Type::kString},
        {3, "command", Type::kString, true},
        {4, "args", Type::kString, true},
        {5, "workingDir", Type::kString},
        {6, "ports", Type::kMessage, true, "ContainerPort"},
        {7, "env", Type::kMessage, true, "EnvVar"},
        {8, "resources", Type::kMessage, false, "ResourceRequirements"},
        {13, "terminationMessagePath", Type::kString},
        {14, "imagePullPolicy", Type::kString},
        {16, "stdin", Type::kBool},
        {17, "stdinOnce", Type::kBool},
        {18, "tty", Type::kBool},
        {20, "terminationMessagePolicy", Type::kString}}},
      {"ContainerPort",
       {{1, "name", Type::kString},
        {2, "hostPort", Type::kInt},
        {3, "containerPort", Type::kInt},
        {4, "protocol", Type::kString},
        {5, "hostIP", Type::kString}}},
      {"EnvVar", {{1, "name", Type::kString}, {2, "value", Type::kString}}},
      {"ResourceRequirements", {{1, "limits", Type::kQuantityMap}, {2, "requests", Type::kQuantityMap}}},
      {"IntOrString", {{1, "type", Type::kInt}, {2, "intVal", Type::kInt}, {3, "strVal", Type::kString}}},
      {"Quantity", {{1, "string", Type::kString}}},
      // The kinds kubectl's `create service|job|cronjob|priorityclass` send (served by h3's
      // kinds): core/v1, batch/v1 and scheduling.k8s.io/v1 generated.proto.
      {"Service",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "ServiceSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"ServiceSpec",
       {{1, "ports", Type::kMessage, true, "ServicePort"},
        {2, "selector", Type::kStringMap},
        {3, "clusterIP", Type::kString},
        {4, "type", Type::kString},
        {5, "externalIPs", Type::kString, true},
        {7, "sessionAffinity", Type::kString},
        {8, "loadBalancerIP", Type::kString},
        {9, "loadBalancerSourceRanges", Type::kString, true},
        {10, "externalName", Type::kString},
        {11, "externalTrafficPolicy", Type::kString},
        {12, "healthCheckNodePort", Type::kInt},
        {13, "publishNotReadyAddresses", Type::kBool},
        {17, "ipFamilyPolicy", Type::kString},
        {18, "clusterIPs", Type::kString, true},
        {19, "ipFamilies", Type::kString, true},
        {20, "allocateLoadBalancerNodePorts", Type::kBool},
        {21, "loadBalancerClass", Type::kString},
        {22, "internalTrafficPolicy", Type::kString}}},
      {"ServicePort",
       {{1, "name", Type::kString},
        {2, "protocol", Type::kString},
        {3, "port", Type::kInt},
        {4, "targetPort", Type::kIntOrString},
        {5, "nodePort", Type::kInt},
        {6, "appProtocol", Type::kString}}},
      {"Job",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "JobSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"JobSpec",
       {{1, "parallelism", Type::kOptInt},
        {2, "completions", Type::kOptInt},
        {3, "activeDeadlineSeconds", Type::kOptInt},
        {4, "selector", Type::kMessage, false, "LabelSelector"},
        {5, "manualSelector", Type::kBool},
        {6, "template", Type::kMessage, false, "PodTemplateSpec"},
        {7, "backoffLimit", Type::kOptInt},
        {8, "ttlSecondsAfterFinished", Type::kOptInt},
        {9, "completionMode", Type::kString},
        {10, "suspend", Type::kBool},
        {14, "podReplacementPolicy", Type::kString},
        {15, "managedBy", Type::kString}}},
      {"CronJob",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "spec", Type::kMessage, false, "CronJobSpec"},
        {3, "status", Type::kMessage, false, "Empty"}}},
      {"CronJobSpec",
       {{1, "schedule", Type::kString},
        {2, "startingDeadlineSeconds", Type::kOptInt},
        {3, "concurrencyPolicy", Type::kString},
        {4, "suspend", Type::kBool},
        {5, "jobTemplate", Type::kMessage, false, "JobTemplateSpec"},
        {6, "successfulJobsHistoryLimit", Type::kOptInt},
        {7, "failedJobsHistoryLimit", Type::kOptInt},
        {8, "timeZone", Type::kString}}},
      {"JobTemplateSpec", {{1, "metadata", Type::kMessage, false, "ObjectMeta"}, {2, "spec", Type::kMessage, false, "JobSpec"}}},
      {"PriorityClass",
       {{1, "metadata", Type::kMessage, false, "ObjectMeta"},
        {2, "value", Type::kInt},
        {3, "globalDefault", Type::kBool},
        {4, "description", Type::kString},
        {5, "preemptionPolicy", Type::kString}}},
  };
  return table;
}

// A protobuf wire-format reader over one message's bytes.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool done() const { return pos_ >= bytes_.size(); }

  bool varint(std::uint64_t* value) {
    *value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) return false;
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      *value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }

  bool length_delimited(std::string* out) {
    std::uint64_t length = 0;
    if (!varint(&length) || length > bytes_.size() - pos_) return false;
    *out = bytes_.substr(pos_, static_cast<std::size_t>(length));
    pos_ += static_cast<std::size_t>(length);
    return true;
  }

  bool skip(int wire_type) {
    std::uint64_t ignored = 0;
    std::string ignored_bytes;
    switch (wire_type) {
      case 0: return varint(&ignored);
      case 1: return advance(8);
      case 2: return length_delimited(&ignored_bytes);
      case 5: return advance(4);
      default: return false;
    }
  }

 private:
  bool advance(std::size_t n) {
    if (n > bytes_.size() - pos_) return false;
    pos_ += n;
    return true;
  }
  const std::string& bytes_;
  std::size_t pos_ = 0;
};

std::string rfc3339(std::int64_t seconds) {
  return base::format_rfc3339(std::chrono::system_clock::from_time_t(static_cast<std::time_t>(seconds)));
}

bool decode_message(const std::string& bytes, const std::string& type, json* out);

// A map entry message {key = 1, value = 2}: a string, bytes (base64 in
// JSON) or a Quantity message (its string in JSON).
bool decode_entry(const std::string& bytes, Type type, std::string* key, json* value) {
  Reader reader(bytes);
  std::string text;
  *value = "";
  while (!reader.done()) {
    std::uint64_t tag = 0;
    if (!reader.varint(&tag)) return false;
    const int number = static_cast<int>(tag >> 3);
    const int wire = static_cast<int>(tag & 7);
    if ((number == 1 || number == 2) && wire == 2) {
      if (!reader.length_delimited(&text)) return false;
      json quantity;
      if (number == 1) *key = text;
      else if (type == Type::kBytesMap) *value = base::base64_encode(text);
      else if (type != Type::kQuantityMap) *value = text;
      else if (!decode_message(text, "Quantity", &quantity)) return false;
      else *value = quantity.value("string", std::string());
    } else if (!reader.skip(wire)) {
      return false;
    }
  }
  return true;
}

bool decode_field(Reader& reader, const Field& field, int wire, json* out) {
  json value;
  std::string bytes;
  std::uint64_t number = 0;
  switch (field.type) {
    case Type::kBool:
    case Type::kInt:
    case Type::kOptInt:
      if (wire != 0 || !reader.varint(&number)) return false;
      // int32 fields are written sign-extended to 64 bits: the cast gives the negative value back.
      value = field.type == Type::kBool ? json(number != 0) : json(static_cast<std::int64_t>(number));
      break;
    case Type::kIntOrString: {
      json parts;
      if (wire != 2 || !reader.length_delimited(&bytes) || !decode_message(bytes, "IntOrString", &parts)) return false;
      value = parts.value("type", std::int64_t{0}) == 1 ? json(parts.value("strVal", std::string()))
                                                         : json(parts.value("intVal", std::int64_t{0}));
      (*out)[field.name] = value;  // 0 and "" are values here (a pointer to an IntOrString)
      return true;
    }
    case Type::kString:
    case Type::kBytes:
      if (wire != 2 || !reader.length_delimited(&bytes)) return false;
      value = field.type == Type::kBytes ? base::base64_encode(bytes) : bytes;
      break;
    case Type::kTime: {
      json time;
      if (wire != 2 || !reader.length_delimited(&bytes) || !decode_message(bytes, "Time", &time)) return false;
      const std::int64_t seconds = time.value("seconds", std::int64_t{0});
      value = seconds == 0 ? std::string() : rfc3339(seconds);
      break;
    }
    case Type::kMessage:
      if (wire != 2 || !reader.length_delimited(&bytes) || !decode_message(bytes, field.message, &value)) return false;
      break;
    case Type::kStringMap:
    case Type::kBytesMap:
    case Type::kQuantityMap: {
      std::string key;
      json entry;
      if (wire != 2 || !reader.length_delimited(&bytes) || !decode_entry(bytes, field.type, &key, &entry)) {
        return false;
      }
      if (!out->contains(field.name)) (*out)[field.name] = json::object();
      (*out)[field.name][key] = entry;
      return true;
    }
  }
  // Go's protobuf marshalling writes empty strings, zeros and zero times that the
  // JSON encoding omits (omitempty): leave them out. Bools are pointers and kept.
  const bool empty = (value.is_string() && value.get_ref<const std::string&>().empty()) ||
                     (field.type == Type::kInt && number == 0);
  if (empty && !field.repeated) return true;
  if (field.repeated) {
    if (!out->contains(field.name)) (*out)[field.name] = json::array();
    (*out)[field.name].push_back(value);
  } else {
    (*out)[field.name] = value;
  }
  return true;
}

bool decode_message(const std::string& bytes, const std::string& type, json* out) {
  const auto found = messages().find(type);
  if (found == messages().end()) return false;
  *out = json::object();
  Reader reader(bytes);
  while (!reader.done()) {
    std::uint64_t tag = 0;
    if (!reader.varint(&tag)) return false;
    const int number = static_cast<int>(tag >> 3);
    const int wire = static_cast<int>(tag & 7);
    const Field* field = nullptr;
    for (const auto& f : found->second) {
      if (f.number == number) field = &f;
    }
    if (field == nullptr) {
      if (!reader.skip(wire)) return false;
      continue;
    }
    if (!decode_field(reader, *field, wire, out)) return false;
  }
  return true;
}

}  // namespace

std::optional<json> decode_protobuf_object(const std::string& body, std::string* error) {
  static const std::string kMagic("k8s\0", 4);
  if (body.compare(0, kMagic.size(), kMagic) != 0) {
    *error = "provided object is not a protobuf-encoded Kubernetes object";
    return std::nullopt;
  }
  // runtime.Unknown: typeMeta = 1, raw = 2, contentEncoding = 3, contentType = 4.
  const std::string unknown = body.substr(kMagic.size());
  Reader reader(unknown);
  json type_meta = json::object();
  std::string raw;
  while (!reader.done()) {
    std::uint64_t tag = 0;
    std::string bytes;
    if (!reader.varint(&tag)) break;
    const int number = static_cast<int>(tag >> 3);
    const int wire = static_cast<int>(tag & 7);
    if ((number == 1 || number == 2) && wire == 2) {
      if (!reader.length_delimited(&bytes)) break;
      if (number == 1 && !decode_message(bytes, "TypeMeta", &type_meta)) break;
      if (number == 2) raw = bytes;
    } else if (!reader.skip(wire)) {
      break;
    }
    if (reader.done()) {
      const std::string kind = type_meta.value("kind", std::string());
      json object;
      static const std::set<std::string> kKinds = {"Namespace", "ConfigMap", "Secret", "ServiceAccount", "Role",
                                                   "ClusterRole", "RoleBinding", "ClusterRoleBinding", "TokenRequest",
                                                   "SelfSubjectReview", "SelfSubjectAccessReview", "SubjectAccessReview",
                                                   "LocalSubjectAccessReview", "SelfSubjectRulesReview",
                                                   // apps/v1
                                                   "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet",
                                                   // kubectl create service|job|cronjob|priorityclass
                                                   "Service", "Job", "CronJob", "PriorityClass"};
      if (kKinds.count(kind) == 0 || !decode_message(raw, kind, &object)) {
        *error = kind.empty() ? "protobuf object without a kind" : "cannot decode a " + kind + " from protobuf";
        return std::nullopt;
      }
      object["apiVersion"] = type_meta.value("apiVersion", std::string());
      object["kind"] = kind;
      return object;
    }
  }
  *error = "malformed protobuf body";
  return std::nullopt;
}

}  // namespace mkq::sandbox
