#include "runtime/operation/run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <set>

#include <fmt/format.h>

#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/render.h"
#include "runtime/credentials/provider.h"
#include "runtime/operation/hints.h"
#include "runtime/operation/process.h"
#include "runtime/operation/state_open.h"
#include "runtime/preflight/preflight.h"
#include "runtime/reconcile/refresh.h"
#include "runtime/state/digest_stream.h"

namespace mkq::operation {

namespace {
std::atomic<bool> process_ends{false};
}  // namespace

void process_ends_after_command() { process_ends = true; }

}  // namespace mkq::operation

namespace mkq::operation::detail {

Run::~Run() {
  if (!process_ends) return;
  // Moved into memory never freed: the process exits right after.
  struct Left {
    Compilation compiled;
    std::vector<state::InventoryEntry> inventory;
    reconcile::LiveState live;
  };
  new Left{std::move(compiled), std::move(inventory), std::move(live)};  // NOLINT: left to the exit on purpose
}

namespace {

namespace fs = std::filesystem;

// Clusters that objects of the inventory live on but the policy no longer has:
// their objects are pruned, so they need a connection too.
std::vector<std::string> clusters_only_in(const std::vector<state::InventoryEntry>& inventory,
                                          const kueue::DesiredState& desired) {
  std::set<std::string> known;
  for (const kueue::ClusterObjects& cluster : desired.clusters) known.insert(cluster.cluster);
  std::set<std::string> extra;
  for (const state::InventoryEntry& entry : inventory) {
    if (!known.count(entry.ref.cluster)) extra.insert(entry.ref.cluster);
  }
  return {extra.begin(), extra.end()};
}

// --exclude-cluster names a worker of the policy or a cluster of the state,
// never the manager. False with every problem given to `ui`.
bool exclusions_ok(const std::vector<std::string>& names, const sema::model::Policy& policy,
                   const std::vector<state::InventoryEntry>& inventory, Ui& ui) {
  std::vector<std::string> known;
  for (const sema::model::Worker& worker : policy.workers) known.push_back(worker.name);
  for (const state::InventoryEntry& entry : inventory) {
    if (entry.ref.cluster != policy.manager.name && std::find(known.begin(), known.end(), entry.ref.cluster) == known.end()) {
      known.push_back(entry.ref.cluster);
    }
  }
  bool ok = true;
  for (const std::string& name : names) {
    if (name == policy.manager.name) {
      ui.error("--exclude-cluster " + name + ": that is the manager; mkq cannot go on without it");
      ok = false;
    } else if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string message = "--exclude-cluster " + name + ": no worker of that name in the policy or the state";
      if (const auto match = diag::closest_match(name, known)) message += "; did you mean '" + *match + "'?";
      ui.error(message);
      ok = false;
    }
  }
  return ok;
}

// The requests, retries, connections and LISTs of every client of a session so far.
Timing counted(const Session& session) {
  Timing t;
  for (const auto& client : session.clients) {
    const kube::ClientStats stats = client->stats();
    t.lists += stats.lists;
    t.requests += stats.requests;
    t.retries += stats.retries;
    t.connections += stats.connections;
  }
  return t;
}

// How each cluster with a client is paced, as its answers so far decided.
std::vector<Timing::Pacing> pacing_of(const Session& session) {
  std::vector<Timing::Pacing> pacing;
  for (const reconcile::Target& target : session.targets) {
    if (target.client == nullptr) continue;
    const kube::ClientStats stats = target.client->stats();
    pacing.push_back({target.cluster, stats.regime, stats.priority_and_fairness, stats.qps, stats.burst});
  }
  return pacing;
}

double milliseconds_since(std::chrono::steady_clock::time_point started) {
  const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
  return took.count();
}

// Opens the state (and the lock) of a run; Stop::None when it may go on.
Stop open_state(Run& run, const fs::path& state_path, const std::string& lock_command, std::string* took_over) {
  base::Result<std::unique_ptr<state::StateStore>> opened =
      open_state_at(state_path.string(), run.runtime, run.policy_path, !lock_command.empty());
  if (!opened) {
    run.ui.error(base::render(opened.error()));
    return Stop::Failed;
  }
  run.store = std::move(opened.value());
  const base::Result<void> identity = settle_identity(run.compiled, run.store ? run.store->policy() : "",
                                                      run.runtime.state_path.empty(), state_path);
  if (!identity) {
    run.ui.error(base::describe(identity.error()));
    return Stop::Failed;
  }
  if (run.store && !lock_command.empty()) {
    state::LockHolder previous;
    state::LockHolder me;  // the store fills in who and when (base/host.h)
    me.command = lock_command;
    const base::Result<state::LockResult> locked = run.lock.acquire(*run.store, me, &previous);
    if (!locked) {  // the lock could not be read or taken: said as it is, as a lock not ours
      run.ui.error(base::render(locked.error()));
      return Stop::LockHeld;
    }
    switch (*locked) {
      case state::LockResult::Acquired:
        break;
      case state::LockResult::AcquiredStale:
        *took_over = previous.describe() + " (" + previous.why_stale() + ")";
        break;
      case state::LockResult::Held:
        run.ui.error(lock_held_message(state_path.string(), previous, run.policy_path, run.runtime.state_path));
        return Stop::LockHeld;
    }
  }
  if (run.store) {
    // Never an unreadable inventory taken for an empty one; the serial is the inventory's.
    base::Result<std::vector<state::InventoryEntry>> inventory = run.store->inventory();
    const base::Result<std::int64_t> serial = inventory ? run.store->serial() : base::Result<std::int64_t>(0);
    if (!inventory || !serial) {
      run.ui.error(base::render(!inventory ? inventory.error() : serial.error()));
      return Stop::Failed;
    }
    run.inventory = std::move(inventory.value());
    run.serial = *serial;
  }
  return Stop::None;
}

// --drift-only: every change but a repair of drift becomes a no-op that says
// so (Reason::NotDrift), counted in the plan's scope. A worker credential
// renewed or revoked is not drift: left out too.
void drift_only(reconcile::Plan& plan) {
  plan.scope.drift_only = true;
  for (reconcile::ClusterPlan& cluster : plan.clusters) {
    for (reconcile::Change& change : cluster.changes) {
      const bool credential = change.credential || !change.revokes_token_of.empty();
      if (change.action == reconcile::Action::NoOp || (change.repairs_drift && !credential)) continue;
      change.action = reconcile::Action::NoOp;
      change.reason = reconcile::Reason::NotDrift;
      change.reason_args = {};
      ++plan.scope.not_drift;
    }
    cluster.kept.clear();  // --no-prune's kept objects are not drift either
  }
  plan.handover = {};
  for (reconcile::ClusterPlan& cluster : plan.clusters) {
    for (reconcile::Change& change : cluster.changes) change.step = reconcile::Step::Unphased;
  }
}

// Verifies a plan without changes: nothing is written, so the lock goes first.
ApplyResult verify(Run& run, const reconcile::Plan& plan, const Execution& execution) {
  run.lock.release();
  ApplyResult result;
  result.command = execution.command;
  reconcile::ApplyOptions verify;
  verify.parallelism = std::max(1, run.runtime.parallelism);
  if (!execution.wait) {
    result.report = reconcile::verify_plan(plan, run.session.targets, verify);
    return result;
  }
  verify.wait = execution.wait;
  const std::unique_ptr<Cancellation> cancellation = run.ui.begin_apply(plan);  // an interrupt stops the wait
  verify.cancel = cancellation ? cancellation->token() : nullptr;
  verify.progress = [&run](const reconcile::ProgressEvent& event) { run.ui.progress(event); };
  result.report = reconcile::verify_plan(plan, run.session.targets, verify);
  run.ui.end_apply(*result.report);
  return result;
}

ApplyResult execute(Run& run, const reconcile::Plan& plan, const Execution& execution) {
  ApplyResult result;
  result.command = execution.command;
  const base::Result<std::int64_t> run_id = run.store->begin_run(execution.command, plan.policy_digest);
  if (!run_id) {
    run.ui.error(base::render(run_id.error()));
    result.stop = Stop::Failed;
    return result;
  }
  result.run_id = *run_id;
  // From here a cancellation stops the run cleanly: nothing new starts, the
  // state is written, the lock released and the outcome reported.
  const std::unique_ptr<Cancellation> cancellation = run.ui.begin_apply(plan);
  reconcile::ApplyOptions apply;
  apply.parallelism = std::max(1, run.runtime.parallelism);
  apply.force_conflicts = execution.force_conflicts;
  apply.cancel = cancellation ? cancellation->token() : nullptr;
  apply.wait = execution.wait;
  apply.drain_timeout = execution.drain_timeout;
  apply.progress = [&run](const reconcile::ProgressEvent& event) { run.ui.progress(event); };
  const auto started = std::chrono::steady_clock::now();
  const Timing before = counted(run.session);
  result.report =
      reconcile::apply_plan(plan, run.session.targets, *run.store, result.run_id, run.session.credentials.get(), apply);
  run.ui.end_apply(*result.report);
  if (run.verbose) {
    Timing timing = counted(run.session);
    timing.step = Timing::Step::Apply;
    timing.command = execution.command;
    timing.milliseconds = milliseconds_since(started);
    timing.requests -= before.requests;
    timing.retries -= before.retries;
    for (const reconcile::ClusterOutcome& cluster : result.report->clusters) {
      if (cluster.concurrency && cluster.concurrency->calls > 0) {
        timing.concurrency.push_back({cluster.cluster, *cluster.concurrency, cluster.throttled});
      }
    }
    run.ui.timing(timing);
  }
  if (const base::Result<void> finished =
          run.store->finish_run(result.run_id, reconcile::run_result_name(result.report->result()));
      !finished) {
    run.ui.error(base::render(finished.error()));
  }
  return result;
}

}  // namespace

bool scope_ok(const RuntimeOptions& runtime, const sema::model::Policy& policy,
              const std::vector<state::InventoryEntry>& inventory, Ui& ui) {
  if (runtime.clusters.empty()) return true;
  if (!runtime.exclude_clusters.empty()) {
    ui.error("--cluster and --exclude-cluster do not go together: --cluster already leaves out every cluster it "
             "does not name");
    return false;
  }
  std::vector<std::string> known{policy.manager.name};
  for (const sema::model::Worker& worker : policy.workers) known.push_back(worker.name);
  for (const state::InventoryEntry& entry : inventory) {
    if (std::find(known.begin(), known.end(), entry.ref.cluster) == known.end()) known.push_back(entry.ref.cluster);
  }
  bool ok = true;
  for (const std::string& name : runtime.clusters) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string message = "--cluster " + name + ": no cluster of that name in the policy or the state";
    if (const auto match = diag::closest_match(name, known)) message += "; did you mean '" + *match + "'?";
    ui.error(message);
    ok = false;
  }
  return ok;
}

std::string policy_digest(const kueue::DesiredState& desired) {
  // digest_of(render_json(desired), "mkq policy"), rendered a cluster at a
  // time into the digest: a fleet's whole text (and digest_of's copy of it)
  // is never in memory.
  state::DigestStream digest("mkq policy");
  kueue::StateWriter writer(kueue::TextFormat::JsonText);
  for (const kueue::ClusterObjects& cluster : desired.clusters) digest.add(writer.cluster(cluster));
  digest.add(writer.end());
  return digest.finish();
}

Stop start(Run& run, const RunOptions& options, const std::string& lock_command,
           credentials::ProviderOptions provider, TargetResolver& resolver) {
  run.policy_path = options.path;
  run.runtime = options.runtime;
  run.verbose = options.verbose;
  // The kubeconfig is read and parsed while the policy compiles.
  std::unique_ptr<kube::KubeconfigPrefetch> kubeconfig_ahead = resolver.read_ahead(options.runtime, options.path);
  run.compiled = compile(options.path, CompileTo::Objects, options.compile);
  run.ui.compiled(run.compiled);
  if (!run.compiled.state) return Stop::Failed;
  // The policy's digest (a rendering of every object) is taken on a thread of
  // its own from here on, while the state is opened and the clusters are
  // connected and read, all of which only read the compiled state -- unless
  // excluded or unscoped clusters are to be taken out of it first.
  std::future<std::string> digest;
  if (options.runtime.exclude_clusters.empty() && options.runtime.clusters.empty()) {
    digest = std::async(std::launch::async, [&desired = *run.compiled.state] { return policy_digest(desired); });
  }
  const fs::path state_path = state_path_for(options.path, options.runtime, &*run.compiled.policy);
  {
    TargetRequest before_state;
    before_state.policy = &*run.compiled.policy;
    before_state.policy_path = options.path;
    before_state.options = options.runtime;
    before_state.verbose = options.verbose;
    if (!resolver.prepare_state(before_state, state_path.string(), run.ui)) return Stop::Failed;
  }
  std::string took_over;  // said after the target, which comes first
  if (const Stop stop = open_state(run, state_path, lock_command, &took_over); stop != Stop::None) return stop;
  if (!exclusions_ok(options.runtime.exclude_clusters, *run.compiled.policy, run.inventory, run.ui) ||
      !scope_ok(options.runtime, *run.compiled.policy, run.inventory, run.ui)) {
    return Stop::Failed;
  }
  // --cluster: the workers it does not name are left out as --exclude-cluster
  // leaves them (neither connected nor read); the plan says so as the scope's.
  std::vector<std::string> left_out = options.runtime.exclude_clusters;
  if (!options.runtime.clusters.empty()) {
    run.scope.clusters = options.runtime.clusters;
    std::sort(run.scope.clusters.begin(), run.scope.clusters.end());
    run.scope.clusters.erase(std::unique(run.scope.clusters.begin(), run.scope.clusters.end()), run.scope.clusters.end());
    left_out = reconcile::workers_outside(run.scope.clusters, run.compiled.policy->manager.name,
                                          *run.compiled.state, run.inventory);
  }
  if (options.clock != nullptr) provider.clock = options.clock;
  // What an interrupted credential rotation recorded: the provider finishes it.
  if (run.store) {
    base::Result<std::vector<state::CredentialIntent>> unfinished = run.store->credential_intents();
    if (!unfinished) {
      run.ui.error(base::render(unfinished.error()));
      return Stop::Failed;
    }
    provider.unfinished = std::move(unfinished.value());
  }
  TargetRequest target;
  target.policy = &*run.compiled.policy;
  target.policy_path = options.path;
  target.extra_clusters = clusters_only_in(run.inventory, *run.compiled.state);
  target.options = options.runtime;
  target.options.exclude_clusters = left_out;
  target.provider = std::move(provider);
  target.verbose = options.verbose;
  const bool opened = resolver.open(target, run.ui, &run.session);
  kubeconfig_ahead.reset();
  if (!opened) return Stop::Failed;
  if (!took_over.empty()) run.ui.notice("took over a stale lock: " + took_over);
  reconcile::RefreshOptions refresh;
  refresh.parallelism = std::max(1, options.runtime.parallelism);
  refresh.destroy = run.destroy;
  const auto started = std::chrono::steady_clock::now();
  run.live = reconcile::refresh(*run.compiled.state, run.inventory, run.session.targets, refresh);
  for (const reconcile::ClusterLive& cluster : run.live.clusters) {
    if (!cluster.reachable && run.session.credentials) run.session.credentials->unreachable(cluster.cluster);
  }
  if (!options.runtime.exclude_clusters.empty()) {
    run.excluded =
        reconcile::exclude_clusters(options.runtime.exclude_clusters, run.live, *run.compiled.state, run.inventory);
  }
  if (!run.scope.clusters.empty()) {
    run.scope.not_planned = reconcile::exclude_clusters(left_out, run.live, *run.compiled.state, run.inventory);
    const std::string& manager = run.compiled.policy->manager.name;
    if (std::find(run.scope.clusters.begin(), run.scope.clusters.end(), manager) == run.scope.clusters.end()) {
      run.scope.manager_objects_left =
          reconcile::keep_manager_objects_for(run.scope.clusters, run.live, *run.compiled.state, run.inventory);
    }
  }
  run.policy_digest = digest.valid() ? digest.get() : policy_digest(*run.compiled.state);
  if (!run.destroy) {
    run.dispatch_orders = reconcile::order_by_free_capacity(*run.compiled.policy, *run.compiled.state,
                                                            run.session.targets, run.live, left_out);
  }
  // A state from before identities were recorded: the identity its objects carry.
  if (run.store && run.store->policy().empty() && !run.inventory.empty()) {
    const base::Result<void> identity = settle_identity(
        run.compiled, reconcile::identity_in_use(run.inventory, run.live), options.runtime.state_path.empty(), state_path);
    if (!identity) {
      run.ui.error(base::describe(identity.error()));
      return Stop::Failed;
    }
  }
  if (options.verbose) {
    Timing timing = counted(run.session);
    timing.step = Timing::Step::Refresh;
    timing.milliseconds = milliseconds_since(started);
    timing.pacing = pacing_of(run.session);
    run.ui.timing(timing);
  }
  return Stop::None;
}

void run_preflight(Run& run, reconcile::Plan& plan) {
  if (plan.kind == reconcile::PlanKind::Destroy) return;
  preflight::Options options;
  options.parallelism = std::max(1, run.runtime.parallelism);
  plan.preflight = preflight::check(
      {*run.compiled.policy, *run.compiled.state, plan, run.live, run.session.targets}, options);
}

bool preflight_failed(const reconcile::Plan& plan, Run& run, bool applying) {
  if (!plan.preflight_failed()) return false;
  std::string lines;
  int errors = 0;
  for (const reconcile::Finding& finding : plan.preflight) {
    if (finding.severity != reconcile::Severity::Error) continue;
    ++errors;
    lines += "\n  " + finding.cluster + ": " + finding.missing;
  }
  const char* errors_word = errors == 1 ? "error" : "errors";
  run.ui.error(applying ? fmt::format("preflight found {} {}; apply refuses this plan and nothing was changed:{}", errors,
                                      errors_word, lines)
                        : fmt::format("preflight found {} {}; apply will refuse this plan until {} fixed:{}", errors,
                                      errors_word, errors == 1 ? "it is" : "they are", lines));
  return true;
}

reconcile::Plan make_plan(Run& run, const std::string& path, reconcile::PlanKind kind, bool no_prune,
                          const OwnershipOptions& ownership, const ScopeOptions& scope) {
  reconcile::PlanOptions options;
  options.kind = kind;
  options.prune = !no_prune;
  options.take_over = ownership.take_over;
  options.delete_adopted = ownership.delete_adopted;
  options.replace = {scope.replace.begin(), scope.replace.end()};
  const std::string lineage = run.store ? run.store->lineage() : "";
  reconcile::PlanWork work;
  work.parallelism = std::max(1, run.runtime.parallelism);
  work.policy_digest = false;  // run.policy_digest is the plan's
  reconcile::Plan plan = reconcile::make_plan(*run.compiled.state, run.inventory, lineage, run.live,
                                              run.session.credentials.get(), options, work);
  std::error_code ec;
  plan.policy_path = fs::absolute(path, ec).string();
  plan.policy_digest = run.policy_digest;
  plan.lineage = lineage;
  plan.state_serial = run.serial;
  plan.excluded = run.excluded;
  plan.scope = run.scope;
  if (scope.drift_only) drift_only(plan);
  reconcile::note_dispatch_orders(plan, run.dispatch_orders);
  return plan;
}

bool scope_options_ok(const Run& run, const ScopeOptions& scope) {
  bool ok = true;
  const auto fail = [&](const std::string& message) {
    run.ui.error(message);
    ok = false;
  };
  if (run.destroy && (scope.drift_only || !scope.replace.empty())) {
    fail(std::string(scope.drift_only ? "--drift-only" : "--replace") + " plans changes of the policy's objects, not a destroy");
    return false;
  }
  if (scope.drift_only && !scope.replace.empty()) {
    fail("--drift-only and --replace do not go together: a replace is not a repair of drift");
    return false;
  }
  std::vector<std::string> addresses;
  std::map<std::string, const kueue::Object*> objects;
  for (const kueue::ClusterObjects& cluster : run.compiled.state->clusters) {
    for (const kueue::Object& object : cluster.objects) {
      addresses.push_back(kueue::address(cluster.cluster, object));
      objects[addresses.back()] = &object;
    }
  }
  for (const std::string& address : scope.replace) {
    if (const auto found = objects.find(address); found != objects.end()) {
      if (found->second->holds_credential_placeholder) {
        fail("--replace " + address + ": a worker credential is not replaced; `" +
             run_command("credentials rotate", run.policy_path, run.runtime) + "` issues a fresh one");
      } else if (found->second->kueue_configuration) {
        fail("--replace " + address + ": Kueue's configuration is merged into the cluster's, not mkq's alone; it is "
             "never replaced");
      }
      continue;
    }
    std::string message = "--replace " + address + ": no object of the policy at that address" +
                          (run.scope.clusters.empty() && run.excluded.empty() ? "" : " in the clusters planned");
    if (const auto match = diag::closest_match(address, addresses)) message += "; did you mean '" + *match + "'?";
    fail(message + " (addresses are CLUSTER/KIND/NAME or CLUSTER/KIND/NAMESPACE/NAME, as the plan shows them)");
  }
  return ok;
}

bool refused(const reconcile::Plan& plan, Run& run) {
  const std::vector<std::string> refusals = plan.refusals();
  if (refusals.empty()) return false;
  std::string message = "apply refuses this plan; nothing was changed:";
  for (const std::string& refusal : refusals) message += "\n  " + refusal;
  // The hint only where it helps: a refusal of --replace or prevent-destroy is not lifted by --take-over.
  const bool owner_conflict = std::any_of(plan.clusters.begin(), plan.clusters.end(), [](const reconcile::ClusterPlan& c) {
    return std::any_of(c.changes.begin(), c.changes.end(), [](const reconcile::Change& change) {
      return change.action != reconcile::Action::NoOp && !change.owner_conflict.empty() && !change.take_over;
    });
  });
  if (owner_conflict) message += "\nan object owned by another policy becomes this one's only with --take-over";
  run.ui.error(message);
  return true;
}

ApplyResult carry_out(Run& run, const reconcile::Plan& plan, const Execution& execution) {
  if (!plan.has_changes()) return verify(run, plan, execution);
  if (!execution.auto_approve && !run.ui.confirm(plan)) {
    ApplyResult result;
    result.stop = Stop::NotConfirmed;
    result.command = execution.command;
    return result;
  }
  return execute(run, plan, execution);
}

std::vector<CredentialExpiry> credential_expiries(Run& run) {
  std::vector<CredentialExpiry> out;
  const reconcile::Target& manager = run.session.targets.front();
  const sema::model::Policy& policy = *run.compiled.policy;
  static const kube::ResourceType secrets{"", "v1", "Secret", "secrets", true};
  for (const sema::model::Worker& worker : policy.workers) {
    if (worker.credentials.mode.value == sema::model::CredentialsMode::ClusterProfile) continue;
    CredentialExpiry expiry;
    expiry.worker = worker.name;
    if (manager.client == nullptr) {
      expiry.error = manager.connect_error;
      out.push_back(std::move(expiry));
      continue;
    }
    const kube::Result<kube::Json> secret =
        manager.client->get(secrets, policy.kueue.namespace_name.value, worker.secret_name.value);
    if (!secret.ok() && !secret.error().not_found()) {
      expiry.error = secret.error().message;
    } else if (secret.ok()) {
      expiry.expires = credentials::recorded_expiry(secret.value());
    }
    if (expiry.expires || !expiry.error.empty()) out.push_back(std::move(expiry));
  }
  return out;
}

}  // namespace mkq::operation::detail
