// `mkq state list|show|unlock|rm|push|pull`: read the state database
// (runtime/state) and print it; `state unlock`, `state rm` and `state push|pull`
// are the writes, and none touches a cluster's policy objects (`mkq history`
// is cmd_history.cpp, `state push|pull` cmd_state_transfer.cpp). Results go to
// stdout, errors to stderr as "mkq: error: ...".
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/state_output.h"
#include "cli/terminal_ui.h"
#include "compiler/diag/diagnostic.h"
#include "runtime/operation/hints.h"
#include "runtime/operation/lock.h"
#include "runtime/state/state.h"

namespace mkq::cli {

namespace {

using operation::lock_held_message;
using operation::state_command;

using Json = OrderedJson;

Json entry_json(const state::InventoryEntry& e) {
  return Json{{"address", e.ref.address()},
              {"cluster", e.ref.cluster},
              {"api_version", e.ref.api_version},
              {"kind", e.ref.kind},
              {"namespace", e.ref.namespace_name},
              {"name", e.ref.name},
              {"uid", e.uid},
              {"resource_version", e.resource_version},
              {"digest", e.digest},
              {"applied_at", e.applied_at},
              {"run_id", e.run_id},
              {"adopted", e.adopted}};
}

Json holder_json(const state::LockHolder& h) {
  return Json{{"command", h.command}, {"user", h.user}, {"host", h.host}, {"pid", h.pid}, {"since", h.since}};
}

int state_list(const state::StateStore& store, bool json) {
  const base::Result<std::vector<state::InventoryEntry>> inventory = store.inventory();
  if (!inventory) {
    error_line(base::render(inventory.error()));
    return 1;
  }
  const std::vector<state::InventoryEntry>& entries = *inventory;
  if (json) {
    Json out = Json::array();
    for (const auto& e : entries) out.push_back(entry_json(e));
    print_document(Json{{"objects", std::move(out)}});
    return 0;
  }
  if (entries.empty()) {
    base::print("no objects in the state\n");
    warn_orphaned_chunks(store);
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ADDRESS", "UID", "APPLIED"}};
  for (const auto& e : entries) rows.push_back({e.ref.address(), or_dash(e.uid), or_dash(e.applied_at)});
  print_table(rows);
  warn_orphaned_chunks(store);
  return 0;
}

int state_show(const state::StateStore& store, const std::string& address, bool json) {
  const base::Result<std::optional<state::InventoryEntry>> entry = store.find(address);
  if (!entry) {
    error_line(base::render(entry.error()));
    return 1;
  }
  const std::optional<state::InventoryEntry>& found = *entry;
  if (!found) {
    const base::Result<std::vector<state::InventoryEntry>> inventory = store.inventory();
    std::vector<std::string> addresses;  // for "did you mean": none when the inventory cannot be read
    if (inventory) {
      for (const auto& e : *inventory) addresses.push_back(e.ref.address());
    }
    std::string message = fmt::format("no object '{}' in the state", address);
    if (const auto match = diag::closest_match(address, addresses)) {
      message += fmt::format("; did you mean '{}'?", *match);
    }
    error_line(message);
    return 1;
  }
  if (json) {
    print_document(entry_json(*found));
    return 0;
  }
  print_table({{"address:", found->ref.address()},
               {"cluster:", found->ref.cluster},
               {"apiVersion:", found->ref.api_version},
               {"kind:", found->ref.kind},
               {"namespace:", or_dash(found->ref.namespace_name)},
               {"name:", found->ref.name},
               {"uid:", or_dash(found->uid)},
               {"resourceVersion:", or_dash(found->resource_version)},
               {"digest:", or_dash(found->digest)},
               {"applied:", or_dash(found->applied_at)},
               {"run:", std::to_string(found->run_id)},
               {"adopted:", found->adopted ? "yes: it existed before mkq, which releases it rather than delete it" : "no"}});
  return 0;
}

int state_unlock(state::StateStore& store, const StateCommandOptions& options) {
  state::LockHolder holder;
  const base::Result<state::UnlockResult> unlocked = store.unlock(options.force, &holder);
  if (!unlocked) {
    error_line(base::render(unlocked.error()));
    return 1;
  }
  const state::UnlockResult result = *unlocked;
  if (result == state::UnlockResult::HolderRuns) {
    error_line(fmt::format(
        "the lock is held by {}, which still runs on this host: let it finish (or stop it); to release the lock "
        "anyway, run `{}`",
        holder.describe(), state_command("state unlock", options.policy_path, options.state_option, {"--force"})));
    return 1;
  }
  const bool released = result == state::UnlockResult::Released;
  if (options.json) {
    print_document(Json{{"released", released ? holder_json(holder) : Json(nullptr)}});
    return 0;
  }
  if (!released) {
    base::print("no lock held\n");
    return 0;
  }
  base::print("released the lock of {}\n", holder.describe());
  if (holder.runs_here()) {
    base::print(stderr, "mkq: warning: process {} still runs; it may still be applying\n", holder.pid);
  }
  return 0;
}

// "no object 'a' in the state; did you mean 'b'?" for each unknown key.
void print_unknown(const std::vector<std::string>& unknown, const std::vector<std::string>& known, const char* what) {
  for (const std::string& key : unknown) {
    std::string message = fmt::format("no {} '{}' in the state", what, key);
    if (const auto match = diag::closest_match(key, known)) message += fmt::format("; did you mean '{}'?", *match);
    error_line(message);
  }
}

// What `state rm` could have forgotten, for "did you mean": the inventory's
// addresses, or its clusters; none when the inventory cannot be read.
std::vector<std::string> known_keys(const state::StateStore& store, bool by_cluster) {
  const base::Result<std::vector<state::InventoryEntry>> inventory = store.inventory();
  std::vector<std::string> known;
  if (!inventory) return known;
  for (const state::InventoryEntry& entry : *inventory) {
    const std::string& key = by_cluster ? entry.ref.cluster : entry.ref.address();
    if (known.empty() || known.back() != key) known.push_back(key);
  }
  return known;
}

// `mkq state rm ADDRESS...` / `--cluster NAME`: forget, under the state lock,
// and record what was forgotten in the history. No cluster is contacted.
int state_rm(state::StateStore& store, const StateCommandOptions& options) {
  if (options.addresses.empty() == options.clusters.empty()) {
    error_line("say what to forget: mkq state rm ADDRESS... or mkq state rm --cluster NAME");
    return 1;
  }
  state::LockHolder holder;
  operation::StateLock lock;
  const base::Result<state::LockResult> locked =
      lock.acquire(store, state::LockHolder{"state rm", "", "", 0, ""}, &holder);
  if (!locked) {
    error_line(base::render(locked.error()));
    return 1;
  }
  switch (*locked) {
    case state::LockResult::Acquired: break;
    case state::LockResult::AcquiredStale:
      base::print(stderr, "mkq: took over a stale lock: {} ({})\n", holder.describe(), holder.why_stale());
      break;
    case state::LockResult::Held:
      error_line(lock_held_message(options.state_path, holder, options.policy_path, options.state_option));
      return 1;
  }
  const bool by_cluster = !options.clusters.empty();
  const base::Result<state::ForgetResult> forgot =
      by_cluster ? store.forget_clusters(options.clusters) : store.forget(options.addresses);
  if (!forgot) {
    error_line(base::render(forgot.error()));
    return 1;
  }
  const state::ForgetResult& result = *forgot;
  if (!result.unknown.empty()) {
    print_unknown(result.unknown, known_keys(store, by_cluster), by_cluster ? "object of cluster" : "object");
    error_line("nothing was forgotten");
    return 1;
  }
  std::vector<state::ObjectOutcome> outcomes;
  for (const state::InventoryEntry& entry : result.forgotten) {
    outcomes.push_back({entry.ref.address(), "forget", "ok", ""});
  }
  const base::Result<std::int64_t> recorded = state::record_finished_run(store, "state rm", outcomes, "success");
  if (!recorded) {
    base::print(stderr, "mkq: warning: the objects were forgotten, but the history does not say so: {}\n",
                base::render(recorded.error()));
  }
  if (options.json) {
    Json out = Json::array();
    for (const state::InventoryEntry& entry : result.forgotten) out.push_back(entry_json(entry));
    print_document(Json{{"forgotten", std::move(out)}});
    return 0;
  }
  for (const state::InventoryEntry& entry : result.forgotten) base::print("forgot {}\n", entry.ref.address());
  base::print("forgot {} object{}; no cluster was touched\n", result.forgotten.size(),
              result.forgotten.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

int run_state(const StateCommandOptions& options, const GlobalOptions& /*global*/) {
  if (options.action == "push" || options.action == "pull") return run_state_transfer(options);
  bool missing = false;
  auto store = open_state(options.state_path, options.runtime, options.policy_path, &missing);
  if (store == nullptr && !missing) return 1;
  if (missing) {
    if (options.action == "list") {
      if (options.json) {
        print_document(Json{{"objects", Json::array()}});
      } else {
        base::print("no state at {}\n", options.state_path);
      }
      return 0;
    }
    error_line("no state at " + options.state_path);
    return 1;
  }
  if (options.action == "list") return state_list(*store, options.json);
  if (options.action == "show") return state_show(*store, options.address, options.json);
  if (options.action == "unlock") return state_unlock(*store, options);
  if (options.action == "rm") return state_rm(*store, options);
  error_line("say what to do: mkq state list|show ADDRESS|unlock|rm|push|pull");
  return 1;
}

}  // namespace mkq::cli
