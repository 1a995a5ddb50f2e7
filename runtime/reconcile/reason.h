// Why a change is planned, as data: a Reason on each Change, with the few
// parameters some reasons take (ReasonArgs). Display only -- no decision
// reads it; the directives on the Change decide (repairs_drift,
// take_ownership, take_over, adopted, revokes_token_of) -- and its words have
// one home: reason_text() (reason.cpp), which every rendering, the saved
// plan and the CLI use.
#pragma once

#include <string>
#include <vector>

namespace mkq::reconcile {

struct Change;

// Each value's words are in its comment; CAPITALS are parameters (ReasonArgs,
// or the change's own object).
enum class Reason {
  None,  // no words: a change built by hand
  // A create, or a credential issued because none is there.
  NotOnCluster,       // "not on the cluster"
  NotServed,          // "not on the cluster, which does not serve API_VERSION/KIND"
  DeletedOutsideMkq,  // "deleted outside mkq"
  // A no-op or an update of an object the policy holds.
  UpToDate,           // "up to date"
  MissingFromState,   // "applied by mkq but missing from the state"
  NotYetManaged,      // "exists, not yet managed by mkq"
  PolicyChanged,      // "the policy changed"
  Drift,              // "drift: changed outside mkq"
  // Every difference is a default the policy leaves: "drift: FIELD is HELD, the
  // policy leaves Kueue's default DEFAULT" for one field, "drift: F, G and H
  // differ from Kueue's defaults, which the policy leaves" for several.
  DriftFromDefaults,
  // A replace.
  Immutable,          // "FIELD is immutable"
  ImmutableTopology,  // "FIELD is immutable unless kubernetes.io/hostname stays the lowest level"
  // An inventory object the plan removes (or finds gone).
  AlreadyGone,        // "already gone"
  NoLongerInPolicy,   // "no longer in the policy"
  Destroy,            // "destroy"
  ReleasedPreventDestroy,      // "released: marked mkq.dev/prevent-destroy"
  ReleasedAdopted,             // "released: existed before mkq"
  ReleasedForeignContents,     // "released: holds A, B and N more, not managed by mkq"
  ReleasedContentsNotRead,     // "released: its contents were not read"
  ReleasedContentsUnreadable,  // "released: its contents could not be read: ERROR"
  // The delete of an anchor Secret that revokes a token of mkq's (Change::revokes_token_of names WORKER).
  RevokeUnstoredToken,  // "revoke a token of WORKER that an interrupted run issued and never stored"
  RevokePreviousToken,  // "revoke the previous token of WORKER"
  // A worker credential (Change::credential): "CREDENTIAL: WORDS", where WORDS
  // are the provider's (ReasonArgs::cause) when it gave some, else these.
  CredentialNotChecked,      // "credential not checked" (no provider)
  CredentialCannotBeIssued,  // "cannot be issued"
  CredentialCurrent,         // "credential current"
  CredentialRenewed,         // "renewed"
  // `mkq credentials rotate`: a change left for `mkq apply`.
  NotPartOfRotation,  // "not part of the rotation"
  // The controller (operation::ChangeSelection): a change of a kind it was not told to apply.
  NotSelected,  // "left alone: not selected"
  // A MultiKueueConfig whose workers are ordered by free capacity (capacity.h):
  // the same workers in another order, because their load changed.
  FreeCapacityOrder,  // "workers reordered by free RESOURCE" (ReasonArgs::field)
  // --replace ADDRESS (Change::replace_requested): deleted and created again.
  ReplaceRequested,  // "replace requested (--replace)"
  // --drift-only: a change that is not a repair of drift, left out of the plan.
  NotDrift,  // "left out: not drift (--drift-only)"
  // Words read back from a file (a saved plan, `--format json`): TEXT as written.
  Recorded,
};
inline constexpr Reason kLastReason = Reason::Recorded;  // tests walk None..kLastReason

// The parameters of the reasons that take some; empty for the others.
struct ReasonArgs {
  std::string field;  // Immutable, ImmutableTopology: the field's dotted path; FreeCapacityOrder: the resource
  // DriftFromDefaults: the fields that differ (paths below spec); with one
  // field, what it holds and Kueue's default, as words.
  std::vector<std::string> fields;
  std::string held, kueue_default;
  std::vector<std::string> foreign;  // ReleasedForeignContents: "KIND NAMESPACE/NAME" of what else the namespace holds
  std::string error;                 // ReleasedContentsUnreadable: why the contents could not be read
  // A credential's reasons: the provider's description of the credential
  // ("token for multikueue-sa, expires 2026-12-21") and its words for why
  // ("expires within 7d"), both as the CredentialProvider port gives them.
  std::string credential, cause;
  std::string text;  // Recorded
};

// The reason's stable name ("not-on-cluster"): for tests and debugging, never shown.
const char* reason_name(Reason reason);

// What a plan shows beside the change: its reason's words with their
// parameters, after "owned by policy OWNER" when the object is another
// policy's (Change::owner_conflict; a write names only the owner, and
// whether it is taken over).
std::string reason_text(const Change& change);

// Words joined as a plan writes them: "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items);

}  // namespace mkq::reconcile
