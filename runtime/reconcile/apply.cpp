// The apply executor (apply.h): carries out a Plan cluster by cluster, tier by
// tier, with a bounded number of requests in flight, and records every outcome.
//
// Phases (each waits for the one before):
//   1. every worker's creates/updates/replaces, and the manager's below tier
//      MultiKueueCluster (namespaces, secrets, RBAC, flavors, cohorts, ...);
//   2. the manager's MultiKueueClusters and later kinds, and the credential
//      Secrets (issued now, when the workers' ServiceAccounts exist) -- whether
//      or not every worker succeeded: a failed worker's objects are reported as
//      failed on their own, and its MultiKueueCluster reports it inactive;
//   3. the manager's deletions, in reverse tier order (the manager stops
//      dispatching to what goes away first);
//   4. the workers' deletions, in reverse tier order;
//   5. the restarts that follow changes (Kueue's controller manager after its
//      configuration changed; rollout.h), one cluster after another.
// Within a cluster and phase, tiers run one after another; the objects of one
// tier run concurrently, except that an object waits for the objects of its
// own tier it depends on. Every client call holds one of `parallelism` slots.
//
// An interrupt (ApplyOptions::cancel) is checked before each change: from then
// on every change not yet started is finished as NotStarted without a
// request, the phases run through to the end (quickly), and the state writer
// is flushed as after any run.
//
// Invariants: the state is only touched through `writer_` (which groups the
// records into few commits); report_ and failed_ only under `record_mutex_`;
// the progress callback only under `progress_mutex_`; no message holds
// document content (a Secret's values never leave the document).
#include <algorithm>
#include <atomic>
#include <ctime>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "base/encoding.h"
#include "base/time.h"
#include "compiler/kueue/schema.h"
#include "runtime/reconcile/apply.h"
#include "runtime/kube/pacing.h"
#include "runtime/reconcile/apply_internal.h"
#include "runtime/reconcile/concurrency.h"
#include "runtime/reconcile/credential_txn.h"
#include "runtime/reconcile/rollout.h"
#include "runtime/reconcile/state_writer.h"

namespace mkq::reconcile {
namespace {

using Clock = std::chrono::steady_clock;
namespace schema = kueue::schema;

constexpr int kUnknownTier = 1000;  // kinds mkq does not render: after every known kind

int tier_of(const std::string& kind) {
  const schema::KindInfo* info = schema::find_kind(kind);
  return info == nullptr ? kUnknownTier : info->apply_tier;
}

int multikueue_cluster_tier() { return schema::info(schema::Kind::MultiKueueCluster).apply_tier; }

std::string format_duration(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms % 1000 == 0) return fmt::format("{}s", ms / 1000);
  return fmt::format("{}ms", ms);
}

// A failure of `change` in mkq's own words (no server answered: status 0, no reason).
base::Error failure(const Change& change, std::string message) {
  return base::Error(0, "", std::move(message), nullptr, change.ref.address());
}

// `cause` about `change`, in words of their own: `form`'s {} is the cause's
// words. The server's status, reason and details stay.
base::Error reworded(const Change& change, base::Error cause, fmt::format_string<std::string> form) {
  cause.message = fmt::format(form, base::describe(cause));
  return std::move(cause).about(change.ref.address());
}

// A change not attempted because its cluster stopped answering (`why`, as the first failure said).
base::Error unreachable(const Change& change, const std::string& why) {
  return base::Error(0, "ConnectionFailed", fmt::format("not attempted: the cluster is unreachable ({})", why), nullptr,
                     change.ref.address());
}

base::Error internal_error(const std::exception& exception) {
  return base::Error(0, "", fmt::format("internal error: {}", exception.what()));
}

// A failure of the whole run (no change of its own): the state could not be
// written, or something went wrong outside every change.
ObjectResult run_failure(base::Error error) {
  ObjectResult result;
  result.outcome = Outcome::Failed;
  result.error = std::move(error);
  return result;
}

// A Secret's stringData, moved into data (base64): what the API server would
// do, but server-side apply would then record mkq as owner of stringData,
// which the server never stores -- every later plan would see it removed.
void move_string_data(Json& document) {
  if (!document.is_object() || document.value("kind", "") != "Secret") return;
  if (!document.contains("stringData")) return;
  // A copy: inserting "data" into the ordered object would invalidate a reference.
  const Json string_data = document["stringData"];
  document.erase("stringData");
  if (!string_data.is_object()) return;
  Json& data = document["data"];
  if (!data.is_object()) data = Json::object();
  for (const auto& [key, value] : string_data.items()) {
    data[key] = base::base64_encode(value.is_string() ? value.get<std::string>() : value.dump());
  }
}

std::string metadata_string(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto metadata = object.find("metadata");
  if (metadata == object.end() || !metadata->is_object()) return "";
  const auto found = metadata->find(key);
  if (found == metadata->end() || !found->is_string()) return "";
  return found->get<std::string>();
}

// The finalizers still holding an object ("[a, b]"), metadata's or, for a
// Namespace, spec's.
std::string finalizers_of(const Json& object) {
  std::vector<std::string> names;
  auto collect = [&names](const Json& parent) {
    if (!parent.is_object()) return;
    const auto found = parent.find("finalizers");
    if (found == parent.end() || !found->is_array()) return;
    for (const Json& name : *found) {
      if (name.is_string()) names.push_back(name.get<std::string>());
    }
  };
  if (object.is_object()) {
    if (object.contains("metadata")) collect(object["metadata"]);
    if (names.empty() && object.contains("spec")) collect(object["spec"]);
  }
  if (names.empty()) return "";
  std::string text = "[";
  for (std::size_t index = 0; index < names.size(); ++index) {
    if (index > 0) text += ", ";
    text += names[index];
  }
  return text + "]";
}

// True when a DELETE's answer says the object is already gone: a Status, or
// the object without a deletionTimestamp (nothing holds it).
bool gone_in_answer(const Json& answer) {
  if (!answer.is_object()) return true;
  if (answer.value("kind", "") == "Status") return true;
  return metadata_string(answer, "deletionTimestamp").empty();
}

bool is_transport_down(const kube::Error& error) {
  return error.transport() && (error.reason == "ConnectionFailed" || error.reason == "TLSError");
}

// The history's word for an outcome (state::ObjectOutcome::result).
const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::Done:
      return "ok";
    case Outcome::Failed:
      return "failed";
    case Outcome::Skipped:
    case Outcome::NotStarted:
      return "skipped";
  }
  return "failed";
}

constexpr const char* kNotStarted = "not started: interrupted";

// The connection of a cluster of the plan (never null), or an Error (reason
// "ConnectionFailed") when the cluster could not be read for the plan or no
// connection could be made.
kube::Result<kube::Client*> client_for(const ClusterPlan& cluster, const std::vector<Target>& targets) {
  const auto target = std::find_if(targets.begin(), targets.end(),
                                   [&](const Target& candidate) { return candidate.cluster == cluster.cluster; });
  kube::Client* client = target == targets.end() ? nullptr : target->client;
  if (cluster.reachable && client != nullptr) return client;
  std::string why = !cluster.reachable ? cluster.error : "";
  if (why.empty() && target != targets.end()) why = target->connect_error;
  if (why.empty()) why = "no connection to cluster " + cluster.cluster;
  return kube::Error(0, "ConnectionFailed", std::move(why));
}

// Every cluster of the plan with its results counted; run-level errors
// (results without a cluster) belong to none.
std::vector<ClusterOutcome> cluster_outcomes(const Plan& plan, const std::vector<Target>& targets,
                                             const std::vector<ObjectResult>& results) {
  std::vector<ClusterOutcome> outcomes;
  std::map<std::string, std::size_t> index;
  for (const ClusterPlan& cluster : plan.clusters) {
    ClusterOutcome outcome;
    outcome.cluster = cluster.cluster;
    outcome.role = cluster.role;
    const kube::Result<kube::Client*> client = client_for(cluster, targets);
    outcome.reachable = client.ok();
    if (!client) outcome.error = client.error().message;
    index[cluster.cluster] = outcomes.size();
    outcomes.push_back(std::move(outcome));
  }
  for (const ObjectResult& result : results) {
    const auto found = index.find(result.ref.cluster);
    if (found == index.end()) continue;
    ClusterOutcome& outcome = outcomes[found->second];
    switch (result.outcome) {
      case Outcome::Done: ++outcome.done; break;
      case Outcome::Failed: ++outcome.failed; break;
      case Outcome::Skipped: ++outcome.skipped; break;
      case Outcome::NotStarted: ++outcome.not_started; break;
    }
  }
  return outcomes;
}

class Executor {
 public:
  Executor(const Plan& plan, const std::vector<Target>& targets, state::StateStore& state, std::int64_t run_id,
           CredentialProvider* credentials, const ApplyOptions& options)
      : plan_(plan),
        targets_(targets),
        run_id_(run_id),
        credentials_(credentials),
        options_(options),
        parallelism_(std::max(1, options.parallelism)),
        slots_(parallelism_),
        revocations_(plan),
        journal_(writer_),
        writer_(state, options.state_commit_interval) {}

  ApplyReport run();

 private:
  // One reachable cluster of the plan.
  struct ClusterRun {
    const ClusterPlan* plan = nullptr;
    kube::Client* client = nullptr;
    std::mutex mutex;        // guards down_error
    std::string down_error;  // set after a connection failure: the rest is not attempted
    // How many of its changes run at once: what the server sustains (concurrency.h).
    std::unique_ptr<ConcurrencyLimit> limit;
    int throttled_before = 0;  // the client's 429s before the apply
  };

  using Selector = std::function<bool(const ClusterRun&, const Change&)>;

  void prepare_blockers();
  void fail_unreachable(const ClusterPlan& cluster, const base::Error& error);
  void drop_vanished(const ClusterPlan& cluster);
  void run_phase(const std::vector<ClusterRun*>& clusters, const Selector& select, bool deletions);
  void run_cluster(ClusterRun& cluster, const Selector& select, bool deletions);
  void run_concurrently(ClusterRun& cluster, const std::vector<const Change*>& wave);
  void execute(ClusterRun& cluster, const Change& change);

  // Each fails with an Error about the change's object (its address set);
  // on success the state's record is queued.
  base::Result<void> apply_change(ClusterRun& cluster, const Change& change);
  base::Result<void> delete_change(ClusterRun& cluster, const Change& change, bool record);
  base::Result<void> release_change(ClusterRun& cluster, const Change& change);
  base::Result<void> wait_gone(ClusterRun& cluster, const kube::ResourceType& type, const Change& change, Json last);
  kube::Result<kube::ResourceType> resolve(ClusterRun& cluster, const Change& change);
  void note_transport(ClusterRun& cluster, const kube::Error& error);

  // Queue the inventory change with the state writer (its failures are
  // reported for the whole run, when it writes).
  void record_applied(const Change& change, const Json& answer, const std::string& digest);
  void record_deleted(const Change& change);
  // Records the outcome -- `error` (about the change: its address is set to
  // the change's) unless Done, `note` when Done; a failure or skip blocks what
  // depends on the change (`root`: the failed change at the origin of a skip).
  void finish(const Change& change, Outcome outcome, base::Error error, const std::string& root = "",
              const char* recorded_action = nullptr, const std::string& note = "");
  void finish(const Change& change, base::Result<void> result, const char* recorded_action = nullptr,
              const std::string& note = "") {
    if (result) finish(change, Outcome::Done, {}, "", recorded_action, note);
    else finish(change, Outcome::Failed, std::move(result.error()), "", recorded_action);
  }
  // Phase 5: the restart that follows `change` (Change::restart).
  void restart_after(ClusterRun& cluster, const Change& change);
  void emit(ProgressEvent::Phase phase, const Change& change, const std::string& message);
  void emit_event(const ProgressEvent& event);

  // A phased plan's waits (apply.h). Each holds back every later change
  // (hold) when its step cannot be passed.
  void await_joining(ClusterRun* manager);
  void check_switched();
  void drain(ClusterRun* manager);
  void hold(const std::string& why, const std::string& root = "");
  bool has_step(Step step) const;  // any change to carry out in this step

  const Plan& plan_;
  const std::vector<Target>& targets_;
  const std::int64_t run_id_;
  CredentialProvider* const credentials_;
  const ApplyOptions& options_;
  const int parallelism_;
  std::string lineage_;
  detail::RequestSlots slots_;

  // Per change address: the addresses that must succeed before it runs (its
  // depends_on; for a deletion, the deletions of the objects depending on it).
  std::map<std::string, std::vector<std::string>> blockers_;

  std::mutex record_mutex_;  // guards report_, failed_, hold_
  ApplyReport report_;
  std::map<std::string, std::string> failed_;  // failed or skipped address -> the failed address at its root
  // Set when a phased plan cannot go past a step: every change not yet
  // started is skipped with this message (hold_root_: the address at its root).
  std::string hold_, hold_root_;
  std::mutex progress_mutex_;
  RevocationTracker revocations_;
  StateJournal journal_;  // credential transactions, through writer_ (used only once it is constructed)
  StateWriter writer_;    // last: written out before the rest goes
};

void Executor::emit(ProgressEvent::Phase phase, const Change& change, const std::string& message) {
  ProgressEvent event;
  event.phase = phase;
  event.ref = change.ref;
  event.action = change.action;
  event.message = message;
  emit_event(event);
}

void Executor::emit_event(const ProgressEvent& event) {
  if (!options_.progress) return;
  std::lock_guard<std::mutex> lock(progress_mutex_);
  try {
    options_.progress(event);
  } catch (...) {
    // A failing progress display never stops an apply.
  }
}

void Executor::finish(const Change& change, Outcome outcome, base::Error error, const std::string& root,
                      const char* recorded_action, const std::string& note) {
  ObjectResult result;
  result.ref = change.ref;
  result.action = change.action;
  result.outcome = outcome;
  if (outcome == Outcome::Done) {
    result.note = note;
  } else {
    result.error = std::move(error);
    result.error.address = change.ref.address();  // the row names this object, whatever the cause was about
  }
  // The history's and the progress display's words: the object is named beside them.
  const std::string message = outcome == Outcome::Done ? note : base::describe(result.error);
  {
    std::lock_guard<std::mutex> lock(record_mutex_);
    report_.results.push_back(std::move(result));
    if (outcome != Outcome::Done) ++report_.failed;
    if (outcome == Outcome::NotStarted) report_.interrupted = true;
    // A worker's credential that could not be issued (the worker is
    // unreachable, say) does not hold back the manager's objects that name
    // it: Kueue keeps that worker's MultiKueueCluster inactive and dispatches
    // to the others, which is what an unreachable worker must not stop. A
    // change not started holds back nothing: what depends on it is not
    // started either.
    if ((outcome == Outcome::Failed || outcome == Outcome::Skipped) && !change.credential) {
      failed_[change.ref.address()] = root.empty() ? change.ref.address() : root;
    }
  }
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::Outcome;
  write.run_id = run_id_;
  const char* action = recorded_action != nullptr ? recorded_action : action_name(change.action);
  write.outcome = state::ObjectOutcome{change.ref.address(), action, outcome_name(outcome), message};
  writer_.add(std::move(write));
  if (outcome == Outcome::NotStarted) return;  // the summary counts them; no line per object
  emit(outcome == Outcome::Done ? ProgressEvent::Phase::Done : ProgressEvent::Phase::Failed, change, message);
}

void Executor::record_applied(const Change& change, const Json& answer, const std::string& digest) {
  state::InventoryEntry entry;
  entry.ref = change.ref;
  entry.uid = metadata_string(answer, "uid");
  entry.resource_version = metadata_string(answer, "resourceVersion");
  entry.digest = digest;
  entry.applied_at = base::format_rfc3339(base::system_clock().now());
  entry.run_id = run_id_;
  entry.adopted = change.adopted;
  entry.prior = change.prior;
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::Applied;
  write.entry = std::move(entry);
  writer_.add(std::move(write));
}

void Executor::record_deleted(const Change& change) {
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::Deleted;
  write.address = change.ref.address();
  writer_.add(std::move(write));
}

void Executor::note_transport(ClusterRun& cluster, const kube::Error& error) {
  if (!is_transport_down(error)) return;
  std::lock_guard<std::mutex> lock(cluster.mutex);
  if (cluster.down_error.empty()) cluster.down_error = detail::describe(error);
}

kube::Result<kube::ResourceType> Executor::resolve(ClusterRun& cluster, const Change& change) {
  kube::Result<kube::ResourceType> type = kube::Error{};
  {
    detail::Slot slot(slots_);
    type = cluster.client->resource_for(change.ref.api_version, change.ref.kind);
  }
  if (type) return type;
  note_transport(cluster, type.error());
  kube::Error error = std::move(type.error()).about(change.ref.address());
  if (!error.not_found()) return error;
  error.message = change.ref.api_version + " " + change.ref.kind + " is not served by the cluster";
  if (change.ref.api_version.rfind(std::string(schema::kKueueGroup) + "/", 0) == 0) {
    error.message += " (is Kueue installed?)";
  }
  return error;
}

// The placeholder Secret of a credential change, as the provider knows it.
kueue::Object credential_object(const Change& change) {
  kueue::Object secret;
  secret.api_version = change.ref.api_version;
  secret.kind = change.ref.kind;
  secret.name = change.ref.name;
  secret.namespace_name = change.ref.namespace_name;
  secret.document = change.desired;
  secret.depends_on = change.depends_on;
  secret.holds_credential_placeholder = true;
  return secret;
}

base::Result<void> Executor::apply_change(ClusterRun& cluster, const Change& change) {
  if (!change.error.empty()) return failure(change, change.error);  // the plan knew it cannot be applied
  Json document;
  if (change.credential) {
    if (!change.credential_error.empty()) return failure(change, change.credential_error);
    if (credentials_ == nullptr) return failure(change, "no credential provider to issue it");
    kube::Result<Json> issued = kube::Error{};
    {
      detail::Slot slot(slots_);
      issued = credentials_->issue(change.ref.cluster, credential_object(change), &journal_);
    }
    if (!issued) return reworded(change, std::move(issued.error()), "cannot issue the credential: {}");
    document = std::move(issued).value();
  } else {
    document = change.desired;
  }
  if (!document.is_object()) return failure(change, "the plan holds no document to apply");
  // The inventory digest is of the policy's document as planned (or issued),
  // the one a later plan compares with.
  const std::string digest =
      change.inventory_digest.empty() ? document_digest(document, lineage_) : change.inventory_digest;
  move_string_data(document);

  const kube::Result<kube::ResourceType> type = resolve(cluster, change);
  if (!type) return type.error();
  kube::ApplyOptions apply_options;
  apply_options.field_manager = "mkq";
  // Repairing drift takes back fields mkq owned before someone changed them
  // (or Kueue's defaults the policy leaves); a worker credential Secret is
  // mkq's alone (it issues its whole content).
  const bool repairs_drift = change.repairs_drift || change.credential;
  apply_options.force = options_.force_conflicts || repairs_drift || change.take_over || change.take_ownership;
  kube::Result<Json> answer = kube::Error{};
  {
    detail::Slot slot(slots_);
    answer = cluster.client->apply(type.value(), document, apply_options);
  }
  if (change.credential) {
    base::Result<void> revoked;
    {
      detail::Slot slot(slots_);
      revoked = credentials_->settled(change.ref.cluster, credential_object(change), answer.ok(), &journal_);
    }
    if (answer && !revoked) {
      record_applied(change, answer.value(), digest);
      return failure(change, fmt::format("stored the new credential, but {}", describe(revoked.error())));
    }
  }
  if (!answer) {
    note_transport(cluster, answer.error());
    if (answer.error().conflict() && !apply_options.force) {
      return reworded(change, std::move(answer.error()),
                      "conflict: {} (run with --force-conflicts to take ownership of these fields)");
    }
    return std::move(answer.error()).about(change.ref.address());
  }
  record_applied(change, answer.value(), digest);
  return {};
}

base::Result<void> Executor::wait_gone(ClusterRun& cluster, const kube::ResourceType& type, const Change& change,
                                       Json last) {
  const Clock::time_point deadline = Clock::now() + options_.deletion_timeout;
  const std::chrono::milliseconds cap =
      std::max(std::chrono::milliseconds(1), std::min(options_.poll_interval, std::chrono::milliseconds(1000)));
  std::chrono::milliseconds interval = std::min(cap, std::chrono::milliseconds(10));
  std::optional<base::Error> read_error;
  while (true) {
    const Clock::time_point now = Clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(interval, deadline - now));
    interval = std::min(cap, interval * 2);
    kube::Result<Json> live = kube::Error{};
    {
      detail::Slot slot(slots_);
      live = cluster.client->get(type, change.ref.namespace_name, change.ref.name);
    }
    if (live) {
      last = live.value();
      read_error.reset();
      // Someone created it anew (another uid): the object mkq deleted is gone.
      const std::string uid = metadata_string(last, "uid");
      if (!change.live_uid.empty() && !uid.empty() && uid != change.live_uid) return {};
      continue;
    }
    if (live.error().not_found()) return {};
    read_error = std::move(live.error());
  }
  const std::string waited = format_duration(options_.deletion_timeout);
  if (read_error) {
    read_error->message = fmt::format("cannot confirm the deletion after {}: {}", waited, base::describe(*read_error));
    return std::move(*read_error).about(change.ref.address());
  }
  const std::string finalizers = finalizers_of(last);
  if (finalizers.empty()) return failure(change, fmt::format("still present after {}", waited));
  return failure(change, fmt::format("still present after {}: finalizers {}", waited, finalizers));
}

base::Result<void> Executor::delete_change(ClusterRun& cluster, const Change& change, bool record) {
  const kube::Result<kube::ResourceType> type = resolve(cluster, change);
  if (!type) {
    // A kind the cluster no longer serves holds no objects: nothing to delete.
    if (!type.error().not_found() || change.action != Action::Delete) return type.error();
    if (record) record_deleted(change);
    return {};
  }
  kube::DeleteOptions delete_options;
  delete_options.propagation_policy = "Background";
  delete_options.precondition_uid = change.live_uid;
  kube::Result<Json> answer = kube::Error{};
  {
    detail::Slot slot(slots_);
    answer = cluster.client->remove(type.value(), change.ref.namespace_name, change.ref.name, delete_options);
  }
  if (!answer) {
    note_transport(cluster, answer.error());
    if (!answer.error().not_found()) return std::move(answer.error()).about(change.ref.address());
  } else if (!gone_in_answer(answer.value())) {
    if (base::Result<void> gone = wait_gone(cluster, type.value(), change, answer.value()); !gone) return gone;
  }
  if (record) record_deleted(change);
  return {};
}

// A release (plan.h): one JSON merge patch, made at plan time, that restores
// what mkq set, drops its labels and its managedFields entry, on condition
// that the object is still the one the plan saw (its resourceVersion). Then
// the inventory forgets the object.
base::Result<void> Executor::release_change(ClusterRun& cluster, const Change& change) {
  const kube::Result<kube::ResourceType> type = resolve(cluster, change);
  if (!type) return type.error();
  std::string path = "/" + std::string(type.value().group.empty() ? "api/" : "apis/" + type.value().group + "/") +
                     type.value().version + "/";
  if (type.value().namespaced) path += "namespaces/" + change.ref.namespace_name + "/";
  path += type.value().plural + "/" + change.ref.name + "?fieldManager=" + kReleaseFieldManager;
  kube::Result<Json> answer = kube::Error{};
  {
    detail::Slot slot(slots_);
    answer = cluster.client->request("PATCH", path, &change.desired, "application/merge-patch+json");
  }
  if (!answer) {
    note_transport(cluster, answer.error());
    if (answer.error().conflict()) {
      base::Error error = std::move(answer.error()).about(change.ref.address());
      error.message = "changed on the cluster since the plan; run `mkq plan` again";
      return error;
    }
    if (!answer.error().not_found()) return std::move(answer.error()).about(change.ref.address());
  }
  record_deleted(change);
  return {};
}

void Executor::execute(ClusterRun& cluster, const Change& change) {
  // A failed prerequisite skips this change.
  std::string blocked_by, root, held;
  {
    std::lock_guard<std::mutex> lock(record_mutex_);
    held = hold_;
    root = hold_root_;
    const auto blockers = blockers_.find(change.ref.address());
    if (blockers != blockers_.end()) {
      for (const std::string& blocker : blockers->second) {
        const auto failed = failed_.find(blocker);
        if (failed == failed_.end()) continue;
        blocked_by = blocker;
        root = failed->second;
        break;
      }
    }
  }
  if (!held.empty() && !detail::cancelled(options_.cancel)) {
    finish(change, Outcome::Skipped, failure(change, held), root);
    return;
  }
  if (!blocked_by.empty()) {
    const std::string message = change.action == Action::Delete
                                    ? fmt::format("skipped: {} depends on it and was not deleted", blocked_by)
                                    : fmt::format("skipped: depends on {}, which failed", root);
    finish(change, Outcome::Skipped, failure(change, message), root);
    return;
  }
  // A place under the cluster's limit first: what follows is checked when the change's turn comes.
  ConcurrencyTurn turn(*cluster.limit);
  // Interrupted: start nothing new (the changes in flight finish).
  if (detail::cancelled(options_.cancel)) {
    finish(change, Outcome::NotStarted, failure(change, kNotStarted));
    return;
  }
  std::string down_error;
  {
    std::lock_guard<std::mutex> lock(cluster.mutex);
    down_error = cluster.down_error;
  }
  if (!down_error.empty()) {
    finish(change, Outcome::Failed, unreachable(change, down_error));
    return;
  }
  // The command refuses such a plan before applying anything; this is the last guard.
  if (const std::string refusal = refusal_of(change); !refusal.empty()) {
    finish(change, Outcome::Failed, failure(change, fmt::format("refused: {}", refusal)));
    return;
  }
  emit(ProgressEvent::Phase::Started, change, "");
  const int throttled_before = kube::throttled_on_this_thread();
  base::Result<void> result;
  try {
    switch (change.action) {
      case Action::Create:
      case Action::Update:
        result = apply_change(cluster, change);
        break;
      case Action::Replace:
        result = delete_change(cluster, change, false);
        result = result ? apply_change(cluster, change)
                        : reworded(change, std::move(result.error()), "cannot delete for the replace: {}");
        break;
      case Action::Delete:
        // A revocation's anchor is no inventory object: nothing to record.
        result = delete_change(cluster, change, change.revokes_token_of.empty());
        if (!change.revokes_token_of.empty()) result = revocations_.ended(change, std::move(result), journal_);
        break;
      case Action::Release:
        result = release_change(cluster, change);
        break;
      case Action::NoOp:
        break;
    }
  } catch (const std::exception& exception) {
    result = failure(change, fmt::format("internal error: {}", exception.what()));
  }
  // This change's own requests (this thread's): the server turned one away.
  turn.set(kube::throttled_on_this_thread() != throttled_before ? ConcurrencyLimit::Call::Shed
                                                                : ConcurrencyLimit::Call::Taken);
  finish(change, std::move(result));
}

void Executor::restart_after(ClusterRun& cluster, const Change& change) {
  const Restart& restart = *change.restart;
  // The restart as the executor reports and records it: the Deployment, no object change.
  Change step;
  step.ref = restart.deployment(change.ref.cluster);
  bool applied = true;
  {
    std::lock_guard<std::mutex> lock(record_mutex_);
    applied = failed_.count(change.ref.address()) == 0;
  }
  if (!applied) {
    finish(step, Outcome::Skipped, failure(step, fmt::format("skipped: {} was not applied", change.ref.address())), "",
           "restart");
    return;
  }
  if (detail::cancelled(options_.cancel)) {
    finish(step, Outcome::NotStarted, failure(step, kNotStarted), "", "restart");
    return;
  }
  std::string down_error;
  {
    std::lock_guard<std::mutex> lock(cluster.mutex);
    down_error = cluster.down_error;
  }
  if (!down_error.empty()) {
    finish(step, Outcome::Failed, unreachable(step, down_error), "", "restart");
    return;
  }
  emit(ProgressEvent::Phase::Started, step, "restarting");
  RolloutOptions rollout;
  rollout.timeout = options_.wait.value_or(options_.restart_timeout);
  rollout.poll_interval = options_.poll_interval;
  rollout.progress = [this, &step](const std::string& message) { emit(ProgressEvent::Phase::Waiting, step, message); };
  base::Result<void> result;
  try {
    // Nothing else is in flight in this phase: one request at a time, in a slot of its own.
    detail::Slot slot(slots_);
    result = restart_deployment(*cluster.client, restart.namespace_name, restart.name, rollout);
  } catch (const std::exception& exception) {
    result = failure(step, fmt::format("internal error: {}", exception.what()));
  }
  if (!result) {
    result = reworded(step, std::move(result.error()),
                      "cannot restart Kueue's controller manager to read its new configuration: {}");
  }
  finish(step, std::move(result), "restart", "restarted");
}

void Executor::run_concurrently(ClusterRun& cluster, const std::vector<const Change*>& wave) {
  const std::size_t width = std::min<std::size_t>(wave.size(), static_cast<std::size_t>(parallelism_));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t index = next++; index < wave.size(); index = next++) {
      try {
        execute(cluster, *wave[index]);
      } catch (...) {
        // execute() records its own failures; only a failing record lands here,
        // and an exception must not leave a thread.
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t extra = 1; extra < width; ++extra) {
    try {
      threads.emplace_back(work);
    } catch (const std::exception&) {
      break;  // fewer threads: the ones there are take the rest
    }
  }
  work();
  for (std::thread& thread : threads) thread.join();
}

void Executor::run_cluster(ClusterRun& cluster, const Selector& select, bool deletions) {
  // The cluster's changes of this phase, by tier (reverse for deletions), plan order within a tier.
  std::map<int, std::vector<const Change*>> tiers;
  for (const Change& change : cluster.plan->changes) {
    if (change.action == Action::NoOp) continue;
    if ((change.action == Action::Delete) != deletions) continue;
    if (!select(cluster, change)) continue;
    tiers[tier_of(change.ref.kind)].push_back(&change);
  }
  std::vector<int> order;
  for (const auto& [tier, changes] : tiers) order.push_back(tier);
  if (deletions) std::reverse(order.begin(), order.end());

  for (const int tier : order) {
    // Waves within a tier: a change waits for the changes of its tier it is blocked by.
    std::vector<const Change*> remaining = tiers[tier];
    while (!remaining.empty()) {
      std::set<std::string> pending;
      for (const Change* change : remaining) pending.insert(change->ref.address());
      std::vector<const Change*> wave, later;
      for (const Change* change : remaining) {
        const auto blockers = blockers_.find(change->ref.address());
        bool waits = false;
        if (blockers != blockers_.end()) {
          for (const std::string& blocker : blockers->second) {
            if (blocker != change->ref.address() && pending.count(blocker) != 0) waits = true;
          }
        }
        (waits ? later : wave).push_back(change);
      }
      if (wave.empty()) wave.swap(later);  // a cycle: run what is left together
      run_concurrently(cluster, wave);
      remaining.swap(later);
    }
  }
}

void Executor::run_phase(const std::vector<ClusterRun*>& clusters, const Selector& select, bool deletions) {
  std::vector<std::thread> threads;
  for (ClusterRun* cluster : clusters) {
    if (clusters.size() > 1) {
      try {
        threads.emplace_back([this, cluster, &select, deletions] { run_cluster(*cluster, select, deletions); });
        continue;
      } catch (const std::exception&) {
        // no thread to be had: run this cluster here
      }
    }
    run_cluster(*cluster, select, deletions);
  }
  for (std::thread& thread : threads) thread.join();
}

void Executor::prepare_blockers() {
  for (const ClusterPlan& cluster : plan_.clusters) {
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      if (change.action != Action::Delete) {
        for (const std::string& dependency : change.depends_on) blockers_[change.ref.address()].push_back(dependency);
        continue;
      }
      // A deletion is blocked by the deletions of the objects that depend on it.
      for (const std::string& dependency : change.depends_on) {
        blockers_[dependency].push_back(change.ref.address());
      }
    }
  }
  // Forward dependencies only bind non-deletions and reverse ones only
  // deletions: drop entries that point at a change of the other sort.
  std::map<std::string, Action> actions;
  for (const ClusterPlan& cluster : plan_.clusters) {
    for (const Change& change : cluster.changes) actions[change.ref.address()] = change.action;
  }
  for (auto& [address, blockers] : blockers_) {
    const auto action = actions.find(address);
    const bool deletion = action != actions.end() && action->second == Action::Delete;
    blockers.erase(std::remove_if(blockers.begin(), blockers.end(),
                                  [&](const std::string& blocker) {
                                    const auto other = actions.find(blocker);
                                    const bool blocker_deletion =
                                        other != actions.end() && other->second == Action::Delete;
                                    return deletion != blocker_deletion && other != actions.end();
                                  }),
                   blockers.end());
  }
}

void Executor::hold(const std::string& why, const std::string& root) {
  std::lock_guard<std::mutex> lock(record_mutex_);
  if (!hold_.empty()) return;  // the first reason stands
  hold_ = why;
  hold_root_ = root;
}

bool Executor::has_step(Step step) const {
  return std::any_of(plan_.clusters.begin(), plan_.clusters.end(), [step](const ClusterPlan& cluster) {
    return std::any_of(cluster.changes.begin(), cluster.changes.end(),
                       [step](const Change& change) { return change.action != Action::NoOp && change.step == step; });
  });
}

void Executor::await_joining(ClusterRun* manager) {
  if (manager == nullptr) {
    hold("skipped: the manager cannot be reached, so the leaving workers stay as they are");
    return;
  }
  // Only what would write the MultiKueueConfigs waits (a selection may have left it out).
  if (plan_.handover.joining.empty() || !has_step(Step::Switch) || detail::cancelled(options_.cancel)) return;
  const schema::KindInfo& kind = schema::info(schema::Kind::MultiKueueCluster);
  std::vector<detail::WaitItem> items;
  for (const std::string& name : plan_.handover.joining) {
    const base::ObjectRef ref{manager->plan->cluster, std::string(kind.api_version), std::string(kind.name), "", name};
    std::string root;
    {
      std::lock_guard<std::mutex> lock(record_mutex_);
      const auto failed = failed_.find(ref.address());
      if (failed != failed_.end()) root = failed->second;
    }
    if (!root.empty()) {
      hold("skipped: " + ref.address() + " was not applied, so it cannot take over from the leaving workers", root);
      return;
    }
    items.push_back(detail::WaitItem{ref});
  }
  const std::chrono::milliseconds timeout = options_.wait.value_or(options_.activation_timeout);
  const std::map<std::string, kube::Client*> clients{{manager->plan->cluster, manager->client}};
  const detail::WaitResult waited =
      detail::wait_for_active(items, clients, timeout, options_.poll_interval, options_.cancel, slots_,
                              [this](const ProgressEvent& event) { emit_event(event); });
  if (waited.interrupted || waited.failures.empty()) return;
  hold(fmt::format("skipped: not Active within {}: {}; the MultiKueueConfigs keep the leaving workers and nothing is "
                   "deleted",
                   format_duration(timeout), base::render(waited.failures.front())),
       items.front().ref.address());
}

void Executor::check_switched() {
  for (const ClusterPlan& cluster : plan_.clusters) {
    for (const Change& change : cluster.changes) {
      if (change.step != Step::Switch || change.ref.kind != schema::info(schema::Kind::MultiKueueConfig).name) continue;
      std::string root;
      {
        std::lock_guard<std::mutex> lock(record_mutex_);
        const auto failed = failed_.find(change.ref.address());
        if (failed != failed_.end()) root = failed->second;
      }
      if (root.empty()) continue;
      hold("skipped: " + change.ref.address() + " was not written and may still name the leaving workers", root);
      return;
    }
  }
}

void Executor::drain(ClusterRun* manager) {
  {
    std::lock_guard<std::mutex> lock(record_mutex_);
    if (!hold_.empty()) return;
  }
  if (manager == nullptr || !has_step(Step::Remove) || detail::cancelled(options_.cancel)) return;
  const detail::DrainWait waited =
      detail::wait_drained(*manager->client, manager->plan->cluster, plan_.handover.leaving, options_.drain_timeout,
                           options_.poll_interval, options_.cancel, slots_,
                           [this](const ProgressEvent& event) { emit_event(event); });
  if (waited.interrupted) return;  // every deletion is not started
  if (waited.error) {
    hold("skipped: cannot tell whether Workloads still run on the leaving workers: " + describe(*waited.error));
    return;
  }
  // The wait timed out with work still running: the old worker's objects stay
  // (deleting them would pull the rug from under that work, and a run that did
  // not do all it planned must not say it did). Only --drain-timeout 0, the
  // user's explicit "do not wait", deletes at once.
  if (options_.drain_timeout > std::chrono::milliseconds::zero()) {
    std::string still;
    for (const std::string& worker : plan_.handover.leaving) {
      const auto running = waited.running.find(worker);
      if (running == waited.running.end() || running->second.empty()) continue;
      const std::size_t count = running->second.size();
      fmt::format_to(std::back_inserter(still), "{}{} {} {}: {}", still.empty() ? "" : "; ", count,
                     count == 1 ? "Workload still runs on" : "Workloads still run on", worker,
                     detail::first_workloads(running->second));
    }
    if (!still.empty()) {
      const long long seconds = (waited.waited.count() + 500) / 1000;
      hold(fmt::format("skipped: after {}s (--drain-timeout) {}; its objects are kept: apply again once it has drained, "
                       "or with --drain-timeout 0 to delete them now",
                       seconds, still));
      return;
    }
  }
  std::lock_guard<std::mutex> lock(record_mutex_);
  for (const std::string& worker : plan_.handover.leaving) {
    const auto running = waited.running.find(worker);
    report_.drains.push_back(
        Drain{worker, running == waited.running.end() ? std::vector<std::string>{} : running->second, waited.waited});
  }
}

void Executor::fail_unreachable(const ClusterPlan& cluster, const base::Error& error) {
  for (const Change& change : cluster.changes) {
    if (change.action == Action::NoOp) continue;
    finish(change, Outcome::Failed, error);
  }
}

void Executor::drop_vanished(const ClusterPlan& cluster) {
  // A no-op for an object nothing holds (live_uid empty) is an inventory entry
  // whose object is already gone: forget it, no request.
  for (const Change& change : cluster.changes) {
    if (change.action != Action::NoOp || !change.live_uid.empty()) continue;
    // Unreadable: nothing recorded; the next plan finds the entry again.
    const base::Result<std::optional<state::InventoryEntry>> recorded = writer_.find(change.ref.address());
    if (!recorded || !*recorded) continue;
    record_deleted(change);
  }
}

ApplyReport Executor::run() {
  lineage_ = writer_.lineage();
  prepare_blockers();

  std::vector<std::unique_ptr<ClusterRun>> runs;
  for (const ClusterPlan& cluster : plan_.clusters) {
    const kube::Result<kube::Client*> client = client_for(cluster, targets_);
    if (!client) {
      fail_unreachable(cluster, client.error());
      continue;
    }
    drop_vanished(cluster);
    auto run = std::make_unique<ClusterRun>();
    run->plan = &cluster;
    run->client = client.value();
    run->limit = std::make_unique<ConcurrencyLimit>(parallelism_);
    run->throttled_before = run->client->stats().throttled;
    runs.push_back(std::move(run));
  }

  std::vector<ClusterRun*> all, managers, workers;
  for (const auto& run : runs) {
    all.push_back(run.get());
    (run->plan->role == kueue::ClusterRole::Manager ? managers : workers).push_back(run.get());
  }
  const int late_tier = multikueue_cluster_tier();
  auto is_late = [late_tier](const ClusterRun& cluster, const Change& change) {
    return cluster.plan->role == kueue::ClusterRole::Manager && (change.credential || tier_of(change.ref.kind) >= late_tier);
  };
  run_phase(all, [&](const ClusterRun& cluster, const Change& change) { return !is_late(cluster, change); }, false);
  if (plan_.phased()) {
    ClusterRun* manager = managers.empty() ? nullptr : managers.front();
    run_phase(managers, [&](const ClusterRun& cluster, const Change& change) {
      return is_late(cluster, change) && change.step != Step::Switch;
    }, false);
    await_joining(manager);
    run_phase(managers, [](const ClusterRun&, const Change& change) { return change.step == Step::Switch; }, false);
    check_switched();
    drain(manager);
  } else {
    run_phase(managers, is_late, false);
  }
  run_phase(managers, [](const ClusterRun&, const Change&) { return true; }, true);
  run_phase(workers, [](const ClusterRun&, const Change&) { return true; }, true);
  for (const auto& run : runs) {
    for (const Change& change : run->plan->changes) {
      if (change.action != Action::NoOp && change.restart && change.restart->enabled) restart_after(*run, change);
    }
  }
  // Every record written before any wait (and before the caller ends the run).
  if (base::Result<void> flushed = writer_.flush(); !flushed) {
    std::lock_guard<std::mutex> lock(record_mutex_);
    ++report_.failed;
    report_.results.push_back(run_failure(std::move(flushed.error())));
  }
  report_.clusters = cluster_outcomes(plan_, targets_, report_.results);
  for (ClusterOutcome& outcome : report_.clusters) {
    for (const auto& run : runs) {
      if (run->plan->cluster != outcome.cluster) continue;
      outcome.concurrency = run->limit->report();
      outcome.throttled = run->client->stats().throttled - run->throttled_before;
    }
  }

  // After an interrupt nothing is waited for: the run ends as soon as it can.
  if (options_.wait && !report_.interrupted) {
    std::map<std::string, kube::Client*> clients;
    for (const auto& run : runs) clients[run->plan->cluster] = run->client;
    std::set<std::string> not_done;
    for (const ObjectResult& result : report_.results) {
      if (!result.ok()) not_done.insert(result.ref.address());
    }
    auto progress = [this](const ProgressEvent& event) { emit_event(event); };
    const std::vector<detail::WaitItem> items = detail::wait_items(plan_, clients, not_done);
    detail::WaitResult waited = detail::wait_for_active(items, clients, *options_.wait, options_.poll_interval,
                                                        options_.cancel, slots_, progress);
    report_.waited = static_cast<int>(items.size());
    report_.wait_failures = std::move(waited.failures);
    report_.interrupted = report_.interrupted || waited.interrupted;
  }
  return std::move(report_);
}

}  // namespace

ApplyReport apply_plan(const Plan& plan, const std::vector<Target>& targets, state::StateStore& state,
                       std::int64_t run_id, CredentialProvider* credentials, const ApplyOptions& options) {
  try {
    // The policy's identity is fixed in its state by its first apply.
    if (state.policy().empty() && !plan.policy.empty()) {
      if (const base::Result<void> recorded = state.set_policy(plan.policy); !recorded) {
        ApplyReport report;
        report.failed = 1;
        report.results.push_back(run_failure(recorded.error()));
        return report;
      }
    }
    Executor executor(plan, targets, state, run_id, credentials, options);
    return executor.run();
  } catch (const std::exception& error) {
    ApplyReport report;
    report.failed = 1;
    report.results.push_back(run_failure(internal_error(error)));
    return report;
  }
}

ApplyReport verify_plan(const Plan& plan, const std::vector<Target>& targets, const ApplyOptions& options) {
  ApplyReport report;
  report.clusters = cluster_outcomes(plan, targets, {});
  if (!options.wait) return report;
  std::map<std::string, kube::Client*> clients;
  for (const ClusterPlan& cluster : plan.clusters) {
    if (const kube::Result<kube::Client*> client = client_for(cluster, targets)) clients[cluster.cluster] = *client;
  }
  detail::RequestSlots slots(std::max(1, options.parallelism));
  const std::function<void(const ProgressEvent&)> progress = [&options](const ProgressEvent& event) {
    if (!options.progress) return;
    try {
      options.progress(event);
    } catch (...) {
      // A failing progress display never stops a wait.
    }
  };
  try {
    const std::vector<detail::WaitItem> items = detail::wait_items(plan, clients, {});
    detail::WaitResult waited =
        detail::wait_for_active(items, clients, *options.wait, options.poll_interval, options.cancel, slots, progress);
    report.waited = static_cast<int>(items.size());
    report.wait_failures = std::move(waited.failures);
    report.interrupted = waited.interrupted;
  } catch (const std::exception& error) {
    ++report.failed;
    report.results.push_back(run_failure(internal_error(error)));
  }
  return report;
}

const char* run_result_name(RunResult result) {
  switch (result) {
    case RunResult::Success: return "success";
    case RunResult::Partial: return "partial";
    case RunResult::Failed: return "failed";
    case RunResult::Interrupted: return "interrupted";
  }
  return "failed";
}

int ApplyReport::done() const {
  return static_cast<int>(
      std::count_if(results.begin(), results.end(), [](const ObjectResult& result) { return result.ok(); }));
}

int ApplyReport::unreachable() const {
  return static_cast<int>(std::count_if(clusters.begin(), clusters.end(),
                                       [](const ClusterOutcome& cluster) { return !cluster.reachable; }));
}

RunResult ApplyReport::result() const {
  if (interrupted) return RunResult::Interrupted;
  if (success()) return RunResult::Success;
  return done() > 0 ? RunResult::Partial : RunResult::Failed;
}

}  // namespace mkq::reconcile
