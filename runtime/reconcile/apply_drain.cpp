// The drain of a phased apply (apply_internal.h, wait_drained): the workers
// leaving the fleet keep their objects until no Workload the manager
// dispatched to them still runs. Kueue's Workload on the manager says where it
// was admitted (status.clusterName, the MultiKueueCluster's name, set once the
// worker admitted it and cleared when it is evicted) and when it is done (the
// Finished condition); a deleted Workload runs nowhere.
#include <algorithm>
#include <exception>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/kueue/schema.h"
#include "runtime/reconcile/apply_internal.h"

namespace mkq::reconcile::detail {
namespace {

using Clock = std::chrono::steady_clock;

std::string string_at(const Json& object, std::initializer_list<const char*> path) {
  const Json* at = &object;
  for (const char* key : path) {
    if (!at->is_object()) return "";
    const auto found = at->find(key);
    if (found == at->end()) return "";
    at = &*found;
  }
  return at->is_string() ? at->get<std::string>() : "";
}

bool finished(const Json& workload) {
  if (!workload.is_object() || !workload.contains("status") || !workload["status"].is_object()) return false;
  const Json& status = workload["status"];
  const auto conditions = status.find("conditions");
  if (conditions == status.end() || !conditions->is_array()) return false;
  return std::any_of(conditions->begin(), conditions->end(), [](const Json& condition) {
    return condition.is_object() && condition.value("type", "") == "Finished" && condition.value("status", "") == "True";
  });
}

// One poll: per worker, the Workloads running on it, or why they cannot be
// read.
base::Result<void> poll_workloads(kube::Client& client, const std::vector<std::string>& workers, RequestSlots& slots,
                                  std::map<std::string, std::vector<std::string>>& running) {
  for (const std::string& worker : workers) running[worker].clear();
  kube::Result<kube::ResourceType> type = kube::Error{};
  {
    Slot slot(slots);
    type = client.resource_for(std::string(kueue::schema::kKueueApiVersion), "Workload");
  }
  if (!type) {
    if (type.error().not_found()) return {};  // not served: nothing runs
    return std::move(type.error());
  }
  kube::Result<kube::ObjectList> list = kube::Error{};
  {
    Slot slot(slots);
    list = client.list(type.value(), kube::ListOptions{});
  }
  if (!list) return std::move(list.error());
  for (const Json& workload : list.value().items) {
    const auto worker = running.find(string_at(workload, {"status", "clusterName"}));
    if (worker == running.end() || finished(workload)) continue;
    worker->second.push_back(
        fmt::format("{}/{}", string_at(workload, {"metadata", "namespace"}), string_at(workload, {"metadata", "name"})));
  }
  for (auto& [worker, names] : running) std::sort(names.begin(), names.end());
  return {};
}

std::string running_text(const std::vector<std::string>& names) {
  if (names.empty()) return "drained: no Workload runs on it";
  return fmt::format("{} {} on it: {}", names.size(), names.size() == 1 ? "Workload runs" : "Workloads run",
                     first_workloads(names));
}

}  // namespace

std::string first_workloads(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  const auto shown = names.begin() + static_cast<std::ptrdiff_t>(std::min(names.size(), kShown));
  return fmt::format("{}{}", fmt::join(names.begin(), shown, ", "), names.size() > kShown ? ", ..." : "");
}

DrainWait wait_drained(kube::Client& client, const std::string& manager, const std::vector<std::string>& workers,
                       std::chrono::milliseconds timeout, std::chrono::milliseconds poll_interval,
                       const std::atomic<bool>* cancel, RequestSlots& slots,
                       const std::function<void(const ProgressEvent&)>& emit) {
  const Clock::time_point started = Clock::now();
  const Clock::time_point deadline = started + timeout;
  if (poll_interval <= std::chrono::milliseconds::zero()) poll_interval = std::chrono::milliseconds(1);
  const kueue::schema::KindInfo& cluster_kind = kueue::schema::info(kueue::schema::Kind::MultiKueueCluster);
  std::map<std::string, std::string> reported;  // worker -> the last text emitted
  DrainWait result;
  while (true) {
    if (cancelled(cancel)) {
      result.interrupted = true;
      break;
    }
    result.error.reset();
    try {
      if (base::Result<void> polled = poll_workloads(client, workers, slots, result.running); !polled) {
        result.error = std::move(polled.error());
      }
    } catch (const std::exception& error) {
      result.error = base::Error(0, "", std::string("internal error: ") + error.what());
    }
    bool drained = !result.error;
    for (const std::string& worker : workers) {
      const std::vector<std::string>& names = result.running[worker];
      drained = drained && names.empty();
      const std::string text =
          result.error ? "cannot read the Workloads: " + describe(*result.error) : running_text(names);
      if (reported[worker] == text) continue;
      reported[worker] = text;
      ProgressEvent event;
      event.phase = ProgressEvent::Phase::Waiting;
      event.ref = base::ObjectRef{manager, std::string(cluster_kind.api_version), std::string(cluster_kind.name), "",
                                  worker};
      event.message = text;
      emit(event);
    }
    if (drained || Clock::now() >= deadline) break;
    if (!sleep_unless_cancelled(std::min(deadline, Clock::now() + poll_interval), cancel)) {
      result.interrupted = true;
      break;
    }
  }
  result.waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  return result;
}

}  // namespace mkq::reconcile::detail
