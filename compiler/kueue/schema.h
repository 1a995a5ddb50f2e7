// mkq's own description of the Kubernetes kinds it renders: Kueue's v1beta2
// API (kueue.x-k8s.io) and the core/RBAC kinds a MultiKueue setup needs.
//
// Written from the facts in ../shared/kueue (VALIDATION.md, MULTIKUEUE.md,
// VERSIONS.md), never copied from Kueue's CRD files, which stay the tests'
// oracle. This is the one place that lowering, compile-time validation, the
// sandbox's built-in CRDs and the runtime's diff take Kueue's API facts from,
// so it is kept as data: tables of kinds, fields, enums, limits, defaults and
// immutable fields. The limits are also named constants for code that checks
// one rule.
#pragma once

#include "compiler/facts/kueue.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mkq::kueue::schema {

// Kueue's facts -- groups and versions, well-known names, labels, limits --
// have their home in compiler/facts/kueue.h, below sema, which checks them
// too; they are visible here as schema::k* so the tables below and their
// users read one set of names.
using namespace facts;  // NOLINT(google-build-using-namespace): one home, one spelling

// True for the object that is Kueue's configuration: a ConfigMap named
// kKueueConfigMapName (in Kueue's namespace, whichever the policy names). For
// an object the state remembers but the policy no longer renders; lowering
// marks the objects it renders (kueue::Object::kueue_configuration).
bool is_kueue_configuration(std::string_view kind, std::string_view name);

// ------------------------------------------------------------------ kinds

enum class Kind {
  Namespace,
  ConfigMap,
  OpenShiftKueue,  // the Red Hat build's `Kueue` (kueue.openshift.io/v1): Kueue's configuration on OpenShift
  Secret,
  ServiceAccount,
  ClusterRole,
  ClusterRoleBinding,
  RoleBinding,
  Topology,
  ResourceFlavor,
  Cohort,
  WorkloadPriorityClass,
  MultiKueueCluster,
  MultiKueueConfig,
  AdmissionCheck,
  ClusterQueue,
  LocalQueue,
};

struct KindInfo {
  Kind kind;
  std::string_view name;         // "ClusterQueue"
  std::string_view api_version;  // "kueue.x-k8s.io/v1beta2"
  std::string_view plural;       // "clusterqueues" (the REST resource)
  bool namespaced;
  // Kueue's dependency order: a kind is applied after every kind with a lower
  // tier and deleted before it. Namespace, Secret/ConfigMap, ServiceAccount,
  // RBAC -> Topology, ResourceFlavor, Cohort, WorkloadPriorityClass ->
  // MultiKueueCluster -> MultiKueueConfig -> AdmissionCheck -> ClusterQueue ->
  // LocalQueue. Within a tier, kinds keep the order of kKinds.
  int apply_tier;
  std::string_view short_names;  // space-separated, as kubectl knows them ("cq")
};

// Every kind mkq renders, in apply order (the order of enum Kind).
inline constexpr std::array<KindInfo, 17> kKinds = {{
    {Kind::Namespace, "Namespace", "v1", "namespaces", false, 0, "ns"},
    {Kind::ConfigMap, "ConfigMap", "v1", "configmaps", true, 1, "cm"},
    {Kind::OpenShiftKueue, kOpenShiftKueueKind, kOpenShiftKueueApiVersion, "kueues", false, 1, ""},
    {Kind::Secret, "Secret", "v1", "secrets", true, 1, ""},
    {Kind::ServiceAccount, "ServiceAccount", "v1", "serviceaccounts", true, 2, "sa"},
    {Kind::ClusterRole, "ClusterRole", kRbacApiVersion, "clusterroles", false, 3, ""},
    {Kind::ClusterRoleBinding, "ClusterRoleBinding", kRbacApiVersion, "clusterrolebindings", false, 3, ""},
    {Kind::RoleBinding, "RoleBinding", kRbacApiVersion, "rolebindings", true, 3, ""},
    {Kind::Topology, "Topology", kKueueApiVersion, "topologies", false, 4, "topo"},
    {Kind::ResourceFlavor, "ResourceFlavor", kKueueApiVersion, "resourceflavors", false, 4, "flavor flavors rf"},
    {Kind::Cohort, "Cohort", kKueueApiVersion, "cohorts", false, 4, "co"},
    {Kind::WorkloadPriorityClass, "WorkloadPriorityClass", kKueueApiVersion, "workloadpriorityclasses", false, 4,
     "wpc"},
    {Kind::MultiKueueCluster, "MultiKueueCluster", kKueueApiVersion, "multikueueclusters", false, 5, "mkc"},
    {Kind::MultiKueueConfig, "MultiKueueConfig", kKueueApiVersion, "multikueueconfigs", false, 6, "mkconf"},
    {Kind::AdmissionCheck, "AdmissionCheck", kKueueApiVersion, "admissionchecks", false, 7, "ac"},
    {Kind::ClusterQueue, "ClusterQueue", kKueueApiVersion, "clusterqueues", false, 8, "cq"},
    {Kind::LocalQueue, "LocalQueue", kKueueApiVersion, "localqueues", true, 9, "queue queues lq"},
}};

const KindInfo& info(Kind kind);
// The kind named `name` ("ClusterQueue"), if mkq renders it.
const KindInfo* find_kind(std::string_view name);
// The position of a kind in apply order (its index in kKinds); unknown kinds sort last.
int apply_rank(std::string_view kind_name);

// ------------------------------------------------------------------ fields

enum class FieldType {
  String,
  Integer,   // int32/int64
  Boolean,
  Quantity,  // int-or-string in Kubernetes' quantity syntax
  Object,
  List,      // a JSON array; `path` + "[]" names its items
  Map,       // string -> string (labels)
};

// One field of a kind's document. Paths are dotted from the document's root;
// "[]" stands for every item of a list ("spec.resourceGroups[].flavors[].name").
struct Field {
  Kind kind;
  std::string_view path;
  FieldType type;
  bool required;  // required when its parent is present
};

// The fields of the Kueue kinds that mkq renders (a subset of what Kueue
// accepts: fields mkq never writes, e.g. ClusterQueue.spec.admissionScope, are
// not listed). Parents come before their children.
extern const std::span<const Field> kFields;

// The fields of one kind, in table order.
std::span<const Field> fields_of(Kind kind);
const Field* find_field(Kind kind, std::string_view path);

// ------------------------------------------------------------------ enums

struct EnumField {
  Kind kind;
  std::string_view path;
  std::span<const std::string_view> values;  // Kueue's spelling, in Kueue's order (the default: kDefaults)
};

extern const std::span<const EnumField> kEnums;
const EnumField* find_enum(Kind kind, std::string_view path);

// ------------------------------------------------------------------ limits

enum class LimitType { MinItems, MaxItems, MaxLength, MaxProperties };

struct FieldLimit {
  Kind kind;
  std::string_view path;
  LimitType type;
  std::int64_t value;
};

extern const std::span<const FieldLimit> kLimits;
std::optional<std::int64_t> find_limit(Kind kind, std::string_view path, LimitType type);

// ------------------------------------------------------------------ defaults

enum class DefaultSource {
  // The CRD's `default:`: the API server fills the field in when it is absent
  // and its parent object is present (defaulting runs from the root down, so a
  // parent defaulted to {} gets its own children's defaults in turn).
  Server,
  // Documented only: Kueue reads an absent field as this value, but nothing
  // fills it in (the generated CRDs do not default it either).
  Unset,
};

// The value a field takes when the policy leaves it unset, for every field of
// the kinds mkq writes that has one. Paths as in kFields ("[]": every item of
// a list). Two uses in the runtime's diff: "absent" and "the default" compare
// equal, and a live value other than the default in a field the policy leaves
// unset is drift that apply restores. Values are JSON text.
struct FieldDefault {
  Kind kind;
  std::string_view path;
  std::string_view json_value;  // "\"BestEffortFIFO\"", "1", "{}"
  DefaultSource source;
};

extern const std::span<const FieldDefault> kDefaults;
const FieldDefault* find_default(Kind kind, std::string_view path);

// ------------------------------------------------------------------ immutable fields

enum class Mutability {
  Immutable,      // never changes once the object exists: changing it needs delete + create
  SetOnce,        // may be added once, never changed or removed
  Conditional,    // mutable only under a condition the message states
};

struct ImmutableField {
  Kind kind;
  std::string_view path;
  Mutability mutability;
  std::string_view message;  // what Kueue says when an update breaks the rule
};

extern const std::span<const ImmutableField> kImmutableFields;
const ImmutableField* find_immutable(Kind kind, std::string_view path);

}  // namespace mkq::kueue::schema
