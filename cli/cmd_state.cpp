// `mkq state list|show|unlock|rm` and `mkq history`: read the state database
// (runtime/state) and print it; `state unlock` and `state rm` are the writes,
// and neither touches a cluster. Results go to stdout, errors to stderr as
// "mkq: error: ...".
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "runtime/operation/hints.h"
#include "compiler/diag/diagnostic.h"
#include "runtime/state/state.h"

namespace mkq::cli {

namespace {

using operation::lock_held_message;
using operation::state_command;

using Json = nlohmann::ordered_json;

void print_error(const std::string& message) { std::fprintf(stderr, "mkq: error: %s\n", message.c_str()); }

void print_json(const Json& json) { std::fputs((json.dump(2) + "\n").c_str(), stdout); }

// Columns padded to their widest cell; the last column is not padded.
void print_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::fputs((line + "\n").c_str(), stdout);
  }
}

std::string or_dash(const std::string& text) { return text.empty() ? "-" : text; }

// Opens the state without creating it. nullptr and *missing when there is no
// file; nullptr with the error printed when it cannot be read.
std::unique_ptr<state::StateStore> open_state(const std::string& path, bool* missing) {
  *missing = false;
  std::string error;
  auto store = state::StateStore::open_existing(path, &error);
  if (store != nullptr) return store;
  if (error.empty()) {
    *missing = true;
  } else {
    print_error(error);
  }
  return nullptr;
}

Json entry_json(const state::InventoryEntry& e) {
  return Json{{"address", e.address},
              {"cluster", e.cluster},
              {"apiVersion", e.api_version},
              {"kind", e.kind},
              {"namespace", e.namespace_name},
              {"name", e.name},
              {"uid", e.uid},
              {"resourceVersion", e.resource_version},
              {"digest", e.digest},
              {"appliedAt", e.applied_at},
              {"runId", e.run_id},
              {"adopted", e.adopted}};
}

Json holder_json(const state::LockHolder& h) {
  return Json{{"command", h.command}, {"user", h.user}, {"host", h.host}, {"pid", h.pid}, {"since", h.since}};
}

std::size_t failed_count(const state::RunRecord& run) {
  return static_cast<std::size_t>(
      std::count_if(run.objects.begin(), run.objects.end(),
                    [](const state::ObjectOutcome& o) { return o.result == "failed"; }));
}

Json run_json(const state::RunRecord& run, bool with_objects) {
  Json json{{"id", run.id},
            {"startedAt", run.started_at},
            {"finishedAt", run.finished_at},
            {"command", run.command},
            {"policyDigest", run.policy_digest},
            {"result", run.result},
            {"serialBefore", run.serial_before},
            {"serialAfter", run.serial_after}};
  if (!with_objects) {
    json["objects"] = run.objects.size();
    json["failed"] = failed_count(run);
    return json;
  }
  json["objects"] = Json::array();
  for (const auto& o : run.objects) {
    json["objects"].push_back(
        Json{{"address", o.address}, {"action", o.action}, {"result", o.result}, {"message", o.message}});
  }
  return json;
}

int state_list(const state::StateStore& store, bool json) {
  const auto entries = store.inventory();
  if (!store.last_error().empty()) {
    print_error(store.last_error());
    return 1;
  }
  if (json) {
    Json out = Json::array();
    for (const auto& e : entries) out.push_back(entry_json(e));
    print_json(out);
    return 0;
  }
  if (entries.empty()) {
    std::puts("no objects in the state");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ADDRESS", "UID", "APPLIED"}};
  for (const auto& e : entries) rows.push_back({e.address, or_dash(e.uid), or_dash(e.applied_at)});
  print_table(rows);
  return 0;
}

int state_show(const state::StateStore& store, const std::string& address, bool json) {
  const auto found = store.find(address);
  if (!store.last_error().empty()) {
    print_error(store.last_error());
    return 1;
  }
  if (!found) {
    std::vector<std::string> addresses;
    for (const auto& e : store.inventory()) addresses.push_back(e.address);
    std::string message = "no object '" + address + "' in the state";
    if (const auto match = diag::closest_match(address, addresses))
      message += "; did you mean '" + *match + "'?";
    print_error(message);
    return 1;
  }
  if (json) {
    print_json(entry_json(*found));
    return 0;
  }
  print_table({{"address:", found->address},
               {"cluster:", found->cluster},
               {"apiVersion:", found->api_version},
               {"kind:", found->kind},
               {"namespace:", or_dash(found->namespace_name)},
               {"name:", found->name},
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
  const state::UnlockResult result = store.unlock(options.force, &holder);
  if (!store.last_error().empty()) {
    print_error(store.last_error());
    return 1;
  }
  if (result == state::UnlockResult::HolderRuns) {
    print_error("the lock is held by " + holder.describe() + ", which still runs on this host: let it finish (or " +
                "stop it); to release the lock anyway, run `" +
                state_command("state unlock", options.policy_path, options.state_option, {"--force"}) + "`");
    return 1;
  }
  const bool released = result == state::UnlockResult::Released;
  if (options.json) {
    print_json(Json{{"released", released ? holder_json(holder) : Json(nullptr)}});
    return 0;
  }
  if (!released) {
    std::puts("no lock held");
    return 0;
  }
  std::printf("released the lock of %s\n", holder.describe().c_str());
  if (holder.runs_here()) {
    std::fprintf(stderr, "mkq: warning: process %lld still runs; it may still be applying\n",
                 static_cast<long long>(holder.pid));
  }
  return 0;
}

// "no object 'a' in the state; did you mean 'b'?" for each unknown key.
void print_unknown(const std::vector<std::string>& unknown, const std::vector<std::string>& known, const char* what) {
  for (const std::string& key : unknown) {
    std::string message = std::string("no ") + what + " '" + key + "' in the state";
    if (const auto match = diag::closest_match(key, known)) message += "; did you mean '" + *match + "'?";
    print_error(message);
  }
}

// `mkq state rm ADDRESS...` / `--cluster NAME`: forget, under the state lock,
// and record what was forgotten in the history. No cluster is contacted.
int state_rm(state::StateStore& store, const StateCommandOptions& options) {
  if (options.addresses.empty() == options.clusters.empty()) {
    print_error("say what to forget: mkq state rm ADDRESS... or mkq state rm --cluster NAME");
    return 1;
  }
  state::LockHolder holder;
  switch (store.acquire_lock(state::LockHolder{"state rm", "", "", 0, ""}, &holder)) {
    case state::LockResult::Acquired: break;
    case state::LockResult::AcquiredStale:
      std::fprintf(stderr, "mkq: took over a stale lock: %s (the process no longer runs)\n", holder.describe().c_str());
      break;
    case state::LockResult::Held:
      print_error(store.last_error().empty()
                      ? lock_held_message(options.state_path, holder, options.policy_path, options.state_option)
                      : store.last_error());
      return 1;
  }
  state::ForgetResult result;
  std::string error;
  const bool by_cluster = !options.clusters.empty();
  const bool ok = by_cluster ? store.forget_clusters(options.clusters, &result, &error)
                             : store.forget(options.addresses, &result, &error);
  if (!ok) {
    print_error(error);
    return 1;
  }
  if (!result.unknown.empty()) {
    std::vector<std::string> known;
    for (const state::InventoryEntry& entry : store.inventory()) {
      const std::string& key = by_cluster ? entry.cluster : entry.address;
      if (known.empty() || known.back() != key) known.push_back(key);
    }
    print_unknown(result.unknown, known, by_cluster ? "object of cluster" : "object");
    print_error("nothing was forgotten");
    return 1;
  }
  const std::int64_t run_id = store.begin_run("state rm", "", &error);
  std::vector<state::StateWrite> outcomes;
  for (const state::InventoryEntry& entry : result.forgotten) {
    outcomes.push_back({state::StateWrite::Kind::Outcome, {}, "", run_id, {entry.address, "forget", "ok", ""}});
  }
  if (run_id == 0 || !store.record_batch(outcomes, &error) || !store.finish_run(run_id, "success", &error)) {
    std::fprintf(stderr, "mkq: warning: the objects were forgotten, but the history does not say so: %s\n",
                 error.c_str());
  }
  if (options.json) {
    Json out = Json::array();
    for (const state::InventoryEntry& entry : result.forgotten) out.push_back(entry_json(entry));
    print_json(Json{{"forgotten", std::move(out)}});
    return 0;
  }
  for (const state::InventoryEntry& entry : result.forgotten) std::printf("forgot %s\n", entry.address.c_str());
  std::printf("forgot %zu object%s; no cluster was touched\n", result.forgotten.size(),
              result.forgotten.size() == 1 ? "" : "s");
  return 0;
}

int history_run(const state::StateStore& store, const std::string& run_text, bool json) {
  std::int64_t id = 0;
  const char* end = run_text.data() + run_text.size();
  const auto [ptr, ec] = std::from_chars(run_text.data(), end, id);
  if (ec != std::errc() || ptr != end || id <= 0) {
    print_error("'" + run_text + "' is not a run id (a number from mkq history)");
    return 1;
  }
  const auto run = store.find_run(id);
  if (!store.last_error().empty()) {
    print_error(store.last_error());
    return 1;
  }
  if (!run) {
    print_error("no run " + run_text + " in the history");
    return 1;
  }
  if (json) {
    print_json(run_json(*run, true));
    return 0;
  }
  std::printf("run %lld: %s, %s\n", static_cast<long long>(run->id), run->command.c_str(),
              run->result.c_str());
  print_table({{"started:", run->started_at},
               {"finished:", or_dash(run->finished_at)},
               {"policy:", or_dash(run->policy_digest)},
               {"serial:", std::to_string(run->serial_before) + " -> " + std::to_string(run->serial_after)}});
  std::puts("");
  if (run->objects.empty()) {
    std::puts("no objects in this run");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ACTION", "ADDRESS", "RESULT", "MESSAGE"}};
  for (const auto& o : run->objects) rows.push_back({o.action, o.address, o.result, o.message});
  print_table(rows);
  return 0;
}

}  // namespace

int run_state(const StateCommandOptions& options, const GlobalOptions& /*global*/) {
  bool missing = false;
  auto store = open_state(options.state_path, &missing);
  if (store == nullptr && !missing) return 1;
  if (missing) {
    if (options.action == "list") {
      if (options.json) {
        print_json(Json::array());
      } else {
        std::printf("no state at %s\n", options.state_path.c_str());
      }
      return 0;
    }
    print_error("no state at " + options.state_path);
    return 1;
  }
  if (options.action == "list") return state_list(*store, options.json);
  if (options.action == "show") return state_show(*store, options.address, options.json);
  if (options.action == "unlock") return state_unlock(*store, options);
  if (options.action == "rm") return state_rm(*store, options);
  print_error("say what to do: mkq state list|show ADDRESS|unlock|rm");
  return 1;
}

int run_history(const HistoryOptions& options, const GlobalOptions& /*global*/) {
  bool missing = false;
  auto store = open_state(options.state_path, &missing);
  if (store == nullptr && !missing) return 1;
  if (missing) {
    if (!options.run.empty()) {
      print_error("no state at " + options.state_path);
      return 1;
    }
    if (options.json) {
      print_json(Json::array());
    } else {
      std::printf("no state at %s\n", options.state_path.c_str());
    }
    return 0;
  }
  if (!options.run.empty()) return history_run(*store, options.run, options.json);

  const auto runs = store->history(options.limit, true);
  if (!store->last_error().empty()) {
    print_error(store->last_error());
    return 1;
  }
  if (options.json) {
    Json out = Json::array();
    for (const auto& run : runs) out.push_back(run_json(run, false));
    print_json(out);
    return 0;
  }
  if (runs.empty()) {
    std::puts("no runs in the history");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ID", "STARTED", "COMMAND", "RESULT", "OBJECTS"}};
  for (const auto& run : runs) {
    std::string objects = std::to_string(run.objects.size());
    if (const std::size_t failed = failed_count(run); failed > 0)
      objects += " (" + std::to_string(failed) + " failed)";
    rows.push_back({std::to_string(run.id), run.started_at, run.command, run.result, objects});
  }
  print_table(rows);
  return 0;
}

}  // namespace mkq::cli
