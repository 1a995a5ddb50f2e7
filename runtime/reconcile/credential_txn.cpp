#include "runtime/reconcile/credential_txn.h"

#include <utility>

#include <fmt/format.h>

namespace mkq::reconcile {

base::Result<void> StateJournal::begin(const state::CredentialIntent& intent) {
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::IntentBegun;
  write.intent = intent;
  return writer_.write_now(std::move(write));
}

base::Result<void> StateJournal::finish(const std::string& worker) {
  state::StateWrite write;
  write.kind = state::StateWrite::Kind::IntentFinished;
  write.address = worker;
  return writer_.write_now(std::move(write));
}

Change revocation_change(const StaleCredential& stale) {
  Change change;
  change.ref = base::ObjectRef{stale.worker, "v1", "Secret", stale.namespace_name, stale.name};
  change.action = Action::Delete;
  change.reason = stale.never_stored ? Reason::RevokeUnstoredToken : Reason::RevokePreviousToken;
  change.live_uid = stale.uid;
  change.live_resource_version = stale.resource_version;
  change.revokes_token_of = stale.worker;
  return change;
}

RevocationTracker::RevocationTracker(const Plan& plan) {
  for (const ClusterPlan& cluster : plan.clusters) {
    for (const Change& change : cluster.changes) {
      if (!change.revokes_token_of.empty() && change.action == Action::Delete) {
        ++workers_[change.revokes_token_of].left;
      }
    }
  }
}

base::Result<void> RevocationTracker::ended(const Change& change, base::Result<void> outcome,
                                            CredentialJournal& journal) {
  bool finish = false;
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    Count& count = workers_[change.revokes_token_of];
    --count.left;
    count.failed = count.failed || !outcome;
    finish = count.left == 0 && !count.failed;
  }
  if (!finish) return outcome;
  base::Result<void> done = journal.finish(change.revokes_token_of);
  if (done) return {};
  base::Error error = std::move(done.error());
  error.message = fmt::format("revoked, but the state could not record the credential rotation of {} as finished: {}",
                              change.revokes_token_of, error.message);
  error.address = change.ref.address();
  return error;
}

}  // namespace mkq::reconcile
