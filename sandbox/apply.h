// Server-side apply and metadata.managedFields, as kube-apiserver v1.33 keeps
// them (structured-merge-diff's rules; field_set.h says what a field is).
//
// Every write has a manager: ?fieldManager, else the first segment of the
// request's User-Agent ("kubectl/v1.33.0 (linux/amd64) ..." → "kubectl").
// - An Update (POST, PUT, the patches) gives its manager the fields it added
//   or changed, taken from every other manager; fields it removed leave every
//   manager. The entry's time moves only when it took something.
// - An Apply merges the configuration into the live object (keyed and set
//   lists item by item, so two managers applying different items share the
//   list), drops the fields the manager applied last time and no longer
//   applies unless another manager owns them, and owns exactly what it
//   applied. Changing a field another manager owns is a conflict unless
//   forced (then the field moves). An Apply that changes nothing keeps the
//   entry's time, so the object is unchanged and the write is a no-op.
// Entries are kept in kube-apiserver's order: Apply before Update, then by
// time, manager, apiVersion and subresource.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sandbox/field_set.h"

namespace mkq::sandbox {

// Who writes, and when.
struct FieldManager {
  std::string manager;
  std::string api_version;  // the group/version written through ("v1", "kueue.x-k8s.io/v1beta2")
  std::string subresource;  // "" or "status"
  std::string time;         // RFC 3339, seconds
};

// The manager named by ?fieldManager, else by the User-Agent: its first
// segment, printable characters only, at most 128 bytes (kube-apiserver's
// managerOrUserAgent).
std::string manager_or_user_agent(const std::string& field_manager, const std::string& user_agent);

// Records an Update by `who`: the fields `object` changed from `before`
// (every field of a new object when before is null).
void note_update(nlohmann::json& object, const nlohmann::json* before, const FieldManager& who, const FieldTypes& types);

// Why an apply was refused: a conflict (409, message and FieldManagerConflict
// causes as kube-apiserver words them) or a configuration structured-merge-diff
// cannot type (an unkeyed item of a keyed list, a duplicate; kube-apiserver
// answers it as a 500 without a reason, prefixed by the caller).
struct ApplyRefusal {
  bool conflict = false;
  std::string message;
  nlohmann::json causes = nlohmann::json::array();
};

// The object after `who` applies `config` over `existing` (null: a new
// object), its managedFields updated; nullopt with *refusal when refused.
std::optional<nlohmann::json> server_side_apply(const nlohmann::json* existing, const nlohmann::json& config,
                                                const FieldManager& who, bool force, const FieldTypes& types,
                                                ApplyRefusal* refusal);

}  // namespace mkq::sandbox
