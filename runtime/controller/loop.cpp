#include "runtime/controller/loop.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runtime/controller/ui.h"

namespace mkq::controller {

namespace {

using reconcile::Action;
using reconcile::Change;

constexpr std::size_t kNamed = 5;  // addresses an Event names before "and N more"

// "a, b, c and 4 more".
std::string listed(const std::vector<std::string>& items) {
  std::string text = fmt::format("{}", fmt::join(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), kNamed)), ", "));
  if (items.size() > kNamed) fmt::format_to(std::back_inserter(text), " and {} more", items.size() - kNamed);
  return text;
}

// The kind of change the changes-applied counter counts it as (kChangeKinds).
const char* kind_of(const Change& change) {
  if (change.credential || !change.revokes_token_of.empty()) return "credential";
  if (change.repairs_drift) return "drift";
  return "policy";
}

double epoch_seconds(base::TimePoint time) {
  return std::chrono::duration<double>(time.time_since_epoch()).count();
}

std::string plural(std::size_t n, const std::string& word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// What a run found and did, from its result.
RunFacts facts_of(const operation::ApplyResult& result, const ControllerUi& ui,
                  const operation::ChangeSelection& select) {
  RunFacts facts;
  RunMetrics& run = facts.metrics;
  facts.run_id = result.run_id;
  run.plan_seconds = ui.plan_seconds();
  run.apply_seconds = ui.apply_seconds();
  run.result = result.stop != operation::Stop::None ? "stopped"
               : result.report                      ? reconcile::run_result_name(result.report->result())
                                                    : "success";
  for (const char* kind : kChangeKinds) run.applied[kind] = 0;
  std::map<std::string, const Change*> planned;
  for (const reconcile::ClusterPlan& cluster :
       result.plan ? result.plan->clusters : std::vector<reconcile::ClusterPlan>{}) {
    run.reachable[cluster.cluster] = cluster.reachable;
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp) continue;
      planned[change.ref.address()] = &change;
      if (change.repairs_drift) ++run.drift;
      if (!operation::selected(select, change)) ++run.pending;
    }
  }
  for (const operation::CredentialExpiry& credential : result.credentials) {
    if (credential.expires) run.credential_expiry[credential.worker] = epoch_seconds(*credential.expires);
  }
  facts.failures = ui.errors();
  if (!result.report) return facts;
  for (const reconcile::ObjectResult& object : result.report->results) {
    const auto found = planned.find(object.ref.address());
    if (found == planned.end()) continue;  // a restart
    if (!object.ok()) {
      facts.failures.push_back(object.error.message.empty() ? fmt::format("{}: not carried out", object.ref.address())
                                                            : base::render(object.error));
      continue;
    }
    ++run.applied[kind_of(*found->second)];
    if (found->second->credential) facts.rotated.push_back(object.ref.address());
  }
  for (const reconcile::ClusterOutcome& cluster : result.report->clusters) {
    if (!cluster.reachable) facts.failures.push_back(cluster.cluster + " is unreachable: " + cluster.error);
  }
  for (const base::Error& failure : result.report->wait_failures) facts.failures.push_back(base::render(failure));
  return facts;
}

}  // namespace

Settings settings_of(const Options& options, const sema::model::SyncSettings* policy) {
  Settings settings;
  if (policy != nullptr) {
    if (policy->mode) settings.sync = policy->mode->value == sema::model::SyncMode::Auto ? Sync::Auto : Sync::Manual;
    if (policy->self_heal) settings.self_heal = policy->self_heal->value;
    if (policy->prune) settings.prune = policy->prune->value;
    if (policy->interval) settings.interval = std::chrono::milliseconds(policy->interval->value.millis());
  }
  settings.sync = options.sync.value_or(settings.sync);
  settings.self_heal = options.self_heal.value_or(settings.self_heal);
  settings.prune = options.prune.value_or(settings.prune);
  settings.interval = options.interval.value_or(settings.interval);
  return settings;
}

operation::ChangeSelection selection_of(const Settings& settings) {
  operation::ChangeSelection select;
  select.policy = settings.sync == Sync::Auto;
  select.drift = settings.self_heal;
  select.credentials = true;
  return select;
}

Reconciler::Reconciler(const Options& options, std::string identity, operation::TargetResolver& resolver,
                       PolicyWatch& watch, const base::Clock& clock, Log& log, Metrics& metrics,
                       const Leadership* leadership, EventRecorder* events, const std::atomic<bool>* stop)
    : options_(options),
      identity_(std::move(identity)),
      resolver_(resolver),
      watch_(watch),
      clock_(clock),
      log_(log),
      metrics_(metrics),
      leadership_(leadership),
      events_(events),
      stop_(stop),
      settings_(settings_of(options, nullptr)) {}

void Reconciler::read_settings() {
  const operation::Compilation compiled =
      operation::compile(options_.run.path, operation::CompileTo::Model, options_.run.compile);
  if (!compiled.ok()) return;
  const std::optional<sema::model::SyncSettings>& sync = compiled.policy->manager.sync;
  settings_ = settings_of(options_, sync ? &*sync : nullptr);
}

bool Reconciler::tick() {
  const std::string digest = watch_.digest();
  const bool leading = leadership_ == nullptr || leadership_->leading();
  if (!digest_ || digest != *digest_) read_settings();
  std::string why;
  if (!digest_) {
    why = "start";
  } else if (digest != *digest_) {
    why = "the policy changed";
  } else if (leading && !was_leading_) {
    why = "this replica leads now";
  } else if (!last_run_ || clock_.now() - *last_run_ >= settings_.interval) {
    why = "interval";
  }
  digest_ = digest;
  was_leading_ = leading;
  if (why.empty() || !leading) return false;
  run_once(why);
  return true;
}

Probe Reconciler::ready() const {
  if (leadership_ != nullptr && !leadership_->leading()) {
    return {true, "standing by: this replica does not hold the lease"};
  }
  if (planned_.load()) return {true, "ok"};
  return {false, "no plan made yet"};
}

void Reconciler::run_once(const std::string& why) {
  last_run_ = clock_.now();
  log_.line("run (" + why + ")");
  const operation::ChangeSelection select = selection_of(settings_);
  operation::ApplyRequest request;
  static_cast<operation::RunOptions&>(request) = options_.run;
  if (request.clock == nullptr) request.clock = &clock_;
  request.auto_approve = true;
  request.no_prune = !settings_.prune;
  request.select = select;
  request.command = "controller " + identity_;
  request.read_credentials = true;
  ControllerUi ui(log_, leadership_ != nullptr ? leadership_->lost() : nullptr, stop_);
  const operation::ApplyResult result = operation::apply(request, resolver_, ui);
  interrupted_ = stop_ != nullptr && stop_->load() && result.report && result.report->interrupted;
  RunFacts facts = facts_of(result, ui, select);
  facts.metrics.finished_at = epoch_seconds(clock_.now());
  if (result.plan) {
    planned_.store(true);
    report_left(*result.plan, select);
  }
  metrics_.record(facts.metrics);
  report(why, facts);
}

void Reconciler::report(const std::string& why, RunFacts& facts) {
  RunMetrics& run = facts.metrics;
  int applied = 0;
  for (const auto& [kind, count] : run.applied) applied += count;
  log_.line("run (" + why + ") " + run.result + ": " + plural(applied, "change") + " applied, " +
            plural(run.drift, "drifted object") + ", " + plural(run.pending, "change") + " left");
  if (events_ == nullptr) return;
  if (applied > 0) {
    events_->record(kNormal, "Applied",
                    fmt::format("applied {} ({} policy, {} drift repairs, {} credentials){}", plural(applied, "change"),
                                run.applied["policy"], run.applied["drift"], run.applied["credential"],
                                facts.run_id > 0 ? fmt::format("; history run {}", facts.run_id) : std::string()));
  }
  for (const std::string& address : facts.rotated) {
    events_->record(kNormal, "CredentialRotated", "issued a new worker credential: " + address);
  }
  if (!facts.failures.empty()) {
    events_->record(kWarning, "ApplyFailed", "run " + run.result + ": " + listed(facts.failures));
  }
}

void Reconciler::report_left(const reconcile::Plan& plan, const operation::ChangeSelection& select) {
  std::vector<std::string> drift, pending;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    for (const Change& change : cluster.changes) {
      if (change.action == Action::NoOp || operation::selected(select, change)) continue;
      (change.repairs_drift ? drift : pending).push_back(change.ref.address());
    }
  }
  const std::set<std::string> drift_now(drift.begin(), drift.end()),
      pending_now(pending.begin(), pending.end());
  if (events_ != nullptr && !drift.empty() && drift_now != drift_said_) {
    events_->record(kWarning, "DriftDetected",
                    plural(drift.size(), "object") +
                        " changed outside mkq, left as they are (self-heal is off): " + listed(drift));
  }
  if (events_ != nullptr && !pending.empty() && pending_now != pending_said_) {
    events_->record(kNormal, "OutOfSync",
                    plural(pending.size(), "change") +
                        " of the policy wait for `mkq apply` (sync manual): " + listed(pending));
  }
  drift_said_ = drift_now;
  pending_said_ = pending_now;
}

}  // namespace mkq::controller
