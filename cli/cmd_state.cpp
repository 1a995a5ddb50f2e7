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
#include "runtime/operation/state_edit.h"
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
  using Outcome = operation::UnlockResult::Outcome;
  const operation::UnlockResult result = operation::unlock_state(store, options.force);
  const state::LockHolder& holder = result.holder;
  switch (result.outcome) {
    case Outcome::Failed: error_line(base::render(*result.error)); return 1;
    case Outcome::HolderRuns:
      error_line(fmt::format(
          "the lock is held by {}, which still runs on this host: let it finish (or stop it); to release the lock "
          "anyway, run `{}`",
          holder.describe(), state_command("state unlock", options.policy_path, options.state_option, {"--force"})));
      return 1;
    case Outcome::NotLocked:
    case Outcome::Released: break;
  }
  const bool released = result.outcome == Outcome::Released;
  if (options.json) {
    print_document(Json{{"released", released ? holder_json(holder) : Json(nullptr)}});
    return 0;
  }
  if (!released) {
    base::print("no lock held\n");
    return 0;
  }
  base::print("released the lock of {}\n", holder.describe());
  if (result.holder_still_runs) {
    base::print(stderr, "mkq: warning: process {} still runs; it may still be applying\n", holder.pid);
  }
  return 0;
}

// "no object 'a' in the state; did you mean 'b'?" for each unknown key.
void print_unknown(const std::vector<operation::UnknownKey>& unknown, const char* what) {
  for (const operation::UnknownKey& key : unknown) {
    std::string message = fmt::format("no {} '{}' in the state", what, key.key);
    if (key.closest) message += fmt::format("; did you mean '{}'?", *key.closest);
    error_line(message);
  }
}

// `mkq state rm ADDRESS...` / `--cluster NAME`: the operation
// (runtime/operation/state_edit.h) drawn. No cluster is contacted.
int state_rm(state::StateStore& store, const StateCommandOptions& options) {
  using Outcome = operation::ForgetResult::Outcome;
  const operation::ForgetResult result =
      operation::forget_objects(store, {options.addresses, options.clusters});
  const state::LockHolder& holder = result.holder;
  if (result.took_over_stale) {
    base::print(stderr, "mkq: took over a stale lock: {} ({})\n", holder.describe(), holder.why_stale());
  }
  switch (result.outcome) {
    case Outcome::BadRequest:
      error_line("say what to forget: mkq state rm ADDRESS... or mkq state rm --cluster NAME");
      return 1;
    case Outcome::Failed: error_line(base::render(*result.error)); return 1;
    case Outcome::LockHeld:
      error_line(lock_held_message(options.state_path, holder, options.policy_path, options.state_option));
      return 1;
    case Outcome::Unknown:
      print_unknown(result.unknown, options.clusters.empty() ? "object" : "object of cluster");
      error_line("nothing was forgotten");
      return 1;
    case Outcome::Forgotten: break;
  }
  if (result.unrecorded) {
    base::print(stderr, "mkq: warning: the objects were forgotten, but the history does not say so: {}\n",
                base::render(*result.unrecorded));
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
