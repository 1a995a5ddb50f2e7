// `mkq plan`, `mkq apply` and `mkq destroy`: compile, connect, lock (apply),
// refresh, plan (runtime/reconcile), show, confirm, apply, record. The steps
// are runtime/reconcile's; this file only strings them together and talks to
// the user.
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
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
#include "cli/hints.h"
#include "cli/interrupt.h"
#include "cli/session.h"
#include "compiler/diag/diagnostic.h"
#include "compiler/kueue/render.h"
#include "runtime/credentials/cluster_profile.h"
#include "runtime/reconcile/apply.h"
#include "runtime/reconcile/exclude.h"
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
// otherwise one plain line per finished object (and per object waited for).
// After an interrupt (`interrupt` set) the lines are drawn anew below the
// interrupt's notice instead of over it.
class ProgressPrinter {
 public:
  ProgressPrinter(const reconcile::Plan& plan, bool terminal, const std::atomic<bool>* interrupt)
      : terminal_(terminal && plan.has_changes()), interrupt_(interrupt) {
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

  void finish(const reconcile::ApplyReport& report) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (terminal_ && drawn_) {
      for (auto& [name, line] : lines_) {
        line.current = report.interrupted ? "interrupted" : line.failed ? "done with failures" : "done";
      }
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
      case reconcile::Action::Release: return "releasing";
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
      case reconcile::Action::Release: return "released";
      case reconcile::Action::NoOp: break;
    }
    return "unchanged";
  }

  void redraw() {
    if (interrupt_ != nullptr && interrupt_->load() && !redrawn_after_interrupt_) {
      redrawn_after_interrupt_ = true;
      drawn_ = false;  // the notice is below the lines: start anew under it
    }
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
  const std::atomic<bool>* interrupt_;
  bool drawn_ = false;
  bool redrawn_after_interrupt_ = false;
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
  std::string policy_path;  // as the user gave it (for the commands mkq suggests)
  RuntimeOptions runtime;
  bool destroy = false;  // a destroy: refresh reads what every namespace of the inventory holds
  Compilation compiled;
  std::unique_ptr<state::StateStore> store;  // null for a plan without a state file
  std::vector<state::InventoryEntry> inventory;
  Session session;
  reconcile::LiveState live;
  std::vector<reconcile::ExcludedCluster> excluded;  // --exclude-cluster: left out of `compiled.state` and `inventory`
};

// --exclude-cluster names a worker of the policy or a cluster of the state,
// never the manager. False with the message printed.
bool exclusions_ok(const std::vector<std::string>& names, const sema::model::Policy& policy,
                   const std::vector<state::InventoryEntry>& inventory) {
  std::vector<std::string> known;
  for (const sema::model::Worker& worker : policy.workers) known.push_back(worker.name);
  for (const state::InventoryEntry& entry : inventory) {
    if (entry.cluster != policy.manager.name && std::find(known.begin(), known.end(), entry.cluster) == known.end()) {
      known.push_back(entry.cluster);
    }
  }
  bool ok = true;
  for (const std::string& name : names) {
    if (name == policy.manager.name) {
      error_line("--exclude-cluster " + name + ": that is the manager; mkq cannot go on without it");
      ok = false;
    } else if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string message = "--exclude-cluster " + name + ": no worker of that name in the policy or the state";
      if (const auto match = diag::closest_match(name, known)) message += "; did you mean '" + *match + "'?";
      error_line(message);
      ok = false;
    }
  }
  return ok;
}

// Compiles, opens the state (creating it when `write`), locks it (when
// `lock_command` is set) and connects. Returns 0 or an exit code.
int start_run(const std::string& path, const RuntimeOptions& runtime, const GlobalOptions& global,
              const std::string& lock_command, const credentials::ProviderOptions& provider_options, Run& run) {
  run.policy_path = path;
  run.runtime = runtime;
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
  std::string took_over;  // said after the target line, which comes first
  if (!settle_identity(run.compiled, run.store ? run.store->policy() : "", runtime.state_path.empty(), state_path)) {
    return 1;
  }
  if (run.store && !lock_command.empty()) {
    state::LockHolder previous;
    switch (run.store->acquire_lock(this_process(lock_command), &previous)) {
      case state::LockResult::Acquired:
        break;
      case state::LockResult::AcquiredStale:
        took_over = previous.describe();
        break;
      case state::LockResult::Held:
        error_line(run.store->last_error().empty()
                       ? lock_held_message(state_path.string(), previous, path, runtime.state_path)
                       : run.store->last_error());
        return 1;
    }
  }
  if (run.store) {
    run.inventory = run.store->inventory();
    if (!run.store->last_error().empty()) {  // never an unreadable inventory taken for an empty one
      error_line(run.store->last_error());
      return 1;
    }
  }
  if (!exclusions_ok(runtime.exclude_clusters, *run.compiled.policy, run.inventory)) return 1;
  // What an interrupted credential rotation recorded: the provider finishes it.
  credentials::ProviderOptions with_intents = provider_options;
  if (run.store) {
    with_intents.unfinished = run.store->credential_intents();
    if (!run.store->last_error().empty()) {
      error_line(run.store->last_error());
      return 1;
    }
  }
  if (!open_session(*run.compiled.policy, path, clusters_only_in(run.inventory, *run.compiled.state), runtime,
                    global, with_intents, &run.session)) {
    return 1;
  }
  if (!took_over.empty()) {
    std::fprintf(stderr, "mkq: took over a stale lock: %s (the process no longer runs)\n", took_over.c_str());
  }
  reconcile::RefreshOptions refresh;
  refresh.parallelism = std::max(1, runtime.parallelism);
  refresh.destroy = run.destroy;
  const auto started = std::chrono::steady_clock::now();
  run.live = reconcile::refresh(*run.compiled.state, run.inventory, run.session.targets, refresh);
  if (!runtime.exclude_clusters.empty()) {
    run.excluded =
        reconcile::exclude_clusters(runtime.exclude_clusters, run.live, *run.compiled.state, run.inventory);
  }
  // A state from before identities were recorded: the identity its objects carry.
  if (run.store && run.store->policy().empty() && !run.inventory.empty() &&
      !settle_identity(run.compiled, reconcile::identity_in_use(run.inventory, run.live), runtime.state_path.empty(),
                       state_path)) {
    run.store->release_lock();
    return 1;
  }
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

reconcile::Plan make_plan(Run& run, const std::string& path, reconcile::PlanKind kind, bool no_prune,
                          const OwnershipOptions& ownership = {}) {
  reconcile::PlanOptions options;
  options.kind = kind;
  options.prune = !no_prune;
  options.take_over = ownership.take_over;
  options.delete_adopted = ownership.delete_adopted;
  const std::string lineage = run.store ? run.store->lineage() : "";
  reconcile::Plan plan = reconcile::make_plan(*run.compiled.state, run.inventory, lineage, run.live,
                                              run.session.credentials.get(), options);
  std::error_code ec;
  plan.policy_path = fs::absolute(path, ec).string();
  plan.policy_digest = policy_digest(*run.compiled.state);
  plan.lineage = lineage;
  plan.state_serial = run.store ? run.store->serial() : 0;
  plan.excluded = run.excluded;
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

// A saved plan is written owner-only (0600) whatever the umask -- it holds
// the policy's documents -- through a temporary file and a rename, so that an
// interrupted write never leaves half a plan.
bool write_plan_file(const reconcile::Plan& plan, const std::string& file) {
  const fs::path target(file);
  const fs::path temporary = target.string() + ".tmp." + std::to_string(getpid());
  const std::string text = reconcile::render_json(plan).dump(2) + "\n";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool written = fd >= 0 && ::fchmod(fd, 0600) == 0;
  for (std::size_t done = 0; written && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    written = n > 0;
    if (written) done += static_cast<std::size_t>(n);
  }
  const std::string why = written ? "" : std::strerror(errno);
  if (fd >= 0 && ::close(fd) != 0) written = false;
  if (!written) {
    error_line("cannot write the plan to " + file + (why.empty() ? "" : ": " + why));
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return false;
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    error_line("cannot write the plan to " + file + ": " + ec.message());
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return false;
  }
  return true;
}

// A plan that changes what is not this policy's (plan.h: refusals) is
// refused before anything changes; true when refused (message printed).
bool refused(const reconcile::Plan& plan, Run& run) {
  const std::vector<std::string> refusals = plan.refusals();
  if (refusals.empty()) return false;
  if (run.store) run.store->release_lock();
  std::string message = "apply refuses this plan; nothing was changed:";
  for (const std::string& refusal : refusals) message += "\n  " + refusal;
  error_line(message + "\nan object owned by another policy becomes this one's only with --take-over");
  return true;
}

// What a run carries out, in the history's words and the outcome's.
struct Operation {
  std::string command;  // the history's and the next step's: "apply", "destroy", "credentials rotate"
  std::string title;    // "Apply", "Destroy", "Rotation"
  std::string path;     // the policy, as the next step names it
  RuntimeOptions runtime;
  std::vector<std::string> extra_args;  // the next step's further arguments ("--cluster", "w1")
};

// `mkq COMMAND PATH ...` to paste as is (cli/hints.h).
std::string command_line(const std::string& command, const Operation& operation) {
  return run_command(command, operation.path, operation.runtime, operation.extra_args);
}

std::string history_line(std::int64_t run_id, const Operation& operation) {
  return state_command("history", operation.path, operation.runtime.state_path, {std::to_string(run_id)});
}

std::string count_of(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// "7 done, 1 failed, 2 skipped" (the parts that are not zero, "done" always).
std::string tally(int done, int failed, int skipped, int not_started) {
  std::string text = std::to_string(done) + " done";
  if (failed > 0) text += ", " + std::to_string(failed) + " failed";
  if (skipped > 0) text += ", " + std::to_string(skipped) + " skipped";
  if (not_started > 0) text += ", " + std::to_string(not_started) + " not started";
  return text;
}

// The outcome of a run, drawn from its report (runtime/reconcile decides, this
// only draws): "X complete!" only when it succeeded; otherwise the headline,
// per cluster what was done, skipped and failed (an unreachable cluster:
// "unreachable: changes unknown"), the failures, the objects not Active, and
// the command to run next. `run_id` 0: no run was recorded (nothing to change).
// Returns the exit code: 0, 1, or kInterruptedExit.
int print_outcome(const reconcile::ApplyReport& report, const Operation& operation, std::int64_t run_id) {
  int added = 0, changed = 0, destroyed = 0, released = 0, planned = 0, failed = 0, skipped = 0, not_started = 0;
  for (const reconcile::ObjectResult& result : report.results) {
    if (!result.ok()) continue;
    switch (result.action) {
      case reconcile::Action::Create: ++added; break;
      case reconcile::Action::Update: ++changed; break;
      case reconcile::Action::Delete: ++destroyed; break;
      case reconcile::Action::Replace: ++added; ++destroyed; break;
      case reconcile::Action::Release: ++released; break;
      case reconcile::Action::NoOp: break;
    }
  }
  std::vector<std::string> unreachable;
  for (const reconcile::ClusterOutcome& cluster : report.clusters) {
    planned += cluster.planned();
    failed += cluster.failed;
    skipped += cluster.skipped;
    not_started += cluster.not_started;
    if (!cluster.reachable) unreachable.push_back(cluster.cluster);
  }
  std::string resources = std::to_string(added) + " added, " + std::to_string(changed) + " changed, " +
                          std::to_string(destroyed) + " destroyed";
  if (released > 0) resources += ", " + std::to_string(released) + " released";
  if (report.success()) {
    if (planned > 0) {
      std::printf("\n%s complete! Resources: %s.\n", operation.title.c_str(), resources.c_str());
    } else if (report.waited > 0) {
      std::printf("\nEvery Kueue object is Active (%d of %d).\n", report.waited, report.waited);
    }
    return 0;
  }

  const int done = report.done();
  const reconcile::RunResult ending = report.result();
  std::string headline = operation.title + (ending == reconcile::RunResult::Interrupted ? " interrupted: "
                                            : ending == reconcile::RunResult::Failed    ? " failed: "
                                                                                        : " incomplete: ");
  if (planned > 0) {
    headline += std::to_string(done) + " of " + count_of(planned, "change", "changes") + " done (" + resources + ")";
    if (failed > 0) headline += ", " + std::to_string(failed) + " failed";
    if (skipped > 0) headline += ", " + std::to_string(skipped) + " skipped";
    if (not_started > 0) headline += ", " + std::to_string(not_started) + " not started";
  } else {
    headline += unreachable.empty() ? "no changes" : "no changes on the clusters that were read";
  }
  if (!unreachable.empty()) {
    headline += "; " + count_of(static_cast<int>(unreachable.size()), "cluster", "clusters") +
                " could not be read: " + (unreachable.size() == 1 ? "its" : "their") + " changes are unknown";
  }
  if (!report.wait_failures.empty()) {
    headline += "; " + std::to_string(report.wait_failures.size()) + " of " +
                count_of(report.waited, "Kueue object", "Kueue objects") + " not Active";
  }
  std::printf("\n%s.\n", headline.c_str());

  std::size_t width = 0;
  for (const reconcile::ClusterOutcome& cluster : report.clusters) width = std::max(width, cluster.cluster.size());
  for (const reconcile::ClusterOutcome& cluster : report.clusters) {
    std::string text;
    if (!cluster.reachable) {
      text = "unreachable: changes unknown (" + cluster.error + ")";
      if (cluster.planned() > 0) {
        text += "; " + tally(cluster.done, cluster.failed, cluster.skipped, cluster.not_started);
      }
    } else if (cluster.planned() == 0) {
      text = "no changes";
    } else {
      text = tally(cluster.done, cluster.failed, cluster.skipped, cluster.not_started);
    }
    std::printf("  %-*s  %s\n", static_cast<int>(width), cluster.cluster.c_str(), text.c_str());
  }

  bool any_failure = false;
  for (const reconcile::ObjectResult& result : report.results) {
    if (result.outcome != reconcile::Outcome::Failed && result.outcome != reconcile::Outcome::Skipped) continue;
    if (!any_failure) std::printf("Failures:\n");
    any_failure = true;
    if (result.address.empty()) {
      std::printf("  %s\n", result.message.c_str());
    } else {
      std::printf("  %s: %s\n", result.address.c_str(), result.message.c_str());
    }
  }
  if (!report.wait_failures.empty()) std::printf("Not Active:\n");
  for (const std::string& failure : report.wait_failures) std::printf("  %s\n", failure.c_str());

  // The next step: what to run, once what stopped this run is dealt with.
  const bool only_not_active = !any_failure && unreachable.empty() && !report.interrupted;
  if (only_not_active) {
    std::printf("Next: see every object's condition with\n  %s\n", command_line("status", operation).c_str());
  } else {
    std::string when;
    if (!unreachable.empty()) {
      std::string names;
      for (const std::string& name : unreachable) names += (names.empty() ? "" : ", ") + name;
      when = "once " + names + " can be read, ";
    } else if (any_failure) {
      when = "once what failed is fixed, ";
    }
    std::string what = "apply what is left (it shows the plan first)";
    if (operation.command == "destroy") what = "destroy what is left";
    if (operation.command == "credentials rotate") what = "rotate again";
    std::printf("Next: %s%s:\n  %s\n", when.c_str(), what.c_str(), command_line(operation.command, operation).c_str());
  }
  if (run_id > 0) std::printf("Every object's outcome: %s\n", history_line(run_id, operation).c_str());
  return report.interrupted ? kInterruptedExit : 1;
}

int execute(Run& run, const reconcile::Plan& plan, const ApplyCommandOptions& options, const GlobalOptions& global,
            const Operation& operation) {
  std::string error;
  const std::int64_t run_id = run.store->begin_run(operation.command, plan.policy_digest, &error);
  if (run_id == 0) {
    error_line(error);
    run.store->release_lock();
    return 1;
  }
  // From here an interrupt stops the run cleanly: nothing new starts, the
  // state is written, the lock released and the outcome printed.
  const InterruptScope interrupt;
  reconcile::ApplyOptions apply;
  apply.parallelism = std::max(1, options.runtime.parallelism);
  apply.force_conflicts = options.force_conflicts;
  apply.cancel = interrupt.token();
  if (options.wait) {
    std::chrono::milliseconds wait{};
    parse_duration(options.wait_duration, &wait);  // checked by the caller
    apply.wait = wait;
  }
  ProgressPrinter printer(plan, isatty(STDERR_FILENO) == 1, interrupt.token());
  apply.progress = [&printer](const reconcile::ProgressEvent& event) { printer.on_event(event); };
  const auto started = std::chrono::steady_clock::now();
  int requests_before = 0, retries_before = 0;
  for (const auto& client : run.session.clients) {
    requests_before += client->stats().requests;
    retries_before += client->stats().retries;
  }
  const reconcile::ApplyReport report =
      reconcile::apply_plan(plan, run.session.targets, *run.store, run_id, run.session.credentials.get(), apply);
  printer.finish(report);
  if (global.verbose) {
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - started;
    int requests = -requests_before, retries = -retries_before, connections = 0;
    for (const auto& client : run.session.clients) {
      requests += client->stats().requests;
      retries += client->stats().retries;
      connections += client->stats().connections;
    }
    std::fprintf(stderr, "mkq: %-7s %8.1f ms (%d requests, %d retried, %d TLS connections in all)\n",
                 operation.command.c_str(), took.count(), requests, retries, connections);
  }
  if (!run.store->finish_run(run_id, reconcile::run_result_name(report.result()), &error)) error_line(error);
  run.store->release_lock();
  return print_outcome(report, operation, run_id);
}

// A plan without changes: exit 0 only when every cluster was read and, with
// --wait, every Kueue object of the plan is Active (verified, not assumed).
// The lock is released first: nothing is written.
int finish_without_changes(Run& run, const reconcile::Plan& plan, const ApplyCommandOptions& options,
                           const Operation& operation) {
  run.store->release_lock();
  reconcile::ApplyOptions verify;
  verify.parallelism = std::max(1, options.runtime.parallelism);
  if (!options.wait) return print_outcome(reconcile::verify_plan(plan, run.session.targets, verify), operation, 0);
  std::chrono::milliseconds wait{};
  parse_duration(options.wait_duration, &wait);  // checked by the caller
  verify.wait = wait;
  const InterruptScope interrupt;  // an interrupt stops the wait and reports
  verify.cancel = interrupt.token();
  ProgressPrinter printer(plan, isatty(STDERR_FILENO) == 1, interrupt.token());
  verify.progress = [&printer](const reconcile::ProgressEvent& event) { printer.on_event(event); };
  const reconcile::ApplyReport report = reconcile::verify_plan(plan, run.session.targets, verify);
  printer.finish(report);
  return print_outcome(report, operation, 0);
}

Operation operation_of(const std::string& command, const std::string& path, const RuntimeOptions& runtime) {
  Operation operation;
  operation.command = command;
  operation.title = command == "destroy" ? "Destroy" : command == "credentials rotate" ? "Rotation" : "Apply";
  operation.path = path;
  operation.runtime = runtime;
  return operation;
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
  run.destroy = saved->kind == reconcile::PlanKind::Destroy;
  const std::string policy_path = saved->policy_path;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  // The plan's exclusions are part of it: applied again, whatever the command line repeats.
  RuntimeOptions runtime = options.runtime;
  runtime.exclude_clusters.clear();
  for (const reconcile::ExcludedCluster& excluded : saved->excluded) runtime.exclude_clusters.push_back(excluded.cluster);
  std::set<std::string> given(options.runtime.exclude_clusters.begin(), options.runtime.exclude_clusters.end());
  if (!given.empty() && given != std::set<std::string>(runtime.exclude_clusters.begin(), runtime.exclude_clusters.end())) {
    error_line("the saved plan " + options.path + " was made with other --exclude-cluster options; make the plan "
               "again with the ones you want");
    return 1;
  }
  const int started = start_run(policy_path, runtime, global,
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
    error_line(message + "\nrun `" + run_command("plan", policy_path, run.runtime, {"--out", options.path}) +
               "` again");
    return 1;
  }
  // Only what was checked is applied: the plan made again now must be the saved one.
  OwnershipOptions ownership;
  ownership.take_over = saved->options.take_over;
  ownership.delete_adopted = saved->options.delete_adopted;
  const std::string difference = reconcile::first_difference(
      *saved, make_plan(run, policy_path, saved->kind, !saved->options.prune, ownership));
  if (!difference.empty()) {
    run.store->release_lock();
    error_line("the saved plan " + options.path + " is not what the policy plans; nothing was changed:\n  " +
               difference + "\nrun `" + run_command("plan", policy_path, run.runtime, {"--out", options.path}) +
               "` again");
    return 1;
  }
  print_plan(*saved, PlanFormat::Text, global.color);
  if (refused(*saved, run)) return 1;
  ApplyCommandOptions effective = options;
  effective.destroy = saved->kind == reconcile::PlanKind::Destroy;
  // The next step names the policy: a saved plan is stale once applied.
  const Operation operation = operation_of(effective.destroy ? "destroy" : "apply", policy_path, options.runtime);
  if (!saved->has_changes()) return finish_without_changes(run, *saved, effective, operation);
  if (!confirm(*saved, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  return execute(run, *saved, effective, global, operation);
}

// What `mkq credentials rotate` applies: only the credential changes (the
// provider, with force_rotate, re-issues every selected worker's kubeconfig
// Secret; storing it deletes the anchor Secrets the old tokens are bound to,
// which revokes them -- no ServiceAccount change). Every other change of the
// plan is left for `mkq apply`. A worker not selected (`selected` names some)
// is not part of the rotation, reachable or not.
reconcile::Plan rotation_plan(const reconcile::Plan& full, const sema::model::Policy& policy,
                              const kueue::DesiredState& desired, const std::vector<std::string>& selected) {
  (void)policy, (void)desired;  // the provider already chose what to re-issue
  reconcile::Plan plan = full;
  if (!selected.empty()) {
    const auto unselected = [&selected](const reconcile::ClusterPlan& cluster) {
      return cluster.role == kueue::ClusterRole::Worker &&
             std::find(selected.begin(), selected.end(), cluster.cluster) == selected.end();
    };
    plan.clusters.erase(std::remove_if(plan.clusters.begin(), plan.clusters.end(), unselected), plan.clusters.end());
  }
  for (reconcile::ClusterPlan& cluster : plan.clusters) {
    for (reconcile::Change& change : cluster.changes) {
      if (change.credential || !change.revokes_token_of.empty()) continue;  // a rotation finishes an interrupted one
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
  ApplyCommandOptions apply;
  apply.runtime = options.runtime;
  Operation operation = operation_of("credentials rotate", options.path, options.runtime);
  for (const std::string& name : options.clusters) {
    operation.extra_args.insert(operation.extra_args.end(), {"--cluster", name});
  }
  if (!plan.has_changes()) {
    if (!plan.complete()) return finish_without_changes(run, plan, apply, operation);
    run.store->release_lock();
    std::fputs("mkq: no worker uses credentials mkq issues (service-account mode without a pre-issued token)\n",
               stderr);
    return 0;
  }
  if (!confirm(plan, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  return execute(run, plan, apply, global, operation);
}

int run_plan(const PlanCommandOptions& options, const GlobalOptions& global) {
  Run run;
  run.destroy = options.destroy;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  const int started = start_run(options.path, options.runtime, global, "", provider, run);
  if (started != 0) return started;
  if (!options.destroy && !cluster_profiles_ok(run)) return 1;
  const reconcile::Plan plan =
      make_plan(run, options.path, options.destroy ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply,
                options.no_prune, options.ownership);
  print_plan(plan, options.format, global.color);
  if (!options.out.empty() && !write_plan_file(plan, options.out)) return 1;
  if (!options.out.empty()) {
    std::fprintf(stderr, "mkq: saved the plan to %s; apply it with `%s`\n", options.out.c_str(),
                 run_command("apply", options.out, options.runtime).c_str());
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
  run.destroy = options.destroy;
  credentials::ProviderOptions provider;
  if (!provider_options(&provider)) return 1;
  const int started =
      start_run(options.path, options.runtime, global, options.destroy ? "destroy" : "apply", provider, run);
  if (started != 0) return started;
  if (!options.destroy && !cluster_profiles_ok(run)) return 1;
  const reconcile::Plan plan =
      make_plan(run, options.path, options.destroy ? reconcile::PlanKind::Destroy : reconcile::PlanKind::Apply,
                options.no_prune, options.ownership);
  print_plan(plan, PlanFormat::Text, global.color);
  if (refused(plan, run)) return 1;
  if (!options.destroy && !options.allow_empty && plan.removes_everything()) {
    run.store->release_lock();
    error_line("this apply would delete every object mkq applied and create none; if that is what you want, run `" +
               run_command("destroy", options.path, options.runtime) + "` or apply with --allow-empty");
    return 1;
  }
  const Operation operation = operation_of(options.destroy ? "destroy" : "apply", options.path, options.runtime);
  if (!plan.has_changes()) return finish_without_changes(run, plan, options, operation);
  if (!confirm(plan, options.auto_approve)) {
    run.store->release_lock();
    return 1;
  }
  return execute(run, plan, options, global, operation);
}

}  // namespace mkq::cli
