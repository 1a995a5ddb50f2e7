// `mkq history [RUN]`: the runs recorded in the state (runtime/state), newest
// first, or one run's objects. Results go to stdout, errors to stderr as
// "mkq: error: ...".
#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/print.h"
#include "cli/commands.h"
#include "cli/state_output.h"
#include "cli/terminal_ui.h"

namespace mkq::cli {

namespace {

using Json = OrderedJson;

std::size_t failed_count(const state::RunRecord& run) {
  return static_cast<std::size_t>(
      std::count_if(run.objects.begin(), run.objects.end(),
                    [](const state::ObjectOutcome& o) { return o.result == "failed"; }));
}

Json run_json(const state::RunRecord& run, bool with_objects) {
  Json json{{"id", run.id},
            {"started_at", run.started_at},
            {"finished_at", run.finished_at},
            {"command", run.command},
            {"policy_digest", run.policy_digest},
            {"result", run.result},
            {"serial_before", run.serial_before},
            {"serial_after", run.serial_after}};
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

int history_run(const state::StateStore& store, const std::string& run_text, bool json) {
  std::int64_t id = 0;
  const char* end = run_text.data() + run_text.size();
  const auto [ptr, ec] = std::from_chars(run_text.data(), end, id);
  if (ec != std::errc() || ptr != end || id <= 0) {
    error_line(fmt::format("'{}' is not a run id (a number from mkq history)", run_text));
    return 1;
  }
  const base::Result<std::optional<state::RunRecord>> found = store.find_run(id);
  if (!found) {
    error_line(base::render(found.error()));
    return 1;
  }
  const std::optional<state::RunRecord>& run = *found;
  if (!run) {
    error_line(fmt::format("no run {} in the history", run_text));
    return 1;
  }
  if (json) {
    print_document(run_json(*run, true));
    return 0;
  }
  base::print("run {}: {}, {}\n", run->id, run->command, run->result);
  print_table({{"started:", run->started_at},
               {"finished:", or_dash(run->finished_at)},
               {"policy:", or_dash(run->policy_digest)},
               {"serial:", fmt::format("{} -> {}", run->serial_before, run->serial_after)}});
  base::print("\n");
  if (run->objects.empty()) {
    base::print("no objects in this run\n");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ACTION", "ADDRESS", "RESULT", "MESSAGE"}};
  for (const auto& o : run->objects) rows.push_back({o.action, o.address, o.result, o.message});
  print_table(rows);
  return 0;
}

}  // namespace

int run_history(const HistoryOptions& options, const GlobalOptions& /*global*/) {
  bool missing = false;
  auto store = open_state(options.state_path, options.runtime, options.policy_path, &missing);
  if (store == nullptr && !missing) return 1;
  if (missing) {
    if (!options.run.empty()) {
      error_line("no state at " + options.state_path);
      return 1;
    }
    if (options.json) {
      print_document(Json{{"runs", Json::array()}});
    } else {
      base::print("no state at {}\n", options.state_path);
    }
    return 0;
  }
  if (!options.run.empty()) return history_run(*store, options.run, options.json);

  const base::Result<std::vector<state::RunRecord>> history = store->history(options.limit, true);
  if (!history) {
    error_line(base::render(history.error()));
    return 1;
  }
  const std::vector<state::RunRecord>& runs = *history;
  if (options.json) {
    Json out = Json::array();
    for (const auto& run : runs) out.push_back(run_json(run, false));
    print_document(Json{{"runs", std::move(out)}});
    return 0;
  }
  if (runs.empty()) {
    base::print("no runs in the history\n");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{{"ID", "STARTED", "COMMAND", "RESULT", "OBJECTS"}};
  for (const auto& run : runs) {
    std::string objects = std::to_string(run.objects.size());
    if (const std::size_t failed = failed_count(run); failed > 0) objects += fmt::format(" ({} failed)", failed);
    rows.push_back({std::to_string(run.id), run.started_at, run.command, run.result, objects});
  }
  print_table(rows);
  return 0;
}

}  // namespace mkq::cli
