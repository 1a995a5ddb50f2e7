// Watch streams over the store's event log (watch.h).
#include "sandbox/watch.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "sandbox/responses.h"
#include "sandbox/selector.h"
#include "sandbox/table.h"

namespace mkq::sandbox {
namespace {

using nlohmann::json;

constexpr std::size_t kWatchBatch = 500;
constexpr int kDefaultWatchSeconds = 1800;
constexpr int kBookmarkSeconds = 5;

// How a watch presents its objects: as they are, or (Accept: as=Table) each
// as a one-row Table, the column definitions in the first event only, as
// kube-apiserver's watch encoder sends them.
struct Presentation {
  bool table = false;
  std::string include_object;  // ?includeObject
  bool headers_sent = false;
};

std::string event_line(const ResourceInfo& info, const std::string& type, json object, Presentation& how) {
  json shown = present(info, std::move(object));
  if (how.table) {
    const std::string rv = shown["metadata"].value("resourceVersion", "");
    shown = to_table(info, {shown}, {{"resourceVersion", rv}}, how.include_object, std::time(nullptr));
    if (how.headers_sent) shown["columnDefinitions"] = nullptr;
    how.headers_sent = true;
  }
  return json({{"type", type}, {"object", std::move(shown)}}).dump() + "\n";
}

std::string expired_line(const std::string& message) {
  return json({{"type", "ERROR"}, {"object", status_body(410, "Expired", message)}}).dump() + "\n";
}

// One watch's stream: the initial lines, then the log's events after `last`.
// Each call of the ApiResponse::stream takes the cluster's lock.
class WatchStream {
 public:
  WatchStream(std::shared_ptr<ClusterState> state, ResourceInfo info, std::optional<std::string> ns, Selector filter,
              std::int64_t from, std::vector<std::string> initial, int timeout_seconds, bool bookmarks, Presentation how)
      : state_(std::move(state)), info_(std::move(info)), ns_(std::move(ns)), filter_(std::move(filter)), how_(std::move(how)), last_(from),
        pending_(std::move(initial)),
        deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds)),
        last_sent_(std::chrono::steady_clock::now()), bookmarks_(bookmarks) {}

  // ApiResponse::stream: false when the stream is over.
  bool next(std::string& chunk) {
    chunk.clear();
    if (!pending_.empty()) {
      for (auto& line : pending_) chunk += line;
      pending_.clear();
      if (last_ < 0) done_ = true;
      return true;
    }
    if (done_ || last_ < 0) return false;
    std::unique_lock<std::mutex> guard(state_->mutex);
    for (;;) {
      if (state_->closing) return false;
      if (last_ < state_->store->oldest_watchable_rv()) {
        chunk = expired_line("too old resource version");
        done_ = true;
        return true;
      }
      read_events(chunk);
      const auto now = std::chrono::steady_clock::now();
      if (!chunk.empty()) {
        last_sent_ = now;
        return true;
      }
      if (now >= deadline_) return false;
      if (bookmarks_ && now - last_sent_ >= std::chrono::seconds(kBookmarkSeconds)) {
        last_sent_ = now;
        chunk = bookmark_line();
        return true;
      }
      state_->changed.wait_until(guard, std::min(deadline_, now + std::chrono::seconds(1)));
    }
  }

 private:
  // Under the lock: the matching events after last_, one batch.
  void read_events(std::string& chunk) {
    for (auto& e : state_->store->events_after(info_.group, info_.resource, last_, kWatchBatch)) {
      last_ = e.rv;
      if (ns_ && e.ns != *ns_) continue;
      if (!filter_.matches(e.object)) continue;
      chunk += event_line(info_, e.type, std::move(e.object), how_);
    }
  }

  std::string bookmark_line() const {
    return json({{"type", "BOOKMARK"},
                 {"object", {{"kind", info_.kind}, {"apiVersion", info_.api_version()},
                             {"metadata", {{"resourceVersion", std::to_string(state_->store->current_rv())}}}}}})
               .dump() + "\n";
  }

  const std::shared_ptr<ClusterState> state_;
  const ResourceInfo info_;
  const std::optional<std::string> ns_;
  const Selector filter_;
  Presentation how_;
  std::int64_t last_;  // the last resourceVersion read; -1: the stream ends after pending_
  std::vector<std::string> pending_;
  const std::chrono::steady_clock::time_point deadline_;
  std::chrono::steady_clock::time_point last_sent_;
  const bool bookmarks_;
  bool done_ = false;
};

// ?timeoutSeconds, or the default; nullopt when malformed.
std::optional<int> timeout_of(const ApiRequest& r) {
  const auto text = query_value(r, "timeoutSeconds");
  if (text.empty()) return kDefaultWatchSeconds;
  try {
    return std::max(0, std::stoi(text));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

ApiResponse watch(const std::shared_ptr<ClusterState>& state, const ApiRequest& r, const ResourceInfo& info,
                  const Target& t, std::unique_lock<std::mutex>& lock) {
  std::string error;
  auto selector = parse_selector(query_value(r, "labelSelector"), query_value(r, "fieldSelector"), info, &error);
  if (!selector) return bad_request(error);
  if (!t.name.empty()) selector->fields.push_back({"metadata.name", Requirement::Op::Equals, {t.name}});
  const auto timeout = timeout_of(r);
  if (!timeout) return bad_request("invalid timeoutSeconds: " + query_value(r, "timeoutSeconds"));
  const std::string rv_text = query_value(r, "resourceVersion");
  const std::optional<std::string> ns = info.namespaced && !t.ns.empty() ? std::optional(t.ns) : std::nullopt;
  std::int64_t from = 0;
  std::vector<std::string> initial;
  Presentation how{wants_table(header(r, "accept")), query_value(r, "includeObject"), false};
  if (rv_text.empty() || rv_text == "0") {
    // No resourceVersion: the current state as ADDED events, then changes.
    from = state->store->current_rv();
    for (auto& object : state->store->list(info.group, info.resource, ns, "", 0)) {
      if (selector->matches(object)) initial.push_back(event_line(info, "ADDED", std::move(object), how));
    }
  } else {
    // The watch cache hands ParseResourceVersion's error up unwrapped: a 500 (kubernetes#139485).
    const ResourceVersion rv = read_resource_version(rv_text);
    if (!rv.error.empty()) return unwrapped_error(rv.error);
    from = static_cast<std::int64_t>(std::min<std::uint64_t>(rv.value, std::numeric_limits<std::int64_t>::max()));
    const std::int64_t oldest = state->store->oldest_watchable_rv();
    if (from < oldest) {
      initial.push_back(expired_line(fmt::format("too old resource version: {} ({})", rv_text, oldest + 1)));
      from = -1;  // the stream ends after the error
    }
  }
  lock.unlock();
  auto stream = std::make_shared<WatchStream>(state, info, ns, *selector, from, std::move(initial), *timeout,
                                              query_true(r, "allowWatchBookmarks"), std::move(how));
  ApiResponse response;
  response.content_type = "application/json";
  response.stream = [stream](std::string& chunk) { return stream->next(chunk); };
  return response;
}

}  // namespace mkq::sandbox
