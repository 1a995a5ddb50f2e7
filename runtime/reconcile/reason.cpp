// The one home of a plan's words for why: reason.h's values to text.
#include "runtime/reconcile/reason.h"

#include <fmt/format.h>

#include "runtime/reconcile/plan.h"

namespace mkq::reconcile {
namespace {

// A reason's own words, around which its parameters go; nullptr for a value
// this switch misses (reason_test walks every value).
const char* words(Reason reason) {
  switch (reason) {
    case Reason::None: return "";
    case Reason::NotOnCluster: return "not on the cluster";
    case Reason::NotServed: return "not on the cluster, which does not serve ";
    case Reason::DeletedOutsideMkq: return "deleted outside mkq";
    case Reason::UpToDate: return "up to date";
    case Reason::MissingFromState: return "applied by mkq but missing from the state";
    case Reason::NotYetManaged: return "exists, not yet managed by mkq";
    case Reason::PolicyChanged: return "the policy changed";
    case Reason::Drift: return "drift: changed outside mkq";
    case Reason::DriftFromDefaults: return "drift: ";
    case Reason::Immutable: return " is immutable";
    case Reason::ImmutableTopology: return " is immutable unless kubernetes.io/hostname stays the lowest level";
    case Reason::AlreadyGone: return "already gone";
    case Reason::NoLongerInPolicy: return "no longer in the policy";
    case Reason::Destroy: return "destroy";
    case Reason::ReleasedPreventDestroy: return "released: marked ";
    case Reason::ReleasedAdopted: return "released: existed before mkq";
    case Reason::ReleasedForeignContents: return "released: holds ";
    case Reason::ReleasedContentsNotRead: return "released: its contents were not read";
    case Reason::ReleasedContentsUnreadable: return "released: its contents could not be read: ";
    case Reason::RevokeUnstoredToken: return "revoke a token of ";
    case Reason::RevokePreviousToken: return "revoke the previous token of ";
    case Reason::CredentialNotChecked: return "credential not checked";
    case Reason::CredentialCannotBeIssued: return "cannot be issued";
    case Reason::CredentialCurrent: return "credential current";
    case Reason::CredentialRenewed: return "renewed";
    case Reason::NotPartOfRotation: return "not part of the rotation";
    case Reason::NotSelected: return "left alone: not selected";
    case Reason::FreeCapacityOrder: return "workers reordered by free ";
    case Reason::ReplaceRequested: return "replace requested (--replace)";
    case Reason::NotDrift: return "left out: not drift (--drift-only)";
    case Reason::Recorded: return "";
  }
  return nullptr;
}

// "A", "A and B", "A, B and N more": what else a namespace holds.
std::string foreign_text(const std::vector<std::string>& foreign) {
  std::string text = foreign.empty() ? "" : foreign[0];
  if (foreign.size() == 2) text += " and " + foreign[1];
  if (foreign.size() > 2) fmt::format_to(std::back_inserter(text), ", {} and {} more", foreign[1], foreign.size() - 2);
  return text + ", not managed by mkq";
}

bool is_credential_reason(Reason reason) {
  return reason == Reason::CredentialNotChecked || reason == Reason::CredentialCannotBeIssued ||
         reason == Reason::CredentialCurrent || reason == Reason::CredentialRenewed;
}

// The reason's words with their parameters.
std::string own_text(const Change& change) {
  const ReasonArgs& args = change.reason_args;
  const char* own = words(change.reason);
  const std::string base = own == nullptr ? "" : own;
  switch (change.reason) {
    case Reason::NotServed: return base + change.ref.api_version + "/" + change.ref.kind;
    case Reason::DriftFromDefaults:
      if (args.fields.size() == 1) {
        return base + args.fields[0] + " is " + args.held + ", the policy leaves Kueue's default " + args.kueue_default;
      }
      return base + listed(args.fields) + " differ from Kueue's defaults, which the policy leaves";
    case Reason::Immutable:
    case Reason::ImmutableTopology: return args.field + base;
    case Reason::ReleasedPreventDestroy: return base + kPreventDestroyAnnotation;
    case Reason::ReleasedForeignContents: return base + foreign_text(args.foreign);
    case Reason::ReleasedContentsUnreadable: return base + args.error;
    case Reason::RevokeUnstoredToken:
      return base + change.revokes_token_of + " that an interrupted run issued and never stored";
    case Reason::RevokePreviousToken: return base + change.revokes_token_of;
    case Reason::FreeCapacityOrder: return base + args.field;
    case Reason::Recorded: return args.text;
    default: break;
  }
  // A credential's words: the provider's when it gave some, after which credential.
  const bool credential = is_credential_reason(change.reason) || (change.credential && change.reason == Reason::NotOnCluster);
  if (!credential) return base;
  const std::string why = args.cause.empty() ? base : args.cause;
  if (args.credential.empty()) return why;
  return why.empty() ? args.credential : args.credential + ": " + why;
}

}  // namespace

std::string CredentialDecision::reason() const {
  switch (cause) {
    case CredentialCause::None: return "";
    case CredentialCause::NotOnCluster: return "not on the cluster";
    case CredentialCause::Placeholder: return "placeholder on the cluster";
    case CredentialCause::ChangedOutsideMkq: return "changed outside mkq";
    case CredentialCause::PolicyKubeconfigChanged: return "the policy's kubeconfig changed";
    case CredentialCause::PolicyTokenChanged: return "the policy's token changed";
    case CredentialCause::ServerChanged: return "worker's server changed";
    case CredentialCause::CaChanged: return "worker's CA changed";
    case CredentialCause::NotRevocable: return "not revocable (no anchor Secret)";
    case CredentialCause::AnchorGone: return "its anchor Secret is gone (token revoked)";
    case CredentialCause::ExpiryUnknown: return "expiry unknown";
    case CredentialCause::Expired: return "expired";
    case CredentialCause::ExpiresWithin: return "expires within " + window;
    case CredentialCause::RotationRequested: return "rotation requested";
    case CredentialCause::Current: return "credential current";
    case CredentialCause::ClusterProfile: return "no Secret in clusterprofile mode";
  }
  return "";
}

const char* reason_name(Reason reason) {
  switch (reason) {
    case Reason::None: return "none";
    case Reason::NotOnCluster: return "not-on-cluster";
    case Reason::NotServed: return "not-served";
    case Reason::DeletedOutsideMkq: return "deleted-outside-mkq";
    case Reason::UpToDate: return "up-to-date";
    case Reason::MissingFromState: return "missing-from-state";
    case Reason::NotYetManaged: return "not-yet-managed";
    case Reason::PolicyChanged: return "policy-changed";
    case Reason::Drift: return "drift";
    case Reason::DriftFromDefaults: return "drift-from-defaults";
    case Reason::Immutable: return "immutable";
    case Reason::ImmutableTopology: return "immutable-topology";
    case Reason::AlreadyGone: return "already-gone";
    case Reason::NoLongerInPolicy: return "no-longer-in-policy";
    case Reason::Destroy: return "destroy";
    case Reason::ReleasedPreventDestroy: return "released-prevent-destroy";
    case Reason::ReleasedAdopted: return "released-adopted";
    case Reason::ReleasedForeignContents: return "released-foreign-contents";
    case Reason::ReleasedContentsNotRead: return "released-contents-not-read";
    case Reason::ReleasedContentsUnreadable: return "released-contents-unreadable";
    case Reason::RevokeUnstoredToken: return "revoke-unstored-token";
    case Reason::RevokePreviousToken: return "revoke-previous-token";
    case Reason::CredentialNotChecked: return "credential-not-checked";
    case Reason::CredentialCannotBeIssued: return "credential-cannot-be-issued";
    case Reason::CredentialCurrent: return "credential-current";
    case Reason::CredentialRenewed: return "credential-renewed";
    case Reason::NotPartOfRotation: return "not-part-of-rotation";
    case Reason::NotSelected: return "not-selected";
    case Reason::FreeCapacityOrder: return "free-capacity-order";
    case Reason::ReplaceRequested: return "replace-requested";
    case Reason::NotDrift: return "not-drift";
    case Reason::Recorded: return "recorded";
  }
  return "";
}

std::string reason_text(const Change& change) {
  if (change.reason == Reason::Recorded) return change.reason_args.text;  // already whole, owner and all
  if (change.owner_conflict.empty()) return own_text(change);
  const std::string owner = "owned by policy " + change.owner_conflict;
  switch (change.action) {
    case Action::Create:
    case Action::Update:
    case Action::Replace: return owner + (change.take_over ? ": taken over" : "");
    case Action::Delete:
    case Action::Release: return owner + (change.take_over ? ": taken over, " : ": ") + own_text(change);
    case Action::NoOp: break;
  }
  return own_text(change);
}

std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

}  // namespace mkq::reconcile
