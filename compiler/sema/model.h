// The typed policy model: what a policy means, independent of its syntax.
//
// bind() (bind.h) builds it from the evaluated declaration tree; the Kueue
// lowering turns it into the desired objects of the manager and of every
// worker. Invariants of a Policy returned by bind():
//   - every name is a valid Kubernetes name for the field it becomes;
//   - every reference (Ref) names a declaration of the policy, except a
//     cohort, which may be implicit (see Policy::implicit_cohorts);
//   - collections are sorted by name (local queues and access bindings by
//     namespace, then name), with no duplicates;
//   - defaults that mkq defines (a worker's context and Secret name, credential
//     lifetimes, a dispatch's config name, ...) are filled in. Fields left to
//     Kueue's defaults are std::optional and unset when the policy does not
//     write them, so lowering can omit them (the rarely set ones, in every
//     queue or quota, are Boxed: the same reading, held out of line).
// Every declaration and every important field keeps the source range of the
// policy text it came from; a filled-in default points at the text it was
// derived from (usually the declaration's name).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/facts/kueue.h"
#include "compiler/sema/boxed.h"
#include "compiler/sema/quantity.h"
#include "compiler/sema/value.h"

namespace mkq::sema::model {

using Labels = std::map<std::string, std::string>;  // ordered: deterministic output

// A value and the policy text it came from.
template <typename T>
struct Located {
  T value{};
  diag::SourceRange range;
};

// A reference to another declaration, by name; `range` is where the name is written.
struct Ref {
  std::string name;
  diag::SourceRange range;
};

// ------------------------------------------------------------------ enums
// to_string() gives Kueue's spelling where Kueue has one (the value written in
// the policy is the same), else the language's spelling.

enum class QueueingStrategy { BestEffortFIFO, StrictFIFO };
enum class StopPolicy { None, Hold, HoldAndDrain };
enum class WithinClusterQueuePolicy { Never, LowerPriority, LowerOrNewerEqualPriority };
enum class ReclaimWithinCohortPolicy { Never, LowerPriority, Any };
enum class BorrowWithinCohortPolicy { Never, LowerPriority };
enum class FungibilityPolicy { MayStopSearch, TryNextFlavor };
enum class FungibilityPreference { BorrowingOverPreemption, PreemptionOverBorrowing };
enum class TaintEffect { NoSchedule, PreferNoSchedule, NoExecute };
enum class TolerationOperator { Equal, Exists };
enum class FairSharingPreemptionStrategy { LessThanOrEqualToFinalShare, LessThanInitialShare };
// Language spellings: "serviceaccount", "kubeconfig", "clusterprofile".
enum class CredentialsMode { ServiceAccount, Kubeconfig, ClusterProfile };
// Language spellings: "all-at-once", "incremental", "external".
enum class DispatchMode { AllAtOnce, Incremental, External };
// Language spellings: "priority" (higher first, then by name), "name",
// "most-free" (most free of a resource first, read at plan time; by name in a render).
enum class WorkerOrder { Priority, Name, MostFree };
// Language spellings: "batch-user", "batch-admin".
enum class AccessRole { BatchUser, BatchAdmin };
// Which build of Kueue the clusters run, and so where its configuration lives.
// Language spellings: "kubernetes" (Kueue's own: the kueue-manager-config
// ConfigMap), "openshift" (the Red Hat build of Kueue: the operator's `Kueue`
// custom resource, ../shared/kueue/openshift).
enum class Platform { Kubernetes, OpenShift };
// What `mkq controller` carries out (docs/controller.md). Language spellings:
// "manual" (the policy's changes reported, credentials applied), "auto".
enum class SyncMode { Manual, Auto };

std::string_view to_string(QueueingStrategy v);
std::string_view to_string(StopPolicy v);
std::string_view to_string(WithinClusterQueuePolicy v);
std::string_view to_string(ReclaimWithinCohortPolicy v);
std::string_view to_string(BorrowWithinCohortPolicy v);
std::string_view to_string(FungibilityPolicy v);
std::string_view to_string(FungibilityPreference v);
std::string_view to_string(TaintEffect v);
std::string_view to_string(TolerationOperator v);
std::string_view to_string(FairSharingPreemptionStrategy v);
std::string_view to_string(CredentialsMode v);
std::string_view to_string(DispatchMode v);
std::string_view to_string(WorkerOrder v);
std::string_view to_string(AccessRole v);
std::string_view to_string(Platform v);
std::string_view to_string(SyncMode v);

// Every value of each enum, in declaration order (for parsing and "did you mean").
inline constexpr std::array kQueueingStrategies = {QueueingStrategy::BestEffortFIFO, QueueingStrategy::StrictFIFO};
inline constexpr std::array kStopPolicies = {StopPolicy::None, StopPolicy::Hold, StopPolicy::HoldAndDrain};
inline constexpr std::array kWithinClusterQueuePolicies = {WithinClusterQueuePolicy::Never,
                                                           WithinClusterQueuePolicy::LowerPriority,
                                                           WithinClusterQueuePolicy::LowerOrNewerEqualPriority};
inline constexpr std::array kReclaimWithinCohortPolicies = {
    ReclaimWithinCohortPolicy::Never, ReclaimWithinCohortPolicy::LowerPriority, ReclaimWithinCohortPolicy::Any};
inline constexpr std::array kBorrowWithinCohortPolicies = {BorrowWithinCohortPolicy::Never,
                                                           BorrowWithinCohortPolicy::LowerPriority};
inline constexpr std::array kFungibilityPolicies = {FungibilityPolicy::MayStopSearch, FungibilityPolicy::TryNextFlavor};
inline constexpr std::array kFungibilityPreferences = {FungibilityPreference::BorrowingOverPreemption,
                                                       FungibilityPreference::PreemptionOverBorrowing};
inline constexpr std::array kTaintEffects = {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule,
                                             TaintEffect::NoExecute};
inline constexpr std::array kTolerationOperators = {TolerationOperator::Equal, TolerationOperator::Exists};
inline constexpr std::array kFairSharingPreemptionStrategies = {
    FairSharingPreemptionStrategy::LessThanOrEqualToFinalShare, FairSharingPreemptionStrategy::LessThanInitialShare};
inline constexpr std::array kCredentialsModes = {CredentialsMode::ServiceAccount, CredentialsMode::Kubeconfig,
                                                 CredentialsMode::ClusterProfile};
inline constexpr std::array kWorkerOrders = {WorkerOrder::Priority, WorkerOrder::Name, WorkerOrder::MostFree};
inline constexpr std::array kAccessRoles = {AccessRole::BatchUser, AccessRole::BatchAdmin};
inline constexpr std::array kPlatforms = {Platform::Kubernetes, Platform::OpenShift};
inline constexpr std::array kSyncModes = {SyncMode::Manual, SyncMode::Auto};

// The value of enum E spelled `text` (exactly, case-sensitive), if any.
template <typename E, std::size_t N>
std::optional<E> from_string(std::string_view text, const std::array<E, N>& values) {
  for (const E value : values) {
    if (to_string(value) == text) return value;
  }
  return std::nullopt;
}

// ------------------------------------------------------------------ common parts

// What every declaration has: its name (the block's label) and where it is.
struct Declaration {
  std::string name;
  diag::SourceRange name_range;  // the label
  diag::SourceRange range;       // the whole block
  // The `use` sites that produced the block, innermost first (empty when
  // written directly), for "instantiated from here" notes.
  std::vector<diag::SourceRange> instantiated_from;
};

// One resource of one flavor in a resource group (or of a worker's capacity).
struct ResourceQuota {
  std::string resource;             // "cpu", "memory", "nvidia.com/gpu"
  diag::SourceRange resource_range; // the attribute's name
  Located<Quantity> nominal;
  // Rarely set (unlike nominal, one per resource of every quota): out of line.
  Boxed<Located<Quantity>> borrowing_limit;
  Boxed<Located<Quantity>> lending_limit;
  diag::SourceRange range;          // the whole attribute
};

// The quotas of one flavor: a `quota "FLAVOR" { ... }` block.
struct FlavorQuotas {
  Ref flavor;                            // the block's label
  std::vector<ResourceQuota> resources;  // in the order of the group's covered_resources
  diag::SourceRange range;               // the quota block
};

// A Kueue resource group: resources covered together, and the flavors that
// provide them, in order of preference. Every flavor lists exactly the
// covered resources, in the same order.
struct ResourceGroup {
  std::vector<std::string> covered_resources;
  std::vector<FlavorQuotas> flavors;
  diag::SourceRange range;  // the `group` block, or the first quota block of an implicit group
};

// ------------------------------------------------------------------ clusters

// How mkq reaches a cluster: a context of a kubeconfig file.
struct Connection {
  Located<std::string> context;                  // default: the declaration's name
  std::optional<Located<std::string>> kubeconfig;  // a path; unset: --kubeconfig / $KUBECONFIG
};

// `state { namespace = "...", name = "..." }` in the manager: the policy's
// state kept in the manager cluster (the kubernetes:// backend, reached
// through the manager's context) instead of the file beside the policy.
// --state and MKQ_STATE override it.
struct StateSettings {
  Located<std::string> namespace_name;     // default "mkq-system"
  std::optional<Located<std::string>> name;  // unset: the policy's identity (declared, else derived)
  diag::SourceRange range;                 // the state block
};

// `sync { mode = "auto", self_heal = true, prune = false, interval = 5min }` in
// the manager: what `mkq controller` does; each field unset leaves the
// controller's default, and the controller's flag overrides it.
struct SyncSettings {
  std::optional<Located<SyncMode>> mode;
  std::optional<Located<bool>> self_heal;
  std::optional<Located<bool>> prune;
  std::optional<Located<Duration>> interval;  // > 0
  diag::SourceRange range;                    // the sync block
};

struct Manager : Declaration {
  Connection connection;
  Labels labels;
  diag::SourceRange labels_range;  // invalid when not written
  std::optional<StateSettings> state;
  std::optional<SyncSettings> sync;
};

// How the manager authenticates to a worker (the MultiKueueCluster's source).
struct Credentials {
  Located<CredentialsMode> mode;               // default ServiceAccount
  Located<std::string> service_account;        // default "multikueue-sa"
  Located<Duration> lifetime;                  // default 30d
  Located<Duration> rotate_before;             // default 7d; < lifetime
  std::optional<Located<SecretRef>> kubeconfig;  // set exactly when mode is Kubeconfig
  std::optional<Located<SecretRef>> token;       // a pre-issued token (not with ClusterProfile)
  Located<std::string> cluster_profile;        // default: the worker's name; used when mode is ClusterProfile
  diag::SourceRange range;                     // the credentials block; the worker's name when not written
};

// A worker's own version of a mirrored ClusterQueue.
struct ClusterQueueOverride {
  Ref cluster_queue;                           // the manager's ClusterQueue it overrides
  std::optional<Located<std::string>> name;    // its name on this worker (else the queue's worker_name)
  std::vector<ResourceGroup> resource_groups;  // empty: the worker's capacity / the queue's quotas
  diag::SourceRange range;                     // the override block
};

// A worker's capacity for one flavor: `capacity "FLAVOR" { cpu = 8 }`. Only
// nominal quotas (no limits).
struct Capacity {
  Ref flavor;
  std::vector<ResourceQuota> resources;  // in written order
  diag::SourceRange range;
};

struct Worker : Declaration {  // name: the MultiKueueCluster's name
  Connection connection;
  Labels labels;                           // what dispatch selections match
  diag::SourceRange labels_range;          // invalid when not written
  Located<std::int64_t> priority;          // dispatch order, higher first; default 0
  Located<std::string> secret_name;        // the kubeconfig Secret on the manager; default NAME-kubeconfig
  std::vector<Capacity> capacities;        // sorted by flavor
  Credentials credentials;
  std::vector<ClusterQueueOverride> overrides;  // sorted by cluster queue

  const Capacity* find_capacity(std::string_view flavor) const;
  const ClusterQueueOverride* find_override(std::string_view cluster_queue) const;
};

// ------------------------------------------------------------------ flavors and topologies

struct Taint {
  Located<std::string> key;
  std::optional<Located<std::string>> value;
  Located<TaintEffect> effect;
  diag::SourceRange range;  // the map
};

struct Toleration {
  std::optional<Located<std::string>> key;  // unset: every key (operator Exists)
  Located<TolerationOperator> op;           // default Equal
  std::optional<Located<std::string>> value;
  std::optional<Located<TaintEffect>> effect;  // unset: every effect
  std::optional<Located<std::int64_t>> toleration_seconds;
  diag::SourceRange range;  // the map
};

struct Flavor : Declaration {  // a ResourceFlavor
  Labels node_labels;
  diag::SourceRange node_labels_range;  // invalid when not written
  std::vector<Taint> taints;            // written order
  std::vector<Toleration> tolerations;  // written order
  std::optional<Ref> topology;
};

struct Topology : Declaration {
  std::vector<Located<std::string>> levels;  // node label keys, highest level first
};

// ------------------------------------------------------------------ queues

struct Cohort : Declaration {
  std::optional<Ref> parent;
  std::vector<ResourceGroup> resource_groups;
  std::optional<Located<Quantity>> fair_sharing_weight;
};

// A cohort that queues or cohorts name but the policy does not declare: it
// exists in Kueue without a Cohort object, as Kueue allows.
struct ImplicitCohort {
  std::string name;
  diag::SourceRange first_reference;
};

enum class NamespaceSelection { All, Names, MatchLabels };

// Which namespaces' LocalQueues may use a ClusterQueue.
struct NamespaceSelector {
  NamespaceSelection kind = NamespaceSelection::All;
  std::vector<Located<std::string>> names;  // kind Names: sorted, unique
  Labels match_labels;                      // kind MatchLabels
  diag::SourceRange range;                  // the value; the queue's name when not written
};

// Unset fields take Kueue's defaults.
struct Preemption {
  std::optional<Located<WithinClusterQueuePolicy>> within_cluster_queue;
  std::optional<Located<ReclaimWithinCohortPolicy>> reclaim_within_cohort;
  std::optional<Located<BorrowWithinCohortPolicy>> borrow_within_cohort;
  std::optional<Located<std::int32_t>> borrow_max_priority_threshold;
  diag::SourceRange range;  // the block
};

struct FlavorFungibility {
  std::optional<Located<FungibilityPolicy>> when_can_borrow;
  std::optional<Located<FungibilityPolicy>> when_can_preempt;
  std::optional<Located<FungibilityPreference>> preference;
  diag::SourceRange range;  // the block
};

struct ClusterQueue : Declaration {
  NamespaceSelector namespaces;
  std::optional<Ref> cohort;
  std::vector<ResourceGroup> resource_groups;
  Boxed<Preemption> preemption;  // rarely written: out of line, like flavor_fungibility
  std::optional<Located<Quantity>> fair_sharing_weight;
  Boxed<FlavorFungibility> flavor_fungibility;
  std::optional<Located<QueueingStrategy>> queueing_strategy;
  std::optional<Located<StopPolicy>> stop_policy;
  Located<std::string> worker_name;  // its name on the workers; default: its name
  // The dispatch that sends this queue's workloads to workers (its
  // AdmissionCheck), if any. At most one dispatch lists a queue.
  std::optional<std::string> dispatch;
};

struct LocalQueue : Declaration {
  Located<std::string> namespace_name;  // the `in` label
  Ref cluster_queue;                    // nested in a clusterqueue: its name, ranged at the queue's label
  bool is_default = false;              // the namespace's default LocalQueue (then named "default")
  std::optional<Located<StopPolicy>> stop_policy;
  std::optional<Located<Quantity>> fair_sharing_weight;
};

struct Namespace : Declaration {
  Labels labels;
};

struct PriorityClass : Declaration {  // a WorkloadPriorityClass
  Located<std::int32_t> value;
  std::optional<Located<std::string>> description;
};

// ------------------------------------------------------------------ dispatch

inline constexpr std::string_view kAllAtOnceDispatcher = "kueue.x-k8s.io/multikueue-dispatcher-all-at-once";
inline constexpr std::string_view kIncrementalDispatcher = "kueue.x-k8s.io/multikueue-dispatcher-incremental";

// Kueue's MultiKueue dispatcher: a built-in one or an external controller.
struct Dispatcher {
  DispatchMode mode = DispatchMode::AllAtOnce;
  std::string external_name;  // mode External: the dispatcher's name as Kueue's configuration spells it

  // Kueue's `multiKueue.dispatcherName`.
  std::string kueue_name() const;
  // How the policy spells it: "all-at-once", "incremental" or the external name.
  std::string spelling() const;
  friend bool operator==(const Dispatcher&, const Dispatcher&) = default;
};

// `select { labels = ..., order = ..., limit = N }`.
struct WorkerSelector {
  Labels labels;  // a worker matches when it has every one of these labels
  Located<WorkerOrder> order;  // default Priority
  // Set exactly when order is MostFree: the resource whose free amount on a
  // worker (allocatable of its Ready nodes minus requests of its unfinished
  // pods) orders the workers at plan time (runtime/reconcile/capacity.h).
  std::optional<Located<std::string>> resource;
  std::optional<Located<std::int64_t>> limit;  // never with MostFree
  diag::SourceRange range;  // the select block
};

// An AdmissionCheck (NAME) with its MultiKueueConfig (config_name).
struct Dispatch : Declaration {
  Located<std::string> config_name;  // default: NAME
  std::vector<Ref> queues;           // the ClusterQueues it applies to, written order
  // The workers, resolved, in dispatch order (the MultiKueueConfig's clusters).
  // For a selection, each Ref's range is the select block.
  std::vector<Ref> workers;
  std::optional<WorkerSelector> selector;  // unset: an explicit `workers` list
  // As written on this dispatch; every dispatch and the kueue block agree, and
  // the Kueue-wide effective values are in KueueSettings::multikueue.
  std::optional<Located<Dispatcher>> mode;
  std::optional<Located<std::int64_t>> step;
  std::optional<Located<std::string>> origin;
};

// ------------------------------------------------------------------ Kueue's configuration

struct GangScheduling {  // waitForPodsReady
  Located<bool> enable;  // default true (the block is written)
  std::optional<Located<Duration>> timeout;
  std::optional<Located<Duration>> recovery_timeout;
  std::optional<Located<bool>> block_admission;
  diag::SourceRange range;
};

struct KueueFairSharing {
  Located<bool> enable;  // default true (the block is written)
  std::vector<Located<FairSharingPreemptionStrategy>> preemption_strategies;  // written order
  diag::SourceRange range;
};

// The exec API versions client-go speaks with credential plugins.
inline constexpr std::string_view kExecApiV1 = "client.authentication.k8s.io/v1";
inline constexpr std::string_view kExecApiV1beta1 = "client.authentication.k8s.io/v1beta1";

// One environment variable of an exec plugin.
struct ExecEnvVar {
  Located<std::string> name;   // the map key; not empty
  Located<std::string> value;
};

// A ClusterProfile access provider Kueue may use:
// `access_provider "NAME" { ... }` in `kueue { multikueue { ... } }`, rendered
// as multiKueue.clusterProfile.accessProviders[] of Kueue's configuration.
// NAME must equal a ClusterProfile's status.accessProviders[].name; the exec
// plugin (command) must exist in the kueue-controller-manager container.
struct AccessProvider : Declaration {
  Located<std::string> command;            // execConfig.command; not empty
  std::vector<Located<std::string>> args;  // execConfig.args, written order
  std::vector<ExecEnvVar> env;             // execConfig.env, written order
  Located<std::string> api_version;        // kExecApiV1 (default) or kExecApiV1beta1
  std::optional<Located<bool>> provide_cluster_info;  // execConfig.provideClusterInfo
};

struct MultiKueueSettings {
  std::optional<Located<Duration>> gc_interval;
  std::optional<Located<Duration>> worker_lost_timeout;
  // Effective Kueue-wide values, from the kueue block or any dispatch (they
  // agree); ranges point at where they are written, invalid for defaults.
  Located<Dispatcher> dispatcher;     // default all-at-once
  Located<std::int64_t> step{3, {}};  // incremental step size; default 3
  Located<std::string> origin{"multikueue", {}};
  // In written order, names unique: Kueue tries them in this order and uses
  // the first one a ClusterProfile offers (so they are not sorted by name).
  std::vector<AccessProvider> access_providers;
  diag::SourceRange range;  // the multikueue block; invalid when not written

  const AccessProvider* find_access_provider(std::string_view name) const;
};

struct KueueSettings {
  bool declared = false;    // a `kueue` block is written
  diag::SourceRange range;  // the kueue block; invalid when not written
  // Default Kubernetes. OpenShift also changes the default namespace to the
  // operator's (facts::kOpenShiftKueueNamespace).
  Located<Platform> platform{Platform::Kubernetes, {}};
  Located<std::string> namespace_name{std::string(facts::kDefaultKueueNamespace), {}};
  std::vector<Located<std::string>> integrations;  // Kueue framework names; default {facts::kDefaultIntegration}
  std::optional<GangScheduling> gang_scheduling;
  std::optional<Located<bool>> manage_jobs_without_queue_name;
  std::optional<Located<Labels>> managed_namespaces;  // managedJobsNamespaceSelector matchLabels
  std::optional<KueueFairSharing> fair_sharing;
  MultiKueueSettings multikueue;
  std::vector<Located<std::string>> external_frameworks;  // "Kind.version.group"
  // Restart Kueue's controller manager after apply changed its configuration
  // (it reads the configuration only when it starts); false leaves that to the admin.
  Located<bool> restart{true, {}};
};

// ------------------------------------------------------------------ access

// A RoleBinding (namespace set) or ClusterRoleBinding (not set) of users and
// groups to a batch role.
struct Access : Declaration {
  std::optional<Located<std::string>> namespace_name;
  Located<AccessRole> role;
  std::vector<Located<std::string>> users;
  std::vector<Located<std::string>> groups;
};

// ------------------------------------------------------------------ the policy

// One entry of the integration catalogue: what a Kueue integration (a job
// framework) needs on a worker for MultiKueue to run its jobs there. The
// catalogue is written in the policy language (std/integrations, always loaded,
// and `integration` declarations of the policy) and drives the worker's
// least-privilege ClusterRole.
//
// The catalogue holds API groups and resources, not verbs: the verbs are
// MultiKueue's, the same for every framework (create, delete, get, list and
// watch on a resource; get on a subresource such as "jobs/status"). Kueue's own
// Workload objects are not in the catalogue either: every worker needs them,
// whatever is enabled, with verbs of their own, so lowering always grants
// kueue.x-k8s.io "workloads" and "workloads/status" itself.
struct IntegrationResources {
  Located<std::string> api_group;        // "batch", "jobset.x-k8s.io", "" for the core group
  std::vector<Located<std::string>> resources;  // "jobs", "jobs/status": plural, or plural/subresource
  diag::SourceRange range;               // the rule's map
};

struct Integration : Declaration {  // name: Kueue's framework name, "batch/job" or "Kind.version.group"
  // In written order, one per API group, resources unique. Empty for a
  // framework without a MultiKueue adapter (its jobs never reach a worker).
  std::vector<IntegrationResources> rules;
  bool standard = false;  // declared by std/integrations, not by the policy
};

struct Policy {
  // The identity declared with `policy "NAME" {}`: the mkq.dev/policy label of
  // every object the policy writes. Absent: fixed in the policy's state at its
  // first apply, else derived from where the policy lives (kueue::policy_name.h).
  std::optional<Located<std::string>> identity;
  Manager manager;
  std::vector<Worker> workers;
  std::vector<Flavor> flavors;
  std::vector<Topology> topologies;
  std::vector<Cohort> cohorts;                   // declared cohorts
  std::vector<ImplicitCohort> implicit_cohorts;  // referenced, not declared
  std::vector<ClusterQueue> cluster_queues;
  std::vector<LocalQueue> local_queues;          // by namespace, then name
  std::vector<Namespace> namespaces;
  std::vector<PriorityClass> priority_classes;
  std::vector<Dispatch> dispatches;
  KueueSettings kueue;
  std::vector<Access> access;                    // cluster-wide first, then by namespace; then name
  std::vector<Integration> integrations;         // the catalogue, by name (std/integrations + the policy's)

  // Lookups by name (binary search; nullptr when absent).
  const Worker* find_worker(std::string_view name) const;
  const Flavor* find_flavor(std::string_view name) const;
  const Topology* find_topology(std::string_view name) const;
  const Cohort* find_cohort(std::string_view name) const;
  const ClusterQueue* find_cluster_queue(std::string_view name) const;
  const LocalQueue* find_local_queue(std::string_view namespace_name, std::string_view name) const;
  const Namespace* find_namespace(std::string_view name) const;
  const PriorityClass* find_priority_class(std::string_view name) const;
  const Dispatch* find_dispatch(std::string_view name) const;
  const Integration* find_integration(std::string_view name) const;
  // The catalogue entries of what the policy enables: kueue.integrations and
  // kueue.external_frameworks (each has one: bind() checks), sorted by name.
  std::vector<const Integration*> enabled_integrations() const;
  // The local queues that point at a cluster queue, in the policy's order.
  std::vector<const LocalQueue*> local_queues_of(std::string_view cluster_queue) const;
  // Some worker is reached through a ClusterProfile (Kueue then needs the
  // MultiKueueClusterProfile feature gate and an access provider).
  bool uses_cluster_profiles() const;
};

}  // namespace mkq::sema::model
