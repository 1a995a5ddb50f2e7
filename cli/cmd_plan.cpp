// `mkq plan`, `mkq apply` and `mkq destroy`: compile, connect, lock (apply),
// refresh, plan (runtime/reconcile), show, confirm, apply, record. The steps
// are runtime/reconcile's; this file only strings them together and talks to
// the user.
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/compile.h"
#include "cli/session.h"
#include "compiler/kueue/render.h"
#include "runtime/credentials/cluster_profile.h"
#include "runtime/reconcile/apply.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/refresh.h"
#include "runtime/state/state.h"

namespace mkq::cli {

namespace {

namespace fs = std::filesystem;

void error_line(const std::string& message) { std::fprintf(stderr, "mkq: error: %s\n", message.c_str()); }

std::string policy_digest(const kueue::DesiredState& desired) {
  return state::digest_of(kueue::render_json(desired), "mkq policy");
}

std::string now_rfc3339() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

state::LockHolder this_process(const std::string& command) {
  state::LockHolder me;
  me.command = command;
  const char* user = std::getenv("USER");
  if (user == nullptr || *user == '\0') {
    const passwd* entry = getpwuid(getuid());
    user = entry != nullptr ? entry->pw_name : "unknown";
  }
  me.user = user;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
  me.host = host;
  me.pid = getpid();
  me.since = now_rfc3339();
  return me;
}

// Clusters that objects of the inventory live on but the policy no longer has:
// their objects are pruned, so they need a connection too.
std::vector<std::string> clusters_only_in(const std::vector<state::InventoryEntry>& inventory,
                                          const kueue::DesiredState& desired) {
  std::set<std::string> known;
  for (const kueue::ClusterObjects& cluster : desired.clusters) known.insert(cluster.cluster);
  std::set<std::string> extra;
  for (const state::InventoryEntry& entry : inventory) {
    if (!known.count(entry.cluster)) extra.insert(entry.cluster);
  }
  return {extra.begin(), extra.end()};
}

// The credential provider's clock: the system's, or MKQ_NOW (RFC 3339 UTC,
// "2026-12-20T00:00:00Z") for tests of expiry and rotation. A malformed
// MKQ_NOW is an error rather than silently the real time.
bool provider_options(credentials::ProviderOptions* options) {
  const char* now = std::getenv("MKQ_NOW");
  if (now == nullptr || *now == '\0') return true;
  std::tm utc{};
  const char* end = strptime(now, "%Y-%m-%dT%H:%M:%SZ", &utc);
  if (end == nullptr || *end != '\0') {
    error_line(std::string("MKQ_NOW must be a UTC time such as 2026-12-20T00:00:00Z, not \"") + now + "\"");
    return false;
  }
  const auto fixed = std::chrono::system_clock::from_time_t(timegm(&utc));
  options->now = [fixed] { return fixed; };
  return true;
}

bool is_saved_plan(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || fs::path(path).extension() == ".mkq") return false;
  std::ifstream in(path, std::ios::binary);
  char first = 0;
  in >> first;
  return first == '{';
}

// Prints apply progress: on a terminal one line per cluster, redrawn in place;
// otherwise one plain line per finished object.
class ProgressPrinter {
 public:
  ProgressPrinter(const reconcile::Plan& plan, bool terminal) : terminal_(terminal) {
    for (const reconcile::ClusterPlan& cluster : plan.clusters) {
      Line line;
      for (const reconcile::Change& change : cluster.changes) {
        if (change.action != reconcile::Action::NoOp) ++line.total;
        if (change.action != reconcile::Action::NoOp && change.restart && change.restart->enabled) ++line.total;
      }
      if (line.total == 0) continue;
      order_.push_back(cluster.cluster);
      lines_[cluster.cluster] = line;
    }
  }

  void on_event(const reconcile::ProgressEvent& event) {
    std::lock_guard<std::mutex> lock(mutex_);
    using Phase = reconcile::ProgressEvent::Phase;
    Line& line = lines_[event.cluster];
    const std::string object = describe(event.address);
    switch (event.phase) {
      case Phase::Started:  // a restart says what it does ("restarting"), a change by its action
        line.current = (event.message.empty() ? std::string(verb_ing(event.action)) : event.message) + " " + object;
        break;
      case Phase::Done: {
        ++line.done;
        const std::string done = event.message.empty() ? past(event.action) : event.message;
        line.current = object + " " + done;
        if (!terminal_) std::fprintf(stderr, "%s: %s %s\n", event.cluster.c_str(), object.c_str(), done.c_str());
        break;
      }
      case Phase::Failed:
        ++line.done;
        ++line.failed;
        line.current = object + " failed";
        if (!terminal_) {
          std::fprintf(stderr, "%s: %s failed: %s\n", event.cluster.c_str(), object.c_str(), event.message.c_str());
        }
        break;
      case Phase::Waiting:
        line.current = "waiting for " + object + ": " + event.message;
        if (!terminal_) std::fprintf(stderr, "%s: waiting for %s: %s\n", event.cluster.c_str(), object.c_str(),
                                     event.message.c_str());
        break;
      case Phase::Ready:
        line.current = object + " Active";
        if (!terminal_) std::fprintf(stderr, "%s: %s is Active\n", event.cluster.c_str(), object.c_str());
        break;
    }
    if (terminal_) redraw();
  }

  void finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_ && drawn_) {
      for (auto& [name, line] : lines_) line.current = line.failed ? "done with failures" : "done";
      redraw();
    }
  }

 private:
  struct Line {
    int total = 0, done = 0, failed = 0;
    std::string current;
  };

  static std::string describe(const std::string& address) {
    // CLUSTER/KIND/[NS/]NAME -> "KIND [NS/]NAME"
    const std::size_t first = address.find('/');
    if (first == std::string::npos) return address;
    const std::size_t second = address.find('/', first + 1);
    if (second == std::string::npos) return address.substr(first + 1);
    return address.substr(first + 1, second - first - 1) + " " + address.substr(second + 1);
  }
  static const char* verb_ing(reconcile::Action action) {
    switch (action) {
      case reconcile::Action::Create: return "creating";
      case reconcile::Action::Update: return "updating";
      case reconcile::Action::Delete: return "deleting";
      case reconcile::Action::Replace: return "replacing";
      case reconcile::Action::NoOp: break;
    }
    return "checking";
  }
  static const char* past(reconcile::Action action) {
    switch (action) {
      case reconcile::Action::Create: return "created";
      case reconcile::Action::Update: return "updated";
      case reconcile::Action::Delete: return "deleted";
      case reconcile::Action::Replace: return "replaced";
      case reconcile::Action::NoOp: break;
    }
    return "unchanged";
  }

  void redraw() {
    if (drawn_) std::fprintf(stderr, "\x1b[%zuA", order_.size());
    for (const std::string& name : order_) {
      const Line& line = lines_[name];
      std::string text = name + "  " + std::to_string(line.done) + "/" + std::to_string(line.total);
      if (line.failed) text += " (" + std::to_string(line.failed) + " failed)";
      text += "  " + line.current;
      if (text.size() > 110) text = text.substr(0, 107) + "...";
      std::fprintf(stderr, "\x1b[2K%s\n", text.c_str());
    }
    drawn_ = true;
  }

  bool terminal_;
  bool drawn_ = false;
  std::mutex mutex_;
  std::vector<std::string> order_;
  std::map<std::string, Line> lines_;
};

bool confirm(const reconcile::Plan& plan, bool auto_approve) {
  if (auto_approve) return true;
  if (isatty(STDIN_FILENO) != 1) {
    error_line(std::string(plan.kind == reconcile::PlanKind::Destroy ? "destroy" : "apply") +
               " asks for confirmation and there is no terminal to ask on: run it with --auto-approve");
    return false;
  }
  std::fprintf(stderr, "\nDo you want to perform these actions? Only 'yes' will be accepted: ");
  std::string answer;
  if (!std::getline(std::cin, answer) || answer != "yes") {
    std::fputs("mkq: cancelled, nothing was changed\n", stderr);
    return false;
  }
  return true;
}

// Everything a run needs after compiling.
struct Run {
  Compilation compiled;
  std::unique_ptr<state::StateStore> store;  // null for a plan without a state file
  std::vector<state::InventoryEntry> inventory;
  Session session;
  reconcile::LiveState live;
};

// Compiles, opens the state (creating it when `write`), locks it (when
// `lock_command` is set) and connects. Returns 0 or an exit code.
int start_run(const std::string& path, const RuntimeOptions& runtime, const GlobalOptions& global,
              const std::string& lock_command, const credentials::ProviderOptions& provider_options, Run& run) {
  run.compiled = compile(path, CompileTo::Objects, global);
  run.compiled.print_diagnostics(global);
  if (!run.compiled.state) return 1;
  const fs::path state_path = state_path_for(path, runtime);
  std::string error;
  if (!lock_command.empty()) {
    run.store = state::StateStore::open(state_path, &error);
  } else {
    run.store = state::StateStore::open_existing(state_path, &error);
  }
  if (!run.store && !error.empty()) {
    error_line(error);
    return 1;
  }
  if (run.store && !lock_command.empty()) {
    state::LockHolder previous;
    switch (run.store->acquire_lock(this_process(lock_command), &previous)) {
      case state::LockResult::Acquired:
        break;
      case state::LockResult::AcquiredStale:
        std::fprintf(stderr, "mkq: took over a stale lock: %s (the process no longer runs)\n",
                     previous.describe().c_str());
        break;
      case state::LockResult::Held:
        error_line("the state " + state_path.string() + " is locked: " + previous.describe() +
                   "; if that run is gone, release it with `mkq state unlock`");
        return 1;
    }
  }
  if (run.store) run.inventory = run.store->inventory();
  if (!open_session(*run.compiled.policy, path, clusters_only_in(run.inventory, *run.compiled.state), runtime,
                    global, provider_options, &run.session)) {
    return 1;
  }
  reconcile::RefreshOptions refresh;
  refresh.parallelism = std::max(1, runtime.parallelism);
  const auto started = std::chrono::steady_clock::now();
  run.live = reconcile::refresh(*run.compiled.state, run.inventory, run.session.targets, refresh);
  if (global.verbose) {
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    int lists = 0;
    for (const auto& client : run.session.clients) lists += client->stats().lists;
    std::fprintf(stderr, "mkq: refresh  %8.1f ms (%d LISTs)\n", took.count(), lists);
  }
  return 0;
}

// Workers reached through a ClusterProfile: it must exist on the manager with an
// access provider the policy names (else Kueue leaves the worker inactive).
bool cluster_profiles_ok(Run& run) {
  const reconcile::Target& manager = run.session.targets.front();
  const std::vector<std::string> problems =
      credentials::check_cluster_profiles(*run.compiled.policy, manager.client);
  for (const std::string& problem : problems) error_line(problem);
  if (!problems.empty() && run.store) run.store->release_lock();
  return problems.empty();
}

reconcile::Plan make_plan(Run& run, const std::string& path, reconcile::PlanKind kind, bool no_prune) {
  reconcile::PlanOptions options;
  options.kind = kind;
  options.prune = !no_prune;
  const std::string lineage = run.store ? run.store->lineage() : "";
  reconcile::Plan plan = reconcile::make_plan(*run.compiled.state, run.inventory, lineage, run.live,
                                              run.session.credentials.get(), options);
  std::error_code ec;
  plan.policy_path = fs::absolute(path, ec).string();
  plan.policy_digest = policy_digest(*run.compiled.state);
  plan.lineage = lineage;
  plan.state_serial = run.store ? run.store->serial() : 0;
  return plan;
}

void print_plan(const reconcile::Plan& plan, PlanFormat format, bool color) {
  std::string text;
  switch (format) {
    case PlanFormat::Text: text = reconcile::render_text(plan, color); break;
    case PlanFormat::Markdown: text = reconcile::render_markdown(plan); break;
    case PlanFormat::Json: text = reconcile::render_json(plan).dump(2) + "\n"; break;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

bool write_plan_file(const reconcile::Plan& plan, const std::string& file) {
  const fs::path target(file);
  const fs::path temporary = target.string() + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << reconcile::render_json(plan).dump(2) << "\n";
    if (!out.flush()) {
      error_line("cannot write the plan to " + file);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    error_line("cannot write the plan to " + file + ": " + ec.message());
    return false;
  }
  return true;
}

// True when the plan would leave none of the objects mkq applied.
bool deletes_everything(const reconcile::Plan& plan, const std::vector<state::InventoryEntry>& inventory) {
  if (inventory.empty()) return false;
  std::size_t deletes = 0;
  for (const reconcile::ClusterPlan& cluster : plan.clusters) {
    for (const reconcile::Change& change : cluster.changes) {
      if (change.action == reconcile::Action::Delete) ++deletes;
      if (change.action != reconcile::Action::Delete && change.action != reconcile::Action::NoOp) return false;
      if (change.action == reconcile::Action::NoOp && change.reason != "already gone") return false;
    }
  }
  return deletes > 0;
}

int execute(Run& run, const reconcile::Plan& plan, const ApplyCommandOptions& options, const GlobalOptions& global) {
  const std::string command = options.destroy ? "destroy" : "apply";
  std::string error;
  const std::int64_t run_id = run.store->begin_run(command, plan.policy_digest, &error);
  if (run_id == 0) {
    error_line(error);
    return 1;
  }
  reconcile::ApplyOptions apply;
  apply.parallelism = std::max(1, options.runtime.parallelism);
  apply.force_conflicts = options.force_conflicts;
  if (options.wait) {
    std::chrono::milliseconds wait{};
    parse_duration(options.wait_duration, &wait);  // checked by the caller
    apply.wait = wait;
  }
  ProgressPrinter printer(plan, isatty(STDERR_FILENO) == 1);
  apply.progress = [&printer](const reconcile::ProgressEvent& event) { printer.on_event(event); };
  const auto started = std::chrono::steady_clock::now();
  int requests_before = 0, retries_before = 0;
  for (const auto& client : run.session.clients) {
    requests_before += client->stats().requests;
    retries_before += client->stats().retries;
  }
  const reconcile::ApplyReport report =
      reconcile::apply_plan(plan, run.session.targets, *run.store, run_id, run.session.credentials.get(), apply);
  printer.finish();
  if (global.verbose) {
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    int requests = -requests_before, retries = -retries_before, connections = 0;
    for (const auto& client : run.session.clients) {
      requests += client->stats().requests;
      retries += client->stats().retries;
      connections += client->stats().connections;
    }
    std::fprintf(stderr, "mkq: %-7s %8.1f ms (%d requests, %d retried, %d TLS connections in all)\n", command.c_str(),
                 took.count(), requests, retries, connections);
  }

  int added = 0, changed = 0, destroyed = 0;
  for (const reconcile::ObjectResult& result : report.results) {
    if (!result.ok) continue;
    switch (result.action) {
      case reconcile::Action::Create: ++added; break;
      case reconcile::Action::Update: ++changed; break;
      case reconcile::Action::Delete: ++destroyed; break;
      case reconcile::Action::Replace: ++added; ++destroyed; break;
      case reconcile::Action::NoOp: break;
    }
  }
  const bool any_ok = std::any_of(report.results.begin(), report.results.end(),
                                  [](const reconcile::ObjectResult& r) { return r.ok; });
  run.store->finish_run(run_id, report.success() ? "success" : (any_ok ? "partial" : "failed"), &error);
  run.store->release_lock();
  (void)global;
  if (report.success()) {
    std::printf("\n%s complete! Resources: %d added, %d changed, %d destroyed.\n",
                options.destroy ? "Destroy" : "Apply", added, changed, destroyed);
    return 0;
  }
  std::printf("\n%s failed: %d of %zu changes failed (%d added, %d changed, %d destroyed).\n",
              options.destroy ? "Destroy" : "Apply", report.failed, report.results.size(), added, changed, destroyed);
  for (const reconcile::ObjectResult& result : report.results) {
    if (!result.ok) std::printf("  %s: %s\n", result.address.c_str(), result.message.c_str());
  }
  for (const std::string& failure : report.wait_failures) std::printf("  not Active: %s\n", failure.c_str());
  std::printf("Run `mkq plan` to see what is left; `mkq history` keeps every object's outcome.\n");
  return 1;
}

int apply_saved_plan(const ApplyCommandOptions& options, const GlobalOptions& global) {
  std::ifstream in(options.path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const kube::Json document = kube::Json::parse(text.str(), nullptr, false);
  std::string error;
  std::optional<reconcile::Plan> saved =
      document.is_discarded() ? std::nullopt : reconcile::plan_from_json(document, &error);
  if (!saved) {
    error_line(options.path + " is not a saved plan" + (error.empty() ? "" : ": " + error));
    return 1;
  }
  Run run;
  const std::string policy_path = saved->policy_path;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  const int started = start_run(policy_path, options.runtime, global,
                                saved->kind == reconcile::PlanKind::Destroy ? "destroy" : "apply", provider, run);
  if (started != 0) return started;
  std::vector<std::string> reasons;
  if (policy_digest(*run.compiled.state) != saved->policy_digest) {
    reasons.push_back("the policy at " + policy_path + " changed since the plan");
  }
  for (std::string& reason :
       reconcile::stale_reasons(*saved, run.store->serial(), run.store->lineage(), run.live)) {
    reasons.push_back(std::move(reason));
  }
  if (!reasons.empty()) {
    run.store->release_lock();
    std::string message = "the saved plan " + options.path + " is stale; nothing was changed:";
    for (const std::string& reason : reasons) message += "\n  " + reason;
    error_line(message + "\nrun `mkq plan --out " + options.path + "` again");
    return 1;
  }
  print_plan(*saved, PlanFormat::Text, global.color);
  if (!saved->has_changes()) {
    run.store->release_lock();
    return 0;
  }
  ApplyCommandOptions effective = options;
  effective.destroy = saved->kind == reconcile::PlanKind::Destroy;
  if (!confirm(*saved, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  return execute(run, *saved, effective, global);
}

// What `mkq credentials rotate` applies: only the credential changes (the
// provider, with force_rotate, re-issues every selected worker's kubeconfig
// Secret; storing it deletes the anchor Secrets the old tokens are bound to,
// which revokes them -- no ServiceAccount change). Every other change of the
// plan is left for `mkq apply`.
reconcile::Plan rotation_plan(const reconcile::Plan& full, const sema::model::Policy& policy,
                              const kueue::DesiredState& desired, const std::vector<std::string>& selected) {
  (void)policy, (void)desired, (void)selected;  // the provider already chose what to re-issue
  reconcile::Plan plan = full;
  for (reconcile::ClusterPlan& cluster : plan.clusters) {
    for (reconcile::Change& change : cluster.changes) {
      if (change.credential) continue;
      change.action = reconcile::Action::NoOp;
      change.reason = "not part of the rotation";
    }
  }
  return plan;
}

}  // namespace

int run_rotate(const RotateOptions& options, const GlobalOptions& global) {
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  provider.force_rotate = true;
  provider.rotate_only = options.clusters;
  Run run;
  const int started = start_run(options.path, options.runtime, global, "credentials rotate", provider, run);
  if (started != 0) return started;
  for (const std::string& name : options.clusters) {
    const auto& workers = run.compiled.policy->workers;
    if (std::none_of(workers.begin(), workers.end(), [&](const auto& w) { return w.name == name; })) {
      run.store->release_lock();
      error_line("--cluster " + name + ": the policy has no worker of that name");
      return 1;
    }
  }
  const reconcile::Plan full = make_plan(run, options.path, reconcile::PlanKind::Apply, true);
  const reconcile::Plan plan = rotation_plan(full, *run.compiled.policy, *run.compiled.state, options.clusters);
  print_plan(plan, PlanFormat::Text, global.color);
  if (!plan.has_changes()) {
    run.store->release_lock();
    std::fputs("mkq: no worker uses credentials mkq issues (service-account mode without a pre-issued token)\n",
               stderr);
    return plan.complete() ? 0 : 1;
  }
  if (!confirm(plan, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  ApplyCommandOptions apply;
  apply.runtime = options.runtime;
  return execute(run, plan, apply, global);
}

int run_plan(const PlanCommandOptions& options, const GlobalOptions& global) {
  Run run;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  const int started = start_run(options.path, options.runtime, global, "", provider, run);
  if (started != 0) return started;
  if (!options.destroy && !cluster_profiles_ok(run)) return 1;
  const reconcile::Plan plan =
      make_plan(run, options.path, options.destroy ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply,
                options.no_prune);
  print_plan(plan, options.format, global.color);
  if (!options.out.empty() && !write_plan_file(plan, options.out)) return 1;
  if (!options.out.empty()) {
    std::fprintf(stderr, "mkq: saved the plan to %s; apply it with `mkq apply %s`\n", options.out.c_str(),
                 options.out.c_str());
  }
  if (!plan.complete()) return 1;  // an unreachable cluster: the plan is not the whole truth
  if (options.detailed_exitcode && plan.has_changes()) return 2;
  return 0;
}

int run_apply(const ApplyCommandOptions& options, const GlobalOptions& global) {
  if (options.wait) {
    std::chrono::milliseconds wait{};
    if (!parse_duration(options.wait_duration, &wait)) {
      error_line("--wait takes a duration such as 90s, 5m or 1h30m, not \"" + options.wait_duration + "\"");
      return 1;
    }
  }
  if (!options.destroy && is_saved_plan(options.path)) return apply_saved_plan(options, global);
  Run run;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  const int started =
      start_run(options.path, options.runtime, global, options.destroy ? "destroy" : "apply", provider, run);
  if (started != 0) return started;
  if (!options.destroy && !cluster_profiles_ok(run)) return 1;
  const reconcile::Plan plan = make_plan(
      run, options.path, options.destroy ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply, options.no_prune);
  print_plan(plan, PlanFormat::Text, global.color);
  if (!options.destroy && !options.allow_empty && deletes_everything(plan, run.inventory)) {
    run.store->release_lock();
    error_line("this apply would delete every object mkq applied and create none; if that is what you want, run "
               "`mkq destroy` or apply with --allow-empty");
    return 1;
  }
  if (!plan.has_changes()) {
    run.store->release_lock();
    return plan.complete() ? 0 : 1;
  }
  if (!confirm(plan, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  return execute(run, plan, options, global);
}

}  // namespace mkq::cli
