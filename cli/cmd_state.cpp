// `mkq state list|show|unlock` and `mkq history`: read the state database
// (runtime/state) and print it; `state unlock` is the one write. Results go to
// stdout, errors to stderr as "mkq: error: ...".
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "compiler/diag/diagnostic.h"
#include "runtime/state/state.h"

namespace mkq::cli {

namespace {

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

// True when the holder is a process that still runs on this machine.
bool holder_still_runs(const state::LockHolder& holder) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || holder.host != host) return false;
  if (holder.pid <= 0 || holder.pid > 0x7fffffff) return false;
  return kill(static_cast<pid_t>(holder.pid), 0) == 0 || errno == EPERM;
}

int state_unlock(state::StateStore& store, bool json) {
  const auto released = store.force_unlock();
  if (!store.last_error().empty()) {
    print_error(store.last_error());
    return 1;
  }
  if (json) {
    print_json(Json{{"released", released ? holder_json(*released) : Json(nullptr)}});
    return 0;
  }
  if (!released) {
    std::puts("no lock held");
    return 0;
  }
  std::printf("released the lock of %s\n", released->describe().c_str());
  if (holder_still_runs(*released)) {
    std::fprintf(stderr, "mkq: warning: process %lld still runs; it may still be applying\n",
                 static_cast<long long>(released->pid));
  }
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
  if (options.action == "unlock") return state_unlock(*store, options.json);
  print_error("say what to do: mkq state list|show ADDRESS|unlock");
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
