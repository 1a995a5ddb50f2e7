// Server-side apply, a first cut: the applied configuration's fields (maps
// merged key by key; lists and scalars atomic) are recorded per field manager
// in metadata.managedFields (FieldsV1); applying a value another Apply manager
// owns, with a different value, is a conflict unless forced (then ownership
// moves); fields a manager applied before and no longer applies are removed
// unless another manager owns them. Update managers (?fieldManager on PUT,
// POST, PATCH) own the fields their writes changed, taken from the others;
// applying a different value to one of them conflicts too.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mkq::sandbox {

// Gives `manager` the fields of `object` that differ from `before` (every
// field when before is null), taking them from the other managers.
void note_manager(nlohmann::json& object, const nlohmann::json* before, const std::string& manager, const std::string& operation,
                  const std::string& api_version, const std::string& time);

// Records `manager`'s Apply entry for the fields of `config` in `object`.
void note_apply(nlohmann::json& object, const nlohmann::json& config, const std::string& manager,
                const std::string& api_version, const std::string& time);

// The object after applying `config` over `existing`; nullopt on conflicts,
// with Kubernetes' message ("Apply failed with 1 conflict: conflict with
// \"m\" using v1: .data.a") and the causes (reason FieldManagerConflict).
std::optional<nlohmann::json> server_side_apply(const nlohmann::json& existing, const nlohmann::json& config,
                                                const std::string& manager, const std::string& api_version,
                                                const std::string& time, bool force, std::string* message,
                                                nlohmann::json* causes);

}  // namespace mkq::sandbox
