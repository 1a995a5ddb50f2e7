// --wait: after apply, poll the Kueue objects of the plan until each reports
// condition Active=True. Reads with one LIST per kind per cluster per poll,
// never a GET per object, so waiting on 2,000 queues costs a handful of requests.
#include <algorithm>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "runtime/reconcile/active_condition.h"
#include "runtime/reconcile/apply_internal.h"

namespace mkq::reconcile::detail {
namespace {

using Clock = std::chrono::steady_clock;

// What the last poll saw of one item.
struct ItemState {
  bool ready = false;
  bool seen = false;      // read at least once (found, absent or failed)
  std::string text;       // for Waiting and the failure line: "Active=False (Reason): message"
  std::string ready_text;  // for Ready: "Active=True (Reason)"
  bool read_failed = false;  // the last read failed: `text` says why ("cannot be read: ...")
};

std::string string_at(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  if (found == object.end() || !found->is_string()) return "";
  return found->get<std::string>();
}

// The item's state from its live object.
ItemState state_of(const Json& object) {
  ItemState state;
  state.seen = true;
  const ActiveCondition condition = active_condition_of(object);
  if (!condition.present) {
    state.text = "no Active condition yet";
    return state;
  }
  std::string text = "Active=" + condition.status;
  if (!condition.reason.empty()) text += " (" + condition.reason + ")";
  state.ready_text = text;
  if (!condition.message.empty()) text += ": " + condition.message;
  state.text = text;
  state.ready = condition.active();
  return state;
}

std::string object_key(const std::string& namespace_name, const std::string& name) {
  return namespace_name + "/" + name;
}

// One poll of one cluster: a LIST per kind of its pending items.
void poll_cluster(kube::Client& client, const std::vector<WaitItem>& items, const std::vector<std::size_t>& pending,
                  std::vector<ItemState>& states, RequestSlots& slots) {
  std::map<std::string, std::vector<std::size_t>> by_kind;  // "apiVersion/kind" -> item indexes
  for (const std::size_t index : pending) {
    by_kind[items[index].ref.api_version + "/" + items[index].ref.kind].push_back(index);
  }
  for (const auto& [key, indexes] : by_kind) {
    const WaitItem& first = items[indexes.front()];
    auto failed = [&](const std::string& error) {
      for (const std::size_t index : indexes) {
        // Keep what an earlier poll saw; a passing read error does not erase it.
        if (states[index].seen && !states[index].read_failed) continue;
        states[index] = ItemState{false, true, fmt::format("cannot be read: {}", error), "", true};
      }
    };
    kube::Result<kube::ResourceType> type = kube::Error{};
    {
      Slot slot(slots);
      type = client.resource_for(first.ref.api_version, first.ref.kind);
    }
    if (!type) {
      failed(describe(type.error()));
      continue;
    }
    kube::Result<kube::ObjectList> list = kube::Error{};
    {
      Slot slot(slots);
      list = client.list(type.value(), kube::ListOptions{});
    }
    if (!list) {
      failed(describe(list.error()));
      continue;
    }
    std::map<std::string, const Json*> live;
    for (const Json& object : list.value().items) {
      if (!object.is_object() || !object.contains("metadata")) continue;
      const Json& metadata = object["metadata"];
      live[object_key(string_at(metadata, "namespace"), string_at(metadata, "name"))] = &object;
    }
    for (const std::size_t index : indexes) {
      const WaitItem& item = items[index];
      const auto found = live.find(object_key(type.value().namespaced ? item.ref.namespace_name : "", item.ref.name));
      if (found == live.end()) {
        states[index] = ItemState{false, true, "not found on the cluster", ""};
        continue;
      }
      states[index] = state_of(*found->second);
    }
  }
}

}  // namespace

bool sleep_unless_cancelled(Clock::time_point until, const std::atomic<bool>* cancel) {
  constexpr std::chrono::milliseconds kSlice{20};  // how soon an interrupt is noticed
  while (!cancelled(cancel)) {
    const Clock::time_point now = Clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(std::min<Clock::duration>(kSlice, until - now));
  }
  return false;
}

bool has_active_condition(const std::string& api_version, const std::string& kind) {
  return reports_active_condition(api_version, kind);
}

std::vector<WaitItem> wait_items(const Plan& plan, const std::map<std::string, kube::Client*>& clients,
                                 const std::set<std::string>& excluded) {
  std::vector<WaitItem> items;
  for (const ClusterPlan& cluster : plan.clusters) {
    if (clients.count(cluster.cluster) == 0) continue;
    for (const Change& change : cluster.changes) {
      if (!has_active_condition(change.ref.api_version, change.ref.kind)) continue;
      if (excluded.count(change.ref.address()) != 0) continue;
      const bool applied =
          change.action == Action::Create || change.action == Action::Update || change.action == Action::Replace;
      const bool unchanged = change.action == Action::NoOp && !change.live_uid.empty();
      if (!applied && !unchanged) continue;
      items.push_back(WaitItem{change.ref});
    }
  }
  return items;
}

WaitResult wait_for_active(const std::vector<WaitItem>& items, const std::map<std::string, kube::Client*>& clients,
                           std::chrono::milliseconds timeout, std::chrono::milliseconds poll_interval,
                           const std::atomic<bool>* cancel, RequestSlots& slots,
                           const std::function<void(const ProgressEvent&)>& emit) {
  const Clock::time_point deadline = Clock::now() + timeout;
  std::vector<ItemState> states(items.size());
  std::vector<std::string> reported(items.size());  // the last Waiting text emitted per item
  std::vector<bool> done(items.size(), false);
  if (poll_interval <= std::chrono::milliseconds::zero()) poll_interval = std::chrono::milliseconds(1);
  WaitResult result;

  while (true) {
    if (cancelled(cancel)) {
      result.interrupted = std::find(done.begin(), done.end(), false) != done.end();
      break;
    }
    std::map<std::string, std::vector<std::size_t>> pending;  // cluster -> item indexes
    for (std::size_t index = 0; index < items.size(); ++index) {
      if (!done[index]) pending[items[index].ref.cluster].push_back(index);
    }
    if (pending.empty()) break;

    // Clusters in parallel; each thread writes only its own items' states.
    std::vector<std::thread> threads;
    for (const auto& [cluster, indexes] : pending) {
      const auto client = clients.find(cluster);
      if (client == clients.end() || client->second == nullptr) {
        for (const std::size_t index : indexes) states[index] = ItemState{false, true, "cannot be read: no connection", "", true};
        continue;
      }
      auto poll = [&client = *client->second, &items, indexes = indexes, &states, &slots] {
        try {
          poll_cluster(client, items, indexes, states, slots);
        } catch (const std::exception& error) {
          for (const std::size_t index : indexes) {
            states[index] = ItemState{false, true, fmt::format("cannot be read: {}", error.what()), "", true};
          }
        }
      };
      if (pending.size() == 1) {
        poll();
        continue;
      }
      try {
        threads.emplace_back(poll);
      } catch (const std::exception&) {
        poll();  // no thread to be had: poll this cluster here
      }
    }
    for (std::thread& thread : threads) thread.join();

    for (std::size_t index = 0; index < items.size(); ++index) {
      if (done[index]) continue;
      ProgressEvent event;
      event.ref = items[index].ref;
      if (states[index].ready) {
        done[index] = true;
        event.phase = ProgressEvent::Phase::Ready;
        event.message = states[index].ready_text;
        emit(event);
      } else if (states[index].text != reported[index]) {
        reported[index] = states[index].text;
        event.phase = ProgressEvent::Phase::Waiting;
        event.message = states[index].text;
        emit(event);
      }
    }
    if (std::all_of(done.begin(), done.end(), [](bool value) { return value; })) break;
    const Clock::time_point now = Clock::now();
    if (now >= deadline) break;
    if (!sleep_unless_cancelled(std::min(deadline, now + poll_interval), cancel)) {
      result.interrupted = true;
      break;
    }
  }

  for (std::size_t index = 0; index < items.size(); ++index) {
    if (done[index]) continue;
    std::string text;
    if (result.interrupted && !states[index].seen) {
      text = "not read: interrupted";
    } else {
      text = states[index].text.empty() ? "no Active condition yet" : states[index].text;
      if (result.interrupted) text += " (interrupted while waiting)";
    }
    // The reason says why the wait ended with the object not Active: its deadline, or an interrupt.
    result.failures.push_back(base::Error(0, result.interrupted ? "Interrupted" : "Timeout", std::move(text), nullptr,
                                          items[index].ref.address()));
  }
  return result;
}

}  // namespace mkq::reconcile::detail
