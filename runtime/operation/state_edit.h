// The state's edits that reach none of the policy's objects, as library
// calls: `mkq state rm` (forget objects, under the state's lock, recorded in
// the history), `mkq state unlock` (release the lock of a run that died) and
// `mkq state push|pull` (copy a whole state between a local file and a
// cluster). Each returns what happened as data; the CLI draws it and picks the
// exit code. None prints.
//
// The rules: nothing is forgotten while another run holds the lock (a lock
// whose holder is gone is taken over, and the result says so); a request
// naming anything the inventory does not hold forgets nothing and names each
// unknown key with its closest known one; what was forgotten is one run of
// the history ("state rm", each object "forget"/"ok"). A lock whose holder
// still runs on this host is released only when forced.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "runtime/operation/options.h"
#include "runtime/state/cluster_state.h"
#include "runtime/state/state.h"

namespace mkq::operation {

// `mkq state rm`: either addresses or clusters, not both.
struct ForgetRequest {
  std::vector<std::string> addresses;  // CLUSTER/KIND/[NAMESPACE/]NAME
  std::vector<std::string> clusters;   // every object of these clusters (a dead worker)
};

// A key of a ForgetRequest the inventory does not hold, and the known key
// closest to it ("did you mean"), when one is close.
struct UnknownKey {
  std::string key;
  std::optional<std::string> closest;
};

struct ForgetResult {
  enum class Outcome {
    Forgotten,   // every key named was forgotten
    BadRequest,  // neither addresses nor clusters, or both: nothing done
    LockHeld,    // another run holds the lock (`holder`): nothing forgotten
    Unknown,     // some keys are not in the inventory (`unknown`): nothing forgotten
    Failed,      // the state could not be read or written (`error`): nothing forgotten
  };
  Outcome outcome = Outcome::Failed;
  // LockHeld: who holds the lock; took_over_stale: whose stale lock this run took over.
  state::LockHolder holder;
  bool took_over_stale = false;
  std::vector<state::InventoryEntry> forgotten;  // Forgotten: sorted by address
  std::vector<UnknownKey> unknown;               // Unknown: in the order asked
  std::optional<base::Error> error;              // Failed
  // Forgotten, but the history could not record it: why.
  std::optional<base::Error> unrecorded;
};

ForgetResult forget_objects(state::StateStore& store, const ForgetRequest& request);

struct UnlockResult {
  enum class Outcome {
    Released,    // the lock of `holder` is gone
    NotLocked,   // there was none
    HolderRuns,  // `holder` still runs on this host and the release was not forced: nothing changed
    Failed,      // the lock could not be read or removed (`error`)
  };
  Outcome outcome = Outcome::Failed;
  state::LockHolder holder;
  // Released by force while `holder` still runs on this host: it may still be applying.
  bool holder_still_runs = false;
  std::optional<base::Error> error;
};

UnlockResult unlock_state(state::StateStore& store, bool force);

// `mkq state push` (the file into the cluster) or `mkq state pull` (back).
struct TransferRequest {
  bool push = true;
  std::string file;         // the local state
  std::string location;     // kubernetes://CONTEXT/NAMESPACE/NAME
  RuntimeOptions runtime;   // how the context is reached (--kubeconfig, --sandbox-dir)
  std::string policy_path;  // whose sandbox, when the context is the sandbox's
  bool force = false;       // replace a state of another lineage, a newer one, or a damaged one
};

// state::push_state or state::pull_state through the cluster `location`
// names; an Error when it names no cluster state, cannot be reached, or the
// copy is refused (nothing changed). A push takes the cluster's lock (held by
// another run: Transfer::Outcome::LockHeld, nothing pushed).
base::Result<state::Transfer> transfer_state(const TransferRequest& request);

}  // namespace mkq::operation
