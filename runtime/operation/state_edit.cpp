// `mkq state rm` and `mkq state unlock` (state_edit.h).
#include "runtime/operation/state_edit.h"

#include <fmt/format.h>

#include "compiler/diag/diagnostic.h"
#include "runtime/operation/lock.h"
#include "runtime/operation/state_open.h"

namespace mkq::operation {

namespace {

// What the request could have named, for "did you mean": the inventory's
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

}  // namespace

ForgetResult forget_objects(state::StateStore& store, const ForgetRequest& request) {
  ForgetResult result;
  if (request.addresses.empty() == request.clusters.empty()) {
    result.outcome = ForgetResult::Outcome::BadRequest;
    return result;
  }
  StateLock lock;
  const base::Result<state::LockResult> locked =
      lock.acquire(store, state::LockHolder{"state rm", "", "", 0, ""}, &result.holder);
  if (!locked) {
    result.error = locked.error();
    return result;
  }
  if (*locked == state::LockResult::Held) {
    result.outcome = ForgetResult::Outcome::LockHeld;
    return result;
  }
  result.took_over_stale = *locked == state::LockResult::AcquiredStale;
  const bool by_cluster = !request.clusters.empty();
  base::Result<state::ForgetResult> forgot =
      by_cluster ? store.forget_clusters(request.clusters) : store.forget(request.addresses);
  if (!forgot) {
    result.error = forgot.error();
    return result;
  }
  if (!forgot->unknown.empty()) {
    const std::vector<std::string> known = known_keys(store, by_cluster);
    for (const std::string& key : forgot->unknown)
      result.unknown.push_back({key, diag::closest_match(key, known)});
    result.outcome = ForgetResult::Outcome::Unknown;
    return result;
  }
  result.outcome = ForgetResult::Outcome::Forgotten;
  result.forgotten = std::move(forgot->forgotten);
  std::vector<state::ObjectOutcome> outcomes;
  for (const state::InventoryEntry& entry : result.forgotten) {
    outcomes.push_back({entry.ref.address(), "forget", "ok", ""});
  }
  const base::Result<std::int64_t> recorded =
      state::record_finished_run(store, "state rm", outcomes, "success");
  if (!recorded) result.unrecorded = recorded.error();
  return result;
}

UnlockResult unlock_state(state::StateStore& store, bool force) {
  UnlockResult result;
  const base::Result<state::UnlockResult> unlocked = store.unlock(force, &result.holder);
  if (!unlocked) {
    result.error = unlocked.error();
    return result;
  }
  switch (*unlocked) {
    case state::UnlockResult::Released:
      result.outcome = UnlockResult::Outcome::Released;
      result.holder_still_runs = result.holder.runs_here();
      break;
    case state::UnlockResult::NotLocked:
      result.outcome = UnlockResult::Outcome::NotLocked;
      break;
    case state::UnlockResult::HolderRuns:
      result.outcome = UnlockResult::Outcome::HolderRuns;
      break;
  }
  return result;
}

base::Result<state::Transfer> transfer_state(const TransferRequest& request) {
  if (!state::is_cluster_address(request.location)) {
    return base::Error::config(
        fmt::format("state {} copies a state {} a cluster: name it with --state "
                    "kubernetes://CONTEXT/NAMESPACE/NAME (or MKQ_STATE)",
                    request.push ? "push" : "pull", request.push ? "into" : "out of"));
  }
  base::Result<std::unique_ptr<state::ClusterState>> cluster =
      connect_cluster_state(request.location, request.runtime, request.policy_path);
  if (!cluster) return cluster.error();
  return request.push ? state::push_state(request.file, **cluster,
                                          state::LockHolder{"state push", "", "", 0, ""}, request.force)
                      : state::pull_state(**cluster, request.file, request.force);
}

}  // namespace mkq::operation
