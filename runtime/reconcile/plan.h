// The plan: desired (the compiled policy) vs state (the inventory of what mkq
// applied) vs live (refresh), per cluster, as create, update, delete, replace,
// release and no-op changes, each with a reason -- and its renderings.
//
// Ownership (docs/apply.md, "Safety"): mkq deletes only what it created. An
// object that existed before mkq first applied it is adopted (its prior
// values recorded) and later released, not deleted; so is an object marked
// mkq.dev/prevent-destroy, and a Namespace holding objects mkq does not
// manage. An object labelled with another policy's identity is a conflict
// that apply refuses unless the plan was made with take_over.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "compiler/kueue/objects.h"
#include "runtime/reconcile/credentials_port.h"
#include "runtime/reconcile/reason.h"
#include "runtime/reconcile/target.h"
#include "runtime/state/state.h"

namespace mkq::reconcile {

// Release: mkq stops managing the object and hands back what it set (values
// it changed restored, its labels and its managedFields entry removed),
// leaving the object on the cluster.
enum class Action { NoOp, Create, Update, Delete, Replace, Release };

const char* action_name(Action action);  // "no-op", "create", "update", "delete", "replace", "release"

// A user's annotation that keeps an object from ever being deleted by mkq
// (prune, destroy, replace): value "true".
inline constexpr const char* kPreventDestroyAnnotation = "mkq.dev/prevent-destroy";
// The field manager of a release's request: the values it restores are
// recorded under this name, never under mkq's own.
inline constexpr const char* kReleaseFieldManager = "mkq-release";

// One field that changes. Paths are dotted from the document's root, list items
// by index or, for lists of named items, by name ("spec.resourceGroups[0].flavors[default].resources[cpu].nominalQuota").
struct FieldDiff {
  std::string path;
  std::optional<Json> before;  // absent: the field is added
  std::optional<Json> after;   // absent: the field is removed
  bool sensitive = false;      // a Secret's data: rendered "(sensitive value)"
  // A field the policy leaves unset, holding a value other than Kueue's
  // default (kueue::schema::kDefaults): `after` is that default, which apply
  // sets explicitly (Change::desired holds it).
  bool restores_default = false;
};

// A rollout restart that follows a change: the Deployment (apps/v1, on the
// change's cluster) reads the changed object only when it starts, so after the
// change succeeded apply restarts it the way `kubectl rollout restart` does and
// waits until it is available again (rollout.h). Set on changes of Kueue's
// configuration (kueue_config.h): the Deployment is Kueue's controller manager.
struct Restart {
  std::string namespace_name, name;
  // False: the policy turned restarts off (`kueue { restart = false }`); the
  // plan says the Deployment reads the change only when it next starts, and
  // apply leaves it alone.
  bool enabled = true;
  base::ObjectRef deployment(const std::string& cluster) const;  // apps/v1 Deployment NAMESPACE/NAME on `cluster`
};

// The step of a phased apply a change belongs to (Plan::handover; docs/apply.md,
// "Replacing a worker"), in the order apply runs them. Between Join and Switch
// apply waits until every joining MultiKueueCluster is Active; between Switch
// and Remove it drains the leaving workers.
enum class Step {
  Unphased,  // the plan is not phased: apply's usual order
  Join,      // every create/update/release but the manager's MultiKueueConfigs and later kinds
  Switch,    // the manager's MultiKueueConfigs and later kinds (AdmissionChecks, queues)
  Remove,    // every deletion
};

const char* step_name(Step step);  // "", "join", "switch", "remove"
std::optional<Step> step_from_name(const std::string& name);

struct Change {
  base::ObjectRef ref;  // the object (ref.address() keys it in the plan, the state and what refresh read)
  Action action = Action::NoOp;
  // Why, for display only (reason.h): reason_text() gives the words a user
  // reads in the plan ("not on the cluster", "spec.clusterQueue is immutable").
  Reason reason = Reason::None;
  ReasonArgs reason_args;
  std::vector<FieldDiff> fields;  // update/replace: the differing fields; create: none
  // The document to apply (create/update/replace); null for delete and no-op.
  // For a credential change it is the placeholder: apply asks the provider.
  // It is the policy's document, plus the defaults of restores_default fields.
  // For a release, the JSON merge patch that hands the object back (with the
  // live resourceVersion as its precondition).
  Json desired;
  // The inventory digest apply records: of the policy's own document, set
  // when `desired` holds more (restored defaults); empty: of `desired` as
  // applied (or as issued, for a credential). The next plan compares it.
  std::string inventory_digest;
  // Everything that differs is drift on an object mkq applied and the policy
  // did not change since (a field mkq sent, or a default it leaves, changed
  // outside mkq): apply takes the fields back (server-side apply with force);
  // the plan showed the repair. A Create is drift too when the object mkq
  // applied was deleted outside mkq and the policy still asks for it as applied.
  bool repairs_drift = false;
  bool sensitive = false;   // a Secret: every value masked in every rendering
  bool credential = false;  // issued by the CredentialProvider at apply time
  std::string credential_error;  // the provider cannot issue it: apply fails this change
  // Known at plan time: apply fails this change with it and sends nothing
  // (Kueue's configuration on the cluster cannot be read, say).
  std::string error;
  std::optional<Restart> restart;  // carried out after this change succeeded
  // Apply takes the fields over from other managers (server-side apply with
  // force): Kueue's configuration, one string field that mkq writes merged,
  // keeping what every other manager wrote in it.
  bool take_ownership = false;
  // What refresh saw, for saved-plan staleness and delete preconditions ("" when absent).
  std::string live_uid, live_resource_version;
  std::vector<std::string> depends_on;  // addresses on the same cluster (kueue::Object::depends_on)

  // The live object's mkq.dev/policy label names this other policy: apply
  // refuses the whole plan unless it was made with take_over.
  std::string owner_conflict;
  bool take_over = false;  // the plan takes the conflicting object over (relabels it, forcing conflicts)
  // The object existed before mkq first applied it (or belonged to another
  // policy): apply records it as adopted, with `prior`.
  bool adopted = false;
  // What the object held before mkq touched it, at each path mkq sets: a JSON
  // array of {"path": [KEY, ...], "value": V} (held V), {"path": [...]} (was
  // absent) and, for a Secret, {"path": [...], "present": true} (held a value
  // mkq never reads). Kept across applies; used by a release.
  std::string prior;
  // Why this change must not be carried out at all (a replace of an object
  // marked prevent-destroy): apply refuses the whole plan.
  std::string refusal;
  // Non-empty: a Delete of an anchor Secret on this worker, which revokes a
  // token of mkq's that no Secret holds -- what an interrupted credential
  // rotation left valid (credential_txn.h). Not in the inventory: apply
  // deletes it without a record and then finishes the worker's transaction.
  std::string revokes_token_of;
  // --replace named this object (PlanOptions::replace): a Replace although
  // nothing immutable changed -- deleted and created again from the policy's
  // document. Never set on an object mkq did not create (a refusal instead).
  bool replace_requested = false;
  Step step = Step::Unphased;  // set on every change of a phased plan (Plan::handover)
};

struct ClusterPlan {
  std::string cluster;
  kueue::ClusterRole role = kueue::ClusterRole::Worker;
  bool reachable = true;
  std::string error;            // why the cluster could not be read: its changes are unknown
  std::vector<Change> changes;  // apply order (deletions last, in reverse apply order); no-ops included
  // --no-prune: objects mkq applied that the policy no longer declares, left
  // as they are. Not changes, but the plan says so: the cluster does not match
  // the policy while they remain.
  std::vector<base::ObjectRef> kept;
};

struct PlanSummary {
  int add = 0, change = 0, destroy = 0;  // a replace counts in add and destroy, as Terraform counts it
  int replace = 0, unchanged = 0, unreachable_clusters = 0;
  int release = 0;
  int conflicts = 0;  // owner conflicts not taken over, and refusals: apply refuses the plan
};

enum class PlanKind { Apply, Destroy };

// A worker left out of the run with --exclude-cluster (exclude.h): neither read
// nor changed, and neither are the manager's objects that concern it.
struct ExcludedCluster {
  std::string cluster;
  int objects = 0;  // inventory objects left as they are: its own and the manager's for it
};

// A preflight finding (runtime/preflight): something a cluster lacks that the
// policy needs -- Kueue, the API version mkq writes, an integration's CRD, a
// feature gate -- found read-only while the plan is made. An error stops apply
// before it changes anything; a warning is shown and does not. Findings are
// data like the changes: no decision reads `missing` or `fix`, which are for
// display (the severity decides).
enum class Severity { Error, Warning };

enum class FindingCode {
  KueueNotInstalled,        // the cluster does not serve kueue.x-k8s.io (or some Kueue kind mkq writes) at all
  KueueVersion,             // it serves a Kueue kind mkq writes, but not in the version mkq writes
  ConversionWebhook,        // a Kueue CRD converts through a webhook Service that does not exist (kueue#18411)
  IntegrationCrd,           // an enabled integration's CRD is not served (kueue#3582, #12400)
  WorkerIntegration,        // a worker's Kueue does not enable an integration the manager dispatches to it
  FeatureGate,              // a feature gate the policy needs is off in Kueue's configuration
  ClusterProfile,           // ClusterProfile mode: the CRD, a ClusterProfile or its access provider is missing
  OpenShiftOperator,        // OpenShift: the Kueue operator's kueue.openshift.io API is not served
  PersonaRole,              // OpenShift: a ClusterRole the policy's access bindings name does not exist
};

const char* severity_name(Severity severity);  // "error", "warning"
const char* finding_code_name(FindingCode code);  // "kueue-not-installed", "integration-crd", ...

struct Finding {
  Severity severity = Severity::Error;
  FindingCode code = FindingCode::KueueNotInstalled;
  std::string cluster;  // the policy's manager or worker name
  std::string missing;  // what is missing and why it matters, one line
  std::string fix;      // how to fix it; a command to paste where one exists
};

// A finding as every JSON form writes it ({"severity", "code", "cluster",
// "missing", "fix"}), and the one reader of it (plan_from_json and the saved
// plan). The reader throws nlohmann::json's errors, and std::invalid_argument
// for an unknown severity or code.
Json finding_json(const Finding& finding);
Finding finding_from_json(const Json& json);

// One worker of a dispatch ordered by free capacity (capacity.h): how much of
// the resource it has free, or why that could not be read.
struct WorkerFree {
  std::string worker;
  std::string free;   // a quantity in Kubernetes' canonical form ("8", "1500m"); "" when not read
  int nodes = 0;      // the nodes counted: Ready and schedulable
  std::optional<base::Error> error;  // why the worker could not be read (nullopt when read)
};

// A dispatch whose MultiKueueConfig lists its workers most free first
// (`select { order = "most-free", resource = ... }`), as read at plan time.
struct DispatchOrder {
  std::string dispatch;
  std::string config;    // the MultiKueueConfig's name
  std::string resource;  // "nvidia.com/gpu"
  std::vector<WorkerFree> workers;  // as the MultiKueueConfig lists them: most free first, ties by name
  // Every worker was read. Else the order is unknown: apply fails the
  // MultiKueueConfig's change and sends nothing (never a silent fallback).
  bool known() const;
};

struct PlanOptions {
  PlanKind kind = PlanKind::Apply;  // Destroy: every inventory object is deleted, desired ignored
  bool prune = true;                // false (--no-prune): inventory objects not desired are left alone
  bool take_over = false;           // --take-over: objects of another policy become this one's
  bool delete_adopted = false;      // --delete-adopted: adopted objects are deleted, not released
  // --replace: addresses of live objects the policy declares that are
  // deleted and created again (Change::replace_requested), whatever differs.
  // One mkq did not create is refused (Change::refusal); a worker credential
  // and Kueue's configuration are left as planned (the operation refuses
  // their addresses: `mkq credentials rotate` issues credentials, and Kueue's
  // configuration is merged into the cluster's, never mkq's alone).
  std::set<std::string> replace;
};

// What a plan leaves out on purpose besides --exclude-cluster (docs/apply.md,
// "Scoping"): typed, so that apply, a saved plan and every rendering read the
// same facts, and the plan can say what it did not plan.
struct Scope {
  // --cluster: only these clusters are read and planned (sorted); empty:
  // every cluster. A worker named brings the manager's objects for it (its
  // MultiKueueCluster and the Secret that one reads), as Terraform's -target
  // brings what a target depends on.
  std::vector<std::string> clusters;
  std::vector<ExcludedCluster> not_planned;  // the clusters --cluster leaves out, by name; not in Plan::clusters
  // --cluster without the manager: the manager's inventory objects left as
  // they are (all but those for the workers named); the manager's
  // ClusterPlan holds only the objects for the workers named.
  int manager_objects_left = 0;
  // --drift-only: only repairs of drift (Change::repairs_drift) are planned;
  // every other change is a no-op with Reason::NotDrift, counted here.
  bool drift_only = false;
  int not_drift = 0;
};

// The scope as every JSON form writes it ({"clusters", "not_planned",
// "manager_objects_left", "drift_only", "not_drift"}) and the one reader of
// it (the plan's JSON and the saved plan); a missing key reads as no scope.
// Throws nlohmann::json's errors.
Json scope_json(const Scope& scope);
Scope scope_from_json(const Json& json);

// Workers leaving the fleet, and workers joining it in the same apply (a
// worker replaced by another): what makes a plan phased. Names are
// MultiKueueCluster names, which are the workers' names, and what a
// Workload's status.clusterName holds. Made by make_plan from the
// MultiKueueConfigs as the manager holds them and as the policy wants them,
// so a plan made again after an interrupted apply picks up where it stopped:
// a config that already names the new worker has nothing left to join.
struct Handover {
  // MultiKueueClusters a MultiKueueConfig starts to name: apply waits until
  // each is Active before it writes the configs (Step::Switch).
  std::vector<std::string> joining;
  // Workers a MultiKueueConfig stops naming, whose MultiKueueCluster goes, or
  // whose objects only the state still names: after Step::Switch apply waits
  // until no Workload on the manager runs on them (the drain), and only then
  // deletes (Step::Remove).
  std::vector<std::string> leaving;
  bool operator==(const Handover& other) const { return joining == other.joining && leaving == other.leaving; }
};

struct Plan {
  PlanKind kind = PlanKind::Apply;
  std::string policy;         // the policy's identity (apply records it in a state that has none)
  std::string policy_path;
  std::string policy_digest;  // of the desired state
  std::string lineage;        // of the state file
  std::int64_t state_serial = 0;
  std::vector<ClusterPlan> clusters;  // manager first, then workers by name
  std::vector<ExcludedCluster> excluded;  // by name; not in `clusters`
  Scope scope;                            // --cluster, --drift-only (--replace: options.replace)
  std::vector<DispatchOrder> dispatch_orders;  // one per dispatch ordered by free capacity, by name
  PlanOptions options;  // what it was made with (a saved plan is checked by making it again)
  Handover handover;    // empty leaving: not phased (every Change::step Unphased)

  // A worker leaves the fleet: apply runs the steps of Change::step in order,
  // with the waits between them.
  bool phased() const { return !handover.leaving.empty(); }

  // What preflight found (runtime/preflight), errors first; empty for a
  // destroy, which needs nothing of Kueue.
  std::vector<Finding> preflight;

  PlanSummary summary() const;
  bool has_changes() const;  // any change other than no-op
  bool complete() const;     // every cluster was read
  // True when carrying out the plan leaves mkq managing nothing: it removes
  // (deletes or releases) at least one object and creates, changes and keeps
  // none -- no-ops only for objects already gone. apply refuses such a plan
  // unless asked (--allow-empty): an emptied policy is more often a mistake.
  bool removes_everything() const;
  // Why apply must refuse this plan before changing anything, one line per
  // change: "w1/ResourceFlavor/gpu: owned by policy tas". Empty: it may go.
  std::vector<std::string> refusals() const;
  // Some preflight finding is an error: apply refuses the plan before any change.
  bool preflight_failed() const;
};


// The entry function of the diff. Ownership is judged against
// desired.policy (none when it is empty). `credentials` may be null (placeholder
// Secrets are then planned as credential changes with credential_error set).
// What the server or other managers set (status, defaults, finalizers,
// managedFields, other managers' fields) never shows as a change; fields mkq
// owned (metadata.managedFields, manager "mkq") and no longer sends show as
// removed. A changed immutable field (kueue::schema::kImmutableFields) makes a
// replace. A live object differing from a desired one that the inventory says
// mkq applied unchanged (same digest) is an update with reason Drift.
// A field the policy leaves unset whose live value is not Kueue's default
// (kueue::schema::kDefaults, where the field's parent is live) differs too:
// the change restores the default (FieldDiff::restores_default).
// Kueue's configuration (kueue::Object::kueue_configuration) is merged into
// the cluster's and planned field by field, with the restart that follows a
// change (kueue_config.h).
// How make_plan does its work; nothing of it changes the plan.
struct PlanWork {
  // Clusters planned at once (each cluster's live objects are decoded by the
  // thread that plans it, one at a time).
  int parallelism = 1;
  // False: Plan::policy_digest is left empty, for a caller that sets a digest
  // of its own (runtime/operation).
  bool policy_digest = true;
};

Plan make_plan(const kueue::DesiredState& desired, const std::vector<state::InventoryEntry>& inventory,
               const std::string& lineage, const LiveState& live, CredentialProvider* credentials,
               const PlanOptions& options, const PlanWork& work = {});

// Why apply must not carry `change` out ("owned by policy tas", or its
// refusal); "" when it may.
std::string refusal_of(const Change& change);

// The identity the live objects of a state's inventory carry (their most
// common mkq.dev/policy label; "" when none carries one): the identity of a
// state written before identities were recorded.
std::string identity_in_use(const std::vector<state::InventoryEntry>& inventory, const LiveState& live);

// The inventory digest of a document mkq applies (state::digest_of of its canonical JSON).
std::string document_digest(const Json& document, const std::string& lineage);

namespace detail {
// The canonical JSON digests are taken of: compact, object keys sorted bytewise.
std::string canonical(const Json& document);
}  // namespace detail

// Terraform-like text: per cluster a header, `+ ~ - -/+` lines with field diffs,
// then "Plan: N to add, N to change, N to destroy." (or "No changes. ..."). Secrets masked.
std::string render_text(const Plan& plan, bool color);
// A pull-request comment: a summary line, then a table and a details block per cluster.
std::string render_markdown(const Plan& plan);
// {"format_version":1, "summary":{...}, "clusters":[...]}: `--format json`. A saved
// plan (--out) has a format of its own (runtime/operation/saved_plan.h).
Json render_json(const Plan& plan);
// The plan `--format json` rendered, or an Error (reason "ConfigError") saying why not.
base::Result<Plan> plan_from_json(const Json& json);
// A change's document as every rendering and the saved plan hold it: a
// Secret's values (not a credential's placeholder) replaced by a marker.
Json masked_document(const Change& change);

// One field of a change as the plan's JSON writes it ({"path", "before",
// "after", "sensitive", "restores_default"}): the one reader, for the JSON
// rendering and the saved-plan format alike. Throws nlohmann::json's errors.
FieldDiff field_diff_from_json(const Json& f);

// Why a saved plan can no longer be applied: the state serial moved, or a live
// object's resourceVersion/uid differs from what the plan saw (or it appeared or
// vanished). Each reason names the address: "manager/ClusterQueue/cq: changed on
// the cluster since the plan (resourceVersion 12 -> 15)". Empty: still current.
// Whether a saved plan is exactly what mkq would plan now: `fresh` is the plan
// made again from the policy, the state and the clusters with the saved plan's
// options. The first change that differs (an object added, dropped, or with
// another action, document or ownership; the display text -- reason, field
// lines -- is not compared) as "ADDRESS: what differs"; empty when they agree.
// apply refuses a saved plan that differs: it applies only what was checked.
std::string first_difference(const Plan& saved, const Plan& fresh);

std::vector<std::string> stale_reasons(const Plan& saved, std::int64_t current_serial, const std::string& lineage,
                                       const LiveState& live);

}  // namespace mkq::reconcile
