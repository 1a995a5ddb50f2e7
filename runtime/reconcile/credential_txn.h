// Credential transactions on the reconcile side (credentials_port.h): the
// journal apply gives the provider, backed by the state, and the plan's
// changes that finish what an interrupted transaction left -- the deletion of
// an anchor Secret that revokes a token nobody holds (Change::revokes_token_of).
//
// Invariant: a worker's intent is cleared only once every revocation planned
// for it succeeded; after a failure it stays, and the next plan looks again.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "runtime/reconcile/credentials_port.h"
#include "runtime/reconcile/plan.h"
#include "runtime/reconcile/state_writer.h"

namespace mkq::reconcile {

// The journal of an apply: each record is committed before it returns
// (StateWriter::write_now), in order with the run's other records.
class StateJournal final : public CredentialJournal {
 public:
  explicit StateJournal(StateWriter& writer) : writer_(writer) {}
  base::Result<void> begin(const state::CredentialIntent& intent) override;
  base::Result<void> finish(const std::string& worker) override;

 private:
  StateWriter& writer_;
};

// The plan's change that revokes `stale`: a Delete of the anchor on its
// worker, with the live uid as the deletion's precondition. Its reason:
// "revoke the previous token of worker1".
Change revocation_change(const StaleCredential& stale);

// Counts a run's revocations per worker; thread-safe.
class RevocationTracker {
 public:
  explicit RevocationTracker(const Plan& plan);
  // `change` (a revocation) ended as `outcome` says. When it was the
  // worker's last and all succeeded, the worker's transaction is finished in
  // `journal`. Returns what to report for the change: `outcome`, or why the
  // state could not record the end (about the change's address).
  base::Result<void> ended(const Change& change, base::Result<void> outcome, CredentialJournal& journal);

 private:
  struct Count {
    int left = 0;
    bool failed = false;
  };
  std::mutex mutex_;
  std::map<std::string, Count> workers_;
};

}  // namespace mkq::reconcile
